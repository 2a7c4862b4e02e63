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
    m.asked = []                 # the first marker across the Mississippi: say yes, and note it
    m.ask_yes_no = lambda title, text: m.asked.append(text) or True
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
    assert set(mode.map_markers()) == {"GA"}
    assert mode.log_panel.lines()[-1].text == "Blue placed a marker on Georgia"
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


def test_east_west_hint_hatches_the_other_side(qtbot, mode):
    """2. Choose a Side to Read From: the card shows which side of the Mississippi the state
    lies on. The other side is hatched, not greyed out: a marker there is still allowed."""
    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()
    from stateside.games.america.rules import mississippi_side

    side = mississippi_side(mode.game.topic().state.answer)
    hatched = mode.hatched()
    assert hatched == {c for c in mode.board.codes() if mississippi_side(c) != side}
    assert not any(mode.board._states[c].dimmed for c in mode.board.codes())
    assert side.upper() in mode.card_label.text() and "allowed" in mode.card_label.text()


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
    assert not mode.hatched()           # the reveal shows the answer, not the hint
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
    mode.install(match, match.to_json())     # as a save made just after the scoring
    assert "Red and Blue are tied on 42 points" in mode.prompt.text()
    mode.next_card()
    assert mode.header.text().startswith("Showdown card 1 \u00b7 Red vs Blue")
    assert mode.track.rows[2].status == "watching"


def test_setup_screen_picks_who_reads_the_first_card(qtbot, mode):
    """How to Play > 1. Change the Start Player: "For the first card, choose the start
    player" (the players agree); the New game screen asks for it."""
    from stateside.app.setup_screen import SetupScreen

    mode.start_game(["human", "ai:easy", "ai:hard"], seed=1)
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    assert isinstance(dialog, SetupScreen)
    assert [c.kind for c in dialog.seats()] == ["human", "ai:easy", "ai:hard"]
    box = dialog.first_box
    assert [box.itemText(i) for i in range(box.count())] == ["Red", "Blue", "White"]
    box.setCurrentIndex(2)
    dialog.count.setValue(4)                       # more seats keep the choice
    assert box.count() == 4 and dialog.first() == 2
    dialog.count.setValue(2)                       # White is gone: the last seat left
    assert dialog.first() == 1
    dialog.names[1].setText("Ann")
    dialog.kind_boxes[1].setCurrentIndex(dialog.kind_boxes[1].findData("ai:hard"))
    mode.start_from_setup(dialog)
    g = mode.game
    assert g.start_player == 1 and g.current_player() == 1 and g.players == ["Red", "Ann"]
    assert mode.seats == ["human", "ai:hard"]
    assert "Ann reads the card" in mode.header.text()
    # two people of one name still get a name each (the rules need it)
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    dialog.names[0].setText("Ann")
    mode.start_from_setup(dialog)
    assert mode.game.players == ["Ann", "Ann 2"]


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
        assert set(mode.map_markers()) == {"HI", "IA"}
    if name == "america-showdown.json":
        assert mode.header.text().startswith("Showdown card 1")


# --- what a newcomer hit at the table (issue 14, point 6) ----------------------------------

def test_typed_state_names_reach_the_map_from_the_bars(qtbot, mode):
    """After a click on a bar space, typing "indiana" and Enter places on Indiana, not on
    the bar space the keyboard cursor is on; the map's typing prompt shows meanwhile."""
    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()
    bars = mode.bars
    qtbot.mouseClick(bars, Qt.LeftButton, pos=bars.cell_centre("year", "1875").toPoint())  # Blue
    assert mode.game.occupied() == {("year", "1875"): 1}
    qtbot.keyClicks(bars, "indi")
    assert mode.board.is_typing() and mode.board._type_label.isVisible()
    assert "Indiana" in mode.board._type_label.text()
    qtbot.keyClicks(bars, "ana")
    qtbot.keyClick(bars, Qt.Key_Return)                                                    # Red
    assert mode.game.occupied() == {("year", "1875"): 1, ("state", "IN"): 0}
    assert not mode.board.is_typing()
    # from a button too; keys that are not a state's letters keep their own meaning
    mode.pass_button.setFocus()
    qtbot.keyClicks(mode.pass_button, "ohio")
    qtbot.keyClick(mode.pass_button, Qt.Key_Enter)                                         # Blue
    assert mode.game.occupied()[("state", "OH")] == 1
    qtbot.keyClick(bars, Qt.Key_Right)        # not typing: the arrows and Enter stay the bars'
    qtbot.keyClick(bars, Qt.Key_Return)
    assert mode.game.occupied()[("year", "1900")] == 0 and len(mode.game.occupied()) == 4


def test_the_first_marker_across_the_mississippi_asks_once(qtbot, mode):
    """The rules let a marker go on either side of the Mississippi; the first such marker
    of a game asks for a confirmation (No places nothing), later ones do not."""
    from stateside.games.america.rules import mississippi_side

    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()
    side = mississippi_side(mode.game.topic().state.answer)
    far = [c for c in ("CA", "TX", "NV", "OR", "NY", "FL", "OH", "GA") if mississippi_side(c) != side]
    near = [c for c in ("CA", "TX", "NV", "OR", "NY", "FL", "OH", "GA") if mississippi_side(c) == side]
    mode.ask_yes_no = lambda title, text: mode.asked.append(text) or False
    click_state(qtbot, mode.board, far[0])
    assert mode.game.occupied() == {} and len(mode.asked) == 1 and "allow" in mode.asked[0]
    click_state(qtbot, mode.board, near[0])          # the card's own side: no question
    assert len(mode.asked) == 1 and mode.game.occupied() == {("state", near[0]): 1}
    mode.ask_yes_no = lambda title, text: mode.asked.append(text) or True
    click_state(qtbot, mode.board, far[0])
    click_state(qtbot, mode.board, far[1])           # confirmed once: no more questions
    assert len(mode.asked) == 2
    assert mode.game.occupied() == {("state", near[0]): 1, ("state", far[0]): 0, ("state", far[1]): 1}
    mode.start_game(["human", "human"], seed=3)      # a new game asks again
    assert not mode.cross_confirmed


def test_map_markers_are_larger_than_the_labels_they_cover(qtbot, mode):
    from PySide6.QtGui import QFontMetricsF

    from stateside.board.items import LABEL_FONT
    from stateside.games.america.panels import MapMarker

    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()
    click_state(qtbot, mode.board, "KS")
    click_state(qtbot, mode.board, "NJ")             # a state with a tab in the Atlantic
    markers = mode.map_markers()
    metrics = QFontMetricsF(LABEL_FONT)
    widest = max(metrics.boundingRect(code).width() for code in mode.board.codes())
    assert 2 * MapMarker.RADIUS > widest + 2 and 2 * MapMarker.RADIUS > metrics.height() + 8
    assert markers["KS"].pos() == mode.board.state_anchor("KS")       # on the label
    assert markers["NJ"].pos().x() > mode.board.state_anchor("NJ").x()  # beside the tab
    assert markers["KS"].letter == "B" and markers["NJ"].letter == "R"
    # a click on a marker is a click on the state under it
    click_state(qtbot, mode.board, "KS")
    assert "Kansas already holds Blue's marker" in mode.notice.text()


def test_score_bars_are_scaled_to_the_leader(qtbot):
    from stateside.games.america.panels import ScoreTrack, TrackRow

    track = ScoreTrack()
    qtbot.addWidget(track)
    rows = [TrackRow("Red", "#d62828", "R", "you", score, 5, 0, "", False) for score in (12, 30, 0)]
    track.set_rows(rows)
    assert track.fractions() == [0.4, 1.0, 0.0]
    track.set_rows([TrackRow("Red", "#d62828", "R", "you", 0, 5, 0, "", False)] * 2)
    assert track.fractions() == [0.0, 0.0]


def test_bars_are_readable_at_the_smallest_window(qtbot, show_mode):
    """At 1024 x 700 (the mode gets about 1024 x 620) the year and number labels keep a
    readable size and every score bar has room to show the differences."""
    m = show_mode(AmericaMode, size=(1024, 620))
    m.ask_yes_no = lambda title, text: True
    m.start_game(["human", "ai:easy", "ai:easy", "ai:easy", "ai:easy", "ai:easy"], seed=4)
    qtbot.wait(10)
    assert m.bars.label_size("year") >= 8.0 and m.bars.label_size("number") >= 7.5
    assert all(m.track.bar_rect(i).width() >= 150 for i in range(6))
    assert m.track.height() <= 6 * 30 + 4              # room left for the card and the log
    card_bottom = m.choose_buttons[1].geometry().bottom()
    assert card_bottom < m.track.geometry().top() and m.track.geometry().bottom() < m.log_panel.geometry().top()
    # six players and two topics to choose from: the move log still shows three lines
    line = m.log_panel.fontMetrics().lineSpacing() + 6
    assert m.log_panel.height() >= 3 * line


def test_the_move_log_has_room_at_the_smallest_window(qtbot, show_mode):
    """At 1024 x 700 (the mode gets about 1024 x 620) three players' log shows six lines or
    more while markers are placed."""
    m = show_mode(AmericaMode, size=(1024, 620))
    m.start_game(["human", "ai:easy", "ai:easy"], seed=4)
    m.act("choose:0")
    qtbot.waitUntil(m.is_human_turn, timeout=5000)
    assert m.log_panel.height() >= 6 * (m.log_panel.fontMetrics().lineSpacing() + 6)
