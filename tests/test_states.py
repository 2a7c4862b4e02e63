"""State facts (foundation item 5)."""
import pytest
import yaml

from stateside.data.states import KEYS, load_states, parse_states
from stateside.errors import DataError
from stateside.paths import resource


def test_50_states_with_exactly_the_keys():
    states = load_states()
    assert len(states) == 50
    raw = yaml.safe_load(resource("data", "states.yaml").read_text())
    for entry in raw:
        assert tuple(entry) == KEYS


def test_known_facts():
    s = load_states()
    assert s["CA"].capital == "Sacramento" and s["CA"].population_2020 == 39_538_223
    assert s["DE"].admission_order == 1 and s["DE"].admitted == "1787-12-07"
    assert s["HI"].admission_order == 50 and s["HI"].settled is None
    assert s["TX"].region == "South" and s["TX"].division == "West South Central"
    assert s["MN"].mississippi == "west" and s["WI"].mississippi == "east"
    assert sum(st.population_2020 for st in s.values()) == 330_759_736
    assert s["AK"].area_total_sq_mi > s["TX"].area_total_sq_mi


def _one_bad(key, value):
    raw = yaml.safe_load(resource("data", "states.yaml").read_text())
    for entry in raw:
        if entry["code"] == "OH":
            entry[key] = value
    return yaml.safe_dump(raw)


@pytest.mark.parametrize("key, value, message", [
    ("population_2020", -5, "key 'population_2020' must be a positive whole number"),
    ("admitted", "1803-13-01", "key 'admitted' must be a date"),
    ("admission_order", 51, "key 'admission_order' must be a whole number from 1 to 50"),
    ("mississippi", "north", "key 'mississippi' must be 'east' or 'west'"),
    ("division", "Pacific", "key 'division' must be a Census division of the Midwest region"),
    ("fips", 39, "key 'fips' must be a two-digit text"),
    ("area_land_sq_mi", 10 ** 6, "must not exceed area_total_sq_mi"),
])
def test_bad_entry_names_state_and_key(key, value, message):
    with pytest.raises(DataError) as err:
        parse_states(_one_bad(key, value), "facts.yaml")
    assert "facts.yaml: state OH" in str(err.value) and message in str(err.value)


def test_missing_and_extra_keys():
    raw = yaml.safe_load(resource("data", "states.yaml").read_text())
    del raw[0]["capital"]
    with pytest.raises(DataError, match="state AK: missing key 'capital'"):
        parse_states(yaml.safe_dump(raw), "f")
    raw = yaml.safe_load(resource("data", "states.yaml").read_text())
    raw[1]["motto"] = "x"
    with pytest.raises(DataError, match="state AL: unknown key 'motto'"):
        parse_states(yaml.safe_dump(raw), "f")


def test_broken_yaml_and_duplicates():
    with pytest.raises(DataError, match="not valid YAML at line"):
        parse_states("- code: [\n", "f")
    raw = yaml.safe_load(resource("data", "states.yaml").read_text())
    raw[1] = dict(raw[0])
    with pytest.raises(DataError, match="state AK: listed twice"):
        parse_states(yaml.safe_dump(raw), "f")
