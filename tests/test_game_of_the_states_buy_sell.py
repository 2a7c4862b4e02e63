"""Game of the States, Buy and Sell: every rule of the rulebook (sections named in each test)."""
from __future__ import annotations

import json
import random

import pytest

from stateside.engine.protocol import CHANCE, TERMINAL
from stateside.errors import IllegalActionError
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.buy_sell import BUYBACK_BONUS, TAKEOVER_PRICE
from stateside.games.game_of_the_states.common import move_ends
from stateside.games.game_of_the_states.rules import GameOfTheStates

# Sectors of our spinner (resources/game_of_the_states/spinner.yaml).
MOVE = {1: "spin:0", 3: "spin:1", 2: "spin:2", "jam": "spin:3", 0: "spin:6"}
PRICE = {100: "spin:0", 600: "spin:1", 200: "spin:2", 700: "spin:3", 300: "spin:4", 800: "spin:5",
         400: "spin:6", 900: "spin:7", 500: "spin:8", 1000: "spin:9"}

BLUE_DISKS = ["WA", "OR", "ID", "MT"]
RED_DISKS = ["FL", "TX", "NM", "AZ"]


def new_game(disks=(BLUE_DISKS, RED_DISKS), trucks=("OH", "CA"), first=0, names=("Blue", "Red")):
    """A game set up with these draws; `first` wins the spin-off."""
    g = GameOfTheStates.new({"players": list(names), "variant": "buy-and-sell"})
    for seat, codes in enumerate(disks):
        for code in [*codes, trucks[seat]]:
            g.apply_action(f"card:{code}")
    for seat in range(len(names)):
        g.apply_action(PRICE[1000] if seat == first else PRICE[100])
    assert g.current_player() == CHANCE and g.engine.turn == first
    return g


def drive(g, seat, target, spin=3):
    """One turn of `seat`: spin `spin` and drive as near `target` as the legal ends allow."""
    assert g.engine.turn == seat and g.engine.phase == "spin"
    g.apply_action(MOVE[spin])
    if g.engine.phase == "move":
        ends = [a[5:] for a in g.legal_actions(seat)]
        g.apply_action("move:" + min(ends, key=lambda e: (parts.distance(e, target), e)))


def idle(g, seat):
    """`seat` spins 0 and stays (nothing there)."""
    assert g.engine.turn == seat
    g.apply_action(MOVE[0])


def test_setup_disks_truck_cards_to_bottom_and_money():
    """Setup 2-6: four disks and a truck per player on drawn states, each card returned to
    the bottom of the draw pile; $5,000 each as two $1,000, five $500 and five $100 bills."""
    g = GameOfTheStates.new({"players": ["Blue", "Red"], "variant": "buy-and-sell"})
    for code in [*BLUE_DISKS, "OH", *RED_DISKS, "CA"]:
        assert g.current_player() == CHANCE
        g.apply_action(f"card:{code}")
    e = g.engine
    assert e.deck.bottom == [*BLUE_DISKS, "OH", *RED_DISKS, "CA"]
    assert len(e.deck) == 50 and len(e.deck.unseen) == 40
    assert sorted(r["state"] for d, r in e.disks.items() if r["owner"] == 0) == sorted(BLUE_DISKS)
    assert e.truck == ["OH", "CA"]
    assert e.money == [5000, 5000]
    assert parts.money()["start_bills"]["buy-and-sell"] == {1000: 2, 500: 5, 100: 5}
    # a card already drawn cannot come again during the setup
    assert "card:OH" not in g.legal_actions()


def test_first_player_spin_off_and_ties_spin_again():
    """Play 1: the player who spins the highest number goes first; tied players spin again."""
    g = GameOfTheStates.new({"players": ["A", "B", "C"], "variant": "buy-and-sell"})
    for code in ["WA", "OR", "ID", "MT", "OH", "FL", "TX", "NM", "AZ", "CA", "ME", "VT", "NH", "MA", "NY"]:
        g.apply_action(f"card:{code}")
    g.apply_action(PRICE[900])     # A
    g.apply_action(PRICE[200])     # B
    g.apply_action(PRICE[900])     # C ties A
    assert g.engine.contenders == [0, 2] and g.engine.spinner == 0
    g.apply_action(PRICE[300])     # A
    g.apply_action(PRICE[700])     # C
    assert g.engine.turn == 2 and g.engine.spin_for == "move"


def test_moves_go_toward_a_disk_and_stop_early_on_arrival():
    """Play 2-4: move the number spun toward a state with an opponent's disk; the target
    need not be reached by exact count (early arrival)."""
    g = new_game(trucks=("GA", "CA"))
    g.apply_action(MOVE[3])
    legal = g.legal_actions(0)
    assert "move:FL" in legal          # Florida is one state away: stop there with a 3
    # every other end is three states along a shortest route to a red disk
    for a in legal:
        end = a[5:]
        if end != "FL":
            assert parts.distance("GA", end) == 3
            assert any(parts.distance(end, t) == parts.distance("GA", t) - 3 for t in RED_DISKS)
    assert "move:SC" not in legal      # not toward any red disk
    with pytest.raises(IllegalActionError):
        g.apply_action("move:SC")


def test_alaska_only_through_washington_and_hawaii_only_through_california():
    """Play 4: "You must pass through Washington to reach Alaska. You must pass through
    California to reach Hawaii." """
    assert parts.neighbours()["AK"] == ("WA",)
    assert parts.neighbours()["HI"] == ("CA",)
    assert parts.route("AK", "OR") == ["AK", "WA", "OR"]
    assert parts.route("HI", "NV") == ["HI", "CA", "NV"]
    assert move_ends("AK", 1, {"FL"}) == ["WA"]
    assert move_ends("HI", 1, {"AK"}) == ["CA"]
    assert move_ends("OR", 2, {"AK"}) == ["AK"]   # OR-WA-AK, arriving early is allowed
    assert move_ends("ID", 1, {"AK"}) == ["WA"]


def test_trucks_move_through_states_with_trucks_and_disks():
    """Play 5: "You can move through any state even if there is another truck or product
    disk in that state." Passing over a disk without stopping does not buy it."""
    g = new_game(disks=(BLUE_DISKS, ["KY", "FL", "NM", "AZ"]), trucks=("OH", "TN"))
    g.apply_action(MOVE[2])
    # OH-KY-TN: through the red disk in Kentucky and the red truck in Tennessee
    assert "move:TN" in g.legal_actions(0) and "move:KY" in g.legal_actions(0)
    g.apply_action("move:TN")
    assert g.engine.truck[0] == "TN" and g.engine.load[0] is None
    assert g.engine.turn == 1


def play_rulebook_example():
    """Play 9, the rulebook's example, up to the sale."""
    g = new_game()
    drive(g, 0, "FL")                  # Ohio -> Alabama
    assert g.engine.truck[0] == "AL"
    idle(g, 1)
    g.apply_action(MOVE[1])            # Blue spins 1: Florida
    g.apply_action("move:FL")
    # "the red player says that he is selling oranges"
    assert g.current_player() == 1 and "product:oranges" in g.legal_actions(1)
    g.apply_action("product:oranges")
    assert g.current_player() == CHANCE and g.engine.spinner == 0   # the buyer spins
    g.apply_action(PRICE[500])         # "You spin and pay the red player $500"
    assert g.current_player() == 1 and g.legal_actions(1) == ["accept", "respin"]
    g.apply_action("accept")
    assert g.engine.money == [4500, 5500]
    assert g.engine.load[0] is not None and g.engine.disks[g.engine.load[0]]["owner"] == 1
    # "Immediately draw a new card... Let's say you draw the state of Maine's card"
    assert g.current_player() == CHANCE and g.engine.phase == "draw"
    g.apply_action("card:ME")
    assert g.engine.dest[0] == "ME" and g.engine.turn == 1
    return g


def test_rulebook_example_buy_deliver_and_sell_back():
    """Play 6-9 (the example): buy oranges in Florida for $500, deliver to Maine, the red
    player spins $800 and pays it; the disk goes on the Oranges space, the card is discarded."""
    g = play_rulebook_example()
    while True:
        idle(g, 1)
        drive(g, 0, "ME")
        if g.engine.phase != "spin" or g.engine.truck[0] == "ME":
            break
    assert g.engine.truck[0] == "ME"
    assert g.current_player() == CHANCE and g.engine.spinner == 1     # the red player spins
    g.apply_action(PRICE[800])
    assert g.legal_actions(0) == ["accept", "respin"]                  # Blue receives the money
    g.apply_action("accept")
    assert g.engine.money == [4500 + 800, 5500 - 800]
    assert g.engine.platform[-1][1] == "oranges"
    assert g.engine.deck.discard == ["ME"]
    assert g.engine.load[0] is None and g.engine.dest[0] is None
    g.check_invariants()


def test_trying_for_a_better_price_when_buying_must_take_a_lower_second_price():
    """Trying for a Better Price: the seller asks for another spin and must take the
    second price, even when it is lower than the first."""
    g = new_game(trucks=("GA", "CA"))
    g.apply_action(MOVE[1])
    g.apply_action("move:FL")
    g.apply_action("product:oranges")
    g.apply_action(PRICE[300])
    g.apply_action("respin")
    assert g.current_player() == CHANCE and g.engine.spinner == 0
    g.apply_action(PRICE[100])         # lower: taken all the same, no third spin
    assert g.engine.money == [4900, 5100]
    assert g.engine.phase == "draw"


def test_trying_for_a_better_price_when_selling_back():
    """Trying for a Better Price applies "also when an opponent sells a product back to
    you": the deliverer asks the owner to spin again and takes the second price."""
    g = new_game(trucks=("GA", "CA"))
    g.apply_action(MOVE[1])
    g.apply_action("move:FL")
    g.apply_action("product:oranges")
    g.apply_action(PRICE[500])
    g.apply_action("accept")
    g.apply_action("card:AL")          # Alabama borders Florida
    idle(g, 1)
    g.apply_action(MOVE[1])
    g.apply_action("move:AL")
    g.apply_action(PRICE[400])         # the owner spins $400
    g.apply_action("respin")           # Blue hopes for more
    g.apply_action(PRICE[200])         # ... and gets less
    assert g.engine.money == [4500 + 200, 5500 - 200]
    assert g.engine.turn == 1


def test_after_a_delivery_the_turn_ends_even_with_moves_left():
    """Play 10: after reaching a destination, wait until the next turn to move on."""
    g = new_game(trucks=("GA", "CA"))
    g.apply_action(MOVE[1])
    g.apply_action("move:FL")
    g.apply_action("product:oranges")
    g.apply_action(PRICE[500])
    g.apply_action("accept")
    g.apply_action("card:AL")
    idle(g, 1)
    g.apply_action(MOVE[3])            # Alabama is one away; two moves are left over
    g.apply_action("move:AL")
    g.apply_action(PRICE[900])
    g.apply_action("accept")
    assert g.engine.truck[0] == "AL" and g.engine.turn == 1 and g.engine.phase == "spin"


def test_stays_put_with_a_zero_and_buys_where_it_stands():
    """Play 2: a 0 keeps the truck where it is; a truck standing on an opponent's disk (it
    delivered there, or was stuck there) buys it without moving, with a 0 or by stopping."""
    g = new_game(trucks=("GA", "CA"))
    g.apply_action(MOVE[0])
    assert g.engine.turn == 1 and g.engine.truck[0] == "GA"
    idle(g, 1)
    g.engine.truck[0] = "FL"            # as after a delivery to Florida
    g.apply_action(MOVE[2])
    assert "move:FL" in g.legal_actions(0)
    g.apply_action("move:FL")
    assert g.engine.phase == "product" and g.current_player() == 1
    g2 = new_game(trucks=("GA", "CA"))
    g2.engine.truck[0] = "FL"
    g2.apply_action(MOVE[0])
    assert g2.engine.phase == "product"


def test_the_seller_names_the_product_from_the_states_symbols():
    """Play 6: "He decides based on the symbols pictured on the state"; the disk goes on
    that product's space of the platform."""
    g = new_game(disks=(BLUE_DISKS, ["HI", "TX", "NM", "AZ"]), trucks=("OH", "CA"))
    idle(g, 0)
    g.apply_action(MOVE[1])             # Red, in California: nothing of Blue's is near
    g.apply_action(g.legal_actions(1)[0])
    g.apply_action(MOVE[1])             # Blue
    g.apply_action(g.legal_actions(0)[0])
    g.engine.truck[0] = "CA"
    idle(g, 1)
    g.apply_action(MOVE[1])
    assert g.legal_actions(0) == ["move:AZ", "move:HI"]   # two red disks next door
    g.apply_action("move:HI")
    assert g.legal_actions(1) == [f"product:{p}" for p in parts.products("HI")] == \
        ["product:coffee", "product:macadamia"]
    g.apply_action("product:macadamia")
    assert g.engine.disks[g.engine.disk]["product"] == "macadamia"
    assert all(1 <= len(parts.products(c)) <= 4 for c in parts.state_codes())


def test_traffic_jam_with_an_empty_truck_loses_the_turn():
    """Traffic Jams: the truck stays on its state until the next turn."""
    g = new_game()
    g.apply_action(MOVE["jam"])
    assert g.engine.truck[0] == "OH" and g.engine.turn == 1


def jammed_game():
    """Blue bought Red's Florida disk (card: Maine) and is stuck in Georgia with it."""
    g = new_game(trucks=("GA", "AL"))
    g.apply_action(MOVE[1])
    g.apply_action("move:FL")
    g.apply_action("product:oranges")
    g.apply_action(PRICE[500])
    g.apply_action("accept")
    g.apply_action("card:ME")
    idle(g, 1)
    g.apply_action(MOVE[1])
    g.apply_action("move:GA")
    idle(g, 1)
    g.apply_action(MOVE["jam"])
    return g


def test_traffic_jam_leaves_the_disk_on_the_state():
    """Traffic Jams: "If you are delivering a product disk, take the disk out of your truck
    and place it on the state you're stuck in." """
    g = jammed_game()
    e = g.engine
    d = e.load[0]
    assert e.disks[d]["jam"] and e.disks[d]["state"] == "GA" and e.truck[0] == "GA"
    assert e.dest[0] == "ME"           # the stuck player keeps the card
    assert e.turn == 1
    g.check_invariants()


def test_traffic_jam_disk_goes_back_in_the_truck_at_the_next_turn():
    """Traffic Jams, third case: nobody took it before the stuck player's next turn: the
    disk goes back in the truck and he goes on toward his destination."""
    g = jammed_game()
    idle(g, 1)                          # Red stays in Alabama
    e = g.engine
    d = e.load[0]
    assert not e.disks[d]["jam"] and e.disks[d]["carrier"] == 0 and e.disks[d]["state"] is None
    g.apply_action(MOVE[2])
    assert all(parts.distance(a[5:], "ME") == parts.distance("GA", "ME") - 2 for a in g.legal_actions(0))


def test_traffic_jam_disk_taken_over_by_an_empty_truck_for_200():
    """Traffic Jams, first case: another player with an empty truck reaches the state,
    takes the disk, pays $200, takes the card, completes the delivery and sells as usual."""
    # Red's disk is jammed with Blue: a third player (Green) takes it over
    g = new_game(disks=(BLUE_DISKS, RED_DISKS, ["ME", "VT", "NH", "MA"]), trucks=("GA", "AL", "SC"),
                 names=("Blue", "Red", "Green"))
    g.apply_action(MOVE[1]); g.apply_action("move:FL"); g.apply_action("product:oranges")
    g.apply_action(PRICE[500]); g.apply_action("accept"); g.apply_action("card:NY")
    idle(g, 1)                          # Red
    idle(g, 2)                          # Green
    g.apply_action(MOVE[1]); g.apply_action("move:GA")
    idle(g, 1)
    idle(g, 2)
    g.apply_action(MOVE["jam"])         # Blue stuck in Georgia with the disk
    idle(g, 1)
    money = list(g.engine.money)
    g.apply_action(MOVE[1])             # Green, in South Carolina, one state from Georgia
    assert "move:GA" in g.legal_actions(2)
    g.apply_action("move:GA")
    e = g.engine
    assert e.money[2] == money[2] - TAKEOVER_PRICE and e.money[0] == money[0] + TAKEOVER_PRICE
    assert e.load[0] is None and e.dest[0] is None
    assert e.dest[2] == "NY" and e.disks[e.load[2]]["owner"] == 1
    assert e.turn == 0
    # Blue's next turn: his truck is empty and he looks for another disk
    assert e.targets(0) == {"ME", "VT", "NH", "MA", "TX", "NM", "AZ"}
    # Green delivers and Red, the owner, spins and pays Green as usual
    while e.truck[2] != "NY":
        idle(g, 0)
        idle(g, 1)
        drive(g, 2, "NY")
    assert g.current_player() == CHANCE and e.spinner == 1
    g.apply_action(PRICE[700])
    g.apply_action("accept")
    assert e.platform[-1] == (next(d for d, _ in e.platform[-1:]), "oranges")
    g.check_invariants()


def test_traffic_jam_buy_back_of_ones_own_disk_no_spin_200_from_the_bank():
    """Traffic Jams, second case: "If you should buy back one of your own disks, deliver the
    product to its destination and then place it on the platform. Don't spin. Collect $200
    from the bank." (He pays the stuck player $200 as in any take-over.)"""
    g = jammed_game()                   # Red's own disk is jammed in Georgia with Blue
    money = list(g.engine.money)
    g.apply_action(MOVE[1])             # Red, in Alabama
    assert "move:GA" in g.legal_actions(1)
    g.apply_action("move:GA")
    e = g.engine
    assert e.buyback[1] and e.dest[1] == "ME" and e.load[0] is None
    assert e.money == [money[0] + TAKEOVER_PRICE, money[1] - TAKEOVER_PRICE]
    bank = e.bank
    while e.truck[1] != "ME":
        idle(g, 0)
        drive(g, 1, "ME")
    assert e.phase != "decide" and e.spin_for == "move"      # no spin for the price
    assert e.money[1] == money[1] - TAKEOVER_PRICE + BUYBACK_BONUS and e.bank == bank - BUYBACK_BONUS
    assert all(r["done"] for r in e.disks.values() if r["state"] is None and r["carrier"] is None
               and r["owner"] == 1 and r["product"] == "oranges")
    g.check_invariants()


def test_a_loaded_truck_does_not_take_a_jammed_disk():
    """Traffic Jams: only "another player with an empty truck" takes the disk over."""
    g = jammed_game()
    e = g.engine
    e.load[1] = "0.0"                   # pretend Red carries one of Blue's disks to Texas
    e.disks["0.0"].update(state=None, carrier=1)
    e.dest[1] = "TX"
    assert e.targets(1) == {"TX"}


def test_special_rule_3_redraws_a_card_naming_the_trucks_state_or_a_disk_of_buyer_or_seller():
    """Play 7, "(See Special Rule #3.)", not printed: our decision. A destination card naming
    the truck's own state, a state with the buyer's disk for sale or one with the seller's
    disk for sale goes to the bottom of the draw pile and another is drawn."""
    g = new_game(trucks=("GA", "CA"))
    g.apply_action(MOVE[1]); g.apply_action("move:FL"); g.apply_action("product:oranges")
    g.apply_action(PRICE[500]); g.apply_action("accept")
    e = g.engine
    # The truck stands on a disk's state, drawn at the setup: such cards lie at the bottom
    # and come up once the unseen cards are gone. Put the three cases on top.
    rest = [c for c in e.deck.bottom if c not in ("FL", "WA", "TX")]
    e.deck.bottom = ["FL", "WA", "TX"] + rest + sorted(e.deck.unseen)
    e.deck.unseen.clear()
    for code in ("FL", "WA", "TX"):    # the truck's state, a blue disk (buyer), a red one (seller)
        assert g.chance_outcomes() == [(f"card:{code}", 1.0)]
        g.apply_action(f"card:{code}")
        assert e.phase == "draw" and e.deck.bottom[-1] == code and e.dest[0] is None
    nxt = rest[0]
    assert nxt == "OR"                  # also a blue disk: back to the bottom again
    g.apply_action("card:OR")
    while e.phase == "draw":
        g.apply_action(g.legal_actions()[0])
    assert e.dest[0] == "GA"            # Blue's setup truck card: a free state now
    g.check_invariants()


def test_special_rule_3_the_buyers_own_disk_and_the_trucks_state():
    g = new_game(disks=(["WA", "OR", "ID", "KS"], RED_DISKS), trucks=("GA", "CA"))
    g.apply_action(MOVE[1]); g.apply_action("move:FL"); g.apply_action("product:oranges")
    g.apply_action(PRICE[500]); g.apply_action("accept")
    e = g.engine
    assert e._bad_destination("FL")        # the truck is in Florida
    assert e._bad_destination("KS")        # a blue (buyer's) disk is for sale in Kansas
    assert e._bad_destination("NM")        # a red (seller's) disk
    assert not e._bad_destination("ME")


def test_a_player_short_of_money_pays_all_he_has():
    """Our decision: nobody pays more than he has."""
    g = new_game(trucks=("GA", "CA"))
    g.engine.money = [300, 9700]
    g.apply_action(MOVE[1]); g.apply_action("move:FL"); g.apply_action("product:oranges")
    g.apply_action(PRICE[900]); g.apply_action("accept")
    assert g.engine.money == [0, 10000]
    g.check_invariants()


def test_the_game_ends_when_every_disk_is_on_the_platform_most_money_wins():
    """Play 11 and the end: all disks removed from the board; the most money wins."""
    g = new_game(trucks=("GA", "CA"))
    e = g.engine
    # leave one disk to deliver: the others are on the platform already
    for d, rec in e.disks.items():
        if d != "1.0":
            rec.update(state=None, carrier=None, done=True, product="cattle")
            e.platform.append((d, "cattle"))
    g.apply_action(MOVE[1]); g.apply_action("move:FL"); g.apply_action("product:oranges")
    g.apply_action(PRICE[500]); g.apply_action("accept"); g.apply_action("card:AL")
    idle(g, 1)
    g.apply_action(MOVE[1]); g.apply_action("move:AL")
    g.apply_action(PRICE[1000]); g.apply_action("accept")
    assert g.is_terminal() and g.current_player() == TERMINAL
    assert g.engine.money == [5500, 4500] and g.returns() == [1.0, 0.0]
    assert g.scores() == [5500.0, 4500.0]


def test_illegal_actions_change_nothing():
    g = new_game()
    before = g.observation(0)
    for bad in ("move:OH", "accept", "card:ZZ", 7, None, "spin:99"):
        with pytest.raises(IllegalActionError):
            g.apply_action(bad)
    assert g.observation(0) == before
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []   # a chance node


def test_plain_english_names_the_players():
    g = new_game()
    assert g.action_to_string(MOVE[3]) == "Blue spun 3 to move"
    g.apply_action(MOVE[3])
    assert g.action_to_string("move:AL") == "Blue drove from Ohio to Alabama"


def test_with_two_things_to_do_in_a_state_the_player_chooses():
    """Our decision: a disk for sale and a jammed disk in one state: the player picks one."""
    g = jammed_game()                   # Red's Florida disk jammed in Georgia with Blue
    e = g.engine
    e.disks["0.0"]["state"] = "GA"      # and a blue disk for sale in Georgia (was Washington)
    g.apply_action(MOVE[1])             # Red, in Alabama
    g.apply_action("move:GA")
    assert e.phase == "deal" and g.legal_actions(1) == ["buy:0", "takeover:0"]
    g.apply_action("buy:0")
    assert e.phase == "product" and e.disk == "0.0"


def test_buy_and_sell_hides_nothing_and_a_world_from_any_seat_is_the_game():
    """Spins and cards are face up (destination cards too, our decision): every seat sees
    every action, and consistent_with rebuilds the game itself from one seat's view, in a
    spin-off after a tie, while a product is named and with a price on offer."""
    g = GameOfTheStates.new({"players": ["Blue", "Red", "Green"], "variant": "buy-and-sell"})
    for code in [*BLUE_DISKS, "OH", *RED_DISKS, "CA", "ME", "VT", "NH", "MA", "NV"]:
        g.apply_action(f"card:{code}")
    g.apply_action(PRICE[1000])
    g.apply_action(PRICE[1000])
    g.apply_action(PRICE[100])                    # Blue and Red tie: they spin again

    def same_world(seat):
        obs = json.loads(json.dumps(g.observation(seat)))
        w = GameOfTheStates.consistent_with(g.setup, seat, obs, random.Random(seat))
        w.check_invariants()
        assert [w.observation(s) for s in range(3)] == [g.observation(s) for s in range(3)]
        assert w.legal_actions() == g.legal_actions()
        return w

    assert g.observation(2)["contenders"] == [0, 1]
    w = same_world(2)
    for action in (PRICE[900], PRICE[300]):       # Blue goes first, in both
        assert g.audience(action) is None and g.describe(action, 2) == g.describe(action, None)
        w.apply_action(action)
        g.apply_action(action)
    assert w.engine.turn == g.engine.turn == 0
    drive(g, 0, "WA")                             # Blue heads for Red's disks
    while g.engine.phase != "product":
        seat = g.engine.turn
        drive(g, seat, "TX" if seat == 0 else "ME")
    assert g.current_player() == 1
    same_world(0)
    g.apply_action(g.legal_actions(1)[0])
    g.apply_action(PRICE[500])                    # Red decides on $500
    assert g.engine.phase == "decide"
    w = same_world(2)
    for g_ in (g, w):
        g_.apply_action("respin")
    assert w.observation(0) == g.observation(0) and w.engine.spin_for == g.engine.spin_for


def test_a_disk_bought_short_of_money_sells_back_for_no_more_than_was_paid():
    """Our rule (issue 24): paying all you have buys the disk, but it cannot then be sold
    back at a full spun price: a purchase made short of money never earns more than it cost."""
    g = new_game(trucks=("GA", "CA"))
    g.engine.money = [300, 9700]
    g.apply_action(MOVE[1]); g.apply_action("move:FL"); g.apply_action("product:oranges")
    g.apply_action(PRICE[900]); ev = g.apply_action("accept")
    assert g.engine.money == [0, 10000] and g.engine.disks["1.0"]["cap"] == 300
    assert any("$300 at most" in e.text for e in ev)
    g.apply_action("card:AL")
    idle(g, 1)
    g.apply_action(MOVE[1]); g.apply_action("move:AL")
    g.apply_action(PRICE[1000]); ev = g.apply_action("accept")
    assert g.engine.money == [300, 9700]      # the $1,000 spun is capped at the $300 paid
    assert any("capped at the $300" in e.text for e in ev)
    g.check_invariants()


def test_a_take_over_needs_the_200():
    g = new_game(trucks=("GA", "CA"))
    e = g.engine
    e.money = [100, 9900]
    e.load[1] = "0.0"                   # Red's truck, stuck in Maine with a Blue disk
    e.disks["0.0"].update(state="ME", carrier=1, jam=True)
    e.truck[1] = "ME"
    assert e.for_sale("ME") is None and "ME" not in e.targets(0)
    e.money = [200, 9800]
    assert "ME" in e.targets(0)
