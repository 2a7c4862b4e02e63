"""America's Qt mode: markers placed by clicking the map and the bars, computer turns,
the reveal, save and resume."""
import pytest
from PySide6.QtCore import Qt

from stateside.errors import SaveError
from stateside.games.america.mode import AmericaMode


@pytest.fixture
def mode(show_mode):
    m = show_mode(AmericaMode)   # the used-topics history goes to the test's config folder
    m.ai_delay_ms = 0
    return m


def click_state(qtbot, board, code):
    point = board.state_view_point(code).toPoint()
    qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=point)


def test_default_game_starts_with_a_person_choosing(mode):
    g = mode.game
    assert g is not None and mode.seats[0] == "human"
    assert g.phase == "choose" and mode.is_human_turn()
    assert all(b.isVisible() for b in mode.choose_buttons)


def test_clicking_a_state_places_a_marker(qtbot, mode):
    """A pytest-qt click on the map puts the player's marker on that state."""
    mode.start_game(["human", "human"], seed=3)
    qtbot.mouseClick(mode.choose_buttons[0], Qt.LeftButton)
    g = mode.game
    assert g.phase == "place" and g.current_player() == 1
    click_state(qtbot, mode.board, "GA")
    assert g.occupied() == {("state", "GA"): 1}
    assert mode.board.tokens_on("GA")
    assert "Blue \u2192 Georgia" in mode.details.toPlainText()
    # the same state again is refused with a message, nothing changes
    messages = []
    mode.status.connect(messages.append)
    click_state(qtbot, mode.board, "GA")
    assert g.occupied() == {("state", "GA"): 1}
    assert messages and "Georgia already holds Blue's marker" in messages[-1]


def test_clicking_bar_spaces_places_markers(qtbot, mode):
    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[1].clicked.emit()
    bars = mode.bars
    qtbot.mouseClick(bars, Qt.LeftButton, pos=bars.cell_centre("year", "1875").toPoint())
    qtbot.mouseClick(bars, Qt.LeftButton, pos=bars.cell_centre("number", "no-exact").toPoint())
    assert mode.game.occupied() == {("year", "1875"): 1, ("number", "no-exact"): 0}
    assert bars.marks[("year", "1875")].letter == "B"


def test_east_west_hint_greys_out_the_other_side(qtbot, mode):
    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()
    from stateside.games.america.rules import mississippi_side

    side = mississippi_side(mode.game.topic().state.answer)
    dimmed = {c for c in mode.board.codes() if mode.board._states[c].dimmed}
    assert dimmed and all(mississippi_side(c) != side for c in dimmed)
    assert side.upper() in mode.card_label.text()


def test_a_whole_card_against_computers_then_the_reveal(qtbot, mode):
    """Computer seats play on a timer; after the last pass the card is revealed with each
    scoring marker explained, and Next card goes on."""
    mode.start_game(["human", "ai:hard", "ai:easy"], seed=8)
    mode.choose_buttons[0].clicked.emit()
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    click_state(qtbot, mode.board, mode.game.topic().state.answer)   # Red knows this one
    assert mode.can_undo()                  # until another seat acts
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert not mode.can_undo()              # the computers have acted since
    while not mode.revealing:
        qtbot.mouseClick(mode.pass_button, Qt.LeftButton)
        qtbot.waitUntil(lambda: mode.is_human_turn() or mode.revealing, timeout=5000)
    result = mode.game.results[-1]
    assert result.points[0] >= 7
    text = mode.details.toPlainText()
    state = mode.game.topics[result.topic].state
    from stateside.games.america.rules import state_name

    assert f"+7 Red: {state_name(state.answer)} is the answer" in text
    assert state.background in text
    assert mode.next_button.isVisible() and not mode.can_undo()
    mode.board.tokens_on(state.answer)
    qtbot.mouseClick(mode.next_button, Qt.LeftButton)
    assert not mode.revealing and mode.game.card_number == 2
    # the history file now remembers the topic just played
    from stateside.games.america.mode import read_history

    assert result.topic in read_history()


def test_undo_takes_back_the_persons_last_marker(qtbot, mode):
    """A person takes back their own last marker while no other seat has acted since."""
    mode.start_game(["human", "ai:medium"], seed=2)
    qtbot.waitUntil(lambda: mode.game.phase == "place" or mode.is_human_turn(), timeout=5000)
    if mode.game.phase == "choose":
        mode.choose_buttons[0].clicked.emit()
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    mode.bars.spaceClicked.emit("year", "1492")
    assert ("year", "1492") in mode.game.occupied()
    mode.undo()
    assert ("year", "1492") not in mode.game.occupied()
    assert mode.is_human_turn()
    mode.bars.spaceClicked.emit("year", "1492")
    qtbot.waitUntil(lambda: mode.is_human_turn() or mode.revealing, timeout=5000)
    assert not mode.can_undo()      # the computer has placed since: no taking back


def test_save_and_resume(qtbot, mode):
    mode.start_game(["human", "human", "ai:easy"], seed=5)
    mode.choose_buttons[0].clicked.emit()
    click_state(qtbot, mode.board, "TX")
    state = mode.save_state()
    import json

    state = json.loads(json.dumps(state))
    other = AmericaMode(mode.board)
    qtbot.addWidget(other)
    other.load_state(state)
    assert other.game.occupied() == {("state", "TX"): 1}
    assert other.seats == ["human", "human", "ai:easy"]
    with pytest.raises(SaveError):
        other.load_state({"game": state["game"], "seats": ["human"]})
    with pytest.raises(SaveError):
        other.load_state({"game": {"version": 1}, "seats": ["human", "human"]})
    # a bad save leaves the game as it was
    assert other.game.occupied() == {("state", "TX"): 1}


def test_help_page_is_in_our_own_words(mode):
    text = mode.help_html()
    assert "No Exact or Adjacent" in text and "What is ours" in text


def test_bars_work_from_the_keyboard(qtbot, mode):
    """Tab into the bars, move with the arrow keys, Enter places a marker."""
    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()
    mode.bars.setFocus()
    qtbot.keyClick(mode.bars, Qt.Key_Right)      # the cursor starts on 1492, moves to 1600
    qtbot.keyClick(mode.bars, Qt.Key_Down)       # down to the state row's nearest space
    qtbot.keyClick(mode.bars, Qt.Key_Down)       # and to the number bar
    qtbot.keyClick(mode.bars, Qt.Key_Return)
    placed = list(mode.game.occupied())
    assert len(placed) == 1 and placed[0][0] == "number"


def test_a_tie_shows_the_showdown(qtbot, mode):
    """End of the Game: tied on points and markers, the tied players play a showdown card;
    the panel says why and who plays it."""
    from stateside.engine.match import Match
    from stateside.games.america.deck import Card, Question, Topic
    from stateside.games.america.rules import AmericaGame

    def question(answer):
        return Question("?", answer, "Background.", "test")

    deck = tuple(Card(n, tuple(Topic(f"T{n}{s}", n, s, question(1880), question("FL"), question(5))
                               for s in "AB")) for n in range(1, 10))

    class SmallBox(AmericaGame):
        @classmethod
        def new(cls, setup):
            return cls(setup, deck=deck)

    match = Match(SmallBox, ["human", "human", "ai:easy"], 1, SmallBox.default_setup(3))
    game = match.state
    plans = {0: "place:year:1875", 1: "place:state:FL", 2: "place:number:1B"}
    while game.showdown is None:
        match.resolve_chance()
        match.apply("choose:0")
        while game.phase == "place":
            seat = game.current_player()
            match.apply("pass" if game.can_pass(seat) else plans[seat])
    mode._install(match, revealing=True)
    assert "Red and Blue are tied on 42 points" in mode.prompt.text()
    mode.next_card()
    assert mode.header.text().startswith("Showdown card 1 \u00b7 Red vs Blue")
    assert mode.track.rows[2].status == "watching"


def test_setup_dialog_picks_who_reads_the_first_card(qtbot, mode):
    """How to Play > 1. Change the Start Player: "For the first card, choose the start
    player" (the players agree); the New game dialog asks for it."""
    from stateside.games.america.mode import SetupDialog

    dialog = SetupDialog(["human", "ai:easy", "ai:hard"], mode)
    qtbot.addWidget(dialog)
    assert [dialog.first.itemText(i) for i in range(dialog.first.count())] == ["Red", "Blue", "White"]
    dialog.first.setCurrentIndex(2)
    dialog.count.setValue(4)                       # more seats keep the choice
    assert dialog.first.count() == 4 and dialog.start_player() == 2
    dialog.count.setValue(2)                       # White is gone: back to Red
    assert dialog.start_player() == 0
    dialog.first.setCurrentIndex(1)
    mode.start_game(dialog.seats(), seed=1, start_player=dialog.start_player())
    g = mode.game
    assert g.start_player == 1 and g.current_player() == 1
    assert "Blue reads the card" in mode.header.text()


def test_refused_clicks_are_explained_in_the_panel(qtbot, mode):
    mode.start_game(["human", "human"], seed=3)
    click_state(qtbot, mode.board, "TX")            # the topic is not chosen yet
    assert mode.notice.isVisible() and "choose this card's topic" in mode.notice.text()
    mode.choose_buttons[0].clicked.emit()
    assert not mode.notice.isVisible()
    click_state(qtbot, mode.board, "TX")
    click_state(qtbot, mode.board, "TX")
    assert mode.notice.isVisible() and "Texas already holds Blue's marker" in mode.notice.text()
    click_state(qtbot, mode.board, "OK")
    assert not mode.notice.isVisible()


def test_the_topics_offered_show_the_east_west_hint(mode):
    """2. Choose a Side to Read From: the shading behind the State question (east or west of
    the Mississippi) is on the half of the card the start player sees."""
    from stateside.games.america.rules import mississippi_side

    mode.start_game(["human", "human"], seed=3)
    for button, topic in zip(mode.choose_buttons, mode.game.offered_topics()):
        assert f"{mississippi_side(topic.state.answer)} of the Mississippi" in button.label.text()


def test_keyboard_shortcuts_work_and_are_in_the_help(qtbot, mode):
    mode.start_game(["human", "human"], seed=3)
    window = mode.window()
    second = mode.game.offered_topics()[1]
    qtbot.keyClick(window, Qt.Key_2, Qt.ControlModifier)
    assert mode.game.phase == "place" and mode.game.topic() is second
    mode.bars.spaceClicked.emit("year", "1600")     # Blue
    mode.bars.spaceClicked.emit("year", "1700")     # Red
    qtbot.keyClick(window, Qt.Key_P, Qt.ControlModifier)    # Blue passes
    qtbot.waitUntil(lambda: 1 in mode.game.passed, timeout=2000)
    qtbot.keyClick(window, Qt.Key_P, Qt.ControlModifier)    # Red passes: the card is scored
    qtbot.waitUntil(lambda: mode.revealing, timeout=2000)
    qtbot.keyClick(window, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not mode.revealing, timeout=2000)
    assert mode.game.card_number == 2
    keys = mode.help_html()
    for key in ("Ctrl+1", "Ctrl+2", "Ctrl+P", "Ctrl+Enter", "Ctrl+Z", "arrow keys"):
        assert key in keys


@pytest.mark.parametrize("seats", [[["human"], "ai:easy"], [{"a": 1}, "human"], [None, "human"], "human"])
def test_malformed_seats_are_save_errors_and_change_nothing(qtbot, mode, seats):
    mode.start_game(["human", "human"], seed=5)
    mode.choose_buttons[0].clicked.emit()
    click_state(qtbot, mode.board, "TX")
    before = mode.save_state()
    state = dict(before, seats=seats)
    with pytest.raises(SaveError, match="seats"):
        mode.load_state(state)
    assert mode.save_state() == before


@pytest.mark.parametrize("name", ["america-mid-card.json", "america-revealing.json", "america-showdown.json"])
def test_version_1_saves_open_in_the_mode(qtbot, mode, name):
    """A save from before the engine protocol opens where it was left: the card on the
    board, or the card just scored on show."""
    from pathlib import Path

    from stateside.engine.saves import read_save

    _, body = read_save(Path(__file__).parent / "data" / "saves-v1" / name, "america")
    mode.load_state(body)
    assert mode.save_state()["actions"] == body["actions"]
    assert mode.revealing == (name == "america-revealing.json")
    if name == "america-mid-card.json":
        assert mode.game.occupied() == {("state", "HI"): 2, ("state", "IA"): 1} and mode.is_human_turn()
        assert mode.board.tokens_on("HI")
    if name == "america-showdown.json":
        assert mode.header.text().startswith("Showdown card 1")
