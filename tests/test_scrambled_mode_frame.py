"""Scrambled States in the shared frame (issue 11): the move log and its hover highlight,
replays of a saved game, the final score table; a race has no undo."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from stateside.app.turns import ScoreTable
from stateside.engine.match import Match
from stateside.engine.saves import read_save, save_game
from stateside.games.scrambled_states.mode import SEAT_COLOURS, ScrambledStatesMode, build_match, log_line
from stateside.games.scrambled_states.rules import FACE_NAMES, FACE_UP, Action, ScrambledStates
from audience_oracle import hidden_from

SAVES_V1 = Path(__file__).parent / "data" / "saves-v1"


class FakeClock:
    def __init__(self):
        self.t = 0

    def __call__(self) -> int:
        return self.t


@pytest.fixture
def mode(show_mode):
    m = show_mode(ScrambledStatesMode, size=(1024, 700))
    m.now = FakeClock()
    return m


def play(mode, seats, seed: int, until: int, target: int = 10) -> None:
    """A game on the mode's clock: the computers slap on their timers as time passes."""
    mode.start_game(build_match({"seats": seats, "target": target}, seed))
    mode.resume()
    for t in range(250, until, 250):
        mode.now.t = t
        mode._on_tick()
        if mode.game.is_terminal():
            break


def computers_only(seed: int = 11, target: int = 4) -> Match:
    """A seeded match of computers, played out with the engine's clock."""
    setup = ScrambledStates.default_setup(3)
    setup["target"] = target
    match = Match(ScrambledStates, ["ai:hard", "ai:medium", "ai:easy"], seed, setup)
    match.play_out()
    return match


def names_card(text: str, name: str) -> bool:
    return re.search(rf"(?<!West )\b{re.escape(name)}\b", text) is not None


# --- the move log ------------------------------------------------------------------------
def test_the_log_holds_every_move_newest_last_in_its_players_colour(mode):
    play(mode, [["You", "human"], ["Ada", "ai:hard"], ["Ben", "ai:medium"]], seed=3, until=30000)
    log = mode.match.log
    lines = mode.log_panel.lines()
    assert [line.index for line in lines] == sorted(line.index for line in lines)   # newest last
    assert lines[0].text == f"The deal: {FACE_UP} cards face up." and lines[0].colour == "#9a9a9a"
    by_index = {line.index: line for line in lines}
    slaps = [e for e in log if isinstance(e.action, Action)]
    assert len(slaps) >= 5 and {e.seat for e in slaps} == {1, 2}   # the computers' moves
    for e in slaps:                                                 # each one has its line, in its colour
        assert by_index[e.index].colour == SEAT_COLOURS[e.seat] and mode.game.names[e.seat] in by_index[e.index].text
    rounds = [line.text for line in lines if line.text.startswith("Round ")]
    assert len(rounds) >= mode.game.round_count - 1 >= 4
    assert re.fullmatch(r"Round 1: [A-Z][A-Za-z ]+, the die shows [A-Za-z ]+\.", rounds[0])
    won = [line for line in lines if " wins " in line.text]
    assert len(won) == sum(1 for e in mode.game.results if e.kind in ("win", "hand", "no-match"))
    assert not any("The clock ran on" in line.text for line in lines)   # time passing alone says nothing


def test_pointing_at_a_line_shows_its_cards_in_the_players_colour(qtbot, mode):
    play(mode, [["You", "human"], ["Ada", "ai:hard"]], seed=3, until=20000)
    line = next(ln for ln in mode.log_panel.lines() if " wins " in ln.text and ln.seat == 1)
    code = next(ev.cards[0] for ev in mode.match.log[line.index].events if ev.kind in ("win", "hand", "no-match"))
    board = mode.board
    ada = QColor(SEAT_COLOURS[1])
    mode.log_panel.hovered.emit(line.index)
    assert board._states[code].highlight == ada and not board._states[code].dimmed
    assert ("scrambled-pointed", code) in board._tokens and board._tokens[("scrambled-pointed", code)].colour == ada
    assert code in mode.game.piles[1] and code not in mode.table.slots   # it left the table: shown on the map
    mode.log_panel.hovered.emit(-1)
    assert board._states[code].highlight != ada and ("scrambled-pointed", code) not in board._tokens
    # A card on the table is outlined in the row of cards too; a click keeps the highlight.
    deal = mode.log_panel.lines()[0]
    mode.log_panel.picked.emit(deal.index)
    mode.log_panel.hovered.emit(-1)
    on_table = [c for c in mode.table.slots if c in mode.table.marks]
    assert on_table and all(mode.table.marks[c] == QColor("#1d3557") for c in on_table)
    mode.log_panel.picked.emit(deal.index)                 # a second click lets go
    assert mode.table.marks == {} and mode.pointed is None


def test_the_log_never_names_the_center_card_or_die_before_the_die_lands():
    """What the screen hides while the die rolls (the center card, the face) the log does
    not tell either; and the engine's own view (hidden_from) hides nothing from any seat
    in this game, so every line shown is one every seat may read."""
    setup = ScrambledStates.default_setup(3)
    match = Match(ScrambledStates, ["ai:hard", "ai:medium", "ai:easy"], 5, setup)
    checked = 0
    while not match.is_over() and len(match.log) < 400:
        before = match.state.clone()
        entry = match.step()
        assert hidden_from(before, entry.action, entry.seat) == set()
        match.resolve_chance()              # as the mode does before it draws
        g = match.state
        if g.phase != "rolling":
            continue
        r = g.round
        name = g.cards[r.center].name
        said = [log_line(match.log, i) for i in range(len(match.log))]
        texts = [s[0] for s in said if s]
        assert not any(names_card(text, name) for text in texts), name
        assert not any(f"Round {r.number}:" in text for text in texts)
        assert not any(f"landed on {FACE_NAMES[r.face]}" in text for text in texts)
        checked += 1
    assert checked >= 5


# --- replays ------------------------------------------------------------------------------
def test_replay_a_saved_game_step_by_step(qtbot, mode, tmp_path):
    mode.now.t = 0
    mode.resume()
    mode.now.t = 3000
    mode._on_tick()
    live, live_actions = mode.match, len(mode.match.log)
    played = computers_only()
    path = tmp_path / "race.stateside.json"
    save_game(path, played.to_json())
    game_id, body = read_save(path)
    assert game_id == "scrambled-states"
    mode.start_replay(mode.match_from_save(body, str(path)))
    total = len(played.log)
    bar = mode.replay_bar
    assert bar.isVisible() and bar.position == total and not mode.running and not mode.tick.isActive()
    assert mode.final_box.isVisible() and mode.score_table.cell_text(0, 1) == str(len(played.state.piles[0]))

    def shows(n: int) -> None:
        g = played.state_after(n)
        assert len(mode.match.log) == n and mode.game.scores() == g.scores()
        assert mode.table.slots == g.face_up
        if g.phase in ("open", "closing"):
            assert mode.center_card.code == g.center and mode.die.face == g.face
        else:
            assert mode.center_card.code is None
        assert f"move {n} of {total}" in mode.banner.text()

    bar.first_button.click()
    assert bar.position == 0 and mode.table.slots == [None] * FACE_UP
    open_at = next(n for n in range(1, total) if played.state_after(n).phase == "open")
    bar.go(open_at)
    shows(open_at)
    bar.back_button.click()
    shows(open_at - 1)
    bar.forward_button.click()
    bar.forward_button.click()
    shows(open_at + 1)
    bar.slider.setValue(total // 2)
    shows(total // 2)
    bar.last_button.click()
    shows(total)
    # Read-only: nothing to slap, no clock.
    mode.slap_card(mode.game.face_up_cards()[0])
    mode.on_state_clicked(mode.game.face_up_cards()[0])
    mode.resume()
    assert len(played.log) == total and not mode.running and "replay" in mode.banner.text().lower()
    assert len(live.log) == live_actions and not mode.start_button.isVisible()
    bar.close_replay()
    assert mode.replaying is None and mode.match is live and len(live.log) == live_actions
    assert not mode.running and mode.start_button.text() == "Resume"
    assert [ln.index for ln in mode.log_panel.lines()] == [i for i in range(len(live.log)) if log_line(live.log, i)]


def test_replay_keys_on_the_map(qtbot, mode):
    from PySide6.QtCore import Qt

    mode.start_replay(computers_only(seed=4, target=3))
    total = mode.replay_bar.total
    qtbot.keyClick(mode.board, Qt.Key_Home)
    qtbot.keyClick(mode.board, Qt.Key_Right)
    qtbot.keyClick(mode.board, Qt.Key_Right)
    assert mode.replay_bar.position == 2
    qtbot.keyClick(mode.board, Qt.Key_End)
    assert mode.replay_bar.position == total
    round_line = next(ln for ln in mode.log_panel.lines() if ln.text.startswith("Round 2:"))
    mode.log_panel.picked.emit(round_line.index)           # a click on a line goes there
    assert mode.replay_bar.position == round_line.index + 1 and mode.game.round.number == 2
    assert mode.center_card.code == mode.game.center       # the die has landed at that move
    qtbot.keyClick(mode.board, Qt.Key_End)
    qtbot.keyClick(mode.board, Qt.Key_Escape)
    assert mode.replaying is None and not mode.replay_bar.isVisible()


def test_a_version_1_save_replays(mode):
    _, body = read_save(SAVES_V1 / "scrambled-states-six-finished.json")
    match = mode.match_from_save(body, "six-finished")
    mode.start_replay(match)
    assert mode.game.is_terminal() and mode.game.scores() == match.state.scores()
    assert mode.score_table.rowCount() == 6
    mode.replay_bar.go(FACE_UP)
    assert mode.table.slots == match.state_after(FACE_UP).face_up and mode.center_card.code is None


def test_game_replay_menu_opens_a_save_in_the_mode(qtbot, tmp_path, monkeypatch):
    """Game > Replay... (app/replay.start_replay) reads a saved race into this mode."""
    from PySide6.QtWidgets import QFileDialog

    from stateside.app.main import MainWindow

    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.resize(1024, 700)
    path = tmp_path / "race.stateside.json"
    played = computers_only(seed=2, target=3)
    save_game(path, played.to_json())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_mode("explorer")
    window.replay()
    mode = window.current
    assert isinstance(mode, ScrambledStatesMode) and mode.replaying is not None
    assert mode.replay_bar.total == len(played.log) and mode.game.scores() == played.state.scores()


# --- the end ------------------------------------------------------------------------------
def test_the_final_score_table_and_replay_this_game(qtbot, mode):
    play(mode, [["You", "human"], ["Ada", "ai:hard"], ["Ben", "ai:easy"]], seed=9, until=90000, target=3)
    g = mode.game
    assert g.is_terminal() and mode.final_box.isVisible() and not mode.scoreboard.isVisible()
    table = mode.score_table
    assert isinstance(table, ScoreTable)
    assert [table.horizontalHeaderItem(c).text() for c in range(3)] == ["Player", "Cards", "Slips"]
    assert [table.cell_text(r, 0) for r in range(3)] == g.names
    assert [int(table.cell_text(r, 1)) for r in range(3)] == g.scores()
    winner = g.winners()[0]
    assert table.item(winner, 0).font().bold() and int(table.cell_text(winner, 1)) == 3
    slips = sum(1 for e in mode.match.log for ev in e.events if ev.kind in ("slip", "buzz-timeout"))
    assert sum(int(table.cell_text(r, 2)) for r in range(3)) == slips
    finished = mode.match
    mode.replay_button.click()
    assert mode.replaying is finished and mode.replay_bar.position == len(finished.log)
    assert not mode.replay_button.isVisible()
    mode.replay_bar.go(0)
    assert not mode.final_box.isVisible()
    mode.stop_replay()
    assert mode.match is finished and mode.final_box.isVisible()


def test_no_undo_in_a_race(mode):
    play(mode, [["You", "human"], ["Ada", "ai:hard"]], seed=3, until=8000)
    mode.slap_card(mode.game.face_up_cards()[0])
    assert not mode.can_undo()
    assert "There is no undo" in mode.help_html()
