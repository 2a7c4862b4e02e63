"""Tutorials as data: a scripted first game on the match layer (pure Python, no Qt).

A tutorial is a YAML file in resources/tutorials/ (see the README there):

    title: America, a first game
    game: america            # a registered game id
    variant: null            # the way to play it teaches (setup["variant"]), if the game has ways
    seed: 7                  # fixed: the cards, tiles and spins, and the computers' choices
    seats: [human, "ai:easy"]
    setup: {...}             # the game's setup (its "players" are the seats' names)
    waits: [1]               # seats that sit still until the hand-over (real time: the rival)
    steps:
      - text: What to do and why, in a sentence or three.
        highlight: {states: [TX], widget: name}   # where to look (both optional); a widget by its
                                        # objectName or the mode's name for it ("spinner"), "name#1"
                                        # the second of that name, "text:Spin" a button by its text
        expect: <the action's JSON>     # or omitted: a step to read, with a Next button
        do: {click_state: TX}           # how a person does it (the mode's own input; tests use it):
                                        # click_state, click (a widget, see highlight), key (a key
                                        # name), signal ([widget, signal, args...]: what a click on a
                                        # drawn part sends, e.g. America's bars), call ([method, args...]:
                                        # what a click calls, e.g. Carcassonne's place_tile), act (the
                                        # action's JSON); or a list of these, done in turn
        wrong: {do: {...}, says: "..."} # one wrong try: what the tutorial answers (tests try it)

`expect` is compared with the action's JSON (State.action_to_json); "*" in it matches
anything (a real-time action's time); the word `chance` means the person sets off the
chance outcome that is theirs (Game of the States' spin). A person's action that is not
the expected one is refused before it is applied, with the step's `wrong.says` (or a
general line naming the step): never applied, never punished.

Computer moves come from the seeded match (the match layer's seeding rule), so the whole
script is deterministic; after the last step the tutorial hands over: the waiting seats
get their computer players and the game goes on as an ordinary game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from stateside.data.yamlio import read_yaml
from stateside.engine.match import HUMAN, Match, check_seats, make_player, rules_for
from stateside.engine.protocol import CHANCE
from stateside.errors import DataError, StatesideError

ANY = "*"            # in an expected action: any value here
CHANCE_STEP = "chance"   # the person sets off their own chance outcome (a spin)
MAX_STEPS = 12
MIN_STEPS = 3
MAX_TEXT = 600       # characters of a step's text: a few sentences, read in seconds
DO_KINDS = ("click_state", "click", "key", "signal", "call", "act")
STEP_KEYS = {"text", "highlight", "expect", "do", "wrong"}
TOP_KEYS = {"title", "game", "variant", "seed", "seats", "setup", "waits", "steps", "summary"}


@dataclass(frozen=True)
class Step:
    index: int                   # 0-based
    text: str
    expect: Any = None           # the action's JSON (with "*"), CHANCE_STEP, or None: read and press Next
    states: tuple[str, ...] = ()   # highlighted on the map
    widget: str = ""             # a widget's objectName to ring
    do: dict | list | None = None   # the person's input for it (the mode's own input path)
    wrong: dict | None = None    # {"do": {...}, "says": "..."}: one wrong try and its answer

    @property
    def waits_for_action(self) -> bool:
        return self.expect is not None


@dataclass(frozen=True)
class Tutorial:
    id: str                      # the file's stem: "<game>" or "<game>-<variant>"
    path: str
    title: str
    game: str
    variant: str | None
    seed: int
    seats: tuple[str, ...]       # the seats as the game goes on after the hand-over
    setup: dict
    waits: tuple[int, ...]
    steps: tuple[Step, ...]
    summary: str = ""

    def match(self) -> Match:
        """The tutorial's game at its start: the waiting seats played by nobody yet."""
        seats = [HUMAN if i in self.waits else s for i, s in enumerate(self.seats)]
        return Match(rules_for(self.game), seats, self.seed, dict(self.setup))

    def hand_over(self, match: Match) -> None:
        """After the last step: the waiting seats get their computer players."""
        for seat in self.waits:
            match.seats[seat] = self.seats[seat]
            match.players[seat] = make_player(self.game, self.seats[seat], seat)


def matches(expected: Any, got: Any) -> bool:
    """Does an action's JSON `got` fit `expected` ("*" matches anything)?"""
    if expected == ANY:
        return True
    if isinstance(expected, list) and isinstance(got, (list, tuple)):
        return len(expected) == len(got) and all(matches(e, g) for e, g in zip(expected, got))
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(matches(v, got[k]) for k, v in expected.items())
    return expected == got


def step_fits(step: Step, state, action) -> bool:
    """Is `action` (about to be applied to `state`) the one this step waits for?"""
    if step.expect is None or step.expect == CHANCE_STEP:
        return False
    return matches(step.expect, state.action_to_json(action))


def refusal(tutorial: Tutorial, step: Step) -> str:
    """What the tutorial says to an action this step does not wait for."""
    says = (step.wrong or {}).get("says")
    if says:
        return says
    if step.expect is None:
        return "Read this step first, then press Next."
    return "Not yet: this step asks for something else (read the tutorial's box). Nothing was changed."


# --- who sets off a chance outcome ----------------------------------------------------------
def chance_setter(game: str, state) -> int | None:
    """The seat whose press sets off the chance outcome due now (Game of the States' spinner
    waits for its player; the mode does the same in its next_actor), or None."""
    if game != "game-of-the-states" or state.current_player() != CHANCE:
        return None
    outcomes = state.chance_outcomes()
    if not outcomes or not str(outcomes[0][0]).startswith("spin:"):
        return None
    return state.observation(0)["spinner"]


def advance(tutorial: Tutorial, match: Match) -> list:
    """Let the game move on to the person's next input, as the mode would: chance outcomes
    and computer moves (seeded), stopping at a person's turn or at a spin a person sets off."""
    done = []
    for _ in range(10_000):
        if match.is_over() or match.waiting_for_human():
            break
        setter = chance_setter(tutorial.game, match.state)
        if setter is not None and match.is_human(setter):
            break
        entry = match.step()
        if entry is None:
            break
        done.append(entry)
    return done


def play_step(tutorial: Tutorial, match: Match, step: Step, action=None):
    """Apply a step's expected action to `match` (pure: the replay test and the demo).
    For a real-time action give `action` (its time filled in); a chance step draws the seeded outcome."""
    if step.expect == CHANCE_STEP:
        if match.state.current_player() != CHANCE:
            raise DataError(f"{tutorial.path}: step {step.index + 1} waits for a spin, but none is due")
        return match.step()
    if action is None:
        action = match.state.action_from_json(step.expect)
    if not step_fits(step, match.state, action):
        raise DataError(f"{tutorial.path}: step {step.index + 1}: {action!r} is not what it expects")
    return match.apply(action)


# --- loading ----------------------------------------------------------------------------------
def tutorials_dir() -> Path:
    from stateside.paths import resource

    return resource("tutorials")


def _fail(where: str, what: str) -> NoReturn:
    raise DataError(f"{where}: {what}")


def _step(raw: Any, i: int, where: str) -> Step:
    at = f"{where}, step {i + 1}"
    if not isinstance(raw, dict):
        _fail(at, "a step is a mapping with a text (and what it expects)")
    unknown = set(raw) - STEP_KEYS
    if unknown:
        _fail(at, f"unknown keys {', '.join(sorted(map(str, unknown)))} (use {', '.join(sorted(STEP_KEYS))})")
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        _fail(at, f"\"text\" must say what to do and why (1 to {MAX_TEXT} characters)")
    highlight = raw.get("highlight") or {}
    if not isinstance(highlight, dict) or set(highlight) - {"states", "widget"}:
        _fail(at, "\"highlight\" is a mapping of states (a list of codes) and widget (a name)")
    states = highlight.get("states") or []
    if not isinstance(states, list) or not all(isinstance(s, str) and len(s) == 2 and s.isupper() for s in states):
        _fail(at, "highlight \"states\" must be a list of two-letter state codes")
    widget = highlight.get("widget") or ""
    if not isinstance(widget, str):
        _fail(at, "highlight \"widget\" must be a widget's name")
    do = raw.get("do")
    wrong_do = raw["wrong"].get("do") if isinstance(raw.get("wrong"), dict) else None
    for label, d in (("do", do), ("wrong's do", wrong_do)):
        if d is not None and not all(isinstance(x, dict) and len(x) == 1 and next(iter(x)) in DO_KINDS
                                     for x in (d if isinstance(d, list) and d else [d])):
            _fail(at, f"\"{label}\" is one of {', '.join(DO_KINDS)} with its argument, e.g. {{click_state: TX}}"
                      " (or a list of them)")
    wrong = raw.get("wrong")
    if wrong is not None:
        if not isinstance(wrong, dict) or set(wrong) - {"do", "says"} or "do" not in wrong:
            _fail(at, "\"wrong\" is a mapping with do (the wrong try) and says (the answer)")
        if "expect" not in raw:
            _fail(at, "a step without \"expect\" has no wrong action to try")
        says = wrong.get("says")
        if says is not None and (not isinstance(says, str) or not says.strip() or len(says) > MAX_TEXT):
            _fail(at, f"wrong \"says\" must be a sentence (1 to {MAX_TEXT} characters)")
    return Step(i, text.strip(), raw.get("expect"), tuple(states), widget, do, wrong)


def parse(data: Any, where: str, tutorial_id: str) -> Tutorial:
    """A tutorial from its file's data; DataError naming the file (and the step)."""
    if not isinstance(data, dict):
        _fail(where, "a tutorial is a mapping (title, game, seed, seats, setup, steps)")
    unknown = set(data) - TOP_KEYS
    if unknown:
        _fail(where, f"unknown keys {', '.join(sorted(map(str, unknown)))}")
    title, game = data.get("title"), data.get("game")
    if not isinstance(title, str) or not title.strip():
        _fail(where, "\"title\" is missing")
    try:
        rules = rules_for(game) if isinstance(game, str) else None
    except ValueError:
        rules = None
    if rules is None or not isinstance(game, str):
        _fail(where, f"\"game\" names no game of this Stateside: {game!r:.40}")
    variant = data.get("variant")
    if rules.spec.variants and variant not in rules.spec.variants:
        _fail(where, f"\"variant\" must be one of {', '.join(rules.spec.variants)}, not {variant!r:.40}")
    if not rules.spec.variants and variant is not None:
        _fail(where, f"{game} has no ways to play: leave \"variant\" out")
    seed = data.get("seed")
    if type(seed) is not int or not 0 <= seed < 2**63:
        _fail(where, "\"seed\" must be a whole number from 0 to 2**63-1")
    seats = data.get("seats")
    if not isinstance(seats, list):
        _fail(where, "\"seats\" must list the seats (human, ai:<level>)")
    try:
        check_seats(rules, seats)
    except ValueError as e:
        _fail(where, f"\"seats\": {e}")
    if seats.count(HUMAN) != 1:
        _fail(where, "\"seats\": a tutorial has one person (one human seat)")
    setup = data.get("setup")
    if not isinstance(setup, dict):
        _fail(where, "\"setup\" must be the game's setup (a mapping)")
    if variant is not None and setup.get("variant") != variant:
        _fail(where, f"the setup's \"variant\" must be {variant!r}, the tutorial's way to play")
    waits = data.get("waits") or []
    if not isinstance(waits, list) or not all(type(w) is int and 0 <= w < len(seats) and seats[w] != HUMAN
                                              for w in waits):
        _fail(where, "\"waits\" lists computer seats (0-based) that sit still until the hand-over")
    steps = data.get("steps")
    if not isinstance(steps, list) or not MIN_STEPS <= len(steps) <= MAX_STEPS:
        _fail(where, f"\"steps\" must be a list of {MIN_STEPS} to {MAX_STEPS} steps")
    tutorial = Tutorial(tutorial_id, where, title.strip(), game, variant, seed, tuple(seats), setup,
                        tuple(waits), tuple(_step(s, i, where) for i, s in enumerate(steps)),
                        str(data.get("summary") or ""))
    try:
        tutorial.match()
    except (ValueError, TypeError, KeyError, StatesideError) as e:   # the rules' own refusal of the setup
        _fail(where, f"the setup cannot start a game of {game}: {e}")
    return tutorial


def load(path: Path) -> Tutorial:
    return parse(read_yaml(path), str(path), path.stem)


def check(tutorial: Tutorial) -> Match:
    """Replay the whole script on the match layer: each step's expected action must be
    legal when its step comes (DataError naming the file and step). The match at the hand-over."""
    match = tutorial.match()
    for step in tutorial.steps:
        advance(tutorial, match)
        if match.is_over():
            _fail(f"{tutorial.path}, step {step.index + 1}", "the game ended before this step")
        if step.expect is None:
            continue
        at = f"{tutorial.path}, step {step.index + 1}"
        if step.expect == CHANCE_STEP:
            setter = chance_setter(tutorial.game, match.state)
            if setter is None or not match.is_human(setter):
                _fail(at, "it waits for the person's spin, but no spin of theirs is due")
            match.step()
            continue
        fits = _fitting(tutorial, match, step)
        if not fits:
            _fail(at, f"its expected action {step.expect!r:.80} is not legal there")
        match.apply(fits[0])
    tutorial.hand_over(match)
    return match


def _fitting(tutorial: Tutorial, match: Match, step: Step) -> list:
    """The legal actions of the person that fit the step; in real time, once the game's own
    deadlines (the die landing) have passed, as they do while the person reads and looks."""
    from stateside.engine.clock import next_step

    seat = next(iter(i for i, s in enumerate(tutorial.seats) if s == HUMAN))
    for _ in range(100):
        legal = match.state.legal_actions(seat) if match.waiting_for_human() else []
        fits = [a for a in legal if step_fits(step, match.state, a)]
        if not fits and match.rules.spec.real_time:
            fits = _real_time_fit(match, step)
        if fits or not match.rules.spec.real_time:
            return fits
        _, actions = next_step(match)   # nobody else plays in a tutorial: only the game's deadlines
        if not actions:
            return []
        for action in actions:
            match.apply(action)
        match.resolve_chance()
    return []


def _real_time_fit(match: Match, step: Step) -> list:
    """A real-time game lists no timed actions: the expected one with the game's time in it."""
    t = match.state.now()
    filled = [t if e == ANY else e for e in step.expect] if isinstance(step.expect, list) else step.expect
    try:
        action = match.state.action_from_json(filled)
        match.state.clone().apply_action(action)
    except (ValueError, TypeError, StatesideError):   # not a move, or not legal now
        return []
    return [action]


def all_tutorials() -> list[Tutorial]:
    """Every bundled tutorial, by file name (DataError for the first broken one)."""
    return [load(p) for p in sorted(tutorials_dir().glob("*.yaml"))]


def readable_tutorials() -> tuple[list[Tutorial], list[str]]:
    """The tutorials that load, and a message for each file that does not (the app lists
    the others and says which file is broken)."""
    found, problems = [], []
    for path in sorted(tutorials_dir().glob("*.yaml")):
        try:
            found.append(load(path))
        except DataError as e:
            problems.append(str(e))
    return found, problems


def tutorial_for(game: str, variant: str | None = None) -> Tutorial | None:
    tid = game if variant is None else f"{game}-{variant}"
    path = tutorials_dir() / f"{tid}.yaml"
    return load(path) if path.exists() else None
