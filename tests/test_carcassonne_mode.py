"""The Carcassonne table mode: placing a tile and a follower by clicking, turning the
tile, taking it back, computer turns, saving and resuming."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from stateside.board.view import BoardView
from stateside.errors import SaveError
from stateside.games.carcassonne.engine import Setup
from stateside.games.carcassonne.mode import CarcassonneMode

HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]


@pytest.fixture
def mode(qtbot):
    m = CarcassonneMode(BoardView())
    qtbot.addWidget(m)
    m.resize(1200, 760)
    m.show()
    m.activate()
    qtbot.waitExposed(m)
    m.ai_delay_ms = 0
    return m


def view_point(mode, scene_point) -> QPoint:
    return mode.view.mapFromScene(scene_point)


def click_square(qtbot, mode, x, y):
    qtbot.mouseClick(mode.view.viewport(), Qt.LeftButton, pos=view_point(mode, mode.table.square_rect(x, y).center()))


def test_the_default_game_is_a_person_against_the_computer(mode):
    assert [s["kind"] for s in mode.seats] == ["human", "easy"]
    assert mode.game.current == 0 and mode.game.drawn is not None
    assert not mode.board_slot.isVisible()      # the open table does not show the map
    assert mode.table.targets                   # the squares where the tile fits are marked


def test_placing_a_tile_and_a_follower_by_clicking(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], seed=4), HUMANS)
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.rot = rot
    mode.refresh()
    click_square(qtbot, mode, x, y)
    assert g.pending == (x, y, rot)
    assert mode.btn_confirm.isEnabled() and mode.btn_back.isEnabled()
    options = g.follower_options(x, y, rot)
    assert options and len(mode.table.spots) == len(options)
    seg = options[0]
    tile = g.tiles[g.drawn]
    anchor = mode.table.anchor_point(tile, rot, (x, y), seg)
    qtbot.mouseClick(mode.view.viewport(), Qt.LeftButton, pos=view_point(mode, anchor))
    assert mode.chosen == seg
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert g.turn == 1 and (x, y) in g.board and g.pending is None
    if g.events:      # the follower's feature was finished at once and scored
        assert g.events[0].seats == (0,) and g.supply[0] == 7
    else:
        assert g.followers_on_board() == [(0, (x, y), seg)] and g.supply[0] == 6
    assert len(mode.table.tiles) == 2 and g.current == 1


def test_a_click_where_the_tile_fits_only_turned_turns_it_to_fit(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], seed=4), HUMANS)
    g = mode.game
    tile = g.tiles[g.drawn]
    spot = next(((x, y), r) for x, y, r in g.legal_placements() if len(g.fits(tile, (x, y))) < 4)
    (x, y), r = spot
    mode.rot = next(k for k in range(4) if k not in g.fits(tile, (x, y)))
    click_square(qtbot, mode, x, y)
    assert g.pending is not None and g.pending[:2] == (x, y) and g.pending[2] in g.fits(tile, (x, y))


def test_turning_the_tile_with_r_and_the_wheel_and_taking_it_back(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], seed=4), HUMANS)
    qtbot.keyClick(mode.view, Qt.Key_R)
    assert mode.rot == 1
    mode.view.wheelTurned.emit(-1)
    assert mode.rot == 0
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.rot = rot
    click_square(qtbot, mode, x, y)
    assert g.pending is not None and mode.can_undo()
    qtbot.keyClick(mode.view, Qt.Key_Backspace)
    assert g.pending is None and g.turn == 0 and (x, y) not in g.board


def test_a_click_off_the_table_changes_nothing_and_says_why(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], seed=4), HUMANS)
    messages = []
    mode.status.connect(messages.append)
    click_square(qtbot, mode, 3, 3)
    assert mode.game.pending is None
    assert messages and "must touch" in messages[-1]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_computer_answers_after_a_persons_turn(qtbot, mode, level):
    mode.start_game(Setup(players=["Ann", "Cpu"], seed=9), [HUMANS[0], {"name": "Cpu", "kind": level}])
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    g.place(x, y, rot)
    mode.confirm_turn()
    qtbot.waitUntil(lambda: g.turn == 2, timeout=5000)
    assert g.current == 0 and len(mode.table.tiles) == 3


def test_save_and_resume_the_same_game(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], seed=4), HUMANS)
    g = mode.game
    for _ in range(3):
        x, y, rot = g.legal_placements()[0]
        g.place(x, y, rot)
        mode.confirm_turn()
    state = mode.save_state()
    mode.start_game(Setup(players=["Ann", "Bob"], seed=5), HUMANS)
    mode.load_state(state)
    assert mode.game.turn == 3 and mode.game.actions == g.actions and mode.game.drawn == g.drawn
    with pytest.raises(SaveError):
        mode.load_state({"game": {"setup": {}}, "seats": HUMANS})
    assert mode.game.turn == 3      # a broken save leaves the game as it was
