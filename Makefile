# Hexfront: `make play` starts the game, `make test` runs the whole suite.
# Both create .venv from requirements.txt when it is missing or older than it.
# `make test` type-checks the rules and data packages (mypy --strict) before the suite.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: play test preview bench clean-venv

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --only-binary=:all: -r requirements.txt || \
	  $(PY) -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

play: $(STAMP)
	$(PY) main.py

preview: $(STAMP)
	$(PY) main.py --preview

test: $(STAMP)
	$(PY) -m mypy --strict game/rules game/data game/saves game/situations
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 \
	  $(PY) -m pytest -q -p no:cacheprovider -n 2 tests

bench: $(STAMP)
	@for f in bench/*.py; do echo "== $$f"; SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) $$f || exit 1; done

clean-venv:
	rm -rf $(VENV)
