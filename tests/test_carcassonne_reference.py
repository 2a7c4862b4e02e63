"""A second, deliberately naive Carcassonne scorer, checked against the engine move by move.

The engine keeps features in an incremental union-find with running totals (open edges,
tiles, pennants, followers). This reference knows none of that: after every move it
rebuilds every feature from scratch by walking the tiles on the table, and applies the
standard rules as issue 7 and section 5 of carcassonne-tiles.md state them:
- placement: the tile touches the table along an edge and every touching edge matches;
- a follower only on a feature of the new tile with no follower anywhere along it;
- a road or city is complete when every edge of it meets a tile (loops included), a
  cloister when its 8 neighbours are there; completed features score at once to the
  majority (ties each score in full) and free their followers;
- at the end unfinished roads 1 per tile, cities 1 per tile and pennant, cloisters 1 + 1 per
  neighbour; each field 3 per completed city it borders, scored on its own.
Seeded games between computer players are replayed through it; every move must be legal
there and every scoring event and final score must agree.
"""
from __future__ import annotations

from collections import Counter

import pytest

from stateside.games.carcassonne.engine import Game, Setup
from stateside.selfplay import play_match
from stateside.games.carcassonne.tiles import (CITY, DELTA, FIELD, K_CITY, K_CLOISTER, K_FIELD, K_ROAD,
                                               tile_by_id)

RING = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


class Reference:
    def __init__(self, setup: Setup):
        self.setup = setup
        self.n = len(setup.players)
        self.board: dict = {}                 # pos -> (TileType, Oriented)
        self.followers: list = []             # [seat, pos, seg]
        self.supply = [setup.followers] * self.n
        self.scores = [0] * self.n
        self.events: list = []                # (kind, seats, points, final)
        self.done: set = set()                # frozensets of the nodes of scored/completed features
        for tid, x, y, rot in setup.start:
            t = tile_by_id()[tid]
            self.board[(x, y)] = (t, t.oriented(rot))

    # ---------------------------------------------------------------- features, from scratch
    def links(self, node):
        """Nodes (pos, seg) joined to `node` across tile edges."""
        (x, y), seg = node
        t, o = self.board[(x, y)]
        out = []
        for d in range(4):
            q = (x + DELTA[d][0], y + DELTA[d][1])
            if q not in self.board:
                continue
            _, qo = self.board[q]
            od = (d + 2) % 4
            if o.edges[d] != FIELD and o.edge_seg[d] == seg:
                out.append((q, qo.edge_seg[od]))
            if o.edges[d] != CITY:
                if o.half_seg[2 * d] == seg:
                    out.append((q, qo.half_seg[2 * od + 1]))
                if o.half_seg[2 * d + 1] == seg:
                    out.append((q, qo.half_seg[2 * od]))
        return out

    def feature(self, node) -> frozenset:
        seen, todo = {node}, [node]
        while todo:
            for m in self.links(todo.pop()):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return frozenset(seen)

    def kind(self, node) -> str:
        pos, seg = node
        return self.board[pos][0].segments[seg].kind

    def complete(self, feat) -> bool:
        node = next(iter(feat))
        if self.kind(node) == K_CLOISTER:
            (x, y), _ = node
            return all((x + dx, y + dy) in self.board for dx, dy in RING)
        for (x, y), seg in feat:
            _, o = self.board[(x, y)]
            for d in o.seg_edges[seg]:
                if (x + DELTA[d][0], y + DELTA[d][1]) not in self.board:
                    return False
        return True

    def points(self, feat, final: bool) -> int:
        node = next(iter(feat))
        k = self.kind(node)
        if k == K_CLOISTER:
            (x, y), _ = node
            return 1 + sum((x + dx, y + dy) in self.board for dx, dy in RING)
        tiles = len({pos for pos, _ in feat})
        if k == K_ROAD:
            inn = any(self.board[pos][0].segments[s].inn for pos, s in feat)
            if self.setup.inns_cathedrals and inn:
                return 0 if final else 2 * tiles
            return tiles
        if k == K_CITY:
            pennants = sum(self.board[pos][0].segments[s].pennant for pos, s in feat)
            cathedral = any(self.board[pos][0].segments[s].cathedral for pos, s in feat)
            if self.setup.inns_cathedrals and cathedral:
                return 0 if final else 3 * (tiles + pennants)
            return (tiles + pennants) * (1 if final else 2)
        # a field: completed cities bordering it, each city once
        cities = set()
        for pos, s in feat:
            t, _ = self.board[pos]
            for c in t.segments[s].cities:
                city = self.feature((pos, c))
                if self.complete(city):
                    cities.add(city)
        return 3 * len(cities)

    def award(self, feat, final: bool) -> None:
        counts = [0] * self.n
        for seat, pos, seg in self.followers:
            if (pos, seg) in feat:
                counts[seat] += 1
        if not any(counts):
            return
        best = max(counts)
        seats = tuple(i for i, c in enumerate(counts) if c == best)
        pts = self.points(feat, final)
        for s in seats:
            self.scores[s] += pts
        self.events.append((self.kind(next(iter(feat))), seats, pts, final))

    # ---------------------------------------------------------------- a move
    def play(self, seat: int, tile_id: str, move) -> None:
        x, y, rot, seg = move
        t = tile_by_id()[tile_id]
        o = t.oriented(rot)
        assert (x, y) not in self.board, "square taken"
        touching = 0
        for d in range(4):
            q = (x + DELTA[d][0], y + DELTA[d][1])
            if q in self.board:
                touching += 1
                assert self.board[q][1].edges[(d + 2) % 4] == o.edges[d], f"edge {d} does not match at {x},{y}"
        assert touching, "the tile does not touch the table"
        self.board[(x, y)] = (t, o)
        if seg >= 0:
            assert self.supply[seat] > 0, "no follower left"
            feat = self.feature(((x, y), seg))
            assert not any((p, s) in feat for _, p, s in self.followers), "feature already occupied"
            self.followers.append([seat, (x, y), seg])
            self.supply[seat] -= 1
        # completed roads and cities through the new tile, then cloisters around it
        for i, s in enumerate(t.segments):
            if s.kind in (K_CITY, K_ROAD):
                feat = self.feature(((x, y), i))
                if feat not in self.done and self.complete(feat):
                    self.done.add(feat)
                    self.award(feat, False)
                    self._free(feat)
        for dx, dy in [(0, 0)] + RING:
            q = (x + dx, y + dy)
            if q in self.board:
                for i, s in enumerate(self.board[q][0].segments):
                    feat = frozenset({(q, i)})
                    if s.kind == K_CLOISTER and feat not in self.done and self.complete(feat):
                        self.done.add(feat)
                        self.award(feat, False)
                        self._free(feat)

    def _free(self, feat) -> None:
        for f in [f for f in self.followers if (f[1], f[2]) in feat]:
            self.followers.remove(f)
            self.supply[f[0]] += 1

    def finish(self) -> None:
        scored = set()
        order = {K_ROAD: 0, K_CITY: 1, K_CLOISTER: 2, K_FIELD: 3}
        feats = []
        for _, pos, seg in self.followers:
            feat = self.feature((pos, seg))
            if feat not in scored:
                scored.add(feat)
                feats.append(feat)
        for feat in sorted(feats, key=lambda f: order[self.kind(next(iter(f)))]):
            self.award(feat, True)


def replay(game: Game) -> Reference:
    """Replay the engine's moves (tiles in the order placed) through the reference."""
    ref = Reference(game.conf)
    start = len(game.conf.start)
    for turn, move in enumerate(game.actions):
        placed = game.placed[start + turn]
        assert placed.pos == move[:2] and placed.rot == move[2]
        ref.play(turn % game.n, placed.tile.id, move)
    ref.finish()
    return ref


@pytest.mark.parametrize("players, seed, sets, inns", [
    (["random", "random"], 21, None, False),
    (["ai:easy", "random", "random"], 22, ["base"], False),
    (["random", "ai:easy", "random", "random"], 23, None, True),
    (["random"] * 5, 24, None, False),
    (["ai:easy", "ai:easy"], 25, None, True),
    (["random", "random", "random"], 26, ["base"], False),
    (["random", "random"], 27, ["base", "traders-builders"], False),
    (["random", "random", "random", "random"], 28, None, False),
])
def test_the_engine_agrees_with_a_scorer_that_rebuilds_every_feature_after_every_move(players, seed, sets, inns):
    """Rules facts (section 5, all of it): placement, followers, completion, majorities and ties,
    end-of-game and field scoring, recomputed the slow way and compared event by event."""
    # with the inn and cathedral rules on: same moves legal, different points
    names = [f"{p} {i + 1}" for i, p in enumerate(players)]
    setup = Setup(players=names, sets=sets or Setup.sets, inns_cathedrals=inns)
    game = play_match("carcassonne", players, seed, setup.to_json()).match.state
    ref = replay(game)
    engine_events = [(e.kind, e.seats, e.points, e.final) for e in game.events]
    assert Counter(ref.events) == Counter(engine_events)
    assert ref.scores == game.scores()
    assert ref.supply == game.supply
    assert sorted((s, p, g) for s, p, g in ref.followers) == sorted(game.followers_on_board())
