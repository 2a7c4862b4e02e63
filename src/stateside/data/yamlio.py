"""YAML reading for every data file: libyaml's C parser when PyYAML has it (about ten
times faster, which start-up notices), the pure-Python one otherwise; errors are
turned into DataError with the file and line."""
from __future__ import annotations

import yaml

from stateside.errors import DataError

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, where: str):
    """Parse YAML text; `where` (a file name) starts any error message."""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise DataError(f"{where}: not valid YAML{at}: {problem}") from None


def read_text(path) -> str:
    """A data file's text, or a DataError naming the file."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not UTF-8 text") from None


def read_yaml(path):
    """Read and parse a YAML data file; errors name the file (and line)."""
    return parse_yaml(read_text(path), str(path))
