"""Each tutorial driven to its end through its game's real mode (pytest-qt): every step done
through the mode's own input (a click on the map, a key, a button), one wrong try per
tutorial explained and not applied, and the hand-over to an ordinary game."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from stateside.app.tutorial import TutorialRun, find_widget
from stateside.engine.tutorial import all_tutorials
from stateside.games import game_by_id, load_object

TUTORIALS = all_tutorials()


class FakeClock:
    """Scrambled States' game time, moved on by the test (no waiting for the wall clock)."""

    def __init__(self):
        self.t = 0

    def __call__(self) -> int:
        return self.t


def quick(mode) -> None:
    """Animations off, computers at once (the brief beat is a setting, 0 in tests)."""
    mode.ai_delay_ms = 0
    spinner = getattr(mode, "spinner", None)
    if spinner is not None and hasattr(spinner, "spin_ms"):
        spinner.spin_ms = 0


def do(qtbot, mode, how) -> None:
    """A person's input, through the mode's own path."""
    if isinstance(how, list):
        for one in how:
            do(qtbot, mode, one)
        return
    (kind, arg), = how.items()
    # where a game's keys work: 10 Days' cards, Carcassonne's table, else the map
    keys = next(w for w in (getattr(mode, "journey_row", None), getattr(mode, "view", None), mode.board)
                if w is not None and w.isVisible())
    if kind == "key":
        keys.setFocus()
    if kind == "click_state":
        mode.board.stateClicked.emit(arg)   # what a click on the state (or its tab) sends
    elif kind == "key":
        qtbot.keyClick(keys, QKeySequence(arg)[0].key())
    elif kind == "click":
        qtbot.waitUntil(lambda: find_widget(mode, arg) is not None, timeout=2000)   # a layout shows it a moment later
        widget = find_widget(mode, arg)
        qtbot.mouseClick(widget, Qt.LeftButton)
    elif kind == "signal":   # what a click on a drawn part sends (America's bars)
        widget, signal, *args = arg   # a point is written [x, y]
        args = [QPointF(*a) if isinstance(a, list) else a for a in args]
        getattr(getattr(mode, widget), signal).emit(*args)
    elif kind == "call":   # what a click calls (Carcassonne: a tile put down on a square)
        method, *args = arg
        getattr(mode, method)(*args)
    elif kind == "act":
        mode.act(mode.game.action_from_json(arg))


def settle(qtbot, mode, run) -> None:
    """Wait until the game waits for the person (or the tutorial is over)."""
    if hasattr(mode, "now"):   # real time: let the die land, the clock running
        if not mode.running:
            qtbot.keyClick(mode.board, Qt.Key_Space)   # Start / Resume
        for _ in range(10):   # the game's own deadlines (the tie window, the pause, the die landing) pass
            g = mode.game
            if g.phase == "open" or g.next_deadline() is None:
                break
            mode.now.t = g.next_deadline()
            mode._on_tick()
        assert mode.game.phase == "open"
        return
    qtbot.waitUntil(lambda: run.finished or mode.is_human_turn() or mode.match.is_over(), timeout=5000)


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=[t.id for t in TUTORIALS])
def test_a_tutorial_through_its_mode(qtbot, show_mode, tutorial):
    mode_class = load_object(game_by_id(tutorial.game).mode)
    mode = show_mode(mode_class)
    quick(mode)
    mode.activateWindow()   # keys reach the mode's shortcuts only in the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is mode, timeout=2000)
    if hasattr(mode, "now") and not hasattr(mode, "install"):
        mode.now = FakeClock()
    run = TutorialRun(mode, tutorial)
    wrong_tried = 0
    for step in tutorial.steps:
        qtbot.waitUntil(lambda step=step: run.box.text.text() == step.text, timeout=3000)   # shown once the last went in
        assert run.index == step.index and run.box.isVisible()
        if not step.waits_for_action:
            qtbot.mouseClick(run.box.next, Qt.LeftButton)
            continue
        settle(qtbot, mode, run)
        if step.widget:   # once the computers have played, the step's part of the screen is ringed
            qtbot.waitUntil(run.ring.isVisible, timeout=2000)
        if step.wrong is not None:
            before = len(mode.match.log)
            do(qtbot, mode, step.wrong["do"])
            assert len(mode.match.log) == before, "the wrong try was applied"
            assert run.index == step.index and run.box.why.isVisible()
            assert run.box.why.text() == step.wrong["says"]
            wrong_tried += 1
        before = len(mode.match.log)
        do(qtbot, mode, step.do if step.do is not None else {"act": step.expect})
        qtbot.waitUntil(lambda step=step: run.index > step.index, timeout=3000)
        qtbot.waitUntil(lambda before=before: len(mode.match.log) > before, timeout=3000)
    assert wrong_tried >= 1
    assert run.finished and not run.box.isVisible() and mode.action_guard is None
    assert mode.match is run.match and not mode.match.is_over()
    # an ordinary game now: the computers have their seats and the person plays on
    m = mode.match
    assert len(m.humans()) == 1 and all((p is None) == (s == "human") for p, s in zip(m.players, m.seats))
    if hasattr(mode, "now"):   # the race goes on with the rival racing: it plans a slap once the round opens
        from stateside.engine.clock import planned_reactions

        settle(qtbot, mode, run)
        assert any(seat == 1 for _, seat, _, _ in planned_reactions(m))
    else:
        qtbot.waitUntil(mode.is_human_turn, timeout=3000)   # the computers answer; the person plays on


# --- the shell: Help > Learn to play and the chooser's offer -----------------------------------
@pytest.fixture
def window(qtbot):
    from stateside.app.main import MainWindow

    w = MainWindow(persist=True)   # its own settings folder (conftest)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.open_mode("explorer")
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.persist = False
    w.close()


def test_help_learn_to_play_lists_every_tutorial_and_starts_the_chosen_one(window, monkeypatch):
    from stateside.app.tutorial import LearnDialog

    act = next(a for a in window.menuBar().actions() if a.text() == "&Help").menu().actions()
    assert any(a.text().startswith("&Learn to play") for a in act)
    seen = {}

    def pick(dialog):   # the person picks Ten Days in the list and presses Start
        seen["items"] = [dialog.list.item(i).text() for i in range(dialog.list.count())]
        seen["first"] = dialog.chosen()
        dialog.list.setCurrentRow(next(i for i, t in enumerate(dialog.tutorials) if t.game == "ten-days"))
        return LearnDialog.Accepted

    monkeypatch.setattr(LearnDialog, "exec", pick)
    monkeypatch.setattr(window, "confirm_discard", lambda *_: True)
    window.open_mode("america")
    window.learn_to_play("america")
    assert len(seen["items"]) == len(TUTORIALS) and any(i.startswith("10 Days in the USA: ") for i in seen["items"])
    assert seen["first"].game == "america" and seen["first"].variant is None   # the game on screen first
    run = window.tutorial_run
    assert window.current.game_id == "ten-days" and run is not None and run.box.isVisible()
    assert window.current.match is run.match and window.current.match.seed == run.tutorial.seed


def test_the_chooser_offers_a_tutorial_until_one_is_taken(qtbot, window, monkeypatch):
    window.open_mode("america")
    offer = window.act_learn_offer
    assert offer.isVisible() and "America" in offer.toolTip()
    button = window.chooser.widgetForAction(offer)   # it fits in the bar beside the games
    from stateside.app.main import MINIMUM_SIZE

    window.resize(*MINIMUM_SIZE)   # it fits in the bar beside the games even at the smallest window
    qtbot.waitUntil(lambda: button.isVisible() and window.chooser.width() <= MINIMUM_SIZE[0], timeout=2000)
    assert button.geometry().right() <= window.chooser.width()
    window.open_mode("explorer")
    assert not offer.isVisible()   # the map has none
    monkeypatch.setattr(window, "confirm_discard", lambda *_: True)
    window.learn_to_play(tutorial=next(t for t in TUTORIALS if t.game == "america"))
    run = window.tutorial_run
    assert not offer.isVisible()
    run.leave()   # the game stays, against the computer
    assert window.tutorial_run is None and window.current.action_guard is None
    window.open_mode("explorer")
    window.open_mode("america")
    assert not offer.isVisible()   # taken once: not offered again
    window.open_mode("ten-days")
    assert offer.isVisible() and "10 Days" in offer.toolTip()


def test_undo_goes_back_a_step_and_a_new_game_ends_the_tutorial(qtbot, show_mode):
    from stateside.engine.tutorial import tutorial_for
    from stateside.games.america.mode import AmericaMode

    mode = show_mode(AmericaMode)
    quick(mode)
    tutorial = tutorial_for("america")
    run = TutorialRun(mode, tutorial)
    run.next_pressed()
    assert mode.act(mode.game.action_from_json("choose:0"))
    qtbot.waitUntil(lambda: run.box.text.text() == tutorial.steps[2].text)
    mode.undo_beat_ms = 60_000   # the computer waits: the move can be taken back meanwhile
    assert mode.act(mode.game.action_from_json("place:state:FL"))
    qtbot.waitUntil(lambda: run.waiting)   # the next step waits for Blue
    assert run.index == 3 and "others play" in run.box.text.text() and mode.can_undo()
    mode.undo()
    assert run.index == 2 and not run.waiting and run.box.text.text() == tutorial.steps[2].text
    n = len(mode.match.log)
    assert not mode.act(mode.game.action_from_json("place:state:GA"))   # still the step's own answer only
    assert run.box.why.isVisible() and len(mode.match.log) == n
    mode.start_game(list(mode.seats))   # Game > New: an ordinary game replaces the tutorial's
    assert run.finished and not run.box.isVisible() and mode.action_guard is None


def test_a_broken_tutorial_file_is_named_and_the_others_still_play(window, monkeypatch, tmp_path):
    import shutil

    from stateside.app.tutorial import LearnDialog
    from stateside.engine import tutorial as engine_tutorial

    for p in engine_tutorial.tutorials_dir().glob("*.yaml"):
        shutil.copy(p, tmp_path / p.name)
    (tmp_path / "america.yaml").write_text("title: A first card\ngame: america\nseed: [1]\n", encoding="utf-8")
    monkeypatch.setattr(engine_tutorial, "tutorials_dir", lambda: tmp_path)
    listed = {}
    monkeypatch.setattr(LearnDialog, "exec", lambda d: listed.setdefault("n", d.list.count()) and LearnDialog.Rejected)
    window.learn_to_play()
    assert listed["n"] == len(TUTORIALS) - 1
    assert any("america.yaml" in n and "\"seed\"" in n for n in window.notices)
