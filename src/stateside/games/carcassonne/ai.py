"""Computer players for Carcassonne. Each sees only its observation (the setup and the
public log of actions) and its legal actions, like a person at the table: it replays the
log into a game of its own, kept between calls (only the new actions are applied).

- easy: one ply, greedy. Tries every placement and follower and keeps the one that
  most raises its own score counted as if the game ended right after the move.
- hard: judges positions with an estimate of what unfinished features will be worth
  (how likely they are to be finished with the tiles left, what a follower in the
  supply is worth), keeps the best few moves, and plays each of them out a round
  ahead over many random orders of the unseen tiles (the tile mix is public, the
  order is not), the other players answering with the same judgement. It keeps the
  move with the best mean, within a time budget. On the USA maps, where the squares run
  out, it also knows a feature is lost when it faces a free square no tile left can fill.
"""
from __future__ import annotations

import time
from collections.abc import Sequence

from stateside.engine.protocol import CHANCE, Player

from .engine import NEIGHBOURS8, Game, Move, draw
from .tiles import DELTA, FIELD, K_CITY, K_CLOISTER, K_FIELD, K_ROAD, fit_table, tile_by_id
from .usa import Follow, Lay, MapGame


class Judge:
    """What a position is worth to each seat."""

    def __init__(self, naive: bool = False, road_k: float = 9.0, city_k: float = 14.0,
                 cloister_k: float = 6.0, meeple: float = 3.0, meeple_decay: float = 0.8,
                 field_hope: float = 0.8):
        self.naive = naive
        self.road_k, self.city_k, self.cloister_k = road_k, city_k, cloister_k
        self.meeple, self.meeple_decay, self.field_hope = meeple, meeple_decay, field_hope
        self.dead: set[int] = set()    # on the USA maps: features that run off the map (see values)
        # On the USA maps, requirement keys (see tiles.fit_table) that no tile still to come
        # fits: a free square with such a key stays empty, and what faces it is never finished.
        # Worked out once per decision (HardPlayer), for the tiles left then.
        self.stuck_keys: frozenset[int] = frozenset()

    def completion(self, g: Game, root: int, left: int) -> float:
        """Rough chance that a city, road or cloister is finished before the tiles run out."""
        if root in self.dead:
            return 0.0
        k = g.kind[root]
        if k == K_CLOISTER:
            x, y = g.placed[g.seg_tile[root]].pos
            missing = 8 - sum(1 for dx, dy in NEIGHBOURS8 if (x + dx, y + dy) in g.board)
            return (left / (left + self.cloister_k)) ** missing if missing else 1.0
        e = g.ports[root]
        if e == 0:
            return 1.0
        kk = self.road_k if k == K_ROAD else self.city_k
        return (left / (left + kk)) ** e

    def feature(self, g: Game, root: int, left: int) -> tuple[float, float]:
        """(expected points for its owners, chance its followers come back)."""
        k = g.kind[root]
        if self.naive or left == 0:
            return float(g.feature_points(root, True)), 0.0
        if k == K_FIELD:
            find, done = g.find, g.done
            total = 0.0
            for r in {find(c) for c in g.adj[root]}:
                total += 1.0 if done[r] else self.field_hope * self.completion(g, r, left)
            return 3.0 * total, 0.0
        p = self.completion(g, root, left)
        ramp = min(1.0, left / 20.0)
        if k == K_ROAD:
            e = g.ports[root]
            return len(g.ftiles[root]) + 0.7 * e * ramp, p
        if k == K_CITY:
            base = len(g.ftiles[root]) + g.pennants[root]
            grow = 0.9 * g.ports[root] * ramp
            return p * 2.0 * (base + grow) + (1.0 - p) * (base + 0.5 * grow), p
        # cloister
        x, y = g.placed[g.seg_tile[root]].pos
        have = sum(1 for dx, dy in NEIGHBOURS8 if (x + dx, y + dy) in g.board)
        return p * 9.0 + (1.0 - p) * (1 + have + 0.5 * (8 - have) * ramp), p

    def supply_value(self, followers: float, left: int) -> float:
        """A follower at hand is an option on future points; the first ones matter most."""
        if self.naive or left == 0:
            return 0.0
        scale = self.meeple * min(1.0, left / 40.0)
        d = self.meeple_decay
        return scale * (1.0 - d ** followers) / (1.0 - d)

    def doomed(self, g: Game) -> set[int]:
        """Roots of the features that can never be finished: on the USA maps, those running
        off the map, and those facing a free square no tile left can fill (a cloister next
        to one)."""
        if self.naive or not isinstance(g, MapGame):
            return set()
        dead = g.doomed_roots()
        stuck = self.stuck_keys
        if not stuck:
            return dead
        find, done, board, placed, cloisters = g.find, g.done, g.board, g.placed, g.cloisters
        for (x, y), key in g.open.items():
            if key not in stuck:
                continue
            for d, (dx, dy) in enumerate(DELTA):
                q = board.get((x + dx, y + dy))
                if q is not None:
                    p = placed[q]
                    od = (d + 2) % 4
                    if p.o.edges[od] != FIELD:
                        r = find(p.base + p.o.edge_seg[od])
                        if not done[r]:
                            dead.add(r)
            if cloisters:
                for dx, dy in NEIGHBOURS8:
                    c = cloisters.get((x + dx, y + dy))
                    if c is not None and not done[find(c)]:
                        dead.add(find(c))
        return dead

    def learn_stuck_keys(self, g: Game) -> None:
        """The keys no tile still to come fits (nor the tile in hand), for this decision."""
        if self.naive or not isinstance(g, MapGame):
            return
        tables = [fit_table(g.tiles[t]) for t in g.deck]
        if g.drawn is not None:
            tables.append(fit_table(g.tiles[g.drawn]))
        self.stuck_keys = frozenset(k for k in range(1, 256) if not any(tb[k] for tb in tables))

    def values(self, g: Game) -> list[float]:
        """Each seat's score plus what its followers on the table and at hand are worth."""
        vals = [float(s) for s in g.points]
        if g.finished:
            return vals
        self.dead = self.doomed(g)
        left = g.tiles_left + (1 if g.drawn is not None else 0)
        n = g.n
        back = [0.0] * n
        for root in g.occupied:
            m = g.meeples[root]
            counts = [0] * n
            for s, _ in m:
                counts[s] += 1
            best = max(counts)
            v, p = self.feature(g, root, left)
            for s in range(n):
                if counts[s] == best:
                    vals[s] += v
                if counts[s]:
                    back[s] += counts[s] * p
        if not self.naive:
            for s in range(n):
                vals[s] += self.supply_value(g.supply[s] + 0.6 * back[s], left)
        return vals

    def follower_gain(self, g: Game, root: int, seat: int) -> float:
        """What a follower of `seat` adds on the free feature `root` of the tile just placed
        (`g` is the position right after the placement, without that follower)."""
        k = g.kind[root]
        if k != K_FIELD and g.done[root]:
            return float(g.feature_points(root, False))     # scored at once, follower comes back
        if g.finished:
            return float(g.feature_points(root, True))
        left = g.tiles_left + (1 if g.drawn is not None else 0)
        self.dead = self.doomed(g)
        v, p = self.feature(g, root, left)
        if self.naive:
            return v
        have = g.supply[seat]
        return v + self.supply_value(have - 1 + 0.6 * p, left) - self.supply_value(have, left)


def objective(vals: list[float], seat: int, relative: bool) -> float:
    if not relative:
        return vals[seat]
    return vals[seat] - max(v for i, v in enumerate(vals) if i != seat)


def rank_moves(g: Game, judge: Judge, relative: bool) -> list[tuple[float, Move]]:
    """Every move (distinct rotations) with its value one ply ahead, best first."""
    seat = g.current
    tile = g.tiles[g.drawn]
    scored: list[tuple[float, Move]] = []
    for x, y, r in g.legal_placements(distinct=True):
        free = g.follower_options(x, y, r, tile)
        c = g.clone(history=False)
        c.apply_action((x, y, r, -1))
        base = objective(judge.values(c), seat, relative)
        scored.append((base, (x, y, r, -1)))
        if free:
            b = c.placed[c.board[(x, y)]].base
            for s in free:
                scored.append((base + judge.follower_gain(c, c.find(b + s), seat), (x, y, r, s)))
    scored.sort(key=lambda t: -t[0])
    return scored


def draw_from(g: Game, order: list[int]) -> None:
    """Resolve the draws due in `g` from the end of `order` (tile indices)."""
    while g.current_player() == CHANCE:
        g.apply_action(draw(g.tiles[order.pop()].id))


class Seen(Player):
    """A player that keeps its own copy of the game, rebuilt from the observation."""

    def __init__(self, seat: int, rng):
        super().__init__(seat, rng)
        self.game: Game | None = None
        self.log: list = []            # the public actions applied to self.game, as JSON

    def follow(self, observation: dict) -> Game:
        """The game as the observation shows it: the cached copy brought up to date, or
        rebuilt when the log does not continue it (a new game, an undo, a load)."""
        actions = observation["actions"]
        seen = len(self.log)
        if (self.game is None or self.game.setup != observation["setup"] or len(actions) < seen
                or actions[:seen] != self.log):
            self.game = Game.new(observation["setup"])
            self.game.record = False   # scoring details are for people
            if isinstance(self.game, MapGame):
                self.game.partial = True   # others' secret looks arrive as Reveal(None)
            self.log, seen = [], 0
        g = self.game
        for a in actions[seen:]:
            g.apply_action(g.action_from_json(a))
            self.log.append(a)
        if isinstance(g, MapGame):
            # Tiles this player looked at after someone else had: known from the observation.
            for c in observation["covert"]:
                pos = tuple(c["square"])
                if c["tile"] is not None and g.covert.get(pos) is None:
                    t = tile_by_id()[c["tile"]].index
                    g._take(t)
                    g.covert[pos] = t
                    g.known[pos] = g.known.get(pos, frozenset()) | {self.seat}
        return g

    def choose(self, observation: dict, legal: Sequence):
        g = self.follow(observation)
        if isinstance(g, MapGame):
            return self.choose_on_map(g, legal)
        moves = [a for a in legal if type(a) is tuple]
        if not moves:       # only a turned-up tile to lay: the way that is worth most
            def worth(a):
                c = g.clone(history=False)
                c.apply_action(a)
                return objective(self.judge.values(c), self.seat, True)
            return max(legal, key=worth)
        return self.choose_move(g)

    def choose_move(self, g: Game) -> Move:
        raise NotImplementedError

    # ---- the USA maps: chips, looks, flips (see map_options)
    def choose_on_map(self, g: MapGame, legal: Sequence):
        relative = not self.judge.naive
        self.judge.learn_stuck_keys(g)
        if g.step == "lay":
            return self.choose_lay(g)
        if g.step == "look":
            return choose_look(g, legal)
        # A flipped tile's turn or the follower: the choice worth most.
        return max(legal, key=lambda a: (map_after(g, a, self.judge, relative), -len(str(a))))

    def choose_lay(self, g: MapGame):
        return map_options(g, self.judge, not self.judge.naive)[0][1]


def choose_look(g: MapGame, legal: Sequence):
    """Look at a tile not yet known, the one nearest the landscape (the likeliest to be
    flipped soon)."""
    board = list(g.board)

    def key(a):
        pos = (a.x, a.y)
        dist = min(abs(pos[0] - x) + abs(pos[1] - y) for x, y in board)
        return (g.covert.get(pos) is not None, dist, pos)
    return min(legal, key=key)


def resolve_flips(c: MapGame, judge: Judge) -> None:
    """In a simulation: lay the flipped tiles this player knows the best way."""
    while c.step == "flip":
        opts = c.legal_actions()
        c.apply_action(max(opts, key=lambda a: (map_after(c, a, judge, True), -a.rot)))


def finish_sim_turn(c: MapGame, judge: Judge, seg: int | None = None) -> None:
    """In a simulation, after a Lay: the flipped tiles, then the follower on `seg`."""
    resolve_flips(c, judge)
    if c.step == "follow":
        c.apply_action(Follow(seg if seg is not None and seg in c.follow_options() else -1))


def map_after(g: MapGame, action, judge: Judge, relative: bool) -> float:
    """The value to the player to move of `action`, the turn finished in a simulation."""
    seat = g.current
    c = g.clone(history=False)
    c.sim = True
    c.apply_action(action)
    finish_sim_turn(c, judge)
    return objective(judge.values(c), seat, relative)


def map_options(g: MapGame, judge: Judge, relative: bool) -> list[tuple[float, Lay, int]]:
    """Every distinct placement of the tile in hand with its best follower, valued after the
    whole turn: the chip counted at its expected points, a flip of a tile this player has
    looked at played out, a flip of an unseen tile at its odds (+2 if it fits, -2 if not)."""
    seat = g.current
    out: list[tuple[float, Lay, int]] = []
    for x, y, r in g.legal_placements(distinct=True):
        c = g.clone(history=False)
        c.sim = True
        c.apply_action(Lay(x, y, r))
        resolve_flips(c, judge)
        free = c.follow_options() if c.step == "follow" else []
        base_seg = c.placed[c.board[(x, y)]].base
        roots = [c.find(base_seg + s) for s in free]
        if c.step == "follow":
            c.apply_action(Follow(-1))
        base = objective(judge.values(c), seat, relative)
        best, best_seg = base, -1
        for s, root in zip(free, roots):
            v = base + judge.follower_gain(c, c.find(root), seat)
            if v > best + 1e-9:
                best, best_seg = v, s
        out.append((best, Lay(x, y, r), best_seg))
    out.sort(key=lambda t: -t[0])
    return out


def play_map_turn(c: MapGame, judge: Judge) -> None:
    """A whole turn in a simulation: the best placement and follower by the judge."""
    _, lay, seg = map_options(c, judge, True)[0]
    c.apply_action(lay)
    finish_sim_turn(c, judge, seg)


class EasyPlayer(Seen):
    """One-ply greedy on its own score as if the game ended after the move."""

    def __init__(self, seat: int, rng):
        super().__init__(seat, rng)
        self.judge = Judge(naive=True)

    def choose_move(self, g: Game) -> Move:
        ranked = rank_moves(g, self.judge, relative=False)
        top = ranked[0][0]
        # Among equal moves prefer keeping followers, then any at random (seeded).
        ties = [m for v, m in ranked if v >= top - 1e-9]
        quiet = [m for m in ties if m[3] == -1]
        return self.rng.choice(quiet or ties)


class HardPlayer(Seen):
    """Judged one-ply candidates refined by playing a round ahead over sampled tile orders."""

    def __init__(self, seat: int, rng, budget: float = 0.9, candidates: int = 6, samples: int = 12,
                 margin: float = 8.0, judge: Judge | None = None):
        super().__init__(seat, rng)
        self.budget = budget          # seconds per decision at most
        self.candidates = candidates  # moves kept for look-ahead
        self.samples = samples        # tile orders tried per candidate at most
        self.margin = margin          # candidates this far below the best are dropped
        self.judge = judge or Judge()
        # A turn on the maps costs more to simulate (chips, flips): a fixed amount of work,
        # 6 candidates and 8 orders (4 and 4 gave hard 88-92% against easy on grid 2, whose
        # maps fill up; see benchmarks/CARCASSONNE_MAPS.md).
        self.map_candidates, self.map_samples = min(candidates, 6), min(samples, 8)

    def choose_move(self, g: Game) -> Move:
        start = time.perf_counter()
        seat = g.current
        ranked = rank_moves(g, self.judge, relative=True)
        top = ranked[0][0]
        cands = [m for v, m in ranked[: self.candidates] if v >= top - self.margin]
        if len(cands) == 1 or not g.deck:
            return cands[0]
        unseen = [t for t, c in g.deck.items() for _ in range(c)]   # the mix is public, the order is not
        totals = [0.0] * len(cands)
        runs = 0
        deadline = start + self.budget
        horizon = g.n   # the others answer, then we play once more
        while runs < self.samples and time.perf_counter() < deadline:
            order = unseen.copy()
            self.rng.shuffle(order)
            for i, m in enumerate(cands):
                c = g.clone(history=False)
                left = order.copy()
                c.apply_action(m)
                draw_from(c, left)
                for _ in range(horizon):
                    if c.finished:
                        break
                    c.apply_action(rank_moves(c, self.judge, relative=True)[0][1])
                    draw_from(c, left)
                totals[i] += objective(self.judge.values(c), seat, True)
            runs += 1
        best = max(range(len(cands)), key=lambda i: totals[i])
        return cands[best]

    def choose_lay(self, g: MapGame):
        """Judged placements refined by playing a round ahead over sampled tile orders. A
        fixed amount of work, not a time budget: the choice must not depend on the machine's
        speed (the tests check that it depends on nothing hidden)."""
        seat = g.current
        ranked = map_options(g, self.judge, True)
        top = ranked[0][0]
        cands = [(lay, s) for v, lay, s in ranked[: self.map_candidates] if v >= top - self.margin]
        if len(cands) == 1 or not g.stack:
            return cands[0][0]
        unseen = [t for t, c in g.deck.items() for _ in range(c)]
        totals = [0.0] * len(cands)
        for _ in range(self.map_samples):
            order = unseen.copy()
            self.rng.shuffle(order)
            for i, (lay, s) in enumerate(cands):
                c = g.clone(history=False)
                c.sim = True
                left = order.copy()
                c.apply_action(lay)
                finish_sim_turn(c, self.judge, s)
                draw_from(c, left)
                for _ in range(min(g.n, 2)):    # the next player answers, then us (a map turn costs more)
                    if c.finished:
                        break
                    play_map_turn(c, self.judge)
                    draw_from(c, left)
                totals[i] += objective(self.judge.values(c), seat, True)
        best = max(range(len(cands)), key=lambda i: totals[i])
        return cands[best][0]


LEVELS = {"easy": EasyPlayer, "hard": HardPlayer}


def make_player(level: str, seat: int, rng) -> Player:
    """The computer player of `level` ("easy" or "hard") for `seat`."""
    cls = LEVELS.get(level)
    if cls is None:
        raise ValueError(f"unknown Carcassonne computer level {level!r} (use easy or hard)")
    return cls(seat, rng)
