"""The play layer's real time (stateside.play.realtime): the one clock loop, the game clock,
the real-time flow and the online source of a race, without Qt; and that the loop has one
implementation, which both the screen (app/realtime.py, under Scrambled States' mode) and
the referee (online/realtime.py) run."""
from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

import stateside
from stateside.engine.clock import planned_reactions
from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.games.scrambled_states.rules import Action, Advance, ScrambledStates, no_match, slap
from stateside.play.realtime import (
    CHANCE_DUE,
    GameClock,
    RealtimeFlow,
    RealtimeOnlineSource,
    advance_to,
    due_by,
    next_due_ms,
)
from stateside.play.table import LocalSource, Table

SRC = Path(stateside.__file__).parent


def computers(seed: int = 7) -> Match:
    setup = ScrambledStates.default_setup(3)
    setup["target"] = 4
    match = Match(ScrambledStates, ["ai:hard", "ai:medium", "ai:easy"], seed, setup)
    match.resolve_chance()
    return match


class FakeMonotonic:
    def __init__(self):
        self.s = 100.0

    def __call__(self) -> float:
        return self.s


# --- the clock loop --------------------------------------------------------------------------
def test_a_computers_planned_slap_happens_at_its_planned_time():
    """What the computers plan (engine.clock.planned_reactions, asked before) is what the loop
    brings, at that moment, and not before it."""
    match = computers()
    advance_to(match, next_due_ms(match))   # the die lands: the race is on
    plans = planned_reactions(match)
    assert plans, "nobody planned a slap on an open round"
    t, seat, action, _ = plans[0]
    before = len(match.log)
    advance_to(match, t - 1)
    assert match.state.now() == t - 1 and all(e.seat != seat for e in match.log[before:])
    advance_to(match, t)
    assert [e.action for e in match.log if isinstance(e.action, Action)][-1] == action
    assert action.t == t


def test_the_loop_reaches_its_time_and_leaves_nothing_due_before_it():
    match = computers(3)
    times = []
    for t in range(500, 60_000, 1_700):
        advance_to(match, t)
        if match.is_over():
            break
        times.append(match.state.now())
        assert match.state.now() == t
        due = next_due_ms(match)
        assert due is None or due > t   # a deadline at t itself has passed
        assert match.state.current_player() != CHANCE
    assert len(times) > 10
    stamps = [e.action.t for e in match.log if isinstance(e.action, (Action, Advance))]
    assert stamps == sorted(stamps)


def test_the_same_seed_and_the_same_times_give_the_same_game():
    def played(steps: range) -> list:
        match = computers(11)
        for t in steps:
            advance_to(match, t)
        return match.to_json()["actions"]

    one = played(range(250, 40_000, 250))
    assert len(one) > 40 and one == played(range(250, 40_000, 250))


def test_due_by_reads_the_match_again_after_each_action_and_leaves_chance_to_its_caller():
    """The referee's way: each action committed by the caller; a chance draw its own."""
    match = Match(ScrambledStates, ["ai:hard", "ai:easy"], 5, ScrambledStates.default_setup(2))
    twin = Match(ScrambledStates, ["ai:hard", "ai:easy"], 5, ScrambledStates.default_setup(2))
    chances = 0

    async def commit_all() -> None:   # an async caller, as online/realtime.py is
        nonlocal chances
        for action in due_by(lambda: match, 20_000):
            await asyncio.sleep(0)
            if action is CHANCE_DUE:
                chances += 1
                match.step()   # the match's seeded draw stands in for the referee's
            else:
                match.apply(action)

    asyncio.run(commit_all())
    advance_to(twin, 20_000)
    assert chances >= 17   # the deal (15 cards), a center card, a die at least
    assert match.to_json() == twin.to_json()


def test_the_loop_has_one_implementation():
    """The screen and the referee both run play.realtime's loop; nothing else in src steps the
    game's clock up to a time (engine.clock.next_step with `until`)."""
    def calls(path: Path) -> list[ast.Call]:
        return [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", None)) == "next_step"]

    callers = [p for p in SRC.rglob("*.py") if "next_step" in p.read_text(encoding="utf-8")]
    with_until = sorted(str(p.relative_to(SRC)) for p in callers
                        if any(k.arg == "until" for c in calls(p) for k in c.keywords))
    assert with_until == ["play/realtime.py"]
    for user in ("app/realtime.py", "online/realtime.py"):   # the screens' driver and the referee
        text = (SRC / user).read_text(encoding="utf-8")
        assert "from stateside.play.realtime import" in text and not calls(SRC / user), user
    mode = (SRC / "games/scrambled_states/mode.py").read_text(encoding="utf-8")
    assert "(RealtimeMode)" in mode and "next_step" not in mode


# --- the game clock and the flow -------------------------------------------------------------
def test_the_game_clock_runs_only_while_started():
    mono = FakeMonotonic()
    clock = GameClock(mono)
    assert clock.game_time() == 0 and not clock.running
    clock.restart(5_000)
    mono.s += 1.25
    assert clock.game_time() == 6_250 and clock.mono_at(7_000) == pytest.approx(mono.s + 0.75)
    assert clock.stop() == 6_250
    mono.s += 10
    assert clock.game_time() == 6_250


def test_the_flow_pauses_resumes_and_says_when_to_look_again():
    mono = FakeMonotonic()
    match = computers(2)
    table = Table(LocalSource(match))
    heard = []
    table.listen(heard.append)
    flow = RealtimeFlow(table, mono)
    assert not flow.running and not flow.started and flow.wait_ms() is None
    assert flow.resume() and flow.running and flow.started
    due = next_due_ms(match)
    assert flow.wait_ms() == due - match.state.now()
    mono.s += 3.0
    done = flow.advance()
    assert match.state.now() == 3_000 and done and heard == done   # the table's listeners hear each entry
    assert flow.pause() and not flow.running and flow.now() == 3_000
    mono.s += 60.0
    assert flow.advance() == [] and flow.now() == 3_000 and match.state.now() == 3_000   # time stands still
    assert flow.resume() and flow.now() == 3_000
    mono.s += 0.5
    assert flow.now() == 3_500
    view = flow.view(0)   # the table's view of a seat, with the clock running here
    assert view.clock_ms == 3_500 and view.state is match.state and view.source == "local"


def test_a_persons_action_goes_in_at_the_clocks_time_and_a_refused_one_changes_nothing():
    match = Match(ScrambledStates, ["human", "ai:easy"], 4, ScrambledStates.default_setup(2))
    match.resolve_chance()
    flow = RealtimeFlow(Table(LocalSource(match)), FakeMonotonic())
    flow.resume()
    flow.advance(next_due_ms(match))   # the die has landed
    g = match.state
    before = len(match.log)
    refused = flow.act(0, no_match(0, g.now() + 5))   # not at the clock's time
    assert refused.kind == "refused" and refused.reason and len(match.log) == before
    right = g.matching_cards()
    done = flow.act(0, slap(0, right[0], g.now()) if right else no_match(0, g.now()))
    assert done.kind == "accepted" and done.entry.seat == 0 and match.log[before] is done.entry


def test_a_replay_and_an_online_table_are_not_driven_here():
    """A replay stands still; online the referee's log is the game: the flow runs the
    display's time only."""
    mono = FakeMonotonic()
    match = computers(9)
    table = Table(LocalSource(match))
    flow = RealtimeFlow(table, mono)
    table.start_replay(match, 5)
    assert not flow.resume() and flow.wait_ms() is None
    table.stop_replay()
    table.go_online(RealtimeOnlineSource(FakeSession(), ScrambledStates, round_of=lambda g: 1))
    table.source.match = match
    flow.follow(2_000, running=True)
    mono.s += 1.0
    before = len(match.log)
    assert flow.follows and flow.now() == 3_000 and flow.advance() == [] and len(match.log) == before
    assert flow.wait_ms() is None and not flow.pause() and not flow.resume() and flow.running
    flow.stop()
    assert not flow.running


# --- online ----------------------------------------------------------------------------------
class FakeSession:
    seat, table = 0, "K7QX3M"

    def __init__(self):
        self.sent = []

    def send(self, data, **fields) -> None:
        self.sent.append((data, fields))


def referee_views(match: Match, texts: dict[int, str] | None = None) -> dict:
    """The view a referee sends seat 0 of a match's whole log (a game that hides nothing)."""
    g = match.state
    entries = [{"n": e.index, "seat": e.seat, "text": (texts or {}).get(e.index, e.text),
                "action": g.action_to_json(e.action), "events": [ev.text for ev in e.events]} for e in match.log]
    return {"status": "playing", "table": "K7QX3M", "n": len(entries), "entries": entries,
            "observation": g.observation(0), "observed": {},
            "info": {"seats": match.seats, "setup": match.initial_setup}}


def test_an_online_race_is_followed_entry_by_entry_time_passing_and_all():
    """engine.following applies the referee's entries, the clock's advances too (a real-time
    game lists no timed action for any seat), so this screen's copy is the table's game."""
    table_game = computers(13)
    advance_to(table_game, 9_000)
    assert not table_game.is_over() and len(table_game.log) > 25
    void = next(e.index for e in table_game.log if isinstance(e.action, Advance))
    source = RealtimeOnlineSource(FakeSession(), ScrambledStates, round_of=lambda g: g.round.number)
    done = source.update(referee_views(table_game, {void: "Round 1 is void: the table changed referee mid-round."}))
    assert done.started is not None and not done.disagreed
    assert source.match.state.now() == table_game.state.now() == 9_000
    assert source.match.state.observation(0) == table_game.state.observation(0)
    assert len(done.entries) == len(table_game.log)
    assert source.notes == {void: "Round 1 is void: the table changed referee mid-round."}   # the table's own words


def test_an_online_move_goes_with_its_round_and_a_refusal_takes_back_the_oldest():
    table_game = Match(ScrambledStates, ["human", "ai:easy"], 4, ScrambledStates.default_setup(2))
    table_game.resolve_chance()
    advance_to(table_game, next_due_ms(table_game))   # the die has landed
    session = FakeSession()
    source = RealtimeOnlineSource(session, ScrambledStates, round_of=lambda g: g.round.number)
    table = Table(LocalSource(computers()))
    table.go_online(source)
    source.update(referee_views(table_game))
    g = source.match.state
    first = table.act(0, no_match(0, g.now()))
    second = table.act(0, slap(0, g.face_up_cards()[0], g.now()))
    assert first.kind == second.kind == "sent" and len(source.sent) == 2 and source.pending == 2
    assert [fields for _, fields in session.sent] == [{"round": g.round.number}] * 2
    assert source.sent[0][1] == ["no-match", 0, g.now()]
    source.refused("stale: round 1 is over")
    assert source.pending == 1 and source.sent[0][1][0] == "slap"
    assert len(table_game.log) and source.match.log[-1].seat != 0   # nothing of ours went in

