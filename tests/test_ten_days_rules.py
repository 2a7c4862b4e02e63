"""10 Days in the USA: the rules engine (Setup, Taking a Turn, Empty Draw Pile, Winning)."""
import json
from collections import Counter

import pytest

from stateside.errors import IllegalActionError, SaveError
from stateside.games.ten_days.cards import load_cards
from stateside.games.ten_days.rules import DEAL, DISCARD, DRAW, OVER, PLACE, Setup, TenDaysGame

ALL_CARDS = Counter(load_cards().card_ids())


def dealt(players=2, seed=1, **kw) -> TenDaysGame:
    """A game just after the deal, each player filling their days from day 1 on."""
    game = TenDaysGame(Setup(players, seed, **kw))
    while game.phase == DEAL:
        game.apply_action(game.legal_actions()[0])
    return game


def rig(game: TenDaysGame, seat: int, days: list[str]) -> None:
    """Put the named cards into a player's days, swapping each with the card that was
    there wherever the named card lay, so the 66 cards stay the same."""
    ids = {c: c for c in load_cards().card_ids()}
    places = [game.deck, *game.piles, *game.journeys]
    for slot, card in enumerate(days):
        want = ids[card]
        for place in places:
            if want in place:
                place[place.index(want)] = game.journeys[seat][slot]
                break
        else:
            assert game.held == want
            game.held = game.journeys[seat][slot]
        game.journeys[seat][slot] = want
    assert Counter(game.all_cards()) == ALL_CARDS


def put_on_deck(game: TenDaysGame, card: str) -> None:
    """Make `card` the top of the deck, swapping it with the card that was there."""
    top = game.deck[-1]
    for place in [game.deck, *game.piles, *game.journeys]:
        if card in place:
            place[place.index(card)] = top
            break
    game.deck[-1] = card
    assert Counter(game.all_cards()) == ALL_CARDS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deal_one_card_at_a_time_into_any_empty_day(players):
    """Setup 5-8: each player draws one card at a time, puts it in any empty day; then
    the rest is the draw pile and three cards start three face-up discard piles. (Players
    take their ten cards one after the other; as no one sees another's cards, this is the
    same deal as going round the table.)"""
    game = TenDaysGame(Setup(players, seed=3, first_player=1))
    order = []
    while game.phase == DEAL:
        seat = game.current
        order.append(seat)
        empty = [i for i, c in enumerate(game.journeys[seat]) if c is None]
        assert game.legal_actions() == [f"day:{i + 1}" for i in empty]
        card = game.held
        slot = empty[len(empty) // 2]  # any empty slot, not only the next one
        game.apply_action(f"day:{slot + 1}")
        assert game.journeys[seat][slot] == card
    assert order == [(1 + k // 10) % players for k in range(10 * players)]
    assert all(None not in j for j in game.journeys)
    assert [len(p) for p in game.piles] == [1, 1, 1]
    assert len(game.deck) == 66 - 10 * players - 3
    assert (game.phase, game.current) == (DRAW, 1)
    assert Counter(game.all_cards()) == ALL_CARDS


def test_setup_player_count_two_to_four():
    """Overview: 2-4 players."""
    for bad in (1, 5):
        with pytest.raises(ValueError, match="2-4 players"):
            Setup(bad, seed=0)


def test_taking_a_turn_draw_from_deck_or_any_discard_pile():
    """Taking a Turn, 1. Draw a Card: the deck or the top card of any of the three piles."""
    game = dealt()
    assert game.legal_actions() == ["draw", "take:1", "take:2", "take:3"]
    top = game.piles[1][-1]
    game.apply_action("take:2")
    assert game.held == top and game.piles[1] == [] and game.phase == PLACE


def test_taking_a_turn_replace_any_day_even_a_good_one():
    """Taking a Turn, 2. Place or Discard: replace any one of the 10 cards, whatever it connects."""
    game = dealt()
    rig(game, 0, "CA OR WA ID MT WY CO NE IA plane-red-1".split())
    game.apply_action("draw")
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
    game.apply_action("draw")
    drawn = game.held
    game.apply_action("keep")
    game.apply_action("discard:3")
    assert game.journeys[0] == before and game.piles[2][-1] == drawn
    assert (game.phase, game.current) == (DRAW, 1)


def test_cards_cannot_be_rearranged():
    """Setup, Important: once placed, cards cannot be rearranged, only replaced."""
    game = dealt()
    game.apply_action("draw")
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
    game.apply_action("draw")
    game.apply_action("day:4")
    assert game.legal_actions() == ["discard:1", "discard:2", "discard:3"]


def test_empty_draw_pile_reshuffles_all_but_each_top_card():
    """Empty Draw Pile: shuffle all discards except the top card of each pile into a new deck."""
    game = dealt(players=4, seed=5)
    reshuffled = 0
    while reshuffled < 2:
        game.apply_action("draw")
        game.apply_action("keep")
        if game.deck:
            game.apply_action(f"discard:{game.turns % 3 + 1}")
            continue
        # the last card of the deck has been drawn: the turn's end rebuilds the deck
        piles = [game.piles[0] + [game.held], game.piles[1], game.piles[2]]
        tops = [p[-1] for p in piles]
        buried = sorted(c for p in piles for c in p[:-1])
        game.apply_action("discard:1")
        assert game.reshuffles == reshuffled + 1
        reshuffled = game.reshuffles
        assert [len(p) for p in game.piles] == [1, 1, 1] and game.pile_tops() == tops
        assert sorted(game.deck) == buried and len(game.deck) > 0
        assert sorted(game.deck) != game.deck or len(set(game.deck)) < 2  # shuffled, not stacked
        assert Counter(game.all_cards()) == ALL_CARDS


def test_winning_at_the_end_of_your_turn():
    """Winning the Game: at the end of your turn, a valid journey wins immediately."""
    game = dealt()
    rig(game, 0, "CA OR WA ID MT WY CO NE IA plane-red-1".split())
    put_on_deck(game, "MN")
    game.apply_action("draw")
    game.apply_action("day:10")
    assert not game.is_terminal()  # not yet: the turn ends with the discard
    game.apply_action("discard:1")
    assert game.is_terminal() and game.phase == OVER and game.winner == 0
    assert game.returns() == [1.0, 0.0] and game.legal_actions() == []
    assert Counter(game.all_cards()) == ALL_CARDS


def test_winning_only_the_mover_is_checked():
    """Winning the Game: the check is of your own journey at the end of your turn."""
    game = dealt()
    rig(game, 1, "CA OR WA ID MT WY CO NE IA MN".split())
    game.apply_action("draw")
    game.apply_action("keep")
    game.apply_action("discard:1")
    assert game.phase == DRAW and game.current == 1 and game.winner is None
    game.apply_action("draw")
    game.apply_action("keep")
    game.apply_action("discard:1")
    assert game.winner == 1


def test_turn_limit_ends_without_a_winner():
    game = dealt(turn_limit=3)
    for _ in range(3):
        game.apply_action("draw")
        game.apply_action("keep")
        game.apply_action("discard:1")
    assert game.is_terminal() and game.winner is None and game.returns() == [0.0, 0.0]


def test_same_seed_same_game_and_json_round_trip():
    game = dealt(players=3, seed=11)
    for action in ("draw", "day:3", "discard:2", "take:2", "keep", "discard:1"):
        game.apply_action(action)
    data = json.loads(json.dumps(game.to_json()))
    again = TenDaysGame.from_json(data)
    for attr in ("deck", "piles", "journeys", "current", "phase", "held", "turns", "actions"):
        assert getattr(again, attr) == getattr(game, attr), attr
    assert again.rng.getstate() == game.rng.getstate()


def test_clone_is_independent():
    game = dealt()
    copy = game.clone()
    copy.apply_action("draw")
    assert game.phase == DRAW and copy.phase == PLACE and len(copy.deck) == len(game.deck) - 1


def test_undone_replays_the_same_shuffles():
    game = dealt()
    game.apply_action("draw")
    drawn = game.held
    back = game.undone(1)
    assert back.phase == DRAW and back.deck[-1] == drawn and back.actions == game.actions[:-1]


@pytest.mark.parametrize("data,message", [
    ("not a dict", "not a mapping"),
    ({"version": 9}, "version 9 is not supported"),
    ({"version": 1, "seed": 1, "first_player": 0, "actions": []}, "no 'players'"),
    ({"version": 1, "players": 7, "seed": 1, "first_player": 0, "actions": []}, "setup is not valid"),
    ({"version": 1, "players": 2, "seed": "x", "first_player": 0, "actions": []}, "setup is not valid"),
    ({"version": 1, "players": 2, "seed": 1, "first_player": 0, "actions": "draw"}, "no list of actions"),
    ({"version": 1, "players": 2, "seed": 1, "first_player": 0, "actions": ["draw"]}, "action 1 does not replay"),
])
def test_from_json_rejects_bad_saves_clearly(data, message):
    with pytest.raises(SaveError, match=message):
        TenDaysGame.from_json(data)


def test_from_json_wrong_types_says_which_fields():
    data = {"version": 1, "players": 2, "seed": 1, "first_player": 0, "actions": [], "turn_limit": True}
    with pytest.raises(SaveError, match="must be whole numbers"):
        TenDaysGame.from_json(data)
