"""America through the engine protocol and the match layer (rulebooks/america.txt):
seeded games end with one winner, the box is drawn by logged chance, saves replay from
their actions alone, version-1 saves still open, and computer players see only what
their seat may know."""
import json
import random
from pathlib import Path

import pytest

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE, EVERY_SEAT, SPECTATOR, TERMINAL
from stateside.engine.saves import read_save
from stateside.errors import IllegalActionError, SaveError
from stateside.games.america.ai import make_player
from stateside.games.america.legacy import legacy_save
from stateside.games.america.rules import CARDS_PER_GAME, AmericaGame
from stateside.selfplay import play_match
from audience_oracle import hidden_from
from long_runs import games

SAVES = Path(__file__).parent / "data" / "saves-v1"

# What the code before the engine protocol showed after loading each version-1 save
# (made with that code by its mode's save_state; see tests/data/saves-v1/america-*.json).
V1_FIGURES = {
    "america-finished.json": dict(
        scores=[68, 37, 18, 41, 47, 28], supply=[4, 3, 3, 3, 3, 3], nonscoring=[1, 2, 2, 2, 2, 2],
        chosen=["60B", "14B", "7A", "39A", "49B", "24A"], winner=0, current=TERMINAL, occupied={},
        offered=[], showdown=None),
    "america-history-wraps.json": dict(
        scores=[75, 34, 26, 84], supply=[3, 4, 3, 5], nonscoring=[2, 1, 2, 0],
        chosen=["8B", "9A", "38B", "9B", "3A", "56A"], winner=3, current=TERMINAL, occupied={},
        offered=[], showdown=None),
    "america-mid-card.json": dict(
        scores=[26, 35, 10], supply=[3, 4, 2], nonscoring=[2, 0, 2], chosen=["18A", "27A", "39B"],
        winner=None, current=0, occupied={("state", "HI"): 2, ("state", "IA"): 1},
        offered=["39B", "32A"], showdown=None),
    "america-revealing.json": dict(
        scores=[29, 43], supply=[4, 3], nonscoring=[1, 2], chosen=["42B", "46B", "49B", "32A"],
        winner=None, current=0, occupied={}, offered=["40B", "2A"], showdown=None),
    "america-showdown.json": dict(
        scores=[57, 57, 29], supply=[5, 5, 3], nonscoring=[0, 0, 2],
        chosen=["23A", "19A", "56A", "35B", "8B", "28A", "55A"], winner=None, current=1, occupied={},
        offered=["55A", "25B"], showdown=[0, 1]),
}


def observations(state) -> list:
    return [state.observation(seat) for seat in range(state.num_players)]


# --- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_seeded_games_end_with_one_winner(seed):
    """End of the Game: six cards, then the most points (or the tie-breaks) win: returns
    give the one winner 1."""
    specs = ["ai:hard", "random", "ai:easy", "ai:medium", "random", "ai:hard"][:2 + seed % 5]
    record = play_match("america", specs, seed)
    state = record.match.state
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert sum(state.returns()) == 1 and record.winners == [state.winner]
    assert state.cards_scored == CARDS_PER_GAME
    assert state.scores() == [float(p) for p in state.track]
    state.check_invariants()
    again = play_match("america", specs, seed)
    assert again.match.actions == record.match.actions          # deterministic under a seed


def test_the_box_is_drawn_by_logged_chance():
    """America Cards: the start player sees the cards at both ends of the box. Each topic
    that comes up is a chance outcome in the log, drawn among the unused topics with equal
    weights, and the game replays from the log alone."""
    match = Match("america", ["ai:medium", "ai:hard", "random"], seed=3)
    assert match.to_move() == CHANCE and match.state.observation(0)["offered"] == []
    match.play_out()
    draws = [e for e in match.log if e.seat == CHANCE]
    assert draws and all(e.action.startswith("draw:") for e in draws)
    assert [e.action[5:] for e in draws] == match.state.drawn
    assert all(e.text == "A topic came up at an end of the box" for e in draws)
    replay = AmericaGame.new(match.initial_setup)
    for action in match.actions:
        replay.apply_action(action)
    assert observations(replay) == observations(match.state)


def test_used_topics_come_from_the_setup_and_wait_until_the_box_goes_round():
    """Replace the Card: used cards go behind the divider, so the box goes through every
    card, then their other sides, "without repeating cards". The topics used in earlier
    games are part of the setup (the rules read no files): a card with a side played does
    not come back while a card with none played is in the box."""
    game = AmericaGame.new({"players": ["Ada", "Bob"], "used_topics": ["1A", "2B"]})
    cards = len(game.deck)
    box = dict(game.chance_outcomes())
    assert not {"draw:1A", "draw:1B", "draw:2A", "draw:2B"} & set(box)
    assert len(box) == 2 * (cards - 2) and set(box.values()) == {1 / (cards - 2) / 2}
    with pytest.raises(IllegalActionError):
        game.apply_action("draw:1B")
    # once every card has a side played, each shows the other side
    game = AmericaGame.new({"players": ["Ada", "Bob"], "used_topics": [f"{c.number}A" for c in game.deck]})
    assert dict(game.chance_outcomes()) == {f"draw:{c.number}B": 1 / cards for c in game.deck}
    with pytest.raises(ValueError, match="used_topics"):
        AmericaGame.new({"players": ["Ada", "Bob"], "used_topics": "1A"})


def test_a_game_draws_cards_not_topics():
    """America Cards: the start player chooses one of the cards at either end of the box.
    A drawn card leaves the box whole, so both sides of one card never come up in the
    same game."""
    for seed in range(20):
        match = Match("america", ["random"] * (2 + seed % 5), seed=seed)
        match.play_out()
        state = match.state
        cards = [state.topics[t].card for t in state.drawn]
        assert len(cards) == len(set(cards))
        assert len({state.topics[t].card for t in state.chosen}) == len(state.chosen)


def test_no_card_comes_back_before_the_box_has_gone_round():
    """Game after game (the history carried in the setup, as the app does), a card whose
    side was played is drawn again only when no card with fewer sides played is left in
    the box, and then shows its other side."""
    setup = AmericaGame.default_setup(2)
    played: list[str] = []
    topics = 2 * len(AmericaGame.new(setup).deck)
    seed = 0
    while len(set(played)) < topics:          # until the box has gone round: every side played
        assert seed < topics, "the box never went round"
        match = Match("america", ["random", "random"], seed, setup)
        state = match.state
        used = set(setup["used_topics"])
        level = {c.number: sum(f"{c.number}{s}" in used for s in "AB") for c in state.deck}
        while not match.is_over():
            if match.to_move() == CHANCE:
                in_box = [card for row in state.box for card in row]
                entry = match.step()
                topic = entry.action[5:]
                card = state.topics[topic].card
                assert level[card] == min(level[c] for c in in_box)
                assert level[card] != 1 or topic not in used     # the side not played yet
            else:
                match.step()
        played += state.chosen
        setup = dict(setup, used_topics=state.used_topics_after())
        seed += 1


# --- legal actions, text, errors --------------------------------------------------------------

def test_listed_actions_are_exactly_the_accepted_ones():
    """Place a Marker: one marker per space, a first marker before passing, the topic
    before anything: every candidate is tried on a clone at several moments."""
    match = Match("america", ["random", "random", "random"], seed=9)
    checked = 0
    while not match.is_over() and checked < 12:
        state = match.state
        listed = set(state.legal_actions())
        accepted = set()
        before = json.dumps(observations(state), sort_keys=True)
        for action in state.candidate_actions():
            trial = state.clone()
            try:
                trial.apply_action(action)
            except IllegalActionError:
                assert json.dumps(observations(trial), sort_keys=True) == before
                continue
            accepted.add(action)
        assert accepted == listed
        checked += 1
        for _ in range(7):
            match.step()


def test_actions_in_plain_english_and_json():
    match = Match("america", ["human", "human"], seed=1,
                  setup={"players": ["Ada", "Bob"], "start_player": 0, "used_topics": []})
    match.resolve_chance()
    state = match.state
    title = state.offered_topics()[1].title
    assert state.action_to_string("choose:1") == f"Ada chose to read \u201c{title}\u201d"
    match.apply("choose:1")
    assert state.action_to_string("place:state:GA") == "Bob placed a marker on Georgia"
    assert state.action_to_string("place:year:1875") == "Bob placed a marker on the 1875 year space"
    match.apply("place:year:1875")
    match.apply("place:number:no-exact")
    assert state.action_to_string("pass") == "Bob passed"
    assert state.action_from_json("place:state:GA") == "place:state:GA"
    for bad in ({"not": "an action"}, 3, "jump:GA"):
        with pytest.raises(ValueError, match="America action"):
            state.action_from_json(bad)


def test_an_illegal_action_changes_nothing():
    match = Match("america", ["human", "human"], seed=4)
    match.resolve_chance()
    match.apply("choose:0")
    match.apply("place:state:TX")
    before = json.dumps(observations(match.state), sort_keys=True)
    for action in ("place:state:TX", "pass", "choose:1", "draw:1A", ("place", "state", "CA")):
        with pytest.raises(IllegalActionError):
            match.state.apply_action(action)
    assert json.dumps(observations(match.state), sort_keys=True) == before


# --- saving -----------------------------------------------------------------------------------

@pytest.mark.parametrize("stop", [0, 1, 9, 40, 10_000])
def test_save_and_load_through_the_match_layer(stop):
    match = Match("america", ["ai:hard", "human", "ai:easy"], seed=21)
    match.players[1] = make_player("medium", 1, random.Random())   # a person who plays like one
    while len(match.log) < stop and not match.is_over():
        match.step()
    data = json.loads(json.dumps(match.to_json()))
    assert set(data) == {"game", "rules_version", "setup", "seed", "seats", "actions"}
    back = Match.from_json(data, "test save")
    assert observations(back.state) == observations(match.state)
    assert back.state.chosen == match.state.chosen and back.state.pool == match.state.pool


@pytest.mark.parametrize("name", sorted(V1_FIGURES))
def test_version_1_saves_still_open(name):
    """Saves written before the engine protocol convert (through the registered
    legacy_save) to a match that is the very game they held."""
    game_id, body = read_save(SAVES / name, "america")
    match = Match.from_json(body, name)
    g, want = match.state, V1_FIGURES[name]
    assert game_id == "america" and body["seats"] == json.loads((SAVES / name).read_text())["state"]["seats"]
    assert (g.track, g.supply, g.nonscoring) == (want["scores"], want["supply"], want["nonscoring"])
    assert g.chosen == want["chosen"] and g.winner == want["winner"] and g.showdown == want["showdown"]
    assert g.current_player() == want["current"] and g.occupied() == want["occupied"]
    assert g.offered == want["offered"]
    # the converted game goes on like any other
    if not match.is_over():
        match.seats = ["random"] * len(match.seats)
        match.players = [make_player("easy", s, random.Random()) for s in range(len(match.seats))]
        match.play_out()
        assert sum(match.state.returns()) == 1


def test_a_damaged_version_1_save_is_refused_clearly():
    state = json.loads((SAVES / "america-mid-card.json").read_text())["state"]
    for damage, message in ((lambda s: s["game"].update(version=7), "version 7"),
                            (lambda s: s["game"]["actions"].insert(3, "place:state:ZZ"), "action 4"),
                            (lambda s: s["game"]["topic_order"].__setitem__(0, "99Z"), "99Z"),
                            (lambda s: s.update(seats=["human"]), "seats"),
                            (lambda s: s["game"].update(players="Red"), "lists")):
        broken = json.loads(json.dumps(state))
        damage(broken)
        with pytest.raises(SaveError, match=message):
            legacy_save(broken)


# --- hidden information -----------------------------------------------------------------------

def test_computer_players_ignore_what_their_seat_cannot_see():
    """Keep answers hidden: a seat sees the topics offered and played, never the answers
    of a card not yet scored, nor any order of the box. Dealing the hidden answers anew
    leaves its observation and its computer player's choice as they were: the players'
    knowledge is their own memory of the deck, not the game's cards."""
    changed_states = 0
    games_played = games(12, 30)   # 30 in the long run (STATESIDE_LONG_SELFPLAY=1)
    for seed in range(games_played):
        match = Match("america", ["random"] * 3, seed=seed)
        for _ in range(60):
            if match.is_over():
                break
            state = match.state
            seat = state.current_player()
            if seat >= 0:
                other = state.with_hidden_changed(seat, random.Random(seed))
                assert other.observation(seat) == state.observation(seat)
                shown = state.offered + [state.topic_key] if state.topic_key else state.offered
                if any(other.topics[t].answers != state.topics[t].answers for t in shown):
                    changed_states += 1
                answers = [state.topics[state.topic_key].answers] if state.topic_key else []
                assert not any(json.dumps(a) in json.dumps(state.observation(seat)) for a in answers)
                for level in ("easy", "medium", "hard"):
                    a, b = (make_player(level, seat, random.Random(1)) for _ in range(2))
                    assert a.choose(state.observation(seat), state.legal_actions(seat)) == \
                        b.choose(other.observation(seat), other.legal_actions(seat))
            match.step()
    print(f"{games_played} games: {changed_states} positions where the hidden answers were dealt anew")
    assert changed_states > 100 * games_played // 30


def test_a_player_knows_a_topic_the_same_way_all_game():
    """A computer's guesses about a topic do not change from one turn to the next, nor
    when the game is loaded again (they are keyed to the game's first two topics)."""
    match = Match("america", ["ai:hard", "ai:medium"], seed=5)
    while len(match.log) < 20:
        match.step()
    original = match.players[0].beliefs(match.state.topic_key or match.state.chosen[-1])
    loaded = Match.from_json(json.loads(json.dumps(match.to_json())))
    while loaded.step().seat != 0:      # until the loaded player has looked at the game
        pass
    again = loaded.players[0].beliefs(match.state.topic_key or match.state.chosen[-1])
    assert {s: b.probs for s, b in original.items()} == {s: b.probs for s, b in again.items()}


# --- who may see what, and a consistent world --------------------------------------------

def _replayed(actions, setup=None):
    game = AmericaGame.new(setup or AmericaGame.default_setup(3))
    for action in actions:
        game.apply_action(action)
    return game


def test_the_first_topic_comes_out_of_the_box_unseen_by_every_seat():
    """America Cards: the start player sees the topics at both ends of the box. The first
    one out waits for a second from another card, so until both are offered nobody can
    tell which it was; the draw that shows them both is seen by all. The words name no
    topic for anyone."""
    game = _replayed([])
    assert game.audience("draw:1A") == frozenset()
    words = {game.describe(d, v) for d in ("draw:1A", "draw:2B") for v in (0, 1, 2, SPECTATOR, None)}
    assert words == {"A topic came up at an end of the box"}
    game.apply_action("draw:1A")
    assert game.observation(1)["offered"] == [] and game.observation(1)["drawn"] == 1
    assert game.audience("draw:2B") is EVERY_SEAT
    game.apply_action("draw:2B")
    assert game.observation(1)["offered"] == ["1A", "2B"]


def test_choices_markers_and_scoring_are_seen_by_every_seat_and_answers_only_when_scored():
    """Place the Markers / Reveal the Answers: the choice and every marker are public; the
    answers come out with the scoring, which every seat reads alike."""
    game = _replayed(["draw:1A", "draw:2B"])
    assert game.audience("choose:0") is EVERY_SEAT
    assert {game.describe("choose:0", v) for v in (0, 1, 2, SPECTATOR)} == \
        {"Red chose to read \u201cThe Transcontinental Railroad\u201d"}
    game.apply_action("choose:0")
    place = "place:state:UT"
    assert game.audience(place) is EVERY_SEAT
    assert game.describe(place, 0) == game.describe(place, SPECTATOR) == "Blue placed a marker on Utah"
    # the answers are not in any seat's view: changing them leaves every view as it was
    changed = game.with_hidden_changed(0, random.Random(4))
    assert changed.topics["1A"].answers != game.topics["1A"].answers
    assert observations(changed) == observations(game)
    for action in [place, "place:year:1850", "place:number:1K", "pass", "pass", "pass"]:
        assert game.audience(action) is EVERY_SEAT
        events = game.apply_action(action)
    assert game.results and [e.audience for e in events] == [EVERY_SEAT]
    assert events[0].text.startswith("\u201cThe Transcontinental Railroad\u201d scored")


def _mid_game(seed=8, upto=3):
    """A seeded game stopped on card `upto`, after some markers are down."""
    match = Match("america", ["ai:hard", "ai:easy", "ai:medium"], seed=seed)
    while match.state.card_number < upto or len(match.state.placements) < 2:
        match.step()
    return match.state


def test_a_consistent_world_deals_the_answers_in_play_and_keeps_the_record():
    """consistent_with: built from the setup and seat 1's view alone, a game that seat
    cannot tell from the real one; the answers of the topics offered and not yet scored
    are dealt at random, the scored ones keep theirs."""
    game = _mid_game()
    obs = json.loads(json.dumps(game.observation(1)))
    worlds = [AmericaGame.consistent_with(game.setup, 1, obs, random.Random(s)) for s in range(4)]
    for world in worlds:
        world.check_invariants()
        assert world.observation(1) == game.observation(1)
        assert observations(world) == observations(game)   # every seat sees the same here
        assert world.current_player() == game.current_player()
        assert world.legal_actions(1) == game.legal_actions(1)
        assert world.chosen == game.chosen and world.pool == game.pool
        for r in game.results:
            assert world.topics[r.topic].answers == game.topics[r.topic].answers
    topic = game.topic_key
    assert len({json.dumps(w.topics[topic].answers) for w in worlds}) > 1
    # the world plays on: the same markers are legal, and the seat sees them land alike
    for world in worlds:
        for action in game.legal_actions()[:3]:
            a, b = game.clone(), world.clone()
            a.apply_action(action)
            b.apply_action(action)
            if not a.results[len(game.results):]:
                assert a.observation(1) == b.observation(1)


def test_a_consistent_world_deals_the_unseen_first_topic_at_random():
    game = _replayed(["draw:7B"])
    obs = game.observation(2)
    firsts = {AmericaGame.consistent_with(game.setup, 2, obs, random.Random(s)).pool[0] for s in range(6)}
    assert len(firsts) > 1
    world = AmericaGame.consistent_with(game.setup, 2, obs, random.Random(0))
    assert world.observation(2) == obs and len(world.chance_outcomes()) == len(game.chance_outcomes())


def test_a_consistent_world_under_version_1_rules_finds_the_draw_nobody_named():
    """v1_rules draws topics one by one: the first topic's other side may come out before
    a topic of another card, unnamed (the record shows only the two offered)."""
    setup = {**AmericaGame.default_setup(2), "v1_rules": True}
    game = _replayed(["draw:1A", "draw:1B", "draw:2A", "choose:1"], setup)
    assert game.pool == ["1A", "1B"]
    # seen by all: it is the only draw that leaves the box still drawing
    assert _replayed(["draw:1A"], setup).audience("draw:1B") is EVERY_SEAT
    assert hidden_from(_replayed(["draw:1A"], setup), "draw:1B", CHANCE) == set()
    world = AmericaGame.consistent_with(setup, 0, game.observation(0), random.Random(3))
    assert world.observation(0) == game.observation(0) and world.pool == ["1A", "1B"]


@pytest.mark.parametrize("name", sorted(V1_FIGURES))
def test_a_consistent_world_of_every_version_1_save(name):
    _, body = read_save(SAVES / name, "america")
    game = Match.from_json(body, name).state
    for seat in range(game.num_players):
        world = AmericaGame.consistent_with(game.setup, seat, game.observation(seat), random.Random(seat))
        world.check_invariants()
        assert world.observation(seat) == game.observation(seat)
        assert world.legal_actions(seat) == game.legal_actions(seat)
