"""Game of the States: our parts (data files), seeded self-play with invariants, and the
computer players.

The long sweep (500 seeded games per variant) runs with STATESIDE_LONG_SELFPLAY=1:
    STATESIDE_LONG_SELFPLAY=1 python -m pytest tests/test_game_of_the_states_selfplay.py
"""
from __future__ import annotations

import os
import random

import pytest

from stateside.engine.match import Match
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.ai import make_player
from stateside.games.game_of_the_states.rules import VARIANTS
from stateside.games.game_of_the_states.trivia import facts_on, truth

LONG = bool(os.environ.get("STATESIDE_LONG_SELFPLAY"))
SEATS = ["random", "ai:easy", "ai:medium", "ai:hard"]


# --- our parts -----------------------------------------------------------------------------
def test_products_one_to_four_per_state_each_with_a_source():
    for code in parts.state_codes():
        assert 1 <= len(parts.products(code)) <= 4
        assert len(set(parts.products(code))) == len(parts.products(code))
        assert parts.products_source(code)
    assert parts.products("FL")[0] == "oranges" and "potatoes" in parts.products("ID")
    used = {p for c in parts.state_codes() for p in parts.products(c)}
    assert used == set(parts.catalogue())      # the platform has one space per product in play


def test_spinner_layout_and_odds():
    secs = parts.sectors()
    assert len(secs) == 20
    odds = parts.spinner_odds()
    assert odds["move"] == pytest.approx({"0": 0.1, "1": 0.2, "2": 0.3, "3": 0.3, "Traffic Jam": 0.1})
    assert set(odds["price"]) == set(range(100, 1001, 100))
    assert all(p == pytest.approx(0.1) for p in odds["price"].values())


def test_money_is_five_thousand_in_bills():
    m = parts.money()
    assert m["start"]["buy-and-sell"] == 5000
    assert sum(k * v for k, v in m["start_bills"]["buy-and-sell"].items()) == 5000
    assert parts.bills_for(700) == [500, 100, 100] and parts.bills_text(2600) == "2 \u00d7 $1,000 + $500 + $100"


# --- self-play -----------------------------------------------------------------------------
def play(variant: str, seed: int, players: int) -> Match:
    rng = random.Random(seed)
    seats = [rng.choice(SEATS) for _ in range(players)]
    setup = {"players": [f"P{i + 1}" for i in range(players)], "variant": variant}
    if variant == "trivia":
        setup["answers"] = rng.choice(["typed", "choices"])
    match = Match("game-of-the-states", seats, seed, setup)
    state = match.state
    start_money = sum(getattr(state.engine, "money", [])) + getattr(state.engine, "bank", 0)
    steps = 0
    while not match.is_over():
        match.step()
        steps += 1
        assert steps < 20_000, "no end"
        state = match.state
        state.check_invariants()
        if variant != "trivia":
            assert sum(state.engine.money) + state.engine.bank == start_money
    if variant == "buy-and-sell":
        assert all(r["done"] for r in state.engine.disks.values())
        assert len(state.engine.platform) == 4 * players
    # Special Rule #3's redraw never comes up: the setup's cards lie at the bottom
    assert not any(ev.kind == "redraw" for entry in match.log for ev in entry.events)
    returns = state.returns()
    assert abs(sum(returns) - 1) < 1e-9
    top = max(state.scores())
    assert [s for s in range(players) if returns[s] > 0] == [s for s in range(players) if state.scores()[s] == top]
    return match


@pytest.mark.parametrize("variant", VARIANTS)
def test_seeded_self_play_conserves_money_disks_and_cards(variant):
    for seed in range(10):
        play(variant, seed, 2 + seed % 3)


@pytest.mark.skipif(not LONG, reason="the long sweep: set STATESIDE_LONG_SELFPLAY=1")
@pytest.mark.parametrize("variant", VARIANTS)
def test_long_self_play_500_games(variant):
    for seed in range(500):
        play(variant, 1000 + seed, 2 + seed % 3)


# --- computer players ----------------------------------------------------------------------
def test_computer_players_choose_legal_actions_from_the_observation_only():
    for variant in VARIANTS:
        match = Match("game-of-the-states", ["ai:hard", "ai:easy"], 4,
                      {"players": ["A", "B"], "variant": variant})
        for _ in range(300):
            if match.step() is None:
                break
        for level in ("easy", "medium", "hard"):
            p = make_player(level, 0, random.Random(1))
            st = match.state
            if st.current_player() == 0:
                assert p.choose(st.observation(0), st.legal_actions(0)) in st.legal_actions(0)


def test_medium_accepts_a_price_above_a_respins_worth():
    """Medium (and hard, early in a game: tests/test_game_of_the_states_levels.py) accepts
    what beats a re-spin's mean; easy settles for less."""
    from stateside.games.game_of_the_states.ai import ACCEPT_FROM

    mean = sum(s.price for s in parts.sectors()) / len(parts.sectors())
    assert ACCEPT_FROM["medium"] == min(p for p in range(100, 1001, 100) if p > mean)
    p = make_player("medium", 1, random.Random(0))
    obs = {"variant": "buy-and-sell", "price": 500}
    assert p.choose(obs, ["accept", "respin"]) == "respin"
    assert p.choose({**obs, "price": 600}, ["accept", "respin"]) == "accept"
    assert make_player("easy", 1, random.Random(0)).choose({**obs, "price": 400}, ["accept", "respin"]) == "accept"


def test_hard_beats_random_at_buy_and_sell_and_easy_at_trivia():
    """A small sample of the figures (the full ones: `stateside selfplay`, in the notes)."""
    from stateside.selfplay import run_selfplay

    hard, rnd = run_selfplay("game-of-the-states", ["ai:hard", "random"], 24, 11, variant="buy-and-sell")
    assert hard.wins > rnd.wins
    hard, easy = run_selfplay("game-of-the-states", ["ai:hard", "ai:easy"], 10, 11, variant="trivia")
    assert hard.wins >= 8


# --- Trivia's askers and guessers ------------------------------------------------------------
def _trivia_obs(history, asker=0, code="OH", names=("A", "B")):
    return {"variant": "trivia", "card": {"code": code, "name": parts.state_name(code)}, "asker": asker,
            "names": list(names), "history": history, "tried": [], "answers_mode": "typed", "fact": None}


def test_trivia_askers_spread_their_questions_and_vary_them():
    """Issue 24: no fact over about 35% of a level's questions, and not the same fact card after card."""
    from stateside.games.game_of_the_states.ai import TriviaSpread
    from stateside.selfplay import run_selfplay

    spread = TriviaSpread()
    run_selfplay("game-of-the-states", ["ai:easy", "ai:medium", "ai:hard"], 6, 5, variant="trivia",
                 on_game=spread.add)
    for spec, tally in spread.asked.items():
        n = sum(tally.values())
        assert n == 100 and max(tally.values()) / n <= 0.35, (spec, tally)
        assert len(tally) == 6, (spec, tally)
        assert spread.repeats.get(spec, 0) / n < 0.15, spec
    assert any("ai:hard" in line and "settled" in line for line in spread.lines())


def test_trivia_askers_ask_a_stronger_answerer_harder_questions():
    from stateside.games.game_of_the_states.ai import chance_right

    strong = [{"card": c, "fact": "capital", "asker": 0, "winner": 1, "answers": ((1, truth(c, "capital")),)}
              for c in ("AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE")]
    weak = [{**h, "winner": 0, "answers": ((1, "?"),)} for h in strong]
    facts = facts_on("OH")
    for level in ("medium", "hard"):
        ease = {}
        for label, history in (("strong", strong), ("weak", weak)):
            p = make_player(level, 0, random.Random(3))
            asks = [p.choose(_trivia_obs(history), [f"ask:{f}" for f in facts])[4:] for _ in range(600)]
            ease[label] = sum(chance_right("OH", f) for f in asks) / len(asks)
        assert ease["strong"] < ease["weak"] - 0.03, (level, ease)


def test_a_computer_that_does_not_know_guesses_right_about_one_time_in_four():
    """A person picking among four likely answers is right a quarter of the time."""
    from stateside.games.game_of_the_states.trivia import choices

    p = make_player("easy", 1, random.Random(7))
    obs = {**_trivia_obs([], asker=0, code="SD"), "fact": "capital", "answers_mode": "choices"}
    opts = choices("SD", "capital")
    guesses = [p._guess(obs, "SD", "capital", "Pierre", opts) for _ in range(2000)]
    assert 0.21 < guesses.count("Pierre") / 2000 < 0.29
    # typed: a rough idea of a population is sometimes within the million
    obs = {**obs, "fact": "population", "answers_mode": "typed"}
    from stateside.games.game_of_the_states.trivia import is_right, values
    pops = [p._guess(obs, "NV", "population", "3.1", list(values("population")) + ["?"]) for _ in range(1000)]
    assert 0.2 < sum(is_right("NV", "population", v) for v in pops) / 1000 < 0.9


def test_selfplay_prints_the_question_spread_per_level(capsys):
    from stateside.__main__ import main

    assert main(["selfplay", "game-of-the-states", "--variant", "trivia", "--players", "ai:easy,ai:hard",
                 "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "questions asked, by player:" in out
    hard = next(line for line in out.splitlines() if line.strip().startswith("ai:hard") and "rank" in line)
    assert "(50 questions" in hard and "capital" in hard
