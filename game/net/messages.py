"""The network message schema: every message, both ways, checked like a save file.

A message is one UTF-8 JSON object (one WebSocket text frame) with a type field
``"t"``.  :func:`decode` turns raw bytes or text into a checked dict or raises
:class:`ProtocolError` with a sentence that says what is wrong (size, encoding,
JSON, unknown type, missing / unknown / mistyped field); it never raises anything
else, so a bad message can be answered with an ``error`` message and the
connection survives it.  :func:`encode` checks outgoing messages with the same
schema, so a bug on our side is caught before it reaches the other machine.

Actions travel as ``game.rules.actions.action_to_dict`` dicts and are parsed with
``action_from_dict`` by :func:`parse_action` (MalformedAction becomes a
ProtocolError).  Whether an action is *legal* is for the rules to say on every
machine, not for this module.
"""
from __future__ import annotations

import json
from typing import Any, Callable

__all__ = ["PROTOCOL", "MAX_MESSAGE_BYTES", "MAX_DEPTH", "ProtocolError", "SCHEMA",
           "decode", "encode", "parse_action", "check_message", "chat_problem", "CHAT_MAX",
           "CHAT_RATE", "CHAT_BURST"]

PROTOCOL = 2                          # 2: armies stay secret until deployment
MAX_MESSAGE_BYTES = 64 * 1024        # the whole record of a long game is sent in pieces
MAX_DEPTH = 8
MAX_LIST = 4096
SIDES = ("Axis", "Allies")


class ProtocolError(ValueError):
    """A message that is not a well-formed Hexfront message (the reason is readable)."""


# --- field validators: each returns None when fine, else what was expected ------------------------
Check = Callable[[Any], "str | None"]


def _int(lo: int, hi: int) -> Check:
    def f(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            return f"a whole number {lo}-{hi}"
        return None
    return f


def _text(max_len: int, min_len: int = 0) -> Check:
    def f(v: Any) -> str | None:
        if not isinstance(v, str) or not min_len <= len(v) <= max_len:
            return f"text of {min_len}-{max_len} characters"
        if any(ord(ch) < 32 and ch not in "\t" for ch in v):
            return "text without control characters"
        return None
    return f


def _hexstr(n: int) -> Check:
    def f(v: Any) -> str | None:
        if not isinstance(v, str) or len(v) != n or any(ch not in "0123456789abcdef" for ch in v):
            return f"{n} lower-case hex digits"
        return None
    return f


def _token(v: Any) -> str | None:
    if not isinstance(v, str) or not 16 <= len(v) <= 64 or \
            any(not (ch.isascii() and (ch.isalnum() or ch in "-_")) for ch in v):
        return "a seat token (16-64 letters, digits, - or _)"
    return None


def _one_of(*choices: Any) -> Check:
    def f(v: Any) -> str | None:
        if isinstance(v, bool) or v not in choices:
            return "one of " + ", ".join(str(c) for c in choices)
        return None
    return f


def _maybe(check: Check) -> Check:
    def f(v: Any) -> str | None:
        return None if v is None else check(v)
    return f


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "true or false"


def _list(item: Check, max_len: int = MAX_LIST) -> Check:
    def f(v: Any) -> str | None:
        if not isinstance(v, list) or len(v) > max_len:
            return f"a list of at most {max_len} items"
        for x in v:
            bad = item(x)
            if bad:
                return f"a list of {bad}"
        return None
    return f


def _obj(v: Any) -> str | None:
    return None if isinstance(v, dict) and len(v) <= 64 else "an object"


def _options(v: Any) -> str | None:
    """Game options: a small object of plain values (the rules read them)."""
    if not isinstance(v, dict) or len(v) > 16:
        return "an object of at most 16 options"
    for k, x in v.items():
        if not isinstance(k, str) or len(k) > 40:
            return "option names of at most 40 characters"
        if not (x is None or isinstance(x, (bool, str)) or
                (isinstance(x, int) and -10**9 < x < 10**9)):
            return "option values that are numbers, text, true/false or null"
        if isinstance(x, str) and len(x) > 40:
            return "short option values"
    return None


_CARD = _text(80, 1)
_ROLLS = _list(_int(1, 6), 512)
_HASH = _hexstr(64)
_GAME = _text(40, 4)
_SEQ = _int(0, 100_000)

#: type -> {field: (required, check)}
SCHEMA: dict[str, dict[str, tuple[bool, Check]]] = {
    # --- client -> relay ---
    "create": {"v": (True, _int(1, 99)), "scenario": (True, _one_of("standard", "assault")),
               "config": (True, _int(1, 6)), "options": (False, _options),
               "seat": (True, _one_of(*SIDES)), "name": (False, _text(40))},
    "join": {"v": (True, _int(1, 99)), "game": (False, _GAME), "code": (True, _text(12, 4))},
    "hello": {"v": (True, _int(1, 99)), "game": (True, _GAME), "seat": (True, _one_of(*SIDES)),
              "token": (True, _token), "have": (False, _SEQ)},
    "status": {"v": (True, _int(1, 99)), "game": (True, _GAME), "seat": (True, _one_of(*SIDES)),
               "token": (True, _token)},
    "army": {"cards": (True, _list(_CARD, 30)), "salt": (True, _hexstr(32))},
    "action": {"seq": (True, _SEQ), "action": (True, _obj)},
    "hash": {"seq": (True, _SEQ), "hash": (True, _HASH)},
    "chat": {"text": (True, _text(200, 1))},
    "bye": {},
    # --- relay -> client ---
    "created": {"game": (True, _GAME), "seat": (True, _one_of(*SIDES)), "token": (True, _token),
                "code": (True, _text(12, 4)), "dice_commit": (True, _HASH)},
    "welcome": {"game": (True, _GAME), "seat": (True, _one_of(*SIDES)),
                "token": (False, _token), "scenario": (True, _one_of("standard", "assault")),
                "config": (True, _int(1, 6)), "options": (True, _options),
                "dice": (True, _one_of("relay", "commit-reveal")),
                "dice_commit": (False, _maybe(_HASH)), "chain_root": (False, _maybe(_HASH)),
                "opponent": (True, _one_of("connected", "away", "none")),
                "army_in": (False, _bool)},
    "state": {"game": (True, _GAME), "status": (True, _one_of("open", "playing", "over",
                                                               "desync"))},
    "begin": {"start_rolls": (True, _ROLLS)},
    "armies": {"armies": (True, _obj), "salts": (True, _obj)},
    "army_info": {"side": (True, _one_of(*SIDES)), "points": (True, _int(0, 10_000)),
                  "count": (True, _int(0, 30)), "digest": (False, _maybe(_HASH))},
    "played": {"seq": (True, _SEQ), "action": (True, _obj), "rolls": (False, _ROLLS),
               "hash": (False, _maybe(_HASH))},
    "record": {"from": (True, _SEQ), "actions": (True, _list(_obj, 512)),
               "rolls": (True, _list(_ROLLS, 512)), "hashes": (True, _list(_HASH, 512)),
               "more": (True, _bool)},
    "turn": {"to_act": (True, _maybe(_one_of(*SIDES))), "seq": (True, _SEQ)},
    "opponent": {"status": (True, _one_of("connected", "away"))},
    "over": {"winner": (True, _maybe(_one_of(*SIDES))), "reason": (True, _text(200)),
             "seed": (False, _int(0, 2**63)), "salt": (False, _maybe(_hexstr(32)))},
    "desync": {"seq": (True, _SEQ), "text": (True, _text(300))},
    "error": {"text": (True, _text(300)), "fatal": (False, _bool), "about": (False, _text(20))},
    # --- peer <-> peer (direct play: commit-reveal dice, secret armies) ---
    "commit": {"root": (True, _HASH)},
    "army_commit": {"digest": (True, _HASH), "points": (True, _int(0, 10_000)),
                    "count": (True, _int(0, 30))},
    "army_reveal": {"cards": (True, _list(_CARD, 30)), "salt": (True, _hexstr(32))},
    "reveal": {"k": (True, _int(0, 10**6)), "value": (True, _HASH)},
    "resume": {"have": (True, _SEQ), "reveals": (True, _int(0, 10**6))},
}


CHAT_MAX = 200
CHAT_RATE, CHAT_BURST = 1.0, 5        # chat lines a second per seat (sustained), burst


def chat_problem(text: Any) -> str | None:
    """Why a chat line can't be sent (None when fine): 1-200 characters of text without
    control characters - the schema's own check, for the screen to say before sending."""
    if not isinstance(text, str) or not text.strip():
        return "type something to say first"
    bad = SCHEMA["chat"]["text"][1](text)
    return None if bad is None else f"a chat line must be {bad}"


def _depth(v: Any, d: int = 0) -> int:
    if d > MAX_DEPTH:
        return d
    if isinstance(v, dict):
        return max([_depth(x, d + 1) for x in v.values()] or [d + 1])
    if isinstance(v, list):
        return max([_depth(x, d + 1) for x in v] or [d + 1])
    return d


def check_message(msg: Any) -> dict:
    """Check an already-parsed message against :data:`SCHEMA`; the message or ProtocolError."""
    if not isinstance(msg, dict):
        raise ProtocolError("a message must be a JSON object")
    t = msg.get("t")
    if not isinstance(t, str) or t not in SCHEMA:
        shown = json.dumps(t)[:30] if isinstance(t, (str, int, float, bool, type(None))) else "?"
        raise ProtocolError(f"unknown message type {shown}")
    spec = SCHEMA[t]
    for k in msg:
        if k != "t" and k not in spec:
            raise ProtocolError(f"'{t}' message: unknown field '{str(k)[:30]}'")
    for k, (required, check) in spec.items():
        if k not in msg:
            if required:
                raise ProtocolError(f"'{t}' message: field '{k}' is missing")
            continue
        bad = check(msg[k])
        if bad:
            raise ProtocolError(f"'{t}' message: field '{k}' must be {bad}")
    if _depth(msg) > MAX_DEPTH:
        raise ProtocolError("the message is nested too deeply")
    return msg


def decode(raw: Any) -> dict:
    """Bytes or text off the wire -> a checked message (ProtocolError otherwise)."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw)
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError(f"the message is {len(raw)} bytes, more than the "
                                f"{MAX_MESSAGE_BYTES} allowed")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("the message is not UTF-8 text") from None
    elif isinstance(raw, str):
        text = raw
        if len(text) > MAX_MESSAGE_BYTES:
            raise ProtocolError(f"the message is longer than the {MAX_MESSAGE_BYTES} "
                                f"characters allowed")
    else:
        raise ProtocolError("the message is neither text nor bytes")
    if "\x00" in text:
        raise ProtocolError("the message contains a NUL character")
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ProtocolError("the message is nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError(f"the message is not valid JSON ({str(exc)[:80]})") from None
    return check_message(msg)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def encode(msg: dict) -> str:
    """A message -> JSON text, checked against the schema first (a bug on our side
    raises ProtocolError here instead of confusing the other machine)."""
    check_message(msg)
    text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("outgoing message too large")
    return text


def parse_action(d: Any, side: str | None = None):
    """An ``action`` field -> a rules Action (ProtocolError if malformed or, with
    ``side``, if it is not that side's action)."""
    from game.rules.actions import action_from_dict
    from game.rules.errors import MalformedAction
    try:
        a = action_from_dict(d)
    except MalformedAction as exc:
        raise ProtocolError(f"malformed action: {str(exc)[:200]}") from None
    except RecursionError:
        raise ProtocolError("malformed action: nested too deeply") from None
    if a.side not in SIDES:
        raise ProtocolError("malformed action: side must be Axis or Allies")
    if side is not None and a.side != side:
        raise ProtocolError(f"you play the {side} side, not the {a.side} side")
    path = getattr(a, "path", None)
    if path is not None and len(path) > 64:
        raise ProtocolError("malformed action: path too long")
    for f in ("uid", "target", "carrier", "mode", "end"):
        v = getattr(a, f, None)
        if isinstance(v, str) and len(v) > 60:
            raise ProtocolError(f"malformed action: {f} too long")
    return a


async def send_message(ws: Any, msg: dict[str, Any]) -> None:
    """Encode and send one message on a connection, if there is one; a connection that
    has just closed drops it (the reconnect resends from the record)."""
    from websockets.exceptions import ConnectionClosed
    if ws is None:
        return
    try:
        await ws.send(encode(msg))
    except ConnectionClosed:
        pass
