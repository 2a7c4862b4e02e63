"""Buy and Sell's hard computer player: a planner over the spinner's odds (pure Python, no Qt).

It reads only its seat's observation. What it weighs:

- Prices are transfers between players, so over a game they even out; what moves money
  for good is a Traffic Jam. A loaded truck that spins one leaves its disk on the state,
  and a rival with an empty truck who reaches it before the stuck player's next turn pays
  $200 and delivers it. Taking over one's own disk (the rule's "buy back") turns a sale
  that would have cost a spun price (about $675 with the best accept-or-spin play) into a
  $200 payment and $200 from the bank: about $1,150 between the two players.
- Moves. Each legal end of the move is valued by (1) the states still to drive for every
  disk we have yet to buy and deliver: to a disk, the mean drive from it to a destination
  card still in the pile, then from a card on to the next disk, the nearest first (the
  first player with nothing left to buy moves freely and waits beside the rival's loaded
  truck: medium against medium, the first to deliver four wins 58% of the games); a
  jammed disk counts only where we can end on it this turn (it goes back in its truck at
  the stuck player's next turn); (2) one turn ahead, the rival's next spin (each outcome,
  his move as a player heading for his nearest target makes it) and our own: a jam of his
  while we are empty and near is a take-over for us (a truck 0, 1, 2 or 3 states away
  reaches it 90%, 80%, 60% or 30% of the time), a jam of ours while he is empty and near
  is one for him. A state of driving weighs about as much as a jam's chance a turn ahead,
  so (2) decides between equally short ways and when nothing is left to buy.
- Prices: accept or spin again by the chance to finish with the most money: the lead now,
  plus what the sales still to come are expected to add (a disk on its way sells back at
  a spun price), against a normal spread of the prices still to spin. With more than
  PLAN_PRICES of them to come that is the expected-value rule (accept $600 or more: a
  re-spin is worth $550); near the end a player behind spins again for a price that can
  still win and a player ahead takes a sure win.

In a two-player game this plays about as well as medium and no better (benchmarks/
SELFPLAY.md): money moves only at spun prices, whose best expected value medium already
takes, and the take-overs that decisions can win are too few to outweigh the spinner.
"""
from __future__ import annotations

import math
from functools import cache

from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.buy_sell import TAKEOVER_PRICE
from stateside.games.game_of_the_states.common import move_ends

TAKEOVER = TAKEOVER_PRICE


@cache
def spinner_numbers() -> tuple[float, dict[int, float], list[int], float, float]:
    """(jam chance, {move: chance} without jams, the prices, mean price, price variance
    under the accept-from-$600 play)."""
    secs = parts.sectors()
    n = len(secs)
    jam = sum(s.jam for s in secs) / n
    moves: dict[int, float] = {}
    for s in secs:
        if not s.jam:
            moves[s.move] = moves.get(s.move, 0.0) + 1 / n
    prices = [s.price for s in secs]
    mean = sum(prices) / n
    # one settled price when the receiver accepts what beats a re-spin's mean
    got = [p for p in prices if p > mean]
    dist = [(p, 1 / n) for p in got] + [(q, (n - len(got)) / n / n) for q in prices]
    m = sum(p * w for p, w in dist)
    var = sum(w * (p - m) ** 2 for p, w in dist)
    return jam, moves, prices, m, var


@cache
def reach() -> tuple[float, ...]:
    """reach()[d]: the chance that one spin lets a truck end its move on a target d states
    away (a target within the move is stopped on; a target one stands on is kept)."""
    jam, moves, *_ = spinner_numbers()
    return tuple(sum(p for k, p in moves.items() if k >= d) for d in range(4)) + (0.0,)


def reach_at(d: int) -> float:
    r = reach()
    return r[min(d, len(r) - 1)]


class Planner:
    """One decision of the hard player, from one observation."""

    # weights in dollars of (our money - the best rival's)
    CATCH_OWN = 1150.0        # taking back our own jammed disk (see above)
    CATCH_OTHER = 450.0       # taking over a rival's disk from another rival (3-4 players)
    STEP = 100.0              # each state still to drive (for all the disks still to buy)
    PLAN_PRICES = 12          # with at most this many prices to come, accept by the chance to win
    LATER = 0.6               # what a chance two turns away is worth against one a turn away

    def __init__(self, obs: dict, seat: int):
        self.obs = obs
        self.me = seat
        self.n = len(obs["names"])
        self.d = parts.distances()
        self._memo: dict = {}

    # --- prices ------------------------------------------------------------------------
    def accept(self) -> bool:
        """Accept the price on offer, or ask for one more spin: whichever gives the better
        chance to finish with the most money."""
        obs, me = self.obs, self.me
        price = obs["price"]
        _, _, prices, _, var = spinner_numbers()
        disk = obs["disks"][obs["disk"]]
        if obs["offer"] in ("price", "price again"):
            payer = obs["turn"]
            cap = None
        else:
            payer = disk["owner"]
            cap = disk.get("cap")
        money = list(obs["money"])

        def got(p: int) -> int:
            if cap is not None:
                p = min(p, cap)
            return min(p, money[payer])

        left = self._prices_to_come() - 1
        rivals = [s for s in range(self.n) if s != me]
        best = max(rivals, key=lambda s: money[s])
        drift = self._drift(best)
        sd = math.sqrt(max(left, 0) * var) * 2 if self.n == 2 else math.sqrt(max(left, 0) * var) * 1.5

        def p_win(p: int) -> float:
            g = got(p)
            mine = money[me] + g
            other = money[best] - (g if payer == best else 0)
            lead = mine - other + drift
            if sd == 0:
                return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
            return 0.5 * (1 + math.erf(lead / (sd * math.sqrt(2))))   # a tie counts half

        mean = sum(prices) / len(prices)
        if left > self.PLAN_PRICES:
            return price > mean
        keep = p_win(price)
        again = sum(p_win(q) for q in prices) / len(prices)
        if abs(keep - again) < 1e-9:
            return price > mean
        return keep > again

    def _drift(self, rival: int) -> float:
        """What the sales still to come are expected to add to our lead over `rival`, the
        disk on offer apart: a disk on its way is sold back to its owner at a spun price
        (about $675), a disk for sale is bought and sold back (even), a disk bought back
        brings $200 from the bank."""
        obs, me = self.obs, self.me
        m = spinner_numbers()[3]
        out = 0.0
        for d, rec in obs["disks"].items():
            if rec["done"]:
                continue
            carrier = rec["carrier"]
            selling_now = d == obs["disk"] and obs["offer"] in ("sale", "sale again")
            if carrier is None and d == obs["disk"] and obs["offer"] in ("price", "price again"):
                carrier = obs["turn"]          # being bought now: its sale is still to come
            if carrier is None or selling_now:
                continue
            if obs["buyback"][carrier]:
                out += 200 if carrier == me else -200 if carrier == rival else 0
                continue
            owner = rec["owner"]
            if carrier == me and owner == rival:
                out += 2 * m
            elif carrier == me:
                out += m
            elif carrier == rival and owner == me:
                out -= 2 * m
            elif carrier == rival:
                out -= m
            elif owner == me:
                out -= m
            elif owner == rival:
                out += m
        return out

    def _prices_to_come(self) -> int:
        """Spun prices still to settle in this game, the one on offer included: two for a
        disk for sale (bought, sold back), one for a disk on its way (none when its owner
        bought it back)."""
        obs = self.obs
        k = 0
        for rec in obs["disks"].values():
            if rec["done"]:
                continue
            if rec["carrier"] is None:
                k += 2
            elif not obs["buyback"][rec["carrier"]]:
                k += 1
        return k

    # --- moves -------------------------------------------------------------------------
    def move(self, legal: list[str]) -> str:
        ends = [a[5:] for a in legal]
        best = max(ends, key=lambda e: (self.value_of_end(e), e))
        return "move:" + best

    def value_of_end(self, e: str) -> float:
        obs, me, d = self.obs, self.me, self.d
        loaded = obs["loads"][me] is not None
        dest = obs["destinations"][me]
        targets = self._targets(me)
        # loaded after the move: delivered, or loaded here (bought, taken over), or as before
        loaded_after = False if loaded and e == dest else True if not loaded and e in targets else loaded
        v = 0.0
        jam = spinner_numbers()[0]
        rich = obs["money"][me] >= TAKEOVER
        for r in range(self.n):
            if r == me or obs["trucks"][r] is None:
                continue
            rpos = obs["trucks"][r]
            r_loaded = obs["loads"][r] is not None and not obs["disks"][obs["loads"][r]]["jam"]
            gain = self._catch_gain(r)
            # the rival's next spin: a jam leaves his disk where he stands, for our next turn
            if r_loaded and not loaded_after and rich:
                v += jam * reach_at(d[e][rpos]) * gain
            for pos, r_loaded2, p in self._rival_moves(r):
                if not loaded_after and r_loaded2 and rich:
                    v += self.LATER * p * jam * reach_at(max(0, d[e][pos] - 2)) * gain
                if loaded_after and not r_loaded2 and obs["money"][r] >= TAKEOVER:
                    # our next spin jams with the disk on board and he is empty and near
                    v -= p * jam * reach_at(d[e][pos]) * self._loss(r)
        # progress: the states still to drive before our work is done (the race: the first
        # with nothing left to buy waits beside the rival's truck, moving freely)
        if loaded:
            if e == dest:
                v -= self.STEP * self._work_empty(e)
            else:
                v -= self.STEP * (d[e][dest] + self._after_delivery(dest))
        elif targets:
            if e in targets:
                if targets[e] == "jam":
                    v += self._jam_gain_here(e)
                    jd = self._jam_dest(e)
                    v -= self.STEP * (d[e][jd] + self._after_delivery(jd)) if jd else 0.0
                else:
                    v -= self.STEP * self._leg(e)
            else:
                v -= self.STEP * self._work_empty(e)
        return v

    def _mean_card(self, t: str) -> float:
        """Bought at t: the mean drive to a destination card still in the pile."""
        key = ("card", t)
        if key not in self._memo:
            cards = self._unseen_cards()
            self._memo[key] = sum(self.d[t][c] for c in cards) / len(cards) if cards else 0.0
        return self._memo[key]

    def _rest(self, left: frozenset) -> float:
        """The mean drive still to come, from a destination card still in the pile, to buy
        and deliver every disk in `left` (nearest first: each delivery ends on a card)."""
        if not left:
            return 0.0
        key = ("rest", left)
        if key not in self._memo:
            cards = self._unseen_cards()
            tail = {x: self._mean_card(x) + self._rest(left - {x}) for x in left}
            total = sum(min(self.d[c][x] + tail[x] for x in left) for c in cards)
            self._memo[key] = total / len(cards) if cards else 0.0
        return self._memo[key]

    def _buyable(self) -> frozenset:
        return frozenset(x for x, k in self._targets(self.me).items() if k == "buy")

    def _leg(self, t: str) -> float:
        """Bought at t: the drive to its destination and then for every other disk."""
        return self._mean_card(t) + self._rest(self._buyable() - {t})

    def _work_empty(self, e: str) -> float:
        """An empty truck at e: the drive for every disk still to buy, the best first."""
        ts = self._buyable()
        if not ts:
            return 0.0
        return min(self.d[e][t] + self._leg(t) for t in ts)

    def _after_delivery(self, dest: str) -> float:
        return self._work_empty(dest)

    def _catch_gain(self, r: int) -> float:
        disk = self.obs["loads"][r]
        if disk is None:
            return 0.0
        owner = self.obs["disks"][disk]["owner"]
        return self.CATCH_OWN if owner == self.me else self.CATCH_OTHER

    def _jam_gain_here(self, e: str) -> float:
        """Taking over the disk a jammed rival left here (the best one, if several)."""
        best = 0.0
        for r in range(self.n):
            load = self.obs["loads"][r]
            if r != self.me and load is not None and self.obs["disks"][load]["jam"] and self.obs["trucks"][r] == e:
                best = max(best, self._catch_gain(r))
        return best

    def _loss(self, r: int) -> float:
        """What a rival's take-over of our jammed disk costs us."""
        return self.CATCH_OWN if self.n == 2 else self.CATCH_OTHER

    def _targets(self, seat: int, bought: str | None = None) -> dict[str, str]:
        obs = self.obs
        out: dict[str, str] = {}
        for rec in obs["disks"].values():
            if rec["done"] or rec["state"] is None:
                continue
            if rec["jam"] and rec["carrier"] != seat:
                if obs["money"][seat] >= TAKEOVER:
                    out[rec["state"]] = "jam"
            elif rec["carrier"] is None and rec["owner"] != seat and rec["state"] != bought:
                out.setdefault(rec["state"], "buy")
        return out

    def _jam_dest(self, e: str) -> str | None:
        obs = self.obs
        for rec in obs["disks"].values():
            if rec["jam"] and rec["state"] == e and rec["carrier"] is not None:
                return obs["destinations"][rec["carrier"]]
        return None

    def _unseen_cards(self) -> list[str]:
        deck = self.obs["deck"]
        if deck["unseen"] == 0:
            return list(deck["bottom"][:1])
        seen = set(deck["bottom"]) | set(deck["discard"]) | {c for c in self.obs["destinations"] if c}
        return [c for c in parts.state_codes() if c not in seen]

    def _rival_moves(self, r: int) -> list[tuple[str, bool, float]]:
        """The rival's next turn if he spins a move: (where he ends, loaded after, chance),
        his move as a player heading for his nearest target makes it."""
        cache_ = self.__dict__.setdefault("_rm", {})
        if r in cache_:
            return cache_[r]
        obs, d = self.obs, self.d
        _, moves, *_ = spinner_numbers()
        here = obs["trucks"][r]
        load = obs["loads"][r]
        loaded = load is not None          # a jammed disk goes back in his truck first
        dest = obs["destinations"][r]
        targets = {dest} if loaded else set(self._targets(r))
        out = []
        for k, p in moves.items():
            ends = move_ends(here, k, targets)
            if targets:
                end = min(ends, key=lambda x: (min(d[x][t] for t in targets), x))
            else:
                end = ends[0]
            if loaded:
                out.append((end, end != dest, p))
            else:
                out.append((end, end in targets, p))
        cache_[r] = out
        return out

