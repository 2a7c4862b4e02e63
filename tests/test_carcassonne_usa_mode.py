"""Carcassonne Maps in the Qt mode: the map on the shared BoardView, clicking a gold square,
the follower step, the secret look's cover, a computer's turns, and New game's boards."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from stateside.board.view import BoardView
from stateside.games.carcassonne.engine import Setup
from stateside.games.carcassonne.mode import CarcassonneMode
from stateside.games.carcassonne.usa import Follow, MapGame

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


def click_square(qtbot, mode, pos):
    centre = mode.map_item.square_rect(pos).center()
    qtbot.mouseClick(mode.board.viewport(), Qt.LeftButton, pos=mode.board.mapFromScene(centre))


def test_new_game_offers_the_table_and_the_three_maps(qtbot, mode):
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    variant, sets = dialog.form.carcassonne
    assert [variant.itemText(i) for i in range(variant.count())] == \
        ["Table", "USA West", "USA East", "USA (both maps)"]
    assert sets["inns-cathedrals"].isEnabled()
    variant.setCurrentIndex(2)
    assert dialog.options()["variant"] == "usa-east"
    assert not sets["inns-cathedrals"].isEnabled()     # the map sets the tiles


@pytest.mark.parametrize("variant", ["usa-west", "usa-east", "usa"])
def test_a_map_game_shows_the_map_and_a_click_lays_the_tile(qtbot, mode, variant):
    mode.start_game(Setup(players=["Ann", "Bob"], variant=variant), HUMANS, seed=2)
    g = mode.game
    assert isinstance(g, MapGame) and g.step == "lay"
    assert mode.board_slot.isVisible() and not mode.view.isVisible()
    assert mode.map_item is not None and mode.map_item.targets
    target = sorted(mode.map_item.targets)[0]
    click_square(qtbot, mode, target)
    g = mode.game
    assert target in g.board
    if g.step == "follow":            # a follower may go on the tile: end the turn without one
        assert mode.btn_confirm.isEnabled()
        qtbot.keyClick(mode, Qt.Key_Return)
    assert mode.game.turn == 1 or mode.game.step in ("look", "flip")


def test_back_to_the_table_hides_the_map(mode):
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-east"), HUMANS, seed=2)
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=2)
    assert not mode.board_slot.isVisible() and mode.view.isVisible() and mode.map_item is None


def test_the_secret_tiles_show_only_while_the_cover_is_held(mode):
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-east"), HUMANS, seed=2)
    g = mode.game
    pos = sorted(g.covert)[0]
    t = next(iter(g.deck))                               # as after a look by Ann (seat 0)
    g._take(t)
    g.covert[pos] = t
    g.known[pos] = frozenset({0})
    mode.refresh()
    assert mode.btn_peek.isEnabled() and mode.map_item.secret_for is None
    mode.btn_peek.pressed.emit()
    assert mode.map_item.secret_for == 0
    mode.btn_peek.released.emit()
    assert mode.map_item.secret_for is None


def test_a_computer_plays_its_turns_on_the_map(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Computer"], variant="usa-east"),
                    [{"name": "Ann", "kind": "human"}, {"name": "Computer", "kind": "easy"}], seed=5)
    click_square(qtbot, mode, sorted(mode.map_item.targets)[0])
    while mode.game.current == 0 and not mode.game.finished:
        g = mode.game
        if g.step == "follow":
            assert mode.act(Follow(-1))
        elif g.step in ("look", "flip"):
            assert mode.act(g.legal_actions(0)[0])
    qtbot.waitUntil(lambda: mode.game.current == 0 and mode.game.step == "lay", timeout=10000)
    assert mode.game.turn == 2


def test_the_tiles_to_come_on_a_map_count_the_face_down_tiles_without_naming_them(qtbot, mode):
    """Issue 11: remaining tiles by type; a face-down tile someone looked at stays unseen."""
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-west"), HUMANS, seed=2)
    g = mode.game
    mode.show_tiles_left()
    entries = mode.tiles_dialog.counts.entries
    assert sum(n for _, n in entries) == g.stack + len(g.covert)
    assert f"{g.stack + len(g.covert)} tiles not seen yet (the stack and the face-down tiles)" \
        in mode.tiles_dialog.summary.text()
    qtbot.keyClick(mode, Qt.Key_T)
    assert mode.tiles_dialog.isVisible()


def test_a_map_game_shows_each_players_followers_at_hand(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-west", followers=5), HUMANS, seed=2)
    assert [row[3] for row in mode.scoreboard.rows] == [5, 5]
    assert "Ann: 5 of 5 followers at hand" in mode.scoreboard.toolTip()


def test_a_flip_and_a_secret_look_cannot_be_taken_back(qtbot, mode, monkeypatch):
    """Issue 21: the person saw what their tile turned up (a flipped tile, +2 or -2; a
    tile shown to them only): taking the tile back would let them lay it again knowing it.
    Ctrl+Z says why instead."""
    from stateside.app.mode import GameMode
    from stateside.engine.protocol import CHANCE
    from stateside.games.carcassonne.tiles import DELTA
    from stateside.games.carcassonne.usa import Lay, Look

    monkeypatch.setattr(GameMode, "undo_beat_ms", 60_000)
    seen = set()
    for seed in range(40):
        mode.start_game(Setup(players=["Ann", "Computer"], variant="usa-east"),
                        [{"name": "Ann", "kind": "human"}, {"name": "Computer", "kind": "easy"}], seed=seed)
        for _ in range(30):   # Ann's turns: a tile next to a face-down one (a flip), a chip's look
            qtbot.waitUntil(lambda: mode.is_human_turn() or mode.game.finished, timeout=10000)
            g = mode.game
            if g.finished:
                break
            legal = g.legal_actions(0)
            flipping = [a for a in legal if isinstance(a, Lay)
                        and any((a.x + dx, a.y + dy) in g.covert for dx, dy in DELTA)]
            action = (flipping or legal)[0] if "flip" not in seen else legal[0]
            assert mode.act(action)
            g = mode.game
            if isinstance(action, (Lay, Look)) and mode.match.log[-1].seat == CHANCE:
                kind = "look" if isinstance(action, Look) else "flip"
                assert not mode.can_undo()
                assert "can't be taken back" in mode.undo_refusal()
                seen.add(kind)
            if g.current != 0 and mode.ai_timer.isActive():
                mode._computer_due()   # end the beat now: the computer plays
            if seen == {"flip", "look"}:
                return
    raise AssertionError(f"no flip and look by the person in 40 seeded games: saw {seen}")
