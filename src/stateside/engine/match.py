"""One match layer for every game: seats, seeding, stepping, undo, saving and loading.

The app's modes, `stateside selfplay`, the tests and the benchmarks all drive a game
through a Match, so each of these things is written once:

- Seats are "human", "random" or "ai:<level>" (a level of the game's GameSpec).
- One seeding rule: the chance outcome at position n of the log is drawn from
  Random(f"{seed}:chance:{n}") and a computer seat's decision at position n from
  Random(f"{seed}:{seat}:{n}"). A replay, an undo followed by the same moves, or a
  loaded save therefore continues exactly as the original game would.
- The log is the game: setup + seed + seats + actions. Undo replays a prefix; a save
  is the log as JSON; loading replays it and names the action that failed.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from stateside.engine.clock import step_simultaneous
from stateside.engine.log import LogEntry, chance_rng, seat_rng_seed
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, SPECTATOR, TERMINAL, Player, RandomPlayer, State
from stateside.errors import IllegalActionError, InvalidActionError, SaveError, StatesideError
from stateside.registry import game_by_id, load_object

HUMAN, RANDOM, AI_PREFIX = "human", "random", "ai:"
MAX_NAME = 40             # characters in a player's name
MAX_ACTIONS = 100_000     # in a saved log; the longest real games take a few thousand
# A seed is a signed 64-bit whole number: it crosses to Qt and the network as one (the app
# and the referee draw theirs from 0..2**63-1; `stateside selfplay --seed` may be negative).
MIN_SEED, MAX_SEED = -2**63, 2**63 - 1


def rules_for(game_id: str) -> type[State]:
    """The State class registered for a game id."""
    info = game_by_id(game_id)
    if info is None or not info.rules:
        raise ValueError(f"no game called {game_id!r}")
    return load_object(info.rules)


def make_player(game_id: str, spec: str, seat: int) -> Player | None:
    """The computer player for a seat spec, or None for a human seat."""
    if spec == HUMAN:
        return None
    if spec == RANDOM:
        return RandomPlayer(seat, random.Random())
    info = game_by_id(game_id)
    if spec.startswith(AI_PREFIX) and info is not None and info.ai:
        level = spec[len(AI_PREFIX):]
        levels = rules_for(game_id).spec.ai_levels
        if level in levels:
            return load_object(info.ai)(level, seat, random.Random())
    raise ValueError(f"unknown player {spec!r} (use human, random or ai:<level>, levels: "
                     f"{', '.join(rules_for(game_id).spec.ai_levels)})")


def check_seats(cls: type[State], seats: Sequence[str]) -> None:
    spec = cls.spec
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise ValueError(f"{spec.id} is for {spec.min_players}-{spec.max_players} players, not {len(seats)}")
    for s in seats:
        if not isinstance(s, str) or not (s in (HUMAN, RANDOM) or
                                          (s.startswith(AI_PREFIX) and s[len(AI_PREFIX):] in spec.ai_levels)):
            raise ValueError(f"unknown player {s!r} (use human, random or ai:<level>, levels: "
                             f"{', '.join(spec.ai_levels)})")


def run_decision(player, seed: str, observation, legal: list) -> tuple[Any, float]:
    """A computer player's choice from Match.decision_inputs, and its thinking time in ms."""
    player.rng.seed(seed)
    start = time.perf_counter()
    action = player.choose(observation, legal)
    return action, (time.perf_counter() - start) * 1000


def sample_chance(state: State, rng: random.Random):
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise RuntimeError(f"{state.spec.id}: a chance node with no outcomes")
    actions = [a for a, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(actions, weights=weights)[0]


def _words(state: State, action, text: str | None) -> dict | None:
    """Each viewer's words for an action about to be taken, where they differ from `text`."""
    words = {v: state.describe(action, v, text) for v in (*range(state.num_players), SPECTATOR)}
    words = {v: w for v, w in words.items() if w != text}
    return words or None


class Match:
    """A game with its seats and its log."""

    def __init__(self, game: str | type[State], seats: Sequence[str], seed: int = 0,
                 setup: dict | None = None):
        self.rules: type[State] = rules_for(game) if isinstance(game, str) else game
        self.game_id = self.rules.spec.id
        self.seats = list(seats)
        check_seats(self.rules, self.seats)
        if type(seed) is not int or not MIN_SEED <= seed <= MAX_SEED:
            raise ValueError(f"the seed must be a whole number from {MIN_SEED} to {MAX_SEED}, not {seed!r:.40}")
        self.seed = seed
        self.initial_setup = setup if setup is not None else self.rules.default_setup(len(self.seats))
        names = self.initial_setup.get("players") if isinstance(self.initial_setup, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME
                                                  for n in names):
            raise ValueError(f"\"players\" must list the players' names (1 to {MAX_NAME} characters each)")
        if len(names) != len(self.seats):
            raise ValueError(f"the setup names {len(self.initial_setup.get('players', ()))} players "
                             f"but there are {len(self.seats)} seats")
        self.state: State = self.rules.new(self.initial_setup)
        self.players: list[Player | None] = [make_player(self.game_id, s, i) for i, s in enumerate(self.seats)]
        self.log: list[LogEntry] = []

    # --- reading -----------------------------------------------------------------
    @property
    def actions(self) -> list:
        return [e.action for e in self.log]

    @property
    def names(self) -> list[str]:
        return self.state.names

    def to_move(self) -> int:
        return self.state.current_player()

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == HUMAN

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == HUMAN]

    def waiting_for_human(self) -> bool:
        """True when the game needs a person's action before it can go on."""
        p = self.state.current_player()
        if p == SIMULTANEOUS:
            return bool(self.humans())
        return p >= 0 and self.is_human(p)

    # --- acting --------------------------------------------------------------------
    def apply(self, action, decision_ms: float | None = None) -> LogEntry:
        """Apply `action` for whoever may take it; IllegalActionError leaves all unchanged."""
        state = self.state
        seat = state.actor(action)
        try:   # described before it happens
            text = state.action_to_string(action)
            audience = state.audience(action)
            words = _words(state, action, text) if state.spec.hidden_information else None
        except Exception as error:
            # An illegal action may not be describable: its refusal (IllegalActionError, on a
            # copy, so nothing changes) is the answer. An action the rules take but cannot
            # describe is a bug in the rules, not a move to log under its repr.
            state.clone().apply_action(action)
            raise RuntimeError(f"{self.game_id}: the rules accept {action!r:.80} here but cannot "
                               f"describe it ({type(error).__name__}: {error})") from error
        events = state.apply_action(action)
        entry = LogEntry(len(self.log), seat, action, text, list(events or ()), decision_ms, audience, words)
        self.log.append(entry)
        return entry

    def step(self) -> LogEntry | None:
        """Take one action that needs no person: a chance outcome or a computer's move.
        None when the game is over or waits for a person."""
        state = self.state
        p = state.current_player()
        n = len(self.log)
        if p == TERMINAL or state.is_terminal():
            return None
        if p == CHANCE:
            return self.apply(sample_chance(state, chance_rng(self.seed, n)))
        if p == SIMULTANEOUS:
            return step_simultaneous(self)
        player = self.players[p]
        if player is None:
            return None
        return self.apply(*self.decide(p))

    def decide(self, seat: int) -> tuple[Any, float]:
        """A computer seat's choice here, and its thinking time in ms (not applied)."""
        return run_decision(*self.decision_inputs(seat))

    def decision_inputs(self, seat: int) -> tuple[Any, str, Any, list]:
        """What a computer seat's choice here is made from: (its player, the seed of its
        random numbers, its observation, its legal actions). run_decision makes it, now or
        on another thread (a screen that keeps drawing while the computer thinks)."""
        player = self.players[seat]
        if player is None:
            raise ValueError(f"seat {seat} is a person's: no computer decides for it")
        return (player, seat_rng_seed(self.seed, seat, len(self.log)), self.state.observation(seat),
                self.state.legal_actions(seat))

    def run_until_human(self, on_entry: Callable[[LogEntry], None] | None = None,
                        max_actions: int | None = None) -> list[LogEntry]:
        """Step until a person must act or the game ends."""
        done: list[LogEntry] = []
        while max_actions is None or len(done) < max_actions:
            entry = self.step()
            if entry is None:
                break
            done.append(entry)
            if on_entry:
                on_entry(entry)
        return done

    def resolve_chance(self) -> list[LogEntry]:
        """Apply chance outcomes until a seat (or nobody) is to act."""
        done = []
        while self.state.current_player() == CHANCE:
            entry = self.step()
            if entry is None:   # never at a chance node (step applies an outcome there)
                break
            done.append(entry)
        return done

    def play_out(self, max_actions: int = 1_000_000) -> None:
        """Play to the end with computers in every seat (a human seat raises)."""
        for _ in range(max_actions):
            if self.state.is_terminal():
                return
            if self.step() is None:
                raise RuntimeError("play_out: a human seat is to act")
        raise RuntimeError(f"{self.game_id}: no end after {max_actions} actions")

    # --- undo and replay -------------------------------------------------------------
    def undo_to(self, n: int) -> None:
        """Go back to the game as it was after its first n actions (by replay)."""
        if not 0 <= n <= len(self.log):
            raise ValueError(f"cannot go back to action {n} of {len(self.log)}")
        kept = self.log[:n]
        self.state = self.rules.new(self.initial_setup)
        self.log = []
        for e in kept:
            self.apply(e.action, e.decision_ms)

    def take_world(self, state: State) -> None:
        """Go on from `state`, a world that one seat cannot tell from the real game (its
        rules' consistent_with, online: the rest dealt at random); the log stays as the
        table told it, so replaying it may no longer lead here (a finished game's whole
        log replaces it)."""
        if type(state) is not type(self.state):
            raise TypeError(f"a world of {type(state).__name__}, not of {type(self.state).__name__}")
        self.state = state

    def tell(self, seat: int, action, text: str, audience: frozenset[int] | None) -> LogEntry:
        """Log an action as a table told it, without applying it here (online: a move this
        seat's world could not take; take_world then puts the world after it)."""
        entry = LogEntry(len(self.log), seat, action, text, audience=audience)
        self.log.append(entry)
        return entry

    def state_after(self, n: int) -> State:
        """A fresh state replayed to its first n actions (for replays and previews)."""
        state = self.rules.new(self.initial_setup)
        for e in self.log[:n]:
            state.apply_action(e.action)
        return state

    def last_seat_action(self, seat: int) -> int | None:
        """Index of the last action taken by `seat`, or None."""
        for e in reversed(self.log):
            if e.seat == seat:
                return e.index
        return None

    def fair_undo_point(self, seat: int) -> int | None:
        """Where `seat` may take back its own last action: only while no other seat has
        acted since, and never past a chance outcome `seat` saw (a card or tile turned
        up, a flip, a spin: taking it back would show what the same move brings). Chance
        outcomes `seat` did not see are taken back with it. None otherwise."""
        return None if self.undo_refusal(seat) else self.last_seat_action(seat)

    def undo_refusal(self, seat: int) -> str | None:
        """Why `seat` may not take back its last action now, in a person's words (None: it may)."""
        last = self.last_seat_action(seat)
        if last is None:
            return "You have not moved yet."
        for e in self.log[last + 1:]:
            if e.seat not in (seat, CHANCE):
                return f"{self.names[e.seat]} has moved since: your move can't be taken back."
            if e.seat == CHANCE and e.seen_by(seat):
                return f"What your move turned up can't be taken back ({e.text.rstrip('.')})."
        return None

    # --- saving --------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The match as the body of a save (stateside.data.saves adds the envelope)."""
        return {
            "game": self.game_id,
            "rules_version": self.rules.spec.save_version,
            "setup": self.initial_setup,
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": [self.state.action_to_json(e.action) for e in self.log],
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "the save", rules: type[State] | None = None) -> Match:
        """Rebuild a match by replaying its log. Any problem raises SaveError naming
        `where` and the field or the action ("action 17 of 40: ..."), never a traceback.
        `rules`: the game's own class to replay with (its id must be the save's game),
        for rules bound to data, such as an America deck; default: the game's registered rules."""
        if not isinstance(data, dict):
            raise SaveError(f"{where}: the game is not a JSON object")
        game = data.get("game")
        if not isinstance(game, str):
            raise SaveError(f"{where}: \"game\" is missing or not a name")
        try:
            registered = rules_for(game)
        except ValueError:
            raise SaveError(f"{where}: a save of {game!r}, which is not a game this Stateside has") from None
        if rules is None:
            rules = registered
        elif not issubclass(rules, registered):
            raise SaveError(f"{where}: a save of {game!r}, not of {rules.spec.id!r}")
        version = data.get("rules_version", rules.spec.save_version)
        if type(version) is int and version < rules.spec.save_version:
            upgraded = rules.upgrade_save(data, version)   # an older save the rules still read
            if upgraded is not None:
                data, version = upgraded, rules.spec.save_version
        if type(version) is not int or version != rules.spec.save_version:
            raise SaveError(f"{where}: rules version {version!r} of {game} is not supported "
                            f"(this Stateside reads version {rules.spec.save_version})")
        setup, seed, seats, actions = (data.get(k) for k in ("setup", "seed", "seats", "actions"))
        if not isinstance(setup, dict):
            raise SaveError(f"{where}: \"setup\" is missing or not an object")
        if type(seed) is not int or not MIN_SEED <= seed <= MAX_SEED:
            raise SaveError(f"{where}: \"seed\" must be a whole number from {MIN_SEED} to {MAX_SEED}")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise SaveError(f"{where}: \"seats\" must be a list of player kinds")
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
            raise SaveError(f"{where}: \"actions\" must be a list of at most {MAX_ACTIONS} moves")
        try:
            check_seats(rules, seats)
        except ValueError as e:
            raise SaveError(f"{where}: \"seats\": {e}") from None
        try:
            match = cls(rules, seats, seed, setup)
        except Exception as e:   # whatever the file holds, a clear refusal
            raise SaveError(f"{where}: the setup cannot start a game of {game}: {_plain(e)}") from None
        total = len(actions)
        for i, raw in enumerate(actions, 1):
            try:
                action = match.state.action_from_json(raw)
            except InvalidActionError as e:   # the rules' own words
                raise SaveError(f"{where}: action {i} of {total} is not a move of {game}: {str(e):.300}") from None
            except Exception:   # whatever else the file holds, a clear refusal
                raise SaveError(f"{where}: action {i} of {total} is not a move of {game}: {NONSENSE}") from None
            try:
                match.apply(action)
            except IllegalActionError as e:
                raise SaveError(f"{where}: action {i} of {total} is not legal there: {str(e):.300}") from None
            except Exception:
                raise SaveError(f"{where}: action {i} of {total} cannot be played: {NONSENSE}") from None
        try:
            match.state.check_invariants()
        except Exception as e:
            raise SaveError(f"{where}: the replayed game is inconsistent: {_plain(e)}") from None
        return match


# What a save is told when its data breaks the rules in a way they have no words for.
NONSENSE = "the data there does not make sense for this game"
# Phrases of Python's own ValueErrors, which mean nothing to a player. Only a setup's
# errors are still told apart by them: the rules raise plain ValueErrors for a bad setup
# (actions have their own types, InvalidActionError and IllegalActionError).
_PYTHON_WORDS = ("unpack", "invalid literal", "could not convert", "object", "argument", "codec")


def _plain(error: Exception) -> str:
    """A setup error's message for a person: the rules' own words when they raised a
    StatesideError or a ValueError of their own on purpose, else a plain phrase."""
    text = str(error)
    if isinstance(error, StatesideError) or (type(error) is ValueError and text
                                             and not any(w in text for w in _PYTHON_WORDS)):
        return text[:300]
    return NONSENSE
