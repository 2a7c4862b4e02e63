"""Game of the States: the Trivia game and the Junior version (rulebook sections named)."""
from __future__ import annotations

import pytest

import json
import random

from stateside.engine.protocol import CHANCE, SPECTATOR
from stateside.errors import IllegalActionError
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.junior import HOME_BONUS
from stateside.games.game_of_the_states.matching import UNKNOWN
from stateside.games.game_of_the_states.rules import GameOfTheStates
from stateside.games.game_of_the_states.trivia import choices, facts_on, is_right, truth

MOVE = {1: "spin:0", 3: "spin:1", 2: "spin:2", "jam": "spin:3", 0: "spin:6"}
PRICE = {100: "spin:0", 600: "spin:1", 200: "spin:2", 700: "spin:3", 300: "spin:4", 800: "spin:5",
         400: "spin:6", 900: "spin:7", 500: "spin:8", 1000: "spin:9"}


def trivia(players=("Ann", "Bob", "Cy"), answers="typed"):
    return GameOfTheStates.new({"players": list(players), "variant": "trivia", "answers": answers})


# --- Trivia --------------------------------------------------------------------------------
def test_the_asker_draws_and_chooses_any_fact_on_the_card():
    """Trivia: "draw the top card and ask one question to the player to your left. You can
    ask a question about any one fact on this card." """
    g = trivia()
    assert g.current_player() == CHANCE and len(g.chance_outcomes()) == 50
    g.apply_action("card:AL")
    assert g.current_player() == 0
    assert g.legal_actions(0) == [f"ask:{f}" for f in
                                  ("nickname", "population", "capital", "settled", "entered", "rank")]
    # the asker holds the card; the others learn its state from the question, never its facts
    assert "facts" in g.observation(0)["card"] and g.observation(1)["card"] is None
    g.apply_action("ask:capital")
    assert g.observation(1)["card"] == {"code": "AL", "name": "Alabama"}
    assert g.current_player() == 1


def test_hawaii_has_no_year_settled_to_ask():
    assert "settled" not in facts_on("HI") and len(facts_on("HI")) == 5


def test_a_right_answer_wins_the_card_and_the_turn_passes_left():
    g = trivia()
    g.apply_action("card:AL")
    g.apply_action("ask:capital")
    g.apply_action("say:Montgomery")
    assert g.engine.won[1] == ["AL"] and g.engine.asker == 1 and g.current_player() == CHANCE


def test_a_wrong_answer_passes_left_and_nobody_right_the_asker_keeps_the_card():
    """Trivia: "If incorrect, the player to his left can answer, and so forth. If no player
    guesses the answer correctly, you announce the answer and keep the card yourself." """
    g = trivia()
    g.apply_action("card:AL")
    g.apply_action("ask:capital")
    g.apply_action("say:Mobile" if "say:Mobile" in g.legal_actions(1) else f"say:{UNKNOWN}")
    assert g.current_player() == 2
    events = g.apply_action("say:Birmingham" if "say:Birmingham" in g.legal_actions(2) else "say:Juneau")
    assert g.engine.won[0] == ["AL"]
    assert "Montgomery" in events[-1].text and "keeps the card" in events[-1].text
    assert g.engine.asker == 1


def test_population_is_asked_in_millions_and_right_within_one_million():
    """Trivia: "for population, ask how many millions of people are in the state; a
    correct answer is within one million." California: 39,538,223 (2020)."""
    assert is_right("CA", "population", "39.5")
    assert is_right("CA", "population", "38.6") and is_right("CA", "population", "40.5")
    assert not is_right("CA", "population", "38.5") and not is_right("CA", "population", "40.6")
    assert is_right("WY", "population", "0.0") and is_right("WY", "population", "1.5")


def test_the_year_of_entry_is_right_by_the_year_alone():
    """Trivia: "For date entered the union, the correct year only is required." """
    assert truth("DE", "entered") == "1787"
    assert is_right("DE", "entered", "1787") and not is_right("DE", "entered", "1788")
    assert is_right("HI", "rank", "50") and is_right("AK", "entered", "1959")


def test_four_choices_setting_holds_the_right_answer_and_three_wrong_ones():
    for code in parts.state_codes():
        for fact in facts_on(code):
            opts = choices(code, fact)
            assert len(opts) == 4 == len(set(opts))
            assert sum(is_right(code, fact, o) for o in opts) == 1, (code, fact, opts)
    g = trivia(answers="choices")
    g.apply_action("card:CA")
    g.apply_action("ask:population")
    assert g.legal_actions(1) == [f"say:{o}" for o in choices("CA", "population")]
    assert g.observation(1)["choices"] == choices("CA", "population")


def test_most_cards_wins_after_all_50():
    g = trivia(players=("Ann", "Bob"))
    for i, code in enumerate(parts.state_codes()):
        g.apply_action(f"card:{code}")
        g.apply_action("ask:capital")
        # Bob knows every capital when Ann asks; Ann knows none when Bob asks
        g.apply_action(f"say:{truth(code, 'capital')}" if g.current_player() == 1 else f"say:{UNKNOWN}")
    assert g.is_terminal()
    assert g.scores() == [0.0, 50.0] and g.returns() == [0.0, 1.0]


def test_trivia_refuses_an_answer_of_another_fact():
    g = trivia()
    g.apply_action("card:AL")
    g.apply_action("ask:rank")
    with pytest.raises(IllegalActionError):
        g.apply_action("say:Montgomery")
    assert "say:22" in g.legal_actions(1) and "say:?" in g.legal_actions(1)


# --- Trivia: who may see what ---------------------------------------------------------------
def test_the_card_drawn_is_the_askers_until_the_question_names_its_state():
    """Trivia: "draw the top card and ask one question": the others hear the question, so
    they learn the card's state from it, never before, and never its facts."""
    g = trivia()
    assert g.audience("card:AL") == frozenset({0})
    assert g.describe("card:AL", 0) == g.describe("card:AL", None) == "Ann drew the card of Alabama"
    assert g.describe("card:AL", 1) == g.describe("card:AL", SPECTATOR) == "Ann drew a card from the deck"
    assert g.describe("card:AL", 2) == g.describe("card:WY", 2)
    (drawn,) = g.apply_action("card:AL")
    assert drawn.audience == frozenset({0}) and "Alabama" in drawn.text
    # the question is said aloud: everyone sees it; its event names the state
    assert g.audience("ask:capital") is None
    assert g.describe("ask:capital", 0) == "Ann asked Bob the capital of Alabama"
    assert g.describe("ask:capital", 1) == "Ann asked Bob the capital of the state on the card"
    (asked,) = g.apply_action("ask:capital")
    assert asked.audience is None and "Alabama" in asked.text
    assert g.audience("say:Montgomery") is None


def test_the_last_card_of_the_deck_is_no_secret():
    """Everyone has seen the 49 others go: the last card drawn is known to all."""
    g = trivia(("Ann", "Bob"))
    for code in parts.state_codes()[:-1]:
        g.apply_action(f"card:{code}")
        g.apply_action("ask:capital")
        g.apply_action(f"say:{truth(code, 'capital')}")
    (last, _), = g.chance_outcomes()
    assert g.audience(last) is None and g.describe(last, 0) == g.describe(last, None)
    g.apply_action(last)
    world = GameOfTheStates.consistent_with(g.setup, 0, g.observation(0), random.Random(1))
    assert world.engine.card == g.engine.card and world.observation(0) == g.observation(0)


def test_a_consistent_world_deals_the_askers_card_among_those_nobody_has_won():
    g = trivia()
    for code in ("AL", "OH", "TX"):
        g.apply_action(f"card:{code}")
        g.apply_action("ask:capital")
        g.apply_action(f"say:{truth(code, 'capital')}")
    g.apply_action("card:NE")                    # Ann holds Nebraska; Bob and Cy do not know it
    seen = set()
    for i in range(20):
        for seat in (1, 2):
            obs = json.loads(json.dumps(g.observation(seat)))
            w = GameOfTheStates.consistent_with(g.setup, seat, obs, random.Random(i))
            w.check_invariants()
            assert w.observation(seat) == g.observation(seat) and w.current_player() == 0
            assert w.engine.card not in ("AL", "OH", "TX") and len(w.engine.deck) == 46
            seen.add(w.engine.card)
    assert len(seen) > 5
    # the asker knows her card: her world is the game
    w = GameOfTheStates.consistent_with(g.setup, 0, g.observation(0), random.Random(3))
    assert w.engine.card == "NE" and w.legal_actions(0) == g.legal_actions(0)
    assert [w.observation(s) for s in range(3)] == [g.observation(s) for s in range(3)]
    # once asked, the card is everyone's: every world goes on as the game does
    g.apply_action("ask:population")
    w = GameOfTheStates.consistent_with(g.setup, 2, g.observation(2), random.Random(4))
    assert [w.observation(s) for s in range(3)] == [g.observation(s) for s in range(3)]
    assert w.legal_actions(1) == g.legal_actions(1)


def test_a_junior_world_is_the_game_itself():
    """Junior hides nothing (the face-down piles are drawn as they are turned over): the
    world rebuilt from any seat's observation goes on exactly as the game."""
    g = junior()
    g.apply_action("card:KY")
    g.apply_action(MOVE[3])
    g.apply_action("move:KY")
    g.apply_action(PRICE[700])                   # a sale: the next card is turned over at once
    w = GameOfTheStates.consistent_with(g.setup, 1, g.observation(1), random.Random(0))
    assert w.engine._after_reveal and w.engine.deck.unseen == g.engine.deck.unseen
    for action in ("card:TN", "card:OK", MOVE[2]):
        assert w.legal_actions() == g.legal_actions() and w.audience(action) is None
        w.apply_action(action)
        g.apply_action(action)
        assert [w.observation(s) for s in range(2)] == [g.observation(s) for s in range(2)]


# --- Junior --------------------------------------------------------------------------------
def junior(homes=("OH", "TX")):
    g = GameOfTheStates.new({"players": ["Kim", "Lee"][:len(homes)], "variant": "junior"})
    for code in homes:
        g.apply_action(f"card:{code}")
    return g


def drive_to(g, seat, dest):
    """Spin 3s until `seat` reaches `dest` (the other player spins 0)."""
    while True:
        if g.engine.turn != seat:
            g.apply_action(MOVE[0])
            continue
        g.apply_action(MOVE[3])
        ends = [a[5:] for a in g.legal_actions(seat)]
        end = dest if dest in ends else ends[0]
        g.apply_action(f"move:{end}")
        if end == dest:
            return


def test_junior_setup_home_state_with_the_loaded_truck_and_four_cards():
    """Junior, Setup: each player's truck, loaded with his disk, on his home state; four
    more cards face down. The youngest (first seat) starts."""
    g = junior()
    e = g.engine
    assert e.home == ["OH", "TX"] and e.truck == ["OH", "TX"] and e.pile == [4, 4]
    assert e.money == [0, 0] and e.turn == 0
    assert g.current_player() == CHANCE and e.phase == "reveal"
    # the face-down piles do not exist before they are turned over
    assert "card:OH" not in g.legal_actions() and len(g.legal_actions()) == 48


def test_junior_destinations_sales_home_last_and_the_first_home_bonus():
    """Junior, How to play: reach each destination (not by exact count), spin a sale from
    the bank, turn over the next; after the fourth go home; the first home collects a $500
    bonus and a sale; the others play on until home, without a bonus; most money wins."""
    g = junior()
    e = g.engine
    g.apply_action("card:KY")           # Kim's first destination, next to Ohio
    g.apply_action(MOVE[3])
    assert g.legal_actions(0) == ["move:KY"]      # early arrival
    g.apply_action("move:KY")
    assert e.phase == "sale" and g.current_player() == CHANCE
    g.apply_action(PRICE[700])
    assert e.money[0] == 700
    assert e.phase == "reveal" and e.turn == 0    # the next card is turned over at once
    g.apply_action("card:TN")
    assert e.dest[0] == "TN" and e.turn == 1 and e.pile[0] == 2
    g.apply_action("card:OK")           # Lee's first destination
    g.apply_action(MOVE["jam"])         # Traffic Jam: no move
    assert e.truck[1] == "TX" and e.turn == 0
    drive_to(g, 0, "TN"); g.apply_action(PRICE[100]); g.apply_action("card:IN")
    drive_to(g, 0, "IN"); g.apply_action(PRICE[100]); g.apply_action("card:MI")
    drive_to(g, 0, "MI"); g.apply_action(PRICE[100])
    assert e.dest[0] == "OH" and e.pile[0] == 0   # the home card turned over
    drive_to(g, 0, "OH")
    g.apply_action(PRICE[200])
    assert e.finished[0] and e.first_home == 0 and e.money[0] == 700 + 300 + HOME_BONUS + 200
    # Lee plays on alone; no bonus at home
    assert e.turn == 1
    for code in ("OK", "KS", "NE", "CO"):
        if e.dest[1] is None:
            g.apply_action(f"card:{code}")
        if e.dest[1] != code:
            continue
        drive_to(g, 1, code)
        g.apply_action(PRICE[1000])
        if e.phase == "reveal":
            g.apply_action(f"card:{['OK', 'KS', 'NE', 'CO'][['OK', 'KS', 'NE', 'CO'].index(code) + 1]}")
    assert e.dest[1] == "TX"
    drive_to(g, 1, "TX")
    g.apply_action(PRICE[1000])
    assert g.is_terminal() and e.money[1] == 5000
    assert g.returns() == [0.0, 1.0] and g.scores() == [1700.0, 5000.0]
    g.check_invariants()


def test_year_settled_accepts_every_documented_year_and_the_reveal_names_them():
    """Pennsylvania: the Swedes at Tinicum Island (1643, the card) or William Penn's
    Philadelphia (1682), both documented (resources/game_of_the_states/settled.yaml)."""
    assert is_right("PA", "settled", "1643") and is_right("PA", "settled", "1682")
    assert not is_right("PA", "settled", "1681")
    g = trivia()
    g.apply_action("card:PA")
    g.apply_action("ask:settled")
    ev = g.apply_action("say:1682")
    assert "right" in ev[0].text and "1643" in ev[0].text and g.engine.won[1] == ["PA"]
    g.apply_action("card:NM")
    g.apply_action("ask:settled")
    g.apply_action("say:1700")
    ev = g.apply_action("say:1701")
    assert "keeps the card" in ev[-1].text and "1610" in ev[-1].text and "1598" in ev[-1].text


def test_every_other_year_settled_names_its_source_and_agrees_with_the_card():
    from stateside.errors import DataError

    other = parts.other_settled_years()
    assert len(other) >= 25
    for code, years in other.items():
        assert all(o.source and o.what and str(o.year) != truth(code, "settled") for o in years), code
    import pathlib
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = pathlib.Path(d) / "settled.yaml"
        y = "{year: %d, what: x, source: y, url: 'https://example.org/', fact: z}"
        p.write_text(f"PA:\n  card: {y % 1650}\n  also:\n    - {y % 1682}\n")
        with pytest.raises(DataError, match="PA.*1643"):
            parts.read_settled(p, parts.states())
