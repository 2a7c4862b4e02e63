"""Saves from before the engine protocol (version 1) converted to a match.

A version-1 save's "state" was {"game": {"version": 1, "players", "seed", "start_player",
"used_before", "topic_order", "actions"}, "seats", "revealing"}. Its topic_order is the
whole shuffled box, so no old random generator needs re-running: the game is replayed on
the rules it began with (setup "v1_rules": topics drawn one at a time, the tie counted
after the markers came back), and whenever the box shows a topic the next one of the old
order is drawn and written down as a chance action.
"""
from __future__ import annotations

from stateside.engine.protocol import CHANCE
from stateside.errors import IllegalActionError, SaveError
from stateside.games.america.rules import SPEC, AmericaGame, bundled_topics

OLD_VERSION = 1
SEATS = ("human", "ai:easy", "ai:medium", "ai:hard")


def legacy_save(state: dict) -> dict:
    """The match dict {"game", "rules_version", "setup", "seed", "seats", "actions"} of a
    version-1 save's "state"; SaveError saying what is wrong otherwise."""
    if not isinstance(state, dict) or not isinstance(state.get("game"), dict):
        raise SaveError("America save: expected a mapping with the game in it")
    seats = state.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) and s in SEATS for s in seats):
        raise SaveError(f"America save: 'seats' must list {', '.join(SEATS)} for each player")
    old = state["game"]
    if old.get("version") != OLD_VERSION:
        raise SaveError(f"America save: version {old.get('version')!r} is not supported (expected {OLD_VERSION})")
    players, order, used, actions = (old.get(k) for k in ("players", "topic_order", "used_before", "actions"))
    seed, start = old.get("seed", 0), old.get("start_player", 0)
    if not all(isinstance(v, list) for v in (players, order, actions)) or not isinstance(used, (list, type(None))):
        raise SaveError("America save: 'players', 'topic_order' and 'actions' must be lists")
    if type(seed) is not int or type(start) is not int:
        raise SaveError("America save: 'seed' and 'start_player' must be whole numbers")
    topics = bundled_topics()
    unknown = [t for t in order if t not in topics]
    if unknown:
        raise SaveError(f"America save: topic {unknown[0]!r} is not in this deck")
    # Topics the old box did not hold (cards added since) count as used, so that the old
    # box's unused topics are drawn first, in the old order, exactly as they were.
    used_topics = sorted(set(used or []) & set(topics) | (set(topics) - set(order)))
    setup = {"players": players, "start_player": start, "used_topics": used_topics, "v1_rules": True}
    if len(seats) != len(players):
        raise SaveError(f"America save: {len(seats)} seats for {len(players)} players")
    try:
        game = AmericaGame(setup)
    except ValueError as e:
        raise SaveError(f"America save: {e}") from None
    log: list[str] = []
    box = iter(order)

    def draw() -> None:
        while game.current_player() == CHANCE:
            topic = next(box, None)
            if topic is None:
                raise SaveError("America save: the saved topic order ran out")
            game.apply_action(f"draw:{topic}")
            log.append(f"draw:{topic}")

    draw()
    for n, action in enumerate(actions, 1):
        try:
            game.apply_action(action)
        except IllegalActionError as e:
            raise SaveError(f"America save: action {n} ({action!r}) cannot be replayed: {e}") from None
        log.append(action)
        draw()
    return {"game": SPEC.id, "rules_version": SPEC.save_version, "setup": setup, "seed": seed,
            "seats": list(seats), "actions": log}
