"""The Carcassonne rules engine: pure Python, seeded, saved as setup + actions.

Features (cities, roads, fields) are kept in a union-find over the segments of the
placed tiles; each root carries the running totals of its feature (open edges,
tiles, pennants, followers, bordering cities), so placing a tile touches only the
features it joins and never recomputes the board. Cloisters are looked up by square.

A turn: the current player holds the drawn tile; `place(x, y, rot)` puts it down
tentatively (`undo_placement()` takes it back), `confirm(seg)` adds an optional
follower on segment `seg` of that tile and ends the turn: completed features score,
the next player draws. `apply_action((x, y, rot, seg))` does both at once; a
follower choice of -1 means none. A tile that fits nowhere is set aside (out of
the game) and another is drawn; when no tile can be drawn the game ends and the
unfinished features and the fields are scored.

The engine also takes, for boards with printed squares (the USA maps), a set of
playable squares, tiles placed at setup, and reserved squares kept free for tiles
that lie face down there; `place_extra()` puts a tile down outside a turn.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from stateside.errors import IllegalActionError, SaveError, StatesideError

from .tiles import (CITY, DELTA, FIELD, GOODS, K_CITY, K_CLOISTER, K_FIELD, K_ROAD, SET_NAMES, TileType,
                    catalogue, distinct_rotations, fit_table, load_tile_set, tile_by_id)

Pos = tuple[int, int]
Move = tuple[int, int, int, int]   # x, y, rotation, follower segment (-1: none)

INN, CATHEDRAL = 1, 2
NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_EMPTY: frozenset = frozenset()


@dataclass(frozen=True)
class ScoreEvent:
    """One scoring: `points` to each seat in `seats` (the tied majority)."""
    kind: str                  # "road", "city", "cloister", "field", "goods"
    seats: tuple[int, ...]
    points: int
    turn: int                  # the turn it happened in; final scoring uses the last turn + 1
    final: bool                # scored at the end of the game
    tiles: int = 0             # tiles the feature covers (cloister: itself and its neighbours)
    pennants: int = 0
    cities: int = 0            # field: completed cities it borders
    bonus: str = ""            # "inn", "cathedral", or the good for a goods award
    followers: tuple[int, ...] = ()   # followers per seat on the feature
    squares: tuple[Pos, ...] = ()     # where the feature lies, for highlighting

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
                what += " and a cathedral" + (" (scores nothing unfinished)" if self.final else " (3 per tile and pennant)")
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
        else:
            return (f"{who} hold{'s' * (len(self.seats) == 1)} the most {self.bonus} tokens: "
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


@dataclass
class Setup:
    """Everything needed to deal the same game again."""
    players: list[str]
    seed: int = 0
    followers: int = 7
    sets: list[str] = field(default_factory=lambda: list(SET_NAMES))
    inns_cathedrals: bool = False   # score inns and cathedrals by their expansion rules
    goods: bool = False             # trade goods tokens (10 points per majority at the end)
    start: list[list] = field(default_factory=lambda: [["B-D", 0, 0, 0]])  # [tile id, x, y, rot]
    squares: list[list[int]] | None = None   # playable squares; None: the open table
    reserved: list[list] = field(default_factory=list)  # [tile id, x, y]: face down, kept off the deck

    def to_json(self) -> dict:
        return {"players": list(self.players), "seed": self.seed, "followers": self.followers,
                "sets": list(self.sets), "inns_cathedrals": self.inns_cathedrals, "goods": self.goods,
                "start": [list(s) for s in self.start],
                "squares": None if self.squares is None else [list(s) for s in self.squares],
                "reserved": [list(r) for r in self.reserved]}

    @classmethod
    def from_json(cls, d: dict) -> "Setup":
        if not isinstance(d, dict):
            raise SaveError("the Carcassonne setup is not a mapping")
        players = d.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise SaveError("the Carcassonne setup has no list of player names")
        if not isinstance(d.get("followers", 7), int) or not 1 <= d.get("followers", 7) <= 99:
            raise SaveError(f"the Carcassonne setup gives each player {d.get('followers')!r} followers")
        try:
            s = cls(players=[str(p) for p in d["players"]], seed=int(d.get("seed", 0)),
                    followers=int(d.get("followers", 7)), sets=[str(x) for x in d.get("sets", SET_NAMES)],
                    inns_cathedrals=bool(d.get("inns_cathedrals", False)), goods=bool(d.get("goods", False)),
                    start=[[str(a), int(b), int(c), int(r)] for a, b, c, r in d.get("start", [["B-D", 0, 0, 0]])],
                    squares=None if d.get("squares") is None else [[int(a), int(b)] for a, b in d["squares"]],
                    reserved=[[str(a), int(b), int(c)] for a, b, c in d.get("reserved", [])])
        except (KeyError, TypeError, ValueError) as e:
            raise SaveError(f"the Carcassonne setup is malformed ({e.__class__.__name__}: {e})") from None
        return s


class Placed:
    """A tile on the table."""
    __slots__ = ("tile", "rot", "pos", "base", "o")

    def __init__(self, tile: TileType, rot: int, pos: Pos, base: int):
        self.tile, self.rot, self.pos, self.base = tile, rot, pos, base
        self.o = tile.oriented(rot)


class Game:
    """One game of Carcassonne. Seats are 0..n-1 in turn order."""

    # --------------------------------------------------------------- setting up
    def __init__(self, setup: Setup):
        n = len(setup.players)
        if not 2 <= n <= 5:
            raise StatesideError(f"Carcassonne is for 2 to 5 players, not {n}")
        if setup.followers < 1:
            raise StatesideError("each player needs at least one follower")
        if not setup.start:
            raise StatesideError("the game needs at least one start tile on the table")
        for name in setup.sets:
            load_tile_set(name)     # raises DataError for an unknown set
        self.setup = setup
        self.n = n
        self.tiles = catalogue()
        by_id = tile_by_id()
        # The deck: every tile of the chosen sets, less the ones placed or reserved at setup.
        pool: list[int] = []
        for name in setup.sets:
            for t in load_tile_set(name).tiles:
                pool.extend([by_id[t.id].index] * t.count)
        for tid, *_ in list(setup.start) + list(setup.reserved):
            t = by_id.get(tid)
            if t is None or t.index not in pool:
                raise StatesideError(f"tile {tid} is not available in the chosen sets for the setup")
            pool.remove(t.index)
        pool.sort()
        random.Random(setup.seed).shuffle(pool)
        self.deck: list[int] = pool          # drawn from the end
        self.squares: frozenset[Pos] | None = (None if setup.squares is None
                                               else frozenset(tuple(s) for s in setup.squares))
        self.reserved: dict[Pos, int] = {(x, y): by_id[tid].index for tid, x, y in setup.reserved}

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

        self.scores = [0] * n
        self.supply = [setup.followers] * n
        self.tokens = [[0, 0, 0] for _ in range(n)]
        self.events: list[ScoreEvent] = []
        self.actions: list[Move] = []
        self.set_aside: list[int] = []
        self.current = 0
        self.turn = 0                        # turns completed
        self.drawn: int | None = None
        self.pending: tuple[int, int, int] | None = None
        self.finished = False
        self.record = True                   # False in AI simulations: skip event details

        for tid, x, y, rot in setup.start:
            self._put(by_id[tid], rot % 4, (x, y), None, -1)
        self._draw()

    # --------------------------------------------------------------- queries
    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def is_terminal(self) -> bool:
        return self.finished

    @property
    def tiles_left(self) -> int:
        """Tiles still to be drawn (not counting the one in hand)."""
        return len(self.deck)

    def allowed(self, pos: Pos) -> bool:
        return pos not in self.reserved and (self.squares is None or pos in self.squares)

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

    def neighbour_roots(self, tile: TileType, pos: Pos, rot: int) -> list[set[int]]:
        """For each segment of `tile` placed at `pos` turned `rot`, the features it would join."""
        o = tile.oriented(rot)
        joins: list[set[int]] = [set() for _ in tile.segments]
        x, y = pos
        board, placed = self.board, self.placed
        for d in range(4):
            q = board.get((x + DELTA[d][0], y + DELTA[d][1]))
            if q is None:
                continue
            nb = placed[q]
            od = (d + 2) % 4
            if o.edges[d] != FIELD:
                joins[o.edge_seg[d]].add(self.find(nb.base + nb.o.edge_seg[od]))
            if o.edges[d] != CITY:
                joins[o.half_seg[2 * d]].add(self.find(nb.base + nb.o.half_seg[2 * od + 1]))
                joins[o.half_seg[2 * d + 1]].add(self.find(nb.base + nb.o.half_seg[2 * od]))
        return joins

    def follower_options(self, x: int, y: int, rot: int, tile: TileType | None = None) -> list[int]:
        """Segments of the tile placed at (x, y) turned `rot` that may take a follower."""
        if tile is None:
            tile = self.tiles[self.drawn]
        if self.supply[self.current] <= 0:
            return []
        meeples = self.meeples
        joins = self.neighbour_roots(tile, (x, y), rot)
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

    def legal_actions(self, distinct: bool = True) -> list[Move]:
        """Every whole move (placement and follower choice, -1 for none)."""
        if self.finished or self.pending is not None:
            return []
        tile = self.tiles[self.drawn]
        out: list[Move] = []
        for x, y, r in self.legal_placements(distinct=distinct):
            out.append((x, y, r, -1))
            for s in self.follower_options(x, y, r, tile):
                out.append((x, y, r, s))
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

    def returns(self) -> list[int]:
        return list(self.scores)

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]

    # --------------------------------------------------------------- a turn
    def place(self, x: int, y: int, rot: int) -> None:
        """Put the drawn tile down, tentatively (the turn is not over)."""
        if self.finished:
            raise IllegalActionError("the game is over")
        if self.pending is not None:
            raise IllegalActionError("a tile is already placed this turn; confirm or take it back first")
        tile = self.tiles[self.drawn]
        rot %= 4
        if (x, y) in self.board:
            raise IllegalActionError(f"square {x},{y} already holds a tile")
        if (x, y) not in self.open:
            raise IllegalActionError(f"square {x},{y} does not touch the tiles on the table" if self.allowed((x, y))
                                     else f"square {x},{y} is not a playable square")
        if rot not in fit_table(tile)[self.open[(x, y)]]:
            raise IllegalActionError(f"the tile does not fit on {x},{y} turned that way: every edge must match its neighbour")
        self.pending = (x, y, rot)

    def undo_placement(self) -> None:
        if self.pending is None:
            raise IllegalActionError("there is no placed tile to take back")
        self.pending = None

    def confirm(self, seg: int = -1) -> list[ScoreEvent]:
        """End the turn with an optional follower on segment `seg` of the placed tile.
        Returns the scoring events of this turn."""
        if self.pending is None:
            raise IllegalActionError("place the tile before confirming")
        x, y, rot = self.pending
        tile = self.tiles[self.drawn]
        if seg != -1:
            if not 0 <= seg < len(tile.segments):
                raise IllegalActionError(f"the tile has no feature number {seg}")
            if self.supply[self.current] <= 0:
                raise IllegalActionError("you have no followers left")
            if seg not in self.follower_options(x, y, rot, tile):
                raise IllegalActionError(f"that {tile.segments[seg].kind} is already occupied through connected tiles")
        self.pending = None
        first = len(self.events)
        self.actions.append((x, y, rot, seg))
        self._put(tile, rot, (x, y), self.current, seg)
        self.turn += 1
        self.current = (self.current + 1) % self.n
        self._draw()
        return self.events[first:]

    def apply_action(self, move: Move) -> list[ScoreEvent]:
        x, y, rot, seg = move
        self.place(x, y, rot)
        try:
            return self.confirm(seg)
        except IllegalActionError:
            self.pending = None
            raise

    def unreserve(self, x: int, y: int) -> str:
        """Free a reserved square (its face-down tile leaves the game or is placed) and
        return that tile's id; the square becomes playable like any other."""
        tile = self.reserved.pop((x, y), None)
        if tile is None:
            raise IllegalActionError(f"square {x},{y} is not reserved")
        key = self._key_at((x, y))
        if key and (x, y) not in self.board and self.allowed((x, y)):
            self.open[(x, y)] = key
        return self.tiles[tile].id

    def place_extra(self, tile_id: str, x: int, y: int, rot: int) -> list[ScoreEvent]:
        """Put a tile down outside the turn (e.g. a face-down tile turned up, after
        `unreserve`), without a follower; completed features score. The tile must fit."""
        tile = tile_by_id()[tile_id]
        if (x, y) in self.reserved:
            raise IllegalActionError(f"square {x},{y} is reserved; unreserve it first")
        if rot % 4 not in self.fits(tile, (x, y)):
            raise IllegalActionError(f"tile {tile_id} does not fit on {x},{y} turned that way")
        first = len(self.events)
        self._put(tile, rot % 4, (x, y), self.current, -1)
        return self.events[first:]

    # --------------------------------------------------------------- internals
    def _draw(self) -> None:
        """Draw the next tile that fits somewhere; set aside those that fit nowhere."""
        self.drawn = None
        while self.deck:
            t = self.deck.pop()
            if self.can_place_anywhere(self.tiles[t]):
                self.drawn = t
                return
            self.set_aside.append(t)
        self._final_scoring()

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

        # Completed cities and roads.
        seen = set()
        for i, s in enumerate(tile.segments):
            if s.kind in (K_CITY, K_ROAD):
                r = self.find(base + i)
                if r not in seen:
                    seen.add(r)
                    if ports[r] == 0:
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
        rules = self.setup.inns_cathedrals
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
            self.scores[s] += points
        if self.record:
            k = self.kind[root]
            bonus = ""
            if self.setup.inns_cathedrals:
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
            self.events.append(ScoreEvent(
                k, seats, points, self.turn, final, tiles=tiles,
                pennants=self.pennants[root] if k == K_CITY else 0,
                cities=self.field_cities(root) if k == K_FIELD else 0,
                bonus=bonus, followers=tuple(counts), squares=squares))
        else:
            self.events.append(ScoreEvent(self.kind[root], seats, points, self.turn, final))

    def _complete(self, root: int, seat: int | None) -> None:
        self.done[root] = True
        if self.meeples[root]:
            self._award(root, self.feature_points(root, False), False)
            for s, _ in self.meeples[root]:
                self.supply[s] += 1
            self.meeples[root] = ()
            self.occupied.discard(root)
        if self.setup.goods and seat is not None and self.kind[root] == K_CITY and self.goods[root]:
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
        if self.setup.goods:
            for i, good in enumerate(GOODS):
                best = max(tok[i] for tok in self.tokens)
                if best > 0:
                    seats = tuple(s for s in range(self.n) if self.tokens[s][i] == best)
                    for s in seats:
                        self.scores[s] += 10
                    self.events.append(ScoreEvent("goods", seats, 10, self.turn, True, bonus=good))

    # --------------------------------------------------------------- copies and saves
    _MUTABLE = ("deck", "board", "placed", "open", "cloisters", "parent", "size", "kind",
                "seg_tile", "ports", "ftiles", "pennants", "flags", "goods", "meeples", "adj",
                "done", "occupied", "scores", "supply", "set_aside", "reserved")

    def clone(self, history: bool = True) -> "Game":
        """An independent copy. Without `history` (for simulations) the copy starts with
        empty event and action lists and records events without their details."""
        g = Game.__new__(Game)
        d = g.__dict__
        d.update(self.__dict__)
        for name in self._MUTABLE:
            d[name] = d[name].copy()
        g.tokens = [list(t) for t in self.tokens]
        if history:
            g.events, g.actions = self.events.copy(), self.actions.copy()
        else:
            g.events, g.actions, g.record = [], [], False
        return g

    def to_json(self) -> dict:
        """Setup plus the confirmed moves; a tentative placement is not saved."""
        return {"setup": self.setup.to_json(), "actions": [list(a) for a in self.actions]}

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        if not isinstance(data, dict) or "setup" not in data or not isinstance(data.get("actions"), list):
            raise SaveError("not a Carcassonne game (it needs a setup and a list of actions)")
        try:
            game = cls(Setup.from_json(data["setup"]))
        except SaveError:
            raise
        except StatesideError as e:
            raise SaveError(f"the Carcassonne setup cannot be played: {e}") from None
        for i, a in enumerate(data["actions"], 1):
            try:
                if not isinstance(a, list) or not all(type(v) is int for v in a):
                    raise TypeError
                x, y, rot, seg = a
                game.apply_action((x, y, rot, seg))
            except (TypeError, ValueError):
                raise SaveError(f"Carcassonne save: move {i} is malformed ({a!r})") from None
            except IllegalActionError as e:
                raise SaveError(f"Carcassonne save: move {i} cannot be replayed: {e}") from None
        return game


def new_game(players: Iterable[str], seed: int = 0, **options) -> Game:
    return Game(Setup(players=list(players), seed=seed, **options))
