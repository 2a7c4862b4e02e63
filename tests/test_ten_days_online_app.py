"""10 Days online on the shared frame's generic table play (TurnBasedMode.attach_online):
two screens at one table through a real nats-server and referee. Each screen's move log
tells the other seat's hidden moves without naming a card, a drawn card dropped on a pile
(two actions, keep then discard, in one click) reaches the table, and both screens end with
the referee's whole game."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.engine.match import CHANCE, Match, seat_rng_seed  # noqa: E402
from stateside.games.ten_days.mode import DEAL_ENTRIES  # noqa: E402
from stateside.games.ten_days.rules import PLACE, full_deck  # noqa: E402
from stateside.online.server import find_nats_server  # noqa: E402
from test_online_app import click, seat_up, server  # noqa: E402,F401  (the fixture and helpers)

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")


def test_two_screens_log_and_finish_a_short_game(qtbot, show_mode, server):  # noqa: F811
    seed, turn_limit = 1, 8   # seed 1: two turns keep the journey
    a, sa = seat_up(qtbot, show_mode, server)
    b, sb = seat_up(qtbot, show_mode, server)
    sa.host("ten-days", ["you", "human"], ["Ann", "Bob"], {"turn_limit": turn_limit}, seed=seed)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    a.attach_online(sa)
    sb.join(sa.table)
    qtbot.waitUntil(lambda: sb.table is not None, timeout=10000)
    b.attach_online(sb)
    modes = (a, b)
    dropped = 0            # clicks on a pile with the drawn card in hand (keep + discard)
    logs = {}
    while any(m.online is not None for m in modes):
        qtbot.waitUntil(lambda: any(m.online is None or m.is_human_turn() for m in modes), timeout=15000)
        for m in modes:
            if m.online is None or not m.is_human_turn():
                continue
            seat = m.online.seat
            logs[seat] = [(line.index, line.seat, line.text) for line in m.log_panel.lines()]
            for line in m.log_panel.lines()[-4:]:   # pointing at a draw or a discard frames the deck or pile
                m.log_panel.hovered.emit(line.index)
                action = str(m.match.log[line.index].action)
                if line.index >= 2 * DEAL_ENTRIES and action.startswith(("card:", "draw", "take:", "discard:")):
                    assert any(s.frame for s in m.table_row.slots), line
            m.log_panel.hovered.emit(-1)
            assert not any(s.frame for s in m.table_row.slots + m.journey_row.slots)
            legal = m.game.legal_actions(seat)
            choice = legal[random.Random(seat_rng_seed(seed, seat, len(m.match.log))).randrange(len(legal))]
            if m.game.phase == PLACE and choice == "keep":
                # the same move by a click on a pile: "keep" goes now, the discard once the
                # table has taken it (the discard is the one the seeded player makes next)
                after = m.game.clone()
                after.apply_action("keep")
                nxt = after.legal_actions(seat)
                pile = int(nxt[random.Random(seat_rng_seed(seed, seat, len(m.match.log) + 1)).randrange(len(nxt))][8:])
                m._table_clicked(pile)
                dropped += 1
                assert m._queued == [f"discard:{pile}"]
            else:
                click(m, choice)
    local = Match("ten-days", ["random", "random"], seed, a.match.initial_setup)
    local.play_out()
    for m in modes:
        assert m.online is None and m.game.is_terminal() and m.match.actions == local.actions
        assert "checks out" in m.last_status
    assert dropped >= 1
    # Each seat's log, as it stood during the game: the deal one line per player, then a line
    # for every move; the other seat's draws and placings named no card.
    names = {mode.cards.name(face) for mode in modes[:1] for face in full_deck()}
    for seat, lines in logs.items():
        other = "Bob" if seat == 0 else "Ann"
        assert [text for _, _, text in lines[:2]] == ["Ann took ten cards", "Bob took ten cards"]
        assert [i for i, _, _ in lines[2:]] == list(range(2 * DEAL_ENTRIES, 2 * DEAL_ENTRIES + len(lines) - 2))
        # (the other's draws are hidden entries; a placing shows its day, not its card)
        hidden = [text for _, who, text in lines if text == f"The deck gave {other} a card, face down"
                  or text.startswith(f"{other} put the card on day ")]
        assert hidden, "\n".join(map(str, lines))
        for index, who, text in lines[2:]:
            entry = local.log[index]
            actor = local.state_after(index).current
            if actor != seat and (entry.seat == CHANCE and local.state_after(index).pending == "draw"
                                  or str(entry.action).startswith(("day:", "keep"))):
                assert not any(name in text for name in names), text
