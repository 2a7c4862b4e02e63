"""Computer players for Game of the States (pure Python, no Qt).

A player sees only its seat's observation and the legal actions (protocol.Player).

Buy and Sell. Money only changes hands at the spinner's prices (and $200 for a take-over),
so what wins is (1) the accept-or-spin-again decisions and (2) disks taken over from
jammed trucks. A re-spin is worth its expected price, $550 on our spinner, so medium
accepts $600 or more, the most money a price can be expected to bring; easy accepts $400
or more. Medium heads first for disks left by jammed trucks (a take-over costs $200 and
spares a spun price), otherwise for the nearest disk; easy for the nearest. Hard plans
(buy_sell_plan.py): the last prices by its chance to win, the disk to buy by the whole
drive it leads to, and each move one turn ahead over the spinner's outcomes for jams.
In a two-player game that plan wins about as often as medium (benchmarks/SELFPLAY.md:
the 16 spun prices make nearly all of the spread between the players' money).

Trivia. A computer player's knowledge is the chance that it knows each kind of fact
(KNOWS below, by level). Its memory is the state facts file, as a trivia player
remembers facts. A player who does not know guesses as a person does: one of four
plausible answers (the right one among them, so a guess is right about one time in four),
or a number near the truth (a population off by about a third, a year by a few decades).
Asking, players mix their questions as people do: easy picks any fact; medium and hard
aim at a difficulty that rises with the answerer's share of right answers so far (harder
questions for a stronger answerer), hard also weighing the answerer's record at each
fact; nobody asks the same kind of question twice running if another will do, and no
fact takes much more than 30% of one player's questions.

Junior. The order of the destinations is the face-down pile's: the only choice is the
route, and every legal move is on a shortest route, so all levels drive the same way
(ending on the destination when it can).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from stateside.engine.protocol import Player
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.buy_sell_plan import Planner
from stateside.games.game_of_the_states.matching import UNKNOWN
from stateside.games.game_of_the_states.trivia import choices, is_right, right_years, truth

LEVELS = ("easy", "medium", "hard")

# Accept a price at or above this; ask for one more spin below it.
ACCEPT_FROM = {"easy": 400, "medium": 600}   # hard: buy_sell_plan.Planner.accept

# Trivia: the chance to know each kind of fact, by level (our design).
KNOWS = {
    "easy":   {"capital": 0.45, "nickname": 0.35, "population": 0.30, "settled": 0.05, "entered": 0.15,
               "rank": 0.10},
    "medium": {"capital": 0.70, "nickname": 0.55, "population": 0.50, "settled": 0.15, "entered": 0.35,
               "rank": 0.25},
    "hard":   {"capital": 0.92, "nickname": 0.85, "population": 0.80, "settled": 0.35, "entered": 0.70,
               "rank": 0.60},
}


# Trivia asking: the difficulty aimed at is ASK_TARGET[0] + ASK_TARGET[1] x the answerer's
# estimated strength (0-1), with a spread by level; a fact asked last time weighs less.
ASK_TARGET = (0.35, 0.5)
ASK_SPREAD = {"medium": 0.25, "hard": 0.2}
REPEAT_LAST, REPEAT_RECENT = 0.3, 0.7
MAX_SHARE = 0.30          # of one asker's questions, beyond which a fact weighs much less
# A person's chance to know each fact: the middle level's table (below).
PERSON = "medium"


def answerer_record(obs: dict, seat: int, fact: str | None = None) -> tuple[int, int]:
    """(right answers, answers) the seat has given this game, to one fact or to all."""
    right = total = 0
    for h in obs["history"]:
        if fact is not None and h["fact"] != fact:
            continue
        for s, v in h["answers"]:
            if s == seat:
                total += 1
                right += is_right(h["card"], h["fact"], v)
    return right, total


def answerer_strength(obs: dict, seat: int) -> float:
    """The share of right answers the seat has given this game, starting from an even
    guess (two right of four) so that a few answers do not swing it."""
    right, total = answerer_record(obs, seat)
    return (right + 2) / (total + 4)


def chance_right(code: str, fact: str, record: tuple[int, int] | None = None) -> float:
    """The chance that a person answers the fact of this card right (knowing or lucky),
    corrected by the answerer's record at that fact when one is given."""
    p = KNOWS[PERSON][fact]
    if fact == "population" and parts.states()[code].population_2020 < 2_500_000:
        p = max(p, 0.6)        # "within one million" makes a small state easy
    if fact == "settled" and len(right_years(code)) > 1:
        p = min(1.0, p * 1.5)  # several documented years are right
    if record is not None and record[1]:
        right, total = record
        p = (p * 4 + right) / (4 + total)
    return p


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
        if self.level == "hard" and legal[0].startswith(("move:", "accept")):
            plan = Planner(obs, self.seat)
            if "accept" in legal:
                return "accept" if plan.accept() else "respin"
            return plan.move(legal)
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
                if obs["money"][me] < 200:
                    continue       # a take-over needs the $200 (the rules)
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

        def score(e: str) -> tuple:
            if self.level == "easy":
                return (-min(d[e][t] for t in targets), e)
            return (max(worth * 10 - d[e][t] for t, worth in targets.items()), e)

        return "move:" + max(ends, key=score)

    # --- Trivia ----------------------------------------------------------------------------
    def _trivia(self, obs: dict, legal: list):
        first = legal[0]
        code = obs["card"]["code"]
        if first.startswith("ask:"):
            return "ask:" + self._ask(obs, code, [a[4:] for a in legal])
        fact = obs["fact"]
        right = truth(code, fact)
        options = [a[4:] for a in legal]
        if self.rng.random() < KNOWS[self.level][fact]:
            if right in options:
                return f"say:{right}"
        return "say:" + self._guess(obs, code, fact, right, options)

    def _ask(self, obs: dict, code: str, facts: list[str]) -> str:
        """A question as a person picks one: a mix over the facts, harder ones for a
        stronger answerer, and not the same kind of question card after card."""
        answerer = (obs["asker"] + 1) % len(obs["names"])
        mine = [h["fact"] for h in obs["history"] if h["asker"] == self.seat]
        weights = {}
        if self.level == "easy":
            weights = {f: 1.0 for f in facts}
        else:
            # how hard the fact is for the answerer: a person's chance table, or (hard)
            # that table corrected by what the answerer has got right this game
            strength = answerer_strength(obs, answerer)
            target = ASK_TARGET[0] + ASK_TARGET[1] * strength
            sigma = ASK_SPREAD[self.level]
            for f in facts:
                d = 1.0 - chance_right(code, f, answerer_record(obs, answerer, f) if self.level == "hard" else None)
                weights[f] = math.exp(-((d - target) ** 2) / (2 * sigma ** 2))
        for f in facts:
            if mine and mine[-1] == f:
                weights[f] *= REPEAT_LAST         # not the same kind of question twice running
            elif f in mine[-2:]:
                weights[f] *= REPEAT_RECENT
            if len(mine) >= 6 and mine.count(f) / len(mine) > MAX_SHARE:
                weights[f] *= 0.2                 # spread the questions over the game
        total = sum(weights.values())
        x = self.rng.random() * total
        for f in facts:
            x -= weights[f]
            if x <= 0:
                return f
        return facts[-1]

    def _guess(self, obs: dict, code: str, fact: str, right: str, options: list[str]) -> str:
        """What a player who does not know says: one of four plausible answers (the right
        one among them, as a person picking between likely answers sometimes is right), or
        a number near the truth, as a person's rough idea is."""
        tried = {v for _, v in obs["tried"]}
        if obs["answers_mode"] == "choices" or fact in ("capital", "nickname"):
            plausible = [c for c in (options if obs["answers_mode"] == "choices" else choices(code, fact))
                         if c != UNKNOWN and c not in tried]
            if not plausible:
                return UNKNOWN
            return plausible[self.rng.randrange(len(plausible))]
        if fact == "population":
            exact = parts.states()[code].population_2020 / 1e6
            # a rough idea: off by about a third either way, and never below a tenth
            guess = max(0.1, exact * math.exp(self.rng.gauss(0.0, 0.45)))
            text = f"{round(guess, 1):.1f}"
        else:
            spread = {"rank": 7, "entered": 18, "settled": 30}[fact]
            text = str(int(right) + round(self.rng.gauss(0.0, spread)))
        if text in tried:
            return UNKNOWN
        return text if text in options else UNKNOWN

    # --- Junior ----------------------------------------------------------------------------
    def _junior(self, obs: dict, legal: list):
        dest = obs["destinations"][self.seat]
        if f"move:{dest}" in legal:
            return f"move:{dest}"
        return legal[0]


class BuySellTally:
    """What decided Buy and Sell's self-play games, for `stateside selfplay ... --variant
    buy-and-sell`: the take-overs of jammed disks each kind of player made, and how often
    it was the first to have delivered all it bought (then it waits beside the rivals)."""

    def __init__(self):
        self.games: dict[str, int] = {}
        self.takeovers: dict[str, int] = {}
        self.first: dict[str, int] = {}
        self.money: dict[str, list[int]] = {}

    def add(self, record, specs: Sequence[str]) -> None:
        delivered = [0] * len(specs)
        first = None
        for entry in record.match.log:
            for ev in entry.events:
                if ev.kind == "takeover":
                    spec = specs[ev.seats[0]]
                    self.takeovers[spec] = self.takeovers.get(spec, 0) + 1
                elif ev.kind == "deliver":
                    delivered[ev.seats[0]] += 1
                    if first is None and delivered[ev.seats[0]] == 4:
                        first = ev.seats[0]
        for seat, spec in enumerate(specs):
            self.games[spec] = self.games.get(spec, 0) + 1
            self.money.setdefault(spec, []).append(record.match.state.engine.money[seat])
        if first is not None:
            self.first[specs[first]] = self.first.get(specs[first], 0) + 1

    def lines(self) -> list[str]:
        out = ["by player: take-overs of jammed disks per game, first to deliver four, mean money at the end"]
        for spec in sorted(self.games):
            n = self.games[spec]
            out.append(f"  {spec:<10} take-overs {self.takeovers.get(spec, 0) / n:.2f}, "
                       f"first {100 * self.first.get(spec, 0) / n:.1f}%, "
                       f"money ${sum(self.money[spec]) / n:,.0f}")
        return out


class TriviaSpread:
    """The facts each kind of player asked about over self-play games, for the
    `stateside selfplay ... --variant trivia` report."""

    def __init__(self):
        self.asked: dict[str, dict[str, int]] = {}
        self.repeats: dict[str, int] = {}
        self.kept: dict[str, int] = {}
        # (asker, answerer) -> [sum of a person's chance to be right, questions]
        self.ease: dict[tuple[str, str], list[float]] = {}

    def add(self, record, specs: Sequence[str]) -> None:
        last: dict[int, str] = {}
        n = len(specs)
        for h in record.match.state.engine.history:
            spec = specs[h["asker"]]
            tally = self.asked.setdefault(spec, {})
            tally[h["fact"]] = tally.get(h["fact"], 0) + 1
            if last.get(h["asker"]) == h["fact"]:
                self.repeats[spec] = self.repeats.get(spec, 0) + 1
            last[h["asker"]] = h["fact"]
            self.kept[spec] = self.kept.get(spec, 0) + (h["winner"] == h["asker"])
            e = self.ease.setdefault((spec, specs[(h["asker"] + 1) % n]), [0.0, 0])
            e[0] += chance_right(h["card"], h["fact"])
            e[1] += 1

    def lines(self) -> list[str]:
        from stateside.games.game_of_the_states.trivia import FACTS

        out = ["questions asked, by player:"]
        for spec in sorted(self.asked):
            tally = self.asked[spec]
            n = sum(tally.values())
            spread = ", ".join(f"{f} {100 * tally.get(f, 0) / n:.0f}%" for f in FACTS)
            out.append(f"  {spec:<10} {spread} ({n} questions; the same fact as its previous question "
                       f"{100 * self.repeats.get(spec, 0) / n:.0f}%; cards kept {100 * self.kept[spec] / n:.0f}%)")
        out.append("how easy the questions were (a person's chance to be right), by asker and answerer:")
        for spec in sorted(self.asked):
            pairs = [f"to {b} {100 * s / k:.0f}%" for (a, b), (s, k) in sorted(self.ease.items()) if a == spec]
            out.append(f"  {spec:<10} " + ", ".join(pairs))
        return out
