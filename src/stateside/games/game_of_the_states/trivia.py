"""Game of the States, Trivia (pure Python, no Qt).

Rulebook, Trivia: the 50 state cards are shuffled face down. On his turn a player draws
the top card and asks the player to his left about one fact on it, which he chooses:
the nickname, the population (asked in millions: right within one million), the capital,
the year settled, the year it entered the union (the year only) or its rank of entry.
A right answer wins the card; a wrong one passes the question to the next player on the
left, and so on; if nobody is right the asker announces the answer and keeps the card.
After all 50 cards the most cards wins (ties share the win).

Answers: typed (the mode reads the text with stateside.games.game_of_the_states.matching)
or, as a setting (setup "answers": "choices"), picked from four choices: the right answer
and three wrong ones picked by a fixed rule from the card (no random generator), in order.
The rules record the answer given as one of a finite set of values per fact (every
capital, every nickname, populations in tenths of a million, years, ranks) or "?" for
an answer that matches none, so the legal actions are exact.

Year settled: many states' first settlement is dated differently by different references
(Pennsylvania 1643 or 1682, New Mexico 1610 or 1598): every documented year is right
(resources/game_of_the_states/settled.yaml, each with the page that documents it), and the
reveal names them with their sources. A typed population is judged on the exact figure
typed (matching.answer_value).

Hawaii's card has no year settled (there is no first European settlement in the usual
sense: resources/data/SOURCES.md), so that fact is not asked about Hawaii.

Who sees what: the card drawn is in the asker's hand; the others learn its state from the
question (the deck's last card excepted, which everyone can tell) and its facts never.

Actions: "card:XX" (chance), "ask:FACT", "say:VALUE".
"""
from __future__ import annotations

import copy
import zlib
from functools import cache

from stateside.data.words import acts, as_object, verb
from stateside.engine.protocol import CHANCE, TERMINAL, Event, InvariantError, sees
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.common import Deck, chance_candidates, parse
from stateside.games.game_of_the_states.matching import UNKNOWN, answer_value

FACTS = ("nickname", "population", "capital", "settled", "entered", "rank")
FACT_NAMES = {"nickname": "nickname", "population": "population (in millions)", "capital": "capital",
              "settled": "year settled", "entered": "year it entered the union",
              "rank": "rank of entry into the union"}
QUESTIONS = {"nickname": "What is the nickname of {s}?",
             "population": "How many millions of people live in {s}?",
             "capital": "What is the capital of {s}?",
             "settled": "In what year was {s} first settled?",
             "entered": "In what year did {s} enter the union?",
             "rank": "Which state to join the union was {s}: 1st, 2nd ... 50th?"}
POP_MAX = 45.0          # millions: the choices for a population run 0.0 .. 45.0
YEARS = (1500, 1960)
TYPED, CHOICES = "typed", "choices"

DRAW, ASK, ANSWER, OVER = "draw", "ask", "answer", "over"


def truth(code: str, fact: str) -> str | None:
    """The card's answer, written as the rules record answers (None: not on the card)."""
    s = parts.states()[code]
    if fact == "nickname":
        return s.nickname
    if fact == "capital":
        return s.capital
    if fact == "population":
        return f"{s.population_2020 / 1e6:.1f}"
    if fact == "settled":
        return None if s.settled is None else str(s.settled)
    if fact == "entered":
        return str(s.admitted_year)
    if fact == "rank":
        return str(s.admission_order)
    raise ValueError(fact)


def right_years(code: str) -> tuple[str, ...]:
    """Every year settled that is right for the state: the card's, then the others documented."""
    t = truth(code, "settled")
    if t is None:
        return ()
    return (t,) + tuple(str(o.year) for o in parts.other_settled_years().get(code, ()))


def also_text(code: str) -> str:
    """The other documented years settled, as the reveal shows them ("" when none)."""
    others = parts.other_settled_years().get(code, ())
    return "; ".join(f"{o.year}, {o.what}" for o in others)


def sources_text(code: str) -> str:
    """Where each documented year settled comes from, as the reveal names it ("" when the
    state has one commonly cited year)."""
    years = parts.settled_years().get(code)
    if years is None:
        return ""
    return "; ".join(f"{o.year}, {o.source}" for o in (years.card, *years.also))


def shown(code: str, fact: str) -> str:
    """The answer as the card shows it."""
    s = parts.states()[code]
    if fact == "settled" and (also := also_text(code)):
        return f"{s.settled} (also right: {also})"
    if fact == "population":
        return f"{s.population_2020 / 1e6:.1f} million ({s.population_2020:,} in 2020)"
    if fact == "entered":
        return f"{s.admitted_year} ({s.admitted})"
    if fact == "rank":
        return ordinal(s.admission_order)
    return truth(code, fact)


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


def facts_on(code: str) -> list[str]:
    return [f for f in FACTS if truth(code, f) is not None]


@cache
def values(fact: str) -> tuple[str, ...]:
    """Every answer the rules can record for a fact (besides UNKNOWN)."""
    if fact == "nickname":
        return tuple(sorted(s.nickname for s in parts.states().values()))
    if fact == "capital":
        return tuple(sorted(s.capital for s in parts.states().values()))
    if fact == "population":
        # tenths ("39.5") for the choices and the computers; hundredths ("39.54") for
        # typed answers, so a figure typed near the one-million line keeps its verdict
        return tuple(f"{t / 100:.1f}" if t % 10 == 0 else f"{t / 100:.2f}" for t in range(int(POP_MAX * 100) + 1))
    if fact in ("settled", "entered"):
        return tuple(str(y) for y in range(YEARS[0], YEARS[1] + 1))
    if fact == "rank":
        return tuple(str(r) for r in range(1, 51))
    raise ValueError(fact)


def is_right(code: str, fact: str, value: str) -> bool:
    t = truth(code, fact)
    if value == UNKNOWN or t is None:
        return False
    if fact == "population":
        return abs(float(value) - parts.states()[code].population_2020 / 1e6) <= 1.0 + 1e-9
    if fact == "settled":
        return value in right_years(code)
    return value == t


def typed_action(code: str, fact: str, text: str) -> str:
    """The action for an answer typed to the question (fact) about a state: "say:VALUE",
    judged as a quizmaster would (matching.answer_value: the exact population, "City, ST",
    a date for a year, numbers in words, one typo in a name of five letters or more)."""
    right = truth(code, fact)
    candidates = [right] + [v for v in values(fact) if v != right]
    st = parts.states()
    value = answer_value(text, fact, candidates, population=st[code].population_2020,
                         state=code, states={c: s.name for c, s in st.items()})
    return f"say:{value}"


def _h(*parts_) -> int:
    return zlib.crc32(":".join(parts_).encode())


def choices(code: str, fact: str) -> list[str]:
    """Four choices: the right answer and three wrong ones, by a fixed rule, sorted."""
    t = truth(code, fact)
    if fact in ("nickname", "capital"):
        others = [truth(c, fact) for c in parts.state_codes() if c != code]
        others.sort(key=lambda v: _h(code, fact, v))
        return sorted([t] + others[:3])
    if fact == "population":
        tv = float(t)
        pool = [tv + d for d in (-12, -8, -5, -3, -2, 2, 3, 5, 8, 12)]
        pool = [v for v in pool if 0.1 <= v <= POP_MAX and abs(v - parts.states()[code].population_2020 / 1e6) > 1.5]
        pool.sort(key=lambda v: _h(code, fact, f"{v:.1f}"))
        return sorted([t] + [f"{v:.1f}" for v in pool[:3]], key=float)
    if fact == "rank":
        lo, hi, offsets = 1, 50, (-10, -6, -4, -2, 2, 4, 6, 10)
    else:
        lo, hi = (1776, 1960) if fact == "entered" else (1550, 1900)
        offsets = (-60, -40, -25, -15, -10, 10, 15, 25, 40, 60)
    tv = int(t)
    right = right_years(code) if fact == "settled" else (t,)    # a wrong choice is no documented year
    pool = [tv + d for d in offsets if lo <= tv + d <= hi and str(tv + d) not in right]
    pool.sort(key=lambda v: _h(code, fact, str(v)))
    return sorted([t] + [str(v) for v in pool[:3]], key=int)


@cache
def _typed(fact: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """A typed answer's possible values and the "say:" actions for them."""
    options = values(fact) + (UNKNOWN,)
    return options, frozenset(f"say:{v}" for v in options)


class Trivia:
    variant = "trivia"

    def __init__(self, names: list[str], answers: str = TYPED):
        self.names = list(names)
        self.n = len(names)
        self.answers = answers
        self.deck = Deck()
        self.won: list[list[str]] = [[] for _ in range(self.n)]
        self.phase = DRAW
        self.asker = 0
        self.card: str | None = None
        self.fact: str | None = None
        self.answerer = 0
        self.tried: list[tuple[int, str]] = []     # (seat, answer) on this card
        self.history: list[dict] = []               # cards played: card, fact, asker, winner, answers
        self.winners: list[int] = []

    def clone(self) -> Trivia:
        c = copy.copy(self)
        c.deck = self.deck.copy()
        c.won = [list(w) for w in self.won]
        c.tried = list(self.tried)
        c.history = [dict(h) for h in self.history]    # entries hold only immutable values
        c.winners = list(self.winners)
        return c

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == DRAW:
            return CHANCE
        return self.asker if self.phase == ASK else self.answerer

    def chance_outcomes(self):
        return self.deck.outcomes() if self.phase == DRAW else []

    def options(self) -> list[str]:
        if self.answers == CHOICES:
            return choices(self.card, self.fact)
        return list(_typed(self.fact)[0])

    def is_legal(self, action) -> bool:
        if self.phase == ANSWER and self.answers == TYPED:
            return isinstance(action, str) and action in _typed(self.fact)[1]
        return action in self.legal()

    def legal(self) -> list:
        if self.phase == DRAW:
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == ASK:
            return [f"ask:{f}" for f in facts_on(self.card)]
        if self.phase == ANSWER:
            return [f"say:{v}" for v in self.options()]
        return []

    def candidates(self) -> list:
        if self.phase == DRAW:
            return chance_candidates()
        out = [f"ask:{f}" for f in FACTS] + ["ask:motto"]
        for f in FACTS:
            out += [f"say:{v}" for v in values(f)]
        return out + [f"say:{UNKNOWN}", "say:", "pass"]

    def apply(self, action) -> list[Event]:
        ev: list[Event] = []
        if self.phase == DRAW:
            code = parse(action, "card")
            audience = self.audience(action)
            self.deck.take(code)
            self.card = code
            self.fact = None
            self.tried = []
            self.phase = ASK
            ev.append(Event(f"{acts(self.names[self.asker], 'draws')} the card of {parts.state_name(code)}.", "card",
                            (self.asker,), audience))
        elif self.phase == ASK:
            self.fact = parse(action, "ask")
            self.answerer = (self.asker + 1) % self.n
            self.phase = ANSWER
            ev.append(Event(f"{acts(self.names[self.asker], 'asks')} {as_object(self.names[self.answerer])}: "
                            + QUESTIONS[self.fact].format(s=parts.state_name(self.card)), "ask", (self.asker,)))
        elif self.phase == ANSWER:
            value = parse(action, "say")
            seat = self.answerer
            self.tried.append((seat, value))
            said = acts(self.names[seat], "does not know" if value == UNKNOWN else f"says {self.say_text(value)}")
            if is_right(self.card, self.fact, value):
                note = ""
                if self.fact == "settled" and value != truth(self.card, "settled"):
                    other = next(o for o in parts.other_settled_years()[self.card] if str(o.year) == value)
                    note = (f" ({value}: {other.what}, documented by {other.source}; "
                            f"the card says {truth(self.card, 'settled')})")
                ev.append(Event(f"{said}: right!{note} {acts(self.names[seat], 'wins')} the card.",
                                "right", (seat,)))
                self._card_won(seat, ev)
            else:
                nxt = (seat + 1) % self.n
                if nxt == self.asker:
                    sources = sources_text(self.card) if self.fact == "settled" else ""
                    ev.append(Event(f"{said}: wrong. Nobody knew: the answer is "
                                    f"{shown(self.card, self.fact)}; "
                                    f"{acts(as_object(self.names[self.asker]), 'keeps')} the card."
                                    + (f" Sources: {sources}." if sources else ""),
                                    "kept", (self.asker,)))
                    self._card_won(self.asker, ev)
                else:
                    ev.append(Event(f"{said}: wrong. {self.names[nxt]}, your answer?", "wrong",
                                    (seat,)))
                    self.answerer = nxt
        return ev

    def say_text(self, value: str) -> str:
        if value == UNKNOWN:
            return "nothing that matches"
        if self.fact == "population":
            return f"{value} million"
        if self.fact == "rank":
            return ordinal(int(value))
        return value

    def _card_won(self, seat: int, ev) -> None:
        self.won[seat].append(self.card)
        self.history.append({"card": self.card, "fact": self.fact, "asker": self.asker, "winner": seat,
                             "answers": tuple(self.tried)})
        self.card = None
        self.fact = None
        self.tried = []
        if not len(self.deck):
            self.phase = OVER
            top = max(len(w) for w in self.won)
            self.winners = [s for s in range(self.n) if len(self.won[s]) == top]
            ev.append(Event("All 50 cards are played: " + " and ".join(self.names[s] for s in self.winners)
                            + (" " + verb(self.names[self.winners[0]], "wins", "win") if len(self.winners) == 1
                               else " share the win")
                            + f" with {top} cards.", "over", tuple(self.winners)))
            return
        self.asker = (self.asker + 1) % self.n
        self.phase = DRAW

    def describe(self, action) -> str:
        if self.phase == DRAW:
            return f"{self.names[self.asker]} drew the card of {parts.state_name(parse(action, 'card'))}"
        if self.phase == ASK:
            return (f"{self.names[self.asker]} asked {as_object(self.names[(self.asker + 1) % self.n])} the "
                    f"{FACT_NAMES[parse(action, 'ask')]} of {parts.state_name(self.card)}")
        value = parse(action, "say")
        if value == UNKNOWN:
            return f"{self.names[self.answerer]} gave an answer that matches nothing"
        return f"{self.names[self.answerer]} answered {self.say_text(value)}"

    # --- who may see what ---------------------------------------------------------------
    def audience(self, action) -> frozenset[int] | None:
        """The card drawn is the asker's until the question names its state, except the
        deck's last card: everyone has seen the others go, so everyone knows it. The rest
        is said aloud."""
        if self.phase == DRAW and len(self.deck.unseen) > 1:
            return frozenset({self.asker})
        return None

    def describe_for(self, action, viewer: int) -> str:
        """The words for `viewer`, who did not take the action: a seat that has not seen the
        card reads nothing that depends on it."""
        if self.phase == DRAW and not sees(self.audience(action), viewer):
            return f"{self.names[self.asker]} drew a card from the deck"
        if self.phase == ASK and viewer != self.asker:
            # not knowing the card yet, they read the same words for any card (the event names it)
            return (f"{self.names[self.asker]} asked {as_object(self.names[(self.asker + 1) % self.n])} the "
                    f"{FACT_NAMES[parse(action, 'ask')]} of the state on the card")
        return self.describe(action)

    def observation(self, seat: int) -> dict:
        card = None
        # The asker holds the card: the others learn its state from the question, never its facts.
        if self.card is not None and (seat == self.asker or self.fact is not None):
            card = {"code": self.card, "name": parts.state_name(self.card)}
            if seat == self.asker:
                card["facts"] = {f: shown(self.card, f) for f in facts_on(self.card)}
        return {
            "variant": self.variant, "seat": seat, "names": list(self.names), "phase": self.phase,
            "current": self.current_player(), "asker": self.asker, "answerer": self.answerer,
            "answers_mode": self.answers, "card": card, "fact": self.fact,
            "choices": choices(self.card, self.fact) if (self.fact and self.answers == CHOICES) else None,
            "tried": [list(t) for t in self.tried], "won": [list(w) for w in self.won],
            "history": [{**h, "answers": [list(t) for t in h["answers"]]} for h in self.history],
            "draw_pile": len(self.deck), "winners": list(self.winners),
        }

    def restore(self, obs: dict, rng) -> None:
        """Become the game `obs` describes (a new game's engine, same setup): the card in
        the asker's hand, when the observation does not show it, is dealt with `rng` from
        the cards nobody has won (the deck is the rest, in no order)."""
        if obs.get("variant") != self.variant or obs.get("answers_mode") != self.answers:
            raise ValueError("the observation is not of this game's Trivia")
        self.phase, self.asker, self.answerer = obs["phase"], obs["asker"], obs["answerer"]
        self.fact = obs["fact"]
        self.tried = [(s, v) for s, v in obs["tried"]]
        self.won = [list(w) for w in obs["won"]]
        self.history = [{**h, "answers": tuple((s, v) for s, v in h["answers"])} for h in obs["history"]]
        self.winners = list(obs["winners"])
        left = sorted(set(parts.state_codes()) - {c for w in self.won for c in w})
        if obs["card"] is not None:
            self.card = obs["card"]["code"]
        elif self.phase == ASK:
            self.card = rng.choice(left)
        else:
            self.card = None
        self.deck = Deck(c for c in left if c != self.card)
        if len(self.deck) != obs["draw_pile"]:
            raise ValueError("the observation's draw pile does not match its cards")

    def check(self) -> None:
        cards = sorted(list(self.deck.unseen) + self.deck.bottom + [c for w in self.won for c in w]
                       + ([self.card] if self.card else []))
        if cards != sorted(parts.state_codes()):
            raise InvariantError("the 50 cards are not all there once")

    def scores(self) -> list[float]:
        return [float(len(w)) for w in self.won]
