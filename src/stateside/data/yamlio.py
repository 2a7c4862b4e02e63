"""YAML reading for every data file: libyaml's C parser when PyYAML has it (about ten
times faster, which start-up notices), the pure-Python one otherwise; errors are
turned into DataError with the file and line.

A key written twice in one mapping is refused: PyYAML would keep the last one
silently, and in a data file that is nearly always a copy-and-paste slip (a state
listed twice with two colours, say)."""
from __future__ import annotations

import re

import yaml

from stateside.errors import DataError

try:   # libyaml's loader where PyYAML was built with it: several times faster
    from yaml import CSafeLoader as _Base
except ImportError:
    from yaml import SafeLoader as _Base


class _Loader(_Base):
    pass


def _mapping(loader, node):
    seen: set = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            twice = key in seen
        except TypeError:   # an unhashable key: construct_mapping says so below
            continue
        if twice:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} appears twice in one mapping", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=True)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def parse_yaml(text: str, where: str):
    """Parse YAML text; `where` (a file name) starts any error message."""
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise DataError(f"{where}: not valid YAML{at}: {problem}") from None
    except RecursionError:   # thousands of nested brackets
        raise DataError(f"{where}: not valid YAML: nested too deeply") from None


def read_text(path) -> str:
    """A data file's text, or a DataError naming the file."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        line = path.read_bytes()[:e.start].count(b"\n") + 1
        raise DataError(f"{path}: not UTF-8 text (a bad byte at line {line})") from None


def read_yaml(path):
    """Read and parse a YAML data file; errors name the file (and line)."""
    return parse_yaml(read_text(path), str(path))


_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def hex_colour(value, label: str) -> str:
    """`value` if it is a colour written #rrggbb, else a DataError starting with `label`."""
    if not (isinstance(value, str) and _HEX.fullmatch(value)):
        raise DataError(f"{label}: a colour must be written #rrggbb, got {value!r}")
    return value


def text(value, label: str) -> str:
    """`value` if it is a non-empty text, else a DataError starting with `label`."""
    if not (isinstance(value, str) and value.strip()):
        raise DataError(f"{label}: must be a non-empty text, got {value!r}")
    return value
