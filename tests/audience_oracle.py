"""A test oracle for the audiences the rules declare (State.audience): who may see an
action, worked out from the games' own observations by search. The product never uses
it (the referee, the move logs and undo read the declared audience); the conformance
test holds every game's declaration against it.

The rule: seat v may see action `a` (its JSON, its text, its events) unless some other
action `b` that could have been taken at the same point leaves v's observation exactly as
`a` does; then v cannot tell them apart at the table, and online it is told only that
"a card was drawn" or "<name> made a hidden move". The acting seat always sees its own
action. The alternatives tried are the chance outcomes (for a draw) or the actor's legal
actions, nearest first (by their JSON), at most MAX_ALTERNATIVES of them: hidden draws
and secret answers are found at the first alternative; a public action costs up to
MAX_ALTERNATIVES trial applications. A forced action (no alternative) may still carry
what v may not know, in its text or as the deck's last card: see _forced_hidden.
"""
from __future__ import annotations

import json
import random

from stateside.engine.protocol import CHANCE, State

MAX_ALTERNATIVES = 24


def _obs_key(state: State, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, separators=(",", ":"))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def hidden_from(before: State, action, actor: int) -> set[int]:
    """The seats that may not see `action` (about to be applied to `before`)."""
    n = before.num_players
    if not before.spec.hidden_information:
        return set()
    if actor == CHANCE:
        alternatives = [a for a, _ in before.chance_outcomes()]
    else:
        alternatives = list(before.legal_actions(actor))
    alternatives = [b for b in alternatives if b != action]
    after = before.clone()
    after.apply_action(action)
    watchers = [v for v in range(n) if v != actor]
    target = {v: _obs_key(after, v) for v in watchers}
    if not alternatives:   # forced: only what v cannot know about the position may give it away
        return _forced_hidden(before, action, actor, watchers, target)
    key = json.dumps(before.action_to_json(action), sort_keys=True)
    alternatives.sort(key=lambda b: -_common_prefix(key, json.dumps(before.action_to_json(b), sort_keys=True)))
    hidden: set[int] = set()
    for b in alternatives[:MAX_ALTERNATIVES]:
        other = before.clone()
        other.apply_action(b)
        for v in watchers:
            if v not in hidden and _obs_key(other, v) == target[v]:
                hidden.add(v)
        if len(hidden) == len(watchers):
            break
    return hidden


DETERMINIZATIONS = 2


def _forced_hidden(before: State, action, actor: int, watchers: list[int], target: dict) -> set[int]:
    """Seats that may not see a forced action (no other choice was open). The action
    itself says nothing, but what it carries may: the last card of the deck, or the dealt
    card named in "Ann put Virginia on day 10". So v may not see it if, in a position v
    cannot tell from this one (the game's with_hidden_changed), the same observation
    follows from another chance outcome, or from this move described differently."""
    hidden: set[int] = set()
    # A game that words its actions for each viewer (overrides State.describe) is judged by
    # what v reads: 10 Days' last card of the deal can only go on the one empty day, and
    # everyone sees that day fill (it is visible, as every other day of the deal is); its
    # full words name the card ("Ann put Virginia on day 7"), v's do not ("Ann put a card
    # on day 7"). check_audience holds those words to what v may know.
    per_viewer = type(before).describe is not State.describe
    for v in watchers:
        text = before.describe(action, v) if per_viewer else _describe(before, action)
        for i in range(DETERMINIZATIONS):
            other = before.with_hidden_changed(v, random.Random(i))   # fixed seeds: the same verdict everywhere
            if other is None:
                return hidden   # the game hides nothing this way
            if actor == CHANCE:
                tries = [b for b, _ in other.chance_outcomes() if b != action][:MAX_ALTERNATIVES]
            elif action in other.legal_actions(actor) and \
                    (other.describe(action, v) if per_viewer else _describe(other, action)) != text:
                tries = [action]
            else:
                tries = []
            if any(_obs_key(_applied(other, b), v) == target[v] for b in tries):
                hidden.add(v)
                break
    return hidden


def _describe(state: State, action) -> str | None:
    try:
        return state.action_to_string(action)
    except Exception:   # a move some game cannot put into words here
        return None


def _applied(state: State, action) -> State:
    other = state.clone()
    other.apply_action(action)
    return other
