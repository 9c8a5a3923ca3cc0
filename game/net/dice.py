"""Fair dice for network play, plugged in through the dice object the rules take.

Every class here is a :class:`game.rules.dice.Dice`, so the rules engine needs no
change: it calls ``d6()`` as always.

- :class:`TableDice` hands out rolls from a table that grows as rolls become
  known.  When the rules ask for a roll that is not known yet, ``d6()`` raises
  :class:`RollNeeded` (a BaseException, so no ``except Exception`` in an AI or a
  hook can swallow it); ``Game.apply`` then restores the position and the dice
  cursor exactly, the session obtains the roll over the network and applies the
  same action again.  A reload replays the same table, so it gives the same rolls.
- :class:`CommitRevealDice` (live play, direct): each player holds a secret hash
  chain and commits to its root before the battle; roll ``k`` is
  ``sha256("hexfront-roll" | k | axis_k | allies_k)`` mod 6 + 1, where ``side_k``
  is that player's ``k+1``-th chain value, revealed only when that player's own
  rules engine needs roll ``k`` for an action already sent.  Each value was fixed
  by the commitment (its hash is the previous value), so nobody can choose or
  change a contribution after seeing the other's, and nobody can compute roll
  ``k`` before both have revealed: the other's value is a preimage of a hash.
- :class:`SeededDice` (the relay, turn-by-turn): ``Dice(seed)`` that records the
  values it rolled; the relay commits to ``sha256(salt | seed)`` at game creation
  and reveals seed and salt when the game ends, so each client can check every
  roll it was handed with :func:`audit_seed`.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from game.rules.dice import Dice

__all__ = ["RollNeeded", "TableDice", "HashChain", "ChainVerifier", "CommitRevealDice",
           "SeededDice", "derive_roll", "seed_commitment", "audit_seed", "new_seed",
           "CHAIN_LENGTH", "DiceError"]

CHAIN_LENGTH = 1 << 15        # rolls per battle it can serve (a battle rolls about 1,000)


class RollNeeded(BaseException):
    """The rules asked for roll ``k`` before it is known (caught by the session)."""

    def __init__(self, k: int) -> None:
        super().__init__(k)
        self.k = k


class DiceError(ValueError):
    """A dice contribution or commitment that does not check out (readable)."""


def _h(tag: bytes, *parts: bytes) -> bytes:
    m = hashlib.sha256(tag)
    for p in parts:
        m.update(p)
    return m.digest()


class TableDice(Dice):
    """Rolls from a table of known values; RollNeeded past its end."""

    def __init__(self, rolls: list[int] | None = None) -> None:
        super().__init__(None)
        self.table: list[int] = []       # the facts: shared by copies made for undo/apply
        self.pos = 0
        for v in rolls or []:
            self.add(v)

    def add(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise DiceError(f"a die shows 1-6, not {value!r}")
        self.table.append(value)

    def d6(self) -> int:
        if self.pos >= len(self.table):
            raise RollNeeded(self.pos)
        v = self.table[self.pos]
        self.pos += 1
        self.rolls += 1
        return v

    def getstate(self) -> object:
        return (self.pos, self.rolls)

    def setstate(self, state: object) -> None:
        self.pos, self.rolls = state  # type: ignore[misc]

    def copy(self) -> "TableDice":
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.table = list(self.table)
        return other


# --- commit-reveal hash chains ----------------------------------------------------------------
class HashChain:
    """A player's secret chain: ``values[L] = H(secret)``, ``values[i-1] = H(values[i])``;
    ``root = values[0]`` is committed, ``reveal(k) = values[k + 1]``."""

    def __init__(self, secret: bytes | None = None, length: int = CHAIN_LENGTH) -> None:
        self.secret = secret if secret is not None else secrets.token_bytes(32)
        if len(self.secret) != 32:
            raise DiceError("a chain secret is 32 bytes")
        self.length = length
        v = _h(b"hexfront-chain-top", self.secret)
        vals = [v]
        for _ in range(length):
            v = _h(b"hexfront-chain", v)
            vals.append(v)
        vals.reverse()
        self.values = vals           # values[0] is the root

    @property
    def root(self) -> str:
        return self.values[0].hex()

    def reveal(self, k: int) -> str:
        if not 0 <= k < self.length:
            raise DiceError(f"this battle has used all {self.length} committed rolls")
        return self.values[k + 1].hex()


class ChainVerifier:
    """Checks the other player's reveals, in order, against their committed root."""

    def __init__(self, root: str) -> None:
        try:
            self.last = bytes.fromhex(root)
        except ValueError:
            raise DiceError("a chain commitment is 64 hex digits") from None
        if len(self.last) != 32:
            raise DiceError("a chain commitment is 64 hex digits")
        self.count = 0               # reveals accepted (the next must be for roll `count`)
        self.values: list[bytes] = []

    def accept(self, k: int, value_hex: str) -> bytes:
        if k != self.count:
            raise DiceError(f"a dice reveal for roll {k} arrived out of order "
                            f"(expected roll {self.count})")
        try:
            v = bytes.fromhex(value_hex)
        except ValueError:
            raise DiceError("a dice reveal is 64 hex digits") from None
        if len(v) != 32 or not hmac.compare_digest(_h(b"hexfront-chain", v), self.last):
            raise DiceError(f"the dice reveal for roll {k} does not match the committed chain "
                            f"(a forged or altered contribution)")
        self.last = v
        self.count += 1
        self.values.append(v)
        return v


def derive_roll(k: int, axis_value: bytes, allies_value: bytes) -> int:
    d = _h(b"hexfront-roll", k.to_bytes(8, "big"), axis_value, allies_value)
    return int.from_bytes(d, "big") % 6 + 1


class CommitRevealDice(TableDice):
    """The table of a live direct battle: roll ``k`` is known once both players'
    reveals for ``k`` are in (``mine`` is this machine's chain, ``theirs`` checks the
    other's).  ``seat`` is this machine's side."""

    def __init__(self, seat: str, mine: HashChain, their_root: str) -> None:
        super().__init__()
        self.seat = seat
        self.mine = mine
        self.theirs = ChainVerifier(their_root)
        self.sent = 0                 # my reveals sent so far (for rolls 0..sent-1)

    def my_reveal(self, k: int) -> str:
        if k != self.sent:
            raise DiceError(f"reveals go in order (roll {self.sent} next, not {k})")
        value = self.mine.reveal(k)
        self.sent += 1
        self._resolve()
        return value

    def their_reveal(self, k: int, value_hex: str) -> None:
        self.theirs.accept(k, value_hex)
        self._resolve()

    def _resolve(self) -> None:
        while len(self.table) < min(self.sent, self.theirs.count):
            k = len(self.table)
            mine = self.mine.values[k + 1]
            theirs = self.theirs.values[k]
            ax, al = (mine, theirs) if self.seat == "Axis" else (theirs, mine)
            self.add(derive_roll(k, ax, al))

    def copy(self) -> "TableDice":
        # a copy (the AI's view, an undo replay) gets the known rolls only, never the chains
        other = TableDice(list(self.table))
        other.pos, other.rolls = self.pos, self.rolls
        return other


def offline_rolls(axis: HashChain, allies: HashChain, n: int) -> list[int]:
    """The first ``n`` rolls of a battle whose two chains are both known (tests, the
    local reference games of the bench)."""
    return [derive_roll(k, axis.values[k + 1], allies.values[k + 1]) for k in range(n)]


__all__.append("offline_rolls")


# --- the relay's seed -------------------------------------------------------------------------
def new_seed() -> tuple[int, str]:
    """A secret seed and salt for a relay game."""
    return secrets.randbits(62), secrets.token_hex(16)


def seed_commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"hexfront-seed|{salt}|{seed}".encode()).hexdigest()


class SeededDice(Dice):
    """``Dice(seed)`` that records every value (the relay hands them to the clients)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.record: list[int] = []

    def d6(self) -> int:
        v = super().d6()
        self.record.append(v)
        return v

    def getstate(self) -> object:
        return (super().getstate(), len(self.record))

    def setstate(self, state: object) -> None:
        inner, n = state  # type: ignore[misc]
        super().setstate(inner)
        del self.record[n:]

    def copy(self) -> "SeededDice":
        other = SeededDice.__new__(SeededDice)
        base = Dice.copy(self)
        other.__dict__.update(base.__dict__)
        other.record = list(self.record)
        return other


def audit_seed(commit: str, seed: int, salt: str, rolls: list[int]) -> str | None:
    """None when ``seed``/``salt`` match ``commit`` and ``Dice(seed)`` gives exactly
    ``rolls``; otherwise what is wrong."""
    if not hmac.compare_digest(seed_commitment(seed, salt), commit):
        return "the relay's revealed seed does not match the commitment it made at the start"
    d = Dice(seed)
    for i, r in enumerate(rolls):
        if d.d6() != r:
            return f"roll {i + 1} the relay handed out does not come from its committed seed"
    return None
