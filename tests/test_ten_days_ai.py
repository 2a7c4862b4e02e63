"""10 Days in the USA: the "cards still to change" measure, the computer players and
seeded self-play with the cards counted at every step."""
import random
from collections import Counter

import pytest

from stateside.engine.protocol import CHANCE
from stateside.games.ten_days.ai import (
    DistancePlayer, analyse, changes_needed, make_player, tables,
)
from stateside.games.ten_days.cards import face_of, load_cards
from stateside.games.ten_days.journey import check_journey
from stateside.games.ten_days.rules import DEAL, DRAW, ROUNDS_LIMIT, TenDaysState, full_deck
from stateside.selfplay import play_match

from long_runs import games

CARDS = load_cards()
ALL_CARDS = sorted(CARDS.card_ids())
FACES = sorted({face_of(c) for c in ALL_CARDS})


def random_hands(count, seed=0):
    rng = random.Random(seed)
    return [[face_of(c) for c in rng.sample(ALL_CARDS, 10)] for _ in range(count)]


def test_distance_zero_exactly_for_valid_journeys():
    valid = "CA OR WA ID MT WY CO NE IA MN".split()
    assert analyse(valid).distance == 0 and changes_needed(valid) == 0
    for hand in random_hands(200):
        assert (analyse(hand).distance == 0) == check_journey(hand).valid


def test_single_change_tables_match_a_fresh_analysis():
    rng = random.Random(4)
    for hand in random_hands(30, seed=1):
        a = analyse(hand)
        for _ in range(8):
            slot, face = rng.randrange(10), rng.choice(FACES)
            trial = list(hand)
            trial[slot] = face
            assert a.after(face, tables())[slot] \
                == analyse(trial).distance, (hand, slot, face)


def test_one_bad_card_needs_one_change():
    """Completing a Journey: day 10 must be a state card, so an airplane there costs one change."""
    hand = "CA OR WA ID MT WY CO NE IA plane-red".split()
    assert analyse(hand).distance == changes_needed(hand) == 1


def test_exact_count_respects_one_card_per_state():
    """The planned journey may not use Vermont twice: the only red state beside New York
    that Pennsylvania's red airplane could reach is Vermont, already on day 10."""
    hand = "VA WV PA plane-red OR NY CT RI MA VT".split()
    assert analyse(hand).distance == 1
    assert changes_needed(hand) == 2


def test_lower_bound_never_exceeds_the_exact_count():
    for hand in random_hands(40, seed=2):
        assert analyse(hand).distance <= changes_needed(hand)


def test_empty_slots_count_as_changes_during_the_deal():
    hand = "CA OR WA ID MT WY CO NE IA MN".split()
    hand[3] = None
    assert analyse(hand).distance == 1


def test_player_levels():
    for level in ("easy", "medium", "hard"):
        assert hasattr(make_player(level, 0, random.Random(1)), "choose")
    with pytest.raises(ValueError, match="unknown level 'godlike'"):
        make_player("godlike", 0, random.Random(1))


def _deal_cards(game, rng):
    while game.current_player() == CHANCE:
        outcomes = game.chance_outcomes()
        game.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def _after_deal(seed=3):
    game = TenDaysState.new({"players": ["A", "B"]})
    rng = random.Random(seed)
    _deal_cards(game, rng)
    while game.phase == DEAL:
        game.apply_action(game.legal_actions()[0])
        _deal_cards(game, rng)
    game.rng = rng
    return game


def _rig(game, seat, days):
    """Swap the named cards into a player's days, wherever they lay (66 cards kept)."""
    for slot, card in enumerate(days):
        old = game.journeys[seat][slot]
        for place in [*game.piles, *game.journeys]:
            if card in place:
                place[place.index(card)] = old
                break
        else:
            game.deck[card] -= 1
            game.deck[old] += 1
        game.journeys[seat][slot] = card
    game.deck = +game.deck
    game.check_invariants()


def _choose(player, game):
    return player.choose(game.observation(game.current), game.legal_actions(game.current))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_computer_takes_the_discard_that_completes_its_journey(level):
    game = _after_deal()
    # seat 0 holds a journey one card short; Minnesota lies on top of discard pile 2
    want = "CA OR WA ID MT WY CO NE IA MN".split()
    _rig(game, 0, want[:9])
    top = game.piles[1][-1]
    for place in [*game.piles, *game.journeys]:
        if "MN" in place:
            place[place.index("MN")] = top
            break
    else:
        game.deck["MN"] -= 1
        game.deck[top] += 1
        game.deck = +game.deck
    game.piles[1][-1] = "MN"
    game.check_invariants()
    player = make_player(level, 0, random.Random(0))
    assert game.phase == DRAW and _choose(player, game) == "take:2"
    game.apply_action("take:2")
    assert _choose(player, game) == "day:10"
    game.apply_action("day:10")
    game.apply_action(_choose(player, game))
    assert game.winner == 0


def test_hard_prefers_the_journey_more_cards_would_complete():
    """Two places for the drawn card keep the count the same; the careful player keeps
    the journey that more unseen cards would finish."""
    player = DistancePlayer(0, random.Random(0), careful=True)
    open_end = "CA OR WA ID MT WY CO NE IA plane-red".split()   # many states end it
    narrow = "ME NH VT NY PA OH IN IL WI plane-red".split()       # WI's neighbours: MN, IA, MI, IL
    unseen = Counter(FACES)
    assert player._prospect(open_end, unseen) <= player._prospect(narrow, unseen)


def test_hard_beats_random_in_every_one_of_ten_games():
    for seed in range(10):
        record = play_match("ten-days", ["ai:hard", "random"], seed)
        assert record.winners == [0]


# Seeded self-play games: 60 in the default run, 500 in the long run (benchmarks/SELFPLAY.md).
SELFPLAY_GAMES = games(60, 500)


def test_selfplay_games_conserve_the_66_cards_and_end_properly():
    """Seeded games (2-4 players, every level and random players): after every action
    the 66 cards are all somewhere; each game ends with a valid winning journey or at the
    turn limit (seed 5, two random players, reaches the limit: so the default run sees
    both endings)."""
    lineups = [["ai:easy", "random"], ["ai:medium", "ai:easy"], ["ai:hard", "random", "ai:easy"],
               ["random", "ai:easy", "ai:easy", "random"], ["ai:easy", "ai:easy", "ai:hard"],
               ["random", "random"]]
    outcomes = Counter()
    for seed in range(SELFPLAY_GAMES):
        players = lineups[seed % len(lineups)]
        record = play_match("ten-days", players, seed)
        game = TenDaysState.new(record.match.initial_setup)
        for action in record.match.actions:
            game.apply_action(action)
            assert game.all_cards() == full_deck()
        assert game.is_terminal()
        if record.winners:
            assert record.winners == [game.winner]
            assert check_journey(game.journeys[game.winner]).valid
            outcomes["won"] += 1
        else:
            assert game.turns == ROUNDS_LIMIT * len(players)
            outcomes["turn limit"] += 1
    print(f"10 Days self-play, {SELFPLAY_GAMES} games: {dict(outcomes)}")
    assert outcomes["won"] > SELFPLAY_GAMES // 2 and outcomes["turn limit"] > 0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_computer_never_breaks_a_finished_journey(level):
    """Winning the Game: a journey that is already valid (dealt so, say) wins at the end of
    the turn; no computer level trades it for a broken one, whatever it draws (swapping in
    a card that keeps it valid, an automobile for Oregon between California and Washington,
    is fine)."""
    for seed in range(12):
        game = _after_deal(seed)
        _rig(game, 0, "CA OR WA ID MT WY CO NE IA MN".split())
        player = make_player(level, 0, random.Random(seed))
        while not game.is_terminal():
            game.apply_action(_choose(player, game))
            _deal_cards(game, game.rng)
        assert game.winner == 0 and game.turns == 1 and check_journey(game.journeys[0]).valid, (level, seed)
