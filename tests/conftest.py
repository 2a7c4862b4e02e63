import os

import pytest

# Qt tests run without a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path, monkeypatch):
    """Settings, autosaves and game histories of a test go to its own folder, never the
    person's real ones."""
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def show_mode(qtbot):
    """Open a game's mode on a fresh board, shown and active: show_mode(ModeClass)."""
    from stateside.board.view import BoardView

    def show(mode_class, size=(1280, 760)):
        mode = mode_class(BoardView())
        qtbot.addWidget(mode)
        mode.resize(*size)
        mode.show()
        mode.activate()
        qtbot.waitExposed(mode)
        return mode

    return show


@pytest.fixture
def open_window(qtbot):
    """The main window, shown at a mode (the Map explorer by default):
    open_window(persist=False, size=(1280, 800), mode="explorer")."""
    def open_(persist=False, size=(1280, 800), mode="explorer"):
        from stateside.app.main import MainWindow

        w = MainWindow(persist=persist)
        qtbot.addWidget(w)
        w.resize(*size)
        if mode:
            w.open_mode(mode)
        w.show()
        qtbot.waitExposed(w)
        return w

    return open_


@pytest.fixture(autouse=True)
def _no_undo_beat(monkeypatch):
    """Computers answer a person's move after their usual short delay in tests (the beat
    that lets a person take a move back is a setting; the tests of undo set it), and
    pieces appear in place without animation (a setting too)."""
    try:
        from stateside.app.mode import GameMode
    except ImportError:   # a machine without Qt: only the pure tests run
        return
    monkeypatch.setattr(GameMode, "undo_beat_ms", 0)
    from stateside.board.motion import Motion

    monkeypatch.setattr(Motion, "duration_ms", 0)   # pieces appear in place (tests of motion set it)


@pytest.fixture(autouse=True)
def _no_window_left_open():
    """A window a test leaves open (a game's final scores, a message box a window showed
    on its own) is closed after it: an application-modal box left up would swallow the
    mouse in every later test."""
    yield
    import sys

    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        return
    for widget in app.topLevelWidgets():
        if widget.isVisible():
            widget.close()
