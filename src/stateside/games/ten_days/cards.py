"""The 66 cards of 10 Days in the USA, read from resources/ten_days/cards.yaml.

A card has an id (unique within the deck) and a face (what is printed on it):

    state card   id "CA"            face "CA"
    airplane     id "plane-red-2"   face "plane-red"
    automobile   id "car-4"         face "car"

The journey checker works on faces; the engine moves ids, so that a test can count
that all 66 cards are still there.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from stateside.data.yamlio import hex_colour, parse_yaml, read_text
from stateside.data.yamlio import text as _text
from stateside.errors import DataError, StatesideError
from stateside.paths import resource

PLANE_COLOURS = ("dark-blue", "light-blue", "green", "red", "tan")
WHITE = "white"  # Alaska and Hawaii
ISLANDS = ("AK", "HI")  # the two white states, reachable only by airplane
CAR = "car"
TRANSPORT_FACES = (CAR,) + tuple(f"plane-{c}" for c in PLANE_COLOURS)


class UnknownCardError(StatesideError):
    """A word that names no card of the game (in the checker command, say)."""


@dataclass(frozen=True)
class Colour:
    key: str       # e.g. "dark-blue"
    name: str      # e.g. "dark blue"
    display: str   # "#rrggbb" used by the app
    symbol: str    # a shape that tells the colours apart without hue


@dataclass(frozen=True)
class CardSet:
    colours: dict[str, Colour]              # the five airplane colours and white
    state_colour: dict[str, str]            # code -> colour key
    state_name: dict[str, str]              # code -> "California"
    airplanes_per_colour: int
    automobiles: int
    corner_only: frozenset[tuple[str, str]]  # sorted pairs meeting at a single point

    def card_ids(self) -> tuple[str, ...]:
        """Every card of the deck, in a fixed order (shuffled by the engine)."""
        ids = list(self.state_colour)
        ids += [f"plane-{c}-{n}" for c in PLANE_COLOURS for n in range(1, self.airplanes_per_colour + 1)]
        ids += [f"{CAR}-{n}" for n in range(1, self.automobiles + 1)]
        return tuple(ids)

    def name(self, face: str) -> str:
        """What a player calls the card: "California", "automobile", "red airplane"."""
        if face in self.state_name:
            return self.state_name[face]
        if face == CAR:
            return "automobile"
        colour = plane_colour(face)
        if colour is not None:
            return f"{self.colours[colour].name} airplane"
        raise UnknownCardError(f"{face!r} is not a card of 10 Days in the USA")

    def colour_of(self, face: str) -> str | None:
        """The colour key of a state or airplane card; None for an automobile."""
        return self.state_colour.get(face) or plane_colour(face)

    def parse_token(self, token: str) -> str:
        """A face from what a person types: a postal code, "car" or "plane-<colour>"."""
        word = token.strip().lower()
        if word.upper() in self.state_colour:
            return word.upper()
        if word in (CAR, "automobile", "auto"):
            return CAR
        if word.startswith(("plane-", "airplane-")):
            colour = word.split("-", 1)[1]
            if colour in PLANE_COLOURS:
                return f"plane-{colour}"
            if colour == "blue":  # the rulebook's own examples say "Blue Airplane"
                raise UnknownCardError(f"{token!r}: there are two blues, plane-dark-blue and plane-light-blue")
            if colour == WHITE:
                raise UnknownCardError(f"{token!r}: there are no white airplanes "
                                       "(Alaska and Hawaii are the white cards)")
            raise UnknownCardError(f"{token!r}: no airplane of that colour; the colours are {', '.join(PLANE_COLOURS)}")
        raise UnknownCardError(
            f"{token!r} is not a card: write a postal code (e.g. CA), car, or plane-<colour>"
            f" with a colour among {', '.join(PLANE_COLOURS)}"
        )


def face_of(card_id: str) -> str:
    """The face of a card id ("plane-red-2" -> "plane-red", "car-4" -> "car"); faces map to themselves."""
    if card_id.startswith(("plane-", "car-")) and card_id[-1].isdigit():
        return card_id.rsplit("-", 1)[0]
    return card_id


def faces_of(cards) -> list[str | None]:
    """The faces of a journey's cards (None stays None: a day not dealt yet)."""
    return [None if c is None else face_of(c) for c in cards]


def is_state(face: str | None) -> bool:
    return face is not None and len(face) == 2


def is_transport(face: str | None) -> bool:
    return face is not None and len(face) > 2


def plane_colour(face: str) -> str | None:
    """The colour of an airplane face, None for any other face."""
    if face.startswith("plane-"):
        colour = face[6:]
        if colour in PLANE_COLOURS:
            return colour
    return None


def parse_cards(text: str, where: str, state_names: dict[str, str]) -> CardSet:
    data = parse_yaml(text, where)
    if not isinstance(data, dict):
        raise DataError(f"{where}: expected a mapping with colours, states, airplanes and automobiles")
    for key in ("colours", "states", "airplanes_per_colour", "automobiles", "corner_only"):
        if key not in data:
            raise DataError(f"{where}: missing key {key!r}")

    raw_colours = data["colours"]
    if not isinstance(raw_colours, dict) or set(raw_colours) != set(PLANE_COLOURS) | {WHITE}:
        raise DataError(f"{where}: colours must be exactly {', '.join(PLANE_COLOURS)} and {WHITE}")
    colours = {}
    for key, body in raw_colours.items():
        if not isinstance(body, dict) or not all(isinstance(body.get(k), str) and body[k].strip()
                                                 for k in ("name", "display", "symbol")):
            raise DataError(f"{where}: colour {key}: needs text fields name, display and symbol")
        hex_colour(body["display"], f"{where}: colour {key}: 'display'")
        colours[key] = Colour(key, body["name"], body["display"], body["symbol"])
    symbols = [c.symbol for c in colours.values()]
    if len(set(symbols)) != len(symbols):   # the symbol tells colours apart without hue
        raise DataError(f"{where}: colours: every colour needs its own symbol")

    states = data["states"]
    if not isinstance(states, dict):
        raise DataError(f"{where}: states must map postal codes to colours")
    if missing := sorted(set(state_names) - set(states)):
        raise DataError(f"{where}: state {missing[0]} has no colour")
    if extra := sorted(set(states) - set(state_names)):
        raise DataError(f"{where}: {extra[0]!r} is not a state code")
    for code, colour in states.items():
        want_white = code in ISLANDS
        if colour not in colours or (colour == WHITE) != want_white:
            allowed = WHITE if want_white else ", ".join(PLANE_COLOURS)
            raise DataError(f"{where}: state {code}: colour {colour!r} (must be {allowed})")

    counts = {}
    for key in ("airplanes_per_colour", "automobiles"):
        value = data[key]
        if not (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10):
            raise DataError(f"{where}: {key} must be a whole number from 1 to 10, got {value!r}")
        counts[key] = value

    corners = set()
    if not isinstance(data["corner_only"], list):
        raise DataError(f"{where}: corner_only must be a list of pairs")
    for n, entry in enumerate(data["corner_only"], 1):
        pair = entry.get("pair") if isinstance(entry, dict) else None
        codes = pair.split("-") if isinstance(pair, str) else []
        if len(codes) != 2 or not all(c in state_names for c in codes):
            raise DataError(f"{where}: corner_only entry {n}: 'pair' must look like AZ-CO, got {pair!r}")
        # the checker quotes it to the player
        _text(entry.get("rule"), f"{where}: corner_only {pair}: 'rule' (the rulebook sentence)")
        if tuple(sorted(codes)) in corners:
            raise DataError(f"{where}: corner_only {pair}: listed twice")
        corners.add(tuple(sorted(codes)))

    return CardSet(
        colours=colours,
        state_colour=dict(sorted(states.items())),
        state_name={c: state_names[c] for c in sorted(states)},
        airplanes_per_colour=counts["airplanes_per_colour"],
        automobiles=counts["automobiles"],
        corner_only=frozenset(corners),
    )


def read_cards(path: Path) -> CardSet:
    from stateside.data.states import load_states

    return parse_cards(read_text(path), str(path), {c: s.name for c, s in load_states().items()})


@cache
def load_cards() -> CardSet:
    """The bundled cards (read once per process)."""
    return read_cards(resource("ten_days", "cards.yaml"))


def check_data() -> None:
    """Load every data file the game needs (the app calls this before opening it);
    raises DataError naming the first broken file and entry."""
    from stateside.geo.atlas import load_atlas
    from stateside.geo.borders import load_borders

    load_atlas()
    load_cards()
    load_borders("ten-days")
