"""Game of the States on the shared turn-based scaffold (issue 11): the move log (every
action, the computers' and the spins included, in the actor's colour; hovering a line
shows it on the map; nothing a person here may not see), the spin as a chance a person
sets off, the fair undo, the setup screen, the score table and replays of a saved game."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox, QDialog, QGraphicsEllipseItem, QGraphicsLineItem

from stateside.app.setup_screen import SetupScreen
from stateside.engine.match import CHANCE, Match
from stateside.engine.saves import load_match, save_game
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.mode import COLOURS, GameOfTheStatesMode
from stateside.games.game_of_the_states.rules import GameOfTheStates
from stateside.games.game_of_the_states.trivia import facts_on, shown
from audience_oracle import hidden_from


@pytest.fixture
def mode(show_mode):
    m = show_mode(GameOfTheStatesMode, size=(1024, 700))
    m.spinner.spin_ms = 0
    m.ai_delay_ms = 0
    return m


def new_match(variant="buy-and-sell", seats=("human", "ai:easy"), seed=4, **extra):
    names = ["Ann", "Bob", "Cy", "Di"][:len(seats)]
    return Match(GameOfTheStates, list(seats), seed, {"players": names, "variant": variant, **extra})


def play(mode, until, limit=2000):
    """Play on through the mode as its people would (Space at a spin, the first legal
    choice otherwise) and its computers, until `until()` or the end."""
    for _ in range(limit):
        if until() or mode.match.is_over():
            return
        if mode.pass_screen.isVisible():
            mode.pass_screen.button.click()
            continue
        actor = mode.next_actor()
        if mode.is_human_turn():
            if mode._spin_seat() is not None:
                mode.spin()
            else:
                assert mode.act(mode.game.legal_actions(actor)[0])
        else:
            mode.ai_timer.stop()
            mode.computer_turn(actor)
    raise AssertionError("the game never got there")


def test_every_action_is_logged_in_its_players_colour_and_hovering_marks_it(mode):
    mode.install(new_match(seed=4))
    play(mode, lambda: len(mode.match.log) > 60)
    lines = mode.log_panel.lines()
    assert [line.index for line in lines] == list(range(len(mode.match.log)))
    for line, entry in zip(lines, mode.match.log):
        actor = mode.actor_of(entry)
        assert actor >= 0                      # every spin and card is someone's
        assert line.colour == COLOURS[actor][1]
        assert line.text.startswith(mode.game.names[actor])
    # a spin (chance) and the computer's moves are there, in words
    spins = [line for line, e in zip(lines, mode.match.log) if e.seat == CHANCE and e.action.startswith("spin:")]
    assert spins and all(" spun " in line.text or " spins Traffic Jam" in line.text for line in spins)
    assert any(e.seat == 1 for e in mode.match.log)
    # what a move led to is in its line: a price spun and paid
    paid = [line.text for line, e in zip(lines, mode.match.log) if any(ev.kind == "pay" for ev in e.events)]
    assert paid and all(" pays " in text for text in paid)

    move = next(e for e in reversed(mode.match.log) if str(e.action).startswith("move:") and e.seat == 1)
    mode.log_panel.hovered.emit(move.index)
    layer = mode.board._layers["gots-mark"]
    rings = [i for i in layer.childItems() if isinstance(i, QGraphicsEllipseItem)]
    segments = [i for i in layer.childItems() if isinstance(i, QGraphicsLineItem)]
    assert len(rings) == 1 and rings[0].pen().color().name() == COLOURS[1][1]
    assert rings[0].rect().center() == mode.board.state_anchor(move.action[5:])
    before = mode.match.state_after(move.index).engine.truck[1]
    if before != move.action[5:]:
        assert segments and all(s.pen().color().name() == COLOURS[1][1] for s in segments)
    mode.log_panel.hovered.emit(-1)
    assert "gots-mark" not in mode.board._layers


@pytest.mark.parametrize("variant,extra", [("buy-and-sell", {}), ("trivia", {"answers": "typed"}),
                                           ("trivia", {"answers": "choices"}), ("junior", {})])
def test_the_log_never_tells_a_person_here_what_they_may_not_see(mode, variant, extra):
    """Compared with the search the referee once ran (hidden_from): the one secret, the
    card in the asker's hand until the question names its state, is hidden from exactly the
    seats the rules declare; its line does not name it while another person here may not
    see it, and the card's facts never show in the log before the question is answered."""
    mode.install(new_match(variant, ("human", "human", "ai:hard"), seed=7, **extra))
    play(mode, lambda: len(mode.match.log) > 60)
    m = mode.match
    people = set(mode.people())
    state = GameOfTheStates.new(m.initial_setup)
    secrets = 0
    for entry, line in zip(m.log, mode.log_panel.lines()):
        before = state.clone()
        state.apply_action(entry.action)
        hidden = hidden_from(before, entry.action, entry.seat) & people
        assert hidden == {p for p in people if not entry.seen_by(p)}, (entry, hidden)
        assert line.text == mode.log_text(entry)
        if hidden:   # a card drawn: "card:XX"
            secrets += 1
            assert parts.state_name(entry.action[5:]) not in line.text, line.text
        if variant == "trivia" and before.engine.card and not str(entry.action).startswith("say:"):
            card = before.engine.card
            for fact in facts_on(card):
                if fact not in ("rank",):    # a rank ("3rd") may appear in any sentence
                    assert shown(card, fact) not in line.text, (entry.text, fact)
    assert (secrets > 0) == (variant == "trivia")


def test_a_person_spins_and_the_spin_is_logged_when_the_spinner_stops(qtbot, mode):
    mode.install(new_match(seed=4))
    mode.spinner.spin_ms = 150
    assert mode._spin_seat() == 0 and mode.is_human_turn() and mode.spinner.ready
    n = len(mode.match.log)
    assert not mode.act("spin:19")            # nobody chooses their spin
    assert len(mode.match.log) == n and "Spin first" in mode.notice.text()
    spins = []
    turn = mode.computer_turn

    def computer_turn(seat):
        turn(seat)
        spins.append(mode.busy())
    mode.computer_turn = computer_turn
    mode.spin()
    assert mode.busy() and not mode.is_human_turn() and not mode.can_undo()
    assert "spins" in mode.prompt.text() and "$" not in mode.prompt.text()   # the result is not told yet
    assert len(mode.match.log) == n + 1 and mode.log_panel.count() == n   # drawn, not yet shown
    qtbot.waitUntil(lambda: not mode.busy(), timeout=3000)
    assert mode.log_panel.count() >= n + 1 and " spun " in mode.log_panel.lines()[n].text
    # the computer spins with the spinner turning too, then the person's turn comes back
    qtbot.waitUntil(lambda: len(mode.match.log) > n + 1 and mode.is_human_turn(), timeout=5000)
    if mode.match.log[n + 1].action.startswith("spin:"):
        assert spins and spins[0]


def test_undo_is_fair_and_a_spin_or_a_computers_reply_is_never_taken_back(qtbot, mode):
    mode.install(new_match(seed=4))
    mode.ai_delay_ms = 60_000          # the computer moves only when the test says so
    play(mode, lambda: mode.game.engine.phase == "move" and mode.game.current_player() == 0)
    assert not mode.can_undo()         # the last thing was a spin
    n = len(mode.match.log)
    ends = [a[5:] for a in mode.game.legal_actions(0)]
    mode.on_state_clicked(ends[0])
    assert len(mode.match.log) >= n + 1
    if len(mode.match.log) == n + 1:   # nothing drawn after the move: it may be taken back
        assert mode.can_undo()
        mode.undo()
        assert len(mode.match.log) == n and mode.is_human_turn() and mode.log_panel.count() == n
    # A price the person asked to spin again for, once seen, stays.
    match = new_match(seats=("ai:easy", "human"), seed=3)
    for a in ["card:WA", "card:OR", "card:ID", "card:MT", "card:GA", "card:FL", "card:TX", "card:NM", "card:AZ",
              "card:CA", "spin:9", "spin:0", "spin:0", "move:FL", "product:oranges", "spin:4"]:
        match.apply(a)
    mode.install(match)
    assert mode.is_human_turn() and mode.game.current_player() == 1
    assert mode.act("respin")
    assert mode.match.log[-1].seat == CHANCE or mode.busy() or mode.ai_timer.isActive()
    mode.ai_timer.stop()
    if mode._spin_seat() is not None:   # Ann (a computer) spins the second price
        mode.computer_turn(0)
    assert mode.match.log[-1].action.startswith("spin:") or mode.match.log[-2].action.startswith("spin:")
    assert not mode.can_undo()
    # A computer's reply: the person offered a product, the computer has answered.
    match = new_match(seats=("human", "ai:easy"), seed=3)
    for a in ["card:WA", "card:OR", "card:ID", "card:MT", "card:GA", "card:FL", "card:TX", "card:NM", "card:AZ",
              "card:CA", "spin:0", "spin:9", "spin:0", "move:OR"]:
        match.apply(a)
    mode.install(match)
    assert mode.game.current_player() == 0 and mode.game.engine.phase == "product"   # Bob buys Ann's disk
    assert mode.act(mode.game.legal_actions(0)[0])
    assert mode.can_undo()                 # nothing happened since: Ann may take her choice back
    mode.ai_timer.stop()
    mode.computer_turn(mode.next_actor())  # Bob spins the price: seen by everyone
    assert not mode.can_undo()
    mode.undo()                            # does nothing
    assert mode.match.log[-1].action.startswith("spin:")


def test_the_trivia_answer_is_never_taken_back(mode):
    match = new_match("trivia", ("ai:easy", "human"), seed=3, answers="choices")
    match.apply("card:AL")
    match.apply("ask:capital")
    mode.install(match)
    assert mode.act("say:Montgomery")
    assert mode.game.engine.won[1] == ["AL"] and not mode.can_undo()


def test_the_setup_screen_starts_the_chosen_way_to_play(qtbot, mode, monkeypatch):
    seen = {}

    def accept(dialog):
        seen["dialog"] = dialog
        variant, = [box for box in dialog.findChildren(QComboBox) if box.findData("junior") >= 0]
        answers, = [box for box in dialog.findChildren(QComboBox) if box.findData("choices") >= 0]
        assert not dialog.form.isRowVisible(answers)    # Buy and Sell has no answers to choose
        variant.setCurrentIndex(variant.findData("trivia"))
        assert dialog.form.isRowVisible(answers)
        dialog.count.setValue(3)
        dialog.names[2].setText("Cleo")
        dialog.kind_boxes[2].setCurrentIndex(dialog.kind_boxes[2].findData("ai:hard"))
        return QDialog.Accepted

    monkeypatch.setattr(SetupScreen, "exec", accept)
    mode.new_game()
    assert isinstance(seen["dialog"], SetupScreen)
    g = mode.game
    assert g.variant == "trivia" and g.names[2] == "Cleo" and mode.match.seats[2] == "ai:hard"
    assert g.setup["answers"] == "typed"
    assert len(mode.match.log) >= 1 and mode.log_panel.count() == len(mode.match.log)


def test_a_finished_game_shows_the_score_table_in_the_panel_and_the_dialog(qtbot, mode):
    mode.install(new_match("junior", ("human", "ai:easy"), seed=2))
    play(mode, lambda: False)
    g = mode.game
    assert g.is_terminal() and mode.final_scores.isVisible()
    assert mode.score_dialog is not None and mode.score_dialog.isVisible()
    for table in (mode.final_scores, mode.score_table):
        assert table.rowCount() == 2
        for s in range(2):
            assert table.cell_text(s, 0) == g.names[s]
            assert table.cell_text(s, 2) == f"${g.engine.money[s]:,}"
    winner = max(range(2), key=lambda s: g.engine.money[s])
    assert g.names[winner] + " wins" in mode.prompt.text()
    mode.score_dialog.close()


def test_replay_of_a_saved_game_steps_through_it_read_only(qtbot, mode, tmp_path):
    played = new_match("buy-and-sell", ("ai:easy", "ai:hard"), seed=11)
    played.play_out()
    path = tmp_path / "gots.stateside.json"
    save_game(path, played.to_json())
    saved = load_match(path)
    live = new_match(seed=4)
    mode.install(live)
    mode.start_replay(mode.match_from_save(played.to_json()))
    assert mode.replaying is not None and mode.replay_bar.isVisible()
    assert mode.game.is_terminal() and mode.final_scores.isVisible()      # it opens at the end
    assert mode.log_panel.count() == len(saved.log)

    def check(n):
        state = saved.state_after(n)
        e = state.engine
        assert len(mode.match.log) == n and mode.replay_bar.position == n
        assert f"move {n} of {len(saved.log)}" in mode.header.text()
        for seat, code in enumerate(e.truck):
            if code:
                assert ("gots-truck", seat) in mode.board.tokens_on(code)
        money = mode.players_label.text()
        for seat in range(2):
            assert f"${e.money[seat]:,}" in money
        # read-only: nothing to click, no prompt to act
        assert not mode.spinner.ready and not mode.space.isEnabled() and mode.answer_row.isHidden()
        assert mode.buttons_layout.count() == 0
        assert not any(item.highlight for item in mode.board._states.values())
        assert "press" not in mode.prompt.text() and "Click" not in mode.prompt.text()

    mode.replay_bar.first_button.click()
    check(0)
    mode.replay_bar.go(40)
    check(40)
    mode.replay_bar.back_button.click()
    check(39)
    mode.replay_bar.forward_button.click()
    mode.replay_bar.forward_button.click()
    check(41)
    # a move position: the move is marked on the map in its player's colour
    n = next(e.index for e in saved.log[30:] if str(e.action).startswith("move:")) + 1
    mode.replay_bar.go(n)
    check(n)
    assert "gots-mark" in mode.board._layers
    messages = []
    mode.status.connect(messages.append)
    mode.on_state_clicked("TX")
    mode.spin()
    assert len(mode.match.log) == n and "replay" in messages[-1]
    mode.replay_bar.last_button.click()
    check(len(saved.log))
    mode.replay_bar.close_replay()
    assert mode.replaying is None and mode.match is live and mode.is_human_turn()
    assert mode.log_panel.count() == len(live.log) and mode.spinner.ready


@pytest.mark.parametrize("variant", ["buy-and-sell", "trivia", "junior"])
def test_every_logged_move_of_a_whole_game_can_be_shown_on_the_map(mode, variant):
    played = new_match(variant, ("ai:easy", "ai:hard", "ai:medium"), seed=1)
    played.play_out()
    mode.start_replay(played)
    for entry in played.log[::3]:   # (every entry of nine games checked while writing this: same)
        mode.log_panel.hovered.emit(entry.index)
        items = mode.board._layers["gots-mark"].childItems()
        colour = COLOURS[mode.actor_of(entry)][1]
        assert items and all(i.pen().color().name() == colour for i in items), entry
    mode.log_panel.hovered.emit(-1)
    assert "gots-mark" not in mode.board._layers
