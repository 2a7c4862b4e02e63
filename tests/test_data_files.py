"""Every shipped data file, corrupted systematically in a temporary copy, is refused by
its loader with a DataError that names the file (and the entry or field where there is
one), never another exception and never silently accepted (issue 16, data files).

The corruptions: a non-UTF-8 byte, truncation, an empty file, a wrong type for each
kind of field, an invalid colour, an unknown state code, a duplicate entry or key and
a missing key. Then: a game whose data is broken cannot be opened from the chooser.
"""
from __future__ import annotations

import copy
import datetime
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from stateside.errors import DataError
from stateside.paths import resource

CODES = frozenset("AK AL AR AZ CA CO CT DE FL GA HI IA ID IL IN KS KY LA MA MD ME MI MN MO MS MT NC ND "
                  "NE NH NJ NM NV NY OH OK OR PA RI SC SD TN TX UT VA VT WA WI WV WY".split())
COLOUR_KEYS = {"colour", "hex", "display"}


# ---------------------------------------------------------------- the loaders
def _atlas(path):
    from stateside.geo.atlas import read_atlas
    read_atlas(path)


def _states(path):
    from stateside.data.states import read_states
    read_states(path)


def _borders(path):
    from stateside.geo.borders import borders_with_rules, derived_borders
    from stateside.geo.rulesets import RULESETS
    for ruleset in RULESETS:
        borders_with_rules(derived_borders(), ruleset, path)


def _bars(path):
    from stateside.games.america.bars import read_bars
    read_bars(path)


def _scrambled(path):
    from stateside.data.states import load_states
    from stateside.games.scrambled_states.cards import read_cards
    read_cards(path, load_states())


def _ten_days(path):
    from stateside.games.ten_days.cards import read_cards
    read_cards(path)


def _products(path):
    from stateside.games.game_of_the_states import parts
    parts.read_products(path, parts.state_codes())


def _spinner(path):
    from stateside.games.game_of_the_states.parts import read_spinner
    read_spinner(path)


def _money(path):
    from stateside.games.game_of_the_states.parts import read_money
    read_money(path)


def _tiles(path):
    from stateside.data.yamlio import read_yaml
    from stateside.games.carcassonne.tiles import parse_tile_set
    parse_tile_set(read_yaml(path), path, path.stem)


def _deck(path):
    """The America deck loader reads a whole folder; each file is tried alone in its
    own (reading all seventeen for each corruption would take minutes)."""
    from stateside.games.america.deck import load_deck
    load_deck(path.parent)


@dataclass(frozen=True)
class DataFile:
    rel: str                              # under resources/
    load: Callable[[Path], Any]
    optional: frozenset[str] = frozenset()  # keys the format lets a file leave out
    ignored: tuple[str, ...] = ()         # field patterns the loader does not read (metadata)
    repeatable: tuple[str, ...] = ()      # list patterns whose entries may repeat
    structural: bool = True               # also the per-field corruptions (not only the text ones)


FILES = [
    DataFile("geo/states.geojson", _atlas, optional=frozenset({"inset"}),
             ignored=("name", "stateside", "stateside.*"),
             repeatable=("features.*.geometry.coordinates", "features.*.geometry.coordinates.*",
                         "features.*.geometry.coordinates.*.*", "features.*.geometry.coordinates.*.*.*")),
    DataFile("data/states.yaml", _states),
    DataFile("rules/borders.yaml", _borders, optional=frozenset({"rulebook", "add", "remove", "expect"})),
    DataFile("america/bars.yaml", _bars),
    DataFile("scrambled_states/cards.yaml", _scrambled),
    DataFile("ten_days/cards.yaml", _ten_days),
    DataFile("game_of_the_states/products.yaml", _products),
    DataFile("game_of_the_states/spinner.yaml", _spinner, repeatable=("sectors",)),
    DataFile("game_of_the_states/money.yaml", _money),
    *(DataFile(f"decks/america/{p.name}", _deck, structural=p.name == "cards-01.yaml")
      for p in sorted(resource("decks", "america").glob("cards*.yaml"))),
    # totals are optional checksums; a tile without a letter, a field touching no city
    # or no edge (between two cities) are part of the format (resources/carcassonne/README.md)
    *(DataFile(f"carcassonne/{p.name}", _tiles, optional=frozenset({
        "letter", "cities", "halves", "types", "tiles", "pennants", "cloisters", "inns", "cathedrals",
        "wine", "grain", "cloth", "city_segments", "road_segments", "field_segments"}))
      for p in sorted(resource("carcassonne").glob("*.yaml"))),
]

# Loaders other helpers own, refusing less than they should: reported, not fixed here.
# Each is expected to fail until its owner fixes it (then it passes, and can go).
KNOWN: dict[str, dict[str, str]] = {}   # corruptions a loader is known to let through (none now)


# ---------------------------------------------------------------- the corruptions
@dataclass
class Corruption:
    what: str              # e.g. "a wrong type at regions.0.border.hex"
    raw: bytes | None      # the file's bytes, or None: made from `edit` when the test runs
    hints: tuple[str, ...] = ()   # the message must name one of these (entry or field)
    edit: tuple | None = None     # (original, json?, path, value, delete, rename, dup)

    def text(self) -> bytes:
        """The corrupted file. Field edits are applied only when their test runs, so that
        collecting the tests stays quick."""
        if self.raw is not None:
            return self.raw
        original, json_file, path, value, delete, rename, dup = self.edit
        # a fresh copy: json.loads is quicker than deepcopy; for YAML, the other way round
        data = json.loads(original) if json_file else copy.deepcopy(_parsed(original, json_file))
        parent = _get(data, path[:-1])
        if delete:
            del parent[path[-1]]
        elif rename is not None:
            items = list(parent.items())
            parent.clear()
            parent.update((rename if k == path[-1] else k, v) for k, v in items)
        elif dup:
            parent[path[-1]].append(parent[path[-1]][0])
        else:
            parent[path[-1]] = value
        return _dump(data, json_file)


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _flow(v) -> str:
    """YAML in flow style: JSON's scalars (YAML reads them alike) with any key type;
    ten times quicker than PyYAML's dumper, which the test would wait on."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(map(_flow, v)) + "]"
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return json.dumps(v, ensure_ascii=False)


def _dump(data, json_file: bool) -> bytes:
    return (json.dumps(data) if json_file else _flow(data) + "\n").encode()


@functools.lru_cache(maxsize=None)
def _parsed(original: bytes, json_file: bool):
    return json.loads(original) if json_file else yaml.load(original, Loader=_Loader)


def _walk(node, path=(), pattern=()):
    """(path, pattern, value) for every node. The pattern has list indices and
    data-like keys (state codes, the ids of a big mapping of entries) as '*', so that
    each kind of field is corrupted once."""
    yield path, ".".join(pattern), node
    if isinstance(node, dict):
        entries = len(node) > 8 and all(isinstance(v, dict) for v in node.values())
        for k, v in node.items():
            yield from _walk(v, path + (k,), pattern + ("*" if entries or k in CODES else str(k),))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, path + (i,), pattern + ("*",))


def _get(data, path):
    for p in path:
        data = data[p]
    return data


def _hints(data, path) -> tuple[str, ...]:
    """Words that name the entry or field at `path`: its key, and the identity of each
    mapping on the way (its code, id, name, label or pair, or its position)."""
    out = []
    for depth in range(len(path)):
        p = path[depth]
        if isinstance(p, str):
            out.append(p)
        else:
            out += [str(p + 1), f"feature {p}"]   # GeoJSON features are counted from 0, as its tools do
            entry = _get(data, path[:depth + 1])
            for fields in (entry, entry.get("properties") if isinstance(entry, dict) else None):
                if isinstance(fields, dict):   # a GeoJSON feature names itself in its properties
                    out += [str(fields[k]) for k in ("code", "id", "name", "label", "pair", "card", "title")
                            if isinstance(fields.get(k), (str, int)) and not isinstance(fields.get(k), bool)]
    return tuple(out)


def _wrong(value):
    """Values of the wrong type for a field holding `value`."""
    if isinstance(value, bool):
        return ["maybe"]
    if isinstance(value, (int, float)):
        return ["seven"]
    if isinstance(value, str):
        return [12345]
    if isinstance(value, list):
        return [{"x": 1}]
    if isinstance(value, dict):
        return [[1, 2]]
    return []


def corruptions(spec: DataFile, original: bytes) -> list[Corruption]:
    json_file = spec.rel.endswith(".geojson")
    out = [
        Corruption("an empty file", b""),
        Corruption("a file of blank lines", b"\n\n  \n"),
        Corruption("a non-UTF-8 byte", original[: len(original) // 2] + b"\xff\xfe" + original[len(original) // 2:]),
        Corruption("a NUL byte", original[: len(original) // 3] + b"\x00" + original[len(original) // 3:]),
        Corruption("truncated at half", original[: len(original) // 2]),
        Corruption("truncated at a quarter", original[: len(original) // 4]),
        Corruption("the wrong top level", b"[1, 2, 3]\n" if not json_file else b'"states"'),
    ]
    if not json_file:   # a key written twice in one mapping (the first one-line key: value)
        lines = original.decode().splitlines(keepends=True)
        n = next((i for i, line in enumerate(lines) if re.match(r"^\s*(- )?[\w-]+: \S", line)), None)
    if not json_file and n is None:   # only flow mappings ({a: 1, b: 2}): repeat a key inside one
        n = next(i for i, line in enumerate(lines) if re.search(r"\{\w+: [^,]+,", line))
        key = re.search(r"\{(\w+):", lines[n]).group(1)
        lines[n] = re.sub(r"\{((\w+): [^,]+),", r"{\1, \1,", lines[n], count=1)
        out.append(Corruption(f"key {key!r} twice", "".join(lines).encode(), (key,)))
    elif not json_file:
        # the first key of a list entry ("- card: 1") is repeated on the entry's next line
        twice = re.sub(r"- ", "  ", lines[n], count=1)
        key = twice.split(":")[0].strip()
        out.append(Corruption(f"key {key!r} twice", "".join(lines[: n + 1] + [twice] + lines[n + 1:]).encode(), (key,)))
    if not spec.structural:
        return out
    data = _parsed(original, json_file)

    def add(what, path, value=None, *, delete=False, rename=None, dup=False):
        hints = _hints(data, path + (0,) if dup else path) + (("ZZ",) if rename else ())
        out.append(Corruption(f"{what} at {'.'.join(map(str, path))}", None, hints,
                              (original, json_file, path, value, delete, rename, dup)))

    seen: set[tuple[str, str]] = set()

    def ignored(pattern) -> bool:
        return any(re.fullmatch(p.replace(".", r"\.").replace("*", r"[^.]+"), pattern) for p in spec.ignored)

    def once(kind, pattern) -> bool:
        if (kind, pattern) in seen or ignored(pattern):
            return False
        seen.add((kind, pattern))
        return True

    for path, pattern, value in list(_walk(data)):
        if not path:
            continue
        last = path[-1]
        if value is not None and once("type", pattern):
            for bad in _wrong(value):
                add("a wrong type", path, bad)
        if isinstance(last, str) and last in COLOUR_KEYS and isinstance(value, str) and once("colour", pattern):
            add("an invalid colour", path, "#12345g")
            add("a colour name", path, "blue")
        if isinstance(value, str) and value in CODES and once("code-value", pattern):
            add("an unknown state code", path, "ZZ")
        if isinstance(value, str) and re.fullmatch(r"[A-Z]{2}-[A-Z]{2}", value) and once("pair", pattern):
            add("an unknown state code", path, value[:3] + "ZZ")
        if isinstance(last, str) and last in CODES and once("code-key", pattern):
            add("an unknown state code", path, rename="ZZ")
        if isinstance(value, dict) and value and once("missing", pattern):
            for key in list(value):
                if key not in spec.optional and not ignored(f"{pattern}.{key}"):
                    add("a missing key", path + (key,), delete=True)
        if isinstance(value, list) and value and pattern not in spec.repeatable and once("dup", pattern):
            add("a duplicate entry", path, dup=True)
    return out


def _case(spec, corruption):
    reason = next((r for folder, known in KNOWN.items() if spec.rel.startswith(folder)
                   for what, r in known.items() if corruption.what == what), None)
    marks = [pytest.mark.xfail(reason=f"not ours: {reason}", strict=False)] if reason else []
    return pytest.param(spec, corruption, marks=marks, id=f"{spec.rel}: {corruption.what}")


CASES = [_case(spec, c) for spec in FILES for c in corruptions(spec, resource(*spec.rel.split("/")).read_bytes())]


@pytest.mark.parametrize("spec,corruption", CASES)
def test_a_corrupted_data_file_is_refused_with_its_name(spec, corruption, tmp_path):
    path = tmp_path / Path(spec.rel).name
    path.write_bytes(corruption.text())
    with pytest.raises(DataError) as err:
        spec.load(path)
    message = str(err.value)
    assert path.name in message, message
    if corruption.hints:   # as words, outside the file's own path (which holds digits)
        rest = message.replace(str(path), "")
        assert any(re.search(rf"(?<![\w-]){re.escape(h)}(?![\w-])", rest) for h in corruption.hints), (
            f"{message!r} names none of {corruption.hints}")


def test_the_shipped_files_load():
    for spec in FILES:
        if spec.load is not _deck:
            spec.load(resource(*spec.rel.split("/")))
    from stateside.games.america.deck import load_deck
    assert len(load_deck()) >= 160   # every card of every deck file


# ---------------------------------------------------------------- the games' data checks
def test_every_game_registers_a_data_check_that_passes_on_the_shipped_data():
    from stateside.games import discover_games, load_object

    for game in discover_games():
        assert game.data_check, f"{game.id} registers no data_check"
        load_object(game.data_check)()   # raises DataError if a shipped file is broken


@pytest.fixture
def window(open_window):
    return open_window(size=(1024, 700))


def _games():
    from stateside.games import discover_games
    return [g.id for g in discover_games()]


@pytest.mark.parametrize("game_id", _games())
def test_a_game_whose_data_is_broken_cannot_be_opened_and_says_why(game_id, qtbot, monkeypatch):
    """Each game's registered check is what the chooser runs: make it fail as a broken
    file would, then the game's button says so and the app stays where it was."""
    import importlib

    from stateside.app.main import MainWindow
    from stateside.games import game_by_id

    module, _, name = game_by_id(game_id).data_check.partition(":")
    calls = []

    def broken():
        calls.append(1)
        raise DataError("/data/cards.yaml: state ZZ: unknown state code 'ZZ'")

    monkeypatch.setattr(importlib.import_module(module), name, broken)
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    w.open_mode("explorer")
    w.choose(game_id)   # what a click on its button does

    assert w.current.game_id == "explorer" and game_id not in w.modes
    act = w.chooser_actions[game_id]
    assert act.text().endswith("(data error)") and not act.isEnabled() and not act.isChecked()
    assert "cards.yaml: state ZZ" in act.toolTip()
    assert w.chooser_actions["explorer"].isChecked()
    assert len(w.notices) == 1 and "cards.yaml: state ZZ: unknown state code 'ZZ'" in w.notices[0]
    with pytest.raises(DataError, match="cards.yaml"):   # a save of it, say: refused, checked once
        w.open_mode(game_id)
    assert calls == [1]


@pytest.fixture
def broken_borders(tmp_path, monkeypatch):
    """borders.yaml with an unknown state code in America's corrections, read afresh."""
    from stateside.games.america import rules as america_rules
    from stateside.geo import borders

    broken = tmp_path / "borders.yaml"
    broken.write_text(resource("rules", "borders.yaml").read_text().replace(
        "    - pair: AK-HI\n", "    - pair: AK-XX\n"))
    real = borders.resource
    monkeypatch.setattr(borders, "resource",
                        lambda *parts: broken if parts == ("rules", "borders.yaml") else real(*parts))
    for cached in (borders.load_borders, america_rules._borders):
        cached.cache_clear()
    yield broken
    monkeypatch.undo()
    for cached in (borders.load_borders, america_rules._borders):
        cached.cache_clear()


def test_america_with_a_broken_borders_file_stops_at_the_chooser(window, broken_borders):
    """Issue 16: a broken borders.yaml let America open and then stalled at the first
    computer turn. Its data check loads the borders with America's corrections."""
    window.choose("america")
    act = window.chooser_actions["america"]
    assert window.current.game_id == "explorer" and "america" not in window.modes
    assert not act.isEnabled() and act.text() == "America (data error)"
    assert "borders.yaml: america: add AK-XX: unknown state code 'XX'" in act.toolTip()
    # 10 Days reads the same file (for its own corrections): refused too; Scrambled
    # States does not, and opens
    window.choose("ten-days")
    assert "borders.yaml" in window.chooser_actions["ten-days"].toolTip()
    window.choose("scrambled-states")
    assert window.current.game_id == "scrambled-states"
    assert [a.text() for a in window.chooser_actions.values() if not a.isEnabled()] == [
        "America (data error)", "10 Days in the USA (data error)"]


def test_asked_for_on_the_command_line_a_game_with_broken_data_is_one_clear_line(
        qtbot, broken_borders, tmp_path, capsys):
    from stateside.app.main import run_app

    assert run_app(mode="america", screenshot=str(tmp_path / "x.png"), size=(800, 600)) == 2
    err = capsys.readouterr().err
    assert "borders.yaml: america: add AK-XX: unknown state code 'XX'" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_a_game_with_good_data_is_checked_once(window, monkeypatch):
    import stateside.games.ten_days.cards as cards

    calls = []
    real = cards.check_data
    monkeypatch.setattr(cards, "check_data", lambda: (calls.append(1), real())[1])
    window.choose("ten-days")
    window.choose("explorer")
    window.choose("ten-days")
    assert window.current.game_id == "ten-days" and calls == [1]
    assert window.chooser_actions["ten-days"].isEnabled()
