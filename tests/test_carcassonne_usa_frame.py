"""Carcassonne on the USA maps in the real main window (issue 25): the map survives a
switch to another game and back, F and a replay of a map save; the map fits the window."""
from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import QPoint, Qt

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


def test_the_small_states_tabs_go_while_a_map_is_played_and_come_back_after(window):
    """The callout tabs of the small eastern states stand for states, which nobody clicks
    on Carcassonne's squares (and the squares' fit cut them off): hidden on a map, shown on
    the open table and in every other game."""
    mode, board = window.current, window.current.board
    tabs = [board.state_tab_rect(code) for code in ("RI", "DE", "NJ")]
    assert all(t is not None for t in tabs)

    def tab_shown(code):
        return board.state_at(board.state_tab_rect(code).center()) == code
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa"), HUMANS, seed=3)
    assert not any(tab_shown(c) for c in ("RI", "DE", "NJ"))
    window.open_mode("ten-days")
    assert all(tab_shown(c) for c in ("RI", "DE", "NJ"))
    window.open_mode("carcassonne")
    assert not tab_shown("RI")
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=3)   # the open table
    window.open_mode("america")
    assert tab_shown("RI")


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
    target = min(item.targets | item.other)
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


def test_a_fresh_setup_offers_you_and_a_computer_and_then_remembers_the_last_choice(qtbot, monkeypatch):
    from PySide6.QtWidgets import QDialog

    from stateside.app.setup_screen import SetupScreen

    first = MainWindow(persist=True)
    qtbot.addWidget(first)
    mode = first.open_mode("carcassonne")
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    assert dialog.count.value() == 2
    assert [(c.name, c.kind) for c in dialog.seats()] == [("You", "human"), ("Computer", "ai:easy")]

    def answer(dialog):
        variant, _ = dialog.form.carcassonne
        variant.setCurrentIndex(variant.findData("usa-east"))
        dialog.count.setValue(3)
        dialog.names[0].setText("Ada")
        dialog.kind_boxes[2].setCurrentIndex(dialog.kind_boxes[2].findData("ai:hard"))
        return QDialog.Accepted
    monkeypatch.setattr(SetupScreen, "exec", answer)
    mode.new_game()
    assert mode.game.conf.variant == "usa-east" and mode.game.names == ["Ada", "Computer", "Computer 3"]
    first.close()
    # a later window (the same settings folder) offers the same again
    later = MainWindow(persist=True)
    qtbot.addWidget(later)
    again = later.open_mode("carcassonne").setup_screen()
    qtbot.addWidget(again)
    assert again.count.value() == 3 and again.options()["variant"] == "usa-east"
    assert [(c.name, c.kind) for c in again.seats()] == [("Ada", "human"), ("Computer", "ai:easy"),
                                                         ("Computer 3", "ai:hard")]
    later.close()


def test_a_broken_setup_memory_is_ignored(qtbot, window):
    mode = window.current
    mode._setup_memory().parent.mkdir(parents=True, exist_ok=True)
    mode._setup_memory().write_text('{"seats": [{"name": "X", "kind": "wizard"}], "setup": {}}')
    assert mode.remembered_setup() is None
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    assert dialog.count.value() == 2


def test_new_game_asks_before_a_game_in_progress_is_lost(qtbot, window, monkeypatch):
    from stateside.app.setup_screen import SetupScreen

    mode = window.current
    asked, opened = [], []
    monkeypatch.setattr(MainWindow, "confirm_discard", lambda self, q="": asked.append(q) or False)
    monkeypatch.setattr(SetupScreen, "exec", lambda dialog: opened.append(dialog) or 0)
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-west"), HUMANS, seed=3)
    mode.btn_new.click()                        # nobody has moved: nothing to lose
    assert not asked and len(opened) == 1
    item = mode.map_item
    qtbot.waitUntil(lambda: fitted(mode))
    target = min(item.targets)
    qtbot.mouseClick(mode.board.viewport(), Qt.LeftButton, pos=mode.board.mapFromScene(item.square_rect(target).center()))
    assert target in mode.game.board
    for ask in (mode.btn_new.click, window.act_new.trigger):
        ask()
        assert len(asked) == 1 and len(opened) == 1     # asked, and the answer No kept the game
        asked.clear()
    assert target in mode.game.board


def test_the_command_line_opens_a_map_or_a_map_save(qtbot, tmp_path, monkeypatch, capsys):
    from stateside.__main__ import main

    seen = []
    real_close = MainWindow.close

    def close(self):          # what the window showed when the screenshot was taken
        mode = self.current
        seen.append((mode.game_id, type(mode.game).__name__, getattr(mode.game.conf, "variant", None),
                     bool(getattr(mode, "map_item", None)) and map_drawn(mode)))
        return real_close(self)
    monkeypatch.setattr(MainWindow, "close", close)
    out = str(tmp_path / "shot.png")
    assert main(["--screenshot", out, "--map", "usa-east"]) == 0
    assert seen.pop() == ("carcassonne", "MapGame", "usa-east", True)
    assert main(["--screenshot", out, "--mode", "carcassonne", "--map", "table"]) == 0
    assert seen.pop()[:3] == ("carcassonne", "Game", "table")
    # a map save named on the command line opens on its map
    from stateside.engine.match import Match
    from stateside.games.carcassonne.engine import Game
    match = Match("carcassonne", ["human", "ai:easy"], 5, {**Game.default_setup(2), "variant": "usa-west"})
    for _ in range(6):
        match.step() if not match.waiting_for_human() else match.apply(match.state.legal_actions()[0])
    save = tmp_path / "west.json"
    save_game(save, match.to_json())
    assert main([str(save), "--screenshot", out]) == 0
    assert seen.pop() == ("carcassonne", "MapGame", "usa-west", True)
    # wrong values: one line each, naming the boards
    capsys.readouterr()
    assert main(["--map", "usa-north"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usa-north" in err and "usa-west, usa-east, usa" in err
    assert main(["--map", "usa", "--mode", "america"]) == 2
    assert "--map goes with Carcassonne" in capsys.readouterr().err
    assert main([str(save), "--map", "usa"]) == 2


def test_F1_opens_at_the_rules_of_the_board_being_played(window):
    mode = window.current
    assert mode.help_html().index("open table") < mode.help_html().index("Carcassonne Maps")
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-east"), HUMANS, seed=3)
    text = mode.help_html()
    assert text.index("Carcassonne Maps") < text.index("open table's rules") and "on USA East" in text[:400]


def test_a_looked_at_tile_is_shown_large_while_the_button_is_held(qtbot, window):
    mode = window.current
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-west"), HUMANS, seed=3)
    qtbot.waitUntil(lambda: fitted(mode))
    g = mode.game
    pos = sorted(g.covert)[len(g.covert) // 2]
    t = next(iter(g.deck))                               # as after a look by Ann (seat 0)
    g._take(t)
    g.covert[pos] = t
    g.known[pos] = frozenset({0})
    mode.refresh()
    b = mode.board
    square = b.mapFromScene(mode.map_item.square_rect(pos)).boundingRect()
    beside = square.center() - QPoint(int(square.width() * 0.8), 0)     # left of the square

    def colour_beside():
        b.viewport().repaint()
        return b.viewport().grab().toImage().pixelColor(beside)
    covered_not = colour_beside()
    mode.btn_peek.pressed.emit()
    assert mode.map_item.secret_for == 0
    assert colour_beside() != covered_not               # the tile, twice the square, reaches past it
    mode.btn_peek.released.emit()
    assert colour_beside() == covered_not


def test_a_zoom_from_the_view_menu_is_kept_through_a_resize_too(qtbot, window):
    mode = window.current
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-east"), HUMANS, seed=3)
    qtbot.waitUntil(lambda: fitted(mode))
    whole = mode.square_px()
    window.board.zoom_by(1.5)                 # View > Zoom in: not through the mode
    window.resize(1100, 760)
    qtbot.waitUntil(lambda: mode.board.viewport().width() < 968)
    qtbot.wait(1)
    assert not fitted(mode)                    # still zoomed in: part of the map off view
    zoomed = mode.square_px()
    qtbot.keyClick(mode, Qt.Key_F)
    assert fitted(mode) and mode.square_px() < zoomed and mode.square_px() < whole
