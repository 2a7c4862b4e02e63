"""The manners of an online table (issue 23, item 4), with a real nats-server and
referee: the joiner's own name is the seat's name at every screen; a screen sees the
other player leave ("Gil left; the table waits. Share code ...") and come back; New game
at a table asks before leaving it; the online dialog remembers name, server and game."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineDialog, OnlineSession, online_games, presence_note  # noqa: E402
from stateside.games.ten_days.mode import TenDaysMode  # noqa: E402
from stateside.online.server import find_nats_server  # noqa: E402
from online_support import server  # noqa: E402,F401  (server: a fixture)

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")


def host_and_join(qtbot, a, server, joiner="Gil"):
    sa = OnlineSession(f"127.0.0.1:{server.port}", a, poll_ms=5)
    other = OnlineSession(f"127.0.0.1:{server.port}", poll_ms=5)
    sa.host("ten-days", ["you", "human"], ["Ann", "Player 2"], {}, seed=3)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    a.attach_online(sa)
    other.join(sa.table, joiner)
    qtbot.waitUntil(lambda: other.table is not None, timeout=10000)
    qtbot.waitUntil(lambda: a._online_started and a.is_human_turn(), timeout=10000)   # the table's game, at Ann's turn
    return sa, other


def test_the_joiners_name_and_a_seat_that_leaves_and_comes_back(qtbot, show_mode, server):
    a = show_mode(TenDaysMode)
    sa, other = host_and_join(qtbot, a, server)
    code = sa.table
    # the name Gil typed, not the host's "Player 2": in the host's game and its words
    assert a.match.names == ["Ann", "Gil"]
    other.leave()
    expected = f"Gil left; the table waits. Share code {code}"
    qtbot.waitUntil(lambda: a.online_note.startswith(expected), timeout=10000)
    assert expected in a.banner.text()
    back = OnlineSession(f"127.0.0.1:{server.port}", poll_ms=5)
    back.join(code, "Gil")
    qtbot.waitUntil(lambda: a.online_note == "", timeout=10000)
    assert back.seat == 1
    back.close()
    a.leave_online()


def test_presence_note_names_everyone_awaited():
    view = {"table": "K7QX3M", "info": {"setup": {"players": ["Ann", "Gil", "Bo"]},
                                        "seats": ["human", "human", "human"], "joined": {"0": "Ann"}}}
    assert presence_note(view) == "Gil and Bo left; the table waits. Share code K7QX3M"
    view["info"]["joined"] = {"0": "Ann", "1": "Gil", "2": "Bo"}
    assert presence_note(view) == ""


def test_new_game_open_and_quit_at_an_online_table_ask_before_leaving_it(qtbot, server, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    from stateside.app.main import MainWindow
    from stateside.engine.match import Match
    from stateside.engine.saves import save_game

    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    a = window.open_mode("ten-days")
    window.current = a
    window.show()
    sa, other = host_and_join(qtbot, a, server)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kw: asked.append(args[2]) or QMessageBox.No)
    window.new_game()
    assert a.online is sa and len(asked) == 1 and sa.table in asked[0]   # No: still at the table
    saved = tmp_path / "ten-days.json"
    save_game(saved, Match("ten-days", ["human", "human"], 1).to_json())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kw: (str(saved), ""))
    window.open_file()
    assert a.online is sa and len(asked) == 2 and "Open ten-days.json?" in asked[1] and sa.table in asked[1]
    assert not window.close()   # Quit: asked too, and No keeps the window at the table
    assert a.online is sa and len(asked) == 3 and asked[2].startswith("Quit Stateside?") and sa.table in asked[2]
    monkeypatch.setattr(a, "new_game", lambda: None)   # (the setup screen itself is not under test)
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kw: QMessageBox.Yes)
    window.new_game()
    assert a.online is None
    other.close()


def test_the_online_dialog_remembers_name_server_and_game(qtbot, tmp_path):
    from PySide6.QtWidgets import QWidget

    class Window(QWidget):
        def __init__(self):
            super().__init__()
            from stateside.games import discover_games
            self.games = discover_games()
            self.settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)

    window = Window()
    qtbot.addWidget(window)
    games = online_games(window)
    first = OnlineDialog(games, window)
    first.name.setText("Gil")
    first.server.setText("nats://example.org:4222")
    first.game.setCurrentIndex(first.game.findData("carcassonne"))
    first.remember()
    again = OnlineDialog(games, window)
    assert (again.name.text(), again.server.text(), again.game.currentData()) == \
        ("Gil", "nats://example.org:4222", "carcassonne")


def test_the_join_tab_lists_the_servers_public_tables(qtbot, server):
    import asyncio

    from stateside.online import client as C

    open_table = asyncio.run(C.host_table(server.guest_url(), "ten-days", ["human", "human"], ["Ann", "Bo"],
                                          public=True))
    hidden = asyncio.run(C.host_table(server.guest_url(), "ten-days", ["human", "human"]))
    games = [g for g in online_games(type("W", (), {"games": __import__("stateside.games").games.discover_games()})())]
    dialog = OnlineDialog(games)
    qtbot.addWidget(dialog)
    dialog.server.setText(f"127.0.0.1:{server.port}")
    dialog.refresh_tables()
    qtbot.waitUntil(lambda: dialog.refresh_button.isEnabled() and dialog.open_tables.count() > 0
                    and "Looking" not in dialog.open_tables.item(0).text(), timeout=10000)
    texts = [dialog.open_tables.item(i).text() for i in range(dialog.open_tables.count())]
    assert texts == [f"{open_table['table']}  10 Days in the USA: Ann, Bo \u2014 2 seat(s) free"]
    assert hidden["table"] not in " ".join(texts)
    dialog.open_tables.setCurrentRow(0)
    assert dialog.code.text() == open_table["table"]


def test_a_third_window_finds_a_public_table_and_watches_it_to_the_end(qtbot, server):
    """Two players at a public table; a third finds it in the dialog's list, presses Watch
    and sees the moves in the words every seat may read (the deal's cards stay hidden)."""
    import asyncio

    from PySide6.QtWidgets import QWidget

    from stateside.online import client as C
    from test_online_play import seeded_random

    host = asyncio.run(C.host_table(server.guest_url(), "ten-days", ["human", "human"], ["Ann", "Bo"],
                                    {"turn_limit": 4}, seed=31, public=True))
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.games = __import__("stateside.games").games.discover_games()
    dialog = OnlineDialog(online_games(parent), parent)
    dialog.server.setText(f"127.0.0.1:{server.port}")
    dialog.refresh_tables()
    qtbot.waitUntil(lambda: dialog.refresh_button.isEnabled() and host["table"] in dialog.open_tables.item(0).text(),
                    timeout=10000)
    dialog.open_tables.setCurrentRow(0)
    assert dialog.code.text() == host["table"]
    dialog._watch()
    window = dialog.watching
    qtbot.waitUntil(lambda: window.spectator is not None and "Waiting for Ann, Bo" in window.heading.text(),
                    timeout=10000)

    async def play():
        seats = [await C.SeatClient(server.guest_url(), await C.join_table(server.guest_url(), host["table"], s))
                 .connect() for s in (0, 1)]
        await asyncio.gather(*(c.play(seeded_random(31), timeout=60) for c in seats))
        full = seats[0].verify()
        for c in seats:
            await c.close()
        return full
    full = asyncio.run(play())
    qtbot.waitUntil(lambda: "The game is over" in window.heading.text(), timeout=10000)
    qtbot.waitUntil(lambda: window.moves.count() == len(full.log), timeout=10000)
    texts = [window.moves.item(i).text() for i in range(window.moves.count())]
    from stateside.engine.protocol import SPECTATOR

    assert texts == [e.words_for(SPECTATOR) for e in full.log]   # the rules' words for a spectator
    assert any(e.words_for(SPECTATOR) != e.words_for(None) for e in full.log)   # (some moves were hidden)
    assert any("Ann" in t for t in texts) and any("Bo" in t for t in texts)
    window.close()


def test_the_host_gives_the_seat_gil_left_to_a_computer_and_the_game_goes_on(qtbot, show_mode, server):
    a = show_mode(TenDaysMode)
    sa, other = host_and_join(qtbot, a, server)
    assert not sa.computer_action.isEnabled()   # every seat is held
    other.leave()
    qtbot.waitUntil(lambda: sa.computer_action.isEnabled(), timeout=10000)
    assert a.online_note.endswith("or Game \u203a Give the empty seat to a computer")
    sa.computer_action.trigger()
    qtbot.waitUntil(lambda: a.online_note == "" and a.is_human_turn(), timeout=10000)
    assert sa.client.info["seats"] == ["human", "ai:easy"]
    a.leave_online()


def test_every_turn_screen_shows_who_left_or_lost_connection(qtbot, show_mode):
    """The table's note (presence_note) reaches each turn-based game's screen, not only the
    status bar: 10 Days' banner, Carcassonne's hint (with what to do after it)."""
    from fake_table import FakeSession, referee_views

    from stateside.engine.match import Match, rules_for
    from stateside.games.carcassonne.mode import CarcassonneMode

    for mode_class, game, text in ((TenDaysMode, "ten-days", lambda m: m.banner.text()),
                                   (CarcassonneMode, "carcassonne", lambda m: m.hint.text())):
        mode = show_mode(mode_class)
        match = Match(game, ["human", "human"], 4, {**rules_for(game).default_setup(2), "players": ["Ann", "Gil"]})
        match.resolve_chance()
        session = FakeSession(0)
        mode.attach_online(session)
        view = list(referee_views(match, 0))[-1]
        view.update(table="K7QX3M", seat=0, to_move=1,
                    info={**view["info"], "joined": {"0": "Ann", "1": "Gil"}, "lost": [1]})
        session.update.emit(view)
        assert mode.online_note == "Gil lost connection; the table waits."
        assert "Gil lost connection; the table waits." in text(mode)
        del view["info"]["joined"]["1"]
        view["info"]["lost"], view["status"] = [], "lobby"
        session.update.emit(view)
        assert mode.online_note.startswith("Gil left; the table waits. Share code K7QX3M")
        assert "Gil left; the table waits." in text(mode)


def test_the_real_time_screen_shows_who_lost_connection_and_who_is_back(qtbot, show_mode):
    """Scrambled States' screen reads the same presence words as the turn-based ones: in its
    banner while a player is away, and on the status bar when they are back."""
    from fake_table import FakeSession, referee_views

    from stateside.engine.match import Match, rules_for
    from stateside.games.scrambled_states.mode import ScrambledStatesMode

    mode = show_mode(ScrambledStatesMode)
    said = []
    mode.status.connect(said.append)
    match = Match("scrambled-states", ["human", "human"], 4,
                  {**rules_for("scrambled-states").default_setup(2), "players": ["Ann", "Gil"]})
    match.resolve_chance()
    session = FakeSession(0)
    mode.attach_online(session)
    view = list(referee_views(match, 0))[-1]
    view.update(table="K7QX3M", seat=0, info={**view["info"], "joined": {"0": "Ann", "1": "Gil"}, "lost": [1]})
    session.update.emit(view)
    assert mode.play_table.online.note.startswith("Gil lost connection")
    assert "Gil lost connection" in mode.side_panel.banner.text()
    view["info"]["lost"] = []
    session.update.emit(view)
    assert mode.play_table.online.note == "" and "Gil is back." in said
