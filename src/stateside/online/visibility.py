"""A log entry as one seat (or the public) may read it, from what the rules declared
when the action was taken (State.audience, State.describe, Event.audience): nothing is
worked out here, so the referee's messages, a seat's sync and the public log all say
exactly what the rules allow.

A seat outside an action's audience gets its number, who acted and the words the rules
give that seat ("A card was drawn.", "Ann drew a card from the deck."), without the
action's JSON or its events; a seat inside it gets the action, the words for that seat
and the events whose own audience includes it.
"""
from __future__ import annotations

from stateside.engine.protocol import SPECTATOR, sees


def entry_views(entry, action_json, num_players: int, text: str | None = None) -> tuple[dict, list[dict], dict]:
    """The full entry, each seat's view and the public view of a logged action (an
    engine.match.LogEntry), from what the rules declared when it was taken: its
    audience, its words for each viewer, each event's own audience. `text` replaces the
    words for every viewer (a round voided by a change of referee says so)."""
    actor = entry.seat
    full = {"n": entry.index, "seat": actor, "text": text or entry.text, "action": action_json,
            "events": [getattr(ev, "text", str(ev)) for ev in entry.events]}

    def view(viewer: int) -> dict:
        words = text or entry.words_for(viewer)
        # Each event by its own audience: a hidden action's public consequences (the
        # scoring at the end of a turn that a secret look ended) still reach everyone.
        shown = [getattr(ev, "text", str(ev)) for ev in entry.events
                 if viewer == actor or sees(getattr(ev, "audience", None), viewer)]
        if viewer != actor and not sees(entry.audience, viewer):
            hidden = {"n": entry.index, "seat": actor, "text": words, "hidden": True}
            return {**hidden, "events": shown} if shown else hidden
        return {**full, "text": words, "events": shown}

    return full, [view(v) for v in range(num_players)], view(SPECTATOR)
