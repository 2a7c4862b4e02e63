"""Seeded self-play between computer players: every game ends with its tiles used or
set aside, followers conserved and the scores equal to the sum of the scoring events."""
from __future__ import annotations

from stateside.engine.match import Match
from stateside.games.carcassonne.engine import Game
from stateside.games.carcassonne.tiles import load_tile_set
from stateside.selfplay import play_match

from long_runs import games

FULL = ["base", "inns-cathedrals", "traders-builders"]


def play_out(players: list[str], seed: int, sets: list[str]) -> tuple[Game, list[list[float]]]:
    """One seeded game between player specs; the finished game and each seat's decision times."""
    setup = {**Game.default_setup(len(players)), "sets": sets}
    record = play_match("carcassonne", players, seed, setup)
    return record.match.state, record.decision_ms


def check_invariants(game: Game) -> None:
    assert game.is_terminal() and game.drawn is None and not game.deck
    game.check_invariants()
    tiles = sum(load_tile_set(s).size for s in game.conf.sets)
    assert len(game.placed) + len(game.set_aside) == tiles
    on_board = [0] * game.n
    for seat, _, _ in game.followers_on_board():
        on_board[seat] += 1
    assert [a + b for a, b in zip(game.supply, on_board)] == [game.conf.followers] * game.n
    from_events = [0] * game.n
    for e in game.events:
        for s in e.seats:
            from_events[s] += e.points
    assert from_events == game.scores()
    assert all(e.points >= 0 for e in game.events)
    assert len(game.actions) == game.turn == len(game.placed) - len(game.conf.start)


# 40 games in the default run (every player count, both first seats, the full tile sets
# in every tenth), 200 in the long run (benchmarks/SELFPLAY.md).
SELFPLAY_GAMES = games(40, 200)


def test_seeded_games_keep_tiles_followers_and_scores_consistent():
    specs = ["random", "ai:easy"]
    for i in range(SELFPLAY_GAMES):
        n = 2 + i % 4                                   # 2 to 5 players
        players = [specs[(i // 4 + k) % 2] if k == 0 else "random" for k in range(n)]
        sets = FULL if i % 10 == 0 else ["base"]
        game, times = play_out(players, seed=1000 + i, sets=sets)
        check_invariants(game)
        assert [len(t) for t in times] == [sum(1 for a in range(game.turn) if a % n == s) for s in range(n)]


def test_the_same_seed_plays_the_same_game():
    a, _ = play_out(["ai:easy", "random"], seed=7, sets=["base"])
    b, _ = play_out(["ai:easy", "random"], seed=7, sets=["base"])
    assert a.history == b.history and a.scores() == b.scores()


def test_play_match_reports_winners_scores_and_decision_times():
    record = play_match("carcassonne", ["ai:easy", "ai:easy"], seed=3)
    assert record.scores is not None and len(record.scores) == 2
    assert record.winners == [i for i, s in enumerate(record.scores) if s == max(record.scores)]
    assert record.turns == 113 - len([]) or record.turns < 113
    assert all(len(t) > 40 for t in record.decision_ms)


def test_a_saved_self_play_game_replays_to_the_same_result():
    record = play_match("carcassonne", ["ai:easy", "random", "random"], 11,
                        {**Game.default_setup(3), "sets": ["base"]})
    game, again = record.match.state, Match.from_json(record.match.to_json()).state
    assert again.scores() == game.scores() and again.events == game.events
