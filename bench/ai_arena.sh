#!/bin/sh
# The AI's measured goals (issue 7), seeded and reproducible:
#   Veteran vs random >= 95%, Veteran vs Recruit >= 65%, Recruit vs random >= 80%;
#   decision p95 < 250 ms, none > 1 s; an AI-vs-AI game < 2 s median.
# Usage: sh bench/ai_arena.sh [GAMES] [JOBS]     (default 200 games, 2 jobs)
# Win rates use --jobs; the timing run (Veteran vs Recruit) plays one game at a
# time so the decision and game times are not shared with a second process.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
GAMES=${1:-200}
JOBS=${2:-2}
echo "== Veteran vs random"
$PY -m game.ai.arena --a veteran --b random --games "$GAMES" --seed 1 --jobs "$JOBS" --quiet
echo
echo "== Recruit vs random"
$PY -m game.ai.arena --a recruit --b random --games "$GAMES" --seed 1 --jobs "$JOBS" --quiet
echo
echo "== Veteran vs Recruit (one game at a time: the timings)"
$PY -m game.ai.arena --a veteran --b recruit --games "$GAMES" --seed 1 --jobs 1 --quiet
echo
echo "== Veteran vs Recruit, Assault scenario"
$PY -m game.ai.arena --a veteran --b recruit --games "$((GAMES / 4))" --seed 2 --scenario assault --jobs "$JOBS" --quiet
