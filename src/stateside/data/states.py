"""State facts: resources/data/states.yaml, validated when loaded."""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

from stateside.data.postal import POSTAL_CODES
from stateside.data.yamlio import parse_yaml, read_text
from stateside.errors import DataError
from stateside.paths import resource

REGIONS = {
    "Northeast": {"New England", "Middle Atlantic"},
    "Midwest": {"East North Central", "West North Central"},
    "South": {"South Atlantic", "East South Central", "West South Central"},
    "West": {"Mountain", "Pacific"},
}


@dataclass(frozen=True)
class State:
    code: str
    name: str
    fips: str
    capital: str
    nickname: str
    admitted: str            # YYYY-MM-DD (ratification date for the original 13)
    admission_order: int     # 1-50
    population_2020: int
    area_total_sq_mi: float
    area_land_sq_mi: float
    settled: int | None
    region: str
    division: str
    mississippi: str         # "east" or "west"

    @property
    def admitted_year(self) -> int:
        return int(self.admitted[:4])


KEYS = tuple(f.name for f in fields(State))
# An entry with a code not among the 50 is an error in this file, not a state the map lacks.


def _check(entry: dict, where: str) -> State:
    code = entry.get("code")
    label = f"{where}: state {code if isinstance(code, str) else '?'}"
    keys = set(entry)
    if missing := [k for k in KEYS if k not in keys]:
        raise DataError(f"{label}: missing key '{missing[0]}'")
    if extra := sorted(keys - set(KEYS)):
        raise DataError(f"{label}: unknown key '{extra[0]}'")

    def bad(key: str, want: str):
        return DataError(f"{label}: key '{key}' {want}, got {entry[key]!r}")

    if not (isinstance(code, str) and code in POSTAL_CODES):
        raise bad("code", "must be the two-letter postal code of one of the 50 states")
    for key in ("name", "capital", "nickname"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise bad(key, "must be a non-empty text")
    if not (isinstance(entry["fips"], str) and re.fullmatch(r"\d\d", entry["fips"])):
        raise bad("fips", "must be a two-digit text such as '06'")
    admitted = entry["admitted"]
    if isinstance(admitted, _dt.date):
        admitted = admitted.isoformat()
    try:
        _dt.date.fromisoformat(admitted)
        if not re.fullmatch(r"\d{4}-\d\d-\d\d", admitted):
            raise ValueError
    except (TypeError, ValueError):
        raise bad("admitted", "must be a date YYYY-MM-DD") from None
    order = entry["admission_order"]
    if not (type(order) is int and 1 <= order <= 50):
        raise bad("admission_order", "must be a whole number from 1 to 50")
    pop = entry["population_2020"]
    if not (isinstance(pop, int) and not isinstance(pop, bool) and pop > 0):
        raise bad("population_2020", "must be a positive whole number")
    for key in ("area_total_sq_mi", "area_land_sq_mi"):
        v = entry[key]
        if not (isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0):
            raise bad(key, "must be a positive number")
    if entry["area_land_sq_mi"] > entry["area_total_sq_mi"]:
        raise bad("area_land_sq_mi", "must not exceed area_total_sq_mi")
    settled = entry["settled"]
    if settled is not None and not (type(settled) is int and 1500 <= settled <= 1900):
        raise bad("settled", "must be a year (1500-1900) or null")
    if entry["region"] not in REGIONS:
        raise bad("region", f"must be one of {', '.join(REGIONS)}")
    if entry["division"] not in REGIONS[entry["region"]]:
        raise bad("division", f"must be a Census division of the {entry['region']} region")
    if entry["mississippi"] not in ("east", "west"):
        raise bad("mississippi", "must be 'east' or 'west'")
    return State(**{**entry, "admitted": admitted, "area_total_sq_mi": float(entry["area_total_sq_mi"]),
                    "area_land_sq_mi": float(entry["area_land_sq_mi"])})


def parse_states(text: str, where: str) -> dict[str, State]:
    data = parse_yaml(text, where)
    if not isinstance(data, list):
        raise DataError(f"{where}: expected a list of states")
    states: dict[str, State] = {}
    for n, entry in enumerate(data, 1):
        if not isinstance(entry, dict):
            raise DataError(f"{where}: entry {n} is not a mapping")
        state = _check(entry, where)
        if state.code in states:
            raise DataError(f"{where}: state {state.code}: listed twice")
        states[state.code] = state
    if len(states) != 50:
        raise DataError(f"{where}: expected 50 states, found {len(states)}")
    orders = sorted(s.admission_order for s in states.values())
    if orders != list(range(1, 51)):
        dup = next(o for i, o in enumerate(orders) if o != i + 1)
        raise DataError(f"{where}: admission_order {dup} is used twice or skipped")
    return dict(sorted(states.items()))


def read_states(path: Path) -> dict[str, State]:
    return parse_states(read_text(path), str(path))


@cache
def load_states() -> dict[str, State]:
    """The bundled facts, code -> State, sorted by code (read once per process)."""
    return read_states(resource("data", "states.yaml"))
