"""Typed action errors (after python-chess's InvalidMoveError and IllegalMoveError): a
malformed action is an InvalidActionError, a well-formed one that is not legal now an
IllegalActionError; both are ValueErrors, and callers tell them apart by type."""
from __future__ import annotations

import pytest

from stateside.engine.match import Match, rules_for
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, GameSpec, State
from stateside.errors import IllegalActionError, InvalidActionError, SaveError, StatesideError
from stateside.registry import discover_games

GAMES = [g.id for g in discover_games() if g.rules]


def test_both_are_value_errors_with_words_for_a_person():
    assert issubclass(InvalidActionError, ValueError) and issubclass(IllegalActionError, ValueError)
    assert issubclass(InvalidActionError, StatesideError) and issubclass(IllegalActionError, StatesideError)
    assert not issubclass(InvalidActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, InvalidActionError)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("raw", [None, 12, {"no such move": 1}, [], ["slap"], "x" * 500])
def test_a_malformed_action_is_an_invalid_action(game, raw):
    state = rules_for(game).new(rules_for(game).default_setup(2))
    with pytest.raises(InvalidActionError) as caught:
        state.action_from_json(raw)
    assert str(caught.value) and "Traceback" not in str(caught.value)


@pytest.mark.parametrize("game", GAMES)
def test_a_well_formed_action_that_is_not_legal_now_is_an_illegal_action(game):
    """A candidate the rules refuse here (read back from its JSON, so well formed) raises
    IllegalActionError through the match, and the match and its state stay as they were."""
    match = Match(game, ["human"] * 2, seed=3)
    match.resolve_chance()
    state = match.state
    seat = state.current_player()
    seats = range(state.num_players) if seat == SIMULTANEOUS else [seat]
    legal = {a for s in seats for a in state.legal_actions(s)}
    refused = [a for s in seats for a in state.candidate_actions(s) if a not in legal]
    assert refused, "every game offers candidates that are not legal at its first turn"
    action = state.action_from_json(state.action_to_json(refused[0]))
    before = (len(match.log), [state.observation(s) for s in range(state.num_players)])
    with pytest.raises(IllegalActionError):
        match.apply(action)
    assert (len(match.log), [match.state.observation(s) for s in range(state.num_players)]) == before


class _Mute(State):
    """A one-step game whose only legal action its rules cannot put in words (a bug)."""
    spec = GameSpec("mute", 1, 1, hidden_information=False)

    def __init__(self, setup):
        self._setup, self.done = setup, False

    @classmethod
    def new(cls, setup):
        return cls(setup)

    def clone(self):
        twin = _Mute(self._setup)
        twin.done = self.done
        return twin

    @property
    def setup(self):
        return self._setup

    def current_player(self):
        return -4 if self.done else 0

    def legal_actions(self, seat=None):
        return [] if self.done else ["go"]

    def apply_action(self, action):
        if action != "go" or self.done:
            raise IllegalActionError(f"{action!r} is not legal")
        self.done = True
        return []

    def action_to_string(self, action):
        raise KeyError(action)   # the bug

    def is_terminal(self):
        return self.done

    def returns(self):
        return [1.0] if self.done else [0.0]

    def observation(self, seat):
        return {"done": self.done}

    def check_invariants(self):
        pass

    def action_to_json(self, action):
        return action

    def action_from_json(self, data):
        if data not in ("go", "stop"):
            raise InvalidActionError(f"{data!r} is not a move")
        return data


def test_an_action_the_rules_cannot_describe_is_a_bug_not_a_log_line():
    match = Match(_Mute, ["human"], setup={"players": ["Ann"]})
    with pytest.raises(IllegalActionError):   # illegal and indescribable: refused, nothing changes
        match.apply("stop")
    assert not match.state.done and match.log == []
    with pytest.raises(RuntimeError, match="cannot describe"):   # legal but indescribable: the bug shows
        match.apply("go")
    assert not match.state.done and match.log == []


def test_a_save_names_each_kind_of_bad_action_in_the_rules_words():
    base = {"game": "ten-days", "rules_version": rules_for("ten-days").spec.save_version,
            "setup": rules_for("ten-days").default_setup(2), "seed": 1, "seats": ["human", "human"]}
    with pytest.raises(SaveError, match=r"action 1 of 1 is not a move of ten-days: .*is not a move of 10 Days"):
        Match.from_json({**base, "actions": ["fly:7"]})
    match = Match("ten-days", ["human", "human"], 1)
    assert match.state.current_player() == CHANCE
    with pytest.raises(SaveError, match="action 1 of 1 is not legal there"):
        Match.from_json({**base, "actions": ["keep"]})
