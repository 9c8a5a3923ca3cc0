"""Safe, bounded YAML reading that remembers line numbers, plus the field checker.

Only PyYAML's *safe* constructor is used (it builds nothing but plain dicts,
lists, strings and numbers), and every limit is checked while the document is
*composed*, before any value is built or expanded:

- the file's size (:data:`MAX_FILE_BYTES`, read at most that much) and
  encoding (UTF-8; UTF-16/32 and binary files are named as such);
- nesting depth (:data:`MAX_DEPTH`), so a card nested 20,000 levels deep is
  a clean error, not a RecursionError;
- the number of values *with every alias expanded* (:data:`MAX_NODES`), so an
  alias bomb (a few hundred bytes that expand to hundreds of millions of
  values) is refused at once; an alias that refers to its own parent too;
- the length of any text (:data:`MAX_SCALAR_CHARS`) and of any number
  (:data:`~game.data.bounded.MAX_NUMBER_CHARS`): a 4,300-digit integer never
  reaches ``int()``, and the message shows it in short form.

The libyaml scanner/parser is used when PyYAML has it (much faster), with the
same Python composer and limits on top.  Every problem becomes a
:class:`~game.rules.errors.DataError` naming the file, the line, the entry and
the field; :class:`Checker` collects every problem of a file.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from game.data.bounded import MAX_NUMBER_CHARS, decode_text, read_limited, short, short_number
from game.rules.errors import DataError

__all__ = ["read_yaml", "parse_yaml", "LineDict", "LineList", "line_of", "Checker",
           "MAX_FILE_BYTES", "MAX_DEPTH", "MAX_NODES", "MAX_SCALAR_CHARS"]

# Limits: each is far above what any real file needs, and the largest file they let
# through still reads in well under a second (bench/fuzz_inputs.py measures it).
MAX_FILE_BYTES = 160 * 1024        # the biggest shipped file (germany.yaml) is 8.5 KiB
MAX_DEPTH = 40                     # a card is 4 levels deep, a situation about 6
MAX_NODES = 100_000                # values, aliases expanded (the 47 cards: about 2,000)
MAX_SCALAR_CHARS = 20_000          # no text field allows more than a few hundred


class LineDict(dict):  # type: ignore[type-arg]
    """A dict that knows the line of each key (``lines[key]``) and its own."""
    line: int | None = None
    lines: dict[Any, int]

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, **k)
        self.lines = {}


class LineList(list):  # type: ignore[type-arg]
    """A list that knows the line of each item and its own."""
    line: int | None = None
    lines: list[int]

    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.lines = []


def line_of(node: Any, key: Any = None) -> int | None:
    """Line of ``node[key]`` (or of the node itself) when known."""
    if key is not None:
        lines = getattr(node, "lines", None)
        if isinstance(lines, dict):
            got = lines.get(key, getattr(node, "line", None))
            return got if isinstance(got, int) else None
        if isinstance(lines, list) and isinstance(key, int) and 0 <= key < len(lines):
            item = lines[key]
            return item if isinstance(item, int) else None
    own = getattr(node, "line", None)
    return own if isinstance(own, int) else None


try:                                       # libyaml's scanner and parser, when available
    from yaml._yaml import CParser as _FastParser
    _HAVE_LIBYAML = True
except ImportError:                        # pragma: no cover - pure-Python PyYAML
    _HAVE_LIBYAML = False


def _limit_error(message: str, mark: Any) -> yaml.MarkedYAMLError:
    return yaml.composer.ComposerError(None, None, message, mark)


def _check_events(events: Iterable[Any]) -> None:
    """One pass over the parser's events, before anything is composed or built:
    depth, text length, and the number of values with every alias expanded
    (an alias counts as the whole value it refers to; an alias inside the value
    it names is a loop)."""
    depth = 0
    count = 0
    sizes: dict[str, int] = {}
    open_anchors: list[tuple[str | None, int]] = []     # one per open collection
    scalar, alias = yaml.ScalarEvent, yaml.AliasEvent
    opening = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    closing = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    for ev in events:
        if isinstance(ev, scalar):
            count += 1
            if len(ev.value) > MAX_SCALAR_CHARS:
                raise _limit_error(f"a text of {len(ev.value):,} characters, longer than any "
                                   f"Hexfront value", ev.start_mark)
            if ev.anchor is not None:
                sizes[ev.anchor] = 1
        elif isinstance(ev, opening):
            depth += 1
            count += 1
            if depth > MAX_DEPTH:
                raise _limit_error(f"nested more than {MAX_DEPTH} levels deep: no Hexfront "
                                   f"file is", ev.start_mark)
            open_anchors.append((ev.anchor, count))
            if ev.anchor is not None:
                sizes.pop(ev.anchor, None)           # redefined: not usable inside itself
        elif isinstance(ev, closing):
            depth -= 1
            anchor, start = open_anchors.pop()
            if anchor is not None:
                sizes[anchor] = count - start + 1
        elif isinstance(ev, alias):
            size = sizes.get(ev.anchor) if ev.anchor is not None else None
            if size is None:
                if any(a == ev.anchor for a, _ in open_anchors):
                    raise _limit_error(f"the alias *{short(ev.anchor, 30)[1:-1]} refers to a "
                                       f"value that contains it (a loop)", ev.start_mark)
                continue                             # undefined: the composer says so
            count += size
        else:
            continue
        if count > MAX_NODES:
            raise _limit_error(f"with its aliases expanded the file has more than "
                               f"{MAX_NODES:,} values, far more than any Hexfront file",
                               ev.start_mark)


class _LineConstructor(SafeConstructor):
    """SafeConstructor that builds LineDict / LineList (still only plain data)
    and refuses over-long numbers before converting them."""

    def construct_yaml_int(self, node: ScalarNode) -> int:
        value = str(node.value)
        if len(value) > MAX_NUMBER_CHARS:
            raise ConstructorError(None, None, f"{short_number(value)} is longer than any "
                                               f"Hexfront value", node.start_mark)
        return int(super().construct_yaml_int(node))

    def construct_yaml_float(self, node: ScalarNode) -> float:
        value = str(node.value)
        if len(value) > MAX_NUMBER_CHARS:
            raise ConstructorError(None, None, f"{short_number(value)} is longer than any "
                                               f"Hexfront value", node.start_mark)
        return float(super().construct_yaml_float(node))


def _construct_map(loader: _LineConstructor, node: MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise ConstructorError(None, None, "a mapping key must be a plain value",
                                   key_node.start_mark) from None
        if key in result:
            raise ConstructorError(None, None, f"duplicate key {short(key)}",
                                   key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def _construct_seq(loader: _LineConstructor, node: SequenceNode) -> LineList:
    result = LineList()
    result.line = node.start_mark.line + 1
    for child in node.value:
        result.append(loader.construct_object(child, deep=True))
        result.lines.append(child.start_mark.line + 1)
    return result


# (the stubs type add_constructor for their own classes only)
_LineConstructor.add_constructor("tag:yaml.org,2002:int",  # type: ignore[type-var]
                                 _LineConstructor.construct_yaml_int)
_LineConstructor.add_constructor("tag:yaml.org,2002:float",  # type: ignore[type-var]
                                 _LineConstructor.construct_yaml_float)
_LineConstructor.add_constructor(Resolver.DEFAULT_MAPPING_TAG,  # type: ignore[type-var]
                                 _construct_map)
_LineConstructor.add_constructor(Resolver.DEFAULT_SEQUENCE_TAG,  # type: ignore[type-var]
                                 _construct_seq)


if _HAVE_LIBYAML:
    class _Loader(_FastParser, _LineConstructor, Resolver):
        """libyaml's scanner, parser and composer; the line-keeping safe constructor."""

        def __init__(self, stream: str) -> None:
            _FastParser.__init__(self, stream)
            _LineConstructor.__init__(self)
            Resolver.__init__(self)
            self._resolved: dict[tuple[str, Any], str] = {}

        def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
            """Resolver.resolve, remembered per plain value (data files repeat a lot)."""
            if kind is not ScalarNode or len(value) > 40:
                return str(Resolver.resolve(self, kind, value, implicit))  # type: ignore[no-untyped-call]
            key = (value, implicit)
            tag = self._resolved.get(key)
            if tag is None:
                tag = str(Resolver.resolve(self, kind, value, implicit))  # type: ignore[no-untyped-call]
                self._resolved[key] = tag
            return tag

    def _events(text: str) -> Iterable[Any]:
        parser = _FastParser(text)
        try:
            while True:
                ev = parser.get_event()
                if ev is None:
                    return
                yield ev
        finally:
            parser.dispose()
else:                                      # pragma: no cover - pure-Python PyYAML
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Loader(Reader, Scanner, Parser, Composer,  # type: ignore[no-redef]
                  _LineConstructor, Resolver):
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)
            _LineConstructor.__init__(self)
            Resolver.__init__(self)

    def _events(text: str) -> Iterable[Any]:
        return yaml.parse(text, Loader=yaml.SafeLoader)


def parse_yaml(text: str, file: str = "<text>") -> Any:
    """Parse YAML text safely within every limit; a problem becomes a DataError
    with its line."""
    if "\x00" in text:
        raise DataError(file, "this is a binary file, not YAML text")
    loader = _Loader(text)
    try:
        _check_events(_events(text))
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "not valid YAML"
        if "nesting depth" in what:             # libyaml's own limit (1,000 levels)
            raise DataError(file, f"nested more than {MAX_DEPTH} levels deep: no Hexfront "
                                  f"file is", line=line) from None
        kind = "YAML syntax error" if isinstance(exc, (yaml.scanner.ScannerError,
                                                        yaml.parser.ParserError)) else "YAML error"
        if isinstance(exc, (yaml.composer.ComposerError, ConstructorError)) and \
                not what.startswith(("found", "expected", "could not")):
            raise DataError(file, str(what)[:300], line=line) from None
        raise DataError(file, f"{kind}: {str(what)[:300]}", line=line) from None
    except yaml.reader.ReaderError as exc:
        pos = exc.position if isinstance(exc.position, int) else 0
        line = text.count("\n", 0, pos) + 1
        what = f"#x{exc.character:04x}" if isinstance(exc.character, int) else "a character"
        raise DataError(file, f"the text holds a control character ({what}) that YAML does not "
                              f"allow", line=line) from None
    except yaml.YAMLError as exc:
        first = str(exc).split("\n", 1)[0]
        raise DataError(file, f"YAML syntax error: {short(first, 200)[1:-1]}") from None
    except RecursionError:
        raise DataError(file, f"nested more than {MAX_DEPTH} levels deep: no Hexfront file "
                              f"is") from None
    finally:
        loader.dispose()


def read_yaml(path: str | os.PathLike[str], *, expect: type | None = dict,
              display: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """Read one YAML file: size, encoding, limits, syntax and top-level type checked."""
    p = Path(path)
    name = display or str(path)
    raw = read_limited(p, name, max_bytes, "data file")
    text = decode_text(raw, name, "YAML text")
    if not text.strip():
        raise DataError(name, "the file is empty")
    data = parse_yaml(text, name)
    if expect is not None and not isinstance(data, expect):
        kinds: dict[type, str] = {dict: "a mapping of fields (key: value)", list: "a list"}
        kind = kinds.get(expect, expect.__name__)
        raise DataError(name, f"expected {kind} at the top level, got {_kind(data)}", line=1)
    return data


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", LineDict: "a mapping", list: "a list", LineList: "a list",
            str: "text", int: "a number", float: "a number with a decimal point",
            bool: "true/false"}.get(
        type(value), type(value).__name__)


class Checker:
    """Collects every problem in one file; ``done()`` raises them all at once.

    ``c.field(node, 'speed', int_in(0, 10), entry='KV-1')`` returns the value or
    ``None`` (after noting a problem)."""

    #: a file with more problems than this lists the first ones (and says how many more)
    MAX_PROBLEMS = 500

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[DataError] = []
        self.more = 0

    def problem(self, message: str, *, entry: str | None = None, field: str | None = None,
                node: Any = None, key: Any = None, line: int | None = None) -> None:
        if len(self.problems) >= self.MAX_PROBLEMS:
            self.more += 1
            return
        message = message.replace("\n", " / ")
        self.problems.append(DataError(self.file, _clip(message, 400) or "", entry=_clip(entry, 80),
                                       field=_clip(field, 80),
                                       line=line if line is not None else
                                       line_of(node, key) if node is not None else None))

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
                             entry=entry, field=_clip(str(key) if isinstance(key, (str, int))
                                                      else short(key), 80), node=node, key=key)

    def done(self) -> None:
        if self.problems:
            first = self.problems[0]
            problems = list(self.problems)
            if self.more:
                problems.append(DataError(self.file, f"... and {self.more:,} more problem(s) "
                                                     f"not listed"))
            raise DataError(first.file, first.detail, entry=first.entry, field=first.field,
                            line=first.line, problems=problems)


def _clip(s: str | None, n: int) -> str | None:
    if s is None or len(s) <= n:
        return s
    return s[: n - 3] + "..."


# --- small value checks used with Checker.field ------------------------------
def int_in(lo: int, hi: int) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"expected a whole number {lo}-{hi}, got {_kind(v)} ({_show(v)})"
                             if isinstance(v, float) else
                             f"expected a whole number {lo}-{hi}, got {_show(v)}")
        if not lo <= v <= hi:
            raise ValueError(f"expected a whole number {lo}-{hi}, got {short(v)}")
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
        s = v.strip() if isinstance(v, str) else ""
        for c in choices:
            if s.lower() == c.lower():
                return c
        raise ValueError(f"expected one of {', '.join(choices)}, got {_show(v)}")
    return check


def _show(v: Any) -> str:
    """At most about 40 characters, whatever ``v`` is (never expands a container)."""
    return short(v)


__all__ += ["int_in", "text", "one_of"]
