"""America game flow: turns, markers, six cards, tie-breaks, topics, saving
(rulebooks/america.txt, "How to Play" to "End of the Game")."""
import json

import pytest

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


def new_game(n=2, **kw) -> AmericaGame:
    kw.setdefault("deck", make_deck())
    return AmericaGame(["Red", "Blue", "White", "Black", "Silver", "Light Blue"][:n], **kw)


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
    assert game.scores == [0] * 6
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
    assert game.scores == [7, 7]
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
    assert game.scores == [42, 42, 60]
    assert game.winner == 2 and game.returns() == [0.0, 0.0, 1.0]
    assert len(game.results) == CARDS_PER_GAME and game.legal_actions() == []


def test_tie_goes_to_most_markers_in_supply():
    """End of the Game: "If there is a tie, the player with the most markers in their
    supply wins"."""
    game = new_game(2)
    for card in range(CARDS_PER_GAME):
        extra = [MISS, "place:year:1600"] if card == CARDS_PER_GAME - 1 else []
        play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE, *extra]})
    assert game.scores == [42, 42]
    assert game.supply == [5, 4]
    assert game.winner == 0 and game.showdown is None


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
    assert game.scores[:2] == [42, 42] and game.scores[2] == 0
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
    assert game.scores[:2] == [42, 42]     # showdown points are kept apart from the six cards


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
    game = new_game(2, deck=make_deck(4), seed=5)
    for _ in range(CARDS_PER_GAME):
        play_card(game, {0: [EXACT_YEAR], 1: [EXACT_STATE]})
    assert len(set(game.chosen)) == CARDS_PER_GAME


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


def test_seeded_topic_order_is_reproducible():
    a, b, c = (new_game(2, deck=make_deck(20), seed=s) for s in (4, 4, 5))
    assert a.topic_order == b.topic_order != c.topic_order


# --- setup and saving -------------------------------------------------------------------------

def test_two_to_six_players():
    for n in range(2, 7):
        assert new_game(n).n == n
    with pytest.raises(IllegalActionError, match="2 to 6"):
        AmericaGame(["Solo"], deck=make_deck())
    with pytest.raises(IllegalActionError):
        AmericaGame([str(i) for i in range(7)], deck=make_deck())


def test_save_and_load_replays_to_the_same_game():
    game = new_game(3, seed=11)
    play_card(game, {0: [EXACT_YEAR, "place:state:GA"], 1: [EXACT_STATE], 2: ["place:number:no-exact"]})
    game.apply_action("choose:1")
    game.apply_action("place:state:AL")
    data = json.loads(json.dumps(game.to_json()))
    back = AmericaGame.from_json(data, deck=make_deck())
    assert back.scores == game.scores and back.supply == game.supply
    assert back.current_player() == game.current_player()
    assert back.occupied() == game.occupied()
    assert back.actions == game.actions and back.actors == game.actors
    assert back.to_json() == game.to_json()


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.update(version=99), "version"),
    (lambda d: d.pop("topic_order"), "topic_order"),
    (lambda d: d["actions"].append("place:state:ZZ"), "action 4"),
    (lambda d: d["topic_order"].__setitem__(0, "99Z"), "99Z"),
    (lambda d: d.update(players="Red"), "lists"),
])
def test_bad_saves_give_clear_errors(damage, message):
    game = new_game(2)
    game.apply_action("choose:0")
    game.apply_action("place:state:GA")
    game.apply_action("place:state:FL")
    data = game.to_json()
    damage(data)
    with pytest.raises(SaveError, match=message):
        AmericaGame.from_json(data, deck=make_deck())


def test_clone_is_independent():
    game = new_game(2)
    game.apply_action("choose:0")
    copy = game.clone()
    copy.apply_action("place:state:GA")
    assert game.occupied() == {} and copy.occupied() == {("state", "GA"): 1}
