"""Carcassonne on the USA maps in the real main window (issue 25): the map survives a
switch to another game and back, F and a replay of a map save; the map fits the window."""
from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import Qt

from stateside.app.main import MainWindow
from stateside.engine.saves import save_game
from stateside.games.carcassonne.engine import Setup
from stateside.games.carcassonne.usa import MapGame

HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]


@pytest.fixture
def window(qtbot):
    w = MainWindow(persist=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.open_mode("carcassonne")
    w.show()
    qtbot.waitExposed(w)
    return w


def map_drawn(mode) -> bool:
    """The map's layer is alive, on the board's scene, and has a game to draw."""
    item = mode.map_item
    return (item is not None and shiboken6.isValid(item) and item.scene() is mode.board.scene()
            and item.game is mode.game and item.isVisible())


def test_a_map_survives_a_switch_to_another_game_and_back_and_a_replay(qtbot, window, tmp_path):
    mode = window.current
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-east"), HUMANS, seed=3)
    assert map_drawn(mode)
    first = mode.map_item
    window.open_mode("america")
    window.open_mode("carcassonne")             # raised "Internal C++ object (MapLayer) already deleted"
    assert map_drawn(mode) and mode.map_item.targets
    window.open_mode("ten-days")
    window.open_mode("carcassonne")
    qtbot.keyClick(mode, Qt.Key_F)
    assert map_drawn(mode)
    assert shiboken6.isValid(first)             # the mode owns its layer: nothing deleted it
    # Game > Replay of a map save, after yet another switch
    path = tmp_path / "east.json"
    save_game(path, mode.save_state())
    window.open_mode("explorer")
    from PySide6.QtWidgets import QFileDialog
    qtbot_patch = pytest.MonkeyPatch()
    qtbot_patch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    try:
        window.replay()
    finally:
        qtbot_patch.undo()
    assert window.current is mode and mode.replaying is not None
    assert isinstance(mode.game, MapGame) and map_drawn(mode)
