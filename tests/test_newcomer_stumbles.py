"""The newcomer's stumbles of issue 26 (item 6), each as it was met: a first game played
without the rulebook, in real windows (here offscreen)."""
from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QPoint, Qt

from stateside.engine.clock import next_step
from stateside.engine.match import Match


# ---------------------------------------------------------------- America
@pytest.fixture
def america(show_mode):
    from stateside.games.america.mode import AmericaMode

    mode = show_mode(AmericaMode)
    mode.ai_delay_ms = 10_000   # the computers wait: the test acts for them
    return mode


def test_americas_log_opens_with_one_line_naming_the_cards_two_topics(america):
    america.start_game(["human", "ai:easy"], seed=3)
    lines = [line.text for line in america.log_panel.lines()]
    titles = [america.game.topics[t].title for t in america.game.offered]
    assert len(lines) == 1   # not "A topic came up at an end of the box" twice
    assert all(title in lines[0] for title in titles)


def test_americas_pass_and_next_card_buttons_stay_put(america, qtbot):
    america.start_game(["human", "ai:easy"], seed=3)
    where = []

    def place():
        qtbot.wait(1)   # the layout settles
        america.layout().activate()
        where.append((america.pass_button.mapTo(america, QPoint(0, 0)), america.next_button.mapTo(america, QPoint(0, 0))))

    place()   # two topics to choose from
    america.choose_buttons[0].clicked.emit()
    place()   # the card's questions
    america.on_state_clicked("HI" if america.game.topic().state.answer != "HI" else "AK")
    america.refuse("A long message that wraps onto a second line, and a third, in the narrow side panel of the mode.")
    place()   # a message under the card
    assert len(set(where)) == 1, where


# ---------------------------------------------------------------- the frame
def test_a_log_line_pointed_at_does_not_carry_into_a_new_game(show_mode):
    from stateside.games.game_of_the_states.mode import GameOfTheStatesMode
    from stateside.games.game_of_the_states.rules import GameOfTheStates

    mode = show_mode(GameOfTheStatesMode)
    mode.spinner.spin_ms = 0
    setup = {"players": ["Ann", "Bob"], "variant": "junior"}
    mode.install(Match(GameOfTheStates, ["ai:easy", "ai:easy"], 5, setup))
    while not any(str(e.action).startswith("move:") for e in mode.match.log):
        mode.ai_timer.stop()
        mode.computer_turn(mode.next_actor())
    move = next(e for e in mode.match.log if str(e.action).startswith("move:"))
    mode.log_panel.picked.emit(move.index)   # pinned: it stays on the map
    assert "gots-mark" in mode.board._layers
    mode.install(Match(GameOfTheStates, ["human", "ai:easy"], 6, setup))
    assert "gots-mark" not in mode.board._layers


def test_the_highlight_goes_when_the_pointer_leaves_the_lines(show_mode, qtbot):
    from stateside.games.game_of_the_states.mode import GameOfTheStatesMode

    mode = show_mode(GameOfTheStatesMode)
    panel = mode.log_panel
    seen = []
    panel.hovered.connect(seen.append)
    first = panel.visualItemRect(panel.item(0)).center()
    move_pointer(panel.viewport(), first)
    assert seen and seen[-1] == panel.item(0).data(Qt.UserRole + 1).index
    below = QPoint(first.x(), panel.viewport().height() - 3)   # the empty part of the list
    assert panel.itemAt(below) is None
    move_pointer(panel.viewport(), below)
    assert seen[-1] == -1


def move_pointer(widget, at: QPoint) -> None:
    """The pointer moves to `at` over `widget` (no button held)."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    event = QMouseEvent(QEvent.MouseMove, QPointF(at), QPointF(widget.mapToGlobal(at)), Qt.NoButton, Qt.NoButton,
                        Qt.NoModifier)
    QApplication.sendEvent(widget, event)


@pytest.fixture
def window(open_window):
    w = open_window(persist=True, mode=None)
    yield w
    w.close()


@pytest.mark.parametrize("game", ["ten-days", "scrambled-states"])
def test_new_on_a_finished_game_does_not_warn_that_a_game_will_be_lost(window, monkeypatch, game):
    mode = window.open_mode(game)
    if game == "scrambled-states":
        mode.toggle_run()   # started: a game in progress
        mode.toggle_run()
    assert window.game_in_progress(mode)
    monkeypatch.setattr(mode.match, "is_over", lambda: True)   # the game just ended
    assert not window.game_in_progress(mode)
    monkeypatch.setattr(window, "confirm_discard", lambda *a: pytest.fail("warned that a finished game is lost"))
    monkeypatch.setattr(mode, "new_game", lambda: None)
    window.new_game()


def test_the_title_forgets_the_file_when_the_score_tables_new_game_starts_one(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    mode = window.open_mode("ten-days")
    target = tmp_path / "trip.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(target), ""))
    window.save_file()
    assert window.windowTitle().startswith("trip.json")
    mode.start_game(list(mode.seats), seed=11)   # what the score table's "New game..." leads to
    assert not window.windowTitle().startswith("trip.json")
    assert window.load_file(str(target)) and window.windowTitle().startswith("trip.json")


def test_f1_opens_at_the_way_to_play_on_screen(window, qtbot):
    mode = window.open_mode("game-of-the-states")
    for variant in ("junior", "trivia"):
        mode.start_game({"variant": variant, "seats": ["human", "ai:easy"], "names": ["You", "Blue"]})
        assert mode.help_anchor() == variant
        dialog = window.rules_dialog()
        dialog.show()
        bar = dialog.browser.verticalScrollBar()
        qtbot.waitUntil(lambda: bar.value() > 0, timeout=2000)   # not the top of the page (Buy and Sell)
        top = dialog.browser.cursorForPosition(QPoint(4, 4)).block().text()
        assert variant.capitalize() in top or bar.value() == bar.maximum()
        dialog.close()


# ---------------------------------------------------------------- Scrambled States
@pytest.fixture
def scrambled(show_mode):
    from stateside.games.scrambled_states.mode import ScrambledStatesMode

    return show_mode(ScrambledStatesMode)


def test_scrambled_says_nothing_of_resuming_a_finished_game(scrambled, monkeypatch):
    scrambled.toggle_run()
    assert scrambled.running
    monkeypatch.setattr(scrambled.match, "is_over", lambda: True)
    scrambled.pause()   # as New game... and a dialog over the game do
    assert "Resume" not in scrambled.banner.text()


def test_a_slaps_time_reads_as_the_game_clock_not_a_reaction_time():
    from stateside.games.scrambled_states.mode import build_match
    from stateside.games.scrambled_states.rules import slap

    m = build_match({"seats": [["You", "human"], ["Ada", "ai:easy"]], "target": 10}, 5)
    text = m.state.action_to_string(slap(0, "ND", 42_900))
    assert text == "You slapped North Dakota 42.9 s into the game"


def test_practice_gives_a_person_a_head_start_before_the_computers_slap():
    from stateside.games.scrambled_states.mode import PRACTICE_HEAD_START_MS, build_match

    first = {}
    for practice in (False, True):
        m = build_match({"seats": [["You", "human"], ["Ada", "ai:easy"]], "target": 10, "practice": practice}, 5)
        for _ in range(50):
            m.resolve_chance()
            t, actions = next_step(m)
            if any(getattr(a, "player", None) == 1 for a in actions):
                first[practice] = t - m.state.round.open_since
                break
            for a in actions:
                m.apply(a)
    assert first[False] < 10_000   # a computer's usual reaction
    assert first[True] >= PRACTICE_HEAD_START_MS + first[False] * 0 and first[True] > first[False]


# ---------------------------------------------------------------- 10 Days
@pytest.fixture
def ten_days(show_mode):
    from stateside.games.ten_days.mode import TenDaysMode

    return show_mode(TenDaysMode)


def test_the_player_called_you_has_your_ten_days_and_your_hand(ten_days):
    from stateside.data.words import possessive, verb

    assert ten_days.game.names[ten_days.game.current] == "You"
    assert ten_days._hand_text(False, "TX") == "Texas, in your hand."
    ten_days.start_replay(ten_days.match)
    ten_days.replay_to(len(ten_days.match.log))
    assert ten_days.strip_title.text() == "Your ten days"
    assert (possessive("Ann"), possessive("You", start=True), verb("You", "goes", "go")) == ("Ann's", "Your", "go")


def test_ten_days_move_log_says_what_it_is_during_the_deal(ten_days):
    assert ten_days.log_panel.count() == 0   # the deal is under way: no line yet
    assert ten_days.log_panel.placeholder
    labels = [w.text() for w in ten_days.findChildren(type(ten_days.banner)) if w.isVisible()]
    assert "<b>Moves</b>" in labels


# ---------------------------------------------------------------- Game of the States
def test_trucks_and_destinations_stand_out_and_a_trucks_load_is_on_the_map(show_mode):
    from stateside.board.items import TOKEN_SIZE
    from stateside.games.game_of_the_states import parts
    from stateside.games.game_of_the_states.mode import GameOfTheStatesMode
    from stateside.games.game_of_the_states.rules import GameOfTheStates

    mode = show_mode(GameOfTheStatesMode)
    mode.spinner.spin_ms = 0
    mode.install(Match(GameOfTheStates, ["ai:easy", "ai:easy"], 4, {"players": ["You", "Blue"],
                                                                     "variant": "buy-and-sell"}))
    while not any(mode.game.engine.load):
        mode.ai_timer.stop()
        mode.computer_turn(mode.next_actor())
    tokens = mode.board._tokens
    seat = next(s for s, load in enumerate(mode.game.engine.load) if load)
    truck, load = tokens[("gots-truck", seat)], tokens[("gots-load", seat)]
    assert truck.size > TOKEN_SIZE * 1.3 and tokens[("gots-dest", seat)].size > TOKEN_SIZE * 1.2
    rec = mode.game.engine.disks[mode.game.engine.load[seat]]
    assert load.code == truck.code and load.label == parts.catalogue()[rec["product"]].icon
    # the icons tell products apart: no first letter begins more than five of them
    firsts = Counter(p.icon[0] for p in parts.catalogue().values())
    assert max(firsts.values()) <= 5, firsts.most_common(3)


@pytest.mark.parametrize("variant", ["buy-and-sell", "junior", "trivia"])
def test_game_of_the_states_speaks_to_the_player_called_you_in_the_second_person(variant):
    """Every line of seeded games, read with seat 0 called You: "You pay Bo", never "You
    pays Bo"; "Bo asks you", not "Bo asks You"."""
    import re

    from stateside.games.game_of_the_states.rules import GameOfTheStates

    level = "ai:easy" if variant == "junior" else "ai:medium"   # Junior has no levels
    lines: list[str] = []
    for seed in range(4):
        match = Match(GameOfTheStates, [level, level], seed, {"players": ["You", "Bo"], "variant": variant})
        while not match.is_over():
            match.step()
        lines += [e.text for e in match.log] + [getattr(ev, "text", str(ev)) for e in match.log for ev in e.events]
    you_lines = [t for t in lines if re.search(r"\b[Yy]ou\b", t)]
    assert len(you_lines) > 50   # the player called You does plenty in four games
    wrong = [t for t in you_lines if re.search(r"\bYou (?!pass\b)\w+s\b|\byou (has|is)\b|[^.:!] You\b", t)]
    assert not wrong, wrong[:5]
    assert any(re.match(r"You (pay|ask|drive) ", t) for t in lines)
