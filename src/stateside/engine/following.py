"""The table's game as one seat knows it (online play): a local Match brought up to the
referee's entries, with what the seat may not see dealt by the rules' consistent_with.

No game's own code takes part: an entry the seat saw is applied; one it did not see is
stood in for by any possible move; and wherever the referee told this seat what it
observed, the local world is made to agree with it (State.consistent_with). A visible
move that does not fit the world here (a card drawn that this screen had guessed into
another hand) is first tried on other worlds the seat cannot tell apart, and otherwise
recorded as the table told it, the world taken from the observation after it.

Every world this follower leaves agrees with what the seat was told at that point; where
it was told nothing (catching up many entries at once), the worlds in between are guesses
that no one sees, and the world after the last entry agrees with the latest observation.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from stateside.engine.match import LogEntry, Match
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, State
from stateside.errors import IllegalActionError

RESAMPLES = 8   # other worlds tried, catching up, for a visible move that does not fit this one


@dataclass
class Followed:
    """What one call of follow() did."""
    entries: list[LogEntry] = field(default_factory=list)   # the new log entries, in order
    before: dict[int, State] = field(default_factory=dict)   # the world here before each of them
    disagreed: list[int] = field(default_factory=list)      # positions no world here could match


def follow(match: Match, seat: int, entries: list[dict], observed: dict, observation: dict | None = None,
           n: int | None = None) -> Followed:
    """Bring `match`, this seat's copy of a table's game, up to the referee's `entries`
    (the seat's views: {"n", "seat", "text", "action"} or {"n", "seat", "text", "hidden"},
    with "events": the texts the seat may read). `observed` maps a log length to what the
    seat observed there; `observation`, the latest, is what it observes after the first
    `n` entries."""
    told = {int(k): v for k, v in observed.items() if v is not None}
    if observation is not None:
        told[len(entries) if n is None else n] = observation
    done = Followed()
    _agree(match, seat, told.get(len(match.log)), done)
    for entry in entries[len(match.log):]:
        k = len(match.log)
        done.before[k] = match.state.clone()
        made = _visible(match, seat, entry, told) if not entry.get("hidden") else _stand_in(match, entry)
        made.seat, made.text = entry["seat"], entry.get("text", made.text)
        made.words = None   # the referee's words are this seat's: no other viewer reads them here
        if entry.get("hidden"):
            made.audience = frozenset()   # (the actor, never this seat, saw it)
        shown = set(entry.get("events") or ())
        made.events = [ev for ev in made.events if getattr(ev, "text", str(ev)) in shown]
        done.entries.append(made)
        _agree(match, seat, told.get(k + 1), done)
    return done


def _agree(match: Match, seat: int, observation: dict | None, done: Followed) -> None:
    """Make the world here one that agrees with `observation` (if it does not already)."""
    if observation is None or match.state.observation(seat) == observation:
        return
    world = _world(match, seat, observation, 0)
    if world is None:
        done.disagreed.append(len(match.log))
    else:
        match.take_world(world)


def _world(match: Match, seat: int, observation: dict, attempt: int) -> State | None:
    """A world agreeing with `observation` (the same one for the same log length and attempt)."""
    rng = random.Random(f"follow:{seat}:{len(match.log)}:{attempt}")
    try:
        world = match.rules.consistent_with(match.initial_setup, seat, observation, rng)
    except (ValueError, KeyError, TypeError, IndexError):   # an observation that fits no world
        return None
    return world if world is not None and world.observation(seat) == observation else None


def _visible(match: Match, seat: int, entry: dict, told: dict) -> LogEntry:
    """Apply a move the seat saw: here if it fits; else, told what the seat saw after it,
    record it as told and take the world from that; else on another world the seat
    cannot tell from this one (catching up, when no observation comes between)."""
    k = len(match.log)
    try:
        action = match.state.action_from_json(entry["action"])
    except ValueError:
        action = None
    if action is not None and _fits(match.state, entry["seat"], action):
        return match.apply(action)
    after = told.get(k + 1)
    if action is not None and after is None:
        here = match.state.observation(seat)
        for attempt in range(1, RESAMPLES + 1):
            world = _world(match, seat, here, attempt)
            if world is None:
                break
            if _fits(world, entry["seat"], action):
                match.take_world(world)
                return match.apply(action)
    made = match.tell(entry["seat"], action if action is not None else entry["action"],
                      entry.get("text", ""), frozenset({seat}))
    world = _world(match, seat, after, 0) if after is not None else None
    if world is not None:   # (otherwise the next observation the follower is told puts it right)
        match.take_world(world)
    return made


def _fits(state: State, actor: int, action) -> bool:
    if state.is_terminal() or state.actor(action) != actor:
        return False
    if actor == SIMULTANEOUS and state.spec.real_time:
        # Time passing (advance_action) is listed by no seat: the rules say if it may pass here.
        try:
            state.clone().apply_action(action)
        except IllegalActionError:
            return False
        return True
    legal = [a for a, _ in state.chance_outcomes()] if actor == CHANCE else state.legal_actions(actor)
    return action in legal


def _stand_in(match: Match, entry: dict) -> LogEntry:
    """A move the seat did not see: any move possible here stands in for it (the world
    after it is made to agree with the seat's observation, where the seat was told one)."""
    state = match.state
    actor = state.current_player()
    if actor == CHANCE:
        options = [a for a, _ in state.chance_outcomes()]
    elif actor >= 0:
        options = state.legal_actions(actor)
    else:
        options = []
    for action in options[:1]:
        try:
            return match.apply(action)
        except IllegalActionError:
            break
    return match.tell(entry["seat"], None, entry.get("text", ""), frozenset())
