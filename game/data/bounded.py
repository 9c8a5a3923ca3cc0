"""Bounded reading and atomic writing of any file Hexfront opens.

Every loader (cards, sections, configurations, armies, situations, saves,
settings) reads through here, so each has the same limits checked *before*
anything is expanded: the file's size (read at most ``max_bytes`` + 1 bytes),
its encoding (UTF-8; a UTF-16 or UTF-32 file is named as such, a binary file
too), and for JSON: nesting depth, value count, number length, NaN/Infinity
and duplicate keys.  :func:`short` renders any value in at most a few dozen
characters, so no message ever echoes an unbounded value.

:func:`write_text_atomic` writes a file so that it holds either the old or the
new text, never a mix, and never leaves its temporary file behind when the
write fails (a full disk); :func:`clean_leftovers` removes the temporary files
of writes that a kill interrupted.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from game.rules.errors import DataError

__all__ = ["MAX_NUMBER_CHARS", "short", "short_number", "read_limited", "decode_text",
           "parse_json", "read_json", "write_text_atomic", "clean_leftovers", "tmp_path_for",
           "JsonLimits"]

#: No number in any Hexfront file needs more characters than this (a 64-bit seed has 20).
MAX_NUMBER_CHARS = 24
TMP_SUFFIX = ".tmp"


# --- bounded rendering ----------------------------------------------------------------------------
def short_number(digits: str) -> str:
    """``'a number 400 digits long (123456789012...)'`` for a too-long number's text."""
    s = digits.strip()
    n = sum(ch.isdigit() for ch in s)
    head = s[:12]
    return f"a number {n:,} digits long ({head}...)" if len(s) > 12 else f"the number {s}"


def short(value: Any, limit: int = 40) -> str:
    """A readable rendering of ``value`` in at most ``limit`` (+3) characters.

    Never walks more than a few items of a container, so a huge or deeply nested
    value costs nothing to show."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "nothing"}[value]
    if isinstance(value, int):
        # never str() a huge int (Python refuses past 4,300 digits, and it is slow)
        if value.bit_length() > 200:
            return f"a number about {int(value.bit_length() * 0.30103):,} digits long"
        s = str(value)
        return s if len(s) <= limit else short_number(s)
    if isinstance(value, float):
        s = repr(value)
        return s if len(s) <= limit else s[:limit] + "..."
    if isinstance(value, str):
        s = value[: limit + 1]
        r = repr(s[:limit]) if len(value) <= limit else repr(s[:limit - 3])[:-1] + "...'"
        return r if len(value) <= limit else r + f" ({len(value):,} characters)"
    if isinstance(value, dict):
        return f"a mapping of {len(value):,} field(s)"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value):,} item(s)"
    return f"a {type(value).__name__}"


# --- reading -------------------------------------------------------------------------------------
def read_limited(path: str | os.PathLike[str], name: str, max_bytes: int,
                 what: str = "data file") -> bytes:
    """The bytes of ``path``; DataError when missing, a folder or over ``max_bytes``.

    Reads at most ``max_bytes`` + 1 bytes, so a file that grows (or a device)
    can't make it read more."""
    p = Path(path)
    try:
        if p.is_dir():
            raise DataError(name, "is a folder, not a file")
        with open(p, "rb") as f:
            raw = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise DataError(name, "file not found") from None
    except IsADirectoryError:
        raise DataError(name, "is a folder, not a file") from None
    except OSError as exc:
        raise DataError(name, f"can't read the file ({exc.strerror or type(exc).__name__})") \
            from None
    if len(raw) > max_bytes:
        raise DataError(name, f"file is more than {_size(max_bytes)}, the most a {what} may "
                              f"have")
    return raw


def _size(n: int) -> str:
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MiB"
    return f"{n // 1024} KiB"


def _utf16_or_32(raw: bytes) -> str | None:
    """'UTF-16' / 'UTF-32' when the bytes look like that encoding, else None."""
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    head = raw[:4096]
    if len(head) >= 8:
        n = len(head) // 4 * 4
        z = [head[i:n:4].count(0) for i in range(4)]
        quarter = n // 4
        if (z[1] == z[2] == z[3] == quarter and z[0] < quarter) or \
                (z[0] == z[1] == z[2] == quarter and z[3] < quarter):
            return "UTF-32"
        half = len(head) // 2
        even, odd = head[0::2].count(0), head[1::2].count(0)
        if (odd >= 0.9 * half and even <= 0.1 * half) or (even >= 0.9 * half and odd <= 0.1 * half):
            return "UTF-16"
    return None


def decode_text(raw: bytes, name: str, what: str = "YAML text") -> str:
    """UTF-8 text of ``raw`` (a UTF-8 BOM is allowed); DataError otherwise:
    a UTF-16/UTF-32 file says so and asks for UTF-8, a binary file is named."""
    enc = _utf16_or_32(raw)
    if enc is not None:
        raise DataError(name, f"this file is {enc} text; save it as UTF-8")
    if b"\x00" in raw:
        raise DataError(name, f"this is a binary file, not {what}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(name, f"not UTF-8 text (bad byte at offset {exc.start:,}); save it as "
                              f"UTF-8") from None


class JsonLimits:
    """How big a JSON document may be: nesting depth and number of values."""

    def __init__(self, max_depth: int = 32, max_nodes: int = 2_000_000) -> None:
        self.max_depth = max_depth
        self.max_nodes = max_nodes


class _JsonRefused(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _JsonRefused(f"duplicate key {short(k)}: a key may appear only once")
        out[k] = v
    return out


def _int(s: str) -> int:
    if len(s) > MAX_NUMBER_CHARS:
        raise _JsonRefused(f"{short_number(s)} is longer than any Hexfront value")
    return int(s)


def _float(s: str) -> float:
    if len(s) > MAX_NUMBER_CHARS:
        raise _JsonRefused(f"{short_number(s)} is longer than any Hexfront value")
    return float(s)


def _constant(s: str) -> float:
    raise _JsonRefused(f"{s} is not a number Hexfront accepts")


def _check_shape(data: Any, name: str, limits: JsonLimits) -> None:
    """Depth and value count, without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes:
            raise DataError(name, f"more than {limits.max_nodes:,} values: far more than any "
                                  f"Hexfront file has")
        if isinstance(node, (dict, list)):
            if depth > limits.max_depth:
                raise DataError(name, f"nested more than {limits.max_depth} levels deep: no "
                                      f"Hexfront file is")
            items = node.values() if isinstance(node, dict) else node
            stack.extend((v, depth + 1) for v in items)


def parse_json(text: str, name: str, limits: JsonLimits | None = None) -> Any:
    """Parse JSON text within ``limits``; DataError (with line) for anything else.

    Duplicate keys, NaN/Infinity and numbers longer than MAX_NUMBER_CHARS are
    refused while parsing (before any value is built from them)."""
    lim = limits or JsonLimits()
    dec = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_int=_int,
                           parse_float=_float, parse_constant=_constant)
    try:
        data = dec.decode(text)
    except _JsonRefused as exc:
        raise DataError(name, str(exc)) from None
    except RecursionError:
        raise DataError(name, f"nested more than {lim.max_depth} levels deep: no Hexfront "
                              f"file is") from None
    except json.JSONDecodeError as exc:
        body = text.strip()
        if body.startswith("{") and not body.endswith("}"):
            what = f"the file ends too early: it was cut off (truncated), {exc.msg.lower()}"
        elif not body.startswith(("{", "[")):
            what = "not JSON text (Hexfront saves and settings are JSON files that start " \
                   "with '{')"
        else:
            what = f"not valid JSON: {exc.msg}"
        raise DataError(name, f"{what} (column {exc.colno:,})", line=exc.lineno) from None
    _check_shape(data, name, lim)
    return data


def read_json(path: str | os.PathLike[str], name: str | None = None, *,
              max_bytes: int = 1024 * 1024, limits: JsonLimits | None = None,
              what: str = "JSON file") -> Any:
    """Read one JSON file within every limit (size, encoding, depth, numbers, keys)."""
    shown = name or str(path)
    raw = read_limited(path, shown, max_bytes, what)
    if not raw.strip():
        raise DataError(shown, "the file is empty")
    return parse_json(decode_text(raw, shown, "JSON text"), shown, limits)


# --- writing -------------------------------------------------------------------------------------
def tmp_path_for(path: Path) -> Path:
    """The temporary file a write of ``path`` uses: ``.<name>.<pid>.tmp`` beside it."""
    return path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")


def write_text_atomic(path: str | os.PathLike[str], text: str, *, fsync: bool = True) -> Path:
    """Write ``text`` so that ``path`` holds either the old or the new file, never a
    mix: temporary file in the same folder, flush, fsync, rename, fsync the folder.
    When anything fails (a full disk) the temporary file is removed and the error
    raised; the old file is untouched."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_path_for(p)
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    if fsync and hasattr(os, "O_DIRECTORY"):
        try:
            fd = os.open(p.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            pass
    return p


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return False          # our own leftovers: this run has not written them yet
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def clean_leftovers(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of interrupted writes in ``folder`` (not its
    subfolders): ``.<name>.<pid>.tmp`` whose writer is no longer running, and the
    old-style ``<name>.tmp``.  Returns what was removed."""
    d = Path(folder)
    removed: list[Path] = []
    try:
        entries = list(d.iterdir())
    except OSError:
        return removed
    for p in entries:
        name = p.name
        if not name.endswith(TMP_SUFFIX):
            continue
        stem = name[: -len(TMP_SUFFIX)]
        pid_text = stem.rsplit(".", 1)[-1] if name.startswith(".") else ""
        if pid_text.isdigit() and len(pid_text) <= 10 and _pid_alive(int(pid_text)):
            continue                          # another running Hexfront is writing it
        try:
            if p.is_file() or p.is_symlink():
                p.unlink()
                removed.append(p)
        except OSError:
            pass
    return removed
