"""The one driver of real-time games (GameSpec.real_time), for the app and self-play.

At a SIMULTANEOUS node every computer seat plans a reaction (a time and an action)
from its observation; the earliest planned action before the next deadline happens,
otherwise game time advances to the deadline. A deadline comes before any action
planned for the same moment (advancing to a deadline passes it). The app calls the
same function from a timer, after letting the wall clock reach the game time of the step.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

from stateside.engine.log import LogEntry, seat_rng_seed
from stateside.engine.protocol import Player, State


class Match(Protocol):
    """What the clock needs of a match (engine.match.Match, which calls the clock in turn)."""
    @property
    def state(self) -> State: ...
    @property
    def players(self) -> Sequence[Player | None]: ...
    @property
    def seed(self) -> int: ...
    @property
    def log(self) -> Sequence[LogEntry]: ...

    def apply(self, action: Any, decision_ms: float | None = None) -> LogEntry: ...


def planned_reactions(match: Match) -> list[tuple[int, int, object, float]]:
    """(time, seat, action, thinking ms) for every computer seat that wants to act, earliest first."""
    state = match.state
    now = state.now()
    plans = []
    for seat, player in enumerate(match.players):
        if player is None:
            continue
        legal = state.legal_actions(seat)
        if not legal:
            continue
        player.rng.seed(seat_rng_seed(match.seed, seat, len(match.log)))
        obs = state.observation(seat)
        start = time.perf_counter()
        plan = player.react(obs, legal, now)
        ms = (time.perf_counter() - start) * 1000
        if plan is not None:
            t, action = plan
            plans.append((max(int(t), now), seat, action, ms))
    plans.sort(key=lambda p: (p[0], p[1]))
    return plans


def _next(match: Match, until: int | None) -> tuple[int, list, float | None]:
    state = match.state
    now = state.now()
    deadline = state.next_deadline()
    plans = planned_reactions(match)
    if plans and (deadline is None or plans[0][0] < deadline) and (until is None or plans[0][0] <= until):
        t, _, action, ms = plans[0]
        return t, ([state.advance_action(t)] if t > now else []) + [action], ms
    limit = deadline if until is None else (until if deadline is None else min(deadline, until))
    if limit is None or limit <= now:
        return now, [], None
    return limit, [state.advance_action(limit)], None


def next_step(match: Match, until: int | None = None) -> tuple[int, list]:
    """What happens next if no person acts: (game time, actions to apply in order). The
    actions are the advance of time to a computer's planned moment followed by its
    move, or the advance of time to the next deadline (or to `until`); an empty list
    when nothing is planned and no deadline is set, or when time has reached `until`."""
    t, actions, _ = _next(match, until)
    return t, actions


def step_simultaneous(match: Match) -> LogEntry | None:
    """Self-play: take the next step at once (no wall clock). A computer's move is
    logged with its thinking time."""
    _, actions, ms = _next(match, None)
    entry = None
    for i, action in enumerate(actions):
        entry = match.apply(action, ms if i == len(actions) - 1 else None)
    return entry
