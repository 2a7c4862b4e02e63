"""Scrambled States Qt mode: slapping by clicking the map or a card, keys, feedback, saving."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from stateside.board.view import BoardView
from stateside.engine.clock import planned_reactions
from stateside.engine.match import Match
from stateside.errors import SaveError
from stateside.games.scrambled_states.ai import LEVELS
from stateside.games.scrambled_states.mode import ScrambledStatesMode, build_match
from stateside.games.scrambled_states.panels import COMPUTER_NAMES
from stateside.games.scrambled_states.rules import FACE_UP, Round, slap


def choice(party: bool = False, computers: int = 1, level: str = "easy", target: int = 10,
           practice: bool = False) -> dict:
    """A setup as the setup screen gives it: you (or two people), then the computers;
    level "mixed" gives them the levels in turn."""
    seats = [["Player 1", "human"], ["Player 2", "human"]] if party else [["You", "human"]]
    for i in range(computers):
        lv = list(LEVELS)[i % len(LEVELS)] if level == "mixed" else level
        seats.append([COMPUTER_NAMES[i], f"ai:{lv}"])
    return {"seats": seats, "target": target, "practice": practice}


def last_line(mode) -> str:
    return mode.log_panel.lines()[-1].text


class FakeClock:
    def __init__(self):
        self.t = 0

    def __call__(self) -> int:
        return self.t


@pytest.fixture
def mode(show_mode):
    m = show_mode(ScrambledStatesMode, size=(1280, 720))
    m.now = FakeClock()
    return m


def start(mode, t: int = 2000) -> None:
    mode.resume()
    tick(mode, t)


def tick(mode, t: int) -> None:
    mode.now.t = t
    mode._on_tick()


def arrange(mode, center: str, face: str, table: list[str]) -> None:
    """A known table; the computers are told to sit out so the person is alone."""
    g = mode.game
    rest = [c for c in g.cards.codes if c not in table and c != center]
    g.face_up = list(table) + [None] * (FACE_UP - len(table))
    g.center_pile, g.draw, g.to_draw = [center], rest, []
    g.round = Round(g.round_count, center, face, reveal_at=g.now(), announced=True,
                    first_action=len(g.actions), open_since=g.now())
    mode.match.players = [None] * len(mode.match.players)
    mode.refresh()


def click_state(qtbot, mode, code: str) -> None:
    board = mode.board
    point = board.state_view_point(code).toPoint()
    assert board.state_at(board.mapToScene(point)) == code
    qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=point)


def test_starts_ready_without_a_dialog(mode):
    assert mode.game is not None and not mode.running
    assert mode.start_button.text() == "Start"
    assert mode.save_state() is None            # nothing worth saving before it starts
    assert len(mode.table.slots) == FACE_UP and all(mode.table.slots)
    assert "Press Start" in mode.banner.text()


def test_slap_a_card_by_clicking_the_map(qtbot, mode):
    """How to Play: slap a matching card; here by clicking California on the map."""
    start(mode)
    arrange(mode, "TX", "population", ["VT", "CA", "OR", "NY"])
    assert mode.board._states["CA"].highlight is not None     # the table is outlined on the map
    tick(mode, 2500)
    click_state(qtbot, mode, "CA")
    tick(mode, 2500 + mode.game.settings.tie_window_ms)
    g = mode.game
    assert g.piles[0] == ["CA"]
    assert "You win California" in mode.banner.text()
    assert "same population" in last_line(mode)
    assert g.face_up[1] == "TX" and mode.table.slots[1] == "TX"


def test_slap_a_card_in_the_row(qtbot, mode):
    start(mode)
    arrange(mode, "TX", "region", ["CA", "OK"])
    tick(mode, 3000)
    rect = mode.table.card_rect("OK")
    qtbot.mouseClick(mode.table, Qt.LeftButton, pos=rect.center().toPoint())
    tick(mode, 3300)
    assert mode.game.piles[0] == ["OK"]


def test_slip_slap_feedback_and_bar(qtbot, mode):
    start(mode)
    arrange(mode, "TX", "colour", ["CA", "CO"])
    tick(mode, 2100)
    click_state(qtbot, mode, "CA")
    assert mode.game.is_barred(0)
    assert "Slip slap" in mode.banner.text() and "e63946" in mode.banner.styleSheet()
    assert mode.table.faded == {"CA", "CO"}               # you sit out: the table fades for you
    click_state(qtbot, mode, "CO")                          # refused, not a second slip
    assert "You slipped and sit out" in mode.banner.text() and mode.game.piles[0] == []


def test_space_calls_no_match(qtbot, mode):
    start(mode)
    arrange(mode, "TX", "region", ["CA", "NY", "ME"])
    tick(mode, 2200)
    qtbot.keyClick(mode.board, Qt.Key_Space)
    assert mode.game.piles[0] == ["TX"]
    assert "No Match" in mode.banner.text()


def test_no_match_button_when_wrong_is_a_slip(qtbot, mode):
    start(mode)
    arrange(mode, "TX", "region", ["OK"])
    tick(mode, 2200)
    qtbot.mouseClick(mode.no_match_button, Qt.LeftButton)
    assert mode.game.is_barred(0) and "Wrong call" in mode.banner.text()


def test_hand_by_clicking_the_center_card(qtbot, mode):
    start(mode)
    arrange(mode, "OH", "hand", ["IN"])
    tick(mode, 2200)
    qtbot.mouseClick(mode.center_card, Qt.LeftButton)
    assert mode.game.piles[0] == ["OH"]


def test_no_slap_while_the_die_rolls(qtbot, mode):
    mode.resume()
    tick(mode, 500)
    assert mode.die.rolling and mode.center_card.code is None
    click_state(qtbot, mode, mode.game.face_up[0])
    assert mode.game.actions == [] and "Wait for the die" in mode.banner.text()


def test_computers_slap_on_their_timers(mode):
    """The computers' plans fire from the clock; a tie is shown as a tie, a win as a win."""
    mode.start_game(build_match(choice(party=False, computers=2, level="easy", target=10), 3))
    landed = mode.game.round.reveal_at
    start(mode, landed)
    floor = LEVELS["easy"].min_ms
    plans = planned_reactions(mode.match)
    assert plans and all(t >= landed + floor for t, *_ in plans)   # never faster than easy allows
    assert mode.tick.isActive()
    for t in range(2000, 40000, 250):
        tick(mode, t)
    g = mode.game
    assert sum(g.scores()) >= 3 and g.results
    lines = [line.text for line in mode.log_panel.lines()]
    assert sum(line.startswith("Round ") for line in lines) >= 3 and any("slapped" in line for line in lines)
    assert sum(mode.game.scores()) == sum(len(e.cards) for e in g.results if e.kind != "void")


def test_pause_hides_the_center_card_and_stops_the_clock(mode):
    start(mode, mode.game.round.reveal_at)
    assert mode.center_card.code == mode.game.center
    mode.pause()
    assert mode.center_card.code is None and not mode.tick.isActive()
    assert mode.start_button.text() == "Resume"


def test_save_and_resume(qtbot, mode):
    start(mode)
    for t in range(2000, 20000, 500):
        tick(mode, t)
    saved = mode.save_state()
    assert saved and Match.from_json(saved).state.now() == 19500
    other = ScrambledStatesMode(BoardView())
    qtbot.addWidget(other)
    other.load_state(saved)
    assert other.game.scores() == mode.game.scores()
    assert other.game.face_up == mode.game.face_up and other.game.now() == 19500
    assert not other.running and other.start_button.text() == "Resume"
    assert "resumed" in other.banner.text() and other.last_status == other.banner.text()   # they agree


def test_broken_save_leaves_the_game_alone(mode):
    before = mode.game
    with pytest.raises(SaveError):
        mode.load_state({"engine": {"version": 1, "seed": 3}})
    with pytest.raises(SaveError):
        mode.load_state({"nothing": 1})
    assert mode.game is before


def test_party_buzzer_then_pick_with_the_mouse(qtbot, mode):
    mode.start_game(build_match(choice(party=True, computers=1, level="easy", target=10), 5))
    start(mode)
    arrange(mode, "TX", "population", ["CA", "NY"])
    tick(mode, 2100)
    click_state(qtbot, mode, "CA")
    assert mode.game.actions == [] and "Buzz first" in mode.banner.text()
    qtbot.keyClick(mode.board, Qt.Key_L)            # player 2 buzzes
    assert mode.game.buzz_holder() == 1
    tick(mode, 2600)
    click_state(qtbot, mode, "NY")
    tick(mode, 3000)
    assert mode.game.piles[1] == ["NY"]


def test_party_buzzer_running_out_is_a_slip(qtbot, mode):
    mode.start_game(build_match(choice(party=True, computers=0, level="easy", target=10), 5))
    start(mode)
    arrange(mode, "TX", "population", ["CA"])
    tick(mode, 2100)
    qtbot.keyClick(mode.board, Qt.Key_A)
    tick(mode, 2100 + 3000)
    assert mode.game.is_barred(0) and "did not pick in time" in last_line(mode)


def test_game_over_offers_a_new_game(mode):
    mode.start_game(build_match(choice(party=False, computers=1, level="hard", target=3), 9))
    start(mode)
    for t in range(2000, 60000, 500):
        tick(mode, t)
        if mode.game.is_terminal():
            break
    assert mode.game.is_terminal() and mode.game.winners()
    assert mode.start_button.text() == "New game" and "Press New game" in mode.banner.text()


def test_help_names_our_design(mode):
    text = mode.help_html()
    for words in ("Slip slap", "No Match", "Potomac", "Party play", "our own design"):
        assert words in text


def test_typing_a_name_slaps_it_and_its_space_is_not_no_match(qtbot, mode):
    start(mode)
    arrange(mode, "TX", "population", ["CA", "NY"])
    tick(mode, 2300)
    qtbot.keyClicks(mode.board, "new")
    qtbot.keyClick(mode.board, Qt.Key_Space)          # part of "new york", not No Match
    assert mode.game.actions == []
    qtbot.keyClicks(mode.board, "york")
    qtbot.keyClick(mode.board, Qt.Key_Return)
    tick(mode, 2600)
    assert mode.game.piles[0] == ["NY"]


def test_switching_modes_pauses_and_leaves_the_board_alone(qtbot, tmp_path, monkeypatch):
    from stateside.app.main import MainWindow

    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    mode = window.open_mode("scrambled-states")
    mode.now = FakeClock()
    start(mode)
    table = mode.game.face_up_cards()
    assert window.board._states[table[0]].highlight is not None
    window.open_mode("explorer")
    assert not mode.running and not mode.tick.isActive()
    assert window.board._states[table[0]].highlight is None      # our marks are gone
    actions = list(mode.game.actions)
    window.board.stateClicked.emit(table[0])                       # a click meant for the explorer
    assert mode.game.actions == actions
    window.open_mode("scrambled-states")
    assert window.board._states[table[0]].highlight is not None
    assert mode.start_button.text() == "Resume"


def test_a_computer_win_stays_in_view_with_its_name(mode):
    """Computer slaps are visible: the won card stays in its slot stamped with the winner's
    name, and the map names the winner on that state, until the next die lands."""
    start(mode)
    arrange(mode, "TX", "population", ["VT", "CA", "OR", "NY"])
    g = mode.game
    t = g.now() + 100
    mode.match.apply(g.advance_action(t))       # Ada's slap, as her timer would make it
    mode.match.apply(slap(1, "NY", t))
    tick(mode, t + g.settings.tie_window_ms)
    assert g.piles[1] == ["NY"] and g.face_up[3] == "TX"
    assert "Ada (beginner) wins New York" in mode.banner.text()
    assert mode.table.won == {3: ("NY", "Ada", mode.table.won[3][2])}
    assert mode.board._states["NY"].highlight is not None and not mode.board._states["NY"].dimmed
    assert "scrambled-won" in mode.board._layers
    assert mode.table.slots[3] == "TX"           # underneath, Texas has already taken the place
    tick(mode, g.round.reveal_at)               # the die lands: the real table is back
    assert mode.table.won == {} and "scrambled-won" not in mode.board._layers
    assert "TX" in mode.table.flashes            # and the card that arrived is pointed out


def test_hand_win_shows_the_center_card_with_the_winner(mode):
    start(mode)
    arrange(mode, "OH", "hand", ["IN"])
    t = mode.game.now() + 100
    tick(mode, t)
    mode.slap_center()
    assert mode.game.piles[0] == ["OH"]
    assert mode.center_card.code == "OH" and mode.center_card.caption[0] == "You"


def test_the_card_row_keeps_its_size_whatever_the_panel_shows(qtbot, show_mode):
    """Six players or two, a short message or a long one: the cards never jump in size."""
    heights = {}
    for computers in (1, 5):
        m = show_mode(ScrambledStatesMode, size=(1024, 700))
        m.start_game(build_match(choice(computers=computers, level="mixed"), 4))
        m.set_banner("slip", "A long message " * 12)
        qtbot.wait(10)
        heights[computers] = (m.table.height(), m.table.slot_rect(0).height())
        assert m.table.geometry().bottom() <= m.height()
    assert heights[1] == heights[5] and heights[1][1] >= 80


def test_party_round_banner_names_the_buzzer_keys(mode):
    mode.start_game(build_match(choice(party=True, computers=0, level="easy", target=10), 5))
    start(mode, mode.game.round.reveal_at)
    assert "Buzz (A or L), then pick." in mode.banner.text()


@pytest.mark.parametrize("bad", [
    None, [], {"engine": "x"}, {"engine": {"version": 1}},
    {"engine": {"version": 1, "seed": 1, "settings": {"seats": [{"name": "A"}, {"name": "B"}], "target": "9"},
                "actions": []}},
    {"engine": {"version": 1, "seed": 1, "settings": {"seats": [{"name": "A"}, {"name": "B", "kind": "ai:genius"}]},
                "actions": []}},
    {"game": "ten-days", "board": [1, 2, 3]},
    {"game": "scrambled-states", "setup": {"players": ["A", "B"], "target": "9"}, "seed": 1,
     "seats": ["human", "ai:easy"], "actions": []},
    {"game": "scrambled-states", "setup": {"players": ["A", "B"]}, "seed": 1,
     "seats": ["human", "ai:genius"], "actions": []},
    {"game": "scrambled-states", "setup": {"players": ["A", "B"]}, "seed": 1,
     "seats": ["human", "ai:easy"], "actions": [["slap", 0, 10, "TX"]]},
])
def test_foreign_or_broken_saves_leave_the_game_alone(mode, bad):
    start(mode)
    before, actions = mode.game, list(mode.game.actions)
    with pytest.raises(SaveError):
        mode.load_state(bad)
    assert mode.game is before and mode.game.actions == actions and mode.running


def test_party_buzzer_letters_inside_a_typed_name_are_letters(qtbot, mode):
    """Party play: A and L buzz, but not in the middle of typing a state's name ("Maine")."""
    mode.start_game(build_match(choice(party=True, computers=0, level="easy", target=10), 5))
    start(mode)
    arrange(mode, "TX", "population", ["ME", "CA"])
    tick(mode, 2100)
    qtbot.keyClick(mode.board, Qt.Key_L)                 # player 2 buzzes
    assert mode.game.buzz_holder() == 1
    qtbot.keyClicks(mode.board, "m")
    qtbot.keyClick(mode.board, Qt.Key_A)                 # a letter of "maine", not player 1's buzzer
    assert mode.board.is_typing() and mode.game.buzz_holder() == 1
    qtbot.keyClicks(mode.board, "ine")
    qtbot.keyClick(mode.board, Qt.Key_Return)
    assert mode.game.is_barred(1)                        # Maine has one person, Texas five: a slip


def test_setup_screen_levels_and_party(qtbot):
    """New game is the shared setup screen: each computer level with its usual reaction
    times (only the levels meant for play, not the simulated people); two people make a
    party with buzzers A and L, and then the practice option is moot (untimed anyway)."""
    from stateside.app.setup_screen import SetupScreen
    from stateside.games.scrambled_states.ai import PEOPLE
    from stateside.games.scrambled_states.mode import ScrambledSetup

    dialog = ScrambledSetup(choice(computers=2, level="easy"))
    qtbot.addWidget(dialog)
    assert isinstance(dialog, SetupScreen) and dialog.first_box is None   # a race: nobody starts
    box = dialog.kind_boxes[1]
    kinds = [box.itemData(i) for i in range(box.count())]
    assert kinds == ["human", "ai:beginner", "ai:easy", "ai:medium", "ai:hard"]
    assert not any(f"ai:{p}" in kinds for p in PEOPLE)
    lo, hi = LEVELS["beginner"].usual_range()
    assert box.itemText(1) == f"Computer, beginner (slaps in {lo:.1f}-{hi:.1f} s)"
    assert dialog.count.value() == 3 and dialog.count.minimum() == 2 and dialog.count.maximum() == 6
    dialog.count.setValue(2)
    dialog.kind_boxes[1].setCurrentIndex(0)                # Ada becomes a person: a party of two
    assert dialog.names[1].text() == "Player 2"
    assert not dialog.practice.isEnabled() and "buzzes with A" in dialog.note.text()
    assert dialog.choice() == {"seats": [["You", "human"], ["Player 2", "human"]], "target": 10,
                               "practice": False}
    match = build_match(dialog.choice(), 0)
    assert match.names == ["You (A)", "Player 2 (L)"] and match.seats == ["human", "human"]
    assert match.state.settings.buzzer_seats == (0, 1) and match.state.settings.round_limit_ms == 0


def test_setup_screen_refuses_three_people_or_none(qtbot):
    """People share one keyboard (buzzers A and L): three cannot play, nor can nobody."""
    from stateside.games.scrambled_states.mode import ScrambledSetup

    dialog = ScrambledSetup(choice(party=True, computers=1))
    qtbot.addWidget(dialog)
    dialog.kind_boxes[2].setCurrentIndex(0)
    assert "At most 2 people" in dialog.problem.text() and dialog.problem.isVisibleTo(dialog)
    from PySide6.QtWidgets import QDialogButtonBox
    start = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok)
    assert not start.isEnabled()
    dialog.accept()
    assert dialog.result() != ScrambledSetup.Accepted
    with pytest.raises(ValueError, match="At most 2 people"):
        build_match(dialog.choice(), 0)
    for box in dialog.kind_boxes:
        box.setCurrentIndex(1)
    assert "at least one seat a person" in dialog.problem.text()
    dialog.kind_boxes[1].setCurrentIndex(0)
    assert not dialog.problem.text() and start.isEnabled()
    dialog.accept()
    assert dialog.result() == ScrambledSetup.Accepted
    match = build_match(dialog.choice(), 0)
    assert match.seats == ["ai:beginner", "human", "ai:beginner"] and match.state.settings.buzzer_seats == ()


def test_new_game_goes_through_the_setup_screen(qtbot, mode, monkeypatch):
    """Game > New: the setup screen's choice starts the game (the clock stopped meanwhile)."""
    from stateside.games.scrambled_states.mode import ScrambledSetup

    start(mode)
    seen = {}

    def answer(dialog):
        seen["running"] = mode.running
        dialog.count.setValue(3)
        dialog.kind_boxes[2].setCurrentIndex(dialog.kind_boxes[2].findData("ai:hard"))
        dialog.target.setValue(5)
        dialog.practice.setChecked(True)
        return ScrambledSetup.Accepted

    monkeypatch.setattr(ScrambledSetup, "exec", answer)
    mode.new_game()
    assert seen["running"] is False
    g = mode.game
    assert g.names == ["You", "Ada (beginner)", "Ben (hard)"] and mode.match.seats[2] == "ai:hard"
    assert g.settings.target == 5 and g.settings.round_limit_ms == 0 and not mode.started
    assert mode.choice["seats"][2] == ["Ben", "ai:hard"]


def test_an_old_save_opens_in_the_mode(qtbot, mode):
    """A version-1 save (before the engine protocol), as Game > Open reads it."""
    from pathlib import Path

    from stateside.engine.saves import read_save

    _, body = read_save(Path(__file__).parent / "data" / "saves-v1" / "scrambled-states-party-tie-window.json")
    mode.load_state(body)
    g = mode.game
    assert g.scores() == [7, 4, 1] and g.phase == "closing" and g.now() == 52907
    assert mode.match.seats == ["human", "human", "ai:medium"] and mode.start_button.text() == "Resume"
    start(mode, 52907 + 300)                 # the tie window closes: Player 2 wins the card
    assert g.scores() == [7, 5, 1] and "Player 2 (L) wins" in last_line(mode)


def test_a_new_game_is_one_beginner_computer(qtbot, mode):
    """Issue 11: the default opponent is one computer at the beginner level, slower than a
    first-time player; the setup screen offers it and starts on it."""
    from stateside.games.scrambled_states.mode import ScrambledSetup

    assert mode.match.seats == ["human", "ai:beginner"] and mode.game.names == ["You", "Ada (beginner)"]
    assert mode.game.settings.round_limit_ms > 0          # an ordinary game is timed
    dialog = ScrambledSetup(mode.choice, mode)
    qtbot.addWidget(dialog)
    assert dialog.count.value() == 2 and [s.kind for s in dialog.seats()] == ["human", "ai:beginner"]
    assert not dialog.practice.isChecked() and dialog.target.value() == 10
    dialog.count.setValue(3)                               # a seat added is a beginner too
    assert dialog.seats()[2].kind == "ai:beginner"


def test_practice_and_people_only_rounds_are_untimed(mode):
    """Issue 11: practice makes rounds untimed, and so does a game of people only: time
    passes far beyond the usual limit and the round still waits for a player."""
    for setup in (choice(computers=1, level="beginner", practice=True), choice(party=True, computers=0)):
        mode.start_game(build_match(setup, 5))
        assert "Rounds are untimed" in mode.banner.text()
        start(mode)
        arrange(mode, "TX", "population", ["VT", "CA", "OR", "NY"])
        g = mode.game
        assert g.settings.round_limit_ms == 0 and g.next_deadline() is None
        tick(mode, g.now() + 10 * 60 * 1000)               # ten minutes later
        assert g.now() >= 10 * 60 * 1000 and not [e for e in g.results if e.kind == "void"]
        assert g.phase == "open"
    timed = build_match(choice(party=True, computers=1, level="easy", target=10), 5)
    assert timed.state.settings.round_limit_ms == 20000


def test_the_card_legend_stays_apart_from_the_round_log(mode):
    """Issue 11: the card help is a fixed panel; the log holds only the rounds."""
    assert "land mass" in mode.legend.text() and "bars" in mode.legend.text()
    assert [line.text for line in mode.log_panel.lines()] == ["The deal: 15 cards face up."]
    start(mode)
    arrange(mode, "TX", "population", ["VT", "CA", "OR", "NY"])
    mode.slap_card("NY")
    tick(mode, mode.game.now() + 300)
    texts = [line.text for line in mode.log_panel.lines()]
    assert len(texts) >= 2 and all("Reading a card" not in text for text in texts)
    mode.start_game(build_match(mode.choice, 3))
    assert mode.log_panel.count() == 1 and mode.legend.isVisible()


def test_land_mass_bars_count_the_size(qtbot):
    """Issue 11: the land-mass icon is 1-4 filled bars out of four, rising, so the size is a
    count that reads at a glance (not four sizes of one blob)."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from stateside.games.scrambled_states.painting import LAND, land_bars, paint_land_mass

    box = QRectF(0, 0, 40, 40)
    for size in range(1, 5):
        bars = land_bars(box, size)
        assert [filled for _, filled in bars] == [i < size for i in range(4)]
        assert all(a.height() < b.height() and a.right() < b.left() for (a, _), (b, _) in zip(bars, bars[1:]))
    counts = []
    for size in range(1, 5):   # the brown painted grows with the size
        img = QImage(40, 40, QImage.Format_RGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        paint_land_mass(p, box, size)
        p.end()
        counts.append(sum(QColor(img.pixel(x, y)) == LAND for x in range(40) for y in range(40)))
    assert counts == sorted(counts) and counts[0] > 20 and counts[3] > 2.5 * counts[0]
