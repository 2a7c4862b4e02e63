"""Seeded self-play on the USA maps: tiles, followers and chips conserved, the scores the
sum of the scoring events, covert tiles accounted for, hidden looks kept from the others.

STATESIDE_CARCASSONNE_MAP_GAMES=200 plays 200 games per map (the normal suite plays 12)."""
from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from stateside.games.carcassonne.ai import EasyPlayer, HardPlayer
from stateside.games.carcassonne.maps import load_chips
from stateside.games.carcassonne.tiles import load_tile_set
from stateside.selfplay import play_match

GAMES = int(os.environ.get("STATESIDE_CARCASSONNE_MAP_GAMES", "12"))


def check_conserved(g) -> None:
    assert g.is_terminal() and g.stack == 0 and g.drawn is None and g.turned_up is None
    g.check_invariants()
    tiles = sum(load_tile_set(s).size for s in g.conf.sets)
    covert = sum(1 for t in g.covert.values() if t is not None) + sum(g.deck.values())
    assert len(g.placed) + len(g.set_aside) + covert == tiles
    assert sum(g.deck.values()) == sum(1 for t in g.covert.values() if t is None)
    on_board = Counter(seat for seat, _, _ in g.followers_on_board())
    assert [g.supply[s] + on_board[s] for s in range(g.n)] == [g.conf.followers] * g.n
    assert g.chips_left + Counter(c for _, c in g.taken) == Counter(c.id for c in load_chips())
    assert len(g.taken) + len(g.chip_towns) == len(g.map.towns)
    sums = [sum(e.points for e in g.events if s in e.seats) for s in range(g.n)]
    assert sums == g.scores()
    flips = [e for e in g.events if e.kind == "flip"]
    assert all(e.points in (2, -2) for e in flips)


@pytest.mark.parametrize("variant", ["usa-west", "usa-east", "usa"])
def test_seeded_games_on_each_map_keep_everything_conserved(variant):
    for i in range(GAMES):
        n = 2 + i % 4
        players = (["ai:easy"] if i % 6 == 0 else ["random"]) + ["random"] * (n - 1)
        record = play_match("carcassonne", players, 500 + i, {"players": [f"P{k}" for k in range(n)], "variant": variant})
        check_conserved(record.match.state)


def test_computer_players_do_not_see_others_looks():
    """A player's secret look reaches neither the other player's observation nor its choice."""
    from stateside.games.carcassonne.engine import Game

    rng = random.Random(2)
    g = Game.new({"players": ["A", "B"], "variant": "usa-east"})
    # Play at random until A has looked at a tile and B is to lay one.
    while not (g.current == 1 and g.step == "lay" and any(0 in k for k in g.known.values())):
        assert not g.is_terminal()
        if g.current_player() < 0:
            outs = g.chance_outcomes()
            g.apply_action(rng.choices([o for o, _ in outs], [w for _, w in outs])[0])
        else:
            g.apply_action(rng.choice(g.legal_actions(g.current)))
    changed = g.with_hidden_changed(1, random.Random(5))
    assert changed is not None and changed.covert != g.covert
    assert changed.observation(1) == g.observation(1)
    for make in (lambda: EasyPlayer(1, random.Random(1)), lambda: HardPlayer(1, random.Random(1), budget=60)):
        a = make().choose(g.observation(1), g.legal_actions(1))
        b = make().choose(changed.observation(1), changed.legal_actions(1))
        assert a == b


def test_the_hard_judge_knows_the_squares_no_tile_left_can_fill_as_stuck():
    """The keys (what a free square's neighbours show) that no tile of the game fits, by
    trying every tile turned every way, are the ones the hard player treats as stuck; a
    city or road facing a stuck square can never be finished, and counts as such."""
    from stateside.engine.protocol import CHANCE
    from stateside.games.carcassonne.ai import Judge
    from stateside.games.carcassonne.engine import Game

    g = Game.new({"players": ["A", "B"], "variant": "usa-west"})
    g.apply_action(g.chance_outcomes()[0][0])
    judge = Judge()
    judge.learn_stuck_keys(g)
    tiles = [g.tiles[t] for t in g.deck] + [g.tiles[g.drawn]]

    def fits_none(key):
        need = [(key >> (2 * d)) & 3 for d in range(4)]
        return not any(all(n in (0, e) for n, e in zip(need, t.oriented(r).edges)) for t in tiles for r in range(4))
    assert judge.stuck_keys == {k for k in range(1, 256) if fits_none(k)} and judge.stuck_keys
    # Play on a while, then call every key stuck: each unfinished city or road that faces a
    # free square is doomed; with no key stuck, only those that run off the map.
    rng = random.Random(2)
    while len(g.placed) < 25:
        outs = g.chance_outcomes() if g.current_player() == CHANCE else [(a, 1) for a in g.legal_actions(g.current)]
        g.apply_action(rng.choice([a for a, _ in outs]))
    judge.stuck_keys = frozenset()
    assert judge.doomed(g) == g.doomed_roots()
    judge.stuck_keys = frozenset(range(1, 256))
    facing = set()
    for (x, y) in g.open:
        for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            q = g.board.get((x + dx, y + dy))
            if q is not None:
                p = g.placed[q]
                seg = p.o.edge_seg[(d + 2) % 4]      # -1: a field edge
                if seg != -1 and not g.done[g.find(p.base + seg)]:
                    facing.add(g.find(p.base + seg))
    assert facing and facing <= judge.doomed(g)
