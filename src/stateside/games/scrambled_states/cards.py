"""The 50 state cards of Scrambled States: four features per card.

Region and state colour are our design, written in resources/scrambled_states/cards.yaml
and checked here against the principle the file states. Land mass and population are
computed from the state facts (stateside.data.states) with the rulebook's buckets, so a
corrected figure there moves a card into the right bucket without touching this game.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from stateside.data.yamlio import hex_colour, read_yaml, text
from stateside.errors import DataError
from stateside.paths import resource

# The rulebook's regions, in its order.
REGION_NAMES = ("Midwest", "New England", "South Central", "Mid-Atlantic", "Mountain", "Southeast", "Pacific")
FEATURES = ("region", "land-mass", "population", "colour")
PATTERNS = ("plain", "stripes", "dots", "diagonal", "crosshatch")
MIN_COLOURS = 4


@dataclass(frozen=True)
class Card:
    code: str
    name: str
    region: str        # one of REGION_NAMES
    land_mass: int     # icon size 1 (smallest) .. 4 (largest)
    population: int    # people icons 1 .. 5
    colour: str        # a colour name of the card set

    def feature(self, feature: str) -> str | int:
        if feature == "region":
            return self.region
        if feature == "land-mass":
            return self.land_mass
        if feature == "population":
            return self.population
        if feature == "colour":
            return self.colour
        raise ValueError(f"unknown card feature {feature!r} (one of {', '.join(FEATURES)})")


@dataclass(frozen=True)
class Region:
    name: str
    border_name: str    # as the rulebook names the border colour
    border_hex: str
    divisions: tuple[str, ...]
    states: tuple[str, ...]


@dataclass(frozen=True)
class Colour:
    name: str
    hex: str
    pattern: str        # drawn over the colour for colour-blind players
    states: tuple[str, ...]


@dataclass(frozen=True)
class Bucket:
    value: int          # icon size or people count
    at_least: float     # lower edge, inclusive; the upper edge is the next bucket's lower edge
    label: str


@dataclass(frozen=True)
class CardSet:
    cards: tuple[Card, ...]                 # sorted by code
    regions: tuple[Region, ...]
    colours: tuple[Colour, ...]
    land_mass_buckets: tuple[Bucket, ...]   # largest first
    population_buckets: tuple[Bucket, ...]

    def __post_init__(self):
        object.__setattr__(self, "_by_code", {c.code: c for c in self.cards})
        object.__setattr__(self, "_regions", {r.name: r for r in self.regions})
        object.__setattr__(self, "_colours", {c.name: c for c in self.colours})

    def __getitem__(self, code: str) -> Card:
        try:
            return self._by_code[code]
        except KeyError:
            raise KeyError(f"no card for state {code!r}") from None

    def __contains__(self, code: object) -> bool:
        return code in self._by_code

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.cards)

    def region(self, name: str) -> Region:
        return self._regions[name]

    def colour(self, name: str) -> Colour:
        return self._colours[name]

    def land_mass_label(self, size: int) -> str:
        return next(b.label for b in self.land_mass_buckets if b.value == size)

    def population_label(self, people: int) -> str:
        return next(b.label for b in self.population_buckets if b.value == people)


def bucket_of(value: float, buckets: tuple[Bucket, ...]) -> int:
    """The bucket whose half-open range [at_least, next at_least) holds `value`."""
    for b in sorted(buckets, key=lambda b: -b.at_least):
        if value >= b.at_least:
            return b.value
    raise ValueError(f"{value} is below every bucket")


def _buckets(spec: Any, key: str, value_key: str, values: range, basis: str, where: str) -> tuple[Bucket, ...]:
    if not isinstance(spec, dict) or spec.get("basis") != basis or not isinstance(spec.get("buckets"), list):
        raise DataError(f"{where}: {key}: expected basis {basis!r} and a list of buckets")
    out = []
    for n, b in enumerate(spec["buckets"], 1):
        if (not isinstance(b, dict) or type(b.get(value_key)) is not int
                or type(b.get("at_least")) not in (int, float) or not math.isfinite(b["at_least"])):
            raise DataError(f"{where}: {key}: bucket {n} needs '{value_key}' (whole number) and 'at_least' (a number)")
        label = text(b.get("label"), f"{where}: {key}: bucket {n}: 'label'")   # what the help shows
        out.append(Bucket(b[value_key], float(b["at_least"]), label))
    if sorted(b.value for b in out) != list(values):
        raise DataError(f"{where}: {key}: the buckets must be {values.start}..{values.stop - 1}, each once")
    by_value = sorted(out, key=lambda b: b.value)
    if by_value[0].at_least != 0 or any(a.at_least >= b.at_least for a, b in zip(by_value, by_value[1:])):
        raise DataError(f"{where}: {key}: lower edges must start at 0 and grow with the bucket")
    return tuple(sorted(out, key=lambda b: -b.value))


def _code_list(value: Any, label: str, known: set[str]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise DataError(f"{label}: 'states' must be a list of postal codes")
    for n, c in enumerate(value):
        if c not in known:
            raise DataError(f"{label}: unknown state code {c!r}")
        if c in value[:n]:
            raise DataError(f"{label}: {c} is listed twice")
    return tuple(value)


def _expected_region(division: str, code: str, potomac_north: set[str]) -> str:
    """The principle: whole Census divisions, South Atlantic cut at the Potomac."""
    if division == "South Atlantic":
        division = "South Atlantic/north" if code in potomac_north else "South Atlantic/south"
    return division


def build_cards(spec: Any, states: Mapping[str, Any], where: str) -> CardSet:
    """Cards from the parsed cards.yaml and the state facts (code -> State)."""
    if not isinstance(spec, dict):
        raise DataError(f"{where}: expected a mapping")
    known = set(states)
    land = _buckets(spec.get("land_mass"), "land_mass", "size", range(1, 5), "area_total_sq_mi", where)
    people = _buckets(spec.get("population"), "population", "people", range(1, 6), "population_2020", where)

    potomac_north = set(_code_list(spec.get("potomac_north"), f"{where}: potomac_north", known))
    regions: list[Region] = []
    region_of: dict[str, str] = {}
    if not isinstance(spec.get("regions"), list):
        raise DataError(f"{where}: 'regions' must be a list of the rulebook's seven regions")
    for n, r in enumerate(spec["regions"], 1):
        if not isinstance(r, dict) or r.get("name") not in REGION_NAMES:
            raise DataError(f"{where}: region {n}: 'name' must be one of {', '.join(REGION_NAMES)}")
        label = f"{where}: region {r['name']}"
        if any(other.name == r["name"] for other in regions):
            raise DataError(f"{label}: listed twice")
        border = r.get("border")
        if not isinstance(border, dict) or not isinstance(border.get("name"), str) or not border["name"].strip():
            raise DataError(f"{label}: 'border' needs a name and a hex colour")
        hex_colour(border.get("hex"), f"{label}: border 'hex'")
        divisions = r.get("divisions")
        if (not isinstance(divisions, list) or not divisions or not all(isinstance(d, str) for d in divisions)
                or len(set(divisions)) != len(divisions)):
            raise DataError(f"{label}: 'divisions' must list the Census divisions it is made of, each once")
        members = _code_list(r.get("states"), label, known)
        for code in members:
            if code in region_of:
                raise DataError(f"{label}: {code} is also in {region_of[code]}")
            region_of[code] = r["name"]
            div = _expected_region(states[code].division, code, potomac_north)
            if div not in divisions:
                raise DataError(
                    f"{label}: {code} is in the Census division {states[code].division!r},"
                    f" which this region is not made of ({', '.join(divisions)})"
                )
        regions.append(Region(r["name"], border["name"], border["hex"], tuple(divisions), members))
    if sorted(r.name for r in regions) != sorted(REGION_NAMES):
        raise DataError(f"{where}: the regions must be exactly the rulebook's seven: {', '.join(REGION_NAMES)}")
    if missing := sorted(known - set(region_of)):
        raise DataError(f"{where}: state {missing[0]} is in no region")

    colours: list[Colour] = []
    colour_of: dict[str, str] = {}
    if not isinstance(spec.get("colours"), list):
        raise DataError(f"{where}: 'colours' must be a list of state colours")
    for n, c in enumerate(spec["colours"], 1):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not c["name"].strip():
            raise DataError(f"{where}: colour {n}: needs a name and a hex value")
        label = f"{where}: colour {c['name']}"
        if any(other.name == c["name"] for other in colours):
            raise DataError(f"{label}: listed twice")
        hex_colour(c.get("hex"), f"{label}: 'hex'")
        if c.get("pattern") not in PATTERNS:
            raise DataError(f"{label}: 'pattern' must be one of {', '.join(PATTERNS)}")
        members = _code_list(c.get("states"), label, known)
        for code in members:
            if code in colour_of:
                raise DataError(f"{label}: {code} is also {colour_of[code]}")
            colour_of[code] = c["name"]
        colours.append(Colour(c["name"], c["hex"], c["pattern"], members))
    if len(colours) < MIN_COLOURS:
        raise DataError(f"{where}: at least {MIN_COLOURS} state colours are needed, found {len(colours)}")
    if len({c.pattern for c in colours}) != len(colours):
        raise DataError(f"{where}: every colour needs its own pattern")
    if missing := sorted(known - set(colour_of)):
        raise DataError(f"{where}: state {missing[0]} has no colour")
    if len({len(c.states) for c in colours}) != 1:
        raise DataError(f"{where}: every colour must be on the same number of cards (the die treats them alike)")

    cards = tuple(
        Card(
            code=code,
            name=states[code].name,
            region=region_of[code],
            land_mass=bucket_of(states[code].area_total_sq_mi, land),
            population=bucket_of(states[code].population_2020, people),
            colour=colour_of[code],
        )
        for code in sorted(known)
    )
    ordered_regions = tuple(sorted(regions, key=lambda r: REGION_NAMES.index(r.name)))
    return CardSet(cards, ordered_regions, tuple(colours), land, people)


def read_cards(path: Path, states: Mapping[str, Any]) -> CardSet:
    return build_cards(read_yaml(path), states, str(path))


@cache
def load_cards() -> CardSet:
    """The bundled card set (read once per process)."""
    from stateside.data.states import load_states

    return read_cards(resource("scrambled_states", "cards.yaml"), load_states())


def check_data() -> None:
    """Load every data file the game needs (the app calls this before opening it);
    raises DataError naming the first broken file and entry."""
    from stateside.geo.atlas import load_atlas

    load_atlas()
    load_cards()
