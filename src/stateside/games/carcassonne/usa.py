"""Carcassonne Maps: USA West, USA East and both together (pure Python rules).

The rulebook is the sheet "Carcassonne Maps: USA East" (rulebooks/carcassonne-maps-usa.txt).
A MapGame is a Game whose table is a map's playable squares, with these additions:

- Setup: a start tile (a B-D, the base game's start tile, from the tiles in play) on each
  start square; a face-down ("covert") tile on each outlined square; a face-down chip on
  each town. Tiles: base + Inns & Cathedrals + Traders & Builders (114) for one map, two
  copies of each (228) for both.
- Hidden things exist only when someone must know them. Nobody knows a covert tile or a
  chip until it is looked at, flipped or taken, so each is drawn by a chance action at
  that moment, from the tiles (or chips) nobody has seen: this is the same lottery as
  dealing them at setup, and no identity exists that an observation could leak. A covert
  tile that a player looked at keeps its identity: only the observations of those who
  looked show it (a second look needs no chance action), and its flip is a forced
  chance action that shows it to all.
- The turn, in the sheet's order (section "Gameplay"):
  1. Lay(x, y, rot): the drawn tile on a playable square. On a town: a chance action
     draws the chip (ChipDraw), its points are scored, and the player must Look(x, y) at a
     face-down tile of the chip's colour (a chance action Reveal shows it to them only).
     Then every covert neighbour of the tile is flipped, one after the other (N, E, S, W):
     Reveal shows it to all; if it fits, PlaceTurnedUp(x, y, rot) lays it (+2), else it
     leaves the game (-2).
  2. Follow(seg): a follower on the first tile only (-1: none); skipped when none can go.
  3. Scoring: every feature completed by the turn's tiles, flipped ones included.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from stateside.engine.protocol import CHANCE, EVERY_SEAT, TERMINAL, Event, InvariantError
from stateside.errors import IllegalActionError, InvalidActionError

from .engine import (
    MAX_SEGMENT,
    NEIGHBOURS8,
    VARIANT_RULES,
    Draw,
    Game,
    PlaceTurnedUp,
    Pos,
    ScoreEvent,
    Setup,
    _draws,
    action_numbers,
)
from .maps import Chip, MapBoard, load_chips, load_maps
from .tiles import DELTA, FIELD, SET_NAMES, fit_table, load_tile_set, tile_by_id
from .words import TURN_WORDS, article, as_object, follower_words, map_place, tile_words

START_TILE = "B-D"      # every start square gets one (2, or 4 with both maps, of the 4/8 in play)
FLIP_POINTS = 2


@dataclass(frozen=True)
class Lay:
    """The player lays the tile in hand on square x, y, turned `rot` quarter turns."""
    x: int
    y: int
    rot: int


@dataclass(frozen=True)
class Look:
    """The player secretly looks at the face-down tile on x, y (after taking a chip)."""
    x: int
    y: int


@dataclass(frozen=True)
class Follow:
    """The player puts a follower on segment `seg` of the tile laid first (-1: none)."""
    seg: int


@dataclass(frozen=True)
class ChipDraw:
    """Chance: the chip under the town turns out to be this one."""
    chip: str                  # e.g. "violet-2"


@dataclass(frozen=True)
class Reveal:
    """Chance: the face-down tile being looked at or flipped is this one. Tile None: a
    look by someone else, as another player's copy of the game records it."""
    tile: str | None


@cache
def _chips() -> dict[str, Chip]:
    return {c.id: c for c in load_chips()}


class MapGame(Game):
    """A game on the USA maps (setup["variant"] "usa-west", "usa-east" or "usa")."""

    def __init__(self, conf: Setup):
        self.map: MapBoard = load_maps(conf.grid)[conf.variant]
        inner = replace(conf, variant="table", sets=SET_NAMES * self.map.copies,
                        start=tuple((START_TILE, x, y, 0) for x, y in self.map.starts),
                        squares=tuple(sorted(self.map.squares)))
        self.covert: dict[Pos, int | None] = {p: None for p in self.map.outlined}   # before Game's __init__: allowed()
        self.dead: list[int] = []     # segments that face the map's edge: their feature can never be finished
        super().__init__(inner)
        self.conf = replace(inner, variant=conf.variant)
        self._setup = conf.to_json()
        self.defer = True
        self.stack = sum(self.deck.values()) - len(self.covert)   # the covert tiles are not in the stack
        self.known: dict[Pos, frozenset[int]] = {}                 # who looked at each covert tile
        self.chips_left: Counter = Counter(c.id for c in load_chips())
        self.chip_towns: set[Pos] = set(self.map.towns)            # towns whose chip is still there
        self.taken: list[tuple[int, str]] = []                     # (seat, chip id)
        self.step = "draw"          # draw, lay, chip, look, reveal, flip, follow
        self.first: Pos | None = None      # the square of the tile laid first this turn
        self.turn_tiles: list[Pos] = []    # squares of the tiles laid this turn
        self.flips: list[Pos] = []         # covert neighbours still to flip
        self.revealing: tuple[Pos, str] | None = None   # (square, "look" or "flip")
        self.look_colour: str | None = None
        self.secret: dict[int, tuple[int, Pos]] = {}   # history index of a look's Reveal -> (seat, square)
        self.partial = False        # a player's own copy: others' looks arrive as Reveal(None)
        self.sim = False            # AI simulation: chips and unknown flips count as their expectation

    # ------------------------------------------------------------------ queries
    def _put(self, tile, rot: int, pos: Pos, seat, follower: int) -> None:
        super()._put(tile, rot, pos, seat, follower)
        # A city or road running off the playable squares (sea, a border) can never be
        # finished, nor a cloister with an unplayable square around it: the AI's judge asks.
        p = self.placed[-1]
        x, y = pos
        squares = self.map.squares
        for d, (dx, dy) in enumerate(DELTA):
            if (x + dx, y + dy) not in squares and p.o.edges[d] != FIELD:
                self.dead.append(p.base + p.o.edge_seg[d])
        if pos in self.cloisters and any((x + dx, y + dy) not in squares for dx, dy in NEIGHBOURS8):
            self.dead.append(self.cloisters[pos])

    def doomed_roots(self) -> set[int]:
        """Roots of the unfinished features that can never be finished."""
        find, done = self.find, self.done
        return {r for r in map(find, self.dead) if not done[r]}

    def allowed(self, pos: Pos) -> bool:
        return pos not in self.covert and super().allowed(pos)

    @property
    def tiles_left(self) -> int:
        return self.stack

    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        if self.step in ("draw", "chip", "reveal"):
            return CHANCE
        return self.current

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.finished:
            return []
        if self.step == "draw":
            total = sum(self.deck.values())
            return [(_draws()[t], c / total) for t, c in self.deck.items()]
        if self.step == "chip":
            total = sum(self.chips_left.values())
            return [(ChipDraw(c), n / total) for c, n in sorted(self.chips_left.items()) if n]
        if self.step == "reveal":
            pos, _ = self.revealing
            t = self.covert[pos]
            if t is not None:
                return [(Reveal(self.tiles[t].id), 1.0)]
            total = sum(self.deck.values())
            return [(Reveal(self.tiles[t].id), c / total) for t, c in self.deck.items()]
        return []

    def legal_actions(self, seat: int | None = None) -> list:
        if self.finished:
            return []
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()] if seat is None else []
        if seat is not None and seat != self.current:
            return []
        if self.step == "lay":
            tile = self.tiles[self.drawn]
            table = fit_table(tile)
            return [Lay(x, y, r) for (x, y), key in self.open.items() for r in table[key]]
        if self.step == "look":
            return [Look(x, y) for (x, y) in self.look_squares()]
        if self.step == "flip":
            t, (x, y) = self.turned_up
            return [PlaceTurnedUp(x, y, r) for r in self.fits(self.tiles[t], (x, y))]
        if self.step == "follow":
            return [Follow(-1)] + [Follow(s) for s in self.follow_options()]
        return []

    def look_squares(self) -> list[Pos]:
        """Face-down tiles whose outline has the colour of the chip just taken."""
        return sorted(p for p in self.covert if self.map.outlined[p] == self.look_colour)

    def follow_options(self) -> list[int]:
        """Segments of the tile laid first where a follower may go now (the tile and any
        flipped tiles are already down, so a feature is free when nobody stands on it)."""
        if self.first is None or self.supply[self.current] <= 0:
            return []
        p = self.placed[self.board[self.first]]
        return [i for i in range(len(p.tile.segments)) if not self.meeples[self.find(p.base + i)]]

    def candidate_actions(self, seat: int | None = None) -> list:
        squares = set(self.open) | set(self.covert) | set(self.board) | set(self.map.outlined) | {(99, 99)}
        squares |= {(x + dx, y + dy) for x, y in self.board for dx, dy in DELTA}
        out: list = list(_draws()) + [ChipDraw(c) for c in sorted(self.chips_left)] + [Reveal(None)]
        out += [Reveal(d.tile) for d in _draws()]
        if seat is None and self.current_player() == CHANCE:
            return out
        out += [Follow(s) for s in range(-1, 12)]
        for x, y in sorted(squares):
            out += [Lay(x, y, r) for r in range(4)] + [PlaceTurnedUp(x, y, r) for r in range(4)] + [Look(x, y)]
        return out

    def unseen_tiles(self, seat: int) -> Counter:
        """The tiles `seat` has not seen: the pool, with the covert tiles it did not look at."""
        pool = Counter({self.tiles[t].id: c for t, c in self.deck.items()})
        for p, t in self.covert.items():
            if t is not None and seat not in self.known.get(p, ()):
                pool[self.tiles[t].id] += 1
        return pool

    # ------------------------------------------------------------------ acting
    def apply_action(self, action) -> list[Event]:
        first = len(self.events)
        kind = type(action)
        if kind is Draw:
            aside = self._map_draw(action)
        elif kind is Lay:
            aside = self._lay(action)
        elif kind is ChipDraw:
            aside = self._chip(action)
        elif kind is Look:
            aside = self._look(action)
        elif kind is Reveal:
            aside = self._reveal(action)
        elif kind is PlaceTurnedUp:
            aside = self._lay_flipped(action)
        elif kind is Follow:
            aside = self._follow(action)
        else:
            raise IllegalActionError(f"{action!r} is not an action of Carcassonne on the USA maps")
        self.history.append(action)
        return self.events[first:] + ([aside] if aside else [])

    def _need(self, step: str, what: str) -> None:
        if self.finished:
            raise IllegalActionError("the game is over")
        if self.step != step:
            raise IllegalActionError(f"{what} is not possible now")

    def _map_draw(self, action: Draw) -> Event | None:
        self._need("draw", "drawing a tile")
        t = tile_by_id().get(action.tile) if isinstance(action.tile, str) else None
        if t is None or not self.deck.get(t.index):
            raise IllegalActionError(f"no tile {action.tile} is left to draw")
        self._take(t.index)
        self.stack -= 1
        if self.can_place_anywhere(t):
            self.drawn = t.index
            self.step = "lay"
            return None
        self.set_aside.append(t.index)
        if not self.stack:
            self._final_scoring()
        return Event(f"{tile_words(t).capitalize()} fits nowhere: it is set aside", "set-aside")

    def _take(self, t: int) -> None:
        c = self.deck[t]
        if c == 1:
            del self.deck[t]
        else:
            self.deck[t] = c - 1

    def _lay(self, action: Lay) -> Event | None:
        self._need("lay", "laying a tile")
        x, y, rot = action.x, action.y, action.rot
        if type(rot) is not int or not 0 <= rot <= 3:
            raise IllegalActionError(f"a tile turns 0 to 3 quarter turns, not {rot}")
        pos = (x, y)
        key = self.open.get(pos)
        if key is None:
            if pos in self.covert:
                raise IllegalActionError(f"square {x},{y} holds a face-down tile")
            raise IllegalActionError(f"square {x},{y} is not a playable square next to the tiles on the map")
        if rot not in fit_table(self.tiles[self.drawn])[key]:
            raise IllegalActionError(f"the tile does not fit on {x},{y} turned that way: "
                                     "every edge must match its neighbour")
        tile = self.tiles[self.drawn]
        self.actions.append((x, y, rot, -1))
        self._put(tile, rot, pos, self.current, -1)
        self.drawn = None
        self.first = pos
        self.turn_tiles = [pos]
        self.flips = [q for q in ((x + dx, y + dy) for dx, dy in DELTA) if q in self.covert]
        if pos in self.chip_towns:
            self.chip_towns.discard(pos)
            if self.sim:        # the chip's points as expected; no look in a simulation
                total = sum(self.chips_left.values())
                if total:
                    self.points[self.current] += sum(_chips()[c].points * n for c, n in self.chips_left.items()) / total
                return self._next_flip()
            self.step = "chip"
            return None
        return self._next_flip()

    def _chip(self, action: ChipDraw) -> Event | None:
        self._need("chip", "taking a chip")
        if not isinstance(action.chip, str) or not self.chips_left.get(action.chip):
            raise IllegalActionError(f"no chip {action.chip!r} is left")
        chip = _chips()[action.chip]
        self.chips_left[action.chip] -= 1
        if not self.chips_left[action.chip]:
            del self.chips_left[action.chip]
        self.taken.append((self.current, chip.id))
        self.points[self.current] += chip.points
        town = self.map.towns[self.first]
        e = ScoreEvent(text="", kind="chip", seats=(self.current,), points=chip.points, turn=self.turn,
                       bonus=chip.colour, squares=(self.first,), place=self.map.label(town))
        self.events.append(replace(e, text=e.describe(self.conf.players)) if self.record else e)
        self.look_colour = chip.colour
        if any(self.map.outlined[p] == chip.colour for p in self.covert):
            self.step = "look"
            return None
        return self._next_flip()

    def _look(self, action: Look) -> Event | None:
        self._need("look", "looking at a face-down tile")
        pos = (action.x, action.y)
        if pos not in self.covert or self.map.outlined[pos] != self.look_colour:
            raise IllegalActionError(f"square {action.x},{action.y} holds no face-down {self.look_colour} tile")
        if self.known.get(pos):
            # Someone looked before: the tile is already drawn, and the looker learns it from
            # their observation (no logged chance action could hide it from the others online).
            self.known[pos] = self.known[pos] | {self.current}
            return self._next_flip()
        self.revealing = (pos, "look")
        self.step = "reveal"
        return None

    def _reveal(self, action: Reveal) -> Event | None:
        self._need("reveal", "showing a face-down tile")
        pos, why = self.revealing
        seat = self.current
        if action.tile is None:    # someone else's look, in a player's own copy of the game
            if not self.partial or why != "look":
                raise IllegalActionError("a face-down tile is shown as some tile, not as none")
            self.revealing = None
            self.known[pos] = self.known.get(pos, frozenset()) | {seat}   # who looked is public
            return self._next_flip()
        t = tile_by_id().get(action.tile) if isinstance(action.tile, str) else None
        have = self.covert[pos]
        if t is None or (have is not None and t.index != have) or (have is None and not self.deck.get(t.index)):
            raise IllegalActionError(f"the face-down tile on {pos[0]},{pos[1]} cannot be {action.tile}")
        if have is None:
            self._take(t.index)
            self.covert[pos] = t.index
        self.revealing = None
        if why == "look":
            self.known[pos] = self.known.get(pos, frozenset()) | {seat}
            self.secret[len(self.history)] = (seat, pos)
            return self._next_flip()
        # A flip: the tile is face up for everyone; it is laid if it fits, else it leaves.
        del self.covert[pos]
        self.known.pop(pos, None)
        if self.fits(t, pos):
            self.turned_up = (t.index, pos)
            self.step = "flip"
            return None
        self.set_aside.append(t.index)
        self._flip_score(pos, -FLIP_POINTS)
        self._free(pos)
        return self._next_flip()

    def _free(self, pos: Pos) -> None:
        """A square whose covert tile left the game is an ordinary square again."""
        key = self._key_at(pos)
        if key and pos in self.map.squares:
            self.open[pos] = key

    def _flip_score(self, pos: Pos, points: int) -> None:
        self.points[self.current] += points
        place = map_place(self.map, pos)     # "south of Denver", for the scoring's words
        e = ScoreEvent(text="", kind="flip", seats=(self.current,), points=points, turn=self.turn,
                       squares=(pos,), place=place)
        self.events.append(replace(e, text=e.describe(self.conf.players)) if self.record else e)

    def _lay_flipped(self, action: PlaceTurnedUp) -> Event | None:
        self._need("flip", "laying a flipped tile")
        t, pos = self.turned_up
        if (action.x, action.y) != pos:
            raise IllegalActionError(f"the flipped tile goes on its own square, {pos[0]},{pos[1]}")
        if type(action.rot) is not int or action.rot not in self.fits(self.tiles[t], pos):
            raise IllegalActionError(f"tile {self.tiles[t].id} does not fit on {pos[0]},{pos[1]} turned that way")
        self.turned_up = None
        self._put(self.tiles[t], action.rot, pos, self.current, -1)
        self.turn_tiles.append(pos)
        self._flip_score(pos, FLIP_POINTS)
        return self._next_flip()

    def _next_flip(self) -> Event | None:
        """Flip the next covert neighbour of the tile laid first, or go on to the follower."""
        while self.flips:
            pos = self.flips.pop(0)
            if pos not in self.covert:
                continue
            if self.sim and self.covert[pos] is None:
                # An unseen tile: count what flipping it is worth on average and leave it.
                pool = self.deck
                total = sum(pool.values())
                if total:
                    fit = sum(c for t, c in pool.items() if self.fits(self.tiles[t], pos)) / total
                    self.points[self.current] += FLIP_POINTS * (2 * fit - 1)
                continue
            self.revealing = (pos, "flip")
            self.step = "reveal"
            if self.sim:    # a tile this player knows: flip it for real
                return self._reveal(Reveal(self.tiles[self.covert[pos]].id))
            return None
        self.step = "follow"
        if not self.follow_options():
            return self._end_turn()
        return None

    def _follow(self, action: Follow) -> Event | None:
        self._need("follow", "placing a follower")
        seg = action.seg
        if seg != -1:
            if type(seg) is not int or seg not in self.follow_options():
                raise IllegalActionError("a follower may go only on a free feature of the tile laid first")
            p = self.placed[self.board[self.first]]
            g = p.base + seg
            r = self.find(g)
            self.meeples[r] = ((self.current, g),)
            self.occupied.add(r)
            self.supply[self.current] -= 1
            if self.actions:     # empty in simulations (clone without history)
                self.actions[-1] = self.actions[-1][:3] + (seg,)
        return self._end_turn()

    def _end_turn(self) -> Event | None:
        for pos in self.turn_tiles:
            self._score_tile(pos, self.current)
        self.turn += 1
        self.current = (self.current + 1) % self.n
        self.first, self.turn_tiles, self.look_colour = None, [], None
        self.step = "draw"
        if not self.stack:
            self._final_scoring()
        return None

    def _final_scoring(self) -> None:
        super()._final_scoring()
        self.step = "over"

    # ------------------------------------------------------------------ copies, views, checks
    def clone(self, history: bool = True) -> MapGame:
        g = super().clone(history)
        g.covert = self.covert.copy()
        g.dead = self.dead.copy()
        g.known = self.known.copy()
        g.chips_left = self.chips_left.copy()
        g.chip_towns = self.chip_towns.copy()
        g.taken = self.taken.copy()
        g.turn_tiles = self.turn_tiles.copy()
        g.flips = self.flips.copy()
        g.secret = self.secret.copy() if history else {}
        return g

    def with_hidden_changed(self, viewer: int, rng) -> MapGame | None:
        """A copy in which the covert tiles `viewer` has not seen (but someone else looked
        at) are swapped with unseen tiles of the pool; None when nothing is hidden from `viewer`."""
        if not any(t is not None and viewer not in self.known.get(p, ()) for p, t in self.covert.items()):
            return None
        g = self.clone()
        for pos in sorted(g.covert):
            t = g.covert[pos]
            if t is None or viewer in g.known.get(pos, ()) or not g.deck:
                continue
            pool = [u for u, c in sorted(g.deck.items()) for _ in range(c)]
            u = pool[rng.randrange(len(pool))]
            g._take(u)
            g.deck[t] = g.deck.get(t, 0) + 1
            g.covert[pos] = u
            for i, (_, p) in g.secret.items():
                if p == pos:
                    g.history[i] = Reveal(g.tiles[u].id)
        return g

    def _rebuild(self, seat: int, observation: dict, rng) -> MapGame:
        """A whole game from `seat`'s log: the secret looks of others (logged for this seat
        as {"reveal": null}) get the tile they showed where the seat learnt it since (a
        flip, its own later look), else a tile dealt with `rng` from those the seat has
        not seen; then the log is replayed with them on this fresh game."""
        actions = observation["actions"]
        probe = type(self).new(self.setup)   # this seat's own copy: others' looks show no tile
        probe.partial, probe.record = True, False
        hidden: dict[int, Pos] = {}     # log index of another's look -> its square
        learnt: dict[Pos, str] = {}     # square -> the tile the seat has seen there since
        for i, a in enumerate(actions):
            action = probe.action_from_json(a)
            if type(action) is Reveal and probe.step == "reveal":
                pos, why = probe.revealing
                if action.tile is None:
                    hidden[i] = pos
                elif why == "flip":
                    learnt.setdefault(pos, action.tile)
            probe.apply_action(action)
        for c in observation["covert"]:   # looked at by the seat after someone else
            if c["tile"] is not None:
                learnt.setdefault(tuple(c["square"]), c["tile"])
        # The probe's pool holds every tile the seat has not seen placed, drawn or shown.
        pool = Counter({self.tiles[t].id: c for t, c in probe.deck.items()})
        for pos in set(hidden.values()):
            if pos in learnt and pos in probe.covert:   # still face down: the probe never took it
                pool[learnt[pos]] -= 1
        dealt: dict[Pos, str] = {}
        for pos in sorted(set(hidden.values()) - set(learnt)):
            tiles = sorted(pool.elements())
            dealt[pos] = tiles[rng.randrange(len(tiles))]
            pool[dealt[pos]] -= 1
        for i, a in enumerate(actions):
            if i in hidden:
                pos = hidden[i]
                self.apply_action(Reveal(learnt.get(pos) or dealt[pos]))
            else:
                self.apply_action(self.action_from_json(a))
        return self

    def audience(self, action) -> frozenset[int] | None:
        """A secret look shows the tile to the looker only; everything else (draws, chips,
        flips, every move) is public."""
        if type(action) is Reveal and self.step == "reveal" and self.revealing[1] == "look":
            return frozenset((self.current,))
        return EVERY_SEAT

    def describe(self, action, viewer: int | None, text: str | None = None) -> str:
        """The looker (and the full record) reads which tile a secret look showed; the others
        read only who looked."""
        if type(action) is Reveal and action.tile is not None and self.step == "reveal" \
                and self.revealing[1] == "look" and (viewer is None or viewer == self.current):
            pos = self.revealing[0]
            return (f"the face-down tile {map_place(self.map, pos)} was shown to "
                    f"{as_object(self.conf.players[self.current])} only: {tile_words(tile_by_id()[action.tile])}")
        return text if text is not None else self.action_to_string(action)

    def observation(self, seat: int) -> dict:
        """The setup, the log with others' secret looks hidden, and the map's state as
        `seat` may know it (the covert tiles it looked at; the unseen tiles as a pool)."""
        actions = []
        for i, a in enumerate(self.history):
            s = self.secret.get(i)
            actions.append({"reveal": None} if s is not None and s[0] != seat else self.action_to_json(a))
        return {
            "setup": self.setup,
            "actions": actions,
            "to_move": self.current_player(),
            "step": self.step,
            "tile": None if self.drawn is None else self.tiles[self.drawn].id,
            "turned_up": None if self.turned_up is None else [self.tiles[self.turned_up[0]].id, *self.turned_up[1]],
            "stack": self.stack,
            "unseen": dict(sorted(self.unseen_tiles(seat).items())),
            "covert": [{"square": list(p), "colour": self.map.outlined[p],
                        "tile": self.tiles[t].id if t is not None and seat in self.known.get(p, ()) else None,
                        "looked": sorted(self.known.get(p, ()))} for p, t in sorted(self.covert.items())],
            "chips": [list(p) for p in sorted(self.chip_towns)],
            "chips_left": dict(sorted(self.chips_left.items())),
            "scores": list(self.points),
            "followers_left": list(self.supply),
            "turn": self.turn,
        }

    def check_invariants(self) -> None:
        def fail(what):
            raise InvariantError(f"Carcassonne {self.conf.variant}: {what}")

        total: Counter = Counter()
        for name in self.conf.sets:
            for t in load_tile_set(name).tiles:
                total[tile_by_id()[t.id].index] += t.count
        where = Counter(p.tile.index for p in self.placed) + Counter(self.set_aside) + Counter(self.deck)
        where += Counter(t for t in self.covert.values() if t is not None)
        for t in ([] if self.drawn is None else [self.drawn]) + ([] if self.turned_up is None else [self.turned_up[0]]):
            where[t] += 1
        if where != total:
            fail(f"tiles not conserved ({sum(where.values())} accounted for, {sum(total.values())} in the game)")
        unassigned = sum(1 for t in self.covert.values() if t is None)
        if sum(self.deck.values()) != self.stack + unassigned:
            fail(f"the pool ({sum(self.deck.values())}) is not the stack ({self.stack}) "
                 f"and the unseen covert tiles ({unassigned})")
        if len(self.board) != len(self.placed) or any(self.board[p.pos] != i for i, p in enumerate(self.placed)):
            fail("the board and the placed tiles disagree")
        if any(p.pos not in self.map.squares for p in self.placed):
            fail("a tile lies off the playable squares")
        on_table = [0] * self.n
        for root in self.occupied:
            if self.find(root) != root or not self.meeples[root]:
                fail("a follower is recorded off its feature's root")
            for s, _ in self.meeples[root]:
                on_table[s] += 1
        if [a + b for a, b in zip(self.supply, on_table)] != [self.conf.followers] * self.n or min(self.supply) < 0:
            fail(f"followers not conserved (at hand {self.supply}, on the table {on_table})")
        chips = Counter(c.id for c in load_chips())
        if self.chips_left + Counter(c for _, c in self.taken) != chips:
            fail("chips not conserved")
        if len(self.taken) + len(self.chip_towns) != len(self.map.towns) - (1 if self.step == "chip" else 0):
            fail("the chips taken and the chips on the towns do not add up")
        explained = [0] * self.n
        for e in self.events:
            for s in e.seats:
                explained[s] += e.points
        if explained != self.points:
            fail(f"scores {self.points} are not the sum of the scoring events {explained}")
        if self.current != self.turn % self.n or len(self.actions) != self.turn + (0 if self.first is None else 1):
            fail("the turn count and the tiles laid disagree")
        if self.finished and (self.drawn is not None or self.stack or self.turned_up is not None):
            fail("the game ended with tiles still to play")
        if not self.finished and self.step == "draw" and not self.stack:
            fail("a draw is due from an empty stack")

    # ------------------------------------------------------------------ actions as data and text
    def action_to_json(self, action) -> Any:
        kind = type(action)
        if kind is Lay:
            return {"lay": [action.x, action.y, action.rot]}
        if kind is Look:
            return {"look": [action.x, action.y]}
        if kind is Follow:
            return {"follow": action.seg}
        if kind is ChipDraw:
            return {"chip": action.chip}
        if kind is Reveal:
            return {"reveal": action.tile}
        return super().action_to_json(action)

    def action_from_json(self, data: Any):
        if isinstance(data, dict) and len(data) == 1:
            (key, value), = data.items()
            if key == "lay":
                return Lay(*action_numbers(value, "laying a tile [x, y, rotation]"))
            if key == "look":
                return Look(*action_numbers(value, "looking at a face-down tile [x, y]", rotation=False))
            if key == "follow":
                if type(value) is not int or not -1 <= value <= MAX_SEGMENT:
                    raise InvalidActionError(f"a follower goes on a segment number (-1 for none to {MAX_SEGMENT}), "
                                     f"not {value!r:.40}")
                return Follow(value)
            if key == "chip":
                if not isinstance(value, str) or value not in _chips():
                    raise InvalidActionError(f"{value!r:.60} is not one of our map-chips")
                return ChipDraw(value)
            if key == "reveal":
                if value is not None and (not isinstance(value, str) or value not in tile_by_id()):
                    raise InvalidActionError(f"{value!r:.60} is not a Carcassonne tile")
                return Reveal(value)
            if key in ("draw", "place_turned_up"):
                return super().action_from_json(data)
        raise InvalidActionError(f"not an action of Carcassonne on the USA maps: {data!r:.100}")

    def action_to_string(self, action) -> str:
        """In a player's words: the tile by what is on it, the square by its nearest town."""
        who = self.conf.players[self.current]
        kind = type(action)
        if kind is Draw:
            t = tile_by_id()[action.tile]
            aside = "" if self.can_place_anywhere(t) else " (it fits nowhere and is set aside)"
            return f"{who} drew {tile_words(t)}{aside}"
        if kind is Lay:
            pos = (action.x, action.y)
            return (f"{who} laid {tile_words(self.tiles[self.drawn])} "
                    f"{map_place(self.map, pos)}{TURN_WORDS[action.rot % 4]}")
        if kind is ChipDraw:
            chip = _chips()[action.chip]
            return f"{who} took {article(chip.colour)} chip worth {chip.points} point{'s' * (chip.points != 1)}"
        if kind is Look:
            pos = (action.x, action.y)
            return (f"{who} looked secretly at {article(self.map.outlined[pos])}-outlined face-down tile "
                    f"{map_place(self.map, pos)}")
        if kind is Reveal:
            if self.revealing is None:
                return "a face-down tile was shown"
            pos, why = self.revealing
            if why == "look":      # the same words whichever tile it was: others read this line
                return f"the face-down tile was shown to {as_object(who)} only"
            return (f"{who} turned up the face-down tile {map_place(self.map, pos)}: "
                    f"{tile_words(tile_by_id()[action.tile])}")
        if kind is PlaceTurnedUp:
            return (f"{who} laid the turned-up {tile_words(self.tiles[self.turned_up[0]]).split(' ', 1)[1]} "
                    f"on its square {map_place(self.map, (action.x, action.y))}{TURN_WORDS[action.rot % 4]}")
        if kind is Follow:
            if action.seg == -1:
                return f"{who} placed no follower"
            k = self.placed[self.board[self.first]].tile.segments[action.seg].kind
            return f"{who} placed {follower_words(k)}"
        return super().action_to_string(action)


VARIANT_RULES.update(dict.fromkeys(("usa-west", "usa-east", "usa"), MapGame))
