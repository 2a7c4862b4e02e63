"""The Carcassonne table mode: placing a tile and a follower by clicking, turning the
tile, taking it back, computer turns, saving and resuming."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from stateside.board.view import BoardView
from stateside.engine.match import Match
from stateside.errors import SaveError
from stateside.games.carcassonne.engine import Game, Setup, draw
from stateside.games.carcassonne.mode import CarcassonneMode
from stateside.selfplay import play_match

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
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.rot = rot
    mode.refresh()
    click_square(qtbot, mode, x, y)
    assert mode.pending == (x, y, rot)
    assert mode.btn_confirm.isEnabled() and mode.btn_back.isEnabled()
    options = g.follower_options(x, y, rot)
    assert options and len(mode.table.spots) == len(options)
    seg = options[0]
    tile = g.tiles[g.drawn]
    anchor = mode.table.anchor_point(tile, rot, (x, y), seg)
    qtbot.mouseClick(mode.view.viewport(), Qt.LeftButton, pos=view_point(mode, anchor))
    assert mode.chosen == seg
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert g.turn == 1 and (x, y) in g.board and mode.pending is None
    if g.events:      # the follower's feature was finished at once and scored
        assert g.events[0].seats == (0,) and g.supply[0] == 7
    else:
        assert g.followers_on_board() == [(0, (x, y), seg)] and g.supply[0] == 6
    assert len(mode.table.tiles) == 2 and g.current == 1


def test_a_click_where_the_tile_fits_only_turned_turns_it_to_fit(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    g = mode.game
    tile = g.tiles[g.drawn]
    spot = next(((x, y), r) for x, y, r in g.legal_placements() if len(g.fits(tile, (x, y))) < 4)
    (x, y), r = spot
    mode.rot = next(k for k in range(4) if k not in g.fits(tile, (x, y)))
    click_square(qtbot, mode, x, y)
    assert mode.pending is not None and mode.pending[:2] == (x, y) and mode.pending[2] in g.fits(tile, (x, y))


def test_turning_the_tile_with_r_and_the_wheel_and_taking_it_back(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    qtbot.keyClick(mode.view, Qt.Key_R)
    assert mode.rot == 1
    mode.view.wheelTurned.emit(-1)
    assert mode.rot == 0
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.rot = rot
    click_square(qtbot, mode, x, y)
    assert mode.pending is not None and mode.can_undo()
    qtbot.keyClick(mode.view, Qt.Key_Backspace)
    assert mode.pending is None and g.turn == 0 and (x, y) not in g.board


def test_a_click_off_the_table_changes_nothing_and_says_why(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    messages = []
    mode.status.connect(messages.append)
    click_square(qtbot, mode, 3, 3)
    assert mode.pending is None
    assert messages and "must touch" in messages[-1]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_computer_answers_after_a_persons_turn(qtbot, mode, level):
    mode.start_game(Setup(players=["Ann", "Cpu"]), [HUMANS[0], {"name": "Cpu", "kind": level}], seed=9)
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.place_tile(x, y, rot)
    mode.confirm_turn()
    qtbot.waitUntil(lambda: g.turn == 2, timeout=5000)
    assert g.current == 0 and len(mode.table.tiles) == 3


def test_save_and_resume_the_same_game(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    g = mode.game
    for _ in range(3):
        x, y, rot = g.legal_placements()[0]
        mode.place_tile(x, y, rot)
        mode.confirm_turn()
    state = mode.save_state()
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=5)
    mode.load_state(state)
    assert mode.game.turn == 3 and mode.game.actions == g.actions and mode.game.drawn == g.drawn
    with pytest.raises(SaveError):
        mode.load_state({"game": {"setup": {}}, "seats": HUMANS})
    with pytest.raises(SaveError, match="action 7 of 7"):
        mode.load_state({**state, "actions": state["actions"][:6] + [[99, 99, 0, -1]]})
    assert mode.game.turn == 3      # a broken save leaves the game as it was


# --------------------------------------------------------------------------- review additions
def _game_with(mode, tile_id: str, seats=HUMANS):
    """A fresh two-seat game whose first tile in hand is `tile_id` (its first draw, logged)."""
    specs = [s["kind"] if s["kind"] == "human" else "ai:" + s["kind"] for s in seats]
    match = Match("carcassonne", specs, seed=4, setup=Setup(players=[s["name"] for s in seats]).to_json())
    match.apply(draw(tile_id))
    mode.start_match(match)
    return mode.game


def _spot_key(g, seg):
    return g.tiles[g.drawn].segments[seg].key


def test_pointing_at_a_follower_spot_says_what_it_claims_and_outlines_the_whole_feature(qtbot, mode):
    g = _game_with(mode, "B-E")
    mode.rot = 2                       # the cap faces south onto the start tile's city: it closes it
    click_square(qtbot, mode, 0, -1)
    assert mode.pending == (0, -1, 2)
    tile = g.tiles[g.drawn]
    city = next(s for s in g.follower_options(0, -1, 2) if tile.segments[s].kind == "city")
    field = next(s for s in g.follower_options(0, -1, 2) if tile.segments[s].kind == "field")
    qtbot.mouseMove(mode.view.viewport(), view_point(mode, mode.table.anchor_point(tile, 2, (0, -1), city)))
    assert mode.hover_seg == city
    assert "the city: 2 tiles, finished by this tile: 4 points at once" in mode.hint.text()
    assert len(mode.table.reach) == 2                  # both tiles of the city are outlined
    qtbot.mouseMove(mode.view.viewport(), view_point(mode, mode.table.anchor_point(tile, 2, (0, -1), field)))
    assert mode.hover_seg == field
    assert "the field (1 tile) as a farmer" in mode.hint.text() and "(1 so far)" in mode.hint.text()  # the city it closes
    qtbot.mouseMove(mode.view.viewport(), view_point(mode, mode.table.square_rect(4, 4).center()))
    assert mode.hover_seg is None and mode.table.reach == []


def test_the_large_tile_in_the_panel_picks_followers_and_space_steps_through_them(qtbot, mode):
    g = _game_with(mode, "B-U")        # straight road: a road and two fields
    mode.rot = 1
    click_square(qtbot, mode, 1, 0)
    options = g.follower_options(*mode.pending)
    assert sorted(mode.hand.spots) == sorted(options) and len(options) == 3
    road = next(s for s in options if _spot_key(g, s) == "r1")
    at = mode.hand._spot_point(road).toPoint()
    qtbot.mouseMove(mode.hand, at)
    assert mode.hover_seg == road and "the road: 2 tiles so far, still open" in mode.hint.text()
    qtbot.mouseClick(mode.hand, Qt.LeftButton, pos=at)
    assert mode.chosen == road and mode.hand.chosen == road
    qtbot.mouseClick(mode.hand, Qt.LeftButton, pos=at)
    assert mode.chosen is None
    seen = []
    for _ in range(len(options) + 1):
        qtbot.keyClick(mode.view, Qt.Key_Space)
        seen.append(mode.chosen)
    assert seen == options + [None]     # every free spot in turn, then none again
    qtbot.keyClick(mode.view, Qt.Key_Space)
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert g.followers_on_board() == [(0, (1, 0), options[0])]


def test_the_last_tile_placed_is_framed_in_its_players_colour(qtbot, mode):
    from stateside.games.carcassonne.tile_art import SEAT_COLOURS
    _game_with(mode, "B-U")
    assert not mode.table.last_frame.isVisible()
    mode.rot = 1
    click_square(qtbot, mode, 1, 0)
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert mode.table.last_frame.isVisible()
    assert mode.table.last_frame.rect().center() == mode.table.square_rect(1, 0).center()
    assert mode.table.last_frame.pen().color().name() == SEAT_COLOURS[0]


class _SlowBot:
    """A computer player that takes its time, to close or leave the mode while it thinks."""

    def __init__(self, seconds: float):
        import random
        self.seconds = seconds
        self.rng = random.Random()

    def choose(self, observation, legal):
        import time
        time.sleep(self.seconds)
        return legal[0]


def _computer_thinking(qtbot, mode, seconds=0.4):
    g = _game_with(mode, "B-U", [HUMANS[0], {"name": "Cpu", "kind": "easy"}])
    mode.place_tile(1, 0, 1)
    mode.confirm_turn()
    mode.match.players[1] = _SlowBot(seconds)
    qtbot.waitUntil(lambda: mode.thinking, timeout=2000)
    assert "thinking" in mode.turn_label.text() and "thinking" in mode.hint.text()
    return g


def test_leaving_the_mode_while_the_computer_thinks_drops_its_answer_and_asks_again(qtbot, mode):
    g = _computer_thinking(qtbot, mode)
    mode.deactivate()
    qtbot.wait(600)                              # the stale answer arrives and is ignored
    assert g.turn == 1 and mode.pending is None and not mode.thinking
    mode.match.players[1] = _SlowBot(0.0)
    mode.activate()
    qtbot.waitUntil(lambda: g.turn == 2, timeout=3000)


def test_closing_the_window_while_the_computer_thinks_raises_nothing(qtbot, monkeypatch):
    import threading

    import shiboken6
    errors = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    m = CarcassonneMode(BoardView())
    m.resize(1000, 700)
    m.show()
    m.activate()
    m.ai_delay_ms = 0
    _computer_thinking(qtbot, m, seconds=0.3)
    m.deactivate()
    shiboken6.delete(m)
    qtbot.wait(600)
    assert errors == []


def test_scoring_lines_explain_the_points_and_show_who_scored(qtbot, mode):
    _game_with(mode, "B-E")
    mode.rot = 2
    click_square(qtbot, mode, 0, -1)
    city = next(s for s in mode.game.follower_options(0, -1, 2) if _spot_key(mode.game, s) == "c1")
    mode.chosen = city
    mode.confirm_turn()
    item = mode.log.item(0)
    assert item.text() == "Turn 1 \u00b7 Ann: city of 2 tiles (2 per tile): 4 points"
    assert not item.icon().isNull()


def test_the_end_of_the_game_shows_each_players_points_by_kind(qtbot, mode):
    record = play_match("carcassonne", ["ai:easy", "ai:easy"], 3, {**Game.default_setup(2), "sets": ["base"]})
    mode.start_match(record.match)
    game = mode.game
    text = mode.hint.text()
    assert "Game over" in mode.turn_label.text() and mode.hand.tile is None
    import re
    rows = re.findall(r"<tr><td>([^<]+)</td>(.*?)</tr>", text)
    assert [name for name, _ in rows] == game.names
    for i, (_, cells) in enumerate(rows):
        numbers = [int(n) for n in re.findall(r">(\d+)<", cells)]
        assert numbers[-1] == game.scores()[i] and sum(numbers[:-1]) == game.scores()[i]


@pytest.mark.parametrize("state", [
    None, [], {"board": {"CA": 1}}, {"game": {"setup": {"players": ["a", "b"]}, "actions": [[0, 0, 0, -1]]}},
    {"game": {"setup": {"players": ["a", "b"], "start": []}, "actions": []}},
    {"game": {"setup": {"players": ["a", "b"], "followers": 10 ** 9}, "actions": []}},
    {"game": {"setup": {"players": ["a", "b"]}, "actions": [[1.5, 0, 1, -1]]}},
    {"game": "carcassonne", "rules_version": 2, "setup": {"players": ["a", "b"]}, "seed": 1,
     "seats": ["human", "human"], "actions": [{"draw": "B-Z"}]},
    {"game": "carcassonne", "rules_version": 2, "setup": {"players": ["a", "b"]}, "seed": 1,
     "seats": ["human", "random"], "actions": []},      # a seat this table does not offer
    {"game": "america", "rules_version": 1, "setup": {"players": ["a", "b"]}, "seed": 1,
     "seats": ["human", "human"], "actions": []},
])
def test_a_corrupted_or_foreign_save_leaves_the_game_as_it_was(mode, state):
    before = mode.save_state()
    if isinstance(state, dict) and "game" in state:
        state = {**state, "seats": HUMANS}
    with pytest.raises(SaveError):
        mode.load_state(state)
    assert mode.save_state() == before


def test_undo_takes_back_a_persons_whole_move_only_while_nobody_else_has_moved(qtbot, mode):
    g = _game_with(mode, "B-U")
    tile = g.drawn
    assert not mode.can_undo()
    mode.rot = 1
    click_square(qtbot, mode, 1, 0)
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert g.turn == 1 and mode.can_undo()          # Ann's move; Bob has not moved yet
    mode.undo()
    g = mode.game
    assert g.turn == 0 and g.current == 0 and g.drawn == tile and (1, 0) not in g.board
    x, y, rot = g.legal_placements()[0]
    mode.place_tile(x, y, rot)
    mode.confirm_turn()                             # Ann again, then Bob
    x, y, rot = g.legal_placements()[0]
    mode.place_tile(x, y, rot)
    mode.confirm_turn()
    mode.undo()                                     # Bob takes his back, not Ann's
    assert mode.game.turn == 1 and mode.game.current == 1


def test_no_undo_once_the_computer_has_answered(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Cpu"]), [HUMANS[0], {"name": "Cpu", "kind": "easy"}], seed=9)
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.place_tile(x, y, rot)
    mode.confirm_turn()
    qtbot.waitUntil(lambda: g.turn == 2, timeout=5000)
    assert not mode.can_undo()
    mode.undo()
    assert g.turn == 2 and mode.game is g
