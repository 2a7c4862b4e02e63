"""America on the shared turn-based scaffold (issue 11): the move log (the computers' moves
included, coloured by player, nothing this screen may not see), a logged move shown on the
map and the bars, replays of a saved game, the fair undo (a computer's year marker cannot
be seen and then taken back), the end of the game (the score table, no "Next card"), and
the setup screen's seats."""
import json
import random
from pathlib import Path

import pytest

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.engine.saves import read_save
from stateside.games.america.mode import LOG_LAYER, AmericaMode, rules_on
from stateside.games.america.rules import COLOURS, NO_EXACT_SPACES, bundled_deck
from audience_oracle import hidden_from
from fake_table import FakeSession, referee_views

SAVES = Path(__file__).parent / "data" / "saves-v1"


@pytest.fixture
def mode(show_mode):
    m = show_mode(AmericaMode)
    m.ai_delay_ms = 0
    m.ask_yes_no = lambda title, text: True
    return m


def person_move(g, rng):
    """Some legal move for the seat to act: a topic, a marker, or a pass now and then."""
    legal = g.legal_actions(g.current_player())
    if "pass" in legal and rng.random() < 0.45:
        return "pass"
    return rng.choice([a for a in legal if a != "pass"])


def play_to_the_end(mode, seed=1):
    """The person plays through act(), the computers through the scaffold's computer_turn
    (called at once, not on the timer), Next card after each reveal."""
    rng = random.Random(seed)
    for _ in range(2000):
        if mode.match.is_over():
            return
        mode.ai_timer.stop()
        if mode.busy():
            mode.next_card()
        elif mode.is_human_turn():
            assert mode.act(person_move(mode.game, rng))
        else:
            mode.computer_turn(mode.game.current_player())
    raise AssertionError("the game did not end")


# --- the move log -----------------------------------------------------------------------

def test_every_move_is_in_the_log_in_its_players_colour(qtbot, mode):
    mode.start_game(["human", "ai:hard", "ai:easy"], seed=8)
    mode.choose_buttons[0].clicked.emit()
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    mode.bars.spaceClicked.emit("year", "1900")
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    lines = mode.log_panel.lines()
    # every entry but the first of a card's two draws (one line names both topics, issue 26)
    shown = [e for e in mode.match.log if not (e.action.startswith("draw:") and e.index + 1 < len(mode.match.log)
                                              and mode.match.log[e.index + 1].action.startswith("draw:"))]
    assert [line.index for line in lines] == [e.index for e in shown]
    assert [line.text for line in lines] == [mode.log_text(e) for e in shown]
    assert any(line.seat == 1 and "placed a marker" in line.text for line in lines)   # the computers' too
    assert any(line.seat == 0 and line.text == "Red placed a marker on the 1900 year space" for line in lines)
    for line in lines:
        if line.seat >= 0:
            assert line.colour == mode.seat_colour(line.seat)
    assert len({mode.seat_colour(s) for s in range(6)}) == 6
    assert mode.seat_colour(2) != "#fafafa"       # White's bar shows on the white list


def test_the_log_says_what_a_card_scored(qtbot, mode):
    mode.start_game(["human", "ai:easy"], seed=3)
    while not mode.game.results:
        mode.ai_timer.stop()
        if mode.is_human_turn():
            g = mode.game
            mode.act("choose:0" if g.phase == "choose" else "pass" if g.can_pass(0) else "place:year:1900")
        else:
            mode.computer_turn(mode.game.current_player())
    scoring = mode.log_panel.lines()[-1]
    title = mode.game.topics[mode.game.results[-1].topic].title
    assert f"\u201c{title}\u201d scored: Red +" in scoring.text and ", Blue +" in scoring.text


def test_the_log_never_shows_what_this_screen_may_not_see(qtbot, mode):
    """For every move of a seeded game: where stateside.online.visibility.hidden_from says
    a person at this screen may not see it (the box's first topic, drawn before anyone is
    shown it), the log's line names no topic, and is the same whatever was drawn."""
    deck = bundled_deck()
    r = rules_on(deck)
    match = Match(r, ["ai:medium", "ai:hard", "ai:easy"], 21, r.default_setup(3))
    match.play_out()
    titles = {t.title for card in deck for t in card.topics}
    hidden_seen = 0
    mode.install(Match(r, ["human", "human", "human"], 21, r.default_setup(3)))
    for e in match.log:
        before = match.state_after(e.index)
        hidden = hidden_from(before, e.action, e.seat)
        text = mode.log_text(e)
        if hidden & set(mode.people()):
            hidden_seen += 1
            assert not any(title in text for title in titles) and e.action[5:] not in text
            for other, _ in before.chance_outcomes():
                after = before.clone()
                events = after.apply_action(other)
                twin = type(e)(e.index, e.seat, other, before.action_to_string(other), list(events))
                assert mode.log_text(twin) == text
    assert hidden_seen >= 1     # the first topic of the game is hidden from everyone


# --- a logged move on the board ----------------------------------------------------------

def test_hovering_a_log_line_shows_the_move_in_the_players_colour(qtbot, mode):
    mode.start_game(["human", "human"], seed=3)
    mode.choose_buttons[0].clicked.emit()          # Red chooses
    mode.on_state_clicked("TX")                    # Blue on Texas
    mode.bars.spaceClicked.emit("number", NO_EXACT_SPACES[0])   # Red on a No Exact space
    log = mode.match.log
    texas = next(e for e in log if e.action == "place:state:TX")
    mode.log_panel.hovered.emit(texas.index)
    assert mode.highlighted == ("state", "TX", COLOURS[1][1])
    assert mode.board.layer(LOG_LAYER, z=13).childItems()          # outline and ring on the map
    bar = log[-1]
    mode.log_panel.hovered.emit(bar.index)
    assert mode.bars.flash == (("number", NO_EXACT_SPACES[0]), COLOURS[0][1])
    assert not mode.board.layer(LOG_LAYER, z=13).childItems()      # one move at a time
    choose = next(e for e in log if e.action.startswith("choose:"))
    mode.log_panel.hovered.emit(choose.index)
    assert mode.highlighted == ("track", 0, COLOURS[0][1]) and mode.track.flash == 0
    assert COLOURS[0][1] in mode.card_label.styleSheet()           # the card on show was chosen then
    mode.log_panel.hovered.emit(-1)                                 # the pointer leaves the log
    assert mode.highlighted is None and mode.bars.flash is None and mode.track.flash is None


# --- replays ---------------------------------------------------------------------------

def test_a_saved_game_replays_read_only(qtbot, mode):
    _, body = read_save(SAVES / "america-finished.json", "america")
    saved = mode.match_from_save(body, "america-finished.json")
    assert saved.is_over()
    mode.start_game(["human", "ai:easy"], seed=2)
    live = mode.match
    mode.start_replay(saved)
    bar = mode.replay_bar
    assert mode.replaying is saved and bar.isVisible() and bar.position == len(saved.log)
    assert mode.final_scores.isVisible() and mode.game.is_terminal()
    bar.first_button.click()
    assert bar.position == 0 and len(mode.match.log) == 0 and not mode.map_markers()
    n = next(e.index for e in saved.log if e.action.startswith("place:state:")) + 1
    bar.go(n + 3)
    bar.back_button.click()
    bar.back_button.click()
    bar.back_button.click()
    assert bar.position == n
    state = saved.state_after(n)
    placed = {p.space for p in state.placements if p.section == "state" and p.space not in NO_EXACT_SPACES}
    assert placed and set(mode.map_markers()) == placed
    assert mode.game.occupied() == state.occupied()
    marks = {k for k, _ in state.occupied().items() if k[0] != "state" or k[1] in NO_EXACT_SPACES}
    assert set(mode.bars.marks) == marks
    # read-only: no topics to pick, no Pass, no prompt to act, clicks refused
    assert not any(b.isVisible() for b in mode.choose_buttons)
    assert not mode.pass_button.isVisible() and not mode.next_button.isVisible()
    assert "click" not in mode.bars.hint and "Replay" in mode.prompt.text()
    messages = []
    mode.status.connect(messages.append)
    mode.on_state_clicked("KS")
    assert mode.game.occupied() == state.occupied() and "replay" in messages[-1]
    bar.forward_button.click()
    assert bar.position == n + 1 and mode.match.log == saved.log[:n + 1]
    # just after a card was scored, the replay shows that card's answers
    scored = next(e.index for e in saved.log if any(ev.kind == "scored" for ev in e.events)) + 1
    bar.go(scored)
    assert mode.details.isVisible() and "Points on this card" in mode.details.toPlainText()
    assert mode.game.results and mode.bars.exact
    bar.last_button.click()
    assert bar.position == len(saved.log) and mode.game.is_terminal()
    bar.close_replay()
    assert mode.replaying is None and mode.match is live and mode.is_human_turn()
    assert not mode.final_scores.isVisible() and mode.log_panel.count() == len([e for e in live.log if mode.in_log(e)])


# --- undo --------------------------------------------------------------------------------

def test_a_computers_year_marker_cannot_be_seen_and_taken_back(qtbot, mode):
    """Issue 11, item 4: Red places, the hard computer answers on the year bar; Red may no
    longer take back the marker that it placed before seeing that answer."""
    mode.ai_delay_ms = 10_000          # the computer waits: the person acts first
    mode.start_game(["human", "ai:hard"], seed=8)
    mode.act("choose:0")
    mode.ai_timer.stop()
    mode.computer_turn(1)              # Blue places first on this card
    assert mode.is_human_turn()
    mode.act("place:year:1492")
    assert mode.can_undo()             # nobody has acted since
    mode.undo()
    assert ("year", "1492") not in mode.game.occupied() and mode.is_human_turn()
    mode.act("place:year:1492")
    n = len(mode.match.log)
    mode.ai_timer.stop()
    mode.computer_turn(1)              # the hard computer's reply is on the board now
    reply = mode.match.log[-1]
    assert reply.seat == 1 and len(mode.match.log) == n + 1
    assert not mode.can_undo()
    mode.undo()                        # the shell would not offer it; nothing happens anyway
    assert mode.match.log[-1] is reply and ("year", "1492") in mode.game.occupied()


def test_the_pass_that_scores_a_card_cannot_be_taken_back(qtbot, mode):
    """Red's last move ends the card (a pass, or the last marker when both are out): its
    answers are on show, so it stays, and so does everything before the next card."""
    mode.ai_delay_ms = 10_000          # the computer moves when the test says
    mode.start_game(["human", "ai:easy"], seed=3)
    mode.act("choose:0")
    while not mode.game.results:
        mode.ai_timer.stop()
        g = mode.game
        if g.current_player() == 1:
            mode.computer_turn(1)
        elif 1 in g.passed:
            assert mode.act("pass")    # Red passes last: the card is scored
            assert mode.match.log[-1].seat == 0
        else:
            year = next(a for a in g.legal_actions(0) if a.startswith("place:year:"))
            assert mode.act(year)
            # a marker may be taken back until Blue moves, unless it ended the card
            assert mode.can_undo() == (not mode.game.results)
    assert mode.revealing and not mode.can_undo()
    mode.next_card()
    mode.ai_timer.stop()
    assert mode.game.phase == "choose" and not mode.can_undo()   # nor after the reveal


# --- the end of the game -----------------------------------------------------------------

def test_the_end_shows_the_score_table_and_no_next_card(qtbot, mode):
    """Issue 11, item 6: after the last card there is no "press Next card" anywhere; the
    panel and the dialog show the final scores in a score table."""
    mode.start_game(["human", "ai:medium", "ai:easy"], seed=6)
    messages = []
    mode.status.connect(messages.append)
    play_to_the_end(mode, seed=6)
    g = mode.game
    assert g.is_terminal() and not mode.busy()
    assert not mode.next_button.isVisible() and not mode.pass_button.isVisible()
    assert "Next card" not in mode.prompt.text() and "wins" in mode.prompt.text()
    assert mode.score_dialog is not None and mode.score_dialog.isVisible()
    for table in (mode.final_scores, mode.score_table):
        assert table.isVisible() and table.rowCount() == 3
        names = [table.cell_text(r, 0) for r in range(3)]
        assert names == g.players
        assert [int(table.cell_text(r, 2)) for r in range(3)] == g.track
        assert table.cell_text(g.winner, 1) == "1st"
    mode.on_state_clicked("KS")
    mode.bars.spaceClicked.emit("year", "1900")
    mode.next_card()
    assert messages and all("Next card" not in m for m in messages)
    assert "game is over" in messages[-1]
    # "Replay this game" from the score table
    replay = next(b for b in mode.score_dialog.findChildren(type(mode.new_button)) if b.text() == "Replay this game")
    replay.click()
    assert mode.replaying is not None and mode.replay_bar.isVisible()


def test_a_finished_save_opens_at_its_end_without_next_card(qtbot, mode):
    _, body = read_save(SAVES / "america-finished.json", "america")
    mode.load_state(json.loads(json.dumps(body)))
    assert mode.game.is_terminal() and not mode.next_button.isVisible() and not mode.busy()
    assert mode.final_scores.isVisible() and mode.score_dialog is None   # no popup for a loaded game
    assert "Next card" not in mode.prompt.text()


# --- the setup screen --------------------------------------------------------------------

def test_the_setup_screen_offers_every_level_and_a_name_per_colour(qtbot, mode):
    dialog = mode.setup_screen()
    qtbot.addWidget(dialog)
    kinds = [dialog.kind_boxes[0].itemData(i) for i in range(dialog.kind_boxes[0].count())]
    assert kinds == ["human", "ai:easy", "ai:medium", "ai:hard"]
    assert (dialog.count.minimum(), dialog.count.maximum()) == (2, 6)
    assert [n.placeholderText() for n in dialog.names] == [c[0] for c in COLOURS]
    dialog.count.setValue(4)
    mode.start_from_setup(dialog)
    assert mode.game.players == ["Red", "Blue", "White", "Black"]
    assert mode.seats[:3] == ["human", "ai:medium", "ai:medium"]


def test_chance_never_waits_for_a_person(qtbot, mode):
    mode.start_game(["human", "human"], seed=5)
    assert mode.game.current_player() != CHANCE and mode.is_human_turn()
    assert not mode.pass_screen.isVisible()   # the same table for everyone: no pass screen


def test_after_a_resume_the_status_bar_agrees_with_the_panel(qtbot):
    """Issue 11, item 6: a game resumed at a scored card says Next card in both places; a
    finished one says who won and nothing of Next card."""
    from stateside.board.view import BoardView

    for name, says in (("america-revealing.json", "Next card"), ("america-finished.json", "won")):
        _, body = read_save(SAVES / name, "america")
        m = AmericaMode(BoardView())   # built, loaded, then shown, as the shell resumes
        qtbot.addWidget(m)
        m.load_state(body)
        m.show()
        m.activate()
        assert says in m.last_status
        if says == "Next card":
            assert m.next_button.isVisible() and "Next card" in m.prompt.text()
        else:
            assert "Next card" not in m.last_status and not m.next_button.isVisible()


@pytest.fixture
def clean_decks():
    from stateside.games.america import deck as decks
    from stateside.games.america import rules

    yield
    decks.set_user_decks({})
    for cached in (rules.bundled_deck, rules.bundled_topics, rules.bundled_box_plan):
        cached.cache_clear()


def test_game_replay_opens_a_save_that_drew_from_an_added_deck(qtbot, tmp_path, monkeypatch, clean_decks):
    """Game > Replay… reads the file through the mode's match_from_save: a game that drew
    cards from an added deck replays while the deck is added, and says which deck is
    missing otherwise."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from stateside.app.main import MainWindow
    from stateside.app.replay import start_replay
    from stateside.engine.saves import save_game
    from stateside.games.america import deck as decks
    from stateside.games.america.mode import write_history
    from stateside.games.america.rules import bundled_topics
    from stateside.paths import resource

    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    mode = window.open_mode("america")
    mode.add_deck(resource("decks", "america", "example-user-deck.yaml"))
    write_history(sorted(t for t in bundled_topics() if decks.user_deck_of(t) is None))
    mode.start_game(["ai:easy", "ai:easy"], seed=11)
    mode.ai_timer.stop()
    mode.match.play_out()
    assert any(decks.user_deck_of(t) for t in mode.game.drawn)
    path = tmp_path / "with-my-cards.json"
    save_game(path, mode.save_state())
    finished = mode.match
    mode.start_game(["human", "ai:easy"], seed=2)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a: (str(path), ""))
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warnings.append(text))
    mode.remove_deck("example-user-deck")
    start_replay(window)
    assert mode.replaying is None and "example-user-deck" in warnings[-1] and "Add deck" in warnings[-1]
    mode.add_deck(resource("decks", "america", "example-user-deck.yaml"))
    start_replay(window)
    assert mode.replaying is not None and mode.replaying.actions == finished.actions
    mode.replay_bar.go(3)
    assert [e.action for e in mode.match.log] == finished.actions[:3]
    assert mode.game.observation(0) == finished.state_after(3).observation(0)


# --- online: the hidden first topic ------------------------------------------------------



@pytest.mark.parametrize("one_at_a_time", [True, False])
def test_an_online_screen_agrees_with_its_seats_view_of_the_unseen_first_topic(qtbot, mode, one_at_a_time):
    """The referee draws the game's first topic before anyone may see it, then the second
    (seen: both are offered). Whether this screen hears of the draws together or one by
    one, its observation is the seat's, its legal actions the referee's, and its log reads
    as the referee told it, the first draw unseen and naming no topic."""
    r = rules_on(bundled_deck())
    table = Match(r, ["human", "ai:easy"], 9, r.default_setup(2))
    table.run_until_human()          # the two draws, then seat 0 chooses
    for _ in range(6):               # and a few moves on
        g = table.state
        table.apply(g.legal_actions(g.current_player())[0]) if g.current_player() == 0 else table.step()
    views = list(referee_views(table, 0))
    assert views[0]["entries"][0].get("hidden") and not views[1]["entries"][1].get("hidden")
    mode.attach_online(FakeSession(0))
    for view in (views if one_at_a_time else views[1:]):
        mode.online_update(view)
        assert mode.game.observation(0) == view["observation"]
        assert mode.game.legal_actions(0) == view["legal"]
        assert [e.text for e in mode.match.log] == [x["text"] for x in view["entries"]]
    assert not mode.match.log[0].seen_by(0) and mode.match.log[1].seen_by(0)
    first = table.log[0].action[len("draw:"):]
    assert first not in mode.log_panel.lines()[0].text and not mode.log_panel.lines()[0].text.startswith("draw:")
    mode.leave_online()
    assert "rules" not in mode.__dict__   # back to the decks of this computer
    mode.attach_online(FakeSession(0))
    mode.online_update(views[-1])
    mode.start_game(["human", "ai:easy"], seed=1)   # a new game here leaves the table
    assert mode.online is None and mode.match.actions != table.actions and mode.is_human_turn()
