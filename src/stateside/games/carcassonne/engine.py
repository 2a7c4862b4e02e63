"""The Carcassonne rules (a stateside.engine.protocol State): pure Python; a game is
its setup plus its log of actions.

Features (cities, roads, fields) are kept in a union-find over the segments of the
placed tiles; each root carries the running totals of its feature (open edges,
tiles, pennants, followers, bordering cities), so placing a tile touches only the
features it joins and never recomputes the board. Cloisters are looked up by square.

A turn is one action, the move (x, y, rot, seg): the tile in hand goes on square x, y
turned `rot` quarter turns clockwise, with a follower on its segment `seg` (-1: none);
completed features score and the turn passes. Drawing is chance: while no tile is in
hand, current_player() is CHANCE and chance_outcomes() offers every kind of tile left,
weighted by its copies, so the order of the stack never exists before it is drawn. A
drawn tile that fits nowhere is set aside (out of the game) and the next one is drawn;
when no tile is left to draw, the unfinished features and the fields are scored.

A table setup may also give playable squares, several start tiles and reserved squares
with a face-down tile each. Once the landscape touches a reserved square, the player to
move may turn its tile up (TurnUp) and must then lay it on its square (PlaceTurnedUp),
without a follower; a turned-up tile that fits there no way is set aside.

The USA maps (setup["variant"] "usa-west", "usa-east", "usa") are played by
usa.MapGame, a subclass with the sheet's own turn (chips, secret looks, flips), which
registers itself in VARIANT_RULES; new() picks the class a setup's variant names there,
so this base game knows no map (the registry names variants.py, which loads them all).
Its tiles are laid with their scoring deferred to the end of the turn (defer).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from stateside.engine.protocol import CHANCE, TERMINAL, Event, GameSpec, InvariantError, State
from stateside.errors import IllegalActionError, InvalidActionError, StatesideError

from .maps import GRID as MAP_GRID
from .maps import GRIDS as MAP_GRIDS
from .tiles import (
    CITY,
    DELTA,
    FIELD,
    GOODS,
    K_CITY,
    K_CLOISTER,
    K_FIELD,
    K_ROAD,
    SET_NAMES,
    TileType,
    catalogue,
    distinct_rotations,
    fit_table,
    load_tile_set,
    tile_by_id,
)
from .words import TURN_WORDS, follower_words, table_place, tile_words, verb

Pos = tuple[int, int]
VARIANTS = ("table", "usa-west", "usa-east", "usa")   # the open table, then the USA maps
Move = tuple[int, int, int, int]   # x, y, rotation, follower segment (-1: none)
# The rules class of each variant other than the open table, filled in by the module that
# defines it (usa.py: the USA maps); variants.py imports them all.
VARIANT_RULES: dict[str, type[Game]] = {}

# The table's extent: every square, given in a setup or an action, lies within
# -MAX_COORD..MAX_COORD both ways. The largest game (228 tiles) spreads far less; the
# bound keeps every coordinate a screen multiplies by its square size finite.
MAX_COORD = 1000
MAX_SEGMENT = 63          # a follower's segment number on a tile (tiles have about a dozen)
MAX_SQUARES = 10_000      # playable squares a setup may list (a printed board of 100 x 100)

INN, CATHEDRAL = 1, 2
NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_EMPTY: frozenset = frozenset()


@dataclass(frozen=True)
class Draw:
    """Chance: the next tile drawn from the stack."""
    tile: str                  # tile id, e.g. "B-D"


@dataclass(frozen=True)
class TurnUp:
    """The player to move turns up the face-down tile on a reserved square."""
    x: int
    y: int


@dataclass(frozen=True)
class PlaceTurnedUp:
    """The player to move lays the turned-up tile on its own square, turned `rot`."""
    x: int
    y: int
    rot: int


@cache
def _draws() -> tuple[Draw, ...]:
    """One Draw per tile type, by catalogue index (built once: drawing is frequent)."""
    return tuple(Draw(t.id) for t in catalogue())


def draw(tile_id: str) -> Draw:
    return _draws()[tile_by_id()[tile_id].index]


@dataclass(frozen=True)
class ScoreEvent(Event):
    """One scoring: `points` to each seat in `seats` (the tied majority). `kind` is "road",
    "city", "cloister", "field" or "goods"; `text` is describe() with the players' names
    (empty in simulations)."""
    points: int = 0
    turn: int = 0              # the turn it happened in; final scoring uses the last turn + 1
    final: bool = False        # scored at the end of the game
    tiles: int = 0             # tiles the feature covers (cloister: itself and its neighbours)
    pennants: int = 0
    cities: int = 0            # field: completed cities it borders
    bonus: str = ""            # "inn", "cathedral", or the good for a goods award
    followers: tuple[int, ...] = ()   # followers per seat on the feature
    squares: tuple[Pos, ...] = ()     # where the feature lies, for highlighting
    place: str = ""                   # USA maps: the town a chip or flip is at or near

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(names[s] for s in self.seats)
        each = " each" if len(self.seats) > 1 else ""
        unfinished = "unfinished " if self.final and self.kind in ("road", "city", "cloister") else ""
        if self.kind == "road":
            what = f"{unfinished}road of {self.tiles} tile{'s' * (self.tiles != 1)}"
            if self.bonus == "inn":
                what += " with an inn" + (" (scores nothing unfinished)" if self.final else " (2 per tile)")
            rate = "" if self.bonus else " (1 per tile)"
        elif self.kind == "city":
            what = f"{unfinished}city of {self.tiles} tile{'s' * (self.tiles != 1)}"
            if self.pennants:
                what += f" with {self.pennants} pennant{'s' * (self.pennants != 1)}"
            if self.bonus == "cathedral":
                what += " and a cathedral" + (" (scores nothing unfinished)" if self.final
                                              else " (3 per tile and pennant)")
                rate = ""
            else:
                per = "tile and pennant" if self.pennants else "tile"
                rate = f" (1 per {per})" if self.final else f" (2 per {per})"
        elif self.kind == "cloister":
            if self.final:
                what = f"unfinished cloister with {self.tiles - 1} of 8 neighbours"
                rate = " (1 for itself and 1 per neighbour)"
            else:
                what, rate = "cloister surrounded by 8 tiles", " (1 for itself and 1 per neighbour)"
        elif self.kind == "field":
            what = f"field bordering {self.cities} completed cit{'ies' if self.cities != 1 else 'y'}"
            rate = " (3 per city)"
        elif self.kind == "chip":
            return f"{who} took the {self.bonus} chip in {self.place}: {self.points} point{'s' * (self.points != 1)}"
        elif self.kind == "flip":
            if self.points > 0:
                return f"{who} turned up the face-down tile {self.place}: it fits, +{self.points}"
            return (f"{who} turned up the face-down tile {self.place}: it does not fit and leaves the game, "
                    f"{self.points}")
        else:
            return (f"{who} {verb([names[s] for s in self.seats], 'holds', 'hold')} the most {self.bonus} tokens: "
                    f"10 points{each}")
        word = "farmer" if self.kind == "field" else "follower"
        best = max(self.followers, default=0)
        others = sorted((n for i, n in enumerate(self.followers) if n and i not in self.seats), reverse=True)
        if len(self.seats) > 1:
            majority = f", tied {best} {word}{'s' * (best != 1)} each"
        elif others:
            majority = f", most {word}s: {best} to {'-'.join(map(str, others))}"
        else:
            majority = ""
        return f"{who}: {what}{rate}{majority}: {self.points} point{'s' * (self.points != 1)}{each}"



@dataclass(frozen=True)
class Setup:
    """A game's options, as read from its JSON setup (see Game.new)."""
    players: tuple[str, ...]
    followers: int = 7
    sets: tuple[str, ...] = SET_NAMES
    inns_cathedrals: bool = False   # score inns and cathedrals by their expansion rules
    goods: bool = False             # trade goods tokens (10 points per majority at the end)
    start: tuple[tuple, ...] = (("B-D", 0, 0, 0),)   # (tile id, x, y, rot)
    squares: tuple[Pos, ...] | None = None   # playable squares; None: the open table
    reserved: tuple[tuple, ...] = ()  # (tile id, x, y): face down, kept off the stack
    variant: str = "table"          # "table", or a USA map: "usa-west", "usa-east", "usa" (both)
    grid: int = MAP_GRID            # the USA maps' grid version (maps.GRIDS); saves before grid 2 had 1

    def __post_init__(self):   # lists given by callers become tuples: a Setup never changes
        fix = object.__setattr__
        fix(self, "players", tuple(self.players))
        fix(self, "sets", tuple(self.sets))
        fix(self, "start", tuple(tuple(s) for s in self.start))
        fix(self, "reserved", tuple(tuple(r) for r in self.reserved))
        if self.squares is not None:
            fix(self, "squares", tuple(tuple(s) for s in self.squares))

    def to_json(self) -> dict:
        if self.variant != "table":   # the map gives the squares, start tiles and tile sets
            old_grid = {} if self.grid == MAP_GRID else {"grid": self.grid}
            return {"players": list(self.players), "followers": self.followers,
                    "inns_cathedrals": self.inns_cathedrals, "goods": self.goods, "variant": self.variant,
                    **old_grid}
        return {"players": list(self.players), "followers": self.followers, "sets": list(self.sets),
                "inns_cathedrals": self.inns_cathedrals, "goods": self.goods,
                "start": [list(s) for s in self.start],
                "squares": None if self.squares is None else [list(s) for s in self.squares],
                "reserved": [list(r) for r in self.reserved]}

    @classmethod
    def from_json(cls, d: Any) -> Setup:
        """ValueError, with a message for a person, when `d` is not a Carcassonne setup."""
        if not isinstance(d, dict):
            raise ValueError("the Carcassonne setup is not a mapping")
        unknown = set(d) - {f.name for f in fields(cls)}
        if unknown:
            raise ValueError(f"the Carcassonne setup has unknown options: {', '.join(sorted(map(str, unknown)))}")
        players = d.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("the Carcassonne setup has no list of player names")
        followers = d.get("followers", 7)
        if type(followers) is not int or not 1 <= followers <= 99:
            raise ValueError(f"the Carcassonne setup gives each player {followers!r:.40} followers (1 to 99)")
        flags = {}
        for name in ("inns_cathedrals", "goods"):
            flags[name] = d.get(name, False)
            if type(flags[name]) is not bool:
                raise ValueError(f"the Carcassonne setup's {name} must be true or false, not {flags[name]!r:.40}")

        def square(row, what):
            """(x, y) of a square on the table, from the setup's [..., x, y]."""
            x, y = row
            if type(x) is not int or type(y) is not int:
                raise ValueError(f"{what} {row!r:.60} is not on a square (whole numbers x, y)")
            if not (-MAX_COORD <= x <= MAX_COORD and -MAX_COORD <= y <= MAX_COORD):
                raise ValueError(f"a {what} lies off the table (squares run from -{MAX_COORD} to {MAX_COORD} "
                                 "both ways)")
            return x, y

        def placed(row, n, what):
            if not isinstance(row, list) or len(row) != n or not isinstance(row[0], str):
                raise ValueError(f"{what} {row!r:.60} is not [tile id, x, y{', rotation' * (n == 4)}]")
            out = (row[0],) + square(row[1:3], what)
            if n == 4:
                if type(row[3]) is not int or not 0 <= row[3] <= 3:
                    raise ValueError(f"{what} {row!r:.60} turns 0 to 3 quarter turns, not {row[3]!r:.20}")
                out += (row[3],)
            return out

        variant = d.get("variant", "table")
        if variant not in VARIANTS:
            raise ValueError(f"the Carcassonne setup names no known map: {variant!r:.40} "
                             f"(choose from {', '.join(VARIANTS)})")
        if variant != "table":
            # The map gives these; the table's defaults (as in default_setup) are ignored.
            table = cls(players=tuple(players)).to_json()
            extra = {k for k in ("sets", "start", "squares", "reserved") if k in d and d[k] != table[k]}
            if extra:
                raise ValueError(f"the Carcassonne setup for {variant} cannot set {', '.join(sorted(extra))}: "
                                 "the map does")
            grid = d.get("grid", MAP_GRID)
            if type(grid) is not int or grid not in MAP_GRIDS:
                raise ValueError(f"the Carcassonne setup names no known grid of the USA maps: {grid!r:.40} "
                                 f"(grids {', '.join(map(str, MAP_GRIDS))})")
            return cls(players=tuple(players), followers=followers, variant=variant, grid=grid, **flags)
        if "grid" in d:
            raise ValueError("the Carcassonne setup gives a grid, which only the USA maps have")
        sets = d.get("sets", list(SET_NAMES))
        if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
            raise ValueError("the Carcassonne setup's tile sets are not a list of names")
        if len(set(sets)) != len(sets):
            raise ValueError("the Carcassonne setup names a tile set twice")
        if unknown := [name for name in sets if name not in SET_NAMES]:
            raise ValueError(f"unknown Carcassonne tile set {unknown[0]!r:.40} (known: {', '.join(SET_NAMES)})")
        start, squares, reserved = d.get("start", [["B-D", 0, 0, 0]]), d.get("squares"), d.get("reserved", [])
        if not isinstance(start, list) or not isinstance(reserved, list):
            raise ValueError("the Carcassonne setup's start and reserved tiles must be lists")
        if squares is not None and (not isinstance(squares, list) or len(squares) > MAX_SQUARES):
            raise ValueError(f"the Carcassonne setup's squares must be a list of at most {MAX_SQUARES:,} squares")
        for s in squares or ():
            if not isinstance(s, list) or len(s) != 2:
                raise ValueError(f"the Carcassonne setup's square {s!r:.40} is not [x, y]")
        return cls(players=tuple(players), followers=followers, sets=tuple(sets),
                   start=tuple(placed(s, 4, "start tile") for s in start),
                   squares=None if squares is None else tuple(square(s, "square") for s in squares),
                   reserved=tuple(placed(r, 3, "face-down tile") for r in reserved), **flags)


def action_numbers(value: Any, what: str, rotation: bool = True, follower: bool = False) -> list[int]:
    """[x, y(, rotation)(, follower)] of an action read from JSON, each in its range;
    ValueError, saying which, for anything else."""
    n = 2 + rotation + follower
    if not isinstance(value, list) or len(value) != n or not all(type(i) is int for i in value):
        raise InvalidActionError(f"{what} needs {n} whole numbers, not {value!r:.60}")
    if not all(-MAX_COORD <= v <= MAX_COORD for v in value[:2]):
        raise InvalidActionError(f"{what}: the square is off the table (squares run from -{MAX_COORD} to "
                                 f"{MAX_COORD} both ways)")
    if rotation and not 0 <= value[2] <= 3:
        raise InvalidActionError(f"{what}: a tile turns 0 to 3 quarter turns, not {value[2]!r:.20}")
    if follower and not -1 <= value[-1] <= MAX_SEGMENT:
        raise InvalidActionError(f"{what}: a follower goes on feature -1 (none) to {MAX_SEGMENT}, "
                                 f"not {value[-1]!r:.20}")
    return value


class Placed:
    """A tile on the table."""
    __slots__ = ("tile", "rot", "pos", "base", "o")

    def __init__(self, tile: TileType, rot: int, pos: Pos, base: int):
        self.tile, self.rot, self.pos, self.base = tile, rot, pos, base
        self.o = tile.oriented(rot)


class Game(State):
    """One game of Carcassonne. Seats are 0..n-1 in turn order."""

    # Hidden information only on the USA maps (a secret look at a face-down tile).
    spec = GameSpec(id="carcassonne", min_players=2, max_players=5, hidden_information=True,
                    save_version=3, ai_levels=("easy", "hard"), has_scores=True, variants=VARIANTS,
                    public_variants=("table",))   # only the maps' face-down tiles are secret

    # --------------------------------------------------------------- setting up
    def __init__(self, conf: Setup):
        n = len(conf.players)
        if not 2 <= n <= 5:
            raise ValueError(f"Carcassonne is for 2 to 5 players, not {n}")
        if conf.followers < 1:
            raise ValueError("each player needs at least one follower")
        if not conf.start:
            raise ValueError("the game needs at least one start tile on the table")
        for name in conf.sets:
            try:
                load_tile_set(name)
            except StatesideError as e:     # an unknown set
                raise ValueError(str(e)) from None
        self.conf = conf
        self._setup = conf.to_json()
        self.n = n
        self.tiles = catalogue()
        by_id = tile_by_id()
        # The stack: every tile of the chosen sets, less the ones placed or reserved at
        # setup, as copies left per tile index (its order is chance's business).
        deck: Counter = Counter()
        for name in conf.sets:
            for t in load_tile_set(name).tiles:
                deck[by_id[t.id].index] += t.count
        for tid, *_ in conf.start + conf.reserved:
            t = by_id.get(tid)
            if t is None or not deck[t.index]:
                raise ValueError(f"tile {tid:.30} is not available in the chosen sets for the setup")
            deck[t.index] -= 1
        self._check_squares(conf)
        self.deck: dict[int, int] = {t: c for t, c in sorted(deck.items()) if c}
        self.squares: frozenset[Pos] | None = None if conf.squares is None else frozenset(conf.squares)
        self.reserved: dict[Pos, int] = {(x, y): by_id[tid].index for tid, x, y in conf.reserved}

        # Table
        self.board: dict[Pos, int] = {}      # square -> index into self.placed
        self.placed: list[Placed] = []
        self.open: dict[Pos, int] = {}       # free square next to a tile -> requirement key
        self.cloisters: dict[Pos, int] = {}  # square -> cloister segment id
        # Segments (union-find); aggregates are valid at roots.
        self.parent: list[int] = []
        self.size: list[int] = []
        self.kind: list[str] = []
        self.seg_tile: list[int] = []        # segment -> placed index
        self.ports: list[int] = []           # open edges of a city or road
        self.ftiles: list[frozenset] = []    # placed indices a city or road covers
        self.pennants: list[int] = []
        self.flags: list[int] = []           # INN | CATHEDRAL
        self.goods: list[tuple] = []         # (wine, grain, cloth) in a city
        self.meeples: list[tuple] = []       # ((seat, segment), ...) on the feature
        self.adj: list[frozenset] = []       # field: city segment ids it borders
        self.done: list[bool] = []           # city/road/cloister completed and scored
        self.occupied: set[int] = set()      # roots of the features that hold followers

        self.points = [0] * n
        self.supply = [conf.followers] * n
        self.tokens = [[0, 0, 0] for _ in range(n)]
        self.events: list[ScoreEvent] = []
        self.actions: list[Move] = []        # the moves made, in order
        self.history: list = []              # every action applied, chance included
        self.set_aside: list[int] = []
        self.current = 0
        self.turn = 0                        # turns completed
        self.drawn: int | None = None        # the tile in hand; None: a draw is due
        self.turned_up: tuple[int, Pos] | None = None   # a face-down tile turned up, to lay
        self.finished = False
        self.record = True                   # False in AI simulations: skip event details
        self.defer = False                   # USA maps: completed features score at the end of the turn

        for tid, x, y, rot in conf.start:
            if rot not in fit_table(by_id[tid])[self._key_at((x, y))]:
                raise ValueError(f"the start tile {tid} on {x},{y} does not match the start tiles beside it: "
                                 "every edge must match its neighbour")
            self._put(by_id[tid], rot % 4, (x, y), None, -1)

    @staticmethod
    def _check_squares(conf: Setup) -> None:
        """ValueError unless the start and face-down tiles lie each on a square of its own,
        on the table (and on its playable squares, where the setup lists them)."""
        seen: dict[Pos, str] = {}
        for what, rows in (("start tile", conf.start), ("face-down tile", conf.reserved)):
            for tid, x, y, *_ in rows:
                if not all(-MAX_COORD <= v <= MAX_COORD for v in (x, y)):
                    raise ValueError(f"the {what} {tid} on {x},{y} is off the table")
                if conf.squares is not None and (x, y) not in conf.squares:
                    raise ValueError(f"the {what} {tid} on {x},{y} is not on a playable square")
                if (x, y) in seen:
                    raise ValueError(f"square {x},{y} holds a {seen[x, y]} already: the {what} {tid} "
                                     "needs a square of its own")
                seen[x, y] = what

    @classmethod
    def new(cls, setup: dict) -> Game:
        conf = Setup.from_json(setup)
        if conf.variant != "table":
            rules = VARIANT_RULES.get(conf.variant)
            if rules is None:   # a programming slip, not a player's: import variants.py
                raise RuntimeError(f"the rules of the Carcassonne variant {conf.variant!r} are not loaded")
            return rules(conf)
        return cls(conf)

    @classmethod
    def upgrade_save(cls, body: dict, version: int) -> dict | None:
        """Rules version 2 (saves before December 2026) played the USA maps on grid 1,
        whose squares differ from today's: such a save keeps its grid and replays on it.
        The table's saves replay unchanged."""
        if version != 2:
            return None
        setup = body.get("setup")      # anything else is refused by the usual checks, by name
        if isinstance(setup, dict) and setup.get("variant", "table") != "table" and "grid" not in setup:
            setup = {**setup, "grid": 1}
        return {**body, "setup": setup, "rules_version": cls.spec.save_version}

    @classmethod
    def default_setup(cls, players: int) -> dict:
        """All three tile sets (114 tiles), 7 followers each, the expansions' tiles scoring plainly."""
        return Setup(players=tuple(f"Player {i + 1}" for i in range(players))).to_json()

    @property
    def setup(self) -> dict:
        return self._setup

    # --------------------------------------------------------------- queries
    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        return CHANCE if self.drawn is None else self.current

    def is_terminal(self) -> bool:
        return self.finished

    @property
    def tiles_left(self) -> int:
        """Tiles still to be drawn (not counting the one in hand)."""
        return sum(self.deck.values())

    def allowed(self, pos: Pos) -> bool:
        return (pos not in self.reserved and (self.squares is None or pos in self.squares)
                and -MAX_COORD <= pos[0] <= MAX_COORD and -MAX_COORD <= pos[1] <= MAX_COORD)

    def fits(self, tile: TileType, pos: Pos) -> tuple[int, ...]:
        """Rotations of `tile` that may be placed on the free square `pos` (playable or
        not: a reserved square is checked the same way)."""
        key = self.open.get(pos)
        if key is None:
            if pos in self.board:
                return ()
            key = self._key_at(pos)
            if key == 0:
                return ()
        return fit_table(tile)[key]

    def _key_at(self, pos: Pos) -> int:
        """The requirement key of a square: what each neighbour shows towards it."""
        x, y = pos
        key = 0
        for d in range(4):
            q = self.board.get((x + DELTA[d][0], y + DELTA[d][1]))
            if q is not None:
                key |= self.placed[q].o.edges[(d + 2) % 4] << (2 * d)
        return key

    def legal_placements(self, tile: TileType | None = None, distinct: bool = False) -> list[tuple[int, int, int]]:
        """(x, y, rot) where the drawn tile (or `tile`) may go; `distinct` drops rotations
        that look and play the same as another one."""
        if tile is None:
            if self.drawn is None:
                return []
            tile = self.tiles[self.drawn]
        table = fit_table(tile)
        keep = set(distinct_rotations(tile)) if distinct else None
        out = []
        for (x, y), key in self.open.items():
            for r in table[key]:
                if keep is None or r in keep:
                    out.append((x, y, r))
        return out

    def can_place_anywhere(self, tile: TileType) -> bool:
        table = fit_table(tile)
        return any(table[key] for key in self.open.values())

    def _neighbour_roots_around(self, pos: Pos) -> list[tuple[int, int, int, int]]:
        """What the neighbours of the free square `pos` show towards it, whatever tile comes:
        (direction, root of the city or road on that edge or -1, roots of the fields on its
        two halves or -1), the halves in the order of the new tile's half-edges 2d, 2d+1."""
        x, y = pos
        board, placed, find = self.board, self.placed, self.find
        out = []
        for d in range(4):
            q = board.get((x + DELTA[d][0], y + DELTA[d][1]))
            if q is None:
                continue
            nb = placed[q]
            od = (d + 2) % 4
            k = nb.o.edges[od]      # the new tile shows the same kind on this edge
            edge = find(nb.base + nb.o.edge_seg[od]) if k != FIELD else -1
            if k != CITY:
                out.append((d, edge, find(nb.base + nb.o.half_seg[2 * od + 1]), find(nb.base + nb.o.half_seg[2 * od])))
            else:
                out.append((d, edge, -1, -1))
        return out

    @staticmethod
    def _joins(o, nseg: int, around) -> list[set[int]]:
        """For each segment of the oriented tile `o`, the features it would join."""
        joins: list[set[int]] = [set() for _ in range(nseg)]
        for d, edge, h0, h1 in around:
            if edge >= 0:
                joins[o.edge_seg[d]].add(edge)
            if h0 >= 0:
                joins[o.half_seg[2 * d]].add(h0)
                joins[o.half_seg[2 * d + 1]].add(h1)
        return joins

    def _free_segments(self, o, nseg: int, around) -> list[int]:
        """Segments of the tile `o` (oriented) on the square described by `around` that may
        take a follower (the supply is not checked here)."""
        meeples = self.meeples
        if not any(meeples[r] for _, edge, h0, h1 in around for r in (edge, h0, h1) if r >= 0):
            return list(range(nseg))          # nothing occupied around: every segment is free
        joins = self._joins(o, nseg, around)
        # Two segments of the new tile that touch the same feature become one feature:
        # a follower is barred from both if either reaches an occupied one.
        busy = {r for roots in joins for r in roots if meeples[r]}
        blocked = [bool(roots & busy) for roots in joins]
        changed = any(blocked)
        while changed:
            changed = False
            reach = set().union(*(roots for roots, b in zip(joins, blocked) if b))
            for i, roots in enumerate(joins):
                if not blocked[i] and roots & reach:
                    blocked[i] = changed = True
        return [i for i, b in enumerate(blocked) if not b]

    def follower_options(self, x: int, y: int, rot: int, tile: TileType | None = None) -> list[int]:
        """Segments of the tile placed at (x, y) turned `rot` that may take a follower."""
        if tile is None:
            tile = self.tiles[self.drawn]
        if self.supply[self.current] <= 0:
            return []
        return self._free_segments(tile.oriented(rot), len(tile.segments), self._neighbour_roots_around((x, y)))

    # --------------------------------------------------------------- what is legal
    def legal_actions(self, seat: int | None = None) -> list:
        """Exactly the actions apply_action accepts now from `seat` (None: whoever is to
        act; at a chance node the draws, in the order of chance_outcomes)."""
        if self.finished:
            return []
        if self.drawn is None:
            return [a for a, _ in self.chance_outcomes()] if seat is None else []
        if seat is not None and seat != self.current:
            return []
        if self.turned_up is not None:
            t, (x, y) = self.turned_up
            return [PlaceTurnedUp(x, y, r) for r in self.fits(self.tiles[t], (x, y))]
        out: list = self.moves()
        out.extend(TurnUp(x, y) for (x, y) in self.reserved if self._key_at((x, y)))
        return out

    def moves(self) -> list[Move]:
        """Every whole move with the tile in hand: placement (every rotation that fits, even
        those that look the same) and follower choice (-1 for none)."""
        tile = self.tiles[self.drawn]
        table = fit_table(tile)
        nseg = len(tile.segments)
        follow = self.supply[self.current] > 0
        out: list[Move] = []
        for pos, key in self.open.items():
            rots = table[key]
            if not rots:
                continue
            x, y = pos
            around = self._neighbour_roots_around(pos) if follow else None
            for r in rots:
                out.append((x, y, r, -1))
                if follow:
                    out.extend((x, y, r, s) for s in self._free_segments(tile.oriented(r), nseg, around))
        return out

    def chance_outcomes(self) -> list[tuple[Draw, float]]:
        if self.finished or self.drawn is not None:
            return []
        total = sum(self.deck.values())
        draws = _draws()
        return [(draws[t], c / total) for t, c in self.deck.items()]

    def candidate_actions(self, seat: int | None = None) -> list:
        """Every action of the right shape here: draws of every tile type; moves on every
        free, reserved or taken square next to the table and one far off, in every
        rotation, with every follower choice and one beyond; turning up and laying on
        those squares."""
        if self.drawn is None and not self.finished:
            return list(_draws()) if seat is None else []
        squares = set(self.open) | set(self.reserved) | set(self.board) | {(99, 99)}
        squares |= {(x + dx, y + dy) for x, y in self.board for dx, dy in DELTA}
        nseg = len(self.tiles[self.drawn].segments) if self.drawn is not None else 1
        out: list = list(_draws())
        for x, y in sorted(squares):
            for r in range(4):
                out.extend((x, y, r, s) for s in range(-1, nseg + 1))
                out.append(PlaceTurnedUp(x, y, r))
            out.append(TurnUp(x, y))
        return out

    def followers_on_board(self) -> list[tuple[int, Pos, int]]:
        """(seat, square, segment index on that tile) of every follower on the table."""
        out = []
        for root in sorted(self.occupied):
            for seat, seg in self.meeples[root]:
                p = self.placed[self.seg_tile[seg]]
                out.append((seat, p.pos, seg - p.base))
        return out

    def feature_squares(self, seg: int) -> tuple[Pos, ...]:
        """Squares covered by the feature of segment id `seg` (fields included)."""
        root = self.find(seg)
        if self.kind[root] in (K_CITY, K_ROAD):
            return tuple(sorted(self.placed[i].pos for i in self.ftiles[root]))
        if self.kind[root] == K_CLOISTER:
            return (self.placed[self.seg_tile[root]].pos,)
        return tuple(sorted({self.placed[self.seg_tile[g]].pos for g in range(len(self.parent))
                             if self.kind[g] == K_FIELD and self.find(g) == root}))

    def returns(self) -> list[float]:
        if not self.finished:
            return [0.0] * self.n
        win = self.winners()
        return [1 / len(win) if i in win else 0.0 for i in range(self.n)]

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        best = max(self.points)
        return [i for i, s in enumerate(self.points) if s == best]

    # --------------------------------------------------------------- acting
    def check_placement(self, x: int, y: int, rot: int) -> None:
        """Raise IllegalActionError, saying why, unless the tile in hand may go on x, y turned `rot`."""
        if self.finished:
            raise IllegalActionError("the game is over")
        if self.drawn is None:
            raise IllegalActionError("no tile is in hand: the next tile must be drawn first")
        if self.turned_up is not None:
            raise IllegalActionError("the turned-up tile must be laid first")
        if not 0 <= rot <= 3:
            raise IllegalActionError(f"a tile turns 0 to 3 quarter turns, not {rot}")
        if (x, y) in self.board:
            raise IllegalActionError(f"square {x},{y} already holds a tile")
        key = self.open.get((x, y))
        if key is None:
            raise IllegalActionError(f"square {x},{y} does not touch the tiles on the table" if self.allowed((x, y))
                                     else f"square {x},{y} is not a playable square")
        if rot not in fit_table(self.tiles[self.drawn])[key]:
            raise IllegalActionError(f"the tile does not fit on {x},{y} turned that way: "
                                     "every edge must match its neighbour")

    def apply_action(self, action) -> list[Event]:
        """Apply a move, a draw, or turning up / laying a face-down tile; returns the
        scoring (and setting-aside) events it caused."""
        first = len(self.events)
        if type(action) is tuple:
            self._move(action)
        elif type(action) is Draw:
            aside = self._draw(action)
            self.history.append(action)
            return [aside] if aside else []
        elif type(action) is TurnUp:
            aside = self._turn_up(action)
            self.history.append(action)
            return [aside] if aside else []
        elif type(action) is PlaceTurnedUp:
            aside = self._place_turned_up(action)
            self.history.append(action)
            return self.events[first:] + ([aside] if aside else [])
        else:
            raise IllegalActionError(f"{action!r} is not a Carcassonne action")
        self.history.append(action)
        return self.events[first:]

    def _move(self, move: Move) -> None:
        if len(move) != 4 or not all(type(v) is int for v in move):
            raise IllegalActionError(f"{move!r} is not a move (x, y, rotation, follower)")
        x, y, rot, seg = move
        self.check_placement(x, y, rot)
        tile = self.tiles[self.drawn]
        if seg != -1:
            if not 0 <= seg < len(tile.segments):
                raise IllegalActionError(f"the tile has no feature number {seg}")
            if self.supply[self.current] <= 0:
                raise IllegalActionError("you have no followers left")
            if seg not in self.follower_options(x, y, rot, tile):
                raise IllegalActionError(f"that {tile.segments[seg].kind} is already occupied through connected tiles")
        self.actions.append(move)
        self._put(tile, rot, (x, y), self.current, seg)
        self.turn += 1
        self.current = (self.current + 1) % self.n
        self.drawn = None
        if not self.deck:
            self._final_scoring()

    def _draw(self, action: Draw) -> Event | None:
        """The drawn tile goes to the player to move, or aside when it fits nowhere."""
        if self.finished or self.drawn is not None:
            raise IllegalActionError("no tile is to be drawn now")
        t = tile_by_id().get(action.tile) if isinstance(action.tile, str) else None
        if t is None or not self.deck.get(t.index):
            raise IllegalActionError(f"no tile {action.tile} is left to draw")
        c = self.deck[t.index]
        if c == 1:
            del self.deck[t.index]
        else:
            self.deck[t.index] = c - 1
        if self.can_place_anywhere(t):
            self.drawn = t.index
            return None
        return self._set_aside(t.index)

    def _set_aside(self, t: int) -> Event:
        """A tile that fits nowhere leaves the game; with the stack empty, the game ends."""
        self.set_aside.append(t)
        self.drawn = None
        if not self.deck:
            self._final_scoring()
        return Event(f"{tile_words(self.tiles[t]).capitalize()} fits nowhere: it is set aside", "set-aside")

    def _turn_up(self, action: TurnUp) -> Event | None:
        if self.finished or self.drawn is None or self.turned_up is not None:
            raise IllegalActionError("no face-down tile can be turned up now")
        pos = (action.x, action.y)
        if pos not in self.reserved:
            raise IllegalActionError(f"square {action.x},{action.y} holds no face-down tile")
        if not self._key_at(pos):
            raise IllegalActionError(f"the face-down tile on {action.x},{action.y} does not touch the landscape yet")
        t = self.reserved.pop(pos)
        if self.allowed(pos):
            self.open[pos] = self._key_at(pos)
        if self.fits(self.tiles[t], pos):
            self.turned_up = (t, pos)
            return None
        self.set_aside.append(t)    # opening a square never makes the tile in hand fit less
        return Event(f"the turned-up tile {self.tiles[t].id} fits on its square no way and is set aside", "set-aside")

    def _place_turned_up(self, action: PlaceTurnedUp) -> Event | None:
        if self.turned_up is None:
            raise IllegalActionError("no turned-up tile is waiting to be laid")
        t, pos = self.turned_up
        if (action.x, action.y) != pos:
            raise IllegalActionError(f"the turned-up tile goes on its own square, {pos[0]},{pos[1]}")
        if action.rot not in self.fits(self.tiles[t], pos):
            raise IllegalActionError(f"tile {self.tiles[t].id} does not fit on {pos[0]},{pos[1]} turned that way")
        self.turned_up = None
        self._put(self.tiles[t], action.rot, pos, self.current, -1)
        return self._check_hand()

    def _check_hand(self) -> Event | None:
        """After the table changed outside a move, the tile in hand may fit nowhere any more."""
        if self.drawn is not None and not self.can_place_anywhere(self.tiles[self.drawn]):
            return self._set_aside(self.drawn)
        return None

    # --------------------------------------------------------------- internals
    def _put(self, tile: TileType, rot: int, pos: Pos, seat: int | None, follower: int) -> None:
        o = tile.oriented(rot)
        t = len(self.placed)
        base = len(self.parent)
        p = Placed(tile, rot, pos, base)
        self.placed.append(p)
        self.board[pos] = t
        parent, kind, ports, ftiles = self.parent, self.kind, self.ports, self.ftiles
        mine = frozenset((t,))
        for i, s in enumerate(tile.segments):
            parent.append(base + i)
            self.size.append(1)
            kind.append(s.kind)
            self.seg_tile.append(t)
            ports.append(len(s.edges))
            ftiles.append(mine if s.kind in (K_CITY, K_ROAD) else _EMPTY)
            self.pennants.append(1 if s.pennant else 0)
            self.flags.append((INN if s.inn else 0) | (CATHEDRAL if s.cathedral else 0))
            self.goods.append((s.good == "wine", s.good == "grain", s.good == "cloth") if s.good else None)
            self.meeples.append(())
            self.adj.append(frozenset(base + c for c in s.cities) if s.cities else _EMPTY)
            self.done.append(False)
            if s.kind == K_CLOISTER:
                self.cloisters[pos] = base + i
        if follower >= 0:
            g = base + follower
            self.meeples[g] = ((seat, g),)
            self.occupied.add(g)
            self.supply[seat] -= 1

        # Join the neighbours.
        x, y = pos
        board, placed = self.board, self.placed
        union = self._union
        for d in range(4):
            q = board.get((x + DELTA[d][0], y + DELTA[d][1]))
            if q is None:
                continue
            nb = placed[q]
            od = (d + 2) % 4
            if o.edges[d] != FIELD:
                r = union(base + o.edge_seg[d], nb.base + nb.o.edge_seg[od])
                ports[r] -= 2
            if o.edges[d] != CITY:
                union(base + o.half_seg[2 * d], nb.base + nb.o.half_seg[2 * od + 1])
                union(base + o.half_seg[2 * d + 1], nb.base + nb.o.half_seg[2 * od])

        # Free squares around.
        self.open.pop(pos, None)
        opn = self.open
        for d in range(4):
            q = (x + DELTA[d][0], y + DELTA[d][1])
            if q in board or not self.allowed(q):
                continue
            opn[q] = opn.get(q, 0) | (o.edges[d] << (2 * ((d + 2) % 4)))

        if not self.defer:
            self._score_tile(pos, seat)

    def _score_tile(self, pos: Pos, seat: int | None) -> None:
        """Score the cities, roads and cloisters completed by the tile on `pos`."""
        p = self.placed[self.board[pos]]
        tile, base, ports = p.tile, p.base, self.ports
        x, y = pos
        # Completed cities and roads.
        seen = set()
        for i, s in enumerate(tile.segments):
            if s.kind in (K_CITY, K_ROAD):
                r = self.find(base + i)
                if r not in seen:
                    seen.add(r)
                    if ports[r] == 0 and not self.done[r]:
                        self._complete(r, seat)
        # Completed cloisters: this tile's and its neighbours'.
        cl = self.cloisters
        if cl:
            for dx, dy in ((0, 0),) + NEIGHBOURS8:
                g = cl.get((x + dx, y + dy))
                if g is not None and not self.done[g] and self._cloister_neighbours((x + dx, y + dy)) == 8:
                    self._complete(g, seat)

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        size = self.size
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        size[ra] += size[rb]
        self.ports[ra] += self.ports[rb]
        k = self.kind[ra]
        if k == K_FIELD:
            if self.adj[rb]:
                self.adj[ra] = self.adj[ra] | self.adj[rb]
        else:
            self.ftiles[ra] = self.ftiles[ra] | self.ftiles[rb]
            self.pennants[ra] += self.pennants[rb]
            self.flags[ra] |= self.flags[rb]
            gb = self.goods[rb]
            if gb is not None:
                ga = self.goods[ra]
                self.goods[ra] = gb if ga is None else (ga[0] + gb[0], ga[1] + gb[1], ga[2] + gb[2])
        if self.meeples[rb]:
            self.meeples[ra] = self.meeples[ra] + self.meeples[rb]
            self.meeples[rb] = ()
            self.occupied.discard(rb)
            self.occupied.add(ra)
        return ra

    def _cloister_neighbours(self, pos: Pos) -> int:
        x, y = pos
        board = self.board
        return sum(1 for dx, dy in NEIGHBOURS8 if (x + dx, y + dy) in board)

    def feature_points(self, root: int, final: bool) -> int:
        """What the feature at `root` is worth now: completed (final=False) or at the end."""
        k = self.kind[root]
        rules = self.conf.inns_cathedrals
        if k == K_ROAD:
            n = len(self.ftiles[root])
            if rules and self.flags[root] & INN:
                return 0 if final else 2 * n
            return n
        if k == K_CITY:
            n = len(self.ftiles[root]) + self.pennants[root]
            if rules and self.flags[root] & CATHEDRAL:
                return 0 if final else 3 * n
            return n if final else 2 * n
        if k == K_CLOISTER:
            return 1 + self._cloister_neighbours(self.placed[self.seg_tile[root]].pos)
        return 3 * self.field_cities(root)

    def field_cities(self, root: int) -> int:
        """Completed cities the field at `root` borders."""
        done, find = self.done, self.find
        return len({r for r in map(find, self.adj[root]) if done[r]})

    def _award(self, root: int, points: int, final: bool) -> None:
        m = self.meeples[root]
        counts = [0] * self.n
        for seat, _ in m:
            counts[seat] += 1
        best = max(counts)
        seats = tuple(i for i, c in enumerate(counts) if c == best)
        for s in seats:
            self.points[s] += points
        if self.record:
            k = self.kind[root]
            bonus = ""
            if self.conf.inns_cathedrals:
                if k == K_ROAD and self.flags[root] & INN:
                    bonus = "inn"
                elif k == K_CITY and self.flags[root] & CATHEDRAL:
                    bonus = "cathedral"
            if k == K_CLOISTER:
                pos = self.placed[self.seg_tile[root]].pos
                tiles = 1 + self._cloister_neighbours(pos)
                squares = tuple(sorted((pos[0] + dx, pos[1] + dy) for dx, dy in ((0, 0),) + NEIGHBOURS8
                                       if (pos[0] + dx, pos[1] + dy) in self.board))
            else:
                tiles = len(self.ftiles[root])
                squares = self.feature_squares(root)
            e = ScoreEvent(
                text="", kind=k, seats=seats, points=points, turn=self.turn, final=final, tiles=tiles,
                pennants=self.pennants[root] if k == K_CITY else 0,
                cities=self.field_cities(root) if k == K_FIELD else 0,
                bonus=bonus, followers=tuple(counts), squares=squares)
            self.events.append(replace(e, text=e.describe(self.conf.players)))
        else:
            self.events.append(ScoreEvent(text="", kind=self.kind[root], seats=seats, points=points, turn=self.turn,
                                          final=final))

    def _complete(self, root: int, seat: int | None) -> None:
        self.done[root] = True
        if self.meeples[root]:
            self._award(root, self.feature_points(root, False), False)
            for s, _ in self.meeples[root]:
                self.supply[s] += 1
            self.meeples[root] = ()
            self.occupied.discard(root)
        if self.conf.goods and seat is not None and self.kind[root] == K_CITY and self.goods[root]:
            for i, n in enumerate(self.goods[root]):
                self.tokens[seat][i] += n

    def _final_scoring(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.drawn = None
        # Unfinished cities, roads and cloisters, then fields; followers stay on the table.
        order = {K_ROAD: 0, K_CITY: 1, K_CLOISTER: 2, K_FIELD: 3}
        roots = sorted((order[self.kind[g]], g) for g in self.occupied)
        for _, g in roots:
            if self.kind[g] == K_FIELD or not self.done[g]:
                self._award(g, self.feature_points(g, True), True)
        if self.conf.goods:
            for i, good in enumerate(GOODS):
                best = max(tok[i] for tok in self.tokens)
                if best > 0:
                    seats = tuple(s for s in range(self.n) if self.tokens[s][i] == best)
                    for s in seats:
                        self.points[s] += 10
                    e = ScoreEvent(text="", kind="goods", seats=seats, points=10, turn=self.turn, final=True,
                                   bonus=good)
                    self.events.append(replace(e, text=e.describe(self.conf.players)) if self.record else e)

    # --------------------------------------------------------------- copies, views, checks
    _MUTABLE = ("deck", "board", "placed", "open", "cloisters", "parent", "size", "kind",
                "seg_tile", "ports", "ftiles", "pennants", "flags", "goods", "meeples", "adj",
                "done", "occupied", "points", "supply", "set_aside", "reserved")

    def clone(self, history: bool = True) -> Game:
        """An independent copy (the setup and the tile types are immutable and shared).
        Without `history` (for simulations) the copy starts with empty event, move and
        action lists and records events without their details."""
        g = type(self).__new__(type(self))
        d = g.__dict__
        d.update(self.__dict__)
        for name in self._MUTABLE:
            d[name] = d[name].copy()
        g.tokens = [list(t) for t in self.tokens]
        if history:
            g.events, g.actions, g.history = self.events.copy(), self.actions.copy(), self.history.copy()
        else:
            g.events, g.actions, g.history, g.record = [], [], [], False
        return g

    def observation(self, seat: int) -> dict:
        """Everything is public in Carcassonne: the setup and every action so far (the
        draws included), plus a summary. The order of the tiles left does not exist."""
        return {
            "setup": self.setup,
            "actions": [self.action_to_json(a) for a in self.history],
            "to_move": self.current_player(),
            "tile": None if self.drawn is None else self.tiles[self.drawn].id,
            "turned_up": None if self.turned_up is None else [self.tiles[self.turned_up[0]].id,
                                                              *self.turned_up[1]],
            "tiles_left": {self.tiles[t].id: c for t, c in self.deck.items()},
            "scores": list(self.points),
            "followers_left": list(self.supply),
            "turn": self.turn,
        }

    @classmethod
    def consistent_with(cls, setup: dict, seat: int, observation: dict, rng) -> Game:
        """The game as `seat` may know it, rebuilt from the setup and the observation's
        log (the board, followers, scores and the stack's counts all follow from replaying
        it). On the open table everything is public, so this is the game itself; the USA
        maps deal the face-down tiles others looked at (MapGame._rebuild)."""
        game = cls.new(setup)   # (the setup as the game keeps it: a map's tile sets are its own)
        if observation.get("setup") != game.setup:
            raise ValueError("the observation belongs to another game's setup")
        return game._rebuild(seat, observation, rng)

    def _rebuild(self, seat: int, observation: dict, rng) -> Game:
        for a in observation["actions"]:
            self.apply_action(self.action_from_json(a))
        return self

    def check_invariants(self) -> None:
        """Every tile is in exactly one place, every follower on the table or at hand, every
        point explained by a scoring event, the turn structure consistent."""
        def fail(what):
            raise InvariantError(f"Carcassonne: {what}")

        total: Counter = Counter()
        for name in self.conf.sets:
            for t in load_tile_set(name).tiles:
                total[tile_by_id()[t.id].index] += t.count
        where = Counter(p.tile.index for p in self.placed) + Counter(self.set_aside) + Counter(self.deck)
        where += Counter(self.reserved.values())
        for t in ([] if self.drawn is None else [self.drawn]) + ([] if self.turned_up is None else [self.turned_up[0]]):
            where[t] += 1
        if where != total:
            fail(f"tiles not conserved ({sum(where.values())} accounted for, {sum(total.values())} in the game)")
        if any(c <= 0 for c in self.deck.values()):
            fail("the stack holds a tile type with no copies")
        if len(self.board) != len(self.placed) or any(self.board[p.pos] != i for i, p in enumerate(self.placed)):
            fail("the board and the placed tiles disagree")
        on_table = [0] * self.n
        for root in self.occupied:
            if self.find(root) != root or not self.meeples[root]:
                fail("a follower is recorded off its feature's root")
            for s, _ in self.meeples[root]:
                on_table[s] += 1
        if [a + b for a, b in zip(self.supply, on_table)] != [self.conf.followers] * self.n or min(self.supply) < 0:
            fail(f"followers not conserved (at hand {self.supply}, on the table {on_table})")
        explained = [0] * self.n
        for e in self.events:
            for s in e.seats:
                explained[s] += e.points
        if explained != self.points:
            fail(f"scores {self.points} are not the sum of the scoring events {explained}")
        if len(self.actions) != self.turn or self.current != self.turn % self.n:
            fail("the turn count and the moves disagree")
        if self.finished and (self.drawn is not None or self.deck or self.turned_up is not None):
            fail("the game ended with tiles still to play")
        if not self.finished and self.drawn is None and not self.deck:
            fail("a draw is due from an empty stack")
        if self.turned_up is not None and self.drawn is None:
            fail("a tile is turned up with no player to lay it")

    # --------------------------------------------------------------- actions as data and text
    def action_to_json(self, action) -> Any:
        if type(action) is tuple:
            return list(action)
        if type(action) is Draw:
            return {"draw": action.tile}
        if type(action) is TurnUp:
            return {"turn_up": [action.x, action.y]}
        if type(action) is PlaceTurnedUp:
            return {"place_turned_up": [action.x, action.y, action.rot]}
        raise ValueError(f"{action!r} is not a Carcassonne action")

    def action_from_json(self, data: Any):
        if isinstance(data, list):
            return tuple(action_numbers(data, "a move [x, y, rotation, follower]", follower=True))
        if isinstance(data, dict) and len(data) == 1:
            (key, value), = data.items()
            if key == "draw":
                if not isinstance(value, str) or value not in tile_by_id():
                    raise InvalidActionError(f"{value!r:.60} is not a Carcassonne tile")
                return draw(value)
            if key == "turn_up":
                return TurnUp(*action_numbers(value, "turning a tile up [x, y]", rotation=False))
            if key == "place_turned_up":
                return PlaceTurnedUp(*action_numbers(value, "laying a turned-up tile [x, y, rotation]"))
        raise InvalidActionError(f"not a Carcassonne action: {data!r:.100}")

    def action_to_string(self, action) -> str:
        """In a player's words: the tile by what is on it, the square by where it lies from
        the start tile (words.py)."""
        names = self.conf.players
        who = names[self.current]
        start = self.conf.start[0][1:3] if self.conf.start else (0, 0)
        if type(action) is Draw:
            t = tile_by_id()[action.tile]
            aside = "" if self.can_place_anywhere(t) else " (it fits nowhere and is set aside)"
            return f"{who} drew {tile_words(t)}{aside}"
        if type(action) is TurnUp:
            t = self.tiles[self.reserved[(action.x, action.y)]]
            return (f"{who} turned up the face-down tile {table_place((action.x, action.y), start)}: "
                    f"{tile_words(t)}")
        if type(action) is PlaceTurnedUp:
            t = self.tiles[self.turned_up[0]]
            return (f"{who} laid the turned-up tile on its square {table_place((action.x, action.y), start)}"
                    f"{TURN_WORDS[action.rot % 4]}")
        x, y, rot, seg = action
        tile = self.tiles[self.drawn]
        if seg == -1:
            follower = ", with no follower"
        else:
            follower = f", and placed {follower_words(tile.segments[seg].kind)}"
        return f"{who} laid {tile_words(tile)} {table_place((x, y), start)}{TURN_WORDS[rot % 4]}{follower}"
