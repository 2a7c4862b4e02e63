"""Scrambled States rules engine: rounds, slaps, No Match, slip slaps, ties, the end, saving."""
from __future__ import annotations

import json
import random

import pytest

from stateside.engine.match import Match, sample_chance
from stateside.errors import IllegalActionError, SaveError
from stateside.games.scrambled_states.rules import (
    FACE_UP, FACES, Action, Advance, Event, Roll, Round, ScrambledStates, Settings, Turn, buzz, matches, no_match,
    slap,
)
from stateside.games.scrambled_states.cards import load_cards
from stateside.selfplay import play_match

PAUSE = Settings(()).round_pause_ms


def make(players=2, seed=7, **options) -> ScrambledStates:
    """A game dealt as the match layer deals it: chance sampled under `seed`."""
    g = ScrambledStates(Settings(("Ann", "Bob", "Cy", "Di", "Ed", "Flo")[:players], **options))
    rng = random.Random(seed)
    while g.to_draw:
        g.apply_action(sample_chance(g, rng))
    return g


def settle(g: ScrambledStates, t: int, turn=()) -> list[Event]:
    """Let time pass to `t` through the deadlines; whenever chance is asked, turn up the
    cards (or die faces) of `turn` first, then the first outcome on offer."""
    turn, events = list(turn), []
    while not g.is_terminal():
        if g.to_draw and turn:
            x = turn.pop(0)
            events += g.apply_action(Roll(x) if x in FACES else Turn(x))
        elif g.to_draw:
            events += g.apply_action(g.chance_outcomes()[0][0])
        elif g.now() < t:
            d = g.next_deadline()
            events += g.apply_action(Advance(t if d is None else min(t, d)))
        else:
            break
    return events


def act(g: ScrambledStates, action: Action, turn=()) -> list[Event]:
    """A seat's action at its time stamp: time passes to it first (as the clock lets it)."""
    return settle(g, action.t, turn) + g.apply_action(action)


def arrange(game: ScrambledStates, center: str, face: str, table: list[str]) -> None:
    """Lay out a known table: `table` face up (the other spaces empty), `center` on the
    center pile, every other card in the draw pile; the die already landed on `face`."""
    rest = [c for c in game.cards.codes if c not in table and c != center]
    game.face_up = list(table) + [None] * (FACE_UP - len(table))
    game.center_pile = [center]
    game.draw = rest
    game.to_draw = []
    game.piles = [[] for _ in game.piles]
    game.round = Round(game.round_count, center, face, reveal_at=game.now(), announced=True,
                       first_action=len(game.actions), open_since=game.now())


def assert_all_cards_accounted(game: ScrambledStates) -> None:
    places = game.card_locations()
    total = len(game.face_up_cards()) + len(game.draw) + len(game.center_pile) + sum(game.scores())
    assert total == 50 and len(places) == 50 and set(places) == set(game.cards.codes)


def test_setup_fifteen_face_up_and_a_center_card():
    """Setup / How to Play: 15 cards face up, the rest in a draw pile; one turned over, die rolled."""
    g = make()
    assert len(g.face_up_cards()) == 15
    assert len(g.draw) == 34 and g.center_pile == [g.center]
    assert g.face in FACES
    assert g.phase == "rolling" and g.next_deadline() == PAUSE
    assert_all_cards_accounted(g)


def test_same_seed_same_game():
    a, b = make(), make()
    assert (a.face_up, a.draw, a.center, a.face) == (b.face_up, b.draw, b.center, b.face)
    c = make(seed=8)
    assert (c.face_up, c.draw) != (a.face_up, a.draw)


def test_no_slap_before_the_die_lands():
    g = make()
    with pytest.raises(IllegalActionError, match="Wait for the die"):
        act(g, slap(0, g.face_up[0], PAUSE - 1))
    assert g.actions == []
    events = settle(g, PAUSE)
    assert [e.kind for e in events] == ["reveal"] and g.phase == "open"


def test_correct_slap_wins_and_the_center_card_fills_the_space():
    """How to Play: the slapped card goes to the winner; the center card moves into the
    playing area; a new round turns over the next card and rolls the die."""
    g = make()
    arrange(g, "TX", "population", ["VT", "CA", "OR"])
    next_card = g.draw[-1]
    events = act(g, slap(1, "CA", 500))
    settle(g, 500 + g.settings.tie_window_ms, turn=[next_card])
    assert g.piles[1] == ["CA"]
    assert g.face_up[1] == "TX"                       # the center card took California's space
    assert g.center == next_card and g.round.reveal_at == 500 + g.settings.tie_window_ms + PAUSE
    win = g.results[-1]
    assert win.kind == "win" and win.players == (1,) and "same population" in win.text
    assert events[0].kind == "pending"
    assert_all_cards_accounted(g)


def test_with_nobody_else_able_to_tie_the_slap_wins_at_once():
    g = make()
    arrange(g, "TX", "population", ["VT", "CA"])
    act(g, slap(0, "VT", 100))                # Ann slips: only Bob is left
    act(g, slap(1, "CA", 200))
    assert g.piles[1] == ["CA"] and g.results[-1].kind == "win" and g.now() == 200


def test_hand_first_to_slap_the_center_card_wins_it():
    """If the die shows Hand: the first player to slap the center card wins it."""
    g = make(3)
    arrange(g, "OH", "hand", ["IN", "MI"])
    act(g, slap(2, "OH", 300))
    assert g.piles[2] == ["OH"] and g.results[-1].kind == "hand"
    assert g.face_up_cards() == ["IN", "MI"]         # no space to fill
    with pytest.raises(IllegalActionError):
        act(g, slap(0, "OH", 310))           # the round is over
    assert_all_cards_accounted(g)


def test_hand_slapping_a_face_up_card_is_a_slip():
    g = make()
    arrange(g, "OH", "hand", ["IN", "MI"])
    act(g, slap(0, "MI", 100))
    assert g.is_barred(0) and g.scores() == [0, 0]


def test_slapping_the_center_card_on_another_face_is_a_slip():
    g = make()
    arrange(g, "OH", "region", ["IN", "MI"])
    act(g, slap(0, "OH", 100))
    assert g.is_barred(0)


def test_no_match_right_wins_the_center_card():
    """No Match: if none of the cards matches, the first to call it wins the center card."""
    g = make()
    arrange(g, "TX", "region", ["CA", "NY", "ME"])    # no South Central card on the table
    act(g, no_match(1, 4000))
    assert g.piles[1] == ["TX"] and g.results[-1].kind == "no-match"
    assert g.face_up_cards() == ["CA", "NY", "ME"]
    assert_all_cards_accounted(g)


def test_no_match_wrong_is_a_slip():
    """No Match called while a card matches: that player sits out the round."""
    g = make()
    arrange(g, "TX", "region", ["CA", "OK", "ME"])
    events = act(g, no_match(0, 900))
    assert events[-1].kind == "slip" and "Oklahoma" in events[-1].text
    assert g.is_barred(0) and g.scores() == [0, 0]
    act(g, slap(1, "OK", 1500))
    assert g.piles[1] == ["OK"]


def test_no_match_on_hand_is_wrong():
    g = make()
    arrange(g, "TX", "hand", ["CA"])
    act(g, no_match(0, 100))
    assert g.is_barred(0)


def test_slip_slap_bars_the_player_for_the_rest_of_the_round():
    """Slip Slaps: a wrong card bars you for the round; the others keep looking."""
    g = make(3)
    arrange(g, "TX", "colour", ["CA", "CO", "NY"])      # Colorado is red like Texas
    events = act(g, slap(0, "CA", 1000))
    assert events[-1].kind == "slip" and "sits out" in events[-1].text
    for action in (slap(0, "CO", 1100), no_match(0, 1100)):
        with pytest.raises(IllegalActionError, match="sits out"):
            act(g, action)
    assert g.legal_actions(0) == []
    act(g, slap(2, "CO", 2000))
    settle(g, 3000)
    assert g.piles[2] == ["CO"] and g.piles[0] == []
    # The bar lasts one round only.
    settle(g, g.round.reveal_at)
    assert not g.is_barred(0) and g.legal_actions(0)


def test_everyone_slipping_voids_the_round():
    g = make()
    arrange(g, "TX", "colour", ["CA", "CO"])
    act(g, slap(0, "CA", 100))
    act(g, no_match(1, 200))
    settle(g, 200)   # the next card is turned up
    assert g.results[-1].kind == "void"
    assert g.center_pile[0] == "TX" and len(g.center_pile) == 2   # buried under the next card
    assert_all_cards_accounted(g)


def test_a_round_nobody_wins_runs_out():
    g = make(round_limit_ms=5000)
    arrange(g, "TX", "colour", ["CA", "CO"])
    settle(g, 4999)
    assert g.results == []
    settle(g, 5000)
    assert g.results[-1].kind == "void" and g.results[-1].t == 5000


def test_tie_both_keep_their_cards_and_the_spaces_are_refilled():
    """Ties: two players slap different matching cards at the same time; both keep their
    cards; the spaces are filled with the center card and another card from the pile."""
    g = make(3)
    arrange(g, "TX", "population", ["CA", "VT", "NY", "FL"])
    top = g.draw[-1]
    act(g, slap(0, "NY", 1000))
    events = act(g, slap(2, "FL", 1000 + g.settings.tie_window_ms - 1))
    assert events == [] and g.phase == "closing"
    settle(g, 1000 + g.settings.tie_window_ms, turn=[top])
    tie = g.results[-1]
    assert tie.kind == "tie" and tie.players == (0, 2) and tie.cards == ("NY", "FL")
    assert g.piles == [["NY"], [], ["FL"]]
    assert g.face_up[:4] == ["CA", "VT", "TX", top]
    assert_all_cards_accounted(g)


def test_a_slap_after_the_tie_window_is_too_late():
    g = make(3)
    arrange(g, "TX", "population", ["CA", "NY", "FL"])
    act(g, slap(0, "NY", 1000))
    with pytest.raises(IllegalActionError):
        act(g, slap(2, "FL", 1000 + g.settings.tie_window_ms))
    assert g.piles == [["NY"], [], []]


def test_slapping_the_same_card_a_moment_later_gets_nothing():
    g = make()
    arrange(g, "TX", "population", ["CA", "NY"])
    act(g, slap(0, "NY", 1000))
    events = act(g, slap(1, "NY", 1100))
    assert events[-1].kind == "late" and not g.is_barred(1)
    settle(g, 2000)
    assert g.piles == [["NY"], []]


def test_target_is_a_setting():
    """Ending the Game: the first to collect the target (10 by default) wins."""
    g = make(target=2)
    for n, t in enumerate((1000, 5000)):
        arrange(g, "TX", "population", ["CA"])
        g.piles = [["OH"] * n, []] if n else [[], []]
        act(g, slap(0, "CA", t))
        settle(g, t + 300)
    assert g.is_terminal() and g.winners() == [0] and g.returns() == [1.0, 0.0]
    assert g.events[-1].kind == "game-over" and "reached 2 cards" in g.events[-1].text


def test_when_the_pile_runs_out_the_most_cards_win():
    """Our end when the draw pile is empty and a new round needs a card: most cards win."""
    g = make()
    arrange(g, "TX", "population", ["CA"])
    g.piles = [["AK", "AL"], ["AR"]]
    g.draw = ["NY"]
    g.center_pile = [c for c in g.cards.codes if c not in ("AK", "AL", "AR", "NY", "CA")]  # long buried
    g.center_pile.remove("TX")
    g.center_pile.append("TX")
    assert_all_cards_accounted(g)
    act(g, slap(1, "CA", 500))       # 2-2; next round turns over New York
    settle(g, 800)
    assert not g.is_terminal() and g.center == "NY" and g.draw == []
    arrange_face = g.round
    arrange_face.face, arrange_face.reveal_at = "hand", 800
    act(g, slap(0, "NY", 900))       # 3-2; no card left for another round
    assert g.is_terminal() and g.winners() == [0]
    assert "draw pile ran out" in g.end_reason
    assert_all_cards_accounted(g)


def test_pile_out_with_equal_counts_is_a_shared_win():
    g = make()
    arrange(g, "TX", "population", ["CA"])
    g.draw = []
    g.piles = [["AK"], []]
    act(g, slap(1, "CA", 500))
    settle(g, 800)
    assert g.winners() == [0, 1]


def test_time_never_runs_backwards():
    g = make()
    settle(g, 5000)
    with pytest.raises(IllegalActionError, match="backwards"):
        act(g, no_match(0, 4000))


def test_party_buzzer_first_then_pick():
    g = make(3, buzzer_seats=(0, 1))
    arrange(g, "TX", "population", ["CA", "NY"])
    with pytest.raises(IllegalActionError, match="buzzer key first"):
        act(g, slap(0, "CA", 100))
    act(g, buzz(1, 200))
    for action in (buzz(0, 300), slap(0, "CA", 300), slap(2, "CA", 300)):
        with pytest.raises(IllegalActionError, match="Bob has the buzzer"):
            act(g, action)
    act(g, slap(1, "NY", 2500))          # within 3 s of the buzz
    settle(g, 2500 + g.settings.tie_window_ms)   # Cy (no buzzer) could still have tied
    assert g.piles[1] == ["NY"] and g.results[-1].kind == "win"


def test_party_buzzer_runs_out_is_a_slip():
    g = make(2, buzzer_seats=(0, 1))
    arrange(g, "TX", "population", ["CA"])
    act(g, buzz(0, 1000))
    settle(g, 3999)
    assert not g.is_barred(0)
    events = settle(g, 4000)
    assert events[-1].kind == "buzz-timeout" and g.is_barred(0)
    act(g, buzz(1, 4100))
    act(g, slap(1, "CA", 4200))
    assert g.piles[1] == ["CA"]


def test_save_and_load_replays_the_same_game():
    match = Match(ScrambledStates, ["ai:hard", "ai:easy", "ai:medium"], seed=11)
    match.play_out()
    game = match.state
    # Save a finished game and load it.
    data = json.loads(json.dumps(match.to_json()))
    again = Match.from_json(data).state
    assert again.scores() == game.scores() and again.winners() == game.winners()
    assert again.face_up == game.face_up and [e.text for e in again.events] == [e.text for e in game.events]
    # Save part way through and resume.
    part = dict(data, actions=data["actions"][:60])
    resumed = Match.from_json(part).state
    assert resumed.now() == match.state_after(60).now() and not resumed.is_terminal()
    assert match.state_after(17).scores() == [0, 0, 0]


@pytest.mark.parametrize("bad, message", [
    ("nonsense", "not a JSON object"),
    ({"game": "scrambled-states", "rules_version": 99}, "rules version 99"),
    ({"game": "scrambled-states", "seed": 1}, "setup"),
    ({"game": "scrambled-states", "setup": {"players": ["A", "B"]}, "seed": 1, "seats": ["human", "human"],
      "actions": [["slap", 0, 10, "TX"]]}, "not legal there"),
])
def test_broken_saves_are_refused(bad, message):
    with pytest.raises(SaveError, match=message):
        Match.from_json(bad)


@pytest.mark.parametrize("specs", [
    ["ai:hard", "ai:easy"],
    ["ai:medium", "ai:medium", "random"],
    ["ai:easy", "ai:easy", "ai:hard", "ai:medium", "random", "ai:easy"],
])
def test_seeded_computer_games_end_with_a_winner_and_every_card_accounted(specs):
    """A full seeded game between computer players ends with a winner, every card in one place."""
    for seed in range(25):
        record = play_match("scrambled-states", specs, seed)
        game = record.match.state
        assert game.is_terminal()
        assert_all_cards_accounted(game)
        assert game.winners(), (specs, seed)
        best = max(game.scores())
        assert all(game.scores()[w] == best for w in game.winners())
        wins = sum(len(e.cards) for e in game.results if e.kind in ("win", "tie", "hand", "no-match"))
        assert wins == sum(game.scores())
        # Deterministic: the same seed replays to the same game.
        again = play_match("scrambled-states", specs, seed)
        assert again.match.actions == record.match.actions


def test_ties_happen_between_equal_computers():
    kinds = []
    for seed in range(30):
        game = play_match("scrambled-states", ["ai:hard", "ai:hard", "ai:hard"], seed).match.state
        kinds += [e.kind for e in game.results]
        assert_all_cards_accounted(game)
    assert "tie" in kinds and "no-match" in kinds and "hand" in kinds


# --- the rulebook's examples on the engine, face by face ---------------------------------
@pytest.mark.parametrize("face, center, right, wrong", [
    # "if the center card has a yellow border, the first player to slap one of the 15 cards that
    # also has a yellow border wins the card": Wyoming and Arizona are Mountain (yellow).
    ("region", "WY", "AZ", "CA"),
    # "the first player to slap a card with that same land mass icon wins it": 50,000-99,999 sq mi.
    ("land-mass", "WY", "IA", "CT"),
    # "if the center card shows three people, the first player to slap a card with three people wins it".
    ("population", "OK", "CT", "TX"),
    # "if the center card has a red state, the first player to slap a card with a red state wins it".
    ("colour", "TX", "CO", "AZ"),
    # "an orange state with a green border ... matches any two of those features": our Oklahoma is a
    # green state with an orange (South Central) border and three people; Mississippi shares the
    # border and the people, Texas only the border.
    ("two", "OK", "MS", "TX"),
])
def test_how_to_play_each_die_face_first_correct_slap_wins(face, center, right, wrong):
    """How to Play, "If the die shows": the rulebook's example for each face, on the engine."""
    g = make(3)
    arrange(g, center, face, [wrong, right, "HI"])
    events = act(g, slap(0, wrong, 400))
    assert events[-1].kind == "slip" and g.is_barred(0)
    act(g, slap(1, right, 900))
    settle(g, 900 + g.settings.tie_window_ms)
    assert g.piles == [[], [right], []] and g.results[-1].kind == "win"
    assert g.face_up[1] == center          # the center card moved into the playing area


def test_no_match_then_play_continues_as_normal():
    """No Match: "Play then continues as normal": the next card is turned over and the die rolled."""
    g = make()
    arrange(g, "TX", "region", ["CA", "NY", "ME"])
    top = g.draw[-1]
    act(g, no_match(0, 1000))
    settle(g, 1000, turn=[top])
    assert g.piles[0] == ["TX"] and g.center == top and g.phase == "rolling"
    assert g.round.reveal_at == 1000 + PAUSE and not g.is_barred(0)


def test_ending_the_game_first_to_ten_by_default():
    """Ending the Game: "The first player to collect 10 cards wins" (the default target)."""
    g = make()
    assert g.settings.target == 10
    arrange(g, "TX", "population", ["CA"])
    g.piles = [[c for c in g.draw[:9]], []]
    g.draw = g.draw[9:]
    act(g, slap(0, "CA", 500))
    settle(g, 500 + g.settings.tie_window_ms)
    assert g.is_terminal() and g.winners() == [0] and len(g.piles[0]) == 10
    assert_all_cards_accounted(g)


def test_a_tie_that_brings_both_to_the_target_is_a_shared_win():
    """Ties + Ending the Game: both keep their cards, so both reach 10 at once and share the win."""
    g = make()
    arrange(g, "TX", "population", ["CA", "NY"])
    g.piles = [g.draw[:9], g.draw[9:18]]
    g.draw = g.draw[18:]
    act(g, slap(0, "CA", 500))
    act(g, slap(1, "NY", 550))
    settle(g, 500 + g.settings.tie_window_ms)
    assert g.results[-1].kind == "tie" and g.winners() == [0, 1] and g.scores() == [10, 10]
    assert_all_cards_accounted(g)


@pytest.mark.parametrize("field, value", [
    ("target", "10"), ("tie_window_ms", None), ("round_limit_ms", [1]), ("buzz_window_ms", {}), ("target", 0),
])
def test_saves_with_broken_settings_are_refused(field, value):
    data = Match(ScrambledStates, ["ai:hard", "ai:easy"], 2).to_json()
    data["setup"][field] = value
    with pytest.raises(SaveError):
        Match.from_json(data)


def test_untimed_rounds_wait_for_a_player():
    """round_limit_ms 0 (practice, people only): no deadline once the die has landed, time
    may pass as far as it likes, and the round is still won as usual."""
    g = make(round_limit_ms=0)
    arrange(g, "TX", "population", ["VT", "CA", "OR", "NY"])
    assert g.next_deadline() is None
    settle(g, 3_600_000)
    assert g.results == [] and g.phase == "open" and g.now() == 3_600_000
    act(g, slap(0, "NY", 3_600_000))
    settle(g, 3_600_000 + g.settings.tie_window_ms)
    assert g.results[-1].kind == "win" and g.piles[0] == ["NY"]
    with pytest.raises(ValueError, match="must be 0 to 600,000 ms"):
        Settings(("A", "B"), round_limit_ms=-1).check()


def test_matches_accepts_color_and_a_card_never_matches_itself():
    """matches(): "color" is "colour"; no card matches itself on any feature face; on Hand
    the center card is the one card to slap."""
    assert matches("TX", "CA", "color") == matches("TX", "CA", "colour")
    same_colour = next(c for c in load_cards().codes if c != "TX" and matches("TX", c, "colour"))
    assert matches("TX", same_colour, "color")
    for face in ("region", "land-mass", "population", "colour", "color", "two"):
        assert not matches("TX", "TX", face), face
    assert matches("TX", "TX", "hand") and not matches("TX", "CA", "hand")
    with pytest.raises(ValueError, match="unknown die face"):
        matches("TX", "CA", "shape")
