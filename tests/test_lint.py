"""ruff and mypy, as configured in pyproject.toml, over src.

ruff's whole configured rule set is enforced over src (import order, newer syntax and
the line length included); mypy checks the pure layers.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def tool(name: str) -> list[str]:
    """The tool installed beside this Python (the [test] extra), else on the PATH."""
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install '.[test]'")
    return [found]


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*tool("ruff"), "check", "--no-cache", "--output-format", "concise", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_finds_nothing():
    out = ruff("src")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]


def test_ruff_sees_a_finding():
    """The configuration is read and its rules fire: an undefined name in a scratch file."""
    scratch = ROOT / "src" / "stateside" / "_lint_probe.py"
    out = subprocess.run([*tool("ruff"), "check", "--no-cache", "--stdin-filename", str(scratch), "-"],
                         cwd=ROOT, input="def f():\n    return undefined_name\n", capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 1 and "F821" in out.stdout, out.stdout + out.stderr


def test_mypy_is_clean_on_the_pure_layers():
    # mypy's cache outside the tree (it checks each file's hash, so a stale one is safe): ~1 s
    # a run after the first one's ~6 s
    cache = Path(tempfile.gettempdir()) / f"stateside-mypy-cache-{os.getuid()}"
    out = subprocess.run([*tool("mypy"), "--cache-dir", str(cache)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]
