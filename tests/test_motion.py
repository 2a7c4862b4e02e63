"""Moves a player can follow (issue 26, item 3): pieces slide into place with Qt's
animation framework at the speed of View > Animations (0: off, as in the other tests),
an animation in flight lands at once at the next input or move, and each seat's last
move stays ringed on the map until its next one."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene

from stateside.app.main import MainWindow
from stateside.board.motion import SPEEDS, Motion
from stateside.engine.match import Match


@pytest.fixture
def moving(monkeypatch):
    monkeypatch.setattr(Motion, "duration_ms", 260)


def test_an_item_goes_the_whole_road_and_lands_where_it_was_sent(qtbot, moving):
    scene = QGraphicsScene()
    item = QGraphicsRectItem(0, 0, 4, 4)
    scene.addItem(item)
    motion = Motion()
    road = [QPointF(0, 0), QPointF(100, 0), QPointF(100, 100)]
    assert motion.move(item, road)
    assert item.pos() == QPointF(0, 0) and motion.moving(item)
    qtbot.waitUntil(lambda: 0 < item.pos().x() < 100, timeout=2000)   # on its way, not there at once
    qtbot.waitUntil(lambda: not motion.running(), timeout=3000)
    assert item.pos() == QPointF(100, 100)
    # finish(): a move in flight lands at once
    motion.move(item, [QPointF(0, 0), QPointF(50, 50)])
    motion.finish()
    assert item.pos() == QPointF(50, 50) and not motion.running()
    # off: nothing moves, the item is put at its place
    motion.move(item, [QPointF(0, 0), QPointF(7, 7)], ms=0)
    assert item.pos() == QPointF(7, 7) and not motion.running()


def test_a_token_drawn_again_elsewhere_slides_and_a_click_lands_it(qtbot, moving):
    from stateside.board.view import BoardView

    board = BoardView()
    qtbot.addWidget(board)
    board.show()
    key = board.add_token("TX", key="truck")
    start = board._tokens[key].pos()
    board.clear_tokens()   # a mode's redraw
    board.add_token("OK", key="truck", via=["NM"])
    token = board._tokens[key]
    assert board.motion.moving(token) and token.pos() == start   # it sets off from Texas
    qtbot.mouseClick(board.viewport(), Qt.LeftButton)   # input never waits for it
    assert not board.motion.running()
    assert token.pos() != start
    # a new piece with arrive comes down onto its place
    board.add_token("CA", key="new", arrive=True)
    assert board.motion.moving(board._tokens["new"])
    board.forget_places()   # a new game: nothing slides from the last game's places
    board.clear_tokens()
    board.add_token("FL", key="truck")
    assert not board.motion.moving(board._tokens["truck"])


def test_a_computers_truck_drives_its_road_on_the_map(show_mode, qtbot, moving):
    from stateside.games.game_of_the_states.mode import GameOfTheStatesMode
    from stateside.games.game_of_the_states.rules import GameOfTheStates

    mode = show_mode(GameOfTheStatesMode)
    mode.spinner.spin_ms = 0
    mode.install(Match(GameOfTheStates, ["ai:easy", "ai:easy"], 4, {"players": ["Ann", "Bob"],
                                                                     "variant": "buy-and-sell"}))
    mode.ai_timer.stop()
    for _ in range(200):   # the computers one action at a time, until a truck drives
        mode.ai_timer.stop()
        mode.computer_turn(mode.next_actor())
        last = mode.game.engine.last_move
        if last and len(last["route"]) > 2:
            break
    token = mode.board._tokens[("gots-truck", last["seat"])]
    assert mode.board.motion.moving(token)
    start = mode.board.state_anchor(last["route"][0])
    assert (token.pos() - start).manhattanLength() < 30   # still at (beside) the state it left
    qtbot.waitUntil(lambda: not mode.board.motion.running(), timeout=3000)
    assert mode.board.state_at(token.pos()) in (last["route"][-1], None)
    # the seat's last move is ringed on the map, and the other seat's too once it moved
    assert mode.board.last_marks()[("last-move", last["seat"])] == [last["route"][-1]]


def test_each_seats_last_move_is_ringed_until_its_next_and_not_into_a_new_game(show_mode):
    from stateside.games.game_of_the_states.mode import GameOfTheStatesMode
    from stateside.games.game_of_the_states.rules import GameOfTheStates

    mode = show_mode(GameOfTheStatesMode)
    mode.spinner.spin_ms = 0
    mode.install(Match(GameOfTheStates, ["ai:easy", "ai:easy"], 5, {"players": ["Ann", "Bob"], "variant": "junior"}))
    moves = {}
    for _ in range(400):
        if len(moves) == 2 and len(mode.match.log) > 20:
            break
        mode.ai_timer.stop()
        entry_count = len(mode.match.log)
        mode.computer_turn(mode.next_actor())
        for e in mode.match.log[entry_count:]:
            if str(e.action).startswith("move:"):
                moves[e.seat] = e.action[5:]
    marks = mode.board.last_marks()
    assert {seat: marks[("last-move", seat)] for seat in moves} == {seat: [code] for seat, code in moves.items()}
    mode.install(Match(GameOfTheStates, ["human", "ai:easy"], 6, {"players": ["Ann", "Bob"], "variant": "junior"}))
    assert mode.board.last_marks() == {}


def test_the_speed_is_a_setting_remembered_and_off_switches_animations_off(qtbot):
    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    texts = [a.text() for a in w.motion_actions.values()]
    assert texts[0] == "Off" and len(texts) == len(SPEEDS)
    w.set_motion(150)
    assert Motion.duration_ms == 150 and w.motion_actions[150].isChecked()
    w.close()
    Motion.duration_ms = 0
    again = MainWindow(persist=True)
    qtbot.addWidget(again)
    assert Motion.duration_ms == 150 and again.motion_actions[150].isChecked()
    again.set_motion(0)
    assert Motion.duration_ms == 0
    again.close()


def test_a_computers_turn_comes_one_action_a_beat(show_mode, qtbot):
    """After a person's move the computer's actions come one per beat (ai_delay_ms), never
    its whole turn at once: each tick of the computers' timer applies one action of its own."""
    from stateside.engine.match import CHANCE
    from stateside.games.game_of_the_states.mode import GameOfTheStatesMode
    from stateside.games.game_of_the_states.rules import GameOfTheStates

    mode = show_mode(GameOfTheStatesMode)
    mode.spinner.spin_ms = 0
    mode.ai_delay_ms = 250   # long beside a poll of the test: two beats never fall in one
    mode.install(Match(GameOfTheStates, ["human", "ai:easy"], 4, {"players": ["You", "Blue"],
                                                                  "variant": "junior"}))
    ticks = []
    mode.ai_timer.timeout.connect(lambda: ticks.append(len(mode.match.log)))
    computer_moves = lambda: [e for e in mode.match.log if e.seat == 1 or (e.seat == CHANCE and mode.actor_of(e) == 1)]
    for _ in range(60):
        if len(computer_moves()) >= 4:
            break
        if mode.is_human_turn():
            if mode._spin_seat() is not None:
                mode.spin()
            else:
                mode.act(mode.game.legal_actions(0)[0])
        else:
            before = len(mode.match.log)
            qtbot.waitUntil(lambda: len(mode.match.log) > before or mode.is_human_turn(), timeout=3000)
            own = [e for e in mode.match.log[before:] if e.seat != CHANCE or mode.actor_of(e) == 1]
            assert len([e for e in own if e.seat == 1]) <= 1   # one action of its own per beat
    assert len(computer_moves()) >= 4 and ticks


def test_a_card_put_on_a_day_flies_there_from_the_hand(show_mode, moving):
    from stateside.games.ten_days.mode import TenDaysMode

    mode = show_mode(TenDaysMode)
    dealt = mode.game.held
    mode._day_clicked(4)
    assert mode.journey_row.slots[4].face is not None   # the game has it there already
    assert mode.journey_row.arriving == {4} and mode.board.motion.running()   # drawn empty while it flies
    flying = [w for w in mode.findChildren(type(mode.banner)) if w.pixmap() is not None and not w.pixmap().isNull()]
    assert flying and dealt is not None
    mode.board.motion.finish()   # the next click or move lands it
    assert mode.journey_row.arriving == set() and not mode.board.motion.running()


def test_with_animations_off_a_card_is_in_place_at_once(show_mode):
    from stateside.games.ten_days.mode import TenDaysMode

    mode = show_mode(TenDaysMode)   # tests run with Motion.duration_ms = 0 (conftest)
    mode._day_clicked(4)
    assert mode.journey_row.arriving == set() and not mode.board.motion.running()


def test_a_won_card_flies_from_the_table_to_its_winners_pile(show_mode, moving):
    from stateside.games.scrambled_states.mode import ScrambledStatesMode

    mode = show_mode(ScrambledStatesMode)
    clock = {"t": 0}
    mode.now = lambda: clock["t"]
    mode.resume()
    flew = []
    real_fly = mode.board.motion.fly
    mode.board.motion.fly = lambda *a, **k: flew.append(a[3]) or real_fly(*a, **k)
    for t in range(2000, 120_000, 500):   # the computers play; the first card won flies
        clock["t"] = t
        mode._on_tick()
        if flew:
            break
    assert flew and mode.board.motion.running()
    from PySide6.QtCore import QPoint, QRect

    pile = QRect(mode.scoreboard.mapTo(mode, QPoint(0, 0)), mode.scoreboard.size())
    assert pile.contains(flew[0].topLeft())   # to the winner's line of the pile count
    mode.board.motion.finish()
    assert not mode.board.motion.running()
