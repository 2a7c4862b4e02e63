"""What a person may take back and what a replay shows, from the audiences the rules
declare (issue 21): Ctrl+Z takes back a person's move against computers in every
turn-based game while the computers wait their beat, never past something the person
saw and did not choose; a replay of an unfinished game shows only what the people at
this screen could see."""
from __future__ import annotations

import pytest

from stateside.app.mode import GameMode
from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE

BEAT_MS = 60_000   # long enough that the computers wait while the test looks


def open_mode(show_mode, game_id: str):
    from stateside.games import game_by_id, load_object

    mode = show_mode(load_object(game_by_id(game_id).mode), size=(1280, 800))
    mode.ai_delay_ms = 0
    spinner = getattr(mode, "spinner", None)   # Game of the States' spinner turns at once
    if spinner is not None:
        spinner.spin_ms = 0
    return mode


def new_match(mode, seed: int, variant: str | None = None) -> Match:
    rules = mode.rules
    setup = rules.default_setup(2)
    setup["players"] = ["Ada", "Cleo"]
    if variant is not None:
        setup["variant"] = variant
    level = rules.spec.ai_levels[0]
    return Match(rules, ["human", f"ai:{level}"], seed, setup)


def until_the_computer_waits(qtbot, mode, limit=400):
    """The person plays the first legal action until their move hands the turn to the
    computer, which then waits its beat. Returns False if the game ended first."""
    for _ in range(limit):
        qtbot.waitUntil(lambda: mode.is_human_turn() or mode.ai_timer.isActive() or mode.game.is_terminal(),
                        timeout=10000)
        if mode.game.is_terminal():
            return False
        if not mode.is_human_turn():
            last = next((e for e in reversed(mode.match.log) if e.seat != CHANCE), None)
            if last is not None and last.seat == 0:
                return True
            # (the computer's move, or chance timed before anyone moved: a spin on its way)
            qtbot.waitUntil(lambda: mode.is_human_turn() or mode.game.is_terminal(), timeout=BEAT_MS + 10000)
            continue
        g = mode.game
        if g.current_player() == CHANCE and hasattr(mode, "spin"):   # a spin a person sets off
            mode.spin()
            qtbot.waitUntil(lambda: not mode.busy(), timeout=10000)
            continue
        assert mode.act(g.legal_actions(g.current_player())[0])
    raise AssertionError("the computer never got a turn")


GAMES = [("ten-days", None), ("carcassonne", None), ("carcassonne", "usa-east"), ("america", None),
         ("game-of-the-states", "trivia"), ("game-of-the-states", "buy-and-sell"), ("game-of-the-states", "junior")]


@pytest.mark.parametrize("game_id, variant", GAMES)
def test_ctrl_z_takes_back_a_move_against_a_computer_in_its_beat(qtbot, show_mode, monkeypatch, game_id, variant):
    monkeypatch.setattr(GameMode, "undo_beat_ms", BEAT_MS)
    mode = open_mode(show_mode, game_id)
    mode.install(new_match(mode, 4, variant))
    refusals = []
    for _ in range(12):   # some moves stay by the game's own rules (America's topic chosen): the next
        assert until_the_computer_waits(qtbot, mode)
        if mode.can_undo():
            break
        refusals.append(mode.undo_refusal())
        mode._computer_due()   # the beat ends now: the computer moves
    else:
        raise AssertionError(f"no move could be taken back: {refusals}")
    log = list(mode.match.log)
    mode.undo()
    taken_back = log[len(mode.match.log):]
    assert taken_back and mode.is_human_turn()
    assert taken_back[0].seat == 0 and all(e.seat in (0, CHANCE) for e in taken_back)   # the person's, nobody else's


def test_a_replay_of_an_unfinished_game_against_a_computer_shows_none_of_its_draws(qtbot, show_mode):
    """10 Days: the computer's cards (dealt and drawn) are named neither in the log nor on
    the table while an unfinished game is replayed; a finished one is told in full."""
    mode = open_mode(show_mode, "ten-days")
    mode.install(new_match(mode, 6))
    while mode.game.turns < 8 and not mode.game.is_terminal():
        qtbot.waitUntil(lambda: mode.is_human_turn() or mode.game.is_terminal(), timeout=10000)
        if mode.is_human_turn():
            g = mode.game
            mode.act(g.legal_actions(g.current_player())[0])
    played = Match.from_json(mode.match.to_json())
    assert not played.is_over()
    unseen = [e for e in played.log if not e.seen_by(0)]
    assert unseen, "the computer's draws are hidden from the person"
    names = {mode.cards.name(e.action.split(":", 1)[1]) for e in unseen if e.seat == CHANCE}
    mode.start_replay(played)
    for n in range(len(played.log) + 1):
        mode.replay_to(n)
        assert mode.viewer == 0   # the person's own view, never the computer's hand
    lines = {line.index: line.text for line in mode.log_panel.lines()}
    for e in unseen:
        assert not any(name in lines.get(e.index, "") for name in names), lines.get(e.index)
