"""Fuzzing of the files the app keeps in its config and cache folders (issue 27, finding
10): America's topic history and the borders cache, mutated as tests/test_save_fuzz.py
mutates saves (and cut or with bytes flipped). Reading must end in one of two ways only:
the good content, or the file set aside (history) or refused to be derived again
(borders), never another exception and never wrong borders.

The normal suite runs CONFIG_FUZZ_EXAMPLES (500) per file, the same inputs every run;
STATESIDE_FUZZ_EXAMPLES=10000 runs the long sweep whose figures are in benchmarks/FUZZ.md.
"""
from __future__ import annotations

import json
import os
import random

import pytest
from test_save_fuzz import mutate

from stateside import paths
from stateside.games.america import widgets
from stateside.geo import borders as geo_borders

CONFIG_FUZZ_EXAMPLES = int(os.environ.get("STATESIDE_FUZZ_EXAMPLES", "500"))


def damaged_text(doc, rng: random.Random) -> bytes:
    """A mutated document, sometimes also cut short or with a byte changed."""
    raw = json.dumps(mutate(doc, rng)).encode("utf-8")
    kind = rng.randrange(4)
    if kind == 0 and raw:
        raw = raw[:rng.randrange(len(raw))]
    elif kind == 1 and raw:
        i = rng.randrange(len(raw))
        raw = raw[:i] + bytes([rng.randrange(256)]) + raw[i + 1:]
    return raw


def test_mutated_topic_histories_are_read_or_set_aside(tmp_path, monkeypatch):
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    good = {"used": ["1A", "2B", "family:3A", "160B"]}
    rng = random.Random(27)
    counts = {"read": 0, "set aside": 0}
    path = widgets.history_path()
    for n in range(CONFIG_FUZZ_EXAMPLES):
        path.write_bytes(damaged_text(good, rng))
        said = []
        used = widgets.read_history(said.append)
        assert isinstance(used, list) and all(isinstance(t, str) and 0 < len(t) <= widgets.MAX_TOPIC_ID for t in used)
        if said:
            assert used == [] and not path.exists() and "could not be read" in said[0], n
            counts["set aside"] += 1
            for kept in tmp_path.glob("*.unreadable-*"):
                kept.unlink()   # same-second names would replace one another: the count is what matters
        else:
            assert path.exists(), n
            counts["read"] += 1
    print(f"\ntopic histories: {counts}")
    assert counts["set aside"] > 0 and counts["read"] > 0


def test_mutated_borders_caches_give_the_real_borders_or_none(tmp_path, capsys):
    paths.use_cache_dir(tmp_path)
    geo_borders.derived_borders.cache_clear()
    try:
        real = geo_borders.derived_borders()
        kept = tmp_path / geo_borders.DERIVED_CACHE
        good = json.loads(kept.read_text())
        rng = random.Random(10)
        counts = {"read, the real pairs": 0, "derived again": 0}
        for n in range(CONFIG_FUZZ_EXAMPLES):
            kept.write_bytes(damaged_text(good, rng))
            borders = geo_borders._read_derived(kept)
            if borders is None:
                counts["derived again"] += 1
            else:
                assert borders == real, n   # a file read back is the derived one, never another
                counts["read, the real pairs"] += 1
        capsys.readouterr()
        print(f"\nborders caches: {counts}")
        assert counts["derived again"] > 0
    finally:
        paths.use_cache_dir(None)
        geo_borders.derived_borders.cache_clear()
