"""America computer players and seeded self-play invariants."""
import random

import pytest

from long_runs import games
from test_america_game import Dealt

from stateside.engine.match import Match
from stateside.engine.match import make_player as make_seat
from stateside.games.america import ai
from stateside.games.america.ai import Belief, ComputerPlayer, make_belief, make_player
from stateside.games.america.deck import Card, Question, Topic
from stateside.games.america.rules import (
    CARDS_PER_GAME, COLOURS, MARKERS_IN_PLAY, AmericaGame, score_card, topic_answers, topic_id,
)
from stateside.selfplay import play_match, run_selfplay

STATES = ["FL", "CA", "NY", "TX", "OH", "WA", "GA", "IL", "CO", "ME", "AK", "HI", "LA", "MN", "AZ", "PA"]


def random_deck(cards: int, seed: int) -> tuple:
    """A deck of plausible answers across the bars and the map."""
    rng = random.Random(seed)
    deck = []
    for n in range(1, cards + 1):
        topics = []
        for side in "AB":
            year = rng.choice([rng.randint(1492, 1800), rng.randint(1800, 2024)])
            number = rng.choice([rng.randint(0, 60), rng.randint(100, 30_000), int(10 ** rng.uniform(5, 10))])
            topics.append(Topic(f"Topic {n}{side}", n, side,
                                Question("Year?", year, "y", "test"),
                                Question("State?", rng.choice(STATES), "s", "test"),
                                Question("Number?", number, "n", "test")))
        deck.append(Card(n, tuple(topics)))
    return tuple(deck)


DECK = random_deck(40, 3)


def test_beliefs_are_distributions_centred_near_the_answer():
    rng = random.Random(1)
    for section, answer in (("year", 1880), ("state", "FL"), ("number", 12_000_000)):
        for grade in range(len(ai.KNOWLEDGE)):
            belief = make_belief(section, answer, grade, rng)
            assert abs(sum(belief.probs.values()) - 1) < 1e-9
            assert all(p >= 0 for p in belief.probs.values())
    # the state belief stays on the hinted side of the Mississippi
    belief = make_belief("state", "FL", 1, rng)
    from stateside.data.states import load_states

    states = load_states()
    assert {states[c].mississippi for c in belief.probs} == {"east"}


def test_hard_players_are_closer_than_easy_ones():
    """The knowledge level decides how close a player's guesses are."""
    hits = {}
    for level in ("easy", "hard"):
        player = ComputerPlayer(level, seat=0, deck=DECK)
        exact = 0
        topics = [t for card in DECK for t in card.topics]
        for topic in topics:
            beliefs = player.beliefs(topic_id(topic))
            answers = topic_answers(topic)
            best_year = max(beliefs["year"].probs, key=beliefs["year"].p)
            from stateside.games.america.rules import space_for

            exact += best_year == space_for("year", answers["year"])
        hits[level] = exact / len(topics)
    assert hits["hard"] > hits["easy"] + 0.15


def _game_with_topic(n=2):
    topic = Topic("Test", 1, "A", Question("Year?", 1760, "", "t"), Question("State?", "FL", "", "t"),
                  Question("Number?", 5, "", "t"))
    deck = (Card(1, (topic, topic.__class__("Other", 1, "B", topic.year, topic.state, topic.number))),
            Card(2, (topic.__class__("Two A", 2, "A", topic.year, topic.state, topic.number),
                     topic.__class__("Two B", 2, "B", topic.year, topic.state, topic.number))))
    game = Dealt({"players": [c[0] for c in COLOURS[:n]]}, deck, topic_order=["1A", "2A", "1B", "2B"])
    game.apply_action("choose:0")
    return game, topic


def sees(player: ComputerPlayer, game: AmericaGame) -> str:
    """The player's choice from what its seat sees, as the match layer asks for it."""
    return player.choose(game.observation(player.seat), game.legal_actions(player.seat))


def _unsure_player(topic) -> ComputerPlayer:
    """A player who believes the year is somewhere from 1700 to 1800 and knows nothing else
    (an easy one: it keeps to its own belief, whatever the table shows)."""
    player = ComputerPlayer("easy", seat=0, deck=DECK)
    around = ("1700", "1750", "1775", "1800", "1825")
    player._beliefs[topic_id(topic)] = {
        "year": Belief("year", {y: 1 / len(around) for y in around}),
        "state": Belief("state", {"FL": 0.2, "GA": 0.2, "AL": 0.2, "SC": 0.2, "NC": 0.2}),
        "number": Belief("number", {"5": 0.2, "10": 0.2, "2": 0.2, "20": 0.2, "1": 0.2}),
    }
    return player


def _year_values(player, game):
    return {a.split(":")[2]: v for a, v in player.placement_values(game.observation(player.seat)).items()
            if a.startswith("place:year:")}


def test_uses_no_exact_when_the_others_markers_look_wrong():
    """Computer players bet on No Exact or Adjacent when every marker on a section is far
    from where they believe the answer is."""
    game, topic = _game_with_topic()
    game.apply_action("place:year:1950")      # Blue
    game.apply_action("place:number:1B")      # Red
    game.apply_action("place:year:1960")      # Blue
    game.apply_action("place:number:2")       # Red
    game.apply_action("pass")                 # Blue is done...
    player = _unsure_player(topic)            # ...and Red believes 1700-1825
    values = _year_values(player, game)
    assert max(values, key=values.get) == "no-exact-or-adjacent"
    assert values["no-exact-or-adjacent"] == pytest.approx(7.0)   # nobody left to spoil it
    assert values["no-exact"] == pytest.approx(3.0)
    assert sees(player, game) == "place:year:no-exact-or-adjacent"


def test_does_not_bet_on_no_exact_when_the_others_sit_where_it_believes():
    game, topic = _game_with_topic()
    game.apply_action("place:year:1775")      # Blue, right where Red believes
    game.apply_action("place:number:1B")      # Red
    game.apply_action("pass")                 # Blue
    player = _unsure_player(topic)
    player._beliefs[topic_id(topic)]["year"] = Belief("year", {"1750": 0.6, "1775": 0.2, "1800": 0.2})
    values = _year_values(player, game)
    assert values["no-exact"] == pytest.approx(3 * 0.8)
    assert values["no-exact-or-adjacent"] == pytest.approx(0.0)   # 1775 is on or next to all of them
    assert max(values, key=values.get) == "1750"


def test_passes_when_nothing_is_worth_a_marker():
    game, topic = _game_with_topic()
    game.apply_action("place:year:1950")          # Blue
    player = ComputerPlayer("hard", seat=0, deck=DECK)
    player._beliefs[topic_id(topic)] = {
        "year": Belief("year", {"1950": 0.9, "1960": 0.1}),
        "state": Belief("state", {"FL": 1.0}),
        "number": Belief("number", {"5": 1.0}),
    }
    assert sees(player, game) == "place:state:FL"
    game.apply_action("place:state:FL")
    game.apply_action("place:state:GA")           # Blue
    assert sees(player, game) == "place:number:5"
    game.apply_action("place:number:5")
    game.apply_action("pass")                     # Blue
    # what is left: 1960 (7 x 0.1 + 3 x 0.9 = 3.4) is worth a marker, then nothing is
    assert sees(player, game) == "place:year:1960"
    game.apply_action("place:year:1960")
    assert sees(player, game) == "pass"


def test_start_player_chooses_the_topic_it_knows_better():
    game = Dealt({"players": ["Red", "Blue"]}, DECK, seed=2)
    player = ComputerPlayer("medium", seat=0, deck=DECK)
    a, b = game.offered
    better = 1 if sum(player.grades(b).values()) > sum(player.grades(a).values()) else 0
    assert sees(player, game) == f"choose:{better}"


def test_player_specs():
    assert isinstance(make_player("hard", 0, random.Random()), ComputerPlayer)
    game = Dealt({"players": ["A", "B"]}, DECK)
    assert make_seat("america", "random", 0).choose(game.observation(0), game.legal_actions(0)) in ("choose:0", "choose:1")
    with pytest.raises(ValueError):
        make_seat("america", "ai:genius", 0)


def test_self_play_is_deterministic_under_a_seed():
    a = play_match("america", ["ai:hard", "ai:easy", "random"], 5)
    b = play_match("america", ["ai:hard", "ai:easy", "random"], 5)
    assert (a.winners, a.scores, a.turns) == (b.winners, b.scores, b.turns)


def test_hard_beats_easy_clearly():
    stats = run_selfplay("america", ["ai:hard", "ai:easy"], games=60, seed=1)
    hard, easy = stats
    assert hard.wins >= 2 * easy.wins
    assert sum(hard.scores) > sum(easy.scores)


class OnTestDeck(AmericaGame):
    """America played with the test deck (the computer players are given it too)."""

    @classmethod
    def new(cls, setup):
        return cls(setup, deck=DECK)


def _check_invariants(game: AmericaGame) -> None:
    for seat in range(game.n):
        assert game.markers_total(seat) == MARKERS_IN_PLAY
        assert game.supply[seat] >= 0 and game.nonscoring[seat] >= 0
    spaces = [(p.section, p.space) for p in game.placements]
    assert len(spaces) == len(set(spaces))


def test_seeded_self_play_invariants():
    """Seeded games (100 in the default run, 500 in the long run: benchmarks/SELFPLAY.md),
    2-6 seats of every kind: markers are conserved after every action,
    the scores are the sums of the cards' points as score_card computes them, six main
    cards are played, and the winner leads (or won the tie-breaks)."""
    specs = ["ai:hard", "ai:medium", "ai:easy", "random"]
    rng = random.Random(1)
    for seed in range(games(100, 500)):
        n = 2 + seed % 5
        players = [rng.choice(specs) for _ in range(n)]
        match = Match(OnTestDeck, players, seed, OnTestDeck.default_setup(n))
        match.players = [ComputerPlayer(spec[3:], seat, random.Random(), deck=DECK) if spec.startswith("ai:")
                         else match.players[seat] for seat, spec in enumerate(players)]
        game = match.state
        steps = 0
        while not game.is_terminal():
            entry = match.step()
            _check_invariants(game)
            steps += 1
            assert steps < 2000 and entry is not None
        main = [r for r in game.results if not r.showdown]
        assert len(main) == CARDS_PER_GAME
        totals = [0] * n
        for result in game.results:
            placements = [(e.player, e.section, e.space) for e in result.events if e.kind == "place"]
            expected = score_card(topic_answers(game.topics[result.topic]), placements)
            assert {s: p for s, p in result.points.items() if p or s in expected} == \
                {s: expected.get(s, 0) for s in result.points if result.points[s] or s in expected}
            if not result.showdown:
                for seat, p in result.points.items():
                    totals[seat] += p
        assert totals == game.scores()
        assert len(set(game.chosen)) == len(game.chosen)
        best = max(game.scores())
        assert game.scores()[game.winner] == best
        leaders = [s for s in range(n) if game.scores()[s] == best]
        if len(leaders) > 1 and not game.showdown_points:
            assert game.supply[game.winner] == max(game.supply[s] for s in leaders)


def test_self_play_with_the_bundled_deck():
    """The shared self-play entry point, on the real deck, 2-6 seats."""
    for seed in range(10):
        n = 2 + seed % 5
        record = play_match("america", ["ai:hard", "ai:medium", "ai:easy", "random", "ai:hard", "ai:easy"][:n], seed)
        assert len(record.winners) == 1 and len(record.scores) == n
        assert record.scores[record.winners[0]] == max(record.scores)
        assert all(len(ms) > 0 for ms in record.decision_ms)


def test_hard_player_reads_the_others_markers_as_clues():
    """The other players' first markers on a section sharpen a hard player's belief
    towards them; its own markers and No Exact bets are no clue."""
    game, topic = _game_with_topic()
    flat = ("1700", "1750", "1775", "1800", "1825")
    hard = ComputerPlayer("hard", seat=0, deck=DECK)
    hard._beliefs[topic_id(topic)] = {
        "year": Belief("year", {y: 1 / len(flat) for y in flat}),
        "state": Belief("state", {"FL": 0.5, "GA": 0.5}),
        "number": Belief("number", {"5": 0.5, "10": 0.5}),
    }
    before = hard.read_beliefs(game.observation(0))
    assert before["year"].probs == pytest.approx({y: 0.2 for y in flat})
    game.apply_action("place:year:1800")         # Blue: a clue
    game.apply_action("place:number:10")         # Red (itself): no clue
    game.apply_action("place:number:no-exact")   # Blue: no clue
    after = hard.read_beliefs(game.observation(0))
    assert sum(after["year"].probs.values()) == pytest.approx(1.0)
    assert max(after["year"].probs, key=after["year"].p) == "1800"
    assert after["year"].p("1800") > 0.2 > after["year"].p("1700")
    assert after["number"].probs == before["number"].probs
    # a medium player reads the clue too, trusting it less; an easy one keeps to its own belief
    medium = ComputerPlayer("medium", seat=0, deck=DECK)
    medium._beliefs = hard._beliefs
    mid = medium.read_beliefs(game.observation(0))["year"]
    assert after["year"].p("1800") > mid.p("1800") > 0.2
    easy = ComputerPlayer("easy", seat=0, deck=DECK)
    easy._beliefs = hard._beliefs
    assert easy.read_beliefs(game.observation(0))["year"].probs == before["year"].probs


def test_clues_are_only_the_first_marker_of_each_other_player():
    game, topic = _game_with_topic(3)
    game.apply_action("place:year:1800")         # Blue
    game.apply_action("place:year:no-exact")     # White: no clue
    game.apply_action("place:year:1950")         # Red (the hard player, seat 0): not a clue
    game.apply_action("place:year:1825")         # Blue again: its first marker was the clue
    game.apply_action("place:state:GA")          # White
    player = ComputerPlayer("hard", seat=0, deck=DECK)
    assert player.table_clues(game.observation(0)) == {"year": ("1800",), "state": ("GA",), "number": ()}


def test_hard_beats_medium_clearly():
    stats = run_selfplay("america", ["ai:hard", "ai:medium"], games=60, seed=1)
    hard, medium = stats
    assert hard.wins >= 2 * medium.wins
    assert sum(hard.scores) > sum(medium.scores)
