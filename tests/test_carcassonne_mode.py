"""The Carcassonne table mode: placing a tile and a follower by clicking, turning the
tile, taking it back, computer turns, saving and resuming."""
from __future__ import annotations

import math

import pytest

from stateside.app.mode import GameMode
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


def test_turning_the_tile_with_r_and_taking_it_back(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    qtbot.keyClick(mode.view, Qt.Key_R)
    assert mode.rot == 1
    qtbot.keyClick(mode.view, Qt.Key_R, Qt.ShiftModifier)
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
    mode.install(match)
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


def test_each_players_last_tile_is_framed_in_their_colour_never_in_gold(qtbot, mode):
    """Issue 11: each player's last tile is framed in that player's colour, never in the
    gold of the legal squares (even yellow, seat 3, has a dark edge and its seat number)."""
    from stateside.games.carcassonne.table import TARGET
    from stateside.games.carcassonne.tile_art import SEAT_COLOURS
    seats = HUMANS + [{"name": "Cy", "kind": "human"}]
    mode.start_game(Setup(players=["Ann", "Bob", "Cy"]), seats, seed=4)
    assert mode.table.last_frames == {}
    placed = []
    for turn in range(4):
        g = mode.game
        x, y, rot = g.legal_placements()[0]
        mode.place_tile(x, y, rot)
        mode.confirm_turn()
        placed.append((x, y))
        frames = mode.table.last_frames
        assert sorted(frames) == list(range(min(turn + 1, 3)))     # one frame per player who has laid a tile
    # Ann laid tiles 1 and 4: her frame moved to the fourth; Bob's and Cy's stay on theirs.
    expect = {0: placed[3], 1: placed[1], 2: placed[2]}
    for seat, pos in expect.items():
        frame = mode.table.last_frames[seat]
        assert frame.isVisible() and frame.rect().center() == mode.table.square_rect(*pos).center()
        assert frame.pen().color().name() == SEAT_COLOURS[seat] != TARGET.name()
    target_pens = {item.pen().color().name() for item in mode.table.targets}
    assert not target_pens & {f.pen().color().name() for f in mode.table.last_frames.values()} - {"#f2b705"}
    assert mode.table.last_frames[2].seat == 2      # yellow carries its number, as gold squares never do


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
    with qtbot.waitSignal(mode.thinker.decided, timeout=3000):   # the stale answer arrives...
        mode.deactivate()
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
    threads = threading.active_count()
    _computer_thinking(qtbot, m, seconds=0.3)
    m.deactivate()
    shiboken6.delete(m)
    # the thinking thread ends once it has tried to answer the closed window
    qtbot.waitUntil(lambda: threading.active_count() == threads, timeout=3000)
    qtbot.wait(0)   # and whatever it posted is delivered
    assert errors == []


def test_scoring_lines_explain_the_points_and_show_who_scored(qtbot, mode):
    _game_with(mode, "B-E")
    mode.rot = 2
    click_square(qtbot, mode, 0, -1)
    city = next(s for s in mode.game.follower_options(0, -1, 2) if _spot_key(mode.game, s) == "c1")
    mode.chosen = city
    mode.confirm_turn()
    item = mode.scoring.item(0)
    assert item.text() == "Turn 1 \u00b7 Ann: city of 2 tiles (2 per tile): 4 points"
    assert not item.icon().isNull()


def final_table(table) -> tuple[list[str], dict[str, list[int]]]:
    """The end-of-game ScoreTable in the panel: the column heads, and each row's numbers by its label."""
    heads = [table.horizontalHeaderItem(c).text() for c in range(1, table.columnCount())]
    body = {table.cell_text(r, 0): [int(table.cell_text(r, c)) for c in range(1, table.columnCount())]
            for r in range(table.rowCount())}
    return heads, body


def test_the_end_of_the_game_shows_each_players_points_by_kind(qtbot, mode):
    record = play_match("carcassonne", ["ai:easy", "ai:easy"], 3, {**Game.default_setup(2), "sets": ["base"]})
    mode.install(record.match)
    game = mode.game
    assert "Game over" in mode.turn_label.text() and mode.hand.tile is None
    assert mode.final_scores.isVisible() and not mode.hint.isVisible()
    heads, body = final_table(mode.final_scores)
    assert heads == game.names
    assert list(body) == ["Roads", "Cities", "Cloisters", "Fields", "Total"]
    for i in range(game.n):
        assert body["Total"][i] == game.scores()[i]
        assert sum(numbers[i] for label, numbers in body.items() if label != "Total") == game.scores()[i]


def test_the_final_table_fits_the_panel_with_five_players_and_every_kind(qtbot, mode):
    """Issue 11: the Total column was cut off at 1280 and 1600 wide (the panel is fixed)."""
    names = ["Bartholomew the Great", "Computer 2", "Computer 3", "Maximiliana", "Computer 5"]
    setup = {**Game.default_setup(5), "goods": True, "variant": "usa-west", "players": names}
    mode.install(play_match("carcassonne", ["ai:easy"] * 5, 2, setup).match)
    qtbot.wait(10)
    table = mode.final_scores
    heads, body = final_table(table)
    assert list(body) == ["Roads", "Cities", "Cloisters", "Fields", "Chips", "Flips", "Goods", "Total"]
    assert body["Total"] == mode.game.scores()
    assert heads == ["1", "2", "3", "4", "5"]        # the numbers on the followers: the names do not fit
    assert [table.horizontalHeaderItem(c).toolTip() for c in range(1, 6)] == names
    # Every column, Total's numbers included, is inside the table's visible width.
    header = table.horizontalHeader()
    assert header.length() <= table.viewport().width() and not table.horizontalScrollBar().isVisible()
    for c in range(table.columnCount()):
        assert header.sectionSize(c) >= header.sectionSizeHint(c) - 2 or c == 0
    # The score dialog shows the same, players down.
    columns, rows = mode.final_table()
    assert columns[-1] == "Total" and [r[-1] for r in rows] == mode.game.scores()


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


def test_undo_takes_back_a_persons_whole_move_only_while_nobody_else_has_moved(qtbot, mode, monkeypatch):
    # The computer waits its beat, and the tile it draws waits with it: Ann may still take hers back.
    monkeypatch.setattr(GameMode, "undo_beat_ms", 60_000)
    g = _game_with(mode, "B-U", [HUMANS[0], {"name": "Cpu", "kind": "easy"}])
    mode.ai_delay_ms = 60_000
    tile = g.drawn
    assert not mode.can_undo()
    mode.rot = 1
    click_square(qtbot, mode, 1, 0)
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert g.turn == 1 and mode.can_undo()          # Ann's move; the computer has not moved yet
    mode.undo()
    g = mode.game
    assert g.turn == 0 and g.current == 0 and g.drawn == tile and (1, 0) not in g.board


def test_at_one_screen_the_next_person_cannot_take_back_the_move_before_theirs(qtbot, mode):
    """The shared rule: once the turn has passed to the next person at the screen, the
    move before is not theirs to take back; their own placed tile still is."""
    g = _game_with(mode, "B-U")
    mode.rot = 1
    click_square(qtbot, mode, 1, 0)
    qtbot.keyClick(mode.view, Qt.Key_Return)
    assert g.turn == 1 and mode.viewer == 1 and not mode.can_undo()
    x, y, rot = g.legal_placements()[0]
    mode.place_tile(x, y, rot)
    assert mode.can_undo()                          # Bob's tile, put down but not played
    mode.undo()
    assert mode.pending is None and g.turn == 1 and g.current == 1


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


def wheel(widget, notches: int) -> None:
    from PySide6.QtCore import QPoint as P, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), P(0, 0), P(0, 120 * notches),
                        Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_mouse_wheel_zooms_the_table_as_everywhere_else_and_never_turns_the_tile(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    before = mode.view.transform().m11()
    wheel(mode.view.viewport(), 1)
    assert mode.view.transform().m11() == pytest.approx(before * 1.15)
    wheel(mode.view.viewport(), -2)
    assert mode.view.transform().m11() == pytest.approx(before / 1.15)
    wheel(mode.hand, 1)
    assert mode.rot == 0


def test_a_selected_scoring_line_keeps_its_text_readable(qtbot, mode):
    """Issue 11: the selected line's text turned white on the pale list."""
    record = play_match("carcassonne", ["ai:easy", "ai:easy"], 3, {**Game.default_setup(2), "sets": ["base"]})
    mode.install(record.match)
    qtbot.wait(10)
    mode.tabs.setCurrentWidget(mode.scoring)
    qtbot.wait(10)
    item = mode.scoring.item(1)
    rect = mode.scoring.visualItemRect(item)
    qtbot.mouseClick(mode.scoring.viewport(), Qt.LeftButton, pos=rect.center())
    assert item.isSelected()
    image = mode.scoring.viewport().grab().toImage()
    text_left = rect.left() + mode.scoring.iconSize().width() + 8
    dark = sum(1 for x in range(text_left, rect.right(), 2) for y in range(rect.top(), rect.bottom(), 2)
               if image.pixelColor(x, y).lightness() < 90)
    assert dark > 40        # the words are drawn dark on the selection


def test_a_computer_seat_is_never_called_you(qtbot, mode):
    """Issue 11: turning the first seat into a computer kept the name "You"."""
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    name0, name1 = dialog.names[:2]
    kind0, kind1 = dialog.kind_boxes[:2]
    assert name0.text() == "You" and name1.text() == "Computer"
    kind0.setCurrentIndex(kind0.findData("ai:hard"))
    kind1.setCurrentIndex(kind1.findData("human"))
    assert name0.text() == "Computer 1" and name1.text() == "Player 2"
    dialog.count.setValue(3)
    assert dialog.names[2].text() == "Computer 3"
    name1.setText("Ann")
    kind1.setCurrentIndex(kind1.findData("ai:easy"))
    assert name1.text() == "Ann"            # a typed name stays
    kind0.blockSignals(True)                 # even when the name was not updated, the seat is not "You"
    name0.setText("You")
    seats = mode.chosen_seats(dialog)
    assert seats[0] == {"name": "Computer 1", "kind": "hard"}
    dialog.first_box.setCurrentIndex(1)      # Ann starts: she plays first, in red
    assert [s["name"] for s in mode.chosen_seats(dialog)] == ["Ann", "Computer 3", "Computer 1"]


def test_the_setup_screen_starts_the_game_it_shows(qtbot, mode, monkeypatch):
    from stateside.app.setup_screen import SetupScreen
    from PySide6.QtWidgets import QDialog

    def answer(dialog):
        variant, sets = dialog.form.carcassonne
        dialog.count.setValue(3)
        dialog.names[0].setText("Ann")
        dialog.kind_boxes[2].setCurrentIndex(dialog.kind_boxes[2].findData("ai:hard"))
        sets["traders-builders"].setChecked(False)
        return QDialog.Accepted
    monkeypatch.setattr(SetupScreen, "exec", answer)
    mode.new_game()
    g = mode.game
    assert g.names == ["Ann", "Computer", "Computer 3"] and mode.match.seats == ["human", "ai:easy", "ai:hard"]
    assert g.conf.variant == "table" and list(g.conf.sets) == ["base", "inns-cathedrals"]


@pytest.mark.parametrize("px_per_unit", [0.25, 0.6, 1.0])
def test_follower_spots_never_overlap_on_any_tile_at_any_zoom(mode, px_per_unit):
    """Issue 11: zoomed out, the spots' least on-screen size made neighbours overlap."""
    from stateside.games.carcassonne.tiles import catalogue
    from stateside.games.carcassonne.tile_art import follower_path
    figure = max(abs(v) for r in [follower_path(True).boundingRect(), follower_path(False).boundingRect()]
                 for v in (r.left(), r.right(), r.top(), r.bottom()))
    table = mode.table
    table.px_per_unit = px_per_unit
    smallest = 1.0
    for tile in catalogue():
        segs = list(range(len(tile.segments)))
        for chosen in (None, segs[0]):
            table.show_pending(tile, 1, (2, 2), 0, segs, chosen)
            # a free spot reaches as far as its halo (0.55 of its size and half the pen), a chosen one its figure
            reach = [it.size * (0.58 if it.ghost else figure) for it in table.spots]
            for i, a in enumerate(table.spots):
                for j in range(i + 1, len(table.spots)):
                    d = math.dist(a.pos().toTuple(), table.spots[j].pos().toTuple())
                    assert d >= reach[i] + reach[j], (tile.id, tile.segments[i].key, tile.segments[j].key)
            smallest = min(smallest, min(it.size for it in table.spots) / table.square)
    assert smallest >= 0.18        # still a figure one can see and click
    table.hide_pending()


def test_the_tiles_to_come_by_type(qtbot, mode):
    """Issue 11: the remaining tiles by type, one click (or T) away, kept up to date."""
    mode.start_game(Setup(players=["Ann", "Bob"], sets=["base"]), HUMANS, seed=4)
    qtbot.mouseClick(mode.btn_tiles, Qt.LeftButton)
    dialog = mode.tiles_dialog
    assert dialog.isVisible()
    counts = {tile.id: n for tile, n in dialog.counts.entries}
    assert len(counts) == 24 and all(t.startswith("B-") for t in counts)        # the base game's 24 types
    g = mode.game
    drawn = g.tiles[g.drawn].id
    # 72 tiles: the start tile is on the table and one is in hand
    assert sum(counts.values()) == 70 == g.tiles_left
    assert "70 tiles not seen yet" in dialog.summary.text()
    x, y, rot = g.legal_placements()[0]
    mode.rot = rot
    click_square(qtbot, mode, x, y)
    mode.confirm_turn()
    after = {tile.id: n for tile, n in dialog.counts.entries}
    new = mode.game.tiles[mode.game.drawn].id
    assert sum(after.values()) == 69
    assert after[new] == counts[new] - 1 and (drawn == new or after[drawn] == counts[drawn])
