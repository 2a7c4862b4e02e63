"""Carcassonne on the USA maps in the real main window (issue 25): the map survives a
switch to another game and back, F and a replay of a map save; the map fits the window."""
from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import Qt

from stateside.app.main import MainWindow
from stateside.engine.saves import save_game
from stateside.games.carcassonne.engine import Setup
from stateside.games.carcassonne.usa import Lay, MapGame

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


def grid_on_screen(mode):
    b = mode.board
    return b.mapFromScene(mode.map_item.grid_rect()).boundingRect(), b.viewport().rect()


def fitted(mode) -> bool:
    """The whole grid in view (the East Coast too), as large as the viewport allows: the
    squares fill its width or its height."""
    shown, view = grid_on_screen(mode)
    return view.contains(shown) and max(shown.width() / view.width(), shown.height() / view.height()) > 0.97


@pytest.mark.parametrize("variant", ["usa-west", "usa-east", "usa"])
def test_the_map_is_fitted_on_open_and_again_on_every_resize(qtbot, window, variant):
    mode = window.current
    mode.start_game(Setup(players=["Ann", "Bob"], variant=variant), HUMANS, seed=3)
    qtbot.waitUntil(lambda: fitted(mode))
    px = mode.square_px()
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: fitted(mode) and mode.square_px() < px)
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: fitted(mode) and mode.square_px() == pytest.approx(px))


def test_a_zoom_is_kept_through_a_resize_and_F_fits_again(qtbot, window):
    mode = window.current
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-west"), HUMANS, seed=3)
    qtbot.waitUntil(lambda: fitted(mode))
    whole = mode.square_px()
    qtbot.keyClick(mode, Qt.Key_Plus)
    zoomed = mode.square_px()
    assert zoomed > whole * 1.1
    window.resize(1200, 780)
    qtbot.waitUntil(lambda: mode.board.viewport().width() < 968)
    qtbot.wait(1)     # the refit, had it been scheduled, runs in this turn of the loop
    assert mode.square_px() > whole * 1.05
    qtbot.keyClick(mode, Qt.Key_F)
    assert fitted(mode)


def test_the_tile_in_hand_is_previewed_under_the_pointer(qtbot, window):
    mode = window.current
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-east"), HUMANS, seed=3)
    qtbot.waitUntil(lambda: fitted(mode))
    g = mode.game
    item = mode.map_item
    b = mode.board
    target = sorted(item.targets | item.other)[0]
    qtbot.mouseMove(b.viewport(), b.mapFromScene(item.square_rect(target).center()))
    qtbot.waitUntil(lambda: item.preview is not None)
    pos, tile, rot = item.preview
    assert pos == target and tile is g.tiles[g.drawn]
    assert Lay(*target, rot) in g.legal_actions(g.current)       # shown as a click would lay it
    mode.turn_tile(1)
    if len([a for a in g.legal_actions(g.current) if (a.x, a.y) == target]) > 1:
        assert item.preview[2] != rot
    # over a square where it does not fit: no preview
    empty = next(p for p in sorted(item.map.squares) if p not in g.open and p not in g.board)
    qtbot.mouseMove(b.viewport(), b.mapFromScene(item.square_rect(empty).center()))
    qtbot.waitUntil(lambda: item.preview is None)
