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

from stateside.engine.protocol import SPECTATOR, State, sees


class EntryViews:
    """What the rules declare about an action, read just before it is applied (audience,
    words for each viewer), then each viewer's view of the entry once its events are known."""

    def __init__(self, before: State, action, n: int, text: str | None = None):
        self.n, self.actor = n, before.actor(action)
        self.audience = before.audience(action)
        self.json = before.action_to_json(action)
        self.text = text or before.action_to_string(action)
        # `text` replaces the words for every viewer (a round voided by a change of referee)
        self.words = [text or before.describe(action, v) for v in range(before.num_players)]
        self.public_words = text or before.describe(action, SPECTATOR)

    def build(self, events: list) -> tuple[dict, list[dict], dict]:
        """The full entry, each seat's view, the public view."""
        full = {"n": self.n, "seat": self.actor, "text": self.text, "action": self.json,
                "events": [getattr(ev, "text", str(ev)) for ev in events]}

        def view(viewer: int, words: str) -> dict:
            # Each event by its own audience: a hidden action's public consequences (the
            # scoring at the end of a turn that a secret look ended) still reach everyone.
            shown = [getattr(ev, "text", str(ev)) for ev in events
                     if viewer == self.actor or sees(getattr(ev, "audience", None), viewer)]
            if viewer != self.actor and not sees(self.audience, viewer):
                hidden = {"n": self.n, "seat": self.actor, "text": words, "hidden": True}
                return {**hidden, "events": shown} if shown else hidden
            return {**full, "text": words, "events": shown}

        return full, [view(v, w) for v, w in enumerate(self.words)], view(SPECTATOR, self.public_words)
