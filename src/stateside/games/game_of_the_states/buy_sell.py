"""Game of the States, "Buy and Sell" (pure Python, no Qt): the rulebook, step by step.

Setup (rulebook, setup 2-6): each player has four disks of a colour, a truck and $5,000
(two $1,000, five $500 and five $100 bills). In seat order each player draws four state
cards and puts a disk on each, then a fifth and puts the truck there; each card goes back
to the bottom of the draw pile. Then everyone spins and the highest price goes first
(ties spin again among the tied players): "Spin the spinner. The player who spins the
highest number goes first" (our spinner's highest numbers are its prices).

A turn (play 2-11):
- spin; the inner ring says how far the truck moves (0-3) or Traffic Jam;
- move "toward" a target: with an empty truck, a state with an opponent's disk for sale
  or a disk left by a jammed truck; with a loaded truck, the destination. The truck ends
  exactly that many states along a shortest route to a target, or on a target within
  reach ("You do not have to reach your destination by exact count"), which includes
  staying on a target it already stands on. Alaska is reached only through Washington
  and Hawaii only through California (the `game-of-the-states` borders). Trucks and
  disks do not block. With no target at all the truck may go any state exactly that far.
- ending on an opponent's disk for sale: the owner names one of the state's products,
  the buyer spins a price; the owner (who receives the money) accepts or asks for one
  re-spin whose price must be taken ("Trying for a better price"); the buyer pays, loads
  the disk and draws the destination card at once; the turn ends.
- ending on the destination: the buyer sells the disk back to its owner, who spins; the
  buyer (who receives the money) accepts or asks for one re-spin; the owner pays; the disk
  goes on its product's space on the platform and the card on the discard pile. The
  turn ends: a new target is looked for on the next turn ("After reaching a destination,
  you must wait until your next turn").
- Traffic Jam: the truck stays until the next turn; a loaded truck leaves its disk on
  the state. Another player with an empty truck who ends a move there takes the disk and
  the card and pays the stuck player $200, and completes the delivery as usual; if the
  disk is his own colour he buys it back: he still pays the $200, delivers it to the
  card's state, puts it on the platform without a spin and collects $200 from the bank.
  A disk still there at the stuck player's next turn goes back in his truck.
- The game ends when every disk is on the platform; the most money wins (ties share).

Our decisions where the rulebook is silent:
- "Special Rule #3" (referred to in play 7 but not printed): a destination card that names
  the state the buyer's truck is in, a state holding one of the buyer's own disks for
  sale, or a state holding one of the seller's disks for sale goes back to the bottom of
  the draw pile and the buyer draws again, until a card names none of these. (A disk taken
  over from a jammed truck keeps its card as it is.) In a game it never comes up: those
  states' cards went to the bottom at the setup, below the at most 16 destinations drawn
  from the 30 or more cards above them, so the help leaves it out; it stays as a guard.
- A player who must pay more than he has pays all he has (money is never created); a disk
  bought that way sells back for no more than he paid for it ("cap"), so a purchase made
  short of money can never earn more than it cost. A take-over costs a known $200: a
  player with less cannot take over (the jammed disk is no target for him).
- With several things to do in one state (a disk for sale and a jammed disk, or two
  jammed disks), the player chooses one; with one, it happens by itself.
- Destination cards lie face up: everyone sees them.

Actions: "spin:N" and "card:XX" (chance); "move:XX" (end the move on state XX),
"buy:S" (buy seat S's disk here), "takeover:S" (take the disk seat S left here),
"product:ID" (the owner names the product), "accept" / "respin".
"""
from __future__ import annotations

import copy

from stateside.data.words import acts, as_object, possessive, their, verb
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

DISKS_PER_PLAYER = 4
TAKEOVER_PRICE = 200      # paid to the stuck player
BUYBACK_BONUS = 200       # from the bank to a player who bought back his own disk

SETUP, SPIN, MOVE, DEAL, PRODUCT, DECIDE, DRAW, OVER = (
    "setup", "spin", "move", "deal", "product", "decide", "draw", "over")
# what a spin is for
FIRST, MOVE_SPIN, PRICE, PRICE2, SALE, SALE2 = "first", "move", "price", "price again", "sale", "sale again"


class BuySell:
    variant = "buy-and-sell"

    def __init__(self, names: list[str]):
        n = len(names)
        self.names = list(names)
        self.n = n
        start = parts.money()["start"]["buy-and-sell"]
        self.money = [start] * n
        self.bank = parts.money()["bank"]
        self.total_money = self.bank + start * n
        self.deck = Deck()
        self.truck: list[str | None] = [None] * n
        # disk id "seat.i" -> {"owner", "state" (board state or None), "carrier" (seat or None),
        #                      "jam" (left on the board by its stuck carrier), "product", "done"}
        self.disks: dict[str, dict] = {
            f"{s}.{i}": {"owner": s, "state": None, "carrier": None, "jam": False, "product": None,
                         "done": False, "cap": None}
            for s in range(n) for i in range(DISKS_PER_PLAYER)}
        self.load: list[str | None] = [None] * n      # the disk a seat carries (or left jammed)
        self.dest: list[str | None] = [None] * n      # its destination card
        self.buyback = [False] * n
        self.platform: list[tuple[str, str]] = []      # (disk, product) in order
        self.phase = SETUP
        self.setup_step = 0
        self.turn = 0
        self.spin_for = ""
        self.spinner = 0                 # who spins at a spin node
        self.k = 0                       # the move spun
        self.first_spins: dict[int, int] = {}
        self.contenders = list(range(n))
        self.deal_here: list[str] = []   # the choices at a DEAL node
        self.disk = None                 # the disk being bought or sold
        self.price = 0                   # the price on offer at a DECIDE node
        self.decider = 0
        self.last_spin: dict | None = None
        self.last_move: dict | None = None
        self.winners: list[int] = []

    def clone(self) -> BuySell:
        c = copy.copy(self)
        c.money = list(self.money)
        c.deck = self.deck.copy()
        c.truck = list(self.truck)
        c.disks = {d: dict(rec) for d, rec in self.disks.items()}
        c.load = list(self.load)
        c.dest = list(self.dest)
        c.buyback = list(self.buyback)
        c.platform = list(self.platform)
        c.first_spins = dict(self.first_spins)
        c.contenders = list(self.contenders)
        c.deal_here = list(self.deal_here)
        c.last_spin = dict(self.last_spin) if self.last_spin else None
        c.last_move = ({**self.last_move, "route": list(self.last_move["route"])} if self.last_move else None)
        c.winners = list(self.winners)
        return c

    # --- reading -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (SETUP, SPIN, DRAW):
            return CHANCE
        if self.phase in (MOVE, DEAL):
            return self.turn
        if self.phase == PRODUCT:
            return self.disks[self.disk]["owner"]
        return self.decider

    def chance_outcomes(self):
        if self.phase in (SETUP, DRAW):
            return self.deck.outcomes()
        if self.phase == SPIN:
            return spin_outcomes()
        return []

    def for_sale(self, code: str) -> str | None:
        for d, rec in self.disks.items():
            if rec["state"] == code and rec["carrier"] is None and not rec["done"]:
                return d
        return None

    def jammed_at(self, code: str) -> list[str]:
        return [d for d, rec in self.disks.items() if rec["state"] == code and rec["jam"]]

    def targets(self, seat: int) -> set[str]:
        if self.load[seat] is not None:
            return {self.dest[seat]}
        out = set()
        for rec in self.disks.values():
            if rec["done"] or rec["state"] is None:
                continue
            if rec["jam"] and rec["carrier"] != seat:
                if self.money[seat] >= TAKEOVER_PRICE:
                    out.add(rec["state"])
            elif rec["carrier"] is None and rec["owner"] != seat:
                out.add(rec["state"])
        return out

    def legal(self) -> list:
        if self.phase in (SETUP, SPIN, DRAW):
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == MOVE:
            return [f"move:{c}" for c in move_ends(self.truck[self.turn], self.k, self.targets(self.turn))]
        if self.phase == DEAL:
            return list(self.deal_here)
        if self.phase == PRODUCT:
            return [f"product:{p}" for p in parts.products(self.disks[self.disk]["state"])]
        if self.phase == DECIDE:
            return ["accept", "respin"]
        return []

    def is_legal(self, action) -> bool:
        return action in self.legal()

    def candidates(self) -> list:
        if self.current_player() == CHANCE:
            return chance_candidates()
        seats = range(self.n)
        return ([f"move:{c}" for c in parts.state_codes()] + [f"buy:{s}" for s in seats]
                + [f"takeover:{s}" for s in seats] + [f"product:{p}" for p in parts.catalogue()]
                + ["accept", "respin", "pass"])

    # --- acting ------------------------------------------------------------------------
    def apply(self, action) -> list[Event]:
        ev: list[Event] = []
        if self.phase == SETUP:
            self._setup_card(parse(action, "card"), ev)
        elif self.phase == SPIN:
            self._spun(sector_of(action), ev)
        elif self.phase == DRAW:
            self._dest_card(parse(action, "card"), ev)
        elif self.phase == MOVE:
            self._move(parse(action, "move"), ev)
        elif self.phase == DEAL:
            kind, _, seat = action.partition(":")
            self._deal(kind, int(seat), ev)
        elif self.phase == PRODUCT:
            pid = parse(action, "product")
            rec = self.disks[self.disk]
            rec["product"] = pid
            ev.append(Event(f"{acts(self.names[rec['owner']], 'sells')} {parts.product_name(pid)} from "
                            f"{parts.state_name(rec['state'])}.", "product", (rec["owner"],)))
            self._ask_spin(PRICE, self.turn)
        elif self.phase == DECIDE:
            self._decide(action, ev)
        return ev

    def _setup_card(self, code: str, ev) -> None:
        self.deck.take(code)
        seat, j = divmod(self.setup_step, DISKS_PER_PLAYER + 1)
        if j < DISKS_PER_PLAYER:
            self.disks[f"{seat}.{j}"]["state"] = code
            ev.append(Event(f"{acts(self.names[seat], 'puts')} a disk in {parts.state_name(code)}.", "setup", (seat,)))
        else:
            self.truck[seat] = code
            ev.append(Event(f"{possessive(self.names[seat], start=True)} truck starts in {parts.state_name(code)}.",
                            "setup", (seat,)))
        self.deck.to_bottom(code)
        self.setup_step += 1
        if self.setup_step == self.n * (DISKS_PER_PLAYER + 1):
            self.contenders = list(range(self.n))
            self.first_spins = {}
            self._ask_spin(FIRST, self.contenders[0])

    def _ask_spin(self, what: str, who: int) -> None:
        self.phase = SPIN
        self.spin_for = what
        self.spinner = who

    def _spun(self, sector: parts.Sector, ev) -> None:
        who, what = self.spinner, self.spin_for
        self.last_spin = {"sector": sector.index, "by": who, "for": what}
        name = self.names[who]
        if what == FIRST:
            self.first_spins[who] = sector.price
            ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} ${sector.price:,} for the first turn.",
                            "spin", (who,)))
            left = [s for s in self.contenders if s not in self.first_spins]
            if left:
                self._ask_spin(FIRST, left[0])
                return
            best = max(self.first_spins.values())
            tied = [s for s in self.contenders if self.first_spins[s] == best]
            if len(tied) > 1:
                ev.append(Event(f"{' and '.join(self.names[s] for s in tied)} tie: they spin again.", "tie"))
                self.contenders = tied
                self.first_spins = {}
                self._ask_spin(FIRST, tied[0])
                return
            ev.append(Event(f"{self.names[tied[0]]} {verb(self.names[tied[0]], 'goes', 'go')} first.",
                            "first", (tied[0],)))
            self._start_turn(tied[0], ev)
        elif what == MOVE_SPIN:
            self._move_spin(sector, ev)
        elif what in (PRICE, SALE):
            receiver = self.disks[self.disk]["owner"] if what == PRICE else self.turn
            self.price = sector.price
            self.decider = receiver
            self.phase = DECIDE
            ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} ${sector.price:,}.", "spin", (who,)))
        else:   # the second price must be taken
            ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} again: ${sector.price:,}, which must be taken.",
                            "spin", (who,)))
            self._settle(sector.price, ev)

    def _start_turn(self, seat: int, ev) -> None:
        self.turn = seat
        d = self.load[seat]
        if d is not None and self.disks[d]["jam"]:
            rec = self.disks[d]
            rec["jam"] = False
            rec["state"] = None
            ev.append(Event(f"Nobody took {possessive(self.names[seat])} disk: it goes back in the truck.",
                            "reload", (seat,)))
        self.last_move = None
        self._ask_spin(MOVE_SPIN, seat)

    def _end_turn(self, ev) -> None:
        if all(rec["done"] for rec in self.disks.values()):
            self.phase = OVER
            top = max(self.money)
            self.winners = [s for s in range(self.n) if self.money[s] == top]
            ev.append(Event("Every disk is on the platform: "
                            + " and ".join(self.names[s] for s in self.winners)
                            + (" " + verb(self.names[self.winners[0]], "wins", "win") if len(self.winners) == 1
                               else " share the win")
                            + f" with ${top:,}.", "over", tuple(self.winners)))
            return
        self._start_turn((self.turn + 1) % self.n, ev)

    def _move_spin(self, sector: parts.Sector, ev) -> None:
        seat = self.turn
        name = self.names[seat]
        if sector.jam:
            d = self.load[seat]
            if d is not None:
                rec = self.disks[d]
                rec["jam"] = True
                rec["state"] = self.truck[seat]
                ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} Traffic Jam: stuck in "
                                f"{parts.state_name(self.truck[seat])}, "
                                f"the disk is left on the state.", "jam", (seat,)))
            else:
                ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} Traffic Jam: stuck in "
                                f"{parts.state_name(self.truck[seat])} "
                                f"until the next turn.", "jam", (seat,)))
            self._end_turn(ev)
            return
        self.k = sector.move
        if sector.move == 0:
            ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} 0 and stays in "
                            f"{parts.state_name(self.truck[seat])}.", "spin", (seat,)))
            self._arrive(self.truck[seat], ev)
            return
        ev.append(Event(f"{name} {verb(name, 'spins', 'spin')} {sector.move}.", "spin", (seat,)))
        self.phase = MOVE

    def _move(self, code: str, ev) -> None:
        seat = self.turn
        start = self.truck[seat]
        self.last_move = {"seat": seat, "from": start, "to": code, "route": parts.route(start, code)}
        if code != start:
            ev.append(Event(f"{acts(self.names[seat], 'drives')} to {parts.state_name(code)}.", "move", (seat,)))
        self._arrive(code, ev)

    def _arrive(self, code: str, ev) -> None:
        seat = self.turn
        self.truck[seat] = code
        if self.load[seat] is not None:
            if code == self.dest[seat]:
                self._deliver(ev)
            else:
                self._end_turn(ev)
            return
        options = []
        d = self.for_sale(code)
        if d is not None and self.disks[d]["owner"] != seat:
            options.append(f"buy:{self.disks[d]['owner']}")
        for j in self.jammed_at(code):
            carrier = self.disks[j]["carrier"]
            if carrier != seat and self.money[seat] >= TAKEOVER_PRICE:
                options.append(f"takeover:{carrier}")
        if not options:
            self._end_turn(ev)
        elif len(options) == 1:
            kind, _, s = options[0].partition(":")
            self._deal(kind, int(s), ev)
        else:
            self.deal_here = options
            self.phase = DEAL

    def _deal(self, kind: str, other: int, ev) -> None:
        seat = self.turn
        code = self.truck[seat]
        if kind == "buy":
            self.disk = self.for_sale(code)
            products = parts.products(code)
            ev.append(Event(f"{acts(self.names[seat], 'buys')} from {as_object(self.names[other])} in "
                            f"{parts.state_name(code)}.", "buy", (seat, other)))
            if len(products) == 1:
                self.disks[self.disk]["product"] = products[0]
                ev.append(Event(f"{acts(self.names[other], 'sells')} {parts.product_name(products[0])}.", "product",
                                (other,)))
                self._ask_spin(PRICE, seat)
            else:
                self.phase = PRODUCT
            return
        # take over the disk a jammed truck left here
        d = next(j for j in self.jammed_at(code) if self.disks[j]["carrier"] == other)
        rec = self.disks[d]
        paid = self._pay(seat, other, TAKEOVER_PRICE)
        rec["jam"] = False
        rec["state"] = None
        rec["carrier"] = seat
        rec["cap"] = None                  # the taker paid in full
        self.load[other], self.load[seat] = None, d
        self.dest[seat], self.dest[other] = self.dest[other], None
        self.buyback[other] = False
        self.buyback[seat] = rec["owner"] == seat
        name = self.names[seat]
        what = f"buys back {their(name)} own disk" if self.buyback[seat] else "takes over the jammed disk"
        ev.append(Event(f"{acts(name, what)} in {parts.state_name(code)}, {verb(name, 'pays', 'pay')} "
                        f"{as_object(self.names[other])} ${paid:,} and {verb(name, 'takes', 'take')} the card of "
                        f"{parts.state_name(self.dest[seat])}.",
                        "takeover", (seat, other)))
        self._end_turn(ev)

    def _pay(self, payer: int | None, payee: int | None, amount: int) -> int:
        """Pay up to `amount` (all the payer has, if less). None is the bank."""
        have = self.bank if payer is None else self.money[payer]
        paid = min(amount, have)
        if payer is None:
            self.bank -= paid
        else:
            self.money[payer] -= paid
        if payee is None:
            self.bank += paid
        else:
            self.money[payee] += paid
        return paid

    def _decide(self, action: str, ev) -> None:
        name = self.names[self.decider]
        if action == "accept":
            ev.append(Event(f"{acts(name, 'accepts')} ${self.price:,}.", "accept", (self.decider,)))
            self._settle(self.price, ev)
            return
        ev.append(Event(f"{acts(name, 'asks')} for a better price: one more spin, which must be taken.", "respin",
                        (self.decider,)))
        self._ask_spin(PRICE2 if self.spin_for == PRICE else SALE2, self.spinner)

    def _settle(self, price: int, ev) -> None:
        seat = self.turn
        rec = self.disks[self.disk]
        owner = rec["owner"]
        if self.spin_for in (PRICE, PRICE2):
            paid = self._pay(seat, owner, price)
            short = ""
            if paid < price:
                rec["cap"] = paid
                short = (f" (all {acts(as_object(self.names[seat]), 'has')}: the disk will sell back for "
                         f"${paid:,} at most)")
            ev.append(Event(f"{acts(self.names[seat], 'pays')} {as_object(self.names[owner])} ${paid:,}{short} "
                            f"({parts.bills_text(paid)}) and {verb(self.names[seat], 'loads', 'load')} the disk.",
                            "pay", (seat, owner)))
            rec["state"] = None
            rec["carrier"] = seat
            self.load[seat] = self.disk
            self.buyback[seat] = False
            self.phase = DRAW
            return
        capped = ""
        if rec["cap"] is not None and price > rec["cap"]:
            capped = f" (capped at the ${rec['cap']:,} {as_object(self.names[seat])} paid)"
            price = rec["cap"]
        paid = self._pay(owner, seat, price)
        short = capped if paid == price else f" (all {acts(as_object(self.names[owner]), 'has')})"
        ev.append(Event(f"{acts(self.names[owner], 'pays')} {as_object(self.names[seat])} ${paid:,}{short} "
                        f"({parts.bills_text(paid)}).", "pay", (owner, seat)))
        self._to_platform(ev)

    def _bad_destination(self, code: str) -> bool:
        """Special Rule #3 (ours): the card names the truck's state, or a state with a disk
        for sale of the buyer or of the seller."""
        seat = self.turn
        if code == self.truck[seat]:
            return True
        owner = self.disks[self.disk]["owner"]
        d = self.for_sale(code)
        return d is not None and self.disks[d]["owner"] in (seat, owner)

    def _dest_card(self, code: str, ev) -> None:
        seat = self.turn
        self.deck.take(code)
        if self._bad_destination(code):
            self.deck.to_bottom(code)
            ev.append(Event(f"{acts(self.names[seat], 'draws')} {parts.state_name(code)}, which cannot be the "
                            f"destination (Special Rule #3): it goes to the bottom; draw again.", "redraw", (seat,)))
            return
        self.dest[seat] = code
        ev.append(Event(f"{acts(self.names[seat], 'draws')} {parts.state_name(code)}: deliver there.", "card", (seat,)))
        self._end_turn(ev)

    def _deliver(self, ev) -> None:
        seat = self.turn
        self.disk = self.load[seat]
        rec = self.disks[self.disk]
        if self.buyback[seat]:
            paid = self._pay(None, seat, BUYBACK_BONUS)
            ev.append(Event(f"{acts(self.names[seat], 'delivers')} {their(self.names[seat])} own disk to "
                            f"{parts.state_name(self.dest[seat])}: "
                            f"no spin; the bank pays ${paid:,}.", "deliver", (seat,)))
            self._to_platform(ev)
            return
        owner = rec["owner"]
        ev.append(Event(f"{acts(self.names[seat], 'delivers')} to {parts.state_name(self.dest[seat])} and "
                        f"{verb(self.names[seat], 'sells', 'sell')} the disk back to {as_object(self.names[owner])}, "
                        f"who {verb(self.names[owner], 'spins', 'spin')}.", "deliver", (seat, owner)))
        self._ask_spin(SALE, owner)

    def _to_platform(self, ev) -> None:
        seat = self.turn
        rec = self.disks[self.disk]
        rec["done"] = True
        rec["carrier"] = None
        rec["state"] = None
        self.platform.append((self.disk, rec["product"]))
        self.deck.discard.append(self.dest[seat])
        ev.append(Event(f"{possessive(self.names[rec['owner']], start=True)} disk goes on the platform: "
                        f"{parts.product_name(rec['product'])}.", "platform", (rec["owner"],)))
        self.load[seat] = None
        self.dest[seat] = None
        self.buyback[seat] = False
        self.disk = None
        self._end_turn(ev)

    # --- text --------------------------------------------------------------------------
    def describe(self, action) -> str:
        if self.phase in (SETUP, DRAW):
            code = parse(action, "card")
            if self.phase == SETUP:
                seat, j = divmod(self.setup_step, DISKS_PER_PLAYER + 1)
                what = "a disk" if j < DISKS_PER_PLAYER else "the truck"
                return f"{self.names[seat]} drew {parts.state_name(code)} for {what}"
            return f"{self.names[self.turn]} drew {parts.state_name(code)} as the destination"
        if self.phase == SPIN:
            s = sector_of(action)
            who = self.names[self.spinner]
            if self.spin_for == MOVE_SPIN:
                return f"{who} spun {s.move_text()}" + ("" if s.jam else " to move")
            return f"{who} spun ${s.price:,} ({self.spin_for})"
        seat = self.current_player()
        name = self.names[seat]
        if self.phase == MOVE:
            code = parse(action, "move")
            if code == self.truck[seat]:
                return f"{name} stayed in {parts.state_name(code)}"
            return f"{name} drove from {parts.state_name(self.truck[seat])} to {parts.state_name(code)}"
        if self.phase == DEAL:
            kind, _, other = action.partition(":")
            if kind == "buy":
                return f"{name} chose to buy {possessive(self.names[int(other)])} disk"
            return f"{name} chose to take over the disk {self.names[int(other)]} left"
        if self.phase == PRODUCT:
            return f"{name} offered {parts.product_name(parse(action, 'product'))}"
        if action == "accept":
            return f"{name} accepted ${self.price:,}"
        return f"{name} asked for another spin instead of ${self.price:,}"

    # --- views and checks --------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        return {
            "variant": self.variant, "seat": seat, "names": list(self.names), "phase": self.phase,
            "turn": self.turn, "current": self.current_player(), "money": list(self.money), "bank": self.bank,
            "trucks": list(self.truck), "loads": list(self.load), "destinations": list(self.dest),
            "buyback": list(self.buyback),
            "disks": {d: dict(rec) for d, rec in self.disks.items()},
            "platform": [list(p) for p in self.platform],
            "deck": self.deck.public(), "spin_for": self.spin_for if self.phase == SPIN else "",
            "spinner": self.spinner, "move": self.k if self.phase == MOVE else None,
            "price": self.price if self.phase == DECIDE else None,
            "offer": self.spin_for if self.phase == DECIDE else None,
            "disk": self.disk, "first_spins": {str(k): v for k, v in self.first_spins.items()},
            "last_spin": dict(self.last_spin) if self.last_spin else None,
            "last_move": ({**self.last_move, "route": list(self.last_move["route"])} if self.last_move else None),
            "winners": list(self.winners),
            "contenders": list(self.contenders),    # who spins for the first turn (after a tie)
            "deal_options": list(self.deal_here) if self.phase == DEAL else [],
        }

    # --- who may see what ---------------------------------------------------------------
    def audience(self, action) -> frozenset[int] | None:
        """Every seat sees everything: spins and cards are face up (destination cards too,
        our decision) and the deck's order does not exist until a card is drawn."""
        return None

    def describe_for(self, action, viewer: int) -> str:
        return self.describe(action)

    def restore(self, obs: dict, rng) -> None:
        """Become the game `obs` describes (a new game's engine, same setup). Nothing is
        hidden: the deck is the cards nobody has seen (in no order) above those returned to
        the bottom. What the observation leaves out is what no rule reads in that phase
        (a spent price, a spent move)."""
        if obs.get("variant") != self.variant:
            raise ValueError("the observation is not of this game's Buy and Sell")
        self.phase, self.turn = obs["phase"], obs["turn"]
        self.money, self.bank = list(obs["money"]), obs["bank"]
        self.truck, self.load, self.dest = list(obs["trucks"]), list(obs["loads"]), list(obs["destinations"])
        self.buyback = list(obs["buyback"])
        self.disks = {d: dict(rec) for d, rec in obs["disks"].items()}
        self.platform = [tuple(p) for p in obs["platform"]]
        self.spinner = obs["spinner"]
        self.spin_for = obs["spin_for"] or obs["offer"] or (PRICE if self.phase == DRAW else MOVE_SPIN)
        self.k = obs["move"] or 0
        self.price = obs["price"] or 0
        self.decider = obs["current"] if self.phase == DECIDE else 0
        self.disk = obs["disk"]
        self.first_spins = {int(k): v for k, v in obs["first_spins"].items()}
        self.contenders = list(obs["contenders"])
        self.deal_here = list(obs["deal_options"])
        self.last_spin = dict(obs["last_spin"]) if obs["last_spin"] else None
        self.last_move = ({**obs["last_move"], "route": list(obs["last_move"]["route"])} if obs["last_move"] else None)
        self.winners = list(obs["winners"])
        # each card drawn at setup put one disk or one truck on the board
        placed = sum(rec["state"] is not None for rec in self.disks.values()) + sum(t is not None for t in self.truck)
        self.setup_step = placed if self.phase == SETUP else self.n * (DISKS_PER_PLAYER + 1)
        deck = obs["deck"]
        seen = set(deck["bottom"]) | set(deck["discard"]) | {c for c in self.dest if c is not None}
        self.deck = Deck(c for c in parts.state_codes() if c not in seen)
        self.deck.bottom, self.deck.discard = list(deck["bottom"]), list(deck["discard"])
        if len(self.deck) != deck["draw_pile"]:
            raise ValueError("the observation's draw pile does not match its cards")

    def check(self) -> None:
        if sum(self.money) + self.bank != self.total_money or min(self.money) < 0 or self.bank < 0:
            raise InvariantError(f"money not conserved: {self.money} + bank {self.bank} != {self.total_money}")
        if len(self.disks) != self.n * DISKS_PER_PLAYER:
            raise InvariantError("a disk was lost")
        for d, rec in self.disks.items():
            places = (rec["done"], rec["carrier"] is not None and not rec["jam"],
                      rec["state"] is not None and rec["carrier"] is None, rec["jam"])
            if self.phase != SETUP and sum(bool(p) for p in places) != 1:
                raise InvariantError(f"disk {d} is in {sum(bool(p) for p in places)} places: {rec}")
            if rec["carrier"] is not None and self.load[rec["carrier"]] != d:
                raise InvariantError(f"disk {d} is carried by seat {rec['carrier']} who does not hold it")
        if sorted(d for d, _ in self.platform) != sorted(d for d, r in self.disks.items() if r["done"]):
            raise InvariantError("the platform and the disks disagree")
        held = [c for c in self.dest if c is not None]
        cards = sorted(list(self.deck.unseen) + self.deck.bottom + self.deck.discard + held)
        if cards != sorted(parts.state_codes()):
            raise InvariantError(f"the 50 cards are not all there once ({len(cards)})")
        for s in range(self.n):
            if (self.load[s] is None) != (self.dest[s] is None) and self.phase != DRAW:
                raise InvariantError(f"seat {s} has a disk without a card or a card without a disk")

    def scores(self) -> list[float]:
        return [float(m) for m in self.money]
