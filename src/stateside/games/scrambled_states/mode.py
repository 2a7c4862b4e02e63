"""Scrambled States on the shared map: a thin real-time view over a Match.

The view keeps one clock (a QElapsedTimer, in game milliseconds). Time, the computers'
slaps and the engine's deadlines (die landing, tie window, buzzer, round limit) reach
the game through stateside.engine.clock.next_step up to the wall clock's game time; a
click or key press lets time pass to that moment and then applies the person's action,
all through the match, whose log is the game. A single-shot QTimer wakes the view at
the next planned slap or deadline. The engine decides who wins; the view only draws
what it says.
"""
from __future__ import annotations

import html
import random

from PySide6.QtCore import QElapsedTimer, QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QButtonGroup, QCheckBox, QGraphicsPathItem, QGraphicsSimpleTextItem, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame, QHBoxLayout, QLabel,
    QListWidget, QPushButton, QRadioButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget,
)

from stateside.app.mode import GameMode
from stateside.engine.clock import next_step
from stateside.engine.match import Match
from stateside.errors import IllegalActionError, SaveError
from stateside.games.scrambled_states.ai import LEVELS
from stateside.games.scrambled_states.cards import load_cards
from stateside.games.scrambled_states.painting import (
    paint_caption, paint_card, paint_card_back, paint_die, paint_empty_slot,
)
from stateside.games.scrambled_states.rules import (
    FACE_NAMES, FACE_UP, ScrambledStates, Settings, buzz, no_match, slap,
)

DEFAULT_LEVEL = "beginner"   # a first game: slower than a first-time player (SOURCES.md)
COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli")
BUZZER_KEYS = (Qt.Key_A, Qt.Key_L)          # party play: player 1, player 2
BUZZER_LABELS = ("A", "L")
DIE_LABELS = {"two": "Any two"}
LEGEND = (
    "<b>Reading a card:</b> frame and bottom band = region; brown bars = land mass (1-4); "
    "people = population (1-5); the state's shape = state colour (with a pattern). "
    "<span style='color:#666'>Hover a card for it in words.</span>"
)
FLASH_MS = 1400
# A won card stays in view this long (on the table, on the map or as the center card),
# stamped with the winner's name, before the card that replaces it appears: a computer's
# slap then reads as "Ada took Montana" rather than as a card silently changing. It is
# shorter than the pause before the next die lands, so the new table is seen before the race.
WON_MS = 1500
WINNER_COLOURS = {"you": "#2a9d8f", "other": "#457b9d", "tie": "#f4a261"}
ROLL_FRAME_MS = 90
FEEDBACK = {   # banner colours: background, text
    "win": ("#2a9d8f", "#ffffff"), "hand": ("#2a9d8f", "#ffffff"), "no-match": ("#2a9d8f", "#ffffff"),
    "lost": ("#457b9d", "#ffffff"), "slip": ("#e63946", "#ffffff"), "tie": ("#f4a261", "#1b1b1b"),
    "void": ("#8d99ae", "#ffffff"), "buzz": ("#ffb703", "#1b1b1b"), "game-over": ("#1d3557", "#ffffff"),
    "info": ("#f1faee", "#1d3557"), "pending": ("#ffb703", "#1b1b1b"),
}
FACE_HINT = {   # "find a card with ... as/with <center>"
    "region": "the same region (frame colour) as",
    "land-mass": "the same land-mass icon as",
    "population": "the same number of people as",
    "colour": "the same state colour as",
    "two": "any two features in common with",
}


# --- widgets ---------------------------------------------------------------------------
class CardTable(QWidget):
    """The 15 face-up cards in their places; click one to slap it."""
    cardClicked = Signal(str)

    def __init__(self, cards, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.slots: list[str | None] = [None] * FACE_UP
        self.faded: set[str] = set()
        self.flashes: dict[str, QColor] = {}
        self.won: dict[int, tuple[str, str, QColor]] = {}   # slot -> (card, caption, colour)
        self._hover: int | None = None
        self._flash_timer = QTimer(self, singleShot=True, timeout=self._end_flash)
        self._won_timer = QTimer(self, singleShot=True, timeout=self.end_won)
        self.setMouseTracking(True)
        self.setMinimumHeight(96)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)
        self.setCursor(Qt.PointingHandCursor)

    def sizeHint(self) -> QSize:
        return QSize(15 * 84, 122)

    def set_slots(self, slots: list[str | None], faded: set[str] = frozenset()) -> None:
        if slots != self.slots or faded != self.faded:
            self.slots, self.faded = list(slots), set(faded)
            self._tooltips()
            self.update()

    def flash(self, codes, colour: str) -> None:
        self.flashes = {c: QColor(colour) for c in codes}
        self._flash_timer.start(FLASH_MS)
        self.update()

    def _end_flash(self) -> None:
        self.flashes = {}
        self.update()

    def show_won(self, code: str, caption: str, colour: str) -> None:
        """Keep the just-won card `code` in its slot for a moment, stamped with `caption`."""
        if code in self.slots:
            self.won[self.slots.index(code)] = (code, caption, QColor(colour))
            self._won_timer.start(WON_MS)
            self.update()

    def end_won(self) -> None:
        """The won cards leave; the cards that took their places flash once."""
        arrived = [self.slots[i] for i in self.won if self.slots[i]]
        self.won = {}
        if arrived:
            self.flash(arrived, "#2a9d8f")
        self.update()

    def slot_rect(self, i: int) -> QRectF:
        gap = 5.0
        h_avail = self.height() - 8
        w = min((self.width() - gap * (FACE_UP + 1)) / FACE_UP, h_avail / 1.38)
        h = w * 1.38
        total = FACE_UP * w + (FACE_UP - 1) * gap
        x0 = (self.width() - total) / 2
        return QRectF(x0 + i * (w + gap), (self.height() - h) / 2, w, h)

    def slot_at(self, pos) -> int | None:
        for i in range(FACE_UP):
            if self.slot_rect(i).contains(pos):
                return i
        return None

    def card_rect(self, code: str) -> QRectF:
        return self.slot_rect(self.slots.index(code))

    def _tooltips(self) -> None:
        self.setToolTip("Click a card to slap it.")

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        for i, code in enumerate(self.slots):
            r = self.slot_rect(i)
            if i in self.won:
                won, caption, colour = self.won[i]
                p.setPen(QPen(colour, 4))
                p.setBrush(Qt.NoBrush)
                p.drawRoundedRect(r.adjusted(-2, -2, 2, 2), r.width() * 0.1, r.width() * 0.1)
                paint_card(p, r, self.cards[won], self.cards)
                paint_caption(p, r, caption, colour)
                continue
            if code is None:
                paint_empty_slot(p, r)
                continue
            if code in self.flashes:
                p.setPen(QPen(self.flashes[code], 5))
                p.setBrush(Qt.NoBrush)
                p.drawRoundedRect(r.adjusted(-2, -2, 2, 2), r.width() * 0.1, r.width() * 0.1)
            paint_card(p, r, self.cards[code], self.cards, hover=i == self._hover, faded=code in self.faded)
        p.end()

    def mouseMoveEvent(self, event) -> None:
        i = self.slot_at(event.position())
        i = i if i is not None and self.slots[i] else None
        if i != self._hover:
            self._hover = i
            if i is not None:
                c = self.cards[self.slots[i]]
                self.setToolTip(f"{c.name}: {c.region}, land mass {c.land_mass}/4, "
                                f"{c.population} {'person' if c.population == 1 else 'people'}, {c.colour}")
            self.update()

    def leaveEvent(self, event) -> None:
        self._hover = None
        self.update()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            i = self.slot_at(event.position())
            if i is not None and self.slots[i] and i not in self.won:
                self.cardClicked.emit(self.slots[i])


class CenterCard(QWidget):
    """The center card (face down while the die rolls); click it to slap it on Hand."""
    clicked = Signal()

    def __init__(self, cards, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.code: str | None = None
        self.back_text = "?"
        self.caption: tuple[str, QColor] | None = None   # who just won the card shown
        self.setFixedSize(118, 163)
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip("The center card. On Hand, click it to slap it.")

    def show_card(self, code: str | None, back_text: str = "?", caption: tuple[str, str] | None = None) -> None:
        cap = (caption[0], QColor(caption[1])) if caption else None
        if (code, back_text, cap) != (self.code, self.back_text, self.caption):
            self.code, self.back_text, self.caption = code, back_text, cap
            self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        if self.code:
            paint_card(p, r, self.cards[self.code], self.cards)
            if self.caption:
                paint_caption(p, r, *self.caption)
        else:
            paint_card_back(p, r, self.back_text)
        p.end()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self.clicked.emit()


class DieWidget(QWidget):
    """The die: tumbles through random faces while rolling, then shows the rolled face."""

    def __init__(self, cards, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.face: str | None = None
        self.tilt = 0.0
        self._spin = random.Random()   # the animation only; the engine rolls the real die
        self._timer = QTimer(self, interval=ROLL_FRAME_MS, timeout=self._frame)
        self.setFixedSize(96, 96)

    @property
    def rolling(self) -> bool:
        return self._timer.isActive()

    def roll(self) -> None:
        if not self._timer.isActive():
            self._timer.start()
            self._frame()

    def show_face(self, face: str | None) -> None:
        self._timer.stop()
        self.tilt = 0.0
        self.face = face
        self.setToolTip(f"The die shows {FACE_NAMES[face]}." if face else "")
        self.update()

    def _frame(self) -> None:
        self.face = self._spin.choice(list(FACE_NAMES))
        self.tilt = self._spin.uniform(-25, 25)
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        label = DIE_LABELS.get(self.face, FACE_NAMES.get(self.face, "")) if self.face and not self.rolling else ""
        paint_die(p, QRectF(self.rect()).adjusted(6, 6, -6, -6), self.face, self.cards, label, self.tilt)
        p.end()


class SetupDialog(QDialog):
    """New game: you against computers, or a party of two on one keyboard."""

    def __init__(self, current: dict, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New game of Scrambled States")
        self.solo = QRadioButton("Me against the computer")
        self.party = QRadioButton("Party: two people on one keyboard (buzzers A and L)")
        group = QButtonGroup(self)
        for b in (self.solo, self.party):
            group.addButton(b)
        (self.party if current.get("party") else self.solo).setChecked(True)
        self.computers = QSpinBox()
        self.practice = QCheckBox("Practice: untimed rounds (a round waits until someone wins it)")
        self.practice.setChecked(bool(current.get("practice")))
        self.level = QComboBox()
        for name, lv in LEVELS.items():
            low, high = lv.usual_range()
            self.level.addItem(f"{name.capitalize()} (usually slaps in {low:.1f}-{high:.1f} s)", name)
        self.level.addItem("Mixed (beginner, easy, medium...)", "mixed")
        self.level.setCurrentIndex(max(0, self.level.findData(current.get("level", DEFAULT_LEVEL))))
        self.target = QSpinBox()
        self.target.setRange(3, 20)
        self.target.setValue(current.get("target", 10))
        self.target.setSuffix(" cards")
        form = QFormLayout()
        form.addRow(self.solo)
        form.addRow(self.party)
        form.addRow("Computer opponents:", self.computers)
        form.addRow("Computer level:", self.level)
        form.addRow("Cards to win:", self.target)
        form.addRow(self.practice)
        self.untimed_note = QLabel("Rounds of people only are untimed.")
        self.untimed_note.setStyleSheet("color:#555")
        form.addRow(self.untimed_note)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(buttons)
        self.solo.toggled.connect(self._limits)
        self.computers.valueChanged.connect(self._people_only)
        self._limits()
        self.computers.setValue(current.get("computers", 1))
        self._people_only()

    def _people_only(self) -> None:
        people_only = self.computers.value() == 0
        self.level.setEnabled(not people_only)
        self.practice.setEnabled(not people_only)   # a game of people only is untimed anyway
        self.untimed_note.setVisible(people_only)

    def _limits(self) -> None:
        if self.solo.isChecked():
            self.computers.setRange(1, 5)
        else:
            self.computers.setRange(0, 4)

    def choice(self) -> dict:
        return {"party": self.party.isChecked(), "computers": self.computers.value(),
                "level": self.level.currentData(), "target": self.target.value(),
                "practice": self.practice.isChecked()}


def build_match(choice: dict, seed: int) -> Match:
    """A new match for a setup choice: people first, then the computers."""
    levels = list(LEVELS)
    computers = choice.get("computers", 1)
    if choice.get("party"):
        names, seats = [f"Player {i + 1} ({BUZZER_LABELS[i]})" for i in range(2)], ["human", "human"]
    else:
        names, seats = ["You"], ["human"]
    for i in range(computers):
        level = choice.get("level", DEFAULT_LEVEL)
        if level == "mixed":
            level = levels[i % len(levels)]
        names.append(f"{COMPUTER_NAMES[i]} ({level})")
        seats.append(f"ai:{level}")
    # Practice, and a game of people only (nobody to race but each other), has untimed rounds.
    untimed = choice.get("practice") or computers == 0
    settings = Settings(tuple(names), target=choice.get("target", 10),
                        buzzer_seats=(0, 1) if choice.get("party") else (),
                        round_limit_ms=0 if untimed else Settings(()).round_limit_ms)
    return Match(ScrambledStates, seats, seed, settings.to_setup())


# --- the mode --------------------------------------------------------------------------------
class ScrambledStatesMode(GameMode):
    game_id = "scrambled-states"
    title = "Scrambled States"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.cards = load_cards()
        self.match: Match | None = None
        self.choice = {"party": False, "computers": 1, "level": DEFAULT_LEVEL, "target": 10, "practice": False}
        self.seen = 0          # log entries whose events the view has shown
        self.started = False
        self.running = False
        self.clock = QElapsedTimer()
        self.clock_base = 0
        self._map_key = None
        self.active = False    # the shared board is ours only while the shell has us active
        self.recent: list[tuple[str, str, str]] = []        # just-won states on the map: (code, caption, colour)
        self.center_won: tuple[str, str, str] | None = None  # the center card just won on Hand or No Match
        self.won_timer = QTimer(self, singleShot=True, timeout=self._end_won)
        self.tick = QTimer(self, singleShot=True, timeout=self._on_tick)
        self.buzz_timer = QTimer(self, interval=100, timeout=self._show_buzz_countdown)
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

        top = QHBoxLayout()
        self.start_button = QPushButton("Start")
        self.start_button.setFocusPolicy(Qt.NoFocus)
        self.start_button.clicked.connect(self.toggle_run)
        top.addWidget(self.start_button)
        self.new_button = QPushButton("New game\u2026")
        self.new_button.setFocusPolicy(Qt.NoFocus)
        self.new_button.clicked.connect(self.new_game)
        top.addWidget(self.new_button)
        top.addStretch(1)
        side.addLayout(top)

        middle = QHBoxLayout()
        self.center_card = CenterCard(self.cards)
        self.center_card.clicked.connect(self.slap_center)
        middle.addWidget(self.center_card)
        right = QVBoxLayout()
        self.die = DieWidget(self.cards)
        right.addWidget(self.die, 0, Qt.AlignHCenter)
        self.round_label = QLabel()
        self.round_label.setAlignment(Qt.AlignCenter)
        self.round_label.setWordWrap(True)
        self.round_label.setStyleSheet("color:#444; font-size:11px")
        right.addWidget(self.round_label)
        right.addStretch(1)
        middle.addLayout(right, 1)
        side.addLayout(middle)

        self.no_match_button = QPushButton("No Match!  (Space)")
        self.no_match_button.setFocusPolicy(Qt.NoFocus)
        self.no_match_button.setMinimumHeight(34)
        self.no_match_button.setStyleSheet("font-weight:bold; font-size:14px")
        self.no_match_button.clicked.connect(self.call_no_match)
        side.addWidget(self.no_match_button)

        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setMinimumHeight(62)
        self.banner.setAlignment(Qt.AlignCenter)
        side.addWidget(self.banner)

        self.scoreboard = QLabel()
        self.scoreboard.setTextFormat(Qt.RichText)
        self.scoreboard.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        side.addWidget(self.scoreboard)

        # The card legend stays put; the log below it holds only what happened.
        self.legend = QLabel(LEGEND)
        self.legend.setObjectName("cardLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.RichText)
        self.legend.setStyleSheet("font-size:11px; background:#f4f1ea; border:1px solid #ddd6c8;"
                                  " border-radius:4px; padding:4px")
        side.addWidget(self.legend)
        self.log_title = QLabel("<b>Rounds</b> (newest first)")
        self.log_title.setStyleSheet("font-size:11px")
        side.addWidget(self.log_title)
        self.log = QListWidget()
        self.log.setFocusPolicy(Qt.NoFocus)
        self.log.setWordWrap(True)
        self.log.setStyleSheet("font-size:11px")
        self.log.setMinimumHeight(40)
        side.addWidget(self.log, 1)

        self.table = CardTable(self.cards)
        self.table.cardClicked.connect(self.slap_card)

        upper = QHBoxLayout()
        upper.setContentsMargins(0, 0, 0, 0)
        upper.setSpacing(0)
        upper.addWidget(self.board_slot, 1)
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
        self.board.stateClicked.connect(self._on_state_clicked)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_cards()

    def _fit_cards(self) -> None:
        """The row of cards as large as the width allows, up to a fifth of the height, and
        fixed: what the side panel shows (more players, a longer message) never makes
        the cards jump in size mid-game. The center card grows with them."""
        card_w = (self.width() - 8 - 5.0 * (FACE_UP + 1)) / FACE_UP
        height = min(card_w * 1.38 + 8, max(110.0, self.height() * 0.2))
        self.table.setFixedHeight(max(96, int(height)))
        center_w = int(min(150, max(110, card_w)))
        self.center_card.setFixedSize(center_w, int(center_w * 1.38))

    # ---------------------------------------------------------------- the clock
    def now(self) -> int:
        """Game time in ms: it runs only while the game is running."""
        return self.clock_base + (int(self.clock.elapsed()) if self.running else 0)

    def toggle_run(self) -> None:
        if self.game is None or self.game.is_terminal():
            self.new_game()
        elif self.running:
            self.pause()
        else:
            self.resume()

    def resume(self) -> None:
        if self.game is None or self.game.is_terminal() or self.running:
            return
        self.started = True
        self.running = True
        self.clock.start()
        self._set_banner("info", "Go! Watch the die." if self.game.phase == "rolling" else "Play on!")
        self._update()

    def pause(self) -> None:
        if not self.running:
            return
        self._catch_up(self.now())
        self.clock_base = self.now()
        self.running = False
        self.tick.stop()
        self._set_banner("info", "Paused. Press Resume (or Space) to play on.")
        self._update()

    # ---------------------------------------------------------------- game setup
    def start_game(self, match: Match) -> None:
        self.tick.stop()
        self.match = match
        match.resolve_chance()   # the deal: 15 cards, the center card and the die
        settings = self.game.settings
        self.won_timer.stop()
        self.recent, self.center_won, self.table.won, self.table.flashes = [], None, {}, {}
        self.seen = len(match.log)
        self.clock_base = self.game.now()
        self.running = False
        self.started = False
        self.log.clear()
        self._map_key = None
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
        dialog = SetupDialog(self.choice, self)
        if dialog.exec() != QDialog.Accepted:
            return
        self.choice = dialog.choice()
        self.start_game(build_match(self.choice, random.randrange(1 << 30)))

    # ---------------------------------------------------------------- saving
    def has_game(self) -> bool:
        return self.game is not None and self.started

    def save_state(self) -> dict | None:
        if self.game is None or not self.started:
            return None
        self._catch_up(self.now())
        return self.match.to_json()

    def load_state(self, state: dict) -> None:
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError("Scrambled States save: no game of Scrambled States in it")
        self.start_game(Match.from_json(state, "Scrambled States save"))   # replaces the game only once it loaded
        self.started = True
        self._set_banner("info", "Game resumed where you left it. Press Resume (or Space) when ready.")
        self._update()

    # ---------------------------------------------------------------- mode hooks
    def on_activate(self) -> None:
        self.active = True
        self._map_key = None
        self._update()

    def on_deactivate(self) -> None:
        self.pause()
        self.active = False

    def on_modal(self, opened: bool) -> None:
        if opened:   # a dialog over a real-time game: stop the clock; the player resumes
            self.pause()

    def help_html(self) -> str:
        s = Settings(())   # the default options
        levels = ", ".join(f"{name} usually {lo:.1f}&ndash;{hi:.1f} s (never under {lv.min_ms / 1000:g} s)"
                           for name, lv in LEVELS.items() for lo, hi in [lv.usual_range()])
        lo, hi = LEVELS["beginner"].usual_range()
        return HELP_HTML.format(tie_ms=s.tie_window_ms, limit_s=s.round_limit_ms // 1000, levels=levels,
                                beginner_s=f"{lo:.1f}&ndash;{hi:.1f} s",
                                buzz_s=f"{s.buzz_window_ms / 1000:g}")

    # ---------------------------------------------------------------- who acts
    def _actor(self) -> int | None:
        """The person a click or Space belongs to: you, or in a party the buzz holder."""
        g = self.game
        if not g.settings.buzzer_seats:
            return 0
        return g.buzz_holder() if g.buzz_holder() in g.settings.buzzer_seats else None

    def _human_act(self, make) -> None:
        g = self.game
        if g is None:
            return
        if g.is_terminal():
            self._say("The game is over: start a new one.")
            return
        if not self.running:
            self._say("Press Start (or Space) first." if not self.started
                      else "The game is paused: press Resume (or Space).")
            return
        t = self.now()
        self._catch_up(t)
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
        if g is None or index >= len(g.settings.buzzer_seats):
            return
        if not self.running:
            self._say("Press Start (or Space) first.")
            return
        self._catch_up(self.now())
        self._apply(buzz(g.settings.buzzer_seats[index], g.now()))

    def _apply(self, action) -> None:
        """A person's action, at the game time the clock has reached."""
        try:
            self.match.apply(action)
        except IllegalActionError as e:
            self._say(str(e))
        self.match.resolve_chance()
        self._update()

    def _on_state_clicked(self, code: str) -> None:
        if self.game is None or not self.active:   # the board is shared: clicks in other modes are theirs
            return
        g = self.game
        if code not in g.face_up_cards() and code != g.center:
            self._say(f"{self.cards[code].name} is not on the table: slap one of the outlined states.")
            return
        self.slap_card(code)

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
        if not self.running or self.match is None or self.match.is_over():
            return
        t, actions = next_step(self.match)
        if actions:
            self.tick.start(max(0, t - self.now()))

    # ---------------------------------------------------------------- drawing
    def _say(self, text: str) -> None:
        self.status.emit(text)
        self._set_banner("info", text)

    def _set_banner(self, kind: str, text: str) -> None:
        bg, fg = FEEDBACK.get(kind, FEEDBACK["info"])
        self.banner.setStyleSheet(
            f"background:{bg}; color:{fg}; border-radius:6px; padding:6px; font-size:13px; font-weight:bold")
        self.banner.setText(text)

    def _update(self) -> None:
        g = self.game
        if g is None:
            return
        self._feedback()
        phase = g.phase
        live = self.running and phase in ("open", "closing")
        # Center card and die: hidden until the die lands (and while paused).
        if phase == "over":
            self.center_card.show_card(None, "Game over")
            self.die.show_face(None)
        elif not self.running:
            self.center_card.show_card(None, "Paused" if self.started else "Press Start")
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
        r = g.round
        if r is not None and not g.is_terminal():
            left = len(g.draw)
            self.round_label.setText(f"Round {r.number}<br>{left} card{'s' if left != 1 else ''} in the draw pile")
        else:
            self.round_label.setText(f"{len(g.draw)} cards left in the draw pile")
        self.no_match_button.setEnabled(live)
        self.start_button.setText("New game" if g.is_terminal() else "Pause" if self.running
                                  else "Resume" if self.started else "Start")
        self.new_button.setVisible(not g.is_terminal())
        barred = {p for p in range(g.num_players) if g.is_barred(p)} if live else set()
        people = self.match.humans()
        faded = set(g.face_up_cards()) if (barred and all(p in barred for p in people)) else set()
        self.table.set_slots(g.face_up, faded)
        self._scoreboard(barred)
        self._draw_map()
        if g.buzz_holder() is not None and not self.buzz_timer.isActive():
            self.buzz_timer.start()
        self._schedule()
        self.changed.emit()

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
            name = html.escape(seat_name)
            if self.match.is_human(p):
                name = f"<b>{name}</b>"
            rows.append(f"<tr><td>{name}</td><td style='color:#1d3557; font-size:10px'>{bar}</td>"
                        f"<td align='right'><b>{n}</b></td><td>{state}</td></tr>")
        self.scoreboard.setText(
            f"<table cellspacing='0' cellpadding='2' width='100%'><tr><th align='left'>Player</th>"
            f"<th align='left'>Pile (to {target})</th><th></th><th></th></tr>{''.join(rows)}</table>")

    def _draw_map(self) -> None:
        g = self.game
        show_center = self.running and g.phase in ("open", "closing")
        key = (tuple(g.face_up), g.center if show_center else None, tuple(self.recent))
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
        for code in self.cards.codes:
            b.set_state_tooltip(code, None)
        b.set_dimmed([c for c in b.codes() if c not in on_table and c not in won])
        by_region: dict[str, list[str]] = {}
        for code in on_table:
            card = self.cards[code]
            b.set_fill(code, self.cards.colour(card.colour).hex)
            by_region.setdefault(card.region, []).append(code)
            b.set_state_tooltip(code, f"On the table: {card.region}, land mass {card.land_mass}/4, "
                                      f"{card.population} {'person' if card.population == 1 else 'people'}, "
                                      f"{card.colour}. Click to slap.")
        for region, codes in by_region.items():
            b.set_highlight(codes, self.cards.region(region).border_hex)
        if show_center and g.center:
            b.add_token(g.center, color="#e63946", shape="star", key="scrambled-center",
                        tooltip=f"The center card: {self.cards[g.center].name}")
        if self.recent:
            self._mark_won_states(b)

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

    def _feedback(self) -> None:
        """Show what happened since the last look: banner, flash on the cards, log."""
        g = self.game
        new = [ev for entry in self.match.log[self.seen:] for ev in entry.events]
        self.seen = len(self.match.log)
        people = set(self.match.humans())
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
                self._show_won(ev, people)
            elif kind == "tie":
                self._set_banner("tie", ev.text)
                self._show_won(ev, people)
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
            if kind != "pending":
                self.log.insertItem(0, f"R{ev.round}: {ev.text}")
        while self.log.count() > 60:
            self.log.takeItem(self.log.count() - 1)
        if g.buzz_holder() is None and self.buzz_timer.isActive():
            self.buzz_timer.stop()

    def _show_won(self, ev, people: set[int]) -> None:
        """Keep the won card(s) in view for WON_MS, stamped with the winner's name."""
        g = self.game
        marks = []
        self.table.won, self.center_won = {}, None   # only the latest round's winners
        for p, code in zip(ev.players, ev.cards):
            who = g.name(p).split(" (")[0]
            colour = WINNER_COLOURS["tie" if ev.kind == "tie" else "you" if p in people else "other"]
            marks.append((code, who, colour))
            if ev.kind in ("win", "tie"):
                self.table.show_won(code, who, colour)
            else:   # Hand or No Match: the center card itself was won
                self.center_won = (code, who, colour)
        self.recent = marks
        self.won_timer.start(WON_MS)

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
<li><b>Land mass</b> &ndash; 1 to 4 brown bars (the bars a larger state would have are dashed): under 20,000 square miles, 20,000&ndash;49,999,
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
<li><b>Region, Land Mass, Population, State Colour</b>: slap a face-up card that has the same feature as the center card.</li>
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
{limit_s} seconds pass; rounds of a practice game or of a game of people only have no time limit) is dropped and its card stays under the center pile; when the draw pile runs out, whoever
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
a display for a target, written down with its sources beside the card data). Start with one beginner computer, move up to easy when you win
comfortably. <b>Practice</b> (under <i>New game</i>) makes every round untimed: no round is dropped for time,
so you can study the cards; the computers still play at their level.</p>
<h3>Party play</h3>
<p>Two people share the keyboard: player 1 buzzes with <b>A</b>, player 2 with <b>L</b>. The first to buzz then
has {buzz_s} seconds to click a card, the center card, or No Match; running out of time counts as a slip slap. Computer opponents can
join a party; they hold back while a person has the buzzer.</p>
<h3>Keys</h3>
<p><b>Space</b>: No Match (or start and resume) &middot; <b>Esc</b>: pause &middot; type a state's name or postal
code on the map and press Enter to slap it &middot; party play: <b>A</b> and <b>L</b> buzz. There is no undo:
it is a race, and a slap once made stands.</p>
"""
