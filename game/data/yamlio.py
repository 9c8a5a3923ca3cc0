"""Safe YAML reading that remembers line numbers, plus a small field checker.

Only PyYAML's *safe* loader is used (a subclass that adds line numbers; it
constructs nothing but plain dicts, lists, strings and numbers).  Every
problem becomes a :class:`~game.rules.errors.DataError` that names the file,
the entry and the field, with the line where the YAML says it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from game.rules.errors import DataError

__all__ = ["read_yaml", "parse_yaml", "LineDict", "LineList", "line_of",
           "Checker", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 2 * 1024 * 1024   # no Hexfront data file is anywhere near this


class LineDict(dict):
    """A dict that knows the line of each key (``lines[key]``) and its own."""
    line: int | None = None
    lines: dict

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, **k)
        self.lines = {}


class LineList(list):
    """A list that knows the line of each item and its own."""
    line: int | None = None
    lines: list

    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.lines = []


def line_of(node: Any, key: Any = None) -> int | None:
    """Line of ``node[key]`` (or of the node itself) when known."""
    if key is not None:
        lines = getattr(node, "lines", None)
        if isinstance(lines, dict):
            return lines.get(key, getattr(node, "line", None))
        if isinstance(lines, list) and isinstance(key, int) and 0 <= key < len(lines):
            return lines[key]
    return getattr(node, "line", None)


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds LineDict / LineList (still only plain data)."""


def _construct_map(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key '{key}'", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def _construct_seq(loader: _LineLoader, node: yaml.SequenceNode) -> LineList:
    result = LineList()
    result.line = node.start_mark.line + 1
    for child in node.value:
        result.append(loader.construct_object(child, deep=True))
        result.lines.append(child.start_mark.line + 1)
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_seq)


def parse_yaml(text: str, file: str = "<text>") -> Any:
    """Parse YAML text safely; a syntax error becomes a DataError with its line."""
    if "\x00" in text:
        raise DataError(file, "this is a binary file, not YAML text")
    loader = _LineLoader(text)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "not valid YAML"
        raise DataError(file, f"YAML syntax error: {what}", line=line) from None
    except yaml.YAMLError as exc:
        raise DataError(file, f"YAML error: {exc}") from None
    finally:
        loader.dispose()


def read_yaml(path: str | os.PathLike[str], *, expect: type | None = dict,
              display: str | None = None) -> Any:
    """Read one YAML file: size, encoding, syntax and top-level type checked."""
    p = Path(path)
    name = display or str(path)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise DataError(name, "file not found") from None
    except OSError as exc:
        raise DataError(name, f"can't read the file ({exc.strerror})") from None
    if p.is_dir():
        raise DataError(name, "is a folder, not a file")
    if size > MAX_FILE_BYTES:
        raise DataError(name, f"file is {size // 1024} KiB, more than the "
                              f"{MAX_FILE_BYTES // 1024} KiB a data file may have")
    raw = p.read_bytes()
    if b"\x00" in raw:
        raise DataError(name, "this is a binary file, not YAML text")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(name, f"not UTF-8 text (bad byte at offset {exc.start})") from None
    if not text.strip():
        raise DataError(name, "the file is empty")
    data = parse_yaml(text, name)
    if expect is not None and not isinstance(data, expect):
        kind = {dict: "a mapping of fields (key: value)", list: "a list"}.get(expect, expect.__name__)
        raise DataError(name, f"expected {kind} at the top level, got {_kind(data)}", line=1)
    return data


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", LineDict: "a mapping", list: "a list", LineList: "a list",
            str: "text", int: "a number", float: "a number", bool: "true/false"}.get(
        type(value), type(value).__name__)


class Checker:
    """Collects every problem in one file; ``done()`` raises them all at once.

    ``c.field(node, 'speed', int_in(0, 10), entry='KV-1')`` returns the value or
    ``None`` (after noting a problem)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[DataError] = []

    def problem(self, message: str, *, entry: str | None = None, field: str | None = None,
                node: Any = None, key: Any = None) -> None:
        self.problems.append(DataError(self.file, message, entry=entry, field=field,
                                       line=line_of(node, key) if node is not None else None))

    def field(self, node: Any, key: str, check: Callable[[Any], Any], *, entry: str | None = None,
              required: bool = True, default: Any = None, label: str | None = None) -> Any:
        name = label or key
        if not isinstance(node, dict):
            self.problem(f"expected a mapping of fields, got {_kind(node)}", entry=entry, node=node)
            return default
        if key not in node or node[key] is None and required:
            if required:
                self.problem("is missing", entry=entry, field=name, node=node)
            return default
        try:
            return check(node[key])
        except (ValueError, TypeError) as exc:
            self.problem(str(exc), entry=entry, field=name, node=node, key=key)
            return default

    def unknown_keys(self, node: Any, allowed: Iterable[str], *, entry: str | None = None) -> None:
        if not isinstance(node, dict):
            return
        allowed = set(allowed)
        for key in node:
            if key not in allowed:
                self.problem(f"unknown field (known fields: {', '.join(sorted(allowed))})",
                             entry=entry, field=str(key), node=node, key=key)

    def done(self) -> None:
        if self.problems:
            first = self.problems[0]
            raise DataError(first.file, first.detail, entry=first.entry, field=first.field,
                            line=first.line, problems=list(self.problems))


# --- small value checks used with Checker.field ------------------------------
def int_in(lo: int, hi: int) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"expected a whole number {lo}-{hi}, got {_show(v)}")
        if not lo <= v <= hi:
            raise ValueError(f"expected a whole number {lo}-{hi}, got {v}")
        return v
    return check


def text(max_len: int = 200) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            raise ValueError(f"expected text, got {_kind(v)}")
        s = str(v).strip()
        if not s:
            raise ValueError("is empty")
        if len(s) > max_len:
            raise ValueError(f"is {len(s)} characters long, at most {max_len} allowed")
        return s
    return check


def one_of(*choices: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        s = str(v).strip()
        for c in choices:
            if s.lower() == c.lower():
                return c
        raise ValueError(f"expected one of {', '.join(choices)}, got {_show(v)}")
    return check


def _show(v: Any) -> str:
    s = repr(v) if isinstance(v, str) else str(v)
    return s if len(s) <= 40 else s[:37] + "..."


__all__ += ["int_in", "text", "one_of"]
