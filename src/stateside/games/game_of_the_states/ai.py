"""Computer players for Game of the States (pure Python, no Qt).

A player sees only its seat's observation and the legal actions (protocol.Player).

Buy and Sell. Money only changes hands at the spinner's prices, so what wins is (1) the
accept-or-spin-again decisions and (2) cheap disks. A re-spin is worth its expected price,
$550 on our spinner, so a price is accepted when it beats that: $600 or more (hard and
medium); easy accepts $400 or more. A disk left by a jammed truck costs only $200 and
then sells like any other, so hard and medium go for those first; hard also weighs each
target by how far it is and whether a rival truck is nearer, and on a delivery prefers
the route ending nearest the disks it will want next. Easy heads for the nearest target.

Trivia. A computer player's knowledge is the chance that it knows each kind of fact
(KNOWS below, by level; a player who does not know guesses). Its memory is the state
facts file, as a trivia player remembers facts. Asking, hard picks the fact the next
player is least likely to know (the easy table stands for "anybody"); medium the fact it
finds hardest itself; easy any fact.

Junior. The order of the destinations is the face-down pile's: the only choice is the
route, and every legal move is on a shortest route, so all levels drive the same way
(ending on the destination when it can).
"""
from __future__ import annotations

from typing import Sequence

from stateside.engine.protocol import Player
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.matching import UNKNOWN
from stateside.games.game_of_the_states.trivia import truth

LEVELS = ("easy", "medium", "hard")

# Accept a price at or above this; ask for one more spin below it.
ACCEPT_FROM = {"easy": 400, "medium": 600, "hard": 600}

# Trivia: the chance to know each kind of fact, by level (our design).
KNOWS = {
    "easy":   {"capital": 0.45, "nickname": 0.35, "population": 0.30, "settled": 0.05, "entered": 0.15,
               "rank": 0.10},
    "medium": {"capital": 0.70, "nickname": 0.55, "population": 0.50, "settled": 0.15, "entered": 0.35,
               "rank": 0.25},
    "hard":   {"capital": 0.92, "nickname": 0.85, "population": 0.80, "settled": 0.35, "entered": 0.70,
               "rank": 0.60},
}


def make_player(level: str, seat: int, rng) -> Player:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return GotsPlayer(seat, rng, level)


class GotsPlayer(Player):
    def __init__(self, seat: int, rng, level: str):
        super().__init__(seat, rng)
        self.level = level

    def choose(self, observation: dict, legal: Sequence):
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        variant = observation.get("variant")
        if variant == "trivia":
            return self._trivia(observation, legal)
        if variant == "junior":
            return self._junior(observation, legal)
        return self._buy_sell(observation, legal)

    # --- Buy and Sell ----------------------------------------------------------------------
    def _buy_sell(self, obs: dict, legal: list):
        if "accept" in legal:
            return "accept" if obs["price"] >= ACCEPT_FROM[self.level] else "respin"
        first = legal[0]
        if first.startswith("product:"):
            return first
        if first.startswith(("buy:", "takeover:")):
            return self._deal(obs, legal)
        if first.startswith("move:"):
            return self._move(obs, legal)
        return legal[self.rng.randrange(len(legal))]

    def _deal(self, obs: dict, legal: list):
        if self.level == "easy":
            return legal[0]
        # a take-over costs $200 against a spun price; buying back one's own disk also
        # stops a rival from selling it to us
        def value(a: str) -> float:
            if a.startswith("takeover:"):
                return 2.0
            return 1.0
        return max(legal, key=value)

    def _targets(self, obs: dict) -> dict[str, float]:
        """Each target state and its worth to us (bigger is better)."""
        me = self.seat
        if obs["loads"][me] is not None:
            return {obs["destinations"][me]: 1.0}
        out: dict[str, float] = {}
        for rec in obs["disks"].values():
            if rec["done"] or rec["state"] is None:
                continue
            if rec["jam"] and rec["carrier"] != me:
                worth = 2.5 if self.level != "easy" else 1.0
            elif rec["carrier"] is None and rec["owner"] != me:
                worth = 1.0
            else:
                continue
            out[rec["state"]] = max(out.get(rec["state"], 0.0), worth)
        return out

    def _move(self, obs: dict, legal: list):
        d = parts.distances()
        me = self.seat
        targets = self._targets(obs)
        ends = [a[5:] for a in legal]
        if not targets:
            # nothing to buy: wait near the rivals' loaded trucks (a jam leaves a cheap disk)
            loaded = [obs["trucks"][s] for s in range(len(obs["names"])) if s != me and obs["loads"][s]]
            if not loaded:
                return legal[0]
            return "move:" + min(ends, key=lambda e: (min(d[e][t] for t in loaded), e))
        loaded = obs["loads"][me] is not None
        rivals = [obs["trucks"][s] for s in range(len(obs["names"]))
                  if s != me and obs["trucks"][s] and obs["loads"][s] is None]

        def score(e: str) -> tuple:
            if self.level == "easy":
                return (-min(d[e][t] for t in targets), e)
            best = -1e9
            for t, worth in targets.items():
                dist = d[e][t]
                if self.level == "hard" and not loaded and rivals:
                    nearest_rival = min(d[r][t] for r in rivals)
                    if nearest_rival < dist:
                        worth *= 0.6
                best = max(best, worth * 10 - dist)
            tie = 0.0
            if self.level == "hard" and loaded:
                # on the way to a delivery: end near the disks we will want next
                nxt = [rec["state"] for rec in obs["disks"].values()
                       if rec["state"] and not rec["done"] and rec["owner"] != me]
                if nxt:
                    tie = -min(d[e][t] for t in nxt) / 100
            return (best + tie, e)

        return "move:" + max(ends, key=score)

    # --- Trivia ----------------------------------------------------------------------------
    def _trivia(self, obs: dict, legal: list):
        first = legal[0]
        code = obs["card"]["code"]
        if first.startswith("ask:"):
            facts = [a[4:] for a in legal]
            if self.level == "easy":
                return legal[self.rng.randrange(len(legal))]
            table = KNOWS["easy"] if self.level == "hard" else KNOWS[self.level]

            def chance_known(f: str) -> float:
                p = table[f]
                if f == "population" and parts.states()[code].population_2020 < 2_500_000:
                    p = max(p, 0.6)    # "within one million" makes small states easy
                return p
            return "ask:" + min(facts, key=lambda f: (chance_known(f), f))
        fact = obs["fact"]
        right = truth(code, fact)
        options = [a[4:] for a in legal]
        if self.rng.random() < KNOWS[self.level][fact]:
            if right in options:
                return f"say:{right}"
        return "say:" + self._guess(obs, fact, right, options)

    def _guess(self, obs: dict, fact: str, right: str, options: list[str]) -> str:
        """A wrong-headed guess: what a player who does not know might say."""
        tried = {v for _, v in obs["tried"]}
        pool = [o for o in options if o != UNKNOWN and o not in tried]
        if obs["answers_mode"] == "choices" or fact in ("capital", "nickname"):
            others = [o for o in pool if o != right] or pool
            return others[self.rng.randrange(len(others))]
        if fact == "population":
            guess = max(0.0, float(right) + self.rng.choice((-1, 1)) * self.rng.uniform(0.5, 6.0))
            text = f"{guess:.1f}"
        else:
            spread = 12 if fact == "rank" else 40
            text = str(int(right) + self.rng.choice((-1, 1)) * self.rng.randint(1, spread))
        return text if text in options else (pool[self.rng.randrange(len(pool))] if pool else UNKNOWN)

    # --- Junior ----------------------------------------------------------------------------
    def _junior(self, obs: dict, legal: list):
        dest = obs["destinations"][self.seat]
        if f"move:{dest}" in legal:
            return f"move:{dest}"
        return legal[0]
