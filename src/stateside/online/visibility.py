"""What each seat may be told about an action, worked out from the games' own
observations, so that no game needs anything new.

The rule: seat v may see action `a` (its JSON, its text, its events) unless some other
action `b` that could have been taken at the same point leaves v's observation exactly as
`a` does; then v cannot tell them apart at the table, and online it is told only that
"a card was drawn" or "<name> made a hidden move". The acting seat always sees its own
action. The alternatives tried are the chance outcomes (for a draw) or the actor's legal
actions, nearest first (by their JSON), at most MAX_ALTERNATIVES of them: hidden draws
and secret answers are found at the first alternative; a public action costs up to
MAX_ALTERNATIVES trial applications.
"""
from __future__ import annotations

import json

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
    if not alternatives:
        return set()
    after = before.clone()
    after.apply_action(action)
    watchers = [v for v in range(n) if v != actor]
    target = {v: _obs_key(after, v) for v in watchers}
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


def entry_view(entry: dict, names: list[str], visible: bool) -> dict:
    """One log entry as a seat (or the public) receives it."""
    if visible:
        return entry
    seat = entry["seat"]
    text = "A card was drawn." if seat == CHANCE else f"{names[seat]} made a hidden move."
    return {"n": entry["n"], "seat": seat, "text": text, "hidden": True}
