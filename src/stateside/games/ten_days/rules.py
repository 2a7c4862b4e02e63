"""The rules engine of 10 Days in the USA (no Qt), on the engine protocol.

A game is its setup plus the ordered list of actions. Cards are faces ("CA", "car",
"plane-red"): copies of a face are identical, so the deck is a multiset of faces with
no order at all, and every card that leaves it is a chance action drawn by the match
layer. Actions are short strings, named for what a player does:

    deal phase      "day:N"      put the card just dealt to you in your empty day N (1-10);
                                 each player takes ten cards this way, then the next player
    draw phase      "draw"       take the top card of the face-down deck
                    "take:K"     take the top card of discard pile K (1-3)
    place phase     "day:N"      replace day N with the card you hold (the old card is now held)
                    "keep"       leave the journey as it is (the drawn card is now held)
    discard phase   "discard:K"  put the held card face up on pile K (an empty pile first)
    chance          "card:F"     the deck gives card F: dealt to the player, drawn by them,
                                 or turned up to start a discard pile after the deal

At the end of a turn the mover's journey is checked; a valid one wins at once. When
the deck runs out, all discards but each pile's top card go back into the deck.
Cards are never rearranged: a journey changes only by replacing one day.

Who sees what: every seat sees which day a player fills or replaces, the face-up piles
and the size of the deck; only its owner sees a journey (until it wins) and the card
held during the owner's turn, so a card dealt or drawn from the deck is seen by the
player who gets it alone, and "Ann put Virginia on day 10" reads "Ann put a card on
day 10" for the others.
"""
from __future__ import annotations

from collections import Counter
from functools import cache

from stateside.engine.protocol import CHANCE, EVERY_SEAT, TERMINAL, Event, GameSpec, InvariantError, State
from stateside.errors import IllegalActionError, InvalidActionError
from stateside.games.ten_days.cards import face_of, load_cards
from stateside.games.ten_days.journey import DAYS, a_card, is_complete, travel_rules

PILES = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS_LIMIT = 100  # self-play stops a game without a winner after this many turns per player
MAX_TURN_LIMIT = 10_000   # a setup's turn limit: 25 times the default for four players

DEAL, DRAW, PLACE, DISCARD, OVER = "deal", "draw", "place", "discard", "over"
START = "start"  # the chance cards that start the discard piles after the deal
CARD = "card:"

DAY_ACTIONS = tuple(f"day:{i + 1}" for i in range(DAYS))
TAKE_ACTIONS = tuple(f"take:{k + 1}" for k in range(PILES))
DISCARD_ACTIONS = tuple(f"discard:{k + 1}" for k in range(PILES))
SEAT_ACTIONS = DAY_ACTIONS + ("draw",) + TAKE_ACTIONS + ("keep",) + DISCARD_ACTIONS
# action -> (kind, index); parsed once, so that applying an action costs a lookup
PARSED = {**{a: ("day", i) for i, a in enumerate(DAY_ACTIONS)}, "draw": ("draw", None), "keep": ("keep", None),
          **{a: ("take", k) for k, a in enumerate(TAKE_ACTIONS)},
          **{a: ("discard", k) for k, a in enumerate(DISCARD_ACTIONS)}}


@cache
def full_deck() -> Counter:
    """The 66 cards as faces: each state once, two airplanes per colour, six automobiles
    (shared: copy it before changing it)."""
    return Counter(face_of(c) for c in load_cards().card_ids())


class TenDaysState(State):
    """One game. Public state is read directly (journeys, piles, deck, phase...); change it
    only through apply_action so that the action list stays the whole story."""

    spec = GameSpec(id="ten-days", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, hidden_information=True)

    # --- making and copying --------------------------------------------------------
    @classmethod
    def new(cls, setup: dict) -> TenDaysState:
        if not isinstance(setup, dict):
            raise ValueError("the setup of 10 Days in the USA must be a mapping")
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("the setup needs \"players\": a list of names")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"10 Days in the USA is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
        if unknown := sorted(map(str, set(setup) - {"players", "first_player", "turn_limit"})):
            raise ValueError(f"the setup of 10 Days in the USA has an unknown option {unknown[0]!r:.40} "
                             "(known: players, first_player, turn_limit)")
        first, limit = setup.get("first_player", 0), setup.get("turn_limit")
        if type(first) is not int or not 0 <= first < len(players):
            raise ValueError(f"first player {first!r:.40} is not a seat of {len(players)}")
        if limit is not None and (type(limit) is not int or not 1 <= limit <= MAX_TURN_LIMIT):
            raise ValueError(f"turn_limit must be a whole number of turns (1 to {MAX_TURN_LIMIT:,}) or null, "
                             f"not {limit!r:.40}")
        state = cls.__new__(cls)
        state._setup = {"players": list(players), "first_player": first, "turn_limit": limit}
        state.deck = Counter(full_deck())         # face -> copies not yet drawn
        state.piles = [[] for _ in range(PILES)]  # top card = pile[-1]
        state.journeys = [[None] * DAYS for _ in players]
        state.current = first
        state.phase = DEAL
        state.pending = DEAL                      # what the next chance card is for; None: a seat acts
        state.held = None                         # dealt, drawn or about to be discarded
        state.replaced = None                     # the day (0-9) replaced this turn, seen by all
        state.winner = None
        state.turns = 0                           # completed turns after the deal
        state.reshuffles = 0
        return state

    @classmethod
    def default_setup(cls, players: int) -> dict:
        return {"players": [f"Player {i + 1}" for i in range(players)], "first_player": 0,
                "turn_limit": ROUNDS_LIMIT * players}

    def clone(self) -> TenDaysState:
        other = TenDaysState.__new__(TenDaysState)
        other.__dict__.update(self.__dict__)
        other._setup = {**self._setup, "players": list(self._setup["players"])}
        other.deck = Counter(self.deck)
        other.piles = [list(p) for p in self.piles]
        other.journeys = [list(j) for j in self.journeys]
        return other

    # --- queries ---------------------------------------------------------------------
    @property
    def setup(self) -> dict:
        return self._setup

    @property
    def players(self) -> int:
        return len(self.journeys)

    def deck_size(self) -> int:
        return sum(self.deck.values())

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        return CHANCE if self.pending else self.current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """1 for the winner and 0 for the others; all 0 while playing or after the turn limit."""
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.players)]

    def pile_tops(self) -> list[str | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if not self.pending:
            return []
        total = self.deck_size()
        return [(CARD + face, n / total) for face, n in self.deck.items()]

    def legal_actions(self, seat: int | None = None) -> list[str]:
        if self.phase == OVER or (seat is not None and (self.pending or seat != self.current)):
            return []
        if self.pending:
            return [CARD + face for face in self.deck]
        if self.phase == DEAL:
            return [DAY_ACTIONS[i] for i, card in enumerate(self.journeys[self.current]) if card is None]
        if self.phase == DRAW:
            acts = ["draw"] if self.deck else []
            return acts + [TAKE_ACTIONS[k] for k, pile in enumerate(self.piles) if pile]
        if self.phase == PLACE:
            return list(DAY_ACTIONS) + ["keep"]
        empty = [k for k, pile in enumerate(self.piles) if not pile]
        return [DISCARD_ACTIONS[k] for k in (empty or range(PILES))]

    def candidate_actions(self, seat: int | None = None) -> list[str]:
        if seat is not None and (self.pending or seat != self.current):
            return []
        return list(SEAT_ACTIONS) + [CARD + face for face in full_deck()]

    def all_cards(self) -> Counter:
        """Every card wherever it is (deck, piles, journeys, hand): always the 66 of the game."""
        cards = Counter(self.deck)
        for pile in self.piles:
            cards.update(pile)
        for journey in self.journeys:
            cards.update(c for c in journey if c is not None)
        if self.held is not None:
            cards[self.held] += 1
        return cards

    # --- play ----------------------------------------------------------------------------
    def apply_action(self, action) -> list[Event]:
        if self.pending:
            face = action[len(CARD):] if type(action) is str and action.startswith(CARD) else None
            if not self.deck.get(face):
                raise IllegalActionError(self._why_illegal(action))
            self._deal_out(face)
            return []
        parsed = PARSED.get(action) if type(action) is str else None
        if parsed is None or not self._allowed(*parsed):
            raise IllegalActionError(self._why_illegal(action))
        kind, index = parsed
        if self.phase == DEAL:
            self.journeys[self.current][index] = self.held
            self.held = None
            self._next_deal()
            return []
        if self.phase == DRAW:
            self.phase = PLACE
            if kind == "draw":
                self.pending = DRAW
            else:
                self.held = self.piles[index].pop()
            return []
        if self.phase == PLACE:
            if kind == "day":
                journey = self.journeys[self.current]
                journey[index], self.held = self.held, journey[index]
                self.replaced = index
            self.phase = DISCARD
            return []
        self.piles[index].append(self.held)
        self.held = None
        self.replaced = None
        return self._end_turn()

    def _allowed(self, kind: str, index: int | None) -> bool:
        """Whether a seat's action of this kind is legal now (legal_actions, without the list)."""
        phase = self.phase
        if phase == DEAL:
            return kind == "day" and self.journeys[self.current][index] is None
        if phase == DRAW:
            return (kind == "draw" and bool(self.deck)) or (kind == "take" and bool(self.piles[index]))
        if phase == PLACE:
            return kind in ("day", "keep")
        if phase == DISCARD:
            return kind == "discard" and (not self.piles[index] or all(self.piles))
        return False

    def _draw(self, face: str) -> None:
        self.deck[face] -= 1
        if not self.deck[face]:
            del self.deck[face]   # the deck lists only cards it still holds

    def _deal_out(self, face: str) -> None:
        """The deck gives `face` to whatever is waiting for a card."""
        self._draw(face)
        if self.pending in (DEAL, DRAW):
            self.held = face
            self.pending = None
            return
        pile = next(k for k, p in enumerate(self.piles) if not p)  # the piles start one by one
        self.piles[pile].append(face)
        if pile == PILES - 1:
            self.pending = None

    def _next_deal(self) -> None:
        # Each player takes their ten cards one at a time, then the next player does.
        # Nobody sees another's cards, so this deals exactly like drawing round the
        # table, and in hot-seat play the screen changes hands once per player.
        if None not in self.journeys[self.current]:
            self.current = (self.current + 1) % self.players
        if None in self.journeys[self.current]:
            self.pending = DEAL
            return
        self.current = self._setup["first_player"]   # the deal is over: three face-up discard piles
        self.phase = DRAW
        self.pending = START

    def _end_turn(self) -> list[Event]:
        self.turns += 1
        name = self._setup["players"][self.current]
        if is_complete(self.journeys[self.current]):
            self.winner = self.current
            self.phase = OVER
            return [Event(f"10 DAYS! {name} wins with a valid journey", "win", (self.current,))]
        limit = self._setup["turn_limit"]
        if limit is not None and self.turns >= limit:
            self.phase = OVER
            return [Event(f"the game stops without a winner after {limit} turns", "turn-limit")]
        self.current = (self.current + 1) % self.players
        self.phase = DRAW
        if not self.deck:
            return self._reshuffle()
        return []

    def _reshuffle(self) -> list[Event]:
        """The deck ran out: every discard except each pile's top card goes back into it."""
        for pile in self.piles:
            self.deck.update(pile[:-1])
            del pile[:-1]
        self.reshuffles += 1
        return [Event(f"the discards but each pile's top card became the new deck ({self.deck_size()} cards)",
                      "reshuffle")]

    def _why_illegal(self, action) -> str:
        if self.phase == OVER:
            return "the game is over"
        if self.pending:
            return f"{action!r} is not possible now: the deck is to give a card (one of {self.deck_size()} unseen)"
        what = {DEAL: "place the dealt card in an empty day", DRAW: "draw a card from the deck or a discard pile",
                PLACE: "replace a day with the drawn card or keep your journey",
                DISCARD: "discard onto a pile (an empty pile first)"}[self.phase]
        return f"{action!r} is not possible now: it is time to {what} (possible: {', '.join(self.legal_actions())})"

    # --- views, checks, text ----------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        """What `seat` may know: its own days and held card, the face-up piles, the size
        of the deck, which days of each journey are dealt and which day the player to move
        replaced (everyone sees where a card goes, not which); a winner's journey is shown
        to all."""
        own_turn = seat == self.current and self.phase != OVER
        return {
            "seat": seat,
            "players": list(self._setup["players"]),
            "phase": self.phase,
            "current": self.current,
            "chance": bool(self.pending),
            "journey": list(self.journeys[seat]),
            "held": self.held if own_turn else None,
            "piles": [list(p) for p in self.piles],
            "deck": self.deck_size(),
            "dealt": [DAYS - j.count(None) for j in self.journeys],
            "empty_days": [[d + 1 for d, c in enumerate(j) if c is None] for j in self.journeys],
            "replaced": None if self.replaced is None else self.replaced + 1,
            "reshuffles": self.reshuffles,
            "turns": self.turns,
            "turn_limit": self._setup["turn_limit"],
            "winner": self.winner,
            "winning_journey": None if self.winner is None else list(self.journeys[self.winner]),
        }

    def check_invariants(self) -> None:
        cards = self.all_cards()
        if cards != full_deck():
            diff = (full_deck() - cards) + (cards - full_deck())
            raise InvariantError(f"the cards are not the 66 of the game (off: {dict(diff)})")
        if len(self.piles) != PILES or any(len(j) != DAYS for j in self.journeys):
            raise InvariantError("three discard piles and ten days per player")
        holds = self.phase in (DEAL, PLACE, DISCARD) and not self.pending
        if (self.held is not None) != holds:
            raise InvariantError(f"held card {self.held!r} in phase {self.phase} (waiting for {self.pending})")
        if self.phase != DEAL and not self.pending and any(None in j for j in self.journeys):
            raise InvariantError("a journey has an empty day after the deal")
        if self.replaced is not None and self.phase != DISCARD:
            raise InvariantError(f"day {self.replaced + 1} marked as replaced in phase {self.phase}")

    def action_to_json(self, action) -> str:
        return action

    def action_from_json(self, data) -> str:
        if isinstance(data, str) and (data in PARSED or (data.startswith(CARD) and data[len(CARD):] in full_deck())):
            return data
        raise InvalidActionError(f"{data!r} is not a move of 10 Days in the USA (day:N, draw, take:K, keep, discard:K"
                         " or card:<card>)"[:300])

    def action_to_string(self, action) -> str:
        name = self._setup["players"][self.current]
        rules = travel_rules()
        if self.pending:
            face = action[len(CARD):]
            if self.pending == START:
                return f"{a_card(rules, face)} was turned up to start a discard pile"
            if self.pending == DEAL:
                return f"{name} was dealt {a_card(rules, face)}"
            return f"{name} drew {a_card(rules, face)} from the deck"
        kind, index = PARSED[action]
        held = a_card(rules, self.held) if self.held else "the card"
        if kind == "day" and self.phase == DEAL:
            return f"{name} put {held} on day {index + 1}"
        if kind == "day":
            old = a_card(rules, self.journeys[self.current][index])
            return f"{name} put {held} on day {index + 1} in place of {old}"
        if kind == "draw":
            return f"{name} drew from the deck"
        if kind == "take":
            return f"{name} took {a_card(rules, self.piles[index][-1])} from the top of pile {index + 1}"
        if kind == "keep":
            return f"{name} kept the journey as it was"
        return f"{name} discarded {held} onto pile {index + 1}"

    # --- who sees what ---------------------------------------------------------------------
    def audience(self, action) -> frozenset[int] | None:
        """A card the deck deals or gives to the player to move is theirs alone; the cards
        that start the piles and every seat's action are seen by all (which day, which
        pile: the card put on a day is kept out of the others' words by describe)."""
        if self.pending in (DEAL, DRAW):
            return frozenset((self.current,))
        return EVERY_SEAT

    def describe(self, action, viewer: int | None, text: str | None = None) -> str:
        if viewer is None or viewer == self.current or self.pending == START:
            return text if text is not None else self.action_to_string(action)
        name = self._setup["players"][self.current]
        if self.pending == DEAL:
            return f"{name} was dealt a card"
        if self.pending == DRAW:
            return f"{name} drew a card from the deck"
        kind, index = PARSED[action]
        if kind == "day" and self.phase == DEAL:
            return f"{name} put a card on day {index + 1}"
        if kind == "day":   # neither the card put there nor the one taken up is seen
            return f"{name} put the card on day {index + 1} in place of the one there"
        return text if text is not None else self.action_to_string(action)   # draw, take, keep, discard: in sight

    # --- hidden information ---------------------------------------------------------------
    @classmethod
    def consistent_with(cls, setup: dict, seat: int, observation: dict, rng) -> TenDaysState:
        """A game `seat` cannot tell from the one it observes: its own days and held card, the
        piles, whose turn and which phase as observed; the cards it cannot see (the others'
        dealt days, another player's held card, the deck) dealt at random from the 66 minus
        those it sees. ValueError when the observation does not fit the setup."""
        obs = observation
        state = cls.new(setup)
        n = state.players
        if obs.get("seat") != seat or len(obs.get("empty_days", ())) != n:
            raise ValueError(f"the observation is not seat {seat}'s of a {n}-player game")
        state.phase, state.current = obs["phase"], obs["current"]
        state.turns, state.winner, state.reshuffles = obs["turns"], obs["winner"], obs["reshuffles"]
        state.replaced = None if obs["replaced"] is None else obs["replaced"] - 1
        state.piles = [list(p) for p in obs["piles"]]
        # What the deck's next card is for follows from the phase (see _deal_out).
        state.pending = {DEAL: DEAL, DRAW: START, PLACE: DRAW}.get(state.phase) if obs["chance"] else None
        known = {seat: list(obs["journey"])}
        if state.winner is not None:
            known[state.winner] = list(obs["winning_journey"])
        holds = state.phase in (DEAL, PLACE, DISCARD) and not state.pending
        seen = Counter(c for p in state.piles for c in p)
        for journey in known.values():
            seen.update(c for c in journey if c is not None)
        if holds and state.current == seat:
            state.held = obs["held"]
            seen[state.held] += 1
        unseen = full_deck() - seen
        if seen - full_deck() or sum(unseen.values()) < obs["deck"]:
            raise ValueError("the observation shows cards that are not in the game")
        cards = list(unseen.elements())
        rng.shuffle(cards)
        deal = iter(cards)
        for s in range(n):
            empty = set(obs["empty_days"][s])
            state.journeys[s] = known.get(s) or [None if d + 1 in empty else next(deal) for d in range(DAYS)]
        if holds and state.current != seat:
            state.held = next(deal)
        state.deck = Counter(deal)
        if state.deck_size() != obs["deck"]:
            raise ValueError(f"the observation's deck of {obs['deck']} does not fit the cards out of sight")
        return state

    def with_hidden_changed(self, viewer: int, rng) -> TenDaysState:
        """The other players' unrevealed days and held card dealt again from the cards
        `viewer` cannot see (those and the deck); the viewer's observation stays."""
        return TenDaysState.consistent_with(self._setup, viewer, self.observation(viewer), rng)
