"""10 Days in the USA on the shared turn-based frame (app/turns.py, issue 11): the move log
(every move in words, the deal one line per player, another player's cards never named),
hovering a line shows the move on the table and the map, replays of saved games step
through read-only, and the fair undo rule with its exception for cards from the deck."""
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from stateside.app.movelog import NO_COLOUR
from stateside.engine.match import CHANCE, Match
from stateside.engine.saves import read_save, save_game
from stateside.games.ten_days.cards import face_of, is_state
from stateside.games.ten_days.mode import DEAL_ENTRIES, Seat, TenDaysMode
from stateside.games.ten_days.rules import DEAL, DISCARD, DRAW, PLACE, TenDaysState, full_deck
from audience_oracle import hidden_from

SAVES_V1 = Path(__file__).parent / "data" / "saves-v1"


@pytest.fixture
def mode(show_mode):
    m = show_mode(TenDaysMode, size=(1024, 700))
    m.ai_delay_ms = 0
    return m


def play_first_legal(qtbot, mode, turns):
    """People here play the first legal move (through act, as a click does) until `turns`
    turns are over; computers play on the frame's timer; pass screens are passed."""
    while mode.game.turns < turns and not mode.game.is_terminal():
        qtbot.waitUntil(lambda: mode.is_human_turn() or mode.pass_screen.isVisible() or mode.game.is_terminal(),
                        timeout=5000)
        if mode.pass_screen.isVisible():
            mode.pass_screen.button.click()
        elif mode.is_human_turn():
            g = mode.game
            assert mode.act(g.legal_actions(g.current_player())[0])


def log_lines(mode):
    return [line.text for line in mode.log_panel.lines()]


def card_names(mode):
    return {mode.cards.name(face) for face in full_deck()}


@pytest.mark.parametrize("seats,people", [
    (["human", "ai:easy"], {0}),
    (["human", "human", "ai:easy"], {0, 1}),
])
def test_the_log_never_names_a_card_a_person_here_may_not_see(qtbot, mode, seats, people):
    """Each line is checked against stateside.online.visibility.hidden_from on a seeded
    game: a move that some person at this screen (other than its player) may not see names
    no card; every other move is told in full."""
    names = ["Ann", "Bob", "Cy"][:len(seats)]
    mode.install(Match(TenDaysState, seats, 7, {"players": names, "first_player": 0, "turn_limit": None}))
    play_first_legal(qtbot, mode, turns=9)
    m = mode.match
    lines = mode.log_panel.lines()
    players = len(seats)
    # the deal: one line per player; after it, every action has its own line
    deal = DEAL_ENTRIES * players
    assert [line.index for line in lines] == [DEAL_ENTRIES * (k + 1) - 1 for k in range(players)] + \
        list(range(deal, len(m.log)))
    assert [line.text for line in lines[:players]] == [f"{n} took ten cards" for n in names]
    every_card = card_names(mode)
    hidden_lines = told_in_full = 0
    for line in lines[players:]:
        entry = m.log[line.index]
        before = m.state_after(entry.index)
        hidden = hidden_from(before, entry.action, entry.seat) & people - {entry.seat}
        assert line.colour == (mode.seat_colour(entry.seat) if entry.seat >= 0 else NO_COLOUR)
        if hidden:
            hidden_lines += 1
            assert not any(name in line.text for name in every_card), line.text
            assert f"day {str(entry.action)[4:]}" not in line.text
        else:
            told_in_full += 1
            if str(entry.action).startswith("day:") and people - {entry.seat}:
                # seen by all, which day; the card put there and the one taken up are not
                assert not any(name in line.text for name in every_card), line.text
            if str(entry.action).startswith(("discard:", "take:")) or entry.seat == CHANCE:
                assert any(name in line.text for name in every_card), line.text
    assert hidden_lines and told_in_full
    if len(people) == 2:   # Ann's own draw is hidden from Bob, who shares this screen
        draws = [line for line in lines[players:] if m.log[line.index].seat == CHANCE
                 and m.state_after(line.index).pending == DRAW and m.state_after(line.index).current == 0]
        assert draws and all(line.text == "The deck gave Ann a card, face down" for line in draws)


def test_a_game_of_computers_only_is_told_in_full(qtbot, mode):
    mode.install(Match(TenDaysState, ["ai:easy", "ai:easy"], 3,
                       {"players": ["Ada", "Ben"], "first_player": 0, "turn_limit": None}))
    qtbot.waitUntil(lambda: mode.game.turns >= 4, timeout=10000)
    drawn = [line.text for line in mode.log_panel.lines() if "from the deck" in line.text and "drew " in line.text
             and line.seat == CHANCE]
    assert drawn and all(any(name in text for name in card_names(mode)) for text in drawn)


def test_pointing_at_a_line_shows_the_move_in_the_players_colour(qtbot, mode):
    mode.start_game([Seat("You", "human"), Seat("Ada", "ai:medium")], seed=3)   # Ada draws from the deck
    play_first_legal(qtbot, mode, turns=4)
    m, g = mode.match, mode.game
    lines = mode.log_panel.lines()
    # Ada's discard: the pile framed in her colour, the state she discarded outlined on the map
    discard = next(line for line in reversed(lines) if line.seat == 1 and m.log[line.index].action.startswith("discard:"))
    entry = m.log[discard.index]
    pile = int(entry.action[8:])
    card = face_of(m.state_after(entry.index).held)
    mode.log_panel.hovered.emit(discard.index)
    ada = mode.seat_colour(1)
    assert [s.frame for s in mode.table_row.slots] == [ada if k == pile else None for k in range(4)]
    if is_state(card):
        assert mode.board._states[card].highlight.name() == ada
    # Ada's draw from the deck: the deck framed, nothing of her card shown
    hidden = next(line for line in lines if line.seat == CHANCE and "face down" in line.text and "Ada" in line.text)
    mode.log_panel.hovered.emit(hidden.index)
    assert mode.table_row.slots[0].frame == ada and not any(s.frame for s in mode.journey_row.slots)
    assert not any(item.highlight is not None and item.highlight.name() == ada
                   for item in mode.board._states.values())
    # my own placing: that day framed in my colour
    mine = next(line for line in reversed(lines) if line.seat == 0 and m.log[line.index].action.startswith("day:")
                and line.index >= DEAL_ENTRIES * 2)
    mode.log_panel.hovered.emit(mine.index)
    day = int(m.log[mine.index].action[4:]) - 1
    assert [s.frame for s in mode.journey_row.slots] == [mode.seat_colour(0) if d == day else None for d in range(10)]
    mode.log_panel.hovered.emit(-1)     # the pointer leaves: no marks
    assert not any(s.frame for s in mode.table_row.slots + mode.journey_row.slots)
    assert g.phase in (DRAW, DEAL, PLACE, DISCARD)


def shown(mode):
    return {
        "days": [s.face for s in mode.journey_row.slots],
        "piles": [s.face for s in mode.table_row.slots[1:]],
        "deck": mode.table_row.slots[0].caption,
        "enabled": any(s.enabled for s in mode.journey_row.slots + mode.table_row.slots),
    }


def expected(state):
    return {
        "days": [None if c is None else face_of(c) for c in state.journeys[state.current]],
        "piles": [None if not p else face_of(p[-1]) for p in state.piles],
        "deck": f"Deck ({state.deck_size()})",
        "enabled": False,
    }


def test_a_saved_game_replays_step_by_step_read_only(qtbot, mode, tmp_path):
    """Save a played seeded match, read it back with stateside.engine.saves, and step
    through it: first, back, forward, last; the board and panel show match.state_after(n)."""
    played = Match(TenDaysState, ["ai:medium", "ai:easy"], 11,
                   {"players": ["Ada", "Ben"], "first_player": 1, "turn_limit": 60})
    played.play_out()
    path = tmp_path / "game.stateside.json"
    save_game(path, played.to_json())
    _, body = read_save(path, "ten-days")
    replay = mode.match_from_save(body, str(path))
    live = mode.match
    mode.start_replay(replay)
    bar = mode.replay_bar
    assert bar.isVisible() and mode.replaying is replay and bar.position == len(replay.log)
    assert mode.game.is_terminal()
    for go in (lambda: bar.first_button.click(), lambda: bar.forward_button.click(),
               lambda: bar.go(57), lambda: bar.back_button.click(), lambda: bar.go(len(replay.log) // 2),
               lambda: bar.last_button.click()):
        go()
        n = bar.position
        assert shown(mode) == expected(replay.state_after(n)), n
        assert "Replay" in mode.banner.text() or mode.game.is_terminal()
        assert not mode.keep_button.isEnabled() and not mode.hint_box.isVisible()
    assert bar.position == len(replay.log)
    mid_turn = next(n for n in range(DEAL_ENTRIES * 2, len(replay.log))
                    if replay.state_after(n).phase == PLACE and replay.state_after(n).current_player() >= 0)
    bar.go(mid_turn)                         # the player's held card, no prompt to act
    assert mode.hand_row.isVisible() and mode.hand_row.slots[0].face == face_of(replay.state_after(mid_turn).held)
    assert "click" not in mode.hand_text.text() and "click" not in mode.banner.text()
    messages = []
    mode.status.connect(messages.append)
    before = mode.match.to_json()
    mode._table_clicked(1)
    assert messages[-1] == "This is a replay: close it to play on." and mode.match.to_json() == before
    bar.close_replay()
    assert mode.replaying is None and mode.match is live and mode.is_human_turn()


def test_a_version_1_save_replays(qtbot, mode):
    _, body = read_save(SAVES_V1 / "ten-days-won.json", "ten-days")
    replay = mode.match_from_save(body)
    mode.start_replay(replay)
    assert mode.game.is_terminal() and mode.win_banner.isVisible()
    mode.replay_bar.go(0)
    assert mode.game.phase == DEAL and all(s.face is None for s in mode.journey_row.slots)
    mode.replay_bar.go(len(replay.log) - 1)
    assert shown(mode) == expected(replay.state_after(len(replay.log) - 1))


def test_the_score_table_replays_the_game_just_won(qtbot, mode):
    """Two computers play to a win in front of the screen (seed 11: Ada wins in her fifth
    turn); the score table opens and replays it."""
    mode.install(Match(TenDaysState, ["ai:medium", "ai:easy"], 11,
                       {"players": ["Ada", "Ben"], "first_player": 1, "turn_limit": 60}))
    qtbot.waitUntil(lambda: mode.game.is_terminal(), timeout=10000)
    assert mode.game.winner == 0 and mode.score_dialog is not None and mode.score_dialog.isVisible()
    table = mode.score_table
    turns = [sum(1 for e in mode.match.log if e.seat == s and e.action.startswith("discard:")) for s in (0, 1)]
    assert [[table.cell_text(r, c) for c in range(3)] for r in range(2)] == [
        ["Ada", "10 DAYS!", str(turns[0])], ["Ben", "", str(turns[1])]]
    assert mode.win_banner.isVisible() and log_lines(mode)[-1].endswith(". 10 DAYS! Ada wins")
    button = next(b for b in mode.score_dialog.findChildren(QPushButton) if b.text() == "Replay this game")
    button.click()
    assert mode.replaying is not None and mode.replay_bar.isVisible()
    mode.replay_bar.go(0)
    assert shown(mode) == expected(mode.replaying.state_after(0))


def test_undo_is_fair_and_stops_at_a_card_from_the_deck(qtbot, mode):
    """A person takes back only their own move while nobody else has played since, and
    never past a card they saw come from the deck; a computer's reply cannot be taken back."""
    from test_ten_days_mode import deal_by_clicking

    g = mode.game
    assert not mode.can_undo()
    mode.ai_delay_ms = 60_000                       # the computer waits for the check below
    deal_by_clicking(qtbot, mode)
    # The person's last card is down and the computer's cards were dealt face down: it may
    # be taken back until the computer moves (the person saw no card since).
    assert mode.can_undo()
    mode.ai_delay_ms = 0
    mode._computer_due()
    qtbot.waitUntil(lambda: mode.is_human_turn() and g.phase == DRAW, timeout=5000)
    assert not mode.can_undo()                      # the computer has played since
    mode.ai_delay_ms = 60_000                       # the computer waits: its turn comes later
    mode._table_clicked(1)                          # take pile 1's top card
    mode._day_clicked(0)
    mode._table_clicked(1)                          # and discard the old day 1: the turn is over
    assert mode.game.current == 1 and mode.can_undo()   # nobody has played since
    mode.undo()
    assert mode.game.phase == DISCARD and mode.game.current == 0 and mode.is_human_turn()
    mode.undo()
    mode.undo()
    assert mode.game.phase == DRAW and not mode.can_undo()   # back at the start of the turn
    mode._table_clicked(0)                          # from the deck: that card stays drawn
    assert mode.game.phase == PLACE and not mode.can_undo()
    mode._keep_clicked()
    mode._table_clicked(2)
    n = len(mode.match.log)
    mode.ai_delay_ms = 0
    mode._computer_due()                            # the computer replies
    qtbot.waitUntil(lambda: mode.is_human_turn(), timeout=5000)
    assert len(mode.match.log) > n and not mode.can_undo()
    mode.undo()                                     # does nothing: its reply stays, unseen or not
    assert len(mode.match.log) > n and mode.match.log[-1].seat == 1


def test_two_people_each_undo_only_their_own_move(qtbot, mode):
    mode.start_game([Seat("Ann", "human"), Seat("Bob", "human")], seed=4)
    play_first_legal(qtbot, mode, turns=1)          # Ann's turn is over: the screen passes to Bob
    assert mode.pass_screen.isVisible() and not mode.can_undo()   # Bob may be at the screen already
    mode.pass_screen.button.click()
    g = mode.game
    anns_discard = len(mode.match.log) - 1
    mode.act(next(a for a in g.legal_actions(1) if a.startswith("take:")))
    assert mode.match.log[-1].seat == 1 and mode.undo_point() == anns_discard + 1   # Bob's, not Ann's
    mode.undo()
    assert mode.game.phase == DRAW and mode.game.current == 1 and mode.viewer == 1
    assert len(mode.match.log) == anns_discard + 1 and mode.match.log[-1].seat == 0


def test_the_log_shows_six_lines_in_a_small_window(qtbot, show_mode):
    """At 1024x700 the window leaves the mode about 1024x620: the move log still shows six
    one-line moves, with the list of problems and the hint open above it."""
    mode = show_mode(TenDaysMode, size=(1024, 620))
    mode.ai_delay_ms = 0
    mode.hint_box.setChecked(True)
    play_first_legal(qtbot, mode, turns=6)
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert mode.problems_area.isVisible()
    row = min(mode.log_panel.sizeHintForRow(i) for i in range(mode.log_panel.count()))   # a one-line move
    assert row > 0 and mode.log_panel.viewport().height() >= 6 * row
    newest = mode.log_panel.item(mode.log_panel.count() - 1)
    qtbot.waitUntil(lambda: 0 <= mode.log_panel.visualItemRect(newest).bottom() <= mode.log_panel.viewport().height(),
                    timeout=3000)   # the newest line in sight


def test_a_finished_game_is_told_in_full_to_the_people_here(qtbot, mode):
    """Once a game is over nothing in it is secret: after an online table's end this screen
    showed the referee's whole log with the other seat's draws still face down."""
    played = Match(TenDaysState, ["ai:medium", "ai:easy"], 11,
                   {"players": ["Ann", "Bob"], "first_player": 1, "turn_limit": 60})
    played.play_out()
    finished = Match.from_json({**played.to_json(), "seats": ["human", "human"]})   # two people here
    mode.install(finished)
    assert mode.game.is_terminal() and set(mode.people()) == {0, 1}
    texts = log_lines(mode)
    assert not any("face down" in t or "hidden move" in t or "placed the card on a day or kept" in t for t in texts)
    drawn = [line.text for line in mode.log_panel.lines() if line.seat == CHANCE and "from the deck" in line.text]
    assert drawn and all(any(name in text for name in card_names(mode)) for text in drawn)
