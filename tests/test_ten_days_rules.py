"""10 Days in the USA: the rules engine (Setup, Taking a Turn, Empty Draw Pile, Winning)."""
import random
from collections import Counter

import pytest

from stateside.engine.protocol import CHANCE, SPECTATOR
from stateside.errors import IllegalActionError
from stateside.games.ten_days.cards import face_of, load_cards
from stateside.games.ten_days.rules import DEAL, DISCARD, DRAW, OVER, PLACE, TenDaysState

ALL_CARDS = Counter(face_of(c) for c in load_cards().card_ids())


def new_game(players=2, seed=1, first_player=0, turn_limit=None) -> TenDaysState:
    """A new game whose deck cards (chance) come from Random(seed) until it waits for a seat."""
    game = TenDaysState.new({"players": [f"P{i + 1}" for i in range(players)], "first_player": first_player,
                             "turn_limit": turn_limit})
    game.rng = random.Random(seed)
    deal_cards(game)
    return game


def deal_cards(game: TenDaysState) -> None:
    while game.current_player() == CHANCE:
        outcomes = game.chance_outcomes()
        game.apply_action(game.rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def act(game: TenDaysState, action: str) -> None:
    """A seat's action, then the cards the deck gives."""
    game.apply_action(action)
    deal_cards(game)


def dealt(players=2, seed=1, **kw) -> TenDaysState:
    """A game just after the deal, each player filling their days from day 1 on."""
    game = new_game(players, seed, **kw)
    while game.phase == DEAL:
        act(game, game.legal_actions()[0])
    return game


def rig(game: TenDaysState, seat: int, days: list[str]) -> None:
    """Put the named cards into a player's days, swapping each with the card that was
    there wherever the named card lay, so the 66 cards stay the same."""
    for slot, card in enumerate(days):
        want, old = face_of(card), game.journeys[seat][slot]
        for place in [*game.piles, *game.journeys]:
            if want in place:
                place[place.index(want)] = old
                break
        else:
            if game.held == want:
                game.held = old
            else:
                game.deck[want] -= 1
                game.deck[old] += 1
        game.journeys[seat][slot] = want
    game.deck = +game.deck
    assert game.all_cards() == ALL_CARDS


def draw(game: TenDaysState, card: str) -> None:
    """Draw from the deck, and the deck gives `card` (it was unseen)."""
    game.apply_action("draw")
    game.apply_action(f"card:{card}")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deal_one_card_at_a_time_into_any_empty_day(players):
    """Setup 5-8: each player draws one card at a time, puts it in any empty day; then
    the rest is the draw pile and three cards start three face-up discard piles. (Players
    take their ten cards one after the other; as no one sees another's cards, this is the
    same deal as going round the table.)"""
    game = new_game(players, seed=3, first_player=1)
    order = []
    while game.phase == DEAL:
        seat = game.current
        order.append(seat)
        empty = [i for i, c in enumerate(game.journeys[seat]) if c is None]
        assert game.legal_actions() == [f"day:{i + 1}" for i in empty]
        card = game.held
        slot = empty[len(empty) // 2]  # any empty slot, not only the next one
        act(game, f"day:{slot + 1}")
        assert game.journeys[seat][slot] == card
    assert order == [(1 + k // 10) % players for k in range(10 * players)]
    assert all(None not in j for j in game.journeys)
    assert [len(p) for p in game.piles] == [1, 1, 1]
    assert game.deck_size() == 66 - 10 * players - 3
    assert (game.phase, game.current) == (DRAW, 1)
    assert game.all_cards() == ALL_CARDS


def test_setup_player_count_two_to_four():
    """Overview: 2-4 players."""
    for bad in (1, 5):
        with pytest.raises(ValueError, match="2-4 players"):
            TenDaysState.new({"players": ["P"] * bad})


def test_taking_a_turn_draw_from_deck_or_any_discard_pile():
    """Taking a Turn, 1. Draw a Card: the deck or the top card of any of the three piles."""
    game = dealt()
    assert game.legal_actions() == ["draw", "take:1", "take:2", "take:3"]
    top = game.piles[1][-1]
    act(game, "take:2")
    assert game.held == top and game.piles[1] == [] and game.phase == PLACE


def test_taking_a_turn_replace_any_day_even_a_good_one():
    """Taking a Turn, 2. Place or Discard: replace any one of the 10 cards, whatever it connects."""
    game = dealt()
    rig(game, 0, "CA OR WA ID MT WY CO NE IA plane-red-1".split())
    act(game, "draw")
    drawn = game.held
    assert game.legal_actions() == [f"day:{d}" for d in range(1, 11)] + ["keep"]
    before = list(game.journeys[0])
    game.apply_action("day:2")  # Oregon connects fine; replacing it is still allowed
    assert game.journeys[0][1] == drawn and game.held == "OR" and game.phase == DISCARD
    assert [c for i, c in enumerate(game.journeys[0]) if i != 1] == [c for i, c in enumerate(before) if i != 1]


def test_taking_a_turn_keep_the_journey_and_discard_the_drawn_card():
    """Taking a Turn, 2: keep your journey unchanged and discard the drawn card."""
    game = dealt()
    before = list(game.journeys[0])
    act(game, "draw")
    drawn = game.held
    game.apply_action("keep")
    game.apply_action("discard:3")
    assert game.journeys[0] == before and game.piles[2][-1] == drawn
    assert (game.phase, game.current) == (DRAW, 1)


def test_cards_cannot_be_rearranged():
    """Setup, Important: once placed, cards cannot be rearranged, only replaced."""
    game = dealt()
    act(game, "draw")
    assert all(a == "keep" or a.startswith("day:") for a in game.legal_actions())
    with pytest.raises(IllegalActionError):
        game.apply_action("swap:1:2")


def test_discard_onto_an_empty_pile_first():
    """Taking a Turn, 3: if a discard pile is empty, you must place your discarded card there."""
    game = dealt()
    game.apply_action("take:2")  # pile 2 had one card: now it is empty
    game.apply_action("keep")
    assert game.legal_actions() == ["discard:2"]
    with pytest.raises(IllegalActionError, match="an empty pile first"):
        game.apply_action("discard:1")
    game.apply_action("discard:2")
    assert [len(p) for p in game.piles] == [1, 1, 1]


def test_discard_onto_any_pile_when_none_is_empty():
    """Taking a Turn, 3: the card goes face up on any of the three discard piles."""
    game = dealt()
    act(game, "draw")
    game.apply_action("day:4")
    assert game.legal_actions() == ["discard:1", "discard:2", "discard:3"]


def test_empty_draw_pile_reshuffles_all_but_each_top_card():
    """Empty Draw Pile: shuffle all discards except the top card of each pile into a new deck
    (the deck has no order until a card is drawn, so "shuffled" means: every card of it
    is a chance outcome of the next draw, with equal weight per card)."""
    game = dealt(players=4, seed=5)
    reshuffled = 0
    while reshuffled < 2:
        act(game, "draw")
        game.apply_action("keep")
        if game.deck:
            game.apply_action(f"discard:{game.turns % 3 + 1}")
            continue
        # the last card of the deck has been drawn: the turn's end rebuilds the deck
        piles = [game.piles[0] + [game.held], game.piles[1], game.piles[2]]
        tops = [p[-1] for p in piles]
        buried = Counter(c for p in piles for c in p[:-1])
        game.apply_action("discard:1")
        assert game.reshuffles == reshuffled + 1
        reshuffled = game.reshuffles
        assert [len(p) for p in game.piles] == [1, 1, 1] and game.pile_tops() == tops
        assert game.deck == buried and game.deck_size() > 0
        probe = game.clone()
        probe.apply_action("draw")
        assert sorted(probe.chance_outcomes()) == sorted((f"card:{c}", n / buried.total()) for c, n in buried.items())
        assert game.all_cards() == ALL_CARDS


def test_winning_at_the_end_of_your_turn():
    """Winning the Game: at the end of your turn, a valid journey wins immediately."""
    game = dealt()
    rig(game, 0, "CA OR WA ID MT WY CO NE IA plane-red-1".split())
    draw(game, "MN")
    game.apply_action("day:10")
    assert not game.is_terminal()  # not yet: the turn ends with the discard
    game.apply_action("discard:1")
    assert game.is_terminal() and game.phase == OVER and game.winner == 0
    assert game.returns() == [1.0, 0.0] and game.legal_actions() == []
    assert game.all_cards() == ALL_CARDS


def test_winning_only_the_mover_is_checked():
    """Winning the Game: the check is of your own journey at the end of your turn."""
    game = dealt()
    rig(game, 1, "CA OR WA ID MT WY CO NE IA MN".split())
    act(game, "draw")
    game.apply_action("keep")
    game.apply_action("discard:1")
    assert game.phase == DRAW and game.current == 1 and game.winner is None
    act(game, "draw")
    game.apply_action("keep")
    game.apply_action("discard:1")
    assert game.winner == 1


def test_turn_limit_ends_without_a_winner():
    game = dealt(turn_limit=3)
    for _ in range(3):
        act(game, "draw")
        game.apply_action("keep")
        game.apply_action("discard:1")
    assert game.is_terminal() and game.winner is None and game.returns() == [0.0, 0.0]


def test_clone_is_independent():
    game = dealt()
    copy = game.clone()
    copy.apply_action("draw")
    assert game.phase == DRAW and copy.phase == PLACE and copy.current_player() == CHANCE
    deal_cards(copy)
    assert copy.deck_size() == game.deck_size() - 1 and game.held is None


def test_the_deck_is_drawn_one_chance_card_at_a_time():
    """Setup 4: the cards are mixed face down: every draw is a chance outcome, each unseen
    card equally likely; a card that is not in the deck cannot come from it."""
    game = dealt()
    game.apply_action("draw")
    outcomes = dict(game.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1)
    assert outcomes["card:car"] == pytest.approx(game.deck["car"] / game.deck_size())
    gone = game.piles[0][-1]
    with pytest.raises(IllegalActionError, match="the deck is to give a card"):
        game.apply_action(f"card:{gone}" if game.deck[gone] == 0 else "keep")


@pytest.mark.parametrize("bad", [None, 3, "swap:1:2", "day:0", "day:11", "take:4", "card:ZZ", ["draw"]])
def test_action_from_json_rejects_what_is_no_move(bad):
    with pytest.raises(ValueError, match="not a move of 10 Days"):
        dealt().action_from_json(bad)


def test_illegal_action_changes_nothing():
    game = dealt()
    before = game.observation(0), game.observation(1), Counter(game.deck)
    for bad in ("keep", "discard:1", "card:CA", "swap", 7):
        with pytest.raises(IllegalActionError):
            game.apply_action(bad)
    assert (game.observation(0), game.observation(1), game.deck) == before


# --- who sees what (State.audience, describe, consistent_with) -----------------------------
def test_a_dealt_card_is_seen_by_its_player_alone_and_its_day_by_all():
    game = TenDaysState.new({"players": ["Ann", "Bob"]})
    game.apply_action("card:VA")
    assert game.audience("day:10") is None   # every seat sees which day fills
    assert game.describe("day:10", 0) == game.describe("day:10", None) == "Ann put Virginia on day 10"
    assert game.describe("day:10", 1) == game.describe("day:10", SPECTATOR) == "Ann put a card on day 10"
    game.apply_action("day:10")
    assert game.observation(1)["empty_days"][0] == list(range(1, 10))
    assert game.audience("card:TX") == frozenset({0})
    assert game.describe("card:TX", 0) == "Ann was dealt Texas"
    assert game.describe("card:TX", 1) == "Ann was dealt a card"
    for day in range(1, 9):   # the last card has one day to go to: still seen, still unnamed
        game.apply_action(game.legal_actions()[0])
        game.apply_action(f"day:{day}")
    game.apply_action(game.legal_actions()[0])
    assert game.legal_actions() == ["day:9"] and game.audience("day:9") is None
    assert game.describe("day:9", 1) == "Ann put a card on day 9"


def test_a_card_drawn_from_the_deck_is_seen_by_its_player_alone():
    game = dealt()
    assert game.audience("draw") is None
    game.apply_action("draw")
    assert game.audience("card:car") == frozenset({0})
    assert game.describe("card:car", 0) == "P1 drew an automobile from the deck"
    assert game.describe("card:car", 1) == game.describe("card:car", SPECTATOR) == "P1 drew a card from the deck"


def test_a_replaced_day_is_seen_by_all_but_not_the_cards():
    game = dealt()
    game.apply_action("draw")
    game.apply_action("card:VA")
    assert game.audience("day:3") is None and game.audience("keep") is None
    assert game.describe("day:3", 0).startswith("P1 put Virginia on day 3 in place of ")
    assert game.describe("day:3", 1) == "P1 put the card on day 3 in place of the one there"
    game.apply_action("day:3")
    assert game.observation(1)["replaced"] == 3 and game.observation(1)["held"] is None
    # the discard turns the card up, so its words may name it
    assert game.audience("discard:1") is None
    assert game.describe("discard:1", 1) == game.action_to_string("discard:1")


def test_the_cards_that_start_the_piles_are_seen_by_all():
    game = TenDaysState.new({"players": ["Ann", "Bob"]})
    while game.phase == DEAL:
        game.apply_action(game.legal_actions()[0])
    assert game.pending == "start"
    assert game.audience("card:VA") is None
    assert game.describe("card:VA", 1) == "Virginia was turned up to start a discard pile"


def test_consistent_with_deals_what_a_seat_cannot_see_at_random():
    game = dealt(3, seed=4)
    act(game, "draw")
    act(game, "day:2")            # P1 holds the old day 2, about to discard it
    setup = game.setup
    for seat in range(3):
        obs = game.observation(seat)
        worlds = [TenDaysState.consistent_with(setup, seat, obs, random.Random(i)) for i in range(2)]
        for w in worlds:
            w.check_invariants()
            assert w.observation(seat) == obs
            assert w.current_player() == game.current_player() == 0
            assert w.legal_actions(seat) == game.legal_actions(seat)
            assert w.journeys[seat] == game.journeys[seat] and w.piles == game.piles
        others = [s for s in range(3) if s != seat]
        assert any(worlds[0].journeys[s] != worlds[1].journeys[s] for s in others)
        assert (worlds[0].held == game.held) if seat == 0 else worlds[0].held is not None
        assert Counter(worlds[0].deck) != Counter(worlds[1].deck)
    with pytest.raises(ValueError):
        TenDaysState.consistent_with(setup, 1, game.observation(0), random.Random(0))
