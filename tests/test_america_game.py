"""America game flow: turns, markers, six cards, tie-breaks, topics, saving
(rulebooks/america.txt, "How to Play" to "End of the Game")."""
import json
import random

import pytest

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.errors import IllegalActionError, SaveError
from stateside.games.america.deck import Card, Question, Topic
from stateside.games.america.rules import CARDS_PER_GAME, AmericaGame

# Every topic of the test deck has the same answers: year 1880 (the 1875 space),
# Florida, and 12 million (the 10M space). A far-off miss is the 1492 space.
EXACT_YEAR, EXACT_STATE, EXACT_NUMBER, MISS = "place:year:1875", "place:state:FL", "place:number:10M", "place:year:1492"


def make_deck(cards: int = 12, year=1880, state="FL", number=12_000_000) -> tuple:
    deck = []
    for n in range(1, cards + 1):
        topics = tuple(
            Topic(f"Topic {n}{side}", n, side,
                  Question("In what year?", year, "Year background.", "test"),
                  Question("In what state?", state, "State background.", "test"),
                  Question("How many?", number, "Number background.", "test", unit="visitors"))
            for side in "AB")
        deck.append(Card(n, topics))
    return tuple(deck)


class Dealt(AmericaGame):
    """A game whose box is drawn as soon as it must show a topic: in `topic_order` when
    given, else at random under `seed` (as the match layer would), so that the tests
    play the seats' actions only."""

    def __init__(self, setup, deck, topic_order=None, seed=0):
        self.topic_order = topic_order
        self.rng = random.Random(seed)
        super().__init__(setup, deck=deck)
        self.deal()

    def deal(self) -> None:
        while self.current_player() == CHANCE:
            box = [a for a, _ in self.chance_outcomes()]
            if self.topic_order is None:
                draw = self.rng.choice(box)
            else:
                draw = next(f"draw:{t}" for t in self.topic_order if f"draw:{t}" in box)
            super().apply_action(draw)

    def apply_action(self, action):
        events = super().apply_action(action)
        self.deal()
        return events


def new_game(n=2, deck=None, topic_order=None, seed=0, used_topics=(), start_player=0,
             v1_rules=False) -> AmericaGame:
    setup = {"players": ["Red", "Blue", "White", "Black", "Silver", "Light Blue"][:n],
             "start_player": start_player, "used_topics": list(used_topics), "v1_rules": v1_rules}
    return Dealt(setup, deck or make_deck(), topic_order, seed)


def play_card(game: AmericaGame, plan: dict[int, list[str]], choice: str = "choose:0") -> None:
    """Choose a topic, then let each seat take its planned actions in turn; a seat whose
    plan runs out passes."""
    game.apply_action(choice)
    plans = {seat: list(actions) for seat, actions in plan.items()}
    start = len(game.results)
    while len(game.results) == start and not game.is_terminal():
        seat = game.current_player()
        todo = plans.get(seat)
        game.apply_action(todo.pop(0) if todo else "pass")


# --- Setup ---------------------------------------------------------------------------------

def test_setup_six_markers_one_on_the_score_track():
    """Setup: "Each player gets 6 markers of one color and places one of them on space 0 on
    the score track": five to place, a score of 0, the colours of the rulebook."""
    game = new_game(6)
    assert game.scores() == [0] * 6
    assert game.supply == [5] * 6 and game.nonscoring == [0] * 6
    assert all(game.markers_total(seat) == 5 for seat in range(6))
    from stateside.games.america.rules import COLOURS

    assert {c[0] for c in COLOURS} == {"White", "Red", "Silver", "Blue", "Light Blue", "Black"}


# --- 1. Change the Start Player, 3. Place the Markers ----------------------------------------

def test_one_marker_per_turn_the_no_exact_spaces_included():
    """3. Place the Markers > Place a Marker on the "No Exact" or "No Exact or Adjacent"
    Spaces: "(one per turn)"; Place Another Marker: "one marker per turn". Every placement,
    on a state, a bar or a No Exact space, hands the turn to the next player."""
    game = new_game(3)
    game.apply_action("choose:0")
    order = []
    for action in ("place:state:no-exact", "place:year:no-exact-or-adjacent", "place:state:GA",
                   "place:number:1B", "place:year:1600"):
        order.append(game.current_player())
        game.apply_action(action)
    assert order == [1, 2, 0, 1, 2]
    assert game.supply == [4, 3, 3]


def test_start_player_moves_clockwise_and_the_left_neighbour_places_first():
    """How to Play > 1. Change the Start Player: the box passes clockwise each card;
    3. Place the Markers: placement begins with the player to the left of the start player."""
    game = new_game(3, start_player=1)
    starts, first_placers = [], []
    for _ in range(CARDS_PER_GAME):
        starts.append(game.current_player())
        game.apply_action("choose:0")
        first_placers.append(game.current_player())
        play_card_rest(game)
    assert starts == [1, 2, 0, 1, 2, 0]
    assert first_placers == [2, 0, 1, 2, 0, 1]


def play_card_rest(game):
    """Everyone places one far-off marker, then passes."""
    start = len(game.results)
    while len(game.results) == start:
        seat = game.current_player()
        if game.can_pass(seat):
            game.apply_action("pass")
        else:
            free = [a for a in game.legal_actions() if a.startswith("place:number:")]
            game.apply_action(free[0])


def test_a_first_marker_is_required_and_passing_ends_your_placements():
    """3. Place the Markers: each player first places one marker; after that a player may
    place another or pass, and a player who passed places no more on this card."""
    game = new_game(2)
    game.apply_action("choose:0")
    assert game.current_player() == 1
    assert "pass" not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="first marker"):
        game.apply_action("pass")
    game.apply_action(EXACT_STATE)          # Blue
    game.apply_action(EXACT_YEAR)           # Red
    game.apply_action("pass")               # Blue passes
    assert game.current_player() == 0       # Red keeps placing alone
    game.apply_action(EXACT_NUMBER)
    assert game.current_player() == 0
    assert [(e.player, e.kind) for e in game.events] == [(1, "place"), (0, "place"), (1, "pass"), (0, "place")]
    game.apply_action("pass")
    assert len(game.results) == 1


def test_one_marker_per_space():
    """Place a Marker on a State / on a Bar: never on a space that has another marker,
    the No Exact spaces included."""
    game = new_game(2)
    game.apply_action("choose:0")
    game.apply_action("place:state:GA")
    assert "place:state:GA" not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="Georgia already holds Blue"):
        game.apply_action("place:state:GA")
    game.apply_action("place:year:no-exact")
    with pytest.raises(IllegalActionError, match="already holds"):
        game.apply_action("place:year:no-exact")
    with pytest.raises(IllegalActionError, match="no space"):
        game.apply_action("place:state:DC")


def test_start_player_chooses_between_two_topics_from_different_cards():
    """2. Choose a Side to Read From: the start player picks one of the two cards offered;
    the one not taken stays in the box and is offered again next card."""
    game = new_game(2, topic_order=["1A", "1B", "2A", "3A", "2B", "3B"])
    a, b = game.offered_topics()
    assert (a.card, a.side, b.card, b.side) == (1, "A", 2, "A")
    assert game.legal_actions() == ["choose:0", "choose:1"]
    game.apply_action("choose:1")
    assert game.topic().title == "Topic 2A"
    play_card_rest(game)
    # 1A stays at its end of the box; its other side (1B) is not offered beside it
    assert [t.title for t in game.offered_topics()] == ["Topic 1A", "Topic 3A"]


# --- 4. Score: markers back, non-scoring supply, refill ------------------------------------

def test_scoring_markers_return_and_missed_ones_wait_in_the_non_scoring_supply():
    """Non-Scoring Placed Markers: scoring markers go back to their owner; the others go to
    the non-scoring supply, from which each player with one gets one back after scoring."""
    game = new_game(2)
    play_card(game, {1: [EXACT_STATE, MISS, "place:year:1600"], 0: [EXACT_YEAR]})
    assert game.scores() == [7, 7]
    assert game.supply == [5, 4] and game.nonscoring == [0, 1]
    for seat in (0, 1):
        assert game.markers_total(seat) == 5


def test_refill_to_three_markers():
    """Non-Scoring Placed Markers: with fewer than 3 markers after getting one back, a
    player refills up to 3."""
    game = new_game(2)
    misses = ["place:year:1492", "place:year:1600", "place:year:1700", "place:year:1750", "place:year:1775"]
    play_card(game, {1: misses, 0: [EXACT_STATE]})
    # Blue: five misses -> one back -> 1 in hand -> refilled to 3; two still wait
    assert game.supply[1] == 3 and game.nonscoring[1] == 2
    play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE, EXACT_NUMBER]})
    # Blue: 1 left in hand + 2 scored back = 3, then one back from the non-scoring supply
    assert game.supply[1] == 4 and game.nonscoring[1] == 1
    assert game.markers_total(1) == 5


def test_a_player_out_of_markers_passes_by_itself():
    """Pass: a player no longer able to place markers passes; the others go on."""
    game = new_game(2)
    game.apply_action("choose:0")
    years = iter(("1492", "1600", "1700", "1750", "1775"))
    numbers = iter(("0", "1", "2", "5", "10"))
    for _ in range(4):
        game.apply_action(f"place:year:{next(years)}")     # Blue
        game.apply_action(f"place:number:{next(numbers)}")  # Red
    game.apply_action(f"place:year:{next(years)}")         # Blue's last marker
    assert game.supply == [1, 0]
    assert game.current_player() == 0
    game.apply_action(f"place:number:{next(numbers)}")     # Red's last: both are out
    events = [(e.player, e.kind) for e in game.results[-1].events]
    assert events[-2:] == [(1, "out"), (0, "out")]


# --- End of the Game ----------------------------------------------------------------------

def test_six_cards_then_the_highest_score_wins():
    """End of the Game: the game ends after the 6th card; the most points wins."""
    game = new_game(3)
    for _ in range(CARDS_PER_GAME):
        assert not game.is_terminal()
        play_card(game, {0: [EXACT_YEAR], 1: [EXACT_NUMBER], 2: [EXACT_STATE, "place:state:GA"]})
    assert game.is_terminal()
    assert game.scores() == [42, 42, 60]
    assert game.winner == 2 and game.returns() == [0.0, 0.0, 1.0]
    assert len(game.results) == CARDS_PER_GAME and game.legal_actions() == []


def test_tie_goes_to_most_markers_in_supply():
    """End of the Game: "If there is a tie, the player with the most markers in their
    supply wins"."""
    game = new_game(2)
    for card in range(CARDS_PER_GAME):
        extra = [MISS, "place:year:1600"] if card == CARDS_PER_GAME - 1 else []
        play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE, *extra]})
    assert game.scores() == [42, 42]
    assert game.supply == [5, 3]            # counted as the sixth card is scored (below)
    assert game.winner == 0 and game.showdown is None


def test_the_tie_counts_the_supply_as_the_sixth_card_is_scored():
    """End of the Game: "The game ends after the 6th card is scored ... If there is a tie,
    the player with the most markers in their supply wins": the supply as the sixth card
    is scored (the markers that scored back), before the one marker back from the
    non-scoring supply and the refill to three, which prepare a next card there is not.
    Blue's one missed marker decides: Red wins, no showdown."""
    game = new_game(2)
    for card in range(CARDS_PER_GAME):
        extra = [MISS] if card == CARDS_PER_GAME - 1 else []
        play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE, *extra]})
    assert game.scores() == [42, 42]
    assert game.supply == [5, 4] and game.nonscoring == [0, 1]
    assert game.winner == 0 and game.showdown is None
    # games begun before this rule (version-1 saves) keep theirs: one back first, a showdown
    old = new_game(2, v1_rules=True)
    for card in range(CARDS_PER_GAME):
        extra = [MISS] if card == CARDS_PER_GAME - 1 else []
        play_card(old, {0: [EXACT_YEAR], 1: [EXACT_STATE, *extra]})
    assert old.supply == [5, 5] and old.showdown == [0, 1] and old.winner is None


def tie_after_six_cards(n=2, tied=(0, 1)) -> AmericaGame:
    game = new_game(n)
    plans = {0: [EXACT_YEAR], 1: [EXACT_STATE], 2: [EXACT_NUMBER]}
    for seat in range(n):
        if seat not in tied:
            plans[seat] = ["place:number:0"]
    for _ in range(CARDS_PER_GAME):
        play_card(game, plans)
    return game


def test_a_further_tie_leads_to_a_showdown_with_five_markers():
    """End of the Game: tied on points and markers, the tied players play a one-card
    showdown, each with all five markers; the best showdown card wins."""
    game = tie_after_six_cards(3, tied=(0, 1))
    assert game.scores()[:2] == [42, 42] and game.scores()[2] == 0
    assert not game.is_terminal()
    assert game.showdown == [0, 1]
    assert game.supply[0] == game.supply[1] == 5
    # the last main card was started by seat 2 (cards started by 0,1,2,0,1,2): next tied seat is 0
    assert game.current_player() == 0
    play_card(game, {1: [EXACT_YEAR], 0: [EXACT_STATE, EXACT_NUMBER]})
    assert all(e.player in (0, 1) for e in game.results[-1].events)
    assert game.results[-1].showdown
    assert game.showdown_points[-1][:2] == [14, 7]
    assert game.winner == 0
    assert game.scores()[:2] == [42, 42]     # showdown points are kept apart from the six cards


def test_showdown_repeats_until_one_player_leads():
    """End of the Game: "If the originally-tied players are still tied after the one-card
    showdown, repeat the showdown, with each player taking turns choosing a card"."""
    game = tie_after_six_cards(2)
    first_chooser = game.current_player()
    play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE]})
    assert not game.is_terminal() and game.showdown == [0, 1]
    assert game.current_player() != first_chooser
    play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE, EXACT_NUMBER]})
    assert game.winner == 1
    assert [r.showdown for r in game.results] == [False] * 6 + [True, True]
    assert len(game.showdown_points) == 2


# --- Replace the Card: used topics -----------------------------------------------------------

def test_topics_are_not_repeated_within_a_game():
    """A game draws cards, not topics: no topic twice, and never both sides of one card
    (a box of seven cards is enough for six)."""
    game = new_game(2, deck=make_deck(7), seed=5)
    for _ in range(CARDS_PER_GAME):
        play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE]})
    assert len(set(game.chosen)) == CARDS_PER_GAME
    assert len({game.topics[t].card for t in game.drawn}) == len(game.drawn)


def test_used_topics_are_not_repeated_across_games_until_the_deck_is_exhausted():
    """Replace the Card: used cards go behind the divider, so that every side of every card
    is played before any repeats; we keep that across games."""
    deck = make_deck(9)                          # 18 topics: three games of six
    used: list[str] = []
    seen: list[str] = []
    for seed in range(3):
        game = new_game(2, deck=deck, seed=seed, used_topics=used)
        for _ in range(CARDS_PER_GAME):
            play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE]})
        seen += game.chosen
        used = game.used_topics_after()
    assert len(seen) == 18 and len(set(seen)) == 18
    assert set(used) == set(game.chosen)        # the deck is exhausted: a new round begins
    # the fourth game starts a new round without replaying the third game's topics first
    game = new_game(2, deck=deck, seed=9, used_topics=used)
    assert game.offered[0] not in used


def test_the_box_is_drawn_one_topic_at_a_time_by_chance():
    """First Game Setup: the cards "are already mixed within the deck": the order of the box
    exists only as it is drawn, each unused topic equally likely; a match under one seed
    draws the same topics, another seed others."""
    game = AmericaGame({"players": ["Red", "Blue"], "used_topics": ["1A", "1B"]}, deck=make_deck(20))
    outcomes = game.chance_outcomes()
    assert game.current_player() == CHANCE and len(outcomes) == 38
    assert {p for _, p in outcomes} == {1 / 38} and "draw:1A" not in dict(outcomes)
    drawn = []
    for seed in (4, 4, 5):
        match = Match("america", ["human", "human"], seed)
        match.resolve_chance()
        drawn.append(match.state.offered)
    assert drawn[0] == drawn[1] != drawn[2]


# --- setup and saving -------------------------------------------------------------------------

def test_two_to_six_players():
    for n in range(2, 7):
        assert new_game(n).n == n
    with pytest.raises(ValueError, match="2 to 6"):
        AmericaGame({"players": ["Solo"]}, deck=make_deck())
    with pytest.raises(ValueError):
        AmericaGame({"players": [str(i) for i in range(7)]}, deck=make_deck())


def test_save_and_load_replays_to_the_same_game():
    match = Match("america", ["human", "human", "human"], seed=11)
    match.resolve_chance()
    for action in ("choose:0", "place:year:1875", "place:state:FL", "place:number:no-exact",
                   "place:state:GA", "pass", "pass", "pass"):
        match.apply(action)
    match.resolve_chance()
    match.apply("choose:1")
    match.apply("place:state:AL")
    game = match.state
    back = Match.from_json(json.loads(json.dumps(match.to_json()))).state
    assert back.scores() == game.scores() and back.supply == game.supply
    assert back.current_player() == game.current_player()
    assert back.occupied() == game.occupied()
    assert back.chosen == game.chosen and back.offered == game.offered
    assert back.observation(0) == game.observation(0)


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.update(rules_version=99), "rules version 99"),
    (lambda d: d.pop("setup"), "setup"),
    (lambda d: d["actions"].append("place:state:ZZ"), "action 6 of 6"),
    (lambda d: d["actions"].__setitem__(0, "draw:99Z"), "action 1 of 5"),
    (lambda d: d["setup"].update(players="Red"), "players"),
])
def test_bad_saves_give_clear_errors(damage, message):
    match = Match("america", ["human", "human"], seed=2)
    match.resolve_chance()
    for action in ("choose:0", "place:state:GA", "place:state:FL"):
        match.apply(action)
    data = match.to_json()
    damage(data)
    with pytest.raises(SaveError, match=message):
        Match.from_json(data)


def test_clone_is_independent():
    game = new_game(2)
    game.apply_action("choose:0")
    copy = game.clone()
    copy.apply_action("place:state:GA")
    assert game.occupied() == {} and copy.occupied() == {("state", "GA"): 1}
