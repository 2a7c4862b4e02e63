"""Version-1 saves of Scrambled States (before the engine protocol), converted to a match.

Such a save held the seed, the settings with each seat's kind, the accepted actions and
the clock: {"engine": {"version": 1, "seed", "settings": {"seats": [{"name", "kind"}],
...}, "actions": [["slap", 0, 5200, "TX"], ...], "now"}}. The old engine shuffled the
deck with random.Random(seed) and rolled the die with the same generator, so the cards
and faces it drew are known: the conversion replays the actions on today's rules and
answers each chance node with what the old game drew, then lets time run to the saved
clock.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from stateside.errors import IllegalActionError, SaveError
from stateside.games.scrambled_states.rules import (
    FACE_UP,
    FACES,
    SEAT_KINDS,
    Advance,
    Roll,
    ScrambledStates,
    Settings,
    Turn,
)

OPTIONS = ("target", "tie_window_ms", "round_pause_ms", "round_limit_ms", "buzz_window_ms")


def old_draws(seed: int, codes: tuple[str, ...]) -> tuple[Iterator[str], Iterator[str]]:
    """The old engine's cards in the order it turned them up (the 15 spaces in order,
    then from the top of the draw pile, the end of the shuffled list) and its die rolls."""
    rng = random.Random(seed)
    deck = list(codes)
    rng.shuffle(deck)
    cards = iter(deck[:FACE_UP] + deck[:FACE_UP - 1:-1])
    faces = iter(lambda: rng.choice(FACES), None)
    return cards, faces


def legacy_save(state: Any) -> dict:
    """The "state" of a version-1 save (the mode's {"engine": ...}) as a match dict."""
    engine = state.get("engine") if isinstance(state, dict) else None
    if not isinstance(engine, dict):
        raise SaveError("Scrambled States save: no game in it")
    if engine.get("version") != 1:
        raise SaveError(f"Scrambled States save: version {engine.get('version')!r} is not supported")
    settings, seed, actions = (engine.get(k) for k in ("settings", "seed", "actions"))
    now = engine.get("now", 0)
    if not isinstance(settings, dict) or not isinstance(settings.get("seats"), list) or type(seed) is not int \
            or not isinstance(actions, list) or type(now) is not int:
        raise SaveError("Scrambled States save: malformed (settings, seed, actions or clock missing)")
    seats = settings["seats"]
    if not all(isinstance(s, dict) and isinstance(s.get("name"), str) for s in seats):
        raise SaveError("Scrambled States save: every seat needs a name")
    setup = {"players": [s["name"] for s in seats], **{k: settings[k] for k in OPTIONS if k in settings},
             "buzzer_seats": settings.get("buzzer_seats", [])}
    game = ScrambledStates(Settings.from_setup(setup))
    cards, faces = old_draws(seed, game.cards.codes)
    log: list = []

    def apply(action) -> None:
        game.apply_action(action)
        log.append(game.action_to_json(action))

    def run_to(t: int) -> None:
        """Time passes to t as the old engine let it, the old draws answering chance."""
        while not game.is_terminal():
            if game.to_draw:
                apply(Roll(next(faces)) if game.to_draw[0] == "face" else Turn(next(cards)))
            elif game.now() < t:
                apply(Advance(min(t, game.next_deadline())))
            else:
                return

    try:
        for n, raw in enumerate(actions, 1):
            if not isinstance(raw, list) or len(raw) not in (3, 4) or raw[0] not in SEAT_KINDS:
                raise SaveError(f"Scrambled States save: action {n} is not a move ({str(raw)[:60]})")
            action = game.action_from_json(raw)
            run_to(action.t)
            apply(action)
        run_to(now)
    except (IllegalActionError, ValueError) as e:
        raise SaveError(f"Scrambled States save: the moves do not replay ({e})") from None
    return {"game": "scrambled-states", "rules_version": ScrambledStates.spec.save_version, "setup": setup,
            "seed": seed, "seats": [s.get("kind", "human") for s in seats], "actions": log}
