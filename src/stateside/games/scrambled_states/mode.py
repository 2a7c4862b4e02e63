"""Scrambled States on the shared map: a thin real-time view over a Match.

The view keeps one clock (a QElapsedTimer, in game milliseconds). Time, the computers'
slaps and the engine's deadlines (die landing, tie window, buzzer, round limit) reach
the game through stateside.engine.clock.next_step up to the wall clock's game time; a
click or key press lets time pass to that moment and then applies the person's action,
all through the match, whose log is the game. A single-shot QTimer wakes the view at
the next planned slap or deadline. The engine decides who wins; the view only draws
what it says.

A race has no turns, so this mode does not use TurnBasedMode's flow of turns, pass
screen or undo; it shares the rest of the frame: the setup screen, the move log, the
score table and replays (start_replay / replaying / match / match_from_save mean what
they mean in stateside.app.turns).
"""
from __future__ import annotations

import html
import random
from functools import partial

from PySide6.QtCore import QElapsedTimer, QEvent, QPoint, QPointF, QRect, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from stateside.app.mode import GameMode
from stateside.app.movelog import NO_COLOUR, LogLine
from stateside.app.setup_screen import HUMAN, SeatChoice, SetupScreen
from stateside.app.turns import LogLinks, ScoreTable
from stateside.board.plain import plain_label
from stateside.engine.clock import next_step
from stateside.engine.match import MAX_NAME, LogEntry, Match
from stateside.errors import IllegalActionError, SaveError
from stateside.games.scrambled_states.ai import LEVELS
from stateside.games.scrambled_states.cards import load_cards
from stateside.games.scrambled_states.rules import (
    FACE_NAMES,
    FACE_UP,
    Action,
    Advance,
    Event,
    Roll,
    ScrambledStates,
    Settings,
    Turn,
    buzz,
    no_match,
    slap,
)
from stateside.games.scrambled_states.widgets import DIE_LABELS, WON_MS, CardTable, CenterCard, DieWidget

DEFAULT_LEVEL = "beginner"   # a first game: slower than a first-time player (SOURCES.md)
COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Flo")
DEFAULT_SEATS = (("You", HUMAN), ("Ada", f"ai:{DEFAULT_LEVEL}"))
BUZZER_KEYS = (Qt.Key_A, Qt.Key_L)          # party play: player 1, player 2
BUZZER_LABELS = ("A", "L")
MAX_PEOPLE = len(BUZZER_KEYS)               # people share one keyboard: one buzzer key each
LEGEND = (
    "<b>Reading a card:</b> frame = region; brown bars = land mass (1-4); "
    "people = population (1-5); the shape's colour = state colour. "
    "<span style='color:#666'>Hover a card for it in words.</span>"
)
# Each seat's colour (log lines, scores, a won card's stamp, the setup screen): the first
# seat, usually the person, in the teal of a win, and red last, as red means a slip here.
SEAT_COLOURS = ("#2a9d8f", "#1d70b8", "#d26d0a", "#7b2cbf", "#6c757d", "#e63946")
CHANCE_COLOUR = "#1d3557"   # a log line of the table's own (the deal, a round): outlined in navy
FEEDBACK = {   # banner colours: background, text
    "win": ("#2a9d8f", "#ffffff"), "hand": ("#2a9d8f", "#ffffff"), "no-match": ("#2a9d8f", "#ffffff"),
    "lost": ("#457b9d", "#ffffff"), "slip": ("#e63946", "#ffffff"), "tie": ("#f4a261", "#1b1b1b"),
    "void": ("#8d99ae", "#ffffff"), "buzz": ("#ffb703", "#1b1b1b"), "game-over": ("#1d3557", "#ffffff"),
    "info": ("#f1faee", "#1d3557"), "pending": ("#ffb703", "#1b1b1b"), "replay": ("#1d3557", "#f1faee"),
}
FACE_HINT = {   # "find a card with ... as/with <center>"
    "region": "the same region (frame colour) as",
    "land-mass": "the same land-mass icon as",
    "population": "the same number of people as",
    "colour": "the same state colour as",
    "two": "any two features in common with",
}


# --- a new game ------------------------------------------------------------------------
def default_name(seat: int, kind: str) -> str:
    if kind == HUMAN:
        return "You" if seat == 0 else f"Player {seat + 1}"
    return COMPUTER_NAMES[(seat - 1) % len(COMPUTER_NAMES)]


def level_label(kind: str) -> str:
    if kind == HUMAN:
        return "Person"
    level = kind.split(":", 1)[1]
    low, high = LEVELS[level].usual_range()
    return f"Computer, {level} (slaps in {low:.1f}-{high:.1f} s)"


def people_problem(seats: list[SeatChoice]) -> str:
    """Why these seats cannot start a game ("" when they can)."""
    people = sum(s.human for s in seats)
    if people == 0:
        return "Someone must play: make at least one seat a person."
    if people > MAX_PEOPLE:
        return (f"At most {MAX_PEOPLE} people: they share the keyboard, "
                f"one buzzer key each ({' and '.join(BUZZER_LABELS)}).")
    return ""


class ScrambledSetup(SetupScreen):
    """The shared setup screen: seats (one or two people, computers at the levels meant
    for play, each with its usual reaction time), cards to win, practice."""

    def __init__(self, choice: dict, parent=None):
        seats = [SeatChoice(name, kind) for name, kind in choice.get("seats") or DEFAULT_SEATS]
        spec = ScrambledStates.spec
        super().__init__(spec, "Scrambled States", seats, colours=list(SEAT_COLOURS), first=None, levels=tuple(LEVELS),
                         default_names=[default_name(i, HUMAN if i == 0 else "ai") for i in range(spec.max_players)],
                         options=lambda form: self._options(form, choice), parent=parent)
        for i, box in enumerate(self.kind_boxes):
            for j in range(box.count()):
                box.setItemText(j, level_label(box.itemData(j)))
            if i >= len(seats):   # a seat added later starts as the default computer, as seat 2 does
                box.setCurrentIndex(box.findData(f"ai:{DEFAULT_LEVEL}"))
            box.currentIndexChanged.connect(partial(self._kind_changed, i))
        self.count.valueChanged.connect(self._check)
        self._check()

    def _options(self, form: QFormLayout, choice: dict):
        self.target = QSpinBox()
        self.target.setRange(3, 20)
        self.target.setValue(choice.get("target", 10))
        self.target.setSuffix(" cards")
        form.addRow("Cards to win:", self.target)
        self.practice = QCheckBox("Practice: untimed rounds, and the computers give you a head start each round")
        self.practice.setChecked(bool(choice.get("practice")))
        form.addRow(self.practice)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color:#555")
        form.addRow(self.note)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color:#c1121f; font-weight:bold")
        form.addRow(self.problem)
        return lambda: {"target": self.target.value(), "practice": self.practice.isChecked()}

    def _kind_changed(self, seat: int, _index: int) -> None:
        """A seat turned from person to computer (or back) keeps a fitting default name."""
        kind = self.kind_boxes[seat].currentData()
        name = self.names[seat]
        if name.text().strip() in ("", default_name(seat, HUMAN), default_name(seat, "ai")):
            name.setText(default_name(seat, kind))
        self._check()

    def _check(self) -> None:
        seats = self.seats()
        people = [s for s in seats if s.human]
        computers = len(seats) - len(people)
        self.practice.setEnabled(computers > 0)   # a game of people only is untimed anyway
        if len(people) == MAX_PEOPLE:
            self.note.setText("Party play: the first person buzzes with A, the second with L, then picks a card."
                              + (" Rounds of people only are untimed." if not computers else ""))
        else:
            self.note.setText("")
        self.note.setVisible(bool(self.note.text()))
        self.problem.setText(people_problem(seats))
        self.problem.setVisible(bool(self.problem.text()))
        buttons = self.findChild(QDialogButtonBox)
        if buttons is not None:
            buttons.button(QDialogButtonBox.Ok).setEnabled(not self.problem.text())

    def accept(self) -> None:
        if people_problem(self.seats()):
            self._check()
            return
        super().accept()

    def choice(self) -> dict:
        return {"seats": [[s.name, s.kind] for s in self.seats()], **self.options()}


PRACTICE_HEAD_START_MS = 12_000   # long enough to study the table; then the computers show the answer


def build_match(choice: dict, seed: int) -> Match:
    """A new match for a setup choice ({"seats": [[name, kind], ...], "target", "practice"}).
    Two people play a party (buzzers A and L, named in their seats); a computer's name
    carries its level."""
    seats = [SeatChoice(name, kind) for name, kind in choice.get("seats") or DEFAULT_SEATS]
    if problem := people_problem(seats):
        raise ValueError(problem)
    people = [i for i, s in enumerate(seats) if s.human]
    party = len(people) > 1
    names = []
    for i, s in enumerate(seats):
        tag = (BUZZER_LABELS[people.index(i)] if party else "") if s.human else s.kind.split(":", 1)[1]
        names.append(f"{s.name[:MAX_NAME - len(tag) - 3]} ({tag})" if tag else s.name)
    # Practice, and a game of people only (nobody to race but each other), has untimed rounds.
    untimed = choice.get("practice") or len(people) == len(seats)
    # Practice: the computers give a person a head start each round, instead of racing them.
    head_start = PRACTICE_HEAD_START_MS if choice.get("practice") and people else 0
    settings = Settings(tuple(names), target=choice.get("target", 10), buzzer_seats=tuple(people) if party else (),
                        round_limit_ms=0 if untimed else Settings(()).round_limit_ms, head_start_ms=head_start)
    return Match(ScrambledStates, [s.kind for s in seats], seed, settings.to_setup())


# --- the move log -----------------------------------------------------------------------
def log_line(log: list[LogEntry], i: int) -> tuple[str, int] | None:
    """Entry i of a match log as the move log shows it: (plain words, the seat it is
    coloured by, negative for the table's own), or None for an entry that shows nothing
    by itself: the clock running on, the deal's single cards, and the center card and the
    die, which stay face down until the die lands (the round's line then names them)."""
    entry = log[i]
    a = entry.action
    said = [ev for ev in entry.events if ev.kind not in ("pending", "buzz")]
    texts = [ev.text for ev in said]
    if isinstance(a, Action):   # what came of it names who did what; else the move itself, with its time
        return (" ".join(texts) if texts else entry.text + "."), a.player
    if isinstance(a, Turn):
        center = i + 1 < len(log) and isinstance(log[i + 1].action, Roll)
        if center:
            return None
        if i < FACE_UP:   # the opening deal: one line for the fifteen cards
            return (f"The deal: {FACE_UP} cards face up.", -1) if i == FACE_UP - 1 else None
        return entry.text + ".", -1
    if isinstance(a, (Advance, Roll)) and texts:
        players = {p for ev in said for p in ev.players}
        return " ".join(texts), (players.pop() if len(players) == 1 else -1)
    return None


def entry_cards(log: list[LogEntry], i: int) -> list[str]:
    """The cards a logged move is about, to point them out on the map and the table."""
    entry = log[i]
    a = entry.action
    if isinstance(a, Turn) and i < FACE_UP:
        return [e.action.card for e in log[:FACE_UP]]
    codes = [a.card] if isinstance(a, (Action, Turn)) and a.card else []
    for ev in entry.events:
        codes += ev.cards if ev.cards else ([ev.center] if ev.center and ev.kind == "void" else [])
    return list(dict.fromkeys(codes))


# --- the mode --------------------------------------------------------------------------------
class ScrambledStatesMode(LogLinks, GameMode):
    game_id = "scrambled-states"
    plays_online = True   # (declared for the shell: attach_online, start_replay)
    replays = True
    title = "Scrambled States"
    rules = ScrambledStates

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.cards = load_cards()
        self.match: Match | None = None
        self.replaying: Match | None = None   # the whole match a replay steps through
        self._live: tuple | None = None       # (match, seen) put aside during a replay
        self.choice = {"seats": [list(s) for s in DEFAULT_SEATS], "target": 10, "practice": False}
        self.seen = 0          # log entries whose events the view has shown
        self.started = False
        self.running = False
        self.clock = QElapsedTimer()
        self.clock_base = 0
        self._map_key = None
        self.recent: list[tuple[str, str, str]] = []        # just-won states on the map: (code, caption, colour)
        self.center_won: tuple[str, str, str] | None = None  # the center card just won on Hand or No Match
        self.pointed: tuple[list[str], str] | None = None    # a log line's cards, shown in its player's colour
        self._pinned: int | None = None                      # a log line clicked: its move stays shown
        self._pointed_tokens: list = []
        self._tags_shown: set = set()   # (state, winner) of the name tags on the map
        self.won_timer = QTimer(self, singleShot=True, timeout=self._end_won)
        self.tick = QTimer(self, singleShot=True, timeout=self._on_tick)
        self.buzz_timer = QTimer(self, interval=100, timeout=self._show_buzz_countdown)
        self.make_log_and_replay_bar()
        # Online (an OnlineSession while at a table; see attach_online): the referee's log is
        # the game and the local clock only displays it.
        self.online = None
        self.online_sent: list[tuple[int, list, str]] = []   # our moves not yet confirmed: (round, json, words)
        self.online_note = ""
        self._online_started = False
        self._offline: tuple[Match, bool] | None = None      # the game on screen before: (match, started)
        self._build()
        self.board.installEventFilter(self)
        self.start_game(build_match(self.choice, random.randrange(1 << 30)))

    @property
    def game(self) -> ScrambledStates | None:
        return self.match.state if self.match else None

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        panel = QFrame(self)
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(300)
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        side.setSpacing(6)

        # The center card, and beside it the die, the round and the game's buttons.
        middle = QHBoxLayout()
        self.center_card = CenterCard(self.cards)
        self.center_card.clicked.connect(self.slap_center)
        middle.addWidget(self.center_card, 0, Qt.AlignTop)
        right = QVBoxLayout()
        right.setSpacing(4)
        self.die = DieWidget(self.cards)
        right.addWidget(self.die, 0, Qt.AlignHCenter)
        self.round_label = QLabel()
        self.round_label.setAlignment(Qt.AlignCenter)
        self.round_label.setWordWrap(True)
        self.round_label.setStyleSheet("color:#444; font-size:11px")
        right.addWidget(self.round_label)
        right.addStretch(1)
        buttons = QHBoxLayout()
        buttons.setSpacing(4)
        self.start_button = QPushButton("Start")
        self.start_button.setFocusPolicy(Qt.NoFocus)
        self.start_button.clicked.connect(self.toggle_run)
        buttons.addWidget(self.start_button)
        self.new_button = QPushButton("New\u2026")
        self.new_button.setToolTip("A new game: players, computer levels, cards to win, practice")
        self.new_button.setFocusPolicy(Qt.NoFocus)
        self.new_button.clicked.connect(self.new_game)
        buttons.addWidget(self.new_button)
        right.addLayout(buttons)
        middle.addLayout(right, 1)
        side.addLayout(middle)

        self.no_match_button = QPushButton("No Match!  (Space)")
        self.no_match_button.setFocusPolicy(Qt.NoFocus)
        self.no_match_button.setMinimumHeight(30)
        self.no_match_button.setStyleSheet("font-weight:bold; font-size:14px")
        self.no_match_button.clicked.connect(self.call_no_match)
        side.addWidget(self.no_match_button)

        self.banner = plain_label()   # what happened, with the players' names
        self.banner.setWordWrap(True)
        self.banner.setMinimumHeight(52)
        self.banner.setAlignment(Qt.AlignCenter)
        side.addWidget(self.banner)

        self.scoreboard = QLabel()
        self.scoreboard.setTextFormat(Qt.RichText)
        self.scoreboard.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        side.addWidget(self.scoreboard)
        # At the end: the final scores, as every game shows them, and the way to a replay.
        self.final_box = QWidget()
        final = QVBoxLayout(self.final_box)
        final.setContentsMargins(0, 0, 0, 0)
        final.setSpacing(4)
        self.score_table = ScoreTable()
        final.addWidget(self.score_table)
        self.replay_button = QPushButton("Replay this game")
        self.replay_button.setFocusPolicy(Qt.NoFocus)
        self.replay_button.clicked.connect(lambda: self.start_replay(self.match))
        final.addWidget(self.replay_button)
        self.final_box.hide()
        side.addWidget(self.final_box)

        # The card legend stays put; the log below it holds only what happened.
        self.legend = QLabel(LEGEND)
        self.legend.setObjectName("cardLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.RichText)
        self.legend.setStyleSheet("font-size:11px; background:#f4f1ea; border:1px solid #ddd6c8;"
                                  " border-radius:4px; padding:3px")
        side.addWidget(self.legend)
        self.log_title = QLabel("<b>Moves</b> (newest last; point at one to see it)")
        self.log_title.setStyleSheet("font-size:11px")
        side.addWidget(self.log_title)
        self.log_panel.setFocusPolicy(Qt.NoFocus)
        self.log_panel.setMinimumHeight(60)
        side.addWidget(self.log_panel, 1)

        self.table = CardTable(self.cards)
        self.table.cardClicked.connect(self.slap_card)

        left = QVBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(0)
        left.addWidget(self.replay_bar)
        left.addWidget(self.board_slot, 1)
        upper = QHBoxLayout()
        upper.setContentsMargins(0, 0, 0, 0)
        upper.setSpacing(0)
        upper.addLayout(left, 1)
        upper.addWidget(panel)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addLayout(upper, 1)
        self.table_frame = QFrame()
        self.table_frame.setStyleSheet("QFrame { background: #efe9dc; border-top: 1px solid #d8d2c4; }")
        tl = QVBoxLayout(self.table_frame)
        tl.setContentsMargins(4, 2, 4, 2)
        tl.addWidget(self.table)
        lay.addWidget(self.table_frame)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_cards()

    def _fit_cards(self) -> None:
        """The row of cards as large as the width allows, up to a fifth of the height, and
        fixed: what the side panel shows (more players, a longer message) never makes
        the cards jump in size mid-game. The center card grows with them, and at small
        sizes it and the die stay small enough to leave the move log room."""
        card_w = (self.width() - 8 - 5.0 * (FACE_UP + 1)) / FACE_UP
        height = min(card_w * 1.38 + 8, max(110.0, self.height() * 0.2))
        self.table.setFixedHeight(max(96, int(height)))
        center_w = int(min(136, max(96, card_w * 1.4, self.height() * 0.13)))   # the die's column keeps 140 px
        self.center_card.setFixedSize(center_w, int(center_w * 1.38))
        die = int(min(96, max(68, center_w * 0.66)))
        self.die.setFixedSize(die, die)

    # ---------------------------------------------------------------- the clock
    def now(self) -> int:
        """Game time in ms: it runs only while the game is running."""
        return self.clock_base + (int(self.clock.elapsed()) if self.running else 0)

    def toggle_run(self) -> None:
        if self.online is not None:
            self._say(ONLINE_NO_PAUSE if self._online_started else self.banner.text())
        elif self.replaying is not None:
            self._say("This is a replay: close it to play on.")
        elif self.game is None or self.game.is_terminal():
            self.new_game()
        elif self.running:
            self.pause()
        else:
            self.resume()

    def resume(self) -> None:
        if self.game is None or self.game.is_terminal() or self.running or self.replaying is not None:
            return
        self.started = True
        self.running = True
        self.clock.start()
        self._set_banner("info", "Go! Watch the die." if self.game.phase == "rolling" else "Play on!")
        self._update()

    def pause(self) -> None:
        if not self.running or self.online is not None:   # the table's clock is the referee's
            return
        self._catch_up(self.now())
        self.clock_base = self.now()
        self.running = False
        self.tick.stop()
        if self.match is not None and self.match.is_over():
            self._update()   # a finished game has nothing to resume
            return
        self._set_banner("info", "Paused. Press Resume (or Space) to play on.")
        self._update()

    # ---------------------------------------------------------------- game setup
    def _show_match(self, match: Match) -> None:
        """Put `match` on screen as it is, stopped: the table, the move log, the clock."""
        self.tick.stop()
        if self.replaying is not None:
            self._end_replay()
        self.match = match
        self.won_timer.stop()
        self.recent, self.center_won, self.table.won, self.table.flashes = [], None, {}, {}
        self.pointed, self._pinned = None, None
        self.table.set_marks((), None)
        self.seen = len(match.log)
        self.clock_base = self.game.now()
        self.running = False
        self.started = False
        self._fill_log()
        self._map_key = None

    def start_game(self, match: Match) -> None:
        match.resolve_chance()   # the deal: 15 cards, the center card and the die
        self._show_match(match)
        settings = self.game.settings
        party = bool(settings.buzzer_seats)
        keys = " and ".join(f"{settings.players[s].split(' (')[0]} presses {BUZZER_LABELS[i]}"
                            for i, s in enumerate(settings.buzzer_seats))
        how = (f"Party game: to slap, {keys} to buzz, then clicks a card within "
               f"{settings.buzz_window_ms / 1000:g} s." if party else
               "Click a matching state on the map or its card below; Space for No Match.")
        untimed = " Rounds are untimed." if not settings.round_limit_ms else ""
        self._set_banner("info", f"First to {settings.target} cards wins.{untimed} {how} Press Start when ready.")
        self.status.emit(f"New game of Scrambled States: first to {settings.target} cards wins.")
        self._update()
        self.changed.emit()

    def new_game(self) -> None:
        if self.online is not None:
            self._say(f"You are at the online table {self.online.table}: Game \u203a Leave the online table first.")
            return
        self.pause()   # a dialog over a real-time game: the clock stops
        dialog = ScrambledSetup(self.choice, self)
        if dialog.exec() != ScrambledSetup.Accepted:
            return
        self.choice = dialog.choice()
        self.start_game(build_match(self.choice, random.randrange(1 << 30)))

    # ---------------------------------------------------------------- saving
    def _live_match(self) -> Match | None:
        return self._live[0] if self._live is not None else self.match

    def has_game(self) -> bool:
        if self.online is not None:   # the autosave keeps the game played here before
            return self._offline is not None and self._offline[1]
        return self._live_match() is not None and self.started

    def game_in_progress(self) -> bool:
        """A game New or Open would throw away: not a finished one."""
        match = self._live_match()
        return self.has_game() and match is not None and not match.is_over()

    def save_state(self) -> dict | None:
        if self.online is not None:   # this screen's copy of an online table is no game to resume
            return self._offline[0].to_json() if self.has_game() else None
        if self._live_match() is None or not self.started:
            return None
        if self.replaying is None:
            self._catch_up(self.now())
        return self._live_match().to_json()

    def match_from_save(self, state: dict, where: str = "the save") -> Match:
        """A match from a save's body (Game > Open, Game > Replay...); SaveError naming `where`."""
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError(f"{where}: this is not a saved game of {self.title}")
        return Match.from_json(state, where)

    def load_state(self, state: dict) -> None:
        match = self.match_from_save(state, "Scrambled States save")   # the game is replaced only once it loaded
        if self.online is not None:
            self.leave_online(restore=False)
        self.start_game(match)
        self.started = True
        self._say("Game resumed where you left it. Press Resume (or Space) when ready.")   # panel and status bar agree
        self._update()

    # ---------------------------------------------------------------- mode hooks
    def on_activate(self) -> None:
        self._map_key = None
        self._update()

    def on_deactivate(self) -> None:
        self.pause()
        if self.replay_bar.playing():
            self.replay_bar.toggle_play()

    def on_modal(self, opened: bool) -> None:
        if opened:   # a dialog over a real-time game: stop the clock; the player resumes
            self.pause()

    def help_anchor(self) -> str:
        """F1 opens at the way to play on screen: party play, practice, else the top."""
        m = self._live_match()
        settings = m.state.settings if m is not None else None
        if settings is None:
            return ""
        if settings.buzzer_seats:
            return "party"
        return "practice" if settings.head_start_ms else ""

    def help_html(self) -> str:
        s = Settings(())   # the default options
        levels = ", ".join(f"{name} usually {lo:.1f}&ndash;{hi:.1f} s (never under {lv.min_ms / 1000:g} s)"
                           for name, lv in LEVELS.items() for lo, hi in [lv.usual_range()])
        lo, hi = LEVELS["beginner"].usual_range()
        return HELP_HTML.format(tie_ms=s.tie_window_ms, limit_s=s.round_limit_ms // 1000, levels=levels,
                                beginner_s=f"{lo:.1f}&ndash;{hi:.1f} s",
                                buzz_s=f"{s.buzz_window_ms / 1000:g}",
                                head_start_s=f"{PRACTICE_HEAD_START_MS / 1000:g}")

    # ---------------------------------------------------------------- who acts
    def _actor(self) -> int | None:
        """The person a click or Space belongs to: the one person, or in a party the buzz holder."""
        g = self.game
        if self.online is not None:
            return self.online.seat
        if not g.settings.buzzer_seats:
            people = self.match.humans()
            return people[0] if people else None
        return g.buzz_holder() if g.buzz_holder() in g.settings.buzzer_seats else None

    def _human_act(self, make) -> None:
        g = self.game
        if g is None:
            return
        if self.replaying is not None:
            self._say("This is a replay: close it (Esc) to play on.")
            return
        if g.is_terminal():
            self._say("The game is over: start a new one.")
            return
        if self.online is not None:
            self._online_act(make)
            return
        if not self.running:
            self._say("Press Start (or Space) first." if not self.started
                      else "The game is paused: press Resume (or Space).")
            return
        self._catch_up(self.now())
        player = self._actor()
        if player is None:
            keys = " or ".join(BUZZER_LABELS)
            self._say(f"Buzz first: press your buzzer key ({keys}), then pick.")
            return
        self._apply(make(player, g.now()))

    def slap_card(self, code: str) -> None:
        self._human_act(lambda p, t: slap(p, code, t))

    def slap_center(self) -> None:
        """Clicking the center card slaps it (right on Hand, a slip on any other face)."""
        self._human_act(lambda p, t: slap(p, self.game.center or "", t))

    def call_no_match(self) -> None:
        self._human_act(lambda p, t: no_match(p, t))

    def press_buzzer(self, index: int) -> None:
        g = self.game
        if g is None or index >= len(g.settings.buzzer_seats) or self.replaying is not None or self.online:
            return
        if not self.running:
            self._say("Press Start (or Space) first.")
            return
        self._catch_up(self.now())
        self._apply(buzz(g.settings.buzzer_seats[index], g.now()))

    def _apply(self, action) -> None:
        """A person's action, at the game time the clock has reached."""
        why = self.guard_refusal(action)
        if why is not None:   # a tutorial waits for another action: explained, not applied
            self._say(why)
            self._update()
            return
        try:
            self.match.apply(action)
        except IllegalActionError as e:
            self._say(str(e))
        self.match.resolve_chance()
        self._update()

    def on_state_clicked(self, code: str) -> None:
        g = self.game
        if g is None:
            return
        if self.replaying is not None:
            self._say("This is a replay: close it (Esc) to play on.")
            return
        if code not in g.face_up_cards() and code != g.center:
            self._say(f"{self.cards[code].name} is not on the table: slap one of the outlined states.")
            return
        self.slap_card(code)

    # ---------------------------------------------------------------- online play
    # A session (stateside.app.online.OnlineSession) has: seat, table, send(json, round=N),
    # leave(), close() and the signals update(view), connection(bool), refused(str),
    # ended(result). The referee runs the table's clock: its log (every deadline, every
    # computer's slap, as entries) is applied here in order and the local clock only
    # displays it; a person's move goes to the referee, which stamps it on arrival.
    def _people(self) -> list[int]:
        """The seats played at this screen (online: only ours)."""
        if self.online is not None:
            return [self.online.seat] if self.online.seat is not None else []
        return self.match.humans() if self.match is not None else []

    def attach_online(self, session) -> None:
        if self.online is not None:
            self.leave_online()
        if self.replaying is not None:
            self._end_replay()
        self.pause()   # the game here waits, as it was (the autosave keeps it)
        self._offline = (self.match, self.started)
        self.online = session
        self.online_sent, self.online_note = [], ""
        self._online_started = False
        session.update.connect(self.online_update)
        session.connection.connect(self._online_connection)
        session.refused.connect(self._online_refused)
        session.ended.connect(self._online_ended)
        self._set_banner("info", f"Online table {session.table}: waiting for the other players\u2026")
        self.status.emit(f"Online table {session.table}: you are seat {session.seat + 1}.")
        self._update()

    def leave_online(self, restore: bool = True) -> None:
        """Leave the table (the referee frees the seat and revokes its credentials; a game
        already over is only closed); back to the game played here before."""
        session, self.online = self.online, None
        if session is None:
            return
        for signal, slot in ((session.update, self.online_update), (session.connection, self._online_connection),
                             (session.refused, self._online_refused), (session.ended, self._online_ended)):
            signal.disconnect(slot)
        problem = session.leave()
        if problem:
            self.status.emit(f"Leaving the table {session.table}: {problem}")
        self.online_sent, self.online_note = [], ""
        self.running = False
        offline, self._offline = self._offline, None
        if restore and offline is not None:
            match, started = offline
            self._show_match(match)
            self.started = started
            self._set_banner("info", f"You left the online table {session.table}. Back to your game"
                             + (", paused: press Resume (or Space) to play on." if started else ": press Start."))
            self._update()
            self.changed.emit()

    def online_update(self, view: dict) -> None:
        """The seat's view from the referee: apply the entries not yet here, in order."""
        if self.online is None:
            return
        info = view.get("info") or {}
        if not self._online_started:   # the table's game replaces whatever was on screen
            if "seats" not in info or "setup" not in info:
                return   # the table's sync has not come yet
            self._online_started = True
            self._show_match(Match(self.rules, info["seats"], 0, info["setup"]))
            self.started = True
        for entry in view["entries"][len(self.match.log):]:
            if not self._online_entry(entry):
                break
        g = self.game
        playing = view["status"] == "playing" and not g.is_terminal()
        self.clock_base = g.now()   # the display runs on from the referee's latest time
        self.clock.start()
        self.running = playing
        self._update()
        if view["status"] == "lobby":   # a seat is empty: the referee's clock stands still
            joined = {int(k) for k in (info.get("joined") or {})}
            waiting = [g.name(s) for s in range(g.num_players)
                       if s not in joined and info.get("seats", [])[s:s + 1] == ["human"]]
            who = " and ".join(waiting) or "the other players"
            self._set_banner("info", f"Online table {self.online.table}: waiting for {who}\u2026"
                             + (" The game goes on when the seat is taken again (by the table code)."
                                if len(self.match.log) > FACE_UP else ""))
        self.changed.emit()

    def _online_entry(self, entry: dict) -> bool:
        """One entry of the referee's log, applied here; False if this screen cannot follow."""
        g = self.game
        try:
            # no move of this game is hidden from a seat; should one be, the first outcome stands in
            if entry.get("hidden"):
                outcomes = g.chance_outcomes()
                action = outcomes[0][0] if outcomes else g.legal_actions(entry["seat"])[0]
            else:
                action = g.action_from_json(entry["action"])
            done = self.match.apply(action)
        except (IllegalActionError, ValueError, IndexError, KeyError, TypeError) as e:
            self.status.emit(f"This screen could not follow the table at move {entry.get('n')}: {e}")
            return False
        note = entry.get("text")
        if note and note != done.text and not entry.get("hidden"):
            # The referee's own words on a move ("Round 2 is void: the table changed referee
            # mid-round."): shown in the banner and the move log like the game's events.
            r = self.game.round
            done.events.append(Event(self.game.now(), "void", note, round=r.number if r else 0))
        if entry.get("seat") == self.online.seat and self.online_sent:
            self.online_sent.pop(0)   # the referee took our oldest move
        return True

    def _online_act(self, make) -> None:
        """A person's slap or No Match: sent to the referee with the round it is for, and
        shown as sent until the referee's entry (or its refusal) comes back."""
        g = self.game
        seat = self.online.seat
        if not self._online_started or not self.running:
            self._say(self.banner.text() if not self._online_started else "The table is waiting for a player.")
            return
        r = g.round
        if r is None or g.to_draw:
            self._say("Wait for the next card and the die.")
            return
        if g.is_barred(seat):   # the referee's own entry barred us: no need to ask it
            self._say("You slipped: you sit out the rest of this round.")
            return
        action = make(seat, g.now())   # the time is the referee's to stamp; this one is ignored
        self._send_online(action, r.number)

    def _send_online(self, action, round_number: int) -> None:
        """Send our move for round `round_number` and show it as sent."""
        g = self.game
        data = g.action_to_json(action)
        what = (f"your slap on {self.cards[action.card].name}" if action.kind == "slap" and action.card
                else "your No Match" if action.kind == "no-match" else "your buzz")
        self.online_sent.append((round_number, data, what))
        self.online.send(data, round=round_number)
        if action.kind == "slap" and action.card:
            self.table.flash([action.card], "#ffb703")
        self._update()

    def _show_online_state(self) -> None:
        if self.online_note:
            self._set_banner("slip", self.online_note)
        elif self.online_sent:
            _, _, what = self.online_sent[-1]
            self._set_banner("pending", f"Sent: {what}\u2026 (the table decides who was first)")

    def _online_refused(self, reason: str) -> None:
        what = self.online_sent.pop(0)[2] if self.online_sent else "your move"
        text = f"The table refused {what}: {reason}"
        self._set_banner("slip", text[0].upper() + text[1:])
        self.status.emit(text)

    def _online_connection(self, up: bool) -> None:
        self.online_note = "" if up else "Connection lost: reconnecting\u2026"
        if up:
            self._set_banner("info", "Reconnected; caught up with the table.")
            self.status.emit("Reconnected; caught up with the table.")
        else:
            self._show_online_state()

    def _online_ended(self, result: dict) -> None:
        """The referee's whole log replaces this screen's copy: a finished game like any other."""
        table = self.online.table if self.online else ""
        self.leave_online(restore=False)
        match = Match.from_json(result["save"], "the online table's log")
        self._show_match(match)
        self.started = True
        over = [ev.text for entry in match.log for ev in entry.events if ev.kind == "game-over"]
        self._set_banner("game-over", (over[-1] if over else "The game is over.") + " Press New game to play again.")
        self._update()
        if result.get("problem"):
            self.status.emit(f"Online game {table} over, but it does not check out: {result['problem']}")
        else:
            self.status.emit(f"Online game {table} over; the deck's seed checks out.")
        self.changed.emit()

    # ---------------------------------------------------------------- keys
    def eventFilter(self, obj, event) -> bool:
        if obj is self.board and event.type() == QEvent.KeyPress and self.active:
            return self._key(event)
        return super().eventFilter(obj, event)

    def keyPressEvent(self, event) -> None:
        if not self._key(event):
            super().keyPressEvent(event)

    def _key(self, event) -> bool:
        if self.game is None or event.modifiers() & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier):
            return False
        key = event.key()
        if self.replaying is not None:   # the replay's keys work on the map too
            bar = self.replay_bar
            steps = {Qt.Key_Left: bar.position - 1, Qt.Key_Right: bar.position + 1,
                     Qt.Key_Home: 0, Qt.Key_End: bar.total}
            if key in steps:
                bar.go(steps[key])
            elif key == Qt.Key_Escape:
                bar.close_replay()
            elif key == Qt.Key_Space:
                bar.toggle_play()
            else:
                return False
            return True
        party = bool(self.game.settings.buzzer_seats)
        # While a state's name is being typed on the map, Space belongs to the name ("New York").
        typing = self.board.is_typing()
        if key == Qt.Key_Space and not typing:
            if self.game.is_terminal():
                self._say("The game is over: press New game to play again.")
            elif not self.started or not self.running:
                self.toggle_run()
            else:
                self.call_no_match()
            return True
        if key == Qt.Key_Escape and not typing and self.running:
            self.pause()
            return True
        if party and key in BUZZER_KEYS and not typing:   # mid-name, "a" and "l" are letters
            self.press_buzzer(BUZZER_KEYS.index(key))
            return True
        return False

    # ---------------------------------------------------------------- time passing
    def _catch_up(self, now: int) -> None:
        """Let the game reach game time `now`: every computer slap and deadline on the
        way, in time order, then the clock itself."""
        m = self.match
        if m is None or self.replaying is not None or self.online is not None:   # online: the referee's clock
            return
        for _ in range(1000):
            m.resolve_chance()
            if m.is_over():
                break
            _, actions = next_step(m, until=now)
            if not actions:
                break
            for action in actions:
                m.apply(action)

    def _on_tick(self) -> None:
        if self.running:
            self._catch_up(self.now())
        self._update()

    def _schedule(self) -> None:
        self.tick.stop()
        if (not self.running or self.match is None or self.match.is_over() or self.replaying is not None
                or self.online is not None):
            return
        t, actions = next_step(self.match)
        if actions:
            self.tick.start(max(0, t - self.now()))

    # ---------------------------------------------------------------- the move log
    def seat_colour(self, seat: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else NO_COLOUR

    def _lines(self, log: list[LogEntry], start: int = 0) -> list[LogLine]:
        lines = []
        for i in range(start, len(log)):
            said = log_line(log, i)
            if said is not None:
                text, seat = said
                lines.append(LogLine(i, seat, text, self.seat_colour(seat)))
        return lines

    def log_text(self, entry: LogEntry) -> str:
        """A logged move as the move log shows it ("" for one it leaves out)."""
        log = (self.replaying or self.match).log
        said = log_line(log, entry.index)
        return said[0] if said else ""

    def _fill_log(self) -> None:
        shown = self.replaying or self.match
        self.log_panel.set_lines(self._lines(shown.log) if shown is not None else [])

    def log_rest(self) -> int:
        # the pointer left: back to the line clicked, or the replay's own move
        if self._pinned is not None:
            return self._pinned
        return self.replay_bar.position - 1 if self.replaying is not None else -1

    def highlight_entry(self, entry: LogEntry | None) -> None:
        """Point out a logged move: its cards outlined in its player's colour, on the map
        (shown even when they have left the table) and in the row of cards."""
        pointed = None
        if entry is not None:
            log = (self.replaying or self.match).log
            said = log_line(log, entry.index)
            seat = said[1] if said else entry.seat
            colour = self.seat_colour(seat) if seat >= 0 else CHANCE_COLOUR
            codes = entry_cards(log, entry.index)
            pointed = (codes, colour) if codes else None
        if pointed != self.pointed:
            self.pointed = pointed
            self.table.set_marks(*(pointed or ((), None)))
            self._map_key = None
            self._draw_map()

    # ---------------------------------------------------------------- replays
    def start_replay(self, match: Match) -> None:
        """Step through `match` on this board, read-only; the game in progress waits, paused."""
        if self.online is not None:   # the table goes on: a replay would hide it
            self._say("A replay waits until the online game is over (or you leave the table).")
            return
        self.pause()
        self.tick.stop()
        self.won_timer.stop()
        if self.replaying is None:
            self._live = (self.match, self.seen)
        self.replaying = match
        self.recent, self.center_won, self.table.won = [], None, {}
        self._pinned = None
        self._fill_log()
        self.replay_bar.start(len(match.log), "Replay")   # the bar shares the map's width: a short title
        self.status.emit("Replay: Left and Right step through the moves; Esc goes back to the game.")
        self.changed.emit()

    def replay_to(self, n: int) -> None:
        if self.replaying is None:
            return
        r = self.replaying
        shown = Match(r.rules, r.seats, r.seed, r.initial_setup)
        shown.log = r.log[:n]
        shown.state = r.state_after(n)
        self.match = shown
        lines = [line.index for line in self.log_panel.lines() if line.index < n]
        self.log_panel.select_entry(lines[-1] if lines else None)
        self.highlight_entry(r.log[n - 1] if n > 0 else None)
        self._update()

    def stop_replay(self) -> None:
        if self.replaying is None:
            return
        self._end_replay()
        self._set_banner("info", "Back to your game, paused. Press Resume (or Space) to play on."
                         if not self.game.is_terminal() else "Back to the finished game.")
        self.status.emit("Back to the game.")
        self._update()
        self.changed.emit()

    def _end_replay(self) -> None:
        self.replaying = None
        (self.match, self.seen), self._live = self._live, None
        self.pointed, self._pinned = None, None
        self.table.set_marks((), None)
        self._map_key = None
        self._fill_log()
        if self.replay_bar.isVisible():
            self.replay_bar.blockSignals(True)
            self.replay_bar.close_replay()
            self.replay_bar.blockSignals(False)

    # ---------------------------------------------------------------- the end
    def final_table(self) -> tuple[list[str], list[list]]:
        """Columns and rows of the score table: cards won and slips, a row a player."""
        g = self.game
        slips = [0] * g.num_players
        for entry in self.match.log:
            for ev in entry.events:
                if ev.kind in ("slip", "buzz-timeout"):
                    for p in ev.players:
                        slips[p] += 1
        return ["Player", "Cards", "Slips"], [[name, len(g.piles[p]), slips[p]] for p, name in enumerate(g.names)]

    def winners(self) -> set[int]:
        return set(self.game.winners())

    def _show_final(self, over: bool) -> None:
        if over and not self.final_box.isVisible():   # the table takes room from the log: keep its end in view
            QTimer.singleShot(0, self.log_panel.scrollToBottom)
        self.final_box.setVisible(over)
        self.scoreboard.setVisible(not over)
        self.legend.setVisible(not over)   # no card to read any more: the log gets the room
        if over:
            columns, rows = self.final_table()
            self.score_table.set_table(columns, rows, self.winners(),
                                       [self.seat_colour(p) for p in range(len(rows))])
            self.replay_button.setVisible(self.replaying is None)

    # ---------------------------------------------------------------- drawing
    def _say(self, text: str) -> None:
        self.status.emit(text)
        self._set_banner("info", text)

    def _set_banner(self, kind: str, text: str) -> None:
        bg, fg = FEEDBACK.get(kind, FEEDBACK["info"])
        self.banner.setStyleSheet(
            f"background:{bg}; color:{fg}; border-radius:6px; padding:5px; font-size:13px; font-weight:bold")
        self.banner.setText(text)

    def _update(self) -> None:
        g = self.game
        if g is None:
            return
        if self.replaying is not None:
            self._draw_replay()
            return
        self._feedback()
        phase = g.phase
        live = self.running and phase in ("open", "closing")
        # Center card and die: hidden until the die lands (and while paused).
        if phase == "over":
            self.center_card.show_card(None, "Game over")
            self.die.show_face(None)
        elif not self.running:
            self.center_card.show_card(None, "Waiting" if self.online is not None
                                       else "Paused" if self.started else "Press Start")
            self.die.show_face(None)
        elif phase in ("rolling", "dealing"):
            if self.center_won:
                code, who, colour = self.center_won
                self.center_card.show_card(code, caption=(who, colour))
            else:
                self.center_card.show_card(None, "?")
            self.die.roll()
        else:
            self.center_card.show_card(g.center)
            self.die.show_face(g.face)
        self.no_match_button.setEnabled(live)
        online = self.online is not None   # nobody pauses an online race, nor starts another game in it
        self.start_button.setVisible(not online)
        self.start_button.setText("New game" if g.is_terminal() else "Pause" if self.running
                                  else "Resume" if self.started else "Start")
        self.new_button.setVisible(not g.is_terminal() and not online)
        if online and (self.online_sent or self.online_note):
            self._show_online_state()
        barred = {p for p in range(g.num_players) if g.is_barred(p)} if live else set()
        people = self._people()
        faded = set(g.face_up_cards()) if (barred and all(p in barred for p in people)) else set()
        self.table.setCursor(Qt.PointingHandCursor)
        self._draw_table(barred, faded, show_center=self.running and phase in ("open", "closing"))
        if g.buzz_holder() is not None and not self.buzz_timer.isActive():
            self.buzz_timer.start()
        self._schedule()
        self.changed.emit()

    def _draw_table(self, barred: set[int], faded: set[str], show_center: bool) -> None:
        """What a live game and a replay draw alike: the round, the row of cards, the
        scores, the map."""
        g = self.game
        r = g.round
        if r is not None and not g.is_terminal():
            left = len(g.draw)
            self.round_label.setText(f"Round {r.number}<br>Draw pile: {left} card{'s' if left != 1 else ''}")
        else:
            self.round_label.setText(f"Draw pile: {len(g.draw)} cards left")
        if self.online is not None and self.replaying is None:   # the code others join by
            self.round_label.setText(self.round_label.text() + f"<br>Table <b>{html.escape(self.online.table)}</b>")
        self.table.set_slots(g.face_up, faded)
        self._scoreboard(barred)
        self._show_final(g.is_terminal())
        self._draw_map(show_center)

    def _draw_replay(self) -> None:
        """A position of the replay, read-only: what was on the table, nothing to click."""
        g = self.game
        n, total = len(self.match.log), len(self.replaying.log)
        revealed = g.phase in ("open", "closing")
        if g.phase == "over":
            self.center_card.show_card(None, "Game over")
            self.die.show_face(None)
        elif revealed:
            self.center_card.show_card(g.center)
            self.die.show_face(g.face)
        else:
            self.center_card.show_card(None, "?")
            self.die.show_face(None)
        self.no_match_button.setEnabled(False)
        self.start_button.setVisible(False)
        self.new_button.setVisible(True)
        entry = self.match.log[-1] if n else None
        what = (self.log_text(entry) or entry.text + ".") if entry else "The table before the deal."
        self._set_banner("replay", f"Replay, move {n} of {total}: {what}")
        barred = {p for p in range(g.num_players) if g.is_barred(p)} if revealed else set()
        self.table.setCursor(Qt.ArrowCursor)
        self._draw_table(barred, set(), show_center=revealed)

    def _scoreboard(self, barred: set[int]) -> None:
        g = self.game
        target = g.settings.target
        rows = []
        holder = g.buzz_holder()
        for p, seat_name in enumerate(g.names):
            n = len(g.piles[p])
            bar = "\u25a0" * min(n, target) + "\u25a1" * max(0, target - n)
            state = ""
            if p in g.winners():
                state = "<b style='color:#2a9d8f'>winner</b>"
            elif p in barred:
                state = "<span style='color:#e63946'>sits out</span>"
            elif holder == p:
                state = "<b style='color:#b07d00'>buzzed</b>"
            name = f"<span style='color:{self.seat_colour(p)}'>\u25a0</span> {html.escape(seat_name)}"
            if p in self._people():
                name = f"<b>{name}</b>"
            rows.append(f"<tr><td>{name}</td><td style='color:#1d3557; font-size:10px'>{bar}</td>"
                        f"<td align='right'><b>{n}</b></td><td>{state}</td></tr>")
        self.scoreboard.setText(
            f"<table cellspacing='0' cellpadding='1' width='100%'><tr><th align='left'>Player</th>"
            f"<th align='left'>Pile (to {target})</th><th></th><th></th></tr>{''.join(rows)}</table>")

    def _draw_map(self, show_center: bool | None = None) -> None:
        g = self.game
        if g is None:
            return
        if show_center is None:
            show_center = (self.running or self.replaying is not None) and g.phase in ("open", "closing")
        key = (tuple(g.face_up), g.center if show_center else None, tuple(self.recent),
               self.pointed and (tuple(self.pointed[0]), self.pointed[1]), self.replaying is not None)
        if key == self._map_key or not self.active:
            return
        self._map_key = key
        b = self.board
        b.clear_fills()
        b.clear_highlight()
        b.clear_dimmed()
        b.remove_token("scrambled-center")
        b.remove_layer("scrambled-won")
        on_table = g.face_up_cards()
        won = {code for code, _, _ in self.recent}
        pointed, pointed_colour = self.pointed or ((), None)
        act = "" if self.replaying is not None else " Click to slap."
        for code in self.cards.codes:
            b.set_state_tooltip(code, None)
        b.set_dimmed([c for c in b.codes() if c not in on_table and c not in won and c not in pointed])
        by_region: dict[str, list[str]] = {}
        for code in on_table:
            card = self.cards[code]
            b.set_fill(code, self.cards.colour(card.colour).hex)
            by_region.setdefault(card.region, []).append(code)
            b.set_state_tooltip(code, f"On the table: {card.region}, land mass {card.land_mass}/4, "
                                      f"{card.population} {'person' if card.population == 1 else 'people'}, "
                                      f"{card.colour}.{act}")
        for region, codes in by_region.items():
            b.set_highlight(codes, self.cards.region(region).border_hex)
        if show_center and g.center:
            b.add_token(g.center, color="#e63946", shape="star", key="scrambled-center",
                        tooltip=f"The center card: {self.cards[g.center].name}")
        if self.recent:
            self._mark_won_states(b)
        for key in self._pointed_tokens:
            b.remove_token(key)
        self._pointed_tokens = []
        for code in pointed:   # a move pointed at in the log, in its player's colour (a pin finds small states)
            b.set_fill(code, self.cards.colour(self.cards[code].colour).hex)
            b.set_highlight([code], pointed_colour)
            self._pointed_tokens.append(b.add_token(code, color=pointed_colour, shape="marker",
                                                    key=("scrambled-pointed", code)))


    def _mark_won_states(self, b) -> None:
        """The states just won: their colour, the winner's outline and a name tag."""
        layer = b.layer("scrambled-won", z=60)
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(13)
        for code, who, colour in self.recent:
            b.set_fill(code, self.cards.colour(self.cards[code].colour).hex)
            b.set_highlight([code], colour)
            text = QGraphicsSimpleTextItem(f"{who} ✓")
            text.setFont(font)
            text.setBrush(QBrush(QColor("#ffffff")))
            box = text.boundingRect().adjusted(-5, -2, 5, 2)
            anchor = b.state_anchor(code)
            box.moveCenter(anchor - QPointF(0, 16))
            tag = QPainterPath()
            tag.addRoundedRect(box, 5, 5)
            bubble = QGraphicsPathItem(tag)
            bubble.setBrush(QBrush(QColor(colour)))
            bubble.setPen(QPen(QColor(colour).darker(150), 1.0))
            text.setPos(box.left() + 5, box.top() + 2)
            for item in (bubble, text):
                item.setAcceptedMouseButtons(Qt.NoButton)
                layer.addToGroup(item)
                if (code, who) not in self._tags_shown:   # a state just won: its tag comes down onto it
                    b.motion.arrive(item)
        self._tags_shown = {(code, who) for code, who, _ in self.recent}

    def _feedback(self) -> None:
        """Show what happened since the last look: banner, flash on the cards, move log."""
        g = self.game
        log = self.match.log
        new = [ev for entry in log[self.seen:] for ev in entry.events]
        for line in self._lines(log, self.seen):
            self.log_panel.append(line)
        self.seen = len(log)
        people = set(self._people())
        for ev in new:
            kind = ev.kind
            if kind == "reveal":
                if self.recent or self.center_won or self.table.won:   # the race is on: show the real table
                    self.won_timer.stop()
                    self.recent, self.center_won = [], None
                    self.table.end_won()
                center = self.cards[ev.center].name
                if ev.face == "hand":
                    text = f"Hand! Slap the center card, {center}!"
                else:
                    face = DIE_LABELS.get(ev.face, FACE_NAMES[ev.face])
                    text = f"{face}: find a card with {FACE_HINT[ev.face]} {center}."
                if g.settings.buzzer_seats:
                    keys = " or ".join(BUZZER_LABELS[:len(g.settings.buzzer_seats)])
                    text += f" Buzz ({keys}), then pick."
                self._set_banner("info", text)
                continue
            if kind in ("win", "hand", "no-match"):
                self._set_banner(kind if set(ev.players) & people else "lost", ev.text)
                self._show_won(ev)
            elif kind == "tie":
                self._set_banner("tie", ev.text)
                self._show_won(ev)
            elif kind in ("slip", "buzz-timeout"):
                self._set_banner("slip", ev.text)
                self.table.flash(ev.cards, "#e63946")
            elif kind == "game-over":
                self._set_banner("game-over", ev.text + " Press New game to play again.")
                self.status.emit(ev.text)
            elif kind in ("void", "buzz", "pending"):
                self._set_banner(kind, ev.text)
                if kind == "pending":   # the slapped card lights up at once, before the tie window closes
                    self.table.flash(ev.cards, "#ffb703")
        if g.buzz_holder() is None and self.buzz_timer.isActive():
            self.buzz_timer.stop()

    def _show_won(self, ev) -> None:
        """Keep the won card(s) in view for WON_MS, stamped with the winner's name."""
        g = self.game
        marks = []
        self.table.won, self.center_won = {}, None   # only the latest round's winners
        for p, code in zip(ev.players, ev.cards):
            who = g.name(p).split(" (")[0]
            colour = self.seat_colour(p)
            marks.append((code, who, colour))
            if ev.kind in ("win", "tie"):
                self.table.show_won(code, who, colour)
                self._fly_to_pile(code, p)
            else:   # Hand or No Match: the center card itself was won
                self.center_won = (code, who, colour)
        self.recent = marks
        self.won_timer.start(WON_MS)

    def _fly_to_pile(self, code: str, seat: int) -> None:
        """A copy of the won card flies from the table to its winner's line of the pile
        count (the card itself stays stamped in its slot for a moment)."""
        if code not in self.table.slots or not self.isVisible() or not self.scoreboard.isVisible():
            return
        slot = self.table.slot_rect(self.table.slots.index(code)).toRect()
        start = slot.translated(self.table.mapTo(self, slot.topLeft()) - slot.topLeft())
        board = self.scoreboard
        line = board.fontMetrics().lineSpacing() + 2
        size = slot.size() / 2
        at = board.mapTo(self, board.rect().topLeft()) + QPoint(board.width() // 3, line * (seat + 1))
        self.board.motion.fly(self, self.table.grab(slot), start, QRect(at, size))

    def _end_won(self) -> None:
        self.recent, self.center_won = [], None
        self._update()

    def _show_buzz_countdown(self) -> None:
        g = self.game
        if g is None or g.buzz_holder() is None or not self.running:
            self.buzz_timer.stop()
            return
        left = max(0, g.buzz_deadline() - self.now()) / 1000
        self._set_banner("buzz", f"{g.name(g.buzz_holder())} buzzed: pick a card or No Match \u2013 {left:.1f} s")



ONLINE_NO_PAUSE = ("An online race cannot be paused: the table's clock runs for everyone. "
                   "Game \u203a Leave the online table to stop.")

HELP_HTML = """
<h2>Scrambled States</h2>
<p>A race, not a turn game: everybody plays at once. Be the first to collect
<b>10 cards</b> (you can choose another number under <i>New game</i>).</p>
<h3>The table</h3>
<p>Fifteen state cards lie face up: you see them in the row under the map, and the same
states are coloured and outlined on the map. The other cards wait in a face-down draw pile.
Every card shows four things:</p>
<ul>
<li><b>Region</b> &ndash; the colour of the card's frame, with the region's name in the bottom band:
Midwest (purple), New England (dark navy), South Central (orange), Mid-Atlantic (green),
Mountain (yellow), Southeast (teal), Pacific (red). On the map the outline has the same colour.</li>
<li><b>Land mass</b> &ndash; 1 to 4 brown bars (the bars a larger state would have are dashed): under 20,000 square
miles, 20,000&ndash;49,999,
50,000&ndash;99,999, and 100,000 or more (Census total area, land and water): more bars, more land.</li>
<li><b>Population</b> &ndash; 1 to 5 people: under 1 million, 1&ndash;1.9 million, 2&ndash;4.9 million,
5&ndash;9.9 million, 10 million or more (2020 Census).</li>
<li><b>State colour</b> &ndash; the colour of the state's shape on the card (and on the map), with a pattern
so that it can be told without colour: red (plain), blue (stripes), yellow (dots), green (diagonal lines),
purple (cross-hatch).</li>
</ul>
<h3>A round</h3>
<p>The top card of the draw pile becomes the <b>center card</b> and the die rolls. When it lands, race:</p>
<ul>
<li><b>Region, Land Mass, Population, State Colour</b>: slap a face-up card that has the same feature as the center
card.</li>
<li><b>2</b>: slap a card that has at least two of the four features in common with the center card.</li>
<li><b>Hand</b>: slap the center card itself.</li>
</ul>
<p>To slap, click the state on the map or its card in the row. If no face-up card matches, the first to call
<b>No Match</b> (the button or the Space bar) wins the center card.</p>
<p>A correct slap wins that card; the center card takes its place on the table and a new round begins.
For a moment the won card stays in view with the winner's name on it (and on the map), so you can see what
a computer took and why; the message panel explains the match.</p>
<h3>Mistakes and ties</h3>
<ul>
<li><b>Slip slap</b>: slap a wrong card, or call No Match when a card matches, and you sit out the rest of the
round. The others keep looking. Computer players obey the same rule.</li>
<li><b>Tie</b>: if two players slap different correct cards within {tie_ms} milliseconds, both keep their
cards. The empty places are filled with the center card and the next card of the draw pile.</li>
</ul>
<h3>Our additions</h3>
<p>The cards are our own design: the regions are made of whole Census divisions (the South Atlantic is cut at
the Potomac, so Delaware and Maryland are Mid-Atlantic), the colours are a map colouring in which
neighbouring states never share a colour, and land mass and population are worked out from the official
figures. Where the printed rules say nothing, we decided: a round that nobody wins (everybody slipped, or
{limit_s} seconds pass; rounds of a practice game or of a game of people only have no time limit) is dropped and its
card stays under the center pile; when the draw pile runs out, whoever
has the most cards wins (equal counts share the win).</p>
<h3>Computer players</h3>
<p>Each level has its own reaction time: {levels} on an ordinary round (quicker on Hand, slower on
&ldquo;2&rdquo; and slowest to be sure that nothing matches). They never react faster than their level
allows, the easier ones now and then slap a near miss or call No Match too soon, and they sit out after a
slip like everyone else.</p>
<p>Why these times: a race to 10 cards turns a small edge in each round into a near-certain win, so
opponents that are always a little slower (or faster) than you are no fun either way. Our levels overlap
the 1&ndash;3 seconds a person typically needs and each other. In simulated games against a person who
usually needs about 1.8 s, <b>easy</b> loses nearly every game but still takes about one card in five,
<b>medium</b> is a real contest (the person wins about two games in three), and <b>hard</b> wins most
games while the person still takes about a third of the cards; a quick player (about 1.2 s) beats hard
more often than not.</p>
<p><b>Beginner</b>, the level a new game starts with, is slower than a first-time player: it usually needs
{beginner_s} a round, where a newcomer needs about 3 seconds (our estimate from studies of how fast people search
a display for a target, written down with its sources beside the card data). Start with one beginner computer, move up
to easy when you win
comfortably. <a name="practice"></a><b>Practice</b> (under <i>New game</i>) makes every round untimed: no round is
dropped for time,
so you can study the cards, and the computers give you a head start of {head_start_s} seconds each round
before they look (after that they play at their level, which shows you the answer).</p>
<a name="party"></a><h3>Party play</h3>
<p>Two people share the keyboard: player 1 buzzes with <b>A</b>, player 2 with <b>L</b>. The first to buzz then
has {buzz_s} seconds to click a card, the center card, or No Match; running out of time counts as a slip slap. Computer
opponents can
join a party; they hold back while a person has the buzzer.</p>
<h3>Online</h3>
<p><i>Game &gt; Play online&hellip;</i> seats each player at their own screen (computers are run by the
server). The server's clock decides: the first slap to <b>arrive</b> wins, so play on a server near everyone.
Your slap shows as <i>sent</i> until the table confirms it; one that arrives after its round ended is refused
and the message says so. An online race cannot be paused; <i>Game &gt; Leave the online table</i> gives your
seat up (the others wait until someone takes it with the table code).</p>
<h3>The move log and replays</h3>
<p>The panel lists every move, newest last, in its player's colour: each round as the die lands,
every slap, call and buzz (the computers' too) and who won which card. Point at a line to see its cards
outlined on the map and in the row; click it to keep them shown. When a game ends, the final scores
appear with <b>Replay this game</b>; <i>Game &gt; Replay&hellip;</i> also opens a saved game. A replay
steps through the moves (Left, Right, Home, End, Space to play) without touching your game, which
waits paused.</p>
<p>A state just won gets its winner's name tag, which comes down onto it; View &gt; Animations sets how fast (or turns
it off).</p>
<h3>Keys</h3>
<p><b>Space</b>: No Match (or start and resume) &middot; <b>Esc</b>: pause &middot; type a state's name or postal
code on the map and press Enter to slap it &middot; party play: <b>A</b> and <b>L</b> buzz. There is no undo:
it is a race, and a slap once made stands.</p>
"""
