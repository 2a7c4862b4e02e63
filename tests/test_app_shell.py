"""The app shell of issue 11: asking before a game is thrown away, the window title, the
last folder, Open from every mode, Replay, the minimum size (item 5); status messages
that stay in their own mode (item 6); start-up: the board's shape cache and the explorer's panel after the map's first paint (item 8)."""
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox, QPushButton

from stateside.app.main import MINIMUM_SIZE, MainWindow
from stateside.engine.saves import save_game

DASH = "\u2013"


@pytest.fixture
def window(open_window):
    w = open_window(persist=True)
    yield w
    w.close()


def ten_days(window):
    mode = window.open_mode("ten-days")
    assert window.game_in_progress(mode)   # a game against the computer starts by itself
    return mode


# ---------------------------------------------------------------- item 5: New and Open ask first
def test_new_asks_before_replacing_a_game_in_progress(window, monkeypatch):
    mode = ten_days(window)
    asked, started = [], []
    monkeypatch.setattr(mode, "new_game", lambda: started.append(True))
    monkeypatch.setattr(window, "confirm_discard", lambda *a: asked.append(a) or False)
    window.act_new.trigger()
    assert len(asked) == 1 and started == []   # "No": the game goes on, no setup dialog
    monkeypatch.setattr(window, "confirm_discard", lambda *a: asked.append(a) or True)
    window.act_new.trigger()
    assert len(asked) == 2 and started == [True]


def test_new_does_not_ask_without_a_game_in_progress(window, monkeypatch):
    mode = ten_days(window)
    started = []
    monkeypatch.setattr(mode, "new_game", lambda: started.append(True))
    monkeypatch.setattr(mode, "game_in_progress", lambda: False, raising=False)   # a mode's own hook wins
    monkeypatch.setattr(window, "confirm_discard", lambda *a: pytest.fail("asked without a game in progress"))
    window.new_game()
    assert started == [True]


def test_the_question_and_its_answers(window, monkeypatch):
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((text, default))
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    answer = QMessageBox.No
    assert window.confirm_discard() is False
    answer = QMessageBox.Yes
    assert window.confirm_discard() is True
    assert asked[0] == ("Start a new game? The game in progress will be lost.", QMessageBox.No)


def test_open_asks_before_loading_over_a_game_in_progress(window, tmp_path, monkeypatch):
    mode = ten_days(window)
    save = tmp_path / "other.json"
    save_game(save, mode.save_state())
    mode.start_game(list(mode.seats), seed=5)   # the game in progress now differs from the file
    in_progress = mode.save_state()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(save), ""))
    monkeypatch.setattr(window, "confirm_discard", lambda *a: False)
    window.open_file()
    assert mode.save_state() == in_progress
    monkeypatch.setattr(window, "confirm_discard", lambda *a: True)
    window.open_file()
    assert mode.save_state() != in_progress


def test_open_works_from_the_map_explorer_and_switches_game(window, tmp_path, monkeypatch):
    first = MainWindow(persist=False)
    source = first.open_mode("ten-days")
    save = tmp_path / "trip.json"
    save_game(save, source.save_state())
    first.close()
    assert window.current.game_id == "explorer"
    assert window.act_open.isEnabled() and window.act_replay.isEnabled()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(save), ""))
    monkeypatch.setattr(window, "confirm_discard", lambda *a: pytest.fail("no game in progress to lose"))
    window.act_open.trigger()
    assert window.current.game_id == "ten-days"
    assert window.current.save_state() == source.save_state()


# ---------------------------------------------------------------- item 5: title and folders
def test_title_names_the_file_after_save_and_open_and_not_after_new(window, tmp_path, monkeypatch):
    mode = ten_days(window)
    assert window.windowTitle() == f"10 Days in the USA {DASH} Stateside"
    target = tmp_path / "saves" / "my trip.json"
    target.parent.mkdir()
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda _p, _c, start, _f: offered.append(start)
                        or (str(target), ""))
    window.act_save.trigger()
    assert target.exists()
    assert window.windowTitle() == f"my trip.json {DASH} 10 Days in the USA {DASH} Stateside"
    window.save_file()   # Save offers the current file's name, in the folder last used
    assert offered[1] == str(target.parent.resolve() / "my trip.json")
    mode.changed.emit()   # a move does not make the game another file
    assert window.windowTitle().startswith("my trip.json")
    window.open_mode("explorer")   # another mode: its own title
    assert window.windowTitle() == f"Map explorer {DASH} Stateside"
    window.open_mode("ten-days")   # back: the file is still the one open here
    assert window.windowTitle().startswith("my trip.json")
    monkeypatch.setattr(window, "confirm_discard", lambda *a: True)
    monkeypatch.setattr(mode, "new_game", lambda: mode.start_game(list(mode.seats), seed=11))
    window.act_new.trigger()
    assert window.windowTitle() == f"10 Days in the USA {DASH} Stateside"
    assert window.load_file(str(target))
    assert window.windowTitle() == f"my trip.json {DASH} 10 Days in the USA {DASH} Stateside"


def test_open_and_save_start_in_the_folder_last_used_and_it_is_remembered(qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "games"
    folder.mkdir()
    save = folder / "g.json"
    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    save_game(save, w.open_mode("ten-days").save_state())
    assert w.last_folder() == str(Path.home())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(save), ""))
    monkeypatch.setattr(w, "confirm_discard", lambda *a: True)
    w.open_file()
    starts = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda _p, _c, start, _f: starts.append(start) or ("", ""))
    w.open_file()
    assert starts == [str(folder.resolve())]
    w.close()
    again = MainWindow(persist=True)   # kept in the settings for the next start
    qtbot.addWidget(again)
    assert again.last_folder() == str(folder.resolve())
    again.close()
    memory_only = MainWindow(persist=False)   # --screenshot: nothing read or written
    qtbot.addWidget(memory_only)
    assert memory_only.last_folder() == str(Path.home())
    memory_only.remember_folder(save)
    assert memory_only.last_folder() == str(folder.resolve())


# ---------------------------------------------------------------- item 5: Replay
def test_replay_sits_between_play_online_and_undo_with_ctrl_r(window):
    actions = [a for a in window.game_menu.actions() if not a.isSeparator()]
    names = [a.text() for a in actions]
    assert names.index("Play on&line\u2026") + 1 == names.index("&Replay\u2026") == names.index("&Undo") - 1
    assert window.act_replay.shortcut().toString() == "Ctrl+R"
    for mode_id in window.mode_ids():
        window.open_mode(mode_id)
        assert window.act_replay.isEnabled() and window.act_open.isEnabled(), mode_id


def test_replay_without_the_replay_module_says_so(window, monkeypatch):
    monkeypatch.setitem(sys.modules, "stateside.app.replay", None)   # import raises ImportError
    said = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text: said.append(text))
    window.act_replay.trigger()
    assert said == ["Replays are not available in this build."]


# ---------------------------------------------------------------- item 5: minimum size
def _cut_off(window) -> list[str]:
    """Visible buttons and labels of the mode shown that stick out of the window (a
    widget in a scroll area can be scrolled to, and does not count)."""
    from PySide6.QtWidgets import QAbstractScrollArea

    frame = window.rect()
    bad, checked = [], 0
    for widget in window.current.findChildren(QPushButton) + window.current.findChildren(QLabel):
        if not widget.isVisibleTo(window) or widget.width() <= 0:
            continue
        parent, scrolled = widget.parentWidget(), False
        while parent is not None and parent is not window:
            scrolled = scrolled or isinstance(parent, QAbstractScrollArea)
            parent = parent.parentWidget()
        if scrolled:
            continue
        checked += 1
        rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
        if not frame.contains(rect):
            bad.append(f"{type(widget).__name__} {widget.objectName() or widget.text()[:30]!r} at {rect}")
    assert checked > 0, f"{window.current.game_id}: no panel widget to check"
    return bad


@pytest.mark.parametrize("size", [MINIMUM_SIZE, (1920, 1080)])
def test_every_mode_fits_at_the_minimum_size_and_at_full_hd(qtbot, size):
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    assert (w.minimumSize().width(), w.minimumSize().height()) == MINIMUM_SIZE
    w.resize(320, 320)   # the window does not go below its minimum
    assert (w.width(), w.height()) == MINIMUM_SIZE
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    for mode_id in w.mode_ids():
        w.open_mode(mode_id)
        getattr(w.current, "ensure_panel", lambda: None)()   # the explorer's comes after a paint
        qtbot.wait(20)
        assert (w.width(), w.height()) == size
        assert _cut_off(w) == [], mode_id
        if w.board.isVisibleTo(w):
            assert w.board.width() >= 300 and w.board.height() >= 300, (mode_id, w.board.size())
    w.close()


# ---------------------------------------------------------------- item 6: status messages
def test_a_modes_status_message_never_shows_in_another_mode(window):
    mode = ten_days(window)
    bar = window.statusBar()
    mode.status.emit("Ten days: your turn")
    assert bar.currentMessage() == "Ten days: your turn"
    explorer = window.open_mode("explorer")
    assert bar.currentMessage() == ""   # the explorer has said nothing yet: cleared
    mode.status.emit("Ten days: the computer took a card")   # from the mode not shown
    assert bar.currentMessage() == ""
    explorer.select("CO")
    assert bar.currentMessage() == "Colorado: 6 neighbours"
    window.open_mode("ten-days")   # back: its own last message, not the explorer's
    assert bar.currentMessage() == "Ten days: the computer took a card"
    window.open_mode("explorer")
    assert bar.currentMessage() == "Colorado: 6 neighbours"


def test_after_a_resume_the_status_bar_says_so_and_keeps_the_modes_message(qtbot, monkeypatch):
    from stateside.games.ten_days.mode import TenDaysMode

    first = MainWindow(persist=True)
    qtbot.addWidget(first)
    first.open_mode("ten-days")
    first.close()
    load = TenDaysMode.load_state

    def load_and_say(self, state):   # what the mode's panel says about the resumed game
        load(self, state)
        self.status.emit("Day 3: your turn.")

    monkeypatch.setattr(TenDaysMode, "load_state", load_and_say)
    second = MainWindow(persist=True)
    qtbot.addWidget(second)
    second.open_mode("explorer")
    mode = second.open_mode("ten-days")
    assert mode.last_status == "Day 3: your turn."
    assert second.statusBar().currentMessage() == "Resumed your last game. Day 3: your turn."
    second.close()
    monkeypatch.setattr(TenDaysMode, "load_state", load)   # the mode as it is
    third = MainWindow(persist=True)
    qtbot.addWidget(third)
    mode = third.open_mode("ten-days")
    assert third.statusBar().currentMessage() == " ".join(filter(None, ["Resumed your last game.", mode.last_status]))
    assert third.statusBar().currentMessage().startswith("Resumed your last game.")
    third.close()


# ---------------------------------------------------------------- item 8: start-up
def test_the_board_shape_cache_is_written_read_and_refused_when_stale(qtbot, tmp_path, monkeypatch):
    from stateside.board import view
    from stateside.board.view import BoardView

    cache = tmp_path / "cache" / "board-shapes.bin"
    plain = BoardView()   # from the atlas
    first = BoardView(shape_cache=cache)
    assert cache.exists()
    read = []
    monkeypatch.setattr(view, "_shapes_from_atlas", lambda atlas: read.append(1) or pytest.fail("cache not used"))
    second = BoardView(shape_cache=cache)
    assert read == []
    from stateside.board import items

    items._code_paths.clear()   # the codes' text paths come back from the cache as laid out
    assert view._read_shape_cache(cache) is not None and len(items._code_paths) == 50
    for code in ("TX", "RI", "HI"):   # (the glyphs' outlines may come a hair apart from one layout to the next)
        kept = items._code_paths[code].boundingRect()
        laid_out = items.text_path(items.LABEL_FONT, code, QPointF(0, 0)).boundingRect()
        assert kept.width() > 5 and all(abs(a - b) < 0.1 for a, b in zip(kept.getRect(), laid_out.getRect())), code
    for board in (first, second):
        assert board.codes() == plain.codes()
        assert board.map_rect() == plain.map_rect()
        for code in ("HI", "MI", "RI", "AK"):
            ours, theirs = board._states[code], plain._states[code]
            assert ours.path() == theirs.path() and ours.shape() == theirs.shape()
            assert (ours.name, ours.label_at, ours.base_colour) == (theirs.name, theirs.label_at, theirs.base_colour)
    assert second.state_at(second.state_anchor("TX")) == "TX"
    monkeypatch.undo()
    for damage in (b"", cache.read_bytes()[:-7], b"\x00\x00\x00\x08nonsense" * 3):
        cache.write_bytes(damage)
        assert BoardView(shape_cache=cache).codes() == plain.codes()   # rebuilt from the atlas
        assert view._read_shape_cache(cache) is not None               # and the cache written again
    monkeypatch.setattr(view, "_cache_key", lambda: "another atlas")   # an edited atlas file
    assert view._read_shape_cache(cache) is None


def test_the_explorer_fills_its_panel_after_the_maps_first_paint(qtbot):
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    explorer = w.open_mode("explorer")
    assert not explorer._panel_built
    width = explorer.panel.width()
    w.resize(1280, 800)
    w.show()
    qtbot.waitUntil(lambda: explorer._panel_built, timeout=2000)
    assert explorer.panel.width() == width == 300   # the frame was there already: nothing moves
    assert explorer.title_label.text() == "<h3>No state selected</h3>"
    assert explorer.title_label.isVisible() and explorer.rules_box.count() > 1
    w.close()


def test_the_explorer_panel_is_built_at_once_when_it_is_needed(qtbot):
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    explorer = w.open_mode("explorer")   # never shown: no paint
    explorer.select("KS")
    assert explorer._panel_built and "Topeka" in explorer.fact_labels["capital"].text()
    assert w.board._states["KS"].fill is not None


def explorer_screenshot(tmp_path, size: str):
    """`stateside --screenshot` of the Map explorer at `size`, run as the command: the image."""
    import subprocess

    from PySide6.QtGui import QImage

    out = tmp_path / "explorer.png"
    result = subprocess.run([sys.executable, "-m", "stateside", "--screenshot", str(out), "--mode", "explorer",
                             "--size", size], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return QImage(str(out))


def test_a_screenshot_shows_the_explorers_panel_and_the_chooser(tmp_path):
    image = explorer_screenshot(tmp_path, "1024x700")
    assert (image.width(), image.height()) == (1024, 700)
    panel = {image.pixel(x, y) for x in range(740, 1010, 3) for y in range(70, 400, 3)}
    chooser = {image.pixel(x, y) for x in range(0, 1024, 4) for y in range(22, 52, 2)}
    assert len(panel) > 8 and len(chooser) > 8   # text in the panel and on the chooser, not blank


def test_one_running_copy_holds_the_lock_and_a_crash_leaves_none(tmp_path):
    from stateside.app.main import ProcessLock

    first, second = ProcessLock(tmp_path / "stateside.lock"), ProcessLock(tmp_path / "stateside.lock")
    assert first.tryLock()
    assert not second.tryLock()   # another window, even in the same process
    first.unlock()                # what the system does when a copy ends, however it ends
    assert second.tryLock()
    second.unlock()


def test_a_screenshot_smaller_than_the_minimum_is_the_size_asked(tmp_path):
    image = explorer_screenshot(tmp_path, "800x600")
    assert (image.width(), image.height()) == (800, 600)


def test_replay_asks_for_a_file_in_the_folder_last_used(window, tmp_path, monkeypatch):
    window.remember_folder(tmp_path / "some save.json")
    starts = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda _p, _c, start, _f: starts.append(start) or ("", ""))
    window.act_replay.trigger()   # the explorer has no finished game: a saved one is asked for
    assert starts == [str(tmp_path.resolve())]
