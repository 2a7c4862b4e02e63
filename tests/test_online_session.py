"""Issue 27, finding 5 (the app's side): what the table sends that this screen cannot use is
said once, the seat is given up, and the session stops, instead of a traceback every
30 ms (OnlineSession._drain) and a game that never shows. No server: the session's queue
is fed as its worker thread would."""
import pytest

pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineDialog, OnlineSession, attach_session, online_games  # noqa: E402
from stateside.engine.match import rules_for  # noqa: E402

HUGE = 2**70   # past 64 bits: a Qt variant cannot hold it


def view(game: str, setup: dict, status: str = "playing") -> dict:
    """A seat's view as the session's worker posts it (OnlineSession._snapshot)."""
    return {"table": "K7QX3M", "seat": 1, "n": 0, "entries": [], "observation": None, "legal": [],
            "to_move": 0, "status": status, "info": {"game": game, "seats": ["human", "human"], "setup": setup,
                                                     "joined": {}}}


def test_a_setup_the_screen_cannot_show_is_said_once_and_the_seat_given_up(qtbot):
    from stateside.app.main import MainWindow

    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    session = OnlineSession("127.0.0.1:1", poll_ms=5)   # connected to nothing
    session.table, session.seat, session.game = "K7QX3M", 1, "ten-days"
    mode = attach_session(window, session)
    before = mode.match
    said, connection, closed = [], [], []
    mode.status.connect(said.append)
    session.connection.connect(connection.append)
    session.closed.connect(lambda: closed.append(True))
    setup = {**rules_for("ten-days").default_setup(2), "first_player": HUGE}
    session._inbox.put(("connection", False))   # a message before it is still delivered
    for _ in range(3):   # the worker posts the view again and again
        session._inbox.put(("update", view("ten-days", setup)))
    qtbot.waitUntil(lambda: bool(closed))
    for _ in range(3):   # nothing more is shown once the table is left
        session._inbox.put(("update", view("ten-days", setup)))
    session._drain()
    problems = [s for s in said if "cannot be shown here" in s]
    assert problems == [f"Table K7QX3M: the table's setup cannot be shown here: first player {HUGE} is not a seat "
                        "of 2. You have left the table."]
    assert connection == [False]
    assert mode.online is None and mode.match is before   # back to the game played here before
    assert not session.timer.isActive() and window.current is mode


def test_the_lobby_takes_numbers_past_64_bits_and_says_what_it_cannot_show(qtbot):
    from stateside.games import discover_games

    class Window:   # what online_games reads of the main window
        games = discover_games()

    dialog = OnlineDialog([g for g in online_games(Window()) if g[0] == "ten-days"])
    qtbot.addWidget(dialog)
    session = dialog._session()
    session.table = "K7QX3M"
    # A host's setup with a huge number still reaches the lobby (a Signal(dict) failed in emit).
    setup = {**rules_for("ten-days").default_setup(2), "turn_limit": HUGE}
    session._inbox.put(("update", view("ten-days", setup, status="lobby")))
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1)
    assert "Player 1" in dialog.seated.text()
    # A lobby whose names are no list: said in the dialog, once, and the seat is given up.
    session._inbox.put(("lobby", {"table": "K7QX3M", "seat": 1, "status": "lobby", "names": 7, "seats": [],
                                  "joined": {}}))
    qtbot.waitUntil(lambda: session._closed is True)
    assert dialog.pages.currentIndex() == 0
    assert dialog.message.text().startswith("Table K7QX3M: the table's lobby cannot be shown here: TypeError:")
    assert dialog.host_button.isEnabled()
