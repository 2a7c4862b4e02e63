"""The move log in a player's words (pure Python): a tile by what is on it ("a city-and-road
tile"), a square by where it lies ("south of Denver", "two squares east of the start
tile"), a turn as a person turns a tile ("turned left"), a follower by its role ("a knight
in the city"), and the small grammar a name or a colour needs ("an orange chip", "you",
"You win")."""
from __future__ import annotations

from .tiles import K_CITY, K_CLOISTER, K_FIELD, K_ROAD, TileType

# `rot` quarter turns clockwise, as a person turning the tile in hand says it
TURN_WORDS = ("", ", turned right", ", turned round", ", turned left")
# a follower on each kind of feature, by the role the rulebook gives it
ROLES = {K_CITY: ("a knight", "in the city"), K_ROAD: ("a thief", "on the road"),
         K_CLOISTER: ("a monk", "in the cloister"), K_FIELD: ("a farmer", "in the field")}
COUNTS = {2: "two", 3: "three", 4: "four"}
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# y grows southwards on the maps and the table, as on the screen
COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")
GOOD_WORDS = {"wine": "grapes", "grain": "grain", "cloth": "cloth"}


def article(phrase: str) -> str:
    """"a" or "an" before `phrase`, by its first sound ("an orange chip", "a violet chip")."""
    return ("an " if phrase[:1].lower() in "aeio" else "a ") + phrase


def as_object(name: str) -> str:
    """A player's name where it is not the subject: the seat called "You" is "you"."""
    return "you" if name == "You" else name


def plural_subject(names: list[str] | tuple[str, ...]) -> bool:
    """Whether a verb after these names takes its plural form ("You win", "Ann and Bo win")."""
    return len(names) != 1 or names[0] == "You"


def verb(names, singular: str, plural: str) -> str:
    return plural if plural_subject(names if isinstance(names, (list, tuple)) else [names]) else singular


def tile_words(tile: TileType) -> str:
    """What is on a tile, as a player names it: "a city-and-road tile", "a cloister tile",
    "a two-city tile with a pennant", "a crossroads tile"."""
    kinds = [s.kind for s in tile.segments]
    parts = []
    cities = kinds.count(K_CITY)
    if cities:
        parts.append("city" if cities == 1 else f"{COUNTS.get(cities, str(cities))}-city")
    if K_CLOISTER in kinds:
        parts.append("cloister")
    roads = kinds.count(K_ROAD)
    if roads:
        parts.append("crossroads" if roads >= 3 else "road")
    words = article(("-and-".join(parts) or "field") + " tile")
    extras = []
    pennants = sum(s.pennant for s in tile.segments)
    if pennants:
        extras.append("a pennant" if pennants == 1 else f"{NUMBERS[pennants]} pennants")
    if any(s.cathedral for s in tile.segments):
        extras.append("a cathedral")
    if any(s.inn for s in tile.segments):
        extras.append("an inn")
    goods = [GOOD_WORDS.get(s.good, s.good) for s in tile.segments if s.good]
    extras += goods
    if extras:
        words += " with " + " and ".join(extras)
    return words


def direction(dx: int, dy: int) -> str:
    """The compass direction of a step (dx east, dy south), to the nearest eighth."""
    import math

    return COMPASS[round(math.atan2(dy, dx) / (math.pi / 4)) % 8]


def _count(n: int) -> str:
    return NUMBERS[n] if n < len(NUMBERS) else str(n)


def squares_away(dx: int, dy: int) -> str:
    """How far a square lies from another, exactly: "just east", "two squares north",
    "three squares north-east", "two squares east and one north"."""
    ax, ay = abs(dx), abs(dy)
    if ax == 0 or ay == 0 or ax == ay:
        steps = max(ax, ay)
        return f"just {direction(dx, dy)}" if steps == 1 else f"{_count(steps)} squares {direction(dx, dy)}"
    across, up = ("east" if dx > 0 else "west"), ("south" if dy > 0 else "north")
    (far, far_way), (near, near_way) = sorted(((ax, across), (ay, up)), reverse=True)
    return f"{_count(far)} squares {far_way} and {_count(near)} {near_way}"


def map_place(board, pos) -> str:
    """A square of a USA map by its nearest town: "on Denver", "south of Denver",
    "two squares north-west of Reno"."""
    town = board.town_near(pos)
    name = board.label(town)
    dx, dy = pos[0] - town.square[0], pos[1] - town.square[1]
    if (dx, dy) == (0, 0):
        return f"on {name}"
    if max(abs(dx), abs(dy)) == 1:        # next to the town
        return f"{direction(dx, dy)} of {name}"
    return f"{squares_away(dx, dy)} of {name}"


def table_place(pos, start) -> str:
    """A square of the open table by where it lies from the start tile."""
    dx, dy = pos[0] - start[0], pos[1] - start[1]
    if (dx, dy) == (0, 0):
        return "on the start tile's square"
    return f"{squares_away(dx, dy)} of the start tile"


def follower_words(kind: str) -> str:
    """"a knight in the city", "a farmer in the field"."""
    who, where = ROLES[kind]
    return f"{who} {where}"
