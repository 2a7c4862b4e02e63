"""10 Days in the USA, the Qt mode: a turn played by clicking, hot-seat pass screens,
the journey on the map, the win, undo, save and resume (the shared frame of
app/turns.py runs the turns; test_ten_days_mode_turns.py tests its log, replays and undo
for this game)."""
import pytest
from PySide6.QtCore import QPoint, Qt

from stateside.board.items import PathItem
from stateside.board.view import BoardView
from stateside.errors import SaveError
from stateside.games.ten_days.cards import face_of
from stateside.games.ten_days.journey import a_card, check_journey
from stateside.games.ten_days.mode import Seat, TenDaysMode
from stateside.games.ten_days.rules import DEAL, DISCARD, DRAW, PLACE


@pytest.fixture
def mode(show_mode):
    m = show_mode(TenDaysMode)
    m.ai_delay_ms = 0
    return m


def click_card(qtbot, row, index):
    qtbot.mouseClick(row, Qt.LeftButton, pos=row.card_rect(index).center().toPoint())


def deal_by_clicking(qtbot, mode, seat=0):
    """Put each dealt card on the next empty day by clicking it."""
    for day in range(10):
        assert mode.game.phase == DEAL and mode.game.current == seat
        click_card(qtbot, mode.journey_row, day)


def rig(mode, seat, days):
    """Swap the named cards into a player's days, wherever they lay (66 cards kept).
    The swap is not in the match's log, so the log no longer replays from the start: the
    move log's reading of the game (the mode's cursor) starts again from the rigged game."""
    game = mode.game
    for slot, card in enumerate(days):
        card, old = face_of(card), game.journeys[seat][slot]
        for place in [*game.piles, *game.journeys]:
            if card in place:
                place[place.index(card)] = old
                break
        else:
            game.deck[card] -= 1
            game.deck[old] += 1
        game.journeys[seat][slot] = card
    game.deck = +game.deck
    game.check_invariants()
    log = mode.match.log
    mode._cursor = (mode.match, len(log), game.clone(), log[-1] if log else None)


def log(mode):
    """The move log's lines, as the screen shows them."""
    return [line.text for line in mode.log_panel.lines()]


def paths(board):
    return [item for item in board.scene().items() if isinstance(item, PathItem)]


def test_plays_a_turn_by_clicking(qtbot, mode):
    """Taking a Turn, by clicks: deal ten cards onto the days, draw from the deck, replace
    day 4, discard the old card onto pile 2."""
    g = mode.game
    assert [s.kind for s in mode.seats] == ["human", "ai:medium"]
    deal_by_clicking(qtbot, mode)
    assert None not in g.journeys[0]
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    assert "Ada took ten cards" in log(mode)

    click_card(qtbot, mode.table_row, 0)           # the deck
    assert g.phase == PLACE
    drawn, old_day_4 = g.held, g.journeys[0][3]
    click_card(qtbot, mode.journey_row, 3)          # day 4
    assert g.phase == DISCARD and g.journeys[0][3] == drawn and g.held == old_day_4
    click_card(qtbot, mode.table_row, 2)            # pile 2
    assert g.piles[1][-1] == old_day_4 and g.turns >= 1
    drawn_name = a_card(mode.travel, face_of(drawn))
    assert log(mode)[-4:] == ["You drew from the deck", f"You drew {drawn_name} from the deck",
                              f"You put {drawn_name} on day 4 in place of {a_card(mode.travel, face_of(old_day_4))}",
                              f"You discarded {a_card(mode.travel, face_of(old_day_4))} onto pile 2"]
    # the journey is drawn on the map: one path per link (two for a car through a state)
    assert len(paths(mode.board)) >= len(check_journey(g.journeys[0]).links)


def test_computer_plays_its_turn_after_yours(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    click_card(qtbot, mode.table_row, 0)
    mode._keep_clicked()
    click_card(qtbot, mode.table_row, 1)
    qtbot.waitUntil(lambda: mode.game.turns >= 2 and mode.is_human_turn(), timeout=5000)
    assert log(mode)[-1].startswith("Ada discarded ")


def test_dropping_the_drawn_card_on_a_pile_keeps_the_journey(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    g = mode.game
    before = list(g.journeys[0])
    click_card(qtbot, mode.table_row, 0)
    drawn = g.held
    click_card(qtbot, mode.table_row, 3)
    assert g.journeys[0] == before and g.piles[2][-1] == drawn
    assert log(mode)[-2:] == ["You kept the journey as it was",
                              f"You discarded {a_card(mode.travel, face_of(drawn))} onto pile 3"]


def test_empty_pile_must_take_the_discard(qtbot, mode):
    """Taking a Turn, 3: with an empty pile, clicking another pile is refused with the reason."""
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    g = mode.game
    empty_pile = next(k for k, p in enumerate(g.piles) if len(p) == 1)  # take it: it becomes empty
    taken = g.piles[empty_pile][-1]
    click_card(qtbot, mode.table_row, empty_pile + 1)
    assert g.phase == PLACE and not g.piles[empty_pile] and g.held == taken
    messages = []
    mode.status.connect(messages.append)
    other = (empty_pile + 1) % 3
    click_card(qtbot, mode.table_row, other + 1)
    assert g.phase == PLACE and messages and "empty pile first" in messages[-1]
    click_card(qtbot, mode.journey_row, 0)
    old_day_1 = g.held
    click_card(qtbot, mode.table_row, empty_pile + 1)
    assert g.piles[empty_pile] == [old_day_1]
    taken, old = a_card(mode.travel, face_of(taken)), a_card(mode.travel, face_of(old_day_1))
    assert log(mode)[-3:] == [f"You took {taken} from the top of pile {empty_pile + 1}",
                              f"You put {taken} on day 1 in place of {old}",
                              f"You discarded {old} onto pile {empty_pile + 1}"]


def test_undo_a_pile_take_but_not_a_deck_draw(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    top = mode.game.piles[0][-1]
    click_card(qtbot, mode.table_row, 1)
    assert mode.can_undo()
    mode.undo()
    assert mode.game.phase == DRAW and mode.game.piles[0][-1] == top
    click_card(qtbot, mode.table_row, 0)
    assert not mode.can_undo()                      # the deck's card has been seen
    click_card(qtbot, mode.journey_row, 0)
    assert mode.can_undo()                          # the choice of day may be taken back
    mode.undo()
    assert mode.game.phase == PLACE


def test_hot_seat_hides_cards_behind_pass_screen(qtbot, mode):
    mode.start_game([Seat("Alice", "human"), Seat("Bob", "human")], first=0, seed=4)
    assert mode.pass_screen.isVisible() and "Pass to Alice" in mode.pass_screen.title.text()
    assert all(slot.down for slot in mode.journey_row.slots) and not mode.is_human_turn()
    qtbot.mouseClick(mode.pass_screen.button, Qt.LeftButton)
    assert mode.is_human_turn() and mode.viewer == 0
    deal_by_clicking(qtbot, mode, seat=0)
    assert mode.pass_screen.isVisible() and "Pass to Bob" in mode.pass_screen.title.text()
    assert mode.viewer is None and all(slot.down for slot in mode.journey_row.slots)
    assert not paths(mode.board)                    # Alice's journey is off the map too
    qtbot.mouseClick(mode.pass_screen.button, Qt.LeftButton)
    assert mode.viewer == 1 and mode.game.current == 1


def test_invalid_link_is_red_with_the_reason_on_hover(qtbot, mode):
    g = mode.game
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    rig(mode, 0, "NE WY CO AZ NM TX OK KS car-1 IL".split())
    mode.refresh()
    tips = {p.toolTip(): p.pen().color().name() for p in paths(mode.board)}
    bad = [t for t in tips if "meet only at a corner" in t]
    assert bad == ["Day 3-4: walk from Colorado to Arizona\nNot valid: Colorado and Arizona meet only at a corner"]
    assert tips[bad[0]] == "#e63946"
    assert any("through" in t and "Kansas to Illinois" in t for t in tips)   # the car, through Missouri
    assert "day 3-4: Colorado and Arizona meet only at a corner" in mode.problems_label.text()
    assert [s.outline for s in mode.journey_row.slots][2:4] == ["bad", "bad"]


def test_hint_counts_cards_to_change(qtbot, mode):
    g = mode.game
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    rig(mode, 0, "CA OR WA ID MT WY CO NE IA plane-red-1".split())
    mode.refresh()
    assert "Hint" not in mode.problems_label.text()  # off by default
    mode.hint_box.setChecked(True)
    assert "change at least 1 card to finish" in mode.problems_label.text()


def test_ten_days_win_is_announced_with_the_journey_on_the_map(qtbot, mode):
    """Winning the Game: at the end of your turn a valid journey wins: "10 DAYS!"."""
    g = mode.game
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    rig(mode, 0, "CA OR WA ID MT WY CO NE IA MN".split())
    click_card(qtbot, mode.table_row, 0)
    mode._keep_clicked()
    click_card(qtbot, mode.table_row, 1)
    assert g.is_terminal() and g.winner == 0
    assert mode.win_banner.isVisible() and mode.win_banner.text() == "10 DAYS!  You win"
    assert mode.strip_title.text() == "Your winning journey" and log(mode)[-1].endswith(". 10 DAYS! You win")
    assert len(paths(mode.board)) == 9 and all(p.pen().color().name() == "#1d3557" for p in paths(mode.board))


def test_save_and_resume(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    click_card(qtbot, mode.table_row, 0)
    saved = mode.save_state()
    other = TenDaysMode(BoardView())
    qtbot.addWidget(other)
    other.load_state(saved)
    assert other.game.journeys == mode.game.journeys and other.game.held == mode.game.held
    assert other.game.phase == PLACE and other.seats == mode.seats


GOOD = {"game": "ten-days", "rules_version": 1, "setup": {"players": ["A", "B"], "first_player": 0, "turn_limit": None},
        "seed": 1, "seats": ["human", "ai:medium"], "actions": ["card:CA", "day:1"]}


@pytest.mark.parametrize("bad,message", [
    ("junk", "not a mapping"),
    ({**GOOD, "seats": "x"}, "\"seats\" must be a list"),
    ({**GOOD, "actions": ["card:CA", "day:1", "day:1"]}, "action 3 of 3 is not legal there"),
    ({**GOOD, "actions": ["card:CA", "day:11"]}, "action 2 of 2 is not a move of ten-days"),
    ({**GOOD, "seats": ["human"]}, "players, not 1|there are 1 seats"),
    ({**GOOD, "seats": ["human", "random"]}, "seats must be among"),
])
def test_bad_save_leaves_the_game_untouched(qtbot, mode, bad, message):
    before = mode.save_state()
    with pytest.raises(SaveError, match=message):
        mode.load_state(bad)
    assert mode.save_state() == before


def test_keys_play_a_turn_once_the_cards_have_focus(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    g = mode.game
    mode.activateWindow()                           # shortcuts need the active window
    qtbot.waitActive(mode)
    mode.journey_row.setFocus()
    qtbot.waitUntil(lambda: mode.journey_row.hasFocus(), timeout=2000)
    qtbot.keyClick(mode.journey_row, Qt.Key_D)
    assert g.phase == PLACE
    qtbot.keyClick(mode.journey_row, Qt.Key_0)      # day 10
    assert g.phase == DISCARD
    old_day_10 = g.held
    qtbot.keyClick(mode.journey_row, Qt.Key_W)      # pile 2
    assert g.piles[1][-1] == old_day_10


def test_letters_typed_on_the_map_do_not_play(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    mode.activateWindow()
    qtbot.waitActive(mode)
    mode.board.setFocus()
    qtbot.waitUntil(lambda: mode.board.hasFocus(), timeout=2000)
    qtbot.keyClicks(mode.board, "de")               # starts typing "Delaware", draws nothing
    assert mode.game.phase == DRAW


def test_setup_screen_offers_two_to_four_seats(qtbot, mode):
    """The shared setup screen, with this game's option (the hint) and the rulebook's
    "travelled most recently" for who goes first."""
    from stateside.app.setup_screen import SetupScreen

    mode.start_game([Seat("You", "human"), Seat("Ada", "ai:medium")], first=1, hint=True, seed=2)
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    assert isinstance(dialog, SetupScreen)
    assert "Travelled most recently" in dialog.form.labelForField(dialog.first_box).text()
    dialog.count.setValue(3)
    dialog.kind_boxes[2].setCurrentIndex(3)   # hard computer
    seats = [Seat(c.name, c.kind) for c in dialog.seats()]
    assert [s.kind for s in seats] == ["human", "ai:medium", "ai:hard"]
    assert dialog.first_box.count() == 3 and dialog.first() == 1 and dialog.options() == {"hint": True}
    dialog.count.setValue(5)
    assert dialog.count.value() == 4          # at most four players
    dialog.count.setValue(1)
    assert dialog.count.value() == 2
    dialog.count.setValue(3)
    mode.start_game(seats, dialog.first(), dialog.options()["hint"], seed=2)
    assert mode.game.players == 3 and mode.game.current == 1 and mode.hint_on


def test_rules_help_names_what_is_ours(mode):
    text = mode.help_html()
    for needed in ("Four Corners", "Maine and New Hampshire", "What is ours", "no two bordering states share a colour"):
        assert needed in text


def test_hot_seat_three_people_and_a_computer(qtbot, mode):
    """Players should keep their journeys hidden: with three people and a computer at one
    screen, each person's turn starts behind "Pass to <name>", and while the computer
    plays between two people nobody's cards are on screen."""
    mode.start_game([Seat("Alice", "human"), Seat("Ben", "ai:easy"), Seat("Carmen", "human"),
                     Seat("Dmitri", "human")], first=1, seed=9)
    seen = []
    while mode.game.turns < 6:
        qtbot.waitUntil(lambda: mode.pass_screen.isVisible() or mode.is_human_turn(), timeout=5000)
        g = mode.game
        if mode.pass_screen.isVisible():
            assert mode.viewer is None and all(s.down for s in mode.journey_row.slots)
            assert not paths(mode.board) and not mode.hand_row.isVisible()
            seen.append((mode.pass_screen.title.text(), g.phase))
            # the move everyone saw last (public: where the card went, what was discarded)
            assert mode.pass_screen.last_move.text() == f"Last move: {log(mode)[-1]}"
            qtbot.mouseClick(mode.pass_screen.button, Qt.LeftButton)
            assert mode.viewer == g.current and mode.strip_title.text() == f"{mode.seats[g.current].name}'s ten days"
            continue
        if g.phase == DEAL:
            click_card(qtbot, mode.journey_row, g.journeys[g.current].index(None))
        elif g.phase == DRAW:
            click_card(qtbot, mode.table_row, 0)
        else:
            click_card(qtbot, mode.table_row, 1)   # keep the journey, drop the card on pile 1
    # Ben deals first (no screen), then each person; the turns go Ben, Carmen, Dmitri, Alice, ...
    assert seen == [("Pass to Carmen", DEAL), ("Pass to Dmitri", DEAL), ("Pass to Alice", DEAL),
                    ("Pass to Carmen", DRAW), ("Pass to Dmitri", DRAW), ("Pass to Alice", DRAW),
                    ("Pass to Carmen", DRAW)]


def test_computer_win_reveals_its_journey(qtbot, mode):
    """Winning the Game: the winner reveals the completed journey, also when it is a computer."""
    mode.start_game([Seat("You", "human"), Seat("Ada", "ai:medium")], first=0, seed=0)
    g = mode.game
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    rig(mode, 1, "CA OR WA ID MT WY CO NE IA MN".split())
    click_card(qtbot, mode.table_row, 0)
    click_card(qtbot, mode.table_row, 1)
    qtbot.waitUntil(lambda: g.is_terminal(), timeout=5000)
    assert g.winner == 1 and mode.shown_journey()[0] == 1
    assert mode.win_banner.isVisible() and mode.win_banner.text() == "10 DAYS!  Ada wins"
    assert mode.strip_title.text() == "Ada's winning journey"
    assert [s.face for s in mode.journey_row.slots] == [face_of(c) for c in g.journeys[1]]


def test_short_window_problems_scroll_and_the_hint_stays_in_sight(qtbot, show_mode):
    """At 1024x700 a long list of problems scrolls in its own area: it never runs over the
    hint box or the log, and the hint's count is its first line."""
    mode = show_mode(TenDaysMode, size=(1024, 700))
    mode.ai_delay_ms = 0
    g = mode.game
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    rig(mode, 0, "car-1 HI AR MD AL NC ND FL KS plane-red-1".split())
    mode.hint_box.setChecked(True)
    qtbot.wait(20)
    area, hint, moves = mode.problems_area, mode.hint_box, mode.log_panel
    assert hint.geometry().bottom() < area.geometry().top() < area.geometry().bottom() < moves.geometry().top()
    assert area.verticalScrollBar().maximum() > 0            # too long for the panel: it scrolls
    assert mode.problems_label.text().startswith("<b>To fix:</b><br><i>Hint: change at least")
    assert len(check_journey(g.journeys[0]).problems) == mode.problems_label.text().count("<span")


def test_log_shows_its_newest_line(qtbot, mode):
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    for _ in range(8):
        click_card(qtbot, mode.table_row, 0)
        click_card(qtbot, mode.table_row, 1)
        qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW or mode.game.is_terminal(),
                        timeout=5000)
        if mode.game.is_terminal():
            break
    bar = mode.log_panel.verticalScrollBar()
    # the scroll happens after the log's layout, which a loaded machine may delay
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=3000)


def test_a_save_of_another_kind_is_refused_clearly(mode):
    before = mode.save_state()
    with pytest.raises(SaveError, match="no game of 10 Days"):
        mode.load_state({"game": "america", "seats": ["human", "human"]})
    assert mode.save_state() == before


def test_help_lists_the_keys(mode):
    text = mode.help_html()
    for key in ("<b>D</b>", "<b>Q</b>", "<b>K</b>", "<b>0</b>", "Ctrl+Z"):
        assert key in text


def test_a_version_1_save_opens_on_the_same_game(qtbot, mode):
    """A save from before the engine protocol: the same players, days, piles and card in
    hand; the log is written again from the moves; the hint setting is kept."""
    import json
    from pathlib import Path

    from stateside.engine.saves import read_save

    saves = Path(__file__).parent / "data" / "saves-v1"
    expected = json.loads((saves / "ten-days-expected-states.json").read_text())["ten-days-midgame.json"]
    _, body = read_save(saves / "ten-days-midgame.json", "ten-days")
    mode.load_state(body)
    g = mode.game
    assert mode.seats == [Seat("Mia", "human"), Seat("Ben", "ai:easy"), Seat("Cleo", "ai:hard")] and mode.hint_on
    assert (g.journeys, g.piles, g.held, g.phase, g.turns) == (expected["journeys"], expected["piles"],
                                                                expected["held"], PLACE, expected["turns"])
    assert mode.is_human_turn() and log(mode)[0] == "Ben took ten cards"
    assert log(mode)[-2].startswith("Cleo discarded ") and log(mode)[-1].startswith("Mia took ")
    assert mode.save_state()["actions"] == body["actions"]


def settle(qtbot):
    """Let the panel's layout catch up with what was just shown or hidden."""
    from PySide6.QtWidgets import QApplication

    QApplication.sendPostedEvents()
    qtbot.wait(5)


def table_geometry(mode):
    """Where the deck, the piles, the card in hand and the keep button are in the mode."""
    return [(w.mapTo(mode, QPoint(0, 0)), w.size()) for w in (mode.table_row, mode.hand_row, mode.keep_button)]


def banner_fits(mode):
    """The instruction's whole text fits in the banner's fixed height (measured on a twin
    label: the banner's own answer is held to its fixed height)."""
    from PySide6.QtWidgets import QLabel

    b = mode.banner
    twin = QLabel(b.text())
    twin.setWordWrap(True)
    twin.setStyleSheet(b.styleSheet())
    twin.ensurePolished()
    return 0 < twin.heightForWidth(b.width()) <= b.height()


@pytest.mark.parametrize("size", [(1280, 760), (1024, 700)])
def test_deck_and_piles_stay_put_in_every_phase(qtbot, show_mode, size):
    """The deck and piles are clicked turn after turn: they may not move between the
    phases (a longer instruction, a list of problems, the hint, the pass screen)."""
    mode = show_mode(TenDaysMode, size=size)
    mode.ai_delay_ms = 0
    g = mode.game
    seen = {}
    settle(qtbot)
    seen["deal"] = table_geometry(mode)
    assert banner_fits(mode)
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    settle(qtbot)
    seen["draw"] = table_geometry(mode)
    assert banner_fits(mode)
    mode.hint_box.setChecked(True)                  # the hint and the problems: a crowded panel
    settle(qtbot)
    assert mode.problems_area.isVisible()
    seen["draw, hint"] = table_geometry(mode)
    click_card(qtbot, mode.table_row, 0)
    assert g.phase == PLACE
    settle(qtbot)
    seen["place"] = table_geometry(mode)
    assert banner_fits(mode)                        # the longest instruction
    click_card(qtbot, mode.journey_row, 4)
    assert g.phase == DISCARD
    settle(qtbot)
    seen["discard"] = table_geometry(mode)
    assert banner_fits(mode)
    mode.start_game([Seat("Alice", "human"), Seat("Bob", "human")], first=0, seed=4)
    assert mode.pass_screen.isVisible()
    settle(qtbot)
    seen["pass screen"] = table_geometry(mode)
    qtbot.mouseClick(mode.pass_screen.button, Qt.LeftButton)
    settle(qtbot)
    seen["hot-seat deal"] = table_geometry(mode)
    first = seen["deal"]
    assert all(geometry == first for geometry in seen.values()), seen


def test_log_scroll_bar_paints_as_a_scroll_bar(qtbot, mode):
    """The log's scroll bar once painted as black blocks (a style sheet on the log reached
    it): with a long log, its groove and handle are light, like any other scroll bar."""
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and mode.game.phase == DRAW, timeout=5000)
    from stateside.app.movelog import LogLine

    for i in range(40):
        mode.log_panel.append(LogLine(1000 + i, 0, f"Line {i} of a long log.", mode.seat_colour(0)))
    bar = mode.log_panel.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.isVisible() and bar.maximum() > 0, timeout=3000)
    image = bar.grab().toImage()
    pixels = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())]
    dark = sum(1 for c in pixels if c.lightnessF() < 0.2)
    assert dark < 0.05 * len(pixels)


@pytest.mark.parametrize("days,crossed,zoom", [
    # the ends, and Idaho, which the automobile crosses; flights to and from Alaska
    ("OR car NV UT plane-dark-blue AK plane-green OK AR LA", {"OR", "ID", "NV", "UT", "AK", "OK", "AR", "LA"}, 1),
    # small states' tabs (on the map zoomed in: the tabs shrink, their labels with them)
    ("ME NH VT MA CT NY PA NJ DE MD", {"ME", "NH", "VT", "MA", "CT", "NY", "PA", "NJ", "DE", "MD"}, 2),
])
def test_journey_lines_leave_the_state_labels_readable(qtbot, mode, days, crossed, zoom):
    """The journey's lines end at the states' labels (and tabs) and cross others: each such
    label is drawn above the lines, so it looks as it does on a map without the journey."""
    from PySide6.QtGui import QImage, QPainter

    g = mode.game
    deal_by_clicking(qtbot, mode)
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    mode.board.zoom_by(zoom)
    rig(mode, 0, days.split())
    assert [face_of(c) for c in g.journeys[0]] == days.split()
    mode.refresh()
    scene = mode.board.scene()
    chips = [item for item in scene.items() if type(item).__name__ == "LabelChip"]
    lifted = {chip.code for chip in chips}
    assert crossed <= lifted and "TX" not in lifted
    assert all(chip.zValue() + chip.parentItem().zValue() > 8 for chip in chips)   # paths are at 8

    def render(rect):
        image = QImage(int(rect.width() * 8), int(rect.height() * 8), QImage.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        scene.render(painter, source=rect)
        painter.end()
        return image

    text_rects = {chip.code: chip.rect.adjusted(1, 1, -1, -1) for chip in chips}  # (its corners are round)
    with_lines = {code: render(r) for code, r in text_rects.items()}
    mode.board.clear_paths()
    mode.board.remove_layer("ten-days-labels")
    for code, rect in text_rects.items():
        assert with_lines[code] == render(rect), code   # the label's box shows no line


def test_help_says_lake_and_sound_boundaries_are_no_borders(mode):
    """The help names the water boundaries that are no borders, and the borders the game
    plays by (its ruleset) agree: none of those pairs are neighbours."""
    from stateside.geo.borders import load_borders

    text = " ".join(mode.help_html().split())
    assert "A boundary across a lake or a sound is no border" in text
    borders = load_borders("ten-days")
    assert borders.neighbours("MI") == mode.travel.borders.neighbours("MI")   # the game's own ruleset
    for a, z, water in (("MI", "MN", "Lake Superior"), ("MI", "IL", "Lake Michigan"),
                        ("NY", "RI", "Block Island Sound")):
        assert z not in borders.neighbours(a) and a not in borders.neighbours(z)
        assert f"{mode.cards.name(a)}-{mode.cards.name(z)} ({water})" in text


def test_legend_says_alaska_and_hawaii_are_white(mode):
    from PySide6.QtWidgets import QLabel

    legend = next(label for label in mode.findChildren(QLabel) if label.text().startswith("On the map:"))
    assert "Alaska and Hawaii are white cards" in legend.text()
    assert {mode.cards.state_colour["AK"], mode.cards.state_colour["HI"]} == {"white"}
