"""The one source of randomness in the rules: an injected dice object.

A game is replayed exactly from its seed plus its action list, because every
roll is drawn from one :class:`Dice`.  Tests use :class:`LoadedDice` to say
"these dice will come up 6, 6, 5, 1".
"""
from __future__ import annotations

import random
from typing import Iterable

__all__ = ["Dice", "LoadedDice", "DiceExhausted"]


class DiceExhausted(RuntimeError):
    """A LoadedDice was asked for more rolls than it was loaded with."""


class Dice:
    """Six-sided dice from a seeded generator.  ``rolls`` counts dice thrown.

    Copies are cheap (the AI copies games often): a copy holds the generator's
    state and builds its own generator only when it first rolls."""

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed)
        self._state: object = None       # the generator state while _rng is not built
        self._snap: tuple[object, int] | None = None   # (getstate(), rolls) cache
        self.rolls = 0

    def _generator(self) -> random.Random:
        rng = self._rng
        if rng is None:
            rng = random.Random.__new__(random.Random)   # no fresh seeding: state is set
            rng.setstate(self._state)  # type: ignore[arg-type]
            self._rng, self._state = rng, None
        return rng

    def d6(self) -> int:
        rng = self._rng if self._rng is not None else self._generator()
        self.rolls += 1
        return rng.randint(1, 6)

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` dice (``n`` may be 0)."""
        return tuple(self.d6() for _ in range(max(0, n)))

    def _rng_state(self) -> object:
        if self._rng is None:
            return self._state
        snap = self._snap
        if snap is not None and snap[1] == self.rolls:
            return snap[0]
        st = self._rng.getstate()
        self._snap = (st, self.rolls)
        return st

    def getstate(self) -> object:
        return (self._rng_state(), self.rolls)

    def setstate(self, state: object) -> None:
        assert isinstance(state, tuple)
        rng_state, rolls = state
        self._rng, self._state, self._snap = None, rng_state, None
        self.rolls = int(rolls)

    def copy(self) -> "Dice":
        other = Dice.__new__(Dice)
        other.seed = self.seed
        other._rng, other._state, other._snap = None, self._rng_state(), None
        other.rolls = self.rolls
        return other


class LoadedDice(Dice):
    """Dice that come up exactly the given values, in order, then fail loudly."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(None)
        self.values = list(values)
        for v in self.values:
            if not (isinstance(v, int) and 1 <= v <= 6):
                raise ValueError(f"a die shows 1-6, not {v!r}")
        self.pos = 0

    def d6(self) -> int:
        if self.pos >= len(self.values):
            raise DiceExhausted(
                f"loaded dice ran out after {len(self.values)} rolls")
        v = self.values[self.pos]
        self.pos += 1
        self.rolls += 1
        return v

    @property
    def remaining(self) -> int:
        return len(self.values) - self.pos

    def getstate(self) -> object:
        return (tuple(self.values), self.pos, self.rolls)

    def setstate(self, state: object) -> None:
        assert isinstance(state, tuple)
        values, pos, rolls = state
        self.values, self.pos, self.rolls = list(values), int(pos), int(rolls)

    def copy(self) -> "LoadedDice":
        other = LoadedDice(self.values)
        other.pos, other.rolls = self.pos, self.rolls
        return other
