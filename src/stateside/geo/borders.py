"""The borders graph: derived from the map with shapely, then corrected per game.

Two states border when their boundaries share a line of positive length; a single
touching point (the Four Corners) is not a border. Each game's corrections are data
in resources/rules/borders.yaml (see the comments there for its format).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from stateside.data.saves import read_json_file, write_json_atomic
from stateside.data.yamlio import parse_yaml, read_text
from stateside.errors import DataError, SaveError
from stateside.geo.atlas import Atlas, load_atlas
from stateside.geo.rulesets import RULESETS
from stateside.paths import cache_file, resource

Pair = tuple[str, str]


def pair_key(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def format_pair(pair: Pair) -> str:
    return f"{pair[0]}-{pair[1]}"


@dataclass(frozen=True)
class Borders:
    ruleset: str | None
    codes: tuple[str, ...]
    pairs: frozenset[Pair]
    _neighbours: dict[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        nb: dict[str, set[str]] = {c: set() for c in self.codes}
        for a, b in self.pairs:
            nb[a].add(b)
            nb[b].add(a)
        object.__setattr__(self, "_neighbours", {c: frozenset(s) for c, s in nb.items()})

    def neighbours(self, code: str) -> frozenset[str]:
        return self._neighbours[code]

    def adjacent(self, a: str, b: str) -> bool:
        return pair_key(a, b) in self.pairs

    def lines(self) -> list[str]:
        """The pairs as sorted "AB-CD" lines."""
        return sorted(format_pair(p) for p in self.pairs)


def derive_pairs(atlas: Atlas) -> frozenset[Pair]:
    """Pairs of states whose boundaries share a line of positive length."""
    from shapely import STRtree  # imported here: drawing the map does not need it

    geoms = [s.geometry for s in atlas.states]
    boundaries = [g.boundary for g in geoms]
    left, right = STRtree(geoms).query(geoms, predicate="intersects")
    pairs = set()
    for i, j in zip(left.tolist(), right.tolist()):
        if i < j and boundaries[i].intersection(boundaries[j]).length > 0:
            pairs.add(pair_key(atlas.states[i].code, atlas.states[j].code))
    return frozenset(pairs)


# The derived pairs are kept in the app's cache folder (paths.cache_file) from one run to
# the next: deriving them imports shapely and reads the map's shapes, about 160 ms of
# opening America, 10 Days or Game of the States, against about 1 ms to read them back.
# The file names the atlas file's size and time and holds a digest of its pairs; one
# written from another atlas is derived again, and so is one damaged or edited by hand
# (with a line on stderr): the strict loader reads it, its shape is checked, and a wrong
# file of the right shape fails the digest, or, failing that, the games' own checks of
# the borders (load_borders derives the pairs again before it gives up).
DERIVED_CACHE = "borders.json"
DERIVED_CACHE_FORMAT = 2   # bump when what the file holds changes
MAX_PAIRS = 4 * 50         # a map of 50 states, flat, has fewer than 3 x 50 borders
CODE = re.compile(r"[A-Z]{2}")


def _atlas_stamp() -> str:
    st = os.stat(resource("geo", "states.geojson"))
    return f"stateside-borders {DERIVED_CACHE_FORMAT} {st.st_size} {st.st_mtime_ns}"


def _digest(stamp: str, codes: list, lines: list) -> str:
    return hashlib.sha256(json.dumps([stamp, codes, lines]).encode("utf-8")).hexdigest()


class _BadCache(Exception):
    """The kept borders cannot be used; the text says why."""


def _read_derived(path: Path) -> Borders | None:
    """The kept borders, or None when there are none or they must be derived again."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        try:
            data = read_json_file(path, "borders cache")
        except SaveError as e:   # its text names the file already
            raise _BadCache(str(e).removeprefix(f"{path}: ")) from None
        if not isinstance(data, dict) or set(data) != {"atlas", "codes", "pairs", "digest"}:
            raise _BadCache("not a borders cache (expected atlas, codes, pairs and digest)")
        if data["atlas"] != _atlas_stamp():
            return None   # another atlas, or another version of this file: no fault
        codes, lines = data["codes"], data["pairs"]
        if not (isinstance(codes, list) and all(isinstance(c, str) and CODE.fullmatch(c) for c in codes)
                and len(set(codes)) == len(codes) == 50):
            raise _BadCache("its state codes are not 50 distinct postal codes")
        if not (isinstance(lines, list) and all(isinstance(line, str) for line in lines) and len(lines) <= MAX_PAIRS):
            raise _BadCache(f"its pairs are not a list of at most {MAX_PAIRS} texts")
        known, pairs = set(codes), set()
        for line in lines:
            a, _, b = line.partition("-")
            if not (a in known and b in known and a < b) or (a, b) in pairs:
                raise _BadCache(f"{line!r} is not a pair of two known states, in order and once")
            pairs.add((a, b))
        if data["digest"] != _digest(data["atlas"], codes, lines):
            raise _BadCache("its pairs are not the ones derived (the digest does not match)")
    except _BadCache as e:
        print(f"stateside: {path}: {e}; the borders are derived from the map again", file=sys.stderr)
        return None
    return Borders(None, tuple(codes), frozenset(pairs))


def _write_derived(path: Path, borders: Borders) -> None:
    stamp, codes, lines = _atlas_stamp(), list(borders.codes), borders.lines()
    try:   # a failed write costs nothing: the next run derives them again
        write_json_atomic(path, {"atlas": stamp, "codes": codes, "pairs": lines,
                                 "digest": _digest(stamp, codes, lines)}, "borders cache")
    except (OSError, SaveError):
        pass


def _derive_and_keep() -> Borders:
    atlas = load_atlas()
    borders = Borders(None, atlas.codes, derive_pairs(atlas))
    kept = cache_file(DERIVED_CACHE)
    if kept is not None:
        _write_derived(kept, borders)
    return borders


@cache
def derived_borders() -> Borders:
    kept = cache_file(DERIVED_CACHE)
    borders = _read_derived(kept) if kept is not None else None
    return borders if borders is not None else _derive_and_keep()


def apply_overrides(base: Borders, ruleset: str, overrides: dict, where: str) -> Borders:
    """Apply one ruleset's add/remove/expect entries (already shape-checked) to `base`."""
    pairs = set(base.pairs)
    for entry, pair in overrides["expect"]:
        if (pair in pairs) != entry["adjacent"]:
            said = "adjacent" if entry["adjacent"] else "not adjacent"
            raise DataError(
                f"{where}: {ruleset}: expect {format_pair(pair)}: the rulebook says {said}"
                f" ({entry['rule']!r}) but the map disagrees"
            )
    for _entry, pair in overrides["remove"]:
        if pair not in pairs:
            raise DataError(f"{where}: {ruleset}: remove {format_pair(pair)}: these states do not border on the map")
        pairs.discard(pair)
    for _entry, pair in overrides["add"]:
        if pair in pairs:
            raise DataError(f"{where}: {ruleset}: add {format_pair(pair)}: these states already border on the map")
        pairs.add(pair)
    return Borders(ruleset, base.codes, frozenset(pairs))


def parse_overrides(text: str, where: str, codes: tuple[str, ...]) -> dict[str, dict]:
    """Check the override file's shape; returns ruleset -> {add/remove/expect: [(entry, pair)]}."""
    data = parse_yaml(text, where)
    if not isinstance(data, dict):
        raise DataError(f"{where}: expected a mapping of ruleset names to overrides")
    known = set(codes)
    result = {}
    for ruleset, body in data.items():
        if ruleset not in RULESETS:
            raise DataError(f"{where}: unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
        if not isinstance(body, dict):
            raise DataError(f"{where}: {ruleset}: expected a mapping with add, remove and expect")
        extra = set(body) - {"rulebook", "add", "remove", "expect"}
        if extra:
            raise DataError(f"{where}: {ruleset}: unknown key {sorted(extra)[0]!r}")
        if "rulebook" in body and not (isinstance(body["rulebook"], str) and body["rulebook"].strip()):
            raise DataError(f"{where}: {ruleset}: 'rulebook' must name the rulebook section, "
                            f"got {body.get('rulebook')!r}")
        seen: dict[Pair, str] = {}
        parsed: dict[str, list] = {}
        for kind in ("add", "remove", "expect"):
            entries = body.get(kind, [])
            if not isinstance(entries, list):   # not `or []`: an empty mapping or 0 is a slip, not "none"
                raise DataError(f"{where}: {ruleset}: {kind} must be a list")
            parsed[kind] = []
            for n, entry in enumerate(entries, 1):
                label = f"{where}: {ruleset}: {kind} entry {n}"
                if not isinstance(entry, dict):
                    raise DataError(f"{label}: expected a mapping with 'pair' and 'rule'")
                raw = entry.get("pair")
                if not isinstance(raw, str) or raw.count("-") != 1:
                    raise DataError(f"{label}: 'pair' must look like AK-HI, got {raw!r}")
                label = f"{where}: {ruleset}: {kind} {raw}"
                a, b = (s.strip().upper() for s in raw.split("-"))
                for code in (a, b):
                    if code not in known:
                        raise DataError(f"{label}: unknown state code {code!r}")
                if a == b:
                    raise DataError(f"{label}: a state cannot border itself")
                if not isinstance(entry.get("rule"), str) or not entry["rule"].strip():
                    raise DataError(f"{label}: missing 'rule' (the rulebook sentence it comes from)")
                if kind == "expect" and not isinstance(entry.get("adjacent"), bool):
                    raise DataError(f"{label}: 'adjacent' must be true or false")
                pair = pair_key(a, b)
                if pair in seen:
                    raise DataError(f"{label}: pair {format_pair(pair)} is listed twice (also under {seen[pair]})")
                seen[pair] = kind
                parsed[kind].append((entry, pair))
        result[ruleset] = parsed
    return result


def read_overrides(path: Path, codes: tuple[str, ...]) -> dict[str, dict]:
    return parse_overrides(read_text(path), str(path), codes)


def borders_with_rules(base: Borders, ruleset: str | None, path: Path) -> Borders:
    if ruleset is None:
        return base
    if ruleset not in RULESETS:
        raise DataError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
    overrides = read_overrides(path, base.codes)
    if ruleset not in overrides:
        raise DataError(f"{path}: no entry for ruleset {ruleset!r}")
    return apply_overrides(base, ruleset, overrides[ruleset], str(path))


@cache
def load_borders(ruleset: str | None = None) -> Borders:
    """The borders of the bundled map, with one game's corrections (None: as derived)."""
    base, rules = derived_borders(), resource("rules", "borders.yaml")
    try:
        return borders_with_rules(base, ruleset, rules)
    except DataError:
        # A kept file of the right shape but wrong must not disable a game: derived from
        # the map, the pairs either pass (and are kept in its place) or the data is wrong.
        fresh = _derive_and_keep()
        if fresh == base:
            raise
        derived_borders.cache_clear()
        return borders_with_rules(fresh, ruleset, rules)
