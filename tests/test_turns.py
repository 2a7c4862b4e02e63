"""The shared turn-based scaffold (app/turns.py) on a bare mode over real rules (10 Days):
computer turns on the timer, the human-turn check, refusals, the fair undo rule, the pass
screen driven by observations, the move log, the score table and replays."""
import pytest
from PySide6.QtWidgets import QVBoxLayout

from stateside.app.mode import GameMode
from stateside.app.turns import TurnBasedMode
from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.games.ten_days.rules import TenDaysState


class BareMode(TurnBasedMode):
    """Only what the scaffold asks of a game: its rules and a refresh."""
    game_id = "ten-days"
    title = "10 Days in the USA"
    rules = TenDaysState

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        lay = QVBoxLayout(self)
        lay.addWidget(self.replay_bar)
        lay.addWidget(self.board_slot, 1)
        lay.addWidget(self.log_panel)
        self.refreshes = 0
        self.highlighted = []

    def refresh(self) -> None:
        self.refreshes += 1

    def highlight_entry(self, entry) -> None:
        self.highlighted.append(None if entry is None else entry.index)


@pytest.fixture
def mode(show_mode):
    m = show_mode(BareMode)
    m.ai_delay_ms = 0
    return m


def new_match(seats, seed=3):
    names = ["Ann", "Bob", "Cy", "Di"][:len(seats)]
    return Match(TenDaysState, seats, seed, {**TenDaysState.default_setup(len(seats)), "players": names})


def human_action(mode):
    g = mode.game
    return g.legal_actions(g.current_player())[0]


def test_a_computer_moves_on_the_timer_and_waits_for_the_person(qtbot, mode):
    mode.install(new_match(["human", "ai:easy"]))
    assert mode.is_human_turn() and mode.viewer == 0   # chance (the deal) resolved at once
    while mode.game.current_player() == 0:
        assert mode.act(human_action(mode))
    assert not mode.is_human_turn()
    qtbot.waitUntil(lambda: mode.is_human_turn(), timeout=5000)
    seats = {e.seat for e in mode.match.log}
    assert 1 in seats and 0 in seats   # the computer took its ten cards
    assert mode.viewer == 0            # the one person's cards stay on screen


def test_a_refused_action_changes_nothing_and_says_why(qtbot, mode):
    mode.install(new_match(["human", "ai:easy"]))
    messages = []
    mode.status.connect(messages.append)
    before = mode.match.to_json()
    assert not mode.act("no such move")
    assert mode.match.to_json() == before and messages and messages[-1]


def test_undo_takes_back_a_persons_move_in_the_computers_beat_never_past_a_card_they_saw(qtbot, mode,
                                                                                          monkeypatch):
    """Issue 21: a move is not final until the computers start, after the beat; Ctrl+Z in
    it takes the move back. A move after which the person saw a card dealt stays, and
    the status bar can say why."""
    monkeypatch.setattr(GameMode, "undo_beat_ms", 60_000)   # a long beat: the computer waits
    mode.install(new_match(["human", "ai:easy"]))
    assert not mode.can_undo() and "no move of yours" in mode.undo_refusal()
    mode.act(human_action(mode))   # a card put on a day: the next card is dealt to this person
    assert not mode.can_undo()
    assert "can't be taken back" in mode.undo_refusal() and "was dealt" in mode.undo_refusal()
    while mode.game.current_player() == 0:
        mode.act(human_action(mode))
    # The person's last card is down; the computer's first card waits the beat, unseen.
    n = len(mode.match.log)
    assert mode.ai_timer.isActive() and mode.game.current_player() == CHANCE
    assert mode.can_undo()
    mode.undo()
    assert len(mode.match.log) == n - 1 and mode.is_human_turn()
    # Without the beat the computer answers at once and the move stays.
    monkeypatch.setattr(GameMode, "undo_beat_ms", 0)
    mode.act(human_action(mode))
    qtbot.waitUntil(lambda: mode.is_human_turn() or mode.game.is_terminal(), timeout=10000)
    assert not mode.can_undo()


def test_two_people_pass_the_screen_when_their_views_differ(qtbot, mode):
    mode.install(new_match(["human", "human"]))
    assert mode.pass_screen.isVisible() and mode.waiting_for == 0 and not mode.is_human_turn()
    mode._pass_done()
    assert mode.viewer == 0 and mode.is_human_turn()
    while mode.game.current_player() == 0:
        mode.act(human_action(mode))
    assert mode.pass_screen.isVisible() and mode.waiting_for == 1 and mode.viewer is None


def test_every_action_is_in_the_log_with_its_players_colour(qtbot, mode):
    mode.install(new_match(["human", "ai:easy"]))
    while mode.game.current_player() == 0:
        mode.act(human_action(mode))
    qtbot.waitUntil(lambda: mode.is_human_turn(), timeout=5000)
    lines = mode.log_panel.lines()
    assert [line.index for line in lines] == list(range(len(mode.match.log)))
    assert {line.colour for line in lines if line.seat == 0} == {mode.seat_colour(0)}
    assert {line.colour for line in lines if line.seat == 1} == {mode.seat_colour(1)}
    assert mode.seat_colour(0) != mode.seat_colour(1)
    assert all(line.text for line in lines)
    mode.log_panel.hovered.emit(lines[-1].index)
    assert mode.highlighted[-1] == lines[-1].index
    mode.log_panel.hovered.emit(-1)
    assert mode.highlighted[-1] is None


def test_a_finished_game_shows_the_score_table_and_replays(qtbot, mode):
    match = new_match(["ai:easy", "ai:easy"], seed=5)
    match.play_out()
    live = new_match(["human", "ai:easy"])
    mode.install(live)
    mode.start_replay(match)
    assert mode.replaying is match and mode.replay_bar.isVisible()
    assert mode.match.state.is_terminal()               # it opens at the end
    mode.replay_bar.go(0)
    assert len(mode.match.log) == 0
    mode.replay_bar.go(5)
    assert mode.match.log == match.log[:5]
    assert not mode.act(human_action(mode) if mode.game.current_player() >= 0 else "x")
    mode.log_panel.picked.emit(9)                        # a click on a line jumps there
    assert mode.replay_bar.position == 10
    mode.replay_bar.close_replay()
    assert mode.replaying is None and mode.match is live and mode.is_human_turn()


def test_the_score_table_opens_when_a_game_ends_in_front_of_the_players(qtbot, mode):
    match = new_match(["human", "ai:easy"], seed=5)
    mode.install(match)
    mode.ai_timer.stop()
    # The person plays the first legal move each time, through act(), to the end.
    while not match.is_over():
        p = match.state.current_player()
        if p == CHANCE or p == 1:
            mode.record(match.step())
        else:
            assert mode.act(human_action(mode))
        mode.ai_timer.stop()
    assert mode.score_dialog is not None and mode.score_dialog.isVisible()
    rows = mode.score_table.rowCount()
    assert rows == 2
    names = {mode.score_table.cell_text(r, 0) for r in range(rows)}
    assert names == {"Ann", "Bob"}


def test_no_undo_behind_a_pass_screen(qtbot, mode):
    """Behind "Pass to Bob", Ctrl+Z would show Bob the screen of Ann's turn."""
    mode.install(new_match(["human", "human"]))
    mode._pass_done()
    while mode.game.current_player() == 0:
        mode.act(human_action(mode))
    assert mode.pass_screen.isVisible() and not mode.can_undo()
    mode.undo()
    assert mode.pass_screen.isVisible() and mode.viewer is None


def test_the_next_person_cannot_take_back_the_last_persons_move(qtbot, mode):
    mode.install(new_match(["human", "human"]))
    mode._pass_done()
    while mode.game.current_player() == 0:
        mode.act(human_action(mode))
    mode._pass_done()                       # Bob at the screen
    assert mode.viewer == 1 and not mode.can_undo()


def test_the_log_follows_new_lines_unless_scrolled_up(qtbot, mode):
    from stateside.app.movelog import LogLine

    panel = mode.log_panel
    panel.resize(300, 120)
    panel.set_lines([LogLine(i, 0, f"line {i}") for i in range(40)])
    bar = panel.verticalScrollBar()
    for i in range(40, 45):
        panel.append(LogLine(i, 0, f"line {i}"))
        qtbot.waitUntil(lambda: bar.value() == bar.maximum(), timeout=2000)
    bar.setValue(0)                         # the person reads back
    with qtbot.waitSignal(bar.rangeChanged, timeout=2000):   # the moment the list would follow
        panel.append(LogLine(45, 0, "line 45"))
    assert bar.value() == 0


def test_a_refused_undo_leaves_the_computers_timer_running(qtbot, mode, monkeypatch):
    """Ctrl+Z where nothing may be taken back changes nothing: the computer still moves."""
    monkeypatch.setattr(GameMode, "undo_beat_ms", 0)
    mode.ai_delay_ms = 60_000   # the computer's move waits on the timer
    mode.install(new_match(["ai:easy", "human"]))
    assert mode.ai_timer.isActive() and mode.undo_refusal()
    mode.undo()
    assert mode.ai_timer.isActive()
