"""What the three ways to play share (pure Python, no Qt): the deck of 50 state cards,
spins, moves "toward" a target along the game's map, money and the action vocabulary.

Chance is explicit: a card drawn is the chance action "card:XX" and a spin is
"spin:N" (sector N of the spinner). The deck is kept as what is known about it: the
cards never seen (drawn uniformly at random, so their order does not exist) and, below
them, the cards returned to the bottom, in the order they went there (everyone saw them
go), which come up only when the unseen cards are gone.
"""
from __future__ import annotations

from stateside.errors import IllegalActionError
from stateside.games.game_of_the_states import parts


class Deck:
    """The draw pile, the discard pile and nothing else (cards in hands are elsewhere)."""

    def __init__(self, codes=None):
        self.unseen: set[str] = set(parts.state_codes() if codes is None else codes)
        self.bottom: list[str] = []     # returned to the bottom, next to come up first
        self.discard: list[str] = []    # face up, last discarded at the end

    def copy(self) -> Deck:
        d = Deck(())
        d.unseen = set(self.unseen)
        d.bottom = list(self.bottom)
        d.discard = list(self.discard)
        return d

    def __len__(self) -> int:
        return len(self.unseen) + len(self.bottom)

    def outcomes(self) -> list[tuple[str, float]]:
        if self.unseen:
            p = 1 / len(self.unseen)
            return [(f"card:{c}", p) for c in sorted(self.unseen)]
        if self.bottom:
            return [(f"card:{self.bottom[0]}", 1.0)]
        return []

    def take(self, code: str) -> None:
        if self.unseen:
            self.unseen.remove(code)
        else:
            assert self.bottom[0] == code
            self.bottom.pop(0)

    def to_bottom(self, code: str) -> None:
        self.bottom.append(code)

    def public(self) -> dict:
        return {"draw_pile": len(self), "unseen": len(self.unseen), "bottom": list(self.bottom),
                "discard": list(self.discard)}


def spin_outcomes() -> list[tuple[str, float]]:
    secs = parts.sectors()
    return [(f"spin:{s.index}", 1 / len(secs)) for s in secs]


def chance_candidates() -> list[str]:
    return [f"spin:{s.index}" for s in parts.sectors()] + [f"card:{c}" for c in parts.state_codes()]


def parse(action, prefix: str) -> str | None:
    """The argument of "prefix:arg", or None when the action is not of that shape."""
    if isinstance(action, str) and action.startswith(prefix + ":"):
        return action[len(prefix) + 1:]
    return None


def sector_of(action) -> parts.Sector:
    arg = parse(action, "spin")
    # isascii: "²" is a digit to str.isdigit but not to int()
    if arg is None or not (arg.isascii() and arg.isdigit()) or int(arg) >= len(parts.sectors()):
        raise IllegalActionError(f"{action!r} is not a spin of the spinner")
    return parts.sectors()[int(arg)]


def move_ends(here: str, k: int, targets) -> list[str]:
    """Where a truck may end a move of k states "toward" its targets (rulebook, Buy and
    Sell, play 3, 4 and 8): a target within k states (it need not be reached by exact
    count: the truck stops there, even without moving when it stands on one), or a state
    exactly k states away on a shortest route to a target. With no target at all, any
    state exactly k states away (0: staying)."""
    d = parts.distances()
    dh = d[here]
    targets = set(targets)
    if k == 0:
        return [here]
    if not targets:
        return sorted(c for c, x in dh.items() if x == k) or [here]
    ends = {t for t in targets if dh[t] <= k}
    for s, x in dh.items():
        if x == k and any(d[s][t] == dh[t] - k for t in targets if dh[t] > k):
            ends.add(s)
    return sorted(ends)


def names_list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
