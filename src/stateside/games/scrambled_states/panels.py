"""Scrambled States' panels: the setup screen (and the match a setup choice makes) and the
side panel beside the map (the center card, the die, the buttons, the banner, the pile
count, the final scores, the card legend and the move log). They show what the mode
gives them; the mode connects their buttons."""
from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from stateside.app.setup_screen import HUMAN, SeatChoice, SetupScreen
from stateside.app.turns import ScoreTable
from stateside.board.plain import plain_label
from stateside.engine.match import MAX_NAME, Match
from stateside.games.scrambled_states.ai import LEVELS
from stateside.games.scrambled_states.rules import ScrambledStates, Settings
from stateside.games.scrambled_states.widgets import CenterCard, DieWidget

DEFAULT_LEVEL = "beginner"   # a first game: slower than a first-time player (SOURCES.md)
COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Flo")
DEFAULT_SEATS = (("You", HUMAN), ("Ada", f"ai:{DEFAULT_LEVEL}"))
BUZZER_LABELS = ("A", "L")                  # party play: player 1, player 2
MAX_PEOPLE = len(BUZZER_LABELS)             # people share one keyboard: one buzzer key each
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
PRACTICE_HEAD_START_MS = 12_000   # long enough to study the table; then the computers show the answer


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


# --- beside the map ----------------------------------------------------------------------
def _button(text: str, tip: str = "") -> QPushButton:
    button = QPushButton(text)
    button.setFocusPolicy(Qt.NoFocus)   # Space and Esc stay the game's keys
    if tip:
        button.setToolTip(tip)
    return button


class SidePanel(QFrame):
    """The column beside the map: the center card with the die, the round and the game's
    buttons beside it; No Match; the banner (what happened, with the players' names); the
    pile count, or at the end the final scores and the way to a replay; the card legend;
    the move log (`log_panel`, the mode's)."""

    def __init__(self, cards, log_panel, parent=None):
        super().__init__(parent)
        self.setObjectName("sidePanel")
        self.setFixedWidth(300)
        side = QVBoxLayout(self)
        side.setContentsMargins(10, 8, 10, 8)
        side.setSpacing(6)

        middle = QHBoxLayout()
        self.center_card = CenterCard(cards)
        middle.addWidget(self.center_card, 0, Qt.AlignTop)
        right = QVBoxLayout()
        right.setSpacing(4)
        self.die = DieWidget(cards)
        right.addWidget(self.die, 0, Qt.AlignHCenter)
        self.round_label = QLabel()
        self.round_label.setAlignment(Qt.AlignCenter)
        self.round_label.setWordWrap(True)
        self.round_label.setStyleSheet("color:#444; font-size:11px")
        right.addWidget(self.round_label)
        right.addStretch(1)
        buttons = QHBoxLayout()
        buttons.setSpacing(4)
        self.start_button = _button("Start")
        buttons.addWidget(self.start_button)
        self.new_button = _button("New\u2026", "A new game: players, computer levels, cards to win, practice")
        buttons.addWidget(self.new_button)
        right.addLayout(buttons)
        middle.addLayout(right, 1)
        side.addLayout(middle)

        self.no_match_button = _button("No Match!  (Space)")
        self.no_match_button.setMinimumHeight(30)
        self.no_match_button.setStyleSheet("font-weight:bold; font-size:14px")
        side.addWidget(self.no_match_button)

        self.banner = plain_label()
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
        self.replay_button = _button("Replay this game")
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
        log_panel.setFocusPolicy(Qt.NoFocus)
        log_panel.setMinimumHeight(60)
        side.addWidget(log_panel, 1)

    def set_banner(self, kind: str, text: str) -> None:
        bg, fg = FEEDBACK.get(kind, FEEDBACK["info"])
        self.banner.setStyleSheet(
            f"background:{bg}; color:{fg}; border-radius:6px; padding:5px; font-size:13px; font-weight:bold")
        self.banner.setText(text)
