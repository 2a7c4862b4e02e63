"""Computer players for 10 Days in the USA, and the "cards still to change" measure.

The measure: the fewest days a player must replace to hold a valid journey, with every
card that stays where it is (cards are never rearranged). A dynamic programme over the
ten slots finds it: F[i][s] is the fewest changes among days 1..i+1 for a valid start
that has state s on slot i; B[i][s] the same for the rest of the journey after slot i.
A transport card links slot i-2 to slot i, so the programme steps one slot on foot or
two slots through a transport. F and B together give, in one pass, the distance after
any single replacement (any card on any slot), which is what the players need.

The programme lets a state appear twice in a planned journey (there is one card per
state); that makes it a lower bound. `changes_needed` searches for the exact figure.

Players (all see only their seat's observation and legal actions: their own journey,
the card they hold, the discard piles, the size of the deck; the match's "random" seat
plays any legal action):
    easy     fixes the journey's visible problems greedily, one day at a time
    medium   minimises the number of cards still to change
    hard     as medium, then prefers the journey with the best chance that the next
             card helps; takes a useful discard, buries the least useful one
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from stateside.engine.protocol import Player
from stateside.games.ten_days.cards import CAR, TRANSPORT_FACES, face_of, is_state, is_transport, load_cards
from stateside.games.ten_days.journey import DAYS, check_journey, travel_rules
from stateside.games.ten_days.rules import DEAL, DISCARD, DRAW, PLACE

INF = 99
DTYPE = np.int16  # distances are small; narrow integers keep the arrays fast
LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Tables:
    codes: tuple[str, ...]         # the 50 states, index order
    index: dict[str, int]
    transport_index: dict[str, int]
    walk: np.ndarray               # [a, b] 0 when a borders b, else INF
    link: np.ndarray               # [t, a, b] 0 when transport t links a to b, else INF
    replace_through: np.ndarray    # [a, b] 1 when some transport links a to b (one change), else INF
    keep_through: np.ndarray       # [t, a, b] the cheaper of keeping transport t there or replacing it


@cache
def tables() -> Tables:
    rules = travel_rules()
    codes = tuple(rules.cards.state_colour)
    n = len(codes)
    walk = np.full((n, n), INF, dtype=DTYPE)
    link = np.full((len(TRANSPORT_FACES), n, n), INF, dtype=DTYPE)
    for i, a in enumerate(codes):
        for j, b in enumerate(codes):
            if i == j:
                continue
            if rules.allowed(a, None, b):
                walk[i, j] = 0
            for t, face in enumerate(TRANSPORT_FACES):
                if rules.allowed(a, face, b):
                    link[t, i, j] = 0
    replace = np.minimum(link.min(axis=0) + 1, INF).astype(DTYPE)
    return Tables(codes, {c: i for i, c in enumerate(codes)}, {f: t for t, f in enumerate(TRANSPORT_FACES)},
                  walk, link, replace, np.minimum(link, replace[None]))


@dataclass
class Analysis:
    distance: int                  # fewest replacements to a valid journey (lower bound)
    state_after: np.ndarray        # [slot, state] distance once that state card is on that slot
    transport_after: np.ndarray    # [slot, transport] the same for a transport card
    forward: np.ndarray
    backward: np.ndarray
    cost: np.ndarray

    def after(self, face: str, tab: Tables) -> np.ndarray:
        """Distance after putting `face` on each of the ten slots."""
        if is_state(face):
            return self.state_after[:, tab.index[face]]
        return self.transport_after[:, tab.transport_index[face]]

    def best_after(self, face: str, tab: Tables) -> int:
        return int(self.after(face, tab).min())


def _from_prev(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """min over a of v[a] + m[a, b], for every b."""
    return (v[:, None] + m).min(axis=0)


def _to_next(m: np.ndarray, w: np.ndarray) -> np.ndarray:
    """min over b of m[a, b] + w[b], for every a."""
    return (m + w[None, :]).min(axis=1)


def analyse(faces: Sequence[str | None], tab: Tables | None = None) -> Analysis:
    """The distance of a journey (faces; None for an empty slot) and of every single change."""
    tab = tab or tables()
    n = len(tab.codes)
    cost = np.ones((DAYS, n), dtype=DTYPE)
    through = [tab.replace_through] * DAYS  # cost of using slot i as the transport between i-1 and i+1
    for i, face in enumerate(faces):
        if is_state(face):
            cost[i, tab.index[face]] = 0
        elif is_transport(face):
            through[i] = tab.keep_through[tab.transport_index[face]]

    fwd = np.empty((DAYS, n), dtype=DTYPE)
    fwd[0] = cost[0]
    fwd[1] = cost[1] + _from_prev(fwd[0], tab.walk)
    for i in range(2, DAYS):
        fwd[i] = np.minimum(cost[i] + np.minimum(_from_prev(fwd[i - 1], tab.walk),
                                                 _from_prev(fwd[i - 2], through[i - 1])), INF)
    bwd = np.empty((DAYS, n), dtype=DTYPE)
    bwd[DAYS - 1] = 0
    bwd[DAYS - 2] = _to_next(tab.walk, cost[DAYS - 1])
    for i in range(DAYS - 3, -1, -1):
        bwd[i] = np.minimum(np.minimum(_to_next(tab.walk, cost[i + 1] + bwd[i + 1]),
                                       _to_next(through[i + 1], cost[i + 2] + bwd[i + 2])), INF)

    # journeys that use the new card where it lies (slot i free of charge) ...
    state_after = np.minimum(fwd - cost + bwd, INF)
    transport_after = np.full((DAYS, len(TRANSPORT_FACES)), INF, dtype=DTYPE)
    reach = (fwd[:DAYS - 2, None, :, None] + tab.link[None]).min(axis=2)  # [slot-1, t, state on slot+1]
    rest = cost[2:] + bwd[2:]                                             # [slot+1, state]
    transport_after[1:DAYS - 1] = np.minimum((reach + rest[:, None, :]).min(axis=2), INF)
    # ... or that replace it again (slot i charged one change whatever they put there)
    replaced = np.minimum(state_after.min(axis=1), transport_after.min(axis=1)) + 1
    np.minimum(state_after, replaced[:, None], out=state_after)
    np.minimum(transport_after, replaced[:, None], out=transport_after)
    return Analysis(int(fwd[DAYS - 1].min()), state_after, transport_after, fwd, bwd, cost)


def changes_needed(faces: Sequence[str | None], budget: int = 50_000) -> int:
    """The exact fewest replacements that make the journey valid, respecting that each
    state card exists once, airplanes twice per colour and automobiles six times.
    Falls back to the lower bound if the search exceeds `budget` steps."""
    tab = tables()
    cards = load_cards()
    a = analyse(faces, tab)
    codes = tab.codes
    cost, bwd = a.cost, a.backward
    neighbours = [np.flatnonzero(tab.walk[s] == 0).tolist() for s in range(len(codes))]
    current_type = [tab.transport_index[f] if is_transport(f) else -1 for f in faces]
    limits = [cards.automobiles if f == CAR else cards.airplanes_per_colour for f in TRANSPORT_FACES]
    steps = 0

    class OutOfBudget(Exception):
        pass

    def search(slot: int, s: int, spent: int, bound: int, used: set, transports: Counter) -> bool:
        nonlocal steps
        steps += 1
        if steps > budget:
            raise OutOfBudget
        if slot == DAYS - 1:
            return True
        # on foot to slot+1
        options = []
        for t in neighbours[s]:
            c = spent + cost[slot + 1, t]
            if t not in used and c + bwd[slot + 1, t] <= bound:
                options.append((c + bwd[slot + 1, t], slot + 1, t, c, None))
        # through a transport on slot+1 to slot+2
        if slot + 2 <= DAYS - 1:
            for t_type in range(len(TRANSPORT_FACES)):
                if transports[t_type] >= limits[t_type]:
                    continue
                change = 0 if current_type[slot + 1] == t_type else 1
                for t in np.flatnonzero(tab.link[t_type, s] == 0).tolist():
                    c = spent + change + cost[slot + 2, t]
                    if t not in used and c + bwd[slot + 2, t] <= bound:
                        options.append((c + bwd[slot + 2, t], slot + 2, t, c, t_type))
        options.sort(key=lambda o: o[0])
        for _, nslot, t, c, t_type in options:
            used.add(t)
            if t_type is not None:
                transports[t_type] += 1
            found = search(nslot, t, c, bound, used, transports)
            used.discard(t)
            if t_type is not None:
                transports[t_type] -= 1
            if found:
                return True
        return False

    starts = sorted(range(len(codes)), key=lambda s: cost[0, s] + bwd[0, s])
    try:
        for bound in range(a.distance, DAYS + 1):
            for s in starts:
                if cost[0, s] + bwd[0, s] <= bound and search(0, s, int(cost[0, s]), bound, {s}, Counter()):
                    return bound
    except OutOfBudget:
        pass
    return a.distance


# --- players ----------------------------------------------------------------------

def _index_of(action: str) -> int:
    return int(action.split(":")[1]) - 1


def _pile_tops(obs: dict) -> list[str | None]:
    return [pile[-1] if pile else None for pile in obs["piles"]]


class EasyPlayer(Player):
    """Greedy on what the checker reports: fewer problems is better, one move ahead."""

    @staticmethod
    def problems(faces: list) -> int:
        return len(check_journey(faces).problems)

    def _best_place(self, faces: list, card: str, slots: Sequence[int], allow_keep: bool) -> tuple[int, int | None]:
        """(problems, slot) of the best placement; slot None = keep."""
        options = [(self.problems(faces), None)] if allow_keep else []
        for i in slots:
            trial = list(faces)
            trial[i] = card
            options.append((self.problems(trial), i))
        low = min(p for p, _ in options)
        return low, self.rng.choice([i for p, i in options if p == low])

    def choose(self, obs: dict, legal: Sequence[str]) -> str:
        faces = obs["journey"]
        phase = obs["phase"]
        if phase == DEAL:
            empty = [i for i, f in enumerate(faces) if f is None]
            _, slot = self._best_place(faces, obs["held"], empty, allow_keep=False)
            return f"day:{slot + 1}"
        if phase == DRAW:
            now = self.problems(faces)
            for k, top in enumerate(_pile_tops(obs)):
                if top is not None and self._best_place(faces, top, range(DAYS), True)[0] < now:
                    return f"take:{k + 1}"
            return "draw" if obs["deck"] else self.rng.choice(legal)
        if phase == PLACE:
            _, slot = self._best_place(faces, obs["held"], range(DAYS), allow_keep=True)
            return "keep" if slot is None else f"day:{slot + 1}"
        return self.rng.choice(legal)


class DistancePlayer(Player):
    """medium: takes and places cards to reduce the number of cards still to change.
    hard (careful=True): among equally short journeys, prefers the one that the most
    unseen cards would shorten; when discarding, buries the pile top it needs least."""

    def __init__(self, seat: int, rng, careful: bool):
        super().__init__(seat, rng)
        self.careful = careful
        self.every = Counter(face_of(c) for c in load_cards().card_ids())

    @property
    def tab(self) -> Tables:
        """The distance tables (built once a process, about 60 ms): at the seat's first
        move, not when it is made, which is while the game's window opens."""
        return tables()

    def _unseen(self, obs: dict) -> Counter:
        """Faces of the cards this seat cannot see (deck, other journeys, buried discards)."""
        seen = Counter(c for c in obs["journey"] if c is not None)
        seen.update(c for c in _pile_tops(obs) if c is not None)
        if obs["held"] is not None:
            seen[obs["held"]] += 1
        return self.every - seen

    def _prospect(self, faces: list, unseen: Counter) -> float:
        """Expected distance after one more unseen card, placed at its best."""
        a = analyse(faces, self.tab)
        d = a.distance
        best_state = a.state_after.min(axis=0)
        best_transport = a.transport_after.min(axis=0)
        total = count = 0
        for face, n in unseen.items():
            after = (best_state[self.tab.index[face]] if is_state(face)
                     else best_transport[self.tab.transport_index[face]])
            total += n * min(d, int(after))
            count += n
        return total / count if count else float(d)

    def _pick(self, faces: list, card: str, slots: Sequence[int], keep: bool, a, unseen) -> int | None:
        """The slot for `card` (None = keep the journey as it is)."""
        after = a.after(card, self.tab)
        low = min(int(after[i]) for i in slots)
        if keep and a.distance < low:
            return None  # every placement makes the journey worse (a finished journey, say)
        choices = [i for i in slots if after[i] == low]
        if keep and a.distance == low:
            # keeping is as good; the medium player still drifts at random among equals,
            # which frees it when the cards it waits for are locked in other journeys
            choices = [None] + choices
        if len(choices) == 1:
            return choices[0]
        if not self.careful:
            return self.rng.choice(choices)
        scored = []
        for slot in choices:
            trial = list(faces)
            if slot is not None:
                trial[slot] = card
            scored.append((self._prospect(trial, unseen), slot is not None, slot if slot is not None else -1, slot))
        best = min(scored)
        if best[0] >= a.distance:
            # no unseen card would help any of these journeys (what it needs is held by
            # others): move at random among them rather than wait for ever
            return self.rng.choice(scored)[3]
        return best[3]

    def choose(self, obs: dict, legal: Sequence[str]) -> str:
        faces = obs["journey"]
        phase = obs["phase"]
        a = analyse(faces, self.tab)
        unseen = self._unseen(obs) if self.careful else None
        if phase == DEAL:
            empty = [i for i, f in enumerate(faces) if f is None]
            return f"day:{self._pick(faces, obs['held'], empty, False, a, unseen) + 1}"
        if phase == PLACE:
            slot = self._pick(faces, obs["held"], range(DAYS), True, a, unseen)
            return "keep" if slot is None else f"day:{slot + 1}"
        if phase == DRAW:
            offers = []
            for k, top in enumerate(_pile_tops(obs)):
                if top is not None:
                    gain = a.distance - a.best_after(top, self.tab)
                    if gain > 0:
                        offers.append((-gain, k))
            if offers:
                return f"take:{min(offers)[1] + 1}"
            return "draw" if obs["deck"] else self.rng.choice(legal)
        if phase == DISCARD:
            if len(legal) == 1 or not self.careful:
                return self.rng.choice(legal)
            tops = _pile_tops(obs)
            # bury the top card we would gain least from; keep helpful ones in reach
            usefulness = [(a.distance - a.best_after(tops[_index_of(act)], self.tab), act) for act in legal]
            return min(usefulness)[1]
        raise ValueError(f"no decision to take in phase {phase!r}")


def make_player(level: str, seat: int, rng) -> Player:
    """The computer player of a level (easy, medium or hard) for a seat."""
    if level == "easy":
        return EasyPlayer(seat, rng)
    if level in ("medium", "hard"):
        return DistancePlayer(seat, rng, careful=(level == "hard"))
    raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
