"""The online client's copy of a table's game (engine.following), for every turn-based
game and way to play with hidden information: seeded games are played to the end by
random seats, each seat is told what a referee would tell it (online.visibility's views
of each entry, its observation after each), and the follower, which knows nothing of any
game, must keep a world that agrees with everything the seat was told: entry by entry as
the moves come, and when a whole log arrives at once (joining late, a reconnection)."""
from __future__ import annotations

import json

import pytest

from stateside.engine.following import follow
from stateside.engine.match import Match, rules_for
from stateside.online.visibility import entry_views
from test_conformance import HALF_MAPS, VARIANTS, setup_for

# (Carcassonne's West and East maps are the both-maps rules on half its board: followed in
# the conformance sweep, STATESIDE_CONFORMANCE_SEEDS, not in every run.)
CASES = [(g, v) for g, v in VARIANTS
         if rules_for(g).spec.hidden_information and not rules_for(g).spec.real_time
         and v not in rules_for(g).spec.public_variants and (g, v) not in HALF_MAPS]
MOST_ENTRIES = 160   # per game (America's consistent_with replays its public record each time)


def table_told(game_id: str, variant, seed: int):
    """A random game as a referee saw it: per seat, the views of each entry and the
    observation after each length of the log."""
    cls = rules_for(game_id)
    players = cls.spec.min_players + seed % (cls.spec.max_players - cls.spec.min_players + 1)
    match = Match(game_id, ["random"] * players, seed, setup_for(cls, players, variant))
    views = [[] for _ in range(players)]
    observed = [{0: match.state.observation(s)} for s in range(players)]
    while not match.is_over() and len(match.log) < MOST_ENTRIES:
        entry = match.step()
        action_json = json.loads(json.dumps(match.state.action_to_json(entry.action)))
        _, seat_views, _ = entry_views(entry, action_json, players)
        for s in range(players):
            views[s].append(json.loads(json.dumps(seat_views[s])))
            observed[s][len(match.log)] = json.loads(json.dumps(match.state.observation(s)))
    return match, views, observed


def legal_json(state, seat: int) -> list:
    return sorted(json.dumps(state.action_to_json(a), sort_keys=True) for a in state.legal_actions(seat))


@pytest.mark.parametrize("game_id, variant", CASES)
def test_a_seat_told_each_entry_keeps_a_world_agreeing_with_it(game_id, variant):
    """Entry by entry (the seat's view of one more move and its observation after it): the
    world before each entry and after it agrees with what the seat observed there, the
    seat's legal actions are the table's, and the log reads as the referee's words."""
    for seed in (3, 4):
        table, views, observed = table_told(game_id, variant, seed)
        for seat in range(table.state.num_players):
            here = Match(game_id, table.seats, 0, table.initial_setup)
            for k in range(len(views[seat])):
                told = {j: observed[seat][j] for j in range(max(0, k - 3), k + 1)}
                done = follow(here, seat, views[seat][:k + 1], told, observed[seat][k + 1], k + 1)
                assert not done.disagreed, f"{game_id} seed {seed} seat {seat}: no world agreed at {done.disagreed}"
                assert [e.index for e in done.entries] == [k]
                assert done.before[k].observation(seat) == observed[seat][k]
                assert here.state.observation(seat) == observed[seat][k + 1], f"{game_id} seat {seat} after {k}"
                truth = table.state_after(k + 1)
                assert legal_json(here.state, seat) == legal_json(truth, seat)
                assert done.entries[0].text == views[seat][k]["text"]
                assert done.entries[0].seat == views[seat][k]["seat"]
                assert done.entries[0].seen_by(seat) == (not views[seat][k].get("hidden"))
            assert len(here.log) == len(table.log)


@pytest.mark.parametrize("game_id, variant", CASES)
def test_a_seat_told_a_whole_log_at_once_ends_in_agreement(game_id, variant):
    """A late joiner or a reconnection: the whole log and only the latest observation."""
    table, views, observed = table_told(game_id, variant, 5)
    for seat in range(table.state.num_players):
        here = Match(game_id, table.seats, 0, table.initial_setup)
        n = len(views[seat])
        done = follow(here, seat, views[seat], {}, observed[seat][n], n)
        assert not done.disagreed
        assert len(here.log) == n == len(done.entries)
        assert here.state.observation(seat) == observed[seat][n]
        assert legal_json(here.state, seat) == legal_json(table.state, seat)
        # and a second call with nothing new changes nothing
        again = follow(here, seat, views[seat], {}, observed[seat][n], n)
        assert again.entries == [] and not again.disagreed


def test_the_follower_needs_no_game_of_its_own():
    """engine.following names no game: what it knows of them comes from the protocol."""
    import stateside.engine.following as following

    text = open(following.__file__, encoding="utf-8").read()
    assert "stateside.games" not in text
