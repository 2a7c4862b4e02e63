"""Opening a game at start-up paints its map first (issue 22, item 5): the window shows
the shared board (or the game's table colour) and builds the mode, its panels and its
resumed game just after that first paint. The figures are in benchmarks/bench_foundation.py."""
import os
import subprocess
import sys
import textwrap

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest

from startup_probe import probe_script
from stateside.app.main import DEFAULT_MARGINS, EXPLORER, MainWindow
from stateside.games import game_by_id


class Order(QObject):
    """Writes "painted" at the watched widget's first paint, "built" when the window says
    the mode is built, and how many modes the window had at the paint."""

    def __init__(self, window):
        super().__init__()
        self.window = window
        self.events: list[str] = []
        self.modes_at_paint: int | None = None
        window.opened.connect(lambda _id: self.events.append("built"))

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Paint and "painted" not in self.events:
            self.modes_at_paint = len(self.window.modes)
            self.events.append("painted")
        return False


@pytest.mark.parametrize("game_id", ["ten-days", "carcassonne"])
def test_a_games_map_paints_before_its_mode_is_built(qtbot, tmp_path, monkeypatch, game_id):
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    window = MainWindow(persist=True)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.open_mode_painting_first(game_id)
    order = Order(window)
    shown = window._opening.view   # the board, or Carcassonne's table colour
    if game_by_id(game_id).table_colour is None:
        assert shown is window.board
        shown.viewport().installEventFilter(order)
    else:
        assert shown is not window.board and not window.board.isVisibleTo(window)
        shown.installEventFilter(order)
    assert window.modes == {}   # (window.current is not asked: it would build the mode at once)
    window.show()
    qtbot.waitUntil(lambda: "built" in order.events, timeout=10000)
    assert order.events == ["painted", "built"] and order.modes_at_paint == 0
    mode = window.current
    assert mode.game_id == game_id and mode.has_game() and mode.isVisible()
    assert window.board.parent() is not None and window._opening is None
    assert window.chooser_actions[game_id].isChecked()
    window.close()


def test_asking_for_the_mode_before_the_paint_builds_it_at_once(qtbot, tmp_path, monkeypatch):
    """A menu, a save or online play that wants the mode during the first paint gets it
    whole, and it is built once."""
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    window = MainWindow(persist=True)
    qtbot.addWidget(window)
    built = []
    window.opened.connect(built.append)
    window.open_mode_painting_first("ten-days")
    mode = window.current
    assert mode is not None and mode.game_id == "ten-days" and window.modes == {"ten-days": mode}
    assert built == ["ten-days"] and window.stack.currentWidget() is mode
    window.finish_opening()   # the timer after the paint comes later: nothing more happens
    window.show()
    qtbot.waitExposed(window)
    assert built == ["ten-days"] and window.current is mode
    window.close()


def test_the_map_explorer_too_is_built_after_the_first_paint(qtbot):
    """Its frame's layout before the first paint cost about 10 ms: it waits as the games do."""
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.open_mode_painting_first(EXPLORER.id)
    assert window._opening is not None and window.modes == {}
    assert window.stack.currentWidget() is window._opening and window._opening.view is window.board
    window.show()
    qtbot.waitUntil(lambda: EXPLORER.id in window.modes, timeout=5000)
    assert window._opening is None and window.current is window.modes[EXPLORER.id]
    assert window.board.isVisibleTo(window.current)


def test_the_next_start_shows_the_map_where_the_mode_had_it(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    first = MainWindow(persist=True)
    qtbot.addWidget(first)
    first.resize(1280, 800)
    first.open_mode("america")
    first.show()
    qtbot.waitExposed(first)
    board_at = first.board.geometry()
    first.close()   # the layout is kept at the close
    second = MainWindow(persist=True)
    qtbot.addWidget(second)
    second.resize(1280, 800)
    second.open_mode_painting_first("america")
    second.show()
    qtbot.waitExposed(second)
    assert second._opening is None or second.board.geometry() == board_at   # before the mode is built
    qtbot.waitUntil(lambda: second._opening is None, timeout=10000)
    assert second.board.geometry() == board_at   # and after: nothing moved
    second.close()


def test_a_remembered_layout_is_used_only_if_it_is_four_numbers_in_range(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    window = MainWindow(persist=True)
    qtbot.addWidget(window)
    assert window._remembered_margins("america") == DEFAULT_MARGINS   # never laid out here
    for value, margins in (("0,0,340,142", (0, 0, 340, 142)), (["0", "0", "310", "0"], (0, 0, 310, 0)),
                           ("1,2,3", DEFAULT_MARGINS), (["a"], DEFAULT_MARGINS),
                           ("a,b,c,d", DEFAULT_MARGINS), ("0,0,-5,0", DEFAULT_MARGINS),
                           ("0,0,99999,0", DEFAULT_MARGINS)):
        window.settings.setValue("layout/america", value)
        assert window._remembered_margins("america") == margins, value
    window.close()


# The command: at the "painted" line, whether the game's mode module was imported yet,
# and whether PySide6 had set up its Qt namespace (see tests/test_startup.py).
WATCH = probe_script('"mode-imported"', '"stateside.games.america.mode" in sys.modules', '"qt-namespace"',
                     '"AlignmentFlag" in made')



def test_the_command_paints_the_map_before_it_imports_the_games_mode(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_CONFIG_DIR=str(tmp_path),
               STATESIDE_QUIT_AFTER_PAINT="1")
    first = subprocess.run([sys.executable, "-c", WATCH, "--mode", "america"], env=env, capture_output=True, text=True,
                           timeout=120)
    assert first.returncode == 0, first.stderr
    assert "mode-imported False qt-namespace False" in first.stdout   # as the Map explorer's map
    env["STATESIDE_QUIT_AFTER_PAINT"] = "panels"   # the benchmark's second figure: the mode painted
    whole = subprocess.run([sys.executable, "-c", WATCH, "--mode", "america"], env=env, capture_output=True, text=True,
                           timeout=120)
    assert whole.returncode == 0, whole.stderr
    assert "mode-imported True qt-namespace True" in whole.stdout   # (the hook sees it when it comes)


BROKEN = textwrap.dedent("""
    import sys
    from stateside.app import main as shell
    real = shell.load_object
    def broken(ref):
        if ref.startswith("stateside.games.ten_days.mode"):
            raise RuntimeError("no such panel")
        return real(ref)
    shell.load_object = broken
    from stateside.__main__ import main
    sys.exit(main(["--mode", "ten-days"]))
""")


def test_a_mode_named_on_the_command_line_that_cannot_open_exits_2(tmp_path):
    """Found after the map is up: the message as before, and the exit code 2."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_CONFIG_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", BROKEN], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "stateside: --mode ten-days: 10 Days in the USA could not be opened: no such panel" in run.stderr


def _entries(menu) -> list:
    return [(a.text(), [_entries(a.menu()) if a.menu() else None]) for a in menu.actions()]


def test_menus_left_for_after_the_first_paint_end_as_the_others_and_their_shortcuts_are_there_at_once(qtbot):
    """defer_menus (start-up): the titles and every action with a shortcut at once; the
    settings entries (After your move, the turn sound, Animations) filled by complete_menus,
    which the first paint, opening a game or opening the menu runs."""
    plain = MainWindow(persist=False)
    qtbot.addWidget(plain)
    deferred = MainWindow(persist=False, defer_menus=True)
    qtbot.addWidget(deferred)
    titles = [a.text() for a in deferred.menuBar().actions()]
    assert titles == [a.text() for a in plain.menuBar().actions()] == ["&Game", "&View", "&Help"]
    keys = {a.text(): a.shortcuts() for a in deferred.findChildren(QAction) if a.shortcuts()}
    assert keys == {a.text(): a.shortcuts() for a in plain.findChildren(QAction) if a.shortcuts()}
    assert "&Undo" in keys and "&Replay\u2026" in keys and len(keys) >= 10 + len(plain.games)
    assert not deferred._beat_menu.actions() and not hasattr(deferred, "act_turn_sound")
    # and a shortcut works before the menu is complete (Qt finds the action through its menu)
    with qtbot.waitActive(deferred):
        deferred.show()
        deferred.activateWindow()
    replays = []
    deferred.act_replay.triggered.disconnect()
    deferred.act_replay.triggered.connect(lambda: replays.append(1))
    QTest.keyClick(deferred.board, Qt.Key_R, Qt.ControlModifier)
    assert replays == [1] and not hasattr(deferred, "act_turn_sound")
    deferred.game_menu.aboutToShow.emit()   # the menu opened first
    assert _entries(deferred.game_menu) == _entries(plain.game_menu)
    assert _entries(deferred._motion_menu) == _entries(plain._motion_menu)
    deferred.complete_menus()   # once: nothing is added twice
    assert _entries(deferred.game_menu) == _entries(plain.game_menu)


def test_the_map_explorer_s_map_does_not_move_when_it_is_built_even_the_first_time(qtbot):
    """Never laid out before: its map where its panel (300 wide, a border at its left) leaves it."""
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.open_mode_painting_first(EXPLORER.id)
    window.show()
    qtbot.waitExposed(window)
    before = window.board.mapTo(window, window.board.rect().topLeft()), window.board.size()
    edge = window._opening.edge.geometry()
    qtbot.waitUntil(lambda: EXPLORER.id in window.modes, timeout=5000)
    qtbot.wait(1)
    after = window.board.mapTo(window, window.board.rect().topLeft()), window.board.size()
    assert after == before
    panel = window.current.panel
    assert edge.x() == panel.x() and edge.width() == 1 and panel.width() == 300
