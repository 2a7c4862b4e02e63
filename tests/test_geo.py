"""The atlas and the borders graph (issue: foundation, items 3-4)."""
import json

import pytest
from shapely import Point

from stateside.errors import DataError
from stateside.geo.atlas import load_atlas, parse_atlas
from stateside.geo.borders import (
    RULESETS,
    borders_with_rules,
    derived_borders,
    load_borders,
    parse_overrides,
)
from stateside.paths import resource


def test_atlas_has_the_50_states_with_code_name_fips():
    atlas = load_atlas()
    assert len(atlas.states) == 50
    assert "DC" not in atlas.codes and "PR" not in atlas.codes
    ca = atlas["CA"]
    assert (ca.name, ca.fips) == ("California", "06")
    assert {s.code for s in atlas.states if s.inset} == {"AK", "HI"}
    for s in atlas.states:
        assert s.geometry.is_valid, s.code
        assert s.geometry.contains(Point(s.label)), s.code   # labels sit inside their state


def test_insets_sit_below_the_lower_48():
    atlas = load_atlas()
    lower = [s.geometry.bounds for s in atlas.states if not s.inset]
    bottom_of_lower_48_west = max(b[3] for b in lower if b[0] < 300)   # CA, AZ...
    for code in ("AK", "HI"):
        x0, y0, x1, y1 = atlas[code].geometry.bounds
        assert y1 > bottom_of_lower_48_west - 50
        assert x1 - x0 < 320   # Alaska shrunk as on printed boards


def test_105_derived_borders():
    borders = derived_borders()
    assert len(borders.pairs) == 105
    assert not borders.neighbours("AK") and not borders.neighbours("HI")


@pytest.mark.parametrize("pair", ["MI-WI", "DE-NJ", "ME-NH", "CA-OR", "KY-MO", "CO-UT", "AZ-NM"])
def test_named_borders_exist(pair):
    assert derived_borders().adjacent(*pair.split("-"))


@pytest.mark.parametrize("pair", ["AZ-CO", "NM-UT", "NY-RI", "CT-NJ", "IL-MI", "MI-MN"])
def test_named_non_borders(pair):
    """Four Corners touch at a point only; water 'borders' of TIGER data are not borders."""
    assert not derived_borders().adjacent(*pair.split("-"))


def test_borders_are_symmetric_and_sorted():
    b = derived_borders()
    for a, c in b.pairs:
        assert a < c
        assert c in b.neighbours(a) and a in b.neighbours(c)
    assert b.lines() == sorted(b.lines())
    assert sum(len(b.neighbours(c)) for c in b.codes) == 2 * 105


def test_america_overrides():
    """America rulebook, 4. Score > State adjacency notes."""
    b = load_borders("america")
    assert b.adjacent("AK", "HI")
    assert b.neighbours("AK") == {"HI"} and b.neighbours("HI") == {"AK"}
    assert not b.adjacent("AZ", "CO") and not b.adjacent("NM", "UT")
    assert b.neighbours("DE") == {"MD", "PA", "NJ"}
    assert not b.adjacent("CT", "NJ")
    assert b.adjacent("MI", "WI")
    assert len(b.pairs) == 106


def test_game_of_the_states_overrides():
    """Game of the States, Buy and Sell rule 4: Alaska through Washington, Hawaii through California."""
    b = load_borders("game-of-the-states")
    assert b.neighbours("AK") == {"WA"}
    assert b.neighbours("HI") == {"CA"}
    assert not b.adjacent("AK", "HI")
    assert len(b.pairs) == 107


def test_ten_days_rules():
    """10 Days in the USA, Special Travel Rules: Four Corners, Michigan, Maine-New Hampshire."""
    b = load_borders("ten-days")
    assert not b.adjacent("CO", "AZ") and not b.adjacent("UT", "NM")
    assert b.adjacent("CO", "UT") and b.adjacent("CO", "NM") and b.adjacent("UT", "AZ") and b.adjacent("AZ", "NM")
    assert b.adjacent("OH", "MI") and b.adjacent("MI", "WI")
    assert b.neighbours("ME") == {"NH"}
    assert not b.neighbours("AK") and not b.neighbours("HI")


def test_every_ruleset_is_in_the_file_with_rulebook_sentences():
    path = resource("rules", "borders.yaml")
    parsed = parse_overrides(path.read_text(), str(path), load_atlas().codes)
    assert set(parsed) == set(RULESETS)
    for body in parsed.values():
        for entries in body.values():
            for entry, _pair in entries:
                assert len(entry["rule"]) > 15


CODES = load_atlas().codes


def _apply(tmp_path, text, ruleset="america"):
    path = tmp_path / "borders.yaml"
    path.write_text(text)
    return borders_with_rules(derived_borders(), ruleset, path)


@pytest.mark.parametrize("text, message", [
    ("america: [unclosed\n", "not valid YAML at line"),
    ("- just a list\n", "expected a mapping"),
    ("chess:\n  add: []\n", "unknown ruleset 'chess'"),
    ("america:\n  add:\n    - {pair: AK-XX, rule: 'some rule here'}\n", "add AK-XX: unknown state code 'XX'"),
    ("america:\n  add:\n    - {pair: AK-HI, rule: 'some rule here'}\n    - {pair: HI-AK, rule: 'again the rule'}\n",
     "pair AK-HI is listed twice"),
    ("america:\n  remove:\n    - {pair: AZ-CO, rule: 'they do not border'}\n",
     "remove AZ-CO: these states do not border"),
    ("america:\n  add:\n    - {pair: CA-OR, rule: 'they border already'}\n", "add CA-OR: these states already border"),
    ("america:\n  add:\n    - {pair: AK-HI}\n", "add AK-HI: missing 'rule'"),
    ("america:\n  add:\n    - {pair: AKHI, rule: 'x is a rule'}\n", "'pair' must look like AK-HI"),
    ("america:\n  expect:\n    - {pair: AZ-CO, adjacent: true, rule: 'they touch'}\n", "the map disagrees"),
    ("america:\n  colour: red\n", "unknown key 'colour'"),
    ("ten-days:\n  add: []\n", "no entry for ruleset 'america'"),
])
def test_malformed_override_file_names_file_and_entry(tmp_path, text, message):
    with pytest.raises(DataError) as err:
        _apply(tmp_path, text)
    assert message in str(err.value)
    assert str(tmp_path / "borders.yaml") in str(err.value) or "unknown ruleset" in str(err.value)


def test_unknown_ruleset_asked_for():
    with pytest.raises(DataError, match="unknown ruleset 'monopoly'"):
        load_borders("monopoly")


def test_malformed_atlas_is_reported(tmp_path):
    data = json.loads(resource("geo", "states.geojson").read_text())
    original = data["features"][3]["properties"]["code"]
    data["features"][3]["properties"]["code"] = "ca"
    with pytest.raises(DataError, match="feature 3"):
        parse_atlas(data, "x.geojson")
    data["features"][3]["properties"]["code"] = original
    data["features"] = data["features"][:49]
    with pytest.raises(DataError, match="expected 50 states, found 49"):
        parse_atlas(data, "x.geojson")


@pytest.fixture
def kept_borders(tmp_path):
    """derived_borders with the app's cache folder set to tmp_path (and nothing of it
    left behind for other tests)."""
    from stateside import paths

    paths.use_cache_dir(tmp_path)
    derived_borders.cache_clear()
    yield tmp_path / "borders.json"
    paths.use_cache_dir(None)
    derived_borders.cache_clear()


def test_the_derived_borders_are_kept_and_read_back(kept_borders, monkeypatch):
    derived = derived_borders()
    assert len(derived.pairs) == 105 and kept_borders.is_file()
    derived_borders.cache_clear()

    def no_derivation(atlas):
        raise AssertionError("derived again although the kept file is good")

    monkeypatch.setattr("stateside.geo.borders.derive_pairs", no_derivation)
    assert derived_borders() == derived


@pytest.mark.parametrize("damage", ["{not json", '{"atlas": "another atlas", "codes": [], "pairs": []}',
                                    "stale", "unknown code", "[]", "codes of lists"])
def test_a_kept_file_that_is_damaged_or_of_another_atlas_is_derived_again(kept_borders, damage):
    derived = derived_borders()
    data = json.loads(kept_borders.read_text())
    if damage == "stale":
        data["atlas"] = data["atlas"] + "0"
    elif damage == "unknown code":
        data["pairs"].append("AL-ZZ")
    elif damage == "codes of lists":
        data["codes"] = [[c] for c in data["codes"]]
    text = json.dumps(data) if damage in ("stale", "unknown code", "codes of lists") else damage
    kept_borders.write_text(text)
    derived_borders.cache_clear()
    assert derived_borders() == derived
    assert json.loads(kept_borders.read_text())["pairs"] == derived.lines()   # written again, whole


# --- the kept borders through the strict loader (issue 27, finding 10) --------------------

def _kept_data(kept_borders):
    derived_borders()
    return json.loads(kept_borders.read_text())


@pytest.mark.parametrize("damage", ["nested 3000 deep", "pairs of numbers", "codes a text", "a self pair",
                                    "a pair twice", "a bogus pair", "missing pairs", "no digest", "a FIFO"])
def test_a_kept_file_that_is_hostile_or_wrong_is_derived_again_and_replaced(kept_borders, damage, capsys):
    import os

    from stateside.geo import borders as geo_borders

    data = _kept_data(kept_borders)
    derived_borders.cache_clear()
    if damage == "nested 3000 deep":
        text = '{"atlas": ' + "[" * 3000 + "]" * 3000 + "}"
    else:
        if damage == "pairs of numbers":
            data["pairs"] = [[1, 2]] * 105
        elif damage == "codes a text":
            data["codes"] = "ALAKAZ"
        elif damage == "a self pair":
            data["pairs"].append("CA-CA")
        elif damage == "a pair twice":
            data["pairs"].append(data["pairs"][0])
        elif damage == "a bogus pair":
            data["pairs"].append("AK-HI")   # well formed, known codes, in order: only the digest tells
        elif damage == "missing pairs":
            data["pairs"] = data["pairs"][:-3]
        elif damage == "no digest":
            del data["digest"]
        text = json.dumps(data)
    kept_borders.unlink()
    if damage == "a FIFO":
        os.mkfifo(kept_borders)   # opened, it would block for ever
    else:
        kept_borders.write_text(text)
    borders = derived_borders()
    assert len(borders.pairs) == 105
    assert kept_borders.is_file() and json.loads(kept_borders.read_text())["pairs"] == borders.lines()
    assert borders.lines() == sorted(geo_borders.format_pair(p) for p in derive_real_pairs())
    assert "the borders are derived from the map again" in capsys.readouterr().err


def derive_real_pairs():
    from stateside.geo.atlas import load_atlas
    from stateside.geo.borders import derive_pairs

    return derive_pairs(load_atlas())


def test_a_wrong_kept_file_with_its_digest_made_to_match_disables_no_game(kept_borders):
    """A file of the right shape, even with a digest to match, must not stop a game: the
    games' checks of the borders fail on it, and the pairs are derived again."""
    from stateside.geo import borders as geo_borders

    data = _kept_data(kept_borders)
    data["pairs"] = sorted(data["pairs"] + ["AK-HI"])   # America adds AK-HI itself: "already border"
    data["digest"] = geo_borders._digest(data["atlas"], data["codes"], data["pairs"])
    kept_borders.write_text(json.dumps(data))
    derived_borders.cache_clear()
    load_borders.cache_clear()
    try:
        assert derived_borders().adjacent("AK", "HI")   # read back as it is: the digest matches
        america = load_borders("america")
        assert america.adjacent("AK", "HI") and len(america.pairs) == 106
        assert "AK-HI" not in json.loads(kept_borders.read_text())["pairs"]   # replaced by the real pairs
        assert len(derived_borders().pairs) == 105
    finally:
        load_borders.cache_clear()
