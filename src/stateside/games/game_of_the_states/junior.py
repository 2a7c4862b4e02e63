"""Game of the States, Junior version (pure Python, no Qt).

Rulebook, Junior: each player has one truck loaded with one disk. Each draws a card: the
truck goes there, the player's home; the card is kept aside face down. Each then has a
face-down pile of four more cards. The youngest (the first seat) starts; play passes to
the left. On a turn the player turns over the top card of the pile if no destination is
showing, spins and moves toward it (the same moves as Buy and Sell: Alaska only through
Washington, Hawaii only through California, no exact count needed, Traffic Jam: no move
this turn). On reaching it he spins a sale and collects the price from the bank, discards
the card and turns over the next, his next destination. After the fourth the home card is
turned over: the first player home collects a $500 bonus and spins a sale; the others
play on until each is home and spins a sale (no bonus). The most money wins.

The face-down piles are unknown to everyone, their owners included, so each card is drawn
from the deck when it is turned over (the same odds as a pile dealt beforehand) and no
card order exists before it is seen. There is no "Trying for a better price" in Junior.

Actions: "card:XX" and "spin:N" (chance), "move:XX" (end the move on state XX).
"""
from __future__ import annotations

import copy

from stateside.data.words import acts, possessive, verb
from stateside.engine.protocol import CHANCE, TERMINAL, Event, InvariantError
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.common import (
    Deck,
    chance_candidates,
    move_ends,
    parse,
    sector_of,
    spin_outcomes,
)

PILE = 4
HOME_BONUS = 500

SETUP, REVEAL, SPIN, SALE, MOVE, OVER = "setup", "reveal", "spin", "sale", "move", "over"


class Junior:
    variant = "junior"

    def __init__(self, names: list[str]):
        self.names = list(names)
        self.n = len(names)
        start = parts.money()["start"]["junior"]
        self.money = [start] * self.n
        self.bank = parts.money()["bank"]
        self.total_money = self.bank + start * self.n
        self.deck = Deck()
        self.truck: list[str | None] = [None] * self.n
        self.home: list[str | None] = [None] * self.n
        self.dest: list[str | None] = [None] * self.n
        self.pile = [PILE] * self.n          # face-down cards left
        self.visited: list[list[str]] = [[] for _ in range(self.n)]
        self.finished = [False] * self.n
        self.first_home: int | None = None
        self.phase = SETUP
        self.turn = 0
        self.k = 0
        self.last_spin: dict | None = None
        self.last_move: dict | None = None
        self.winners: list[int] = []

    def clone(self) -> Junior:
        c = copy.copy(self)
        c.money = list(self.money)
        c.deck = self.deck.copy()
        c.truck = list(self.truck)
        c.home = list(self.home)
        c.dest = list(self.dest)
        c.pile = list(self.pile)
        c.visited = [list(v) for v in self.visited]
        c.finished = list(self.finished)
        c.last_spin = dict(self.last_spin) if self.last_spin else None
        c.last_move = ({**self.last_move, "route": list(self.last_move["route"])} if self.last_move else None)
        c.winners = list(self.winners)
        return c

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == MOVE:
            return self.turn
        return CHANCE

    def chance_outcomes(self):
        if self.phase in (SETUP, REVEAL):
            return self.deck.outcomes()
        if self.phase in (SPIN, SALE):
            return spin_outcomes()
        return []

    def legal(self) -> list:
        if self.phase == MOVE:
            return [f"move:{c}" for c in move_ends(self.truck[self.turn], self.k, {self.dest[self.turn]})]
        return [a for a, _ in self.chance_outcomes()]

    def is_legal(self, action) -> bool:
        return action in self.legal()

    def candidates(self) -> list:
        if self.current_player() == CHANCE:
            return chance_candidates()
        return [f"move:{c}" for c in parts.state_codes()] + ["accept", "respin"]

    def apply(self, action) -> list[Event]:
        ev: list[Event] = []
        seat = self.turn
        name = self.names[seat]
        if self.phase == SETUP:
            code = parse(action, "card")
            self.deck.take(code)
            s = sum(h is not None for h in self.home)
            self.home[s] = self.truck[s] = code
            ev.append(Event(f"{possessive(self.names[s], start=True)} home is {parts.state_name(code)}.", "home", (s,)))
            if s == self.n - 1:
                self._start_turn(0, ev)
        elif self.phase == REVEAL:
            code = parse(action, "card")
            self.deck.take(code)
            self.dest[seat] = code
            self.pile[seat] -= 1
            ev.append(Event(f"{acts(name, 'turns')} over {parts.state_name(code)}: the next destination.", "card",
                            (seat,)))
            if self._after_reveal:
                self._after_reveal = False
                self._end_turn(ev)
            else:
                self.phase = SPIN
        elif self.phase == SPIN:
            sector = sector_of(action)
            self.last_spin = {"sector": sector.index, "by": seat, "for": "move"}
            if sector.jam:
                ev.append(Event(f"{acts(name, 'spins')} Traffic Jam: no move this turn.", "jam", (seat,)))
                self._end_turn(ev)
            elif sector.move == 0:
                ev.append(Event(f"{acts(name, 'spins')} 0: no move this turn.", "spin", (seat,)))
                self._end_turn(ev)
            else:
                self.k = sector.move
                ev.append(Event(f"{acts(name, 'spins')} {sector.move}.", "spin", (seat,)))
                self.phase = MOVE
        elif self.phase == MOVE:
            code = parse(action, "move")
            self.last_move = {"seat": seat, "from": self.truck[seat], "to": code,
                              "route": parts.route(self.truck[seat], code)}
            self.truck[seat] = code
            ev.append(Event(f"{acts(name, 'drives')} to {parts.state_name(code)}.", "move", (seat,)))
            if code == self.dest[seat]:
                ev.append(Event(f"{acts(name, 'reaches')} {parts.state_name(code)} and "
                                f"{verb(name, 'spins', 'spin')} a sale.",
                                "arrive", (seat,)))
                self.phase = SALE
            else:
                self._end_turn(ev)
        elif self.phase == SALE:
            sector = sector_of(action)
            self.last_spin = {"sector": sector.index, "by": seat, "for": "sale"}
            code = self.dest[seat]
            if code == self.home[seat]:
                if self.first_home is None:
                    self.first_home = seat
                    got = self._from_bank(seat, HOME_BONUS)
                    ev.append(Event(f"{acts(name, 'is')} home first: a ${got:,} bonus.", "bonus", (seat,)))
                got = self._from_bank(seat, sector.price)
                ev.append(Event(f"{acts(name, 'sells')} at home for ${got:,} ({parts.bills_text(got)}).", "sale",
                                (seat,)))
                self.finished[seat] = True
                self.dest[seat] = None
                self._end_turn(ev)
                return ev
            got = self._from_bank(seat, sector.price)
            ev.append(Event(f"{acts(name, 'sells')} in {parts.state_name(code)} for ${got:,} "
                            f"({parts.bills_text(got)}).",
                            "sale", (seat,)))
            self.deck.discard.append(code)
            self.visited[seat].append(code)
            self.dest[seat] = None
            if self.pile[seat] > 0:
                self._after_reveal = True
                self.phase = REVEAL
            else:
                self.dest[seat] = self.home[seat]
                ev.append(Event(f"{acts(name, 'turns')} over the home card: back to "
                                f"{parts.state_name(self.home[seat])}.",
                                "home", (seat,)))
                self._end_turn(ev)
        return ev

    _after_reveal = False

    def _from_bank(self, seat: int, amount: int) -> int:
        got = min(amount, self.bank)
        self.bank -= got
        self.money[seat] += got
        return got

    def _start_turn(self, seat: int, ev) -> None:
        self.turn = seat
        self.last_move = None
        if self.dest[seat] is None:
            self.phase = REVEAL
        else:
            self.phase = SPIN

    def _end_turn(self, ev) -> None:
        if all(self.finished):
            self.phase = OVER
            top = max(self.money)
            self.winners = [s for s in range(self.n) if self.money[s] == top]
            ev.append(Event("Everyone is home: " + " and ".join(self.names[s] for s in self.winners)
                            + (" " + verb(self.names[self.winners[0]], "wins", "win") if len(self.winners) == 1
                               else " share the win")
                            + f" with ${top:,}.", "over", tuple(self.winners)))
            return
        nxt = (self.turn + 1) % self.n
        while self.finished[nxt]:
            nxt = (nxt + 1) % self.n
        self._start_turn(nxt, ev)

    def describe(self, action) -> str:
        name = self.names[self.turn]
        if self.phase == SETUP:
            s = sum(h is not None for h in self.home)
            return f"{self.names[s]} drew {parts.state_name(parse(action, 'card'))} as home"
        if self.phase == REVEAL:
            return f"{name} turned over {parts.state_name(parse(action, 'card'))}"
        if self.phase == SPIN:
            s = sector_of(action)
            return f"{name} spun {s.move_text()}" + ("" if s.jam else " to move")
        if self.phase == SALE:
            return f"{name} spun ${sector_of(action).price:,} for the sale"
        code = parse(action, "move")
        return f"{name} drove from {parts.state_name(self.truck[self.turn])} to {parts.state_name(code)}"

    def observation(self, seat: int) -> dict:
        return {
            "variant": self.variant, "seat": seat, "names": list(self.names), "phase": self.phase,
            "turn": self.turn, "current": self.current_player(), "money": list(self.money), "bank": self.bank,
            "trucks": list(self.truck), "homes": list(self.home), "destinations": list(self.dest),
            "piles": list(self.pile), "visited": [list(v) for v in self.visited],
            "finished": list(self.finished), "first_home": self.first_home,
            "deck": self.deck.public(), "move": self.k if self.phase == MOVE else None,
            "spinner": self.turn, "spin_for": {SPIN: "move", SALE: "sale"}.get(self.phase, ""),
            "last_spin": dict(self.last_spin) if self.last_spin else None,
            "last_move": ({**self.last_move, "route": list(self.last_move["route"])} if self.last_move else None),
            "winners": list(self.winners),
            "reveal_ends_turn": self._after_reveal,   # a card turned over after a sale ends the turn
        }

    # --- who may see what ---------------------------------------------------------------
    def audience(self, action) -> frozenset[int] | None:
        """Every seat sees everything: the face-down piles are unknown to their owners too,
        so each card is drawn as it is turned over, face up."""
        return None

    def describe_for(self, action, viewer: int) -> str:
        return self.describe(action)

    def restore(self, obs: dict, rng) -> None:
        """Become the game `obs` describes (a new game's engine, same setup). Nothing is
        hidden: the deck is the cards nobody has seen, in no order."""
        if obs.get("variant") != self.variant:
            raise ValueError("the observation is not of this game's Junior version")
        self.phase, self.turn = obs["phase"], obs["turn"]
        self.money, self.bank = list(obs["money"]), obs["bank"]
        self.truck, self.home, self.dest = list(obs["trucks"]), list(obs["homes"]), list(obs["destinations"])
        self.pile = list(obs["piles"])
        self.visited = [list(v) for v in obs["visited"]]
        self.finished = list(obs["finished"])
        self.first_home = obs["first_home"]
        self.k = obs["move"] or 0
        self.last_spin = dict(obs["last_spin"]) if obs["last_spin"] else None
        self.last_move = ({**obs["last_move"], "route": list(obs["last_move"]["route"])} if obs["last_move"] else None)
        self.winners = list(obs["winners"])
        self._after_reveal = obs["reveal_ends_turn"]
        deck = obs["deck"]
        seen = set(deck["bottom"]) | set(deck["discard"]) | {c for c in self.home + self.dest if c is not None}
        self.deck = Deck(c for c in parts.state_codes() if c not in seen)
        self.deck.bottom, self.deck.discard = list(deck["bottom"]), list(deck["discard"])
        if len(self.deck) != deck["draw_pile"]:
            raise ValueError("the observation's draw pile does not match its cards")

    def check(self) -> None:
        if sum(self.money) + self.bank != self.total_money or self.bank < 0:
            raise InvariantError(f"money not conserved: {self.money} + bank {self.bank}")
        if not self.phase == SETUP:
            held = [h for h in self.home if h is not None]
            held += [d for s, d in enumerate(self.dest) if d is not None and d != self.home[s]]
            cards = sorted(list(self.deck.unseen) + self.deck.bottom + self.deck.discard + held)
            if cards != sorted(parts.state_codes()):
                raise InvariantError("the 50 cards are not all there once")
            for s in range(self.n):
                if len(self.visited[s]) + self.pile[s] + (self.dest[s] is not None and self.dest[s] != self.home[s]) \
                        != PILE:
                    raise InvariantError(f"seat {s} has lost a destination card")

    def scores(self) -> list[float]:
        return [float(m) for m in self.money]
