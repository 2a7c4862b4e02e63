"""America on the shared map: the Qt view over a stateside.engine.match.Match.

The side panel shows the card (topic and three questions, or the two topics the start
player chooses between), whose turn it is, the score track and this card's placements
in order. Markers go on a state by clicking the map, or on a year/number space or a
No Exact space by clicking the bars under the map. After the last pass the card is
revealed: the answers with their background lines and every marker's points, explained.
The match draws the box's topics (chance) and plays the computer seats; a save is its log.

Letters typed anywhere in the mode go to the map's type-a-state box (the bars and buttons
keep only the keys they need). Game > Add deck... installs a player's own deck file (the
bundled deck's format) into the config folder; its cards join the box of new games.
"""
from __future__ import annotations

import html
import json
import os
import random
import shutil
from pathlib import Path

from PySide6.QtCore import QEvent, QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame, QHBoxLayout, QLabel,
    QPushButton, QSpinBox, QTextBrowser, QVBoxLayout, QWidget,
)

from stateside.app.main import config_dir
from stateside.app.mode import AI_DELAY_MS, GameMode
from stateside.board.view import CALLOUT_STATES, TAB_H, TAB_W
from stateside.data.saves import write_json_atomic
from stateside.engine.match import HUMAN, Match
from stateside.errors import DataError, IllegalActionError, SaveError, StatesideError
from stateside.games.america import deck as decks
from stateside.games.america import rules
from stateside.games.america.ai import state_hops
from stateside.games.america.panels import (
    BarsWidget, ChoiceCard, HatchItem, Mark, MapMarker, ScoreTrack, TrackRow,
)
from stateside.games.america.rules import (
    CARDS_PER_GAME, COLOURS, MAX_PLAYERS, MIN_PLAYERS, NO_EXACT_SPACES, SECTIONS, AmericaGame,
    format_answer, space_for,
)

SEAT_KINDS = {"human": "Human", "ai:easy": "Computer (easy)", "ai:medium": "Computer (medium)",
              "ai:hard": "Computer (hard)"}
DEFAULT_SEATS = ("human", "ai:medium", "ai:medium")
EXACT_FILL = "#ffc933"
NEAR_FILL = "#ffe9a8"
HISTORY_FILE = "america-used-topics.json"
PANEL_WIDE, PANEL_NARROW = 340, 290    # the side panel gives way to the bars in small windows
PANEL_LARGE = 400                      # and grows a little in large ones
SECTION_TITLES = {"year": "Year", "state": "State", "number": "Number"}
WARM_UP_MS = 400
HATCH_LAYER = "america-other-side"
MARKER_LAYER = "america-markers"


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


def history_path() -> Path:
    """Where the topics already played are remembered between games."""
    base = os.environ.get("STATESIDE_CONFIG_DIR") or QStandardPaths.writableLocation(
        QStandardPaths.AppDataLocation) or str(Path.home() / ".stateside")
    return Path(base) / HISTORY_FILE


def read_history() -> list[str]:
    try:
        data = json.loads(history_path().read_text(encoding="utf-8"))
        used = data.get("used", []) if isinstance(data, dict) else []
        return [t for t in used if isinstance(t, str)]
    except (OSError, ValueError):
        return []   # no history yet, or unreadable: every topic counts as fresh


def write_history(used: list[str]) -> None:
    try:
        write_json_atomic(history_path(), {"used": used})
    except OSError:
        pass        # the history only avoids repeats; a game never fails over it


# --- user decks ---------------------------------------------------------------------------

def decks_dir() -> Path:
    """Where added decks are kept (copies of the players' files), one file per deck."""
    return config_dir() / "decks"


def install_user_decks() -> list[str]:
    """Register every deck in decks_dir() with the deck module, so that new games and
    computer players look their cards up; a deck that no longer loads is left out and
    its error returned."""
    found, errors = {}, []
    folder = decks_dir()
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            found[path.stem] = decks.load_user_deck(path, path.stem)
        except DataError as e:
            errors.append(str(e))
    if found != decks.user_decks():
        decks.set_user_decks(found)
        # the rules and computer players cache the deck they look topics up in
        rules.bundled_deck.cache_clear()
        rules.bundled_topics.cache_clear()
        rules.bundled_box_plan.cache_clear()
    return errors


def rules_on(cards: tuple) -> type[AmericaGame]:
    """AmericaGame bound to one deck: a game keeps the deck it began with when it is
    replayed (undo), even if a deck is added or removed meanwhile."""
    class OnDeck(AmericaGame):
        @classmethod
        def new(cls, setup: dict) -> AmericaGame:
            return cls(setup, deck=cards)
    return OnDeck


class SetupDialog(QDialog):
    """2-6 seats, each a person or a computer player of some level."""

    def __init__(self, seats, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New game of America")
        form = QFormLayout(self)
        self.count = QSpinBox()
        self.count.setRange(MIN_PLAYERS, MAX_PLAYERS)
        self.count.setValue(len(seats))
        form.addRow("Players:", self.count)
        self.boxes: list[QComboBox] = []
        for seat in range(MAX_PLAYERS):
            box = QComboBox()
            for kind, label in SEAT_KINDS.items():
                box.addItem(label, kind)
            kind = seats[seat] if seat < len(seats) else "ai:medium"
            box.setCurrentIndex(list(SEAT_KINDS).index(kind))
            name, colour, letter = COLOURS[seat]
            swatch = QLabel(f"<span style='background:{colour};color:{'#000' if letter in 'WS' else '#fff'};"
                            f"border:1px solid #333;padding:1px 6px'><b>{letter}</b></span> {name}:")
            form.addRow(swatch, box)
            self.boxes.append(box)
        # Rulebook, 1. Change the Start Player: for the first card the players agree who
        # starts (it reads the card and places last); then the role moves clockwise.
        self.first = QComboBox()
        self.first.setToolTip("The start player of the first card: reads it and places last")
        form.addRow("Reads the first card:", self.first)
        self.count.valueChanged.connect(self._show_rows)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.form = form
        self._show_rows()

    def _show_rows(self) -> None:
        for seat, box in enumerate(self.boxes):
            self.form.setRowVisible(box, seat < self.count.value())
        keep = self.first.currentIndex()
        self.first.clear()
        for seat in range(self.count.value()):
            self.first.addItem(COLOURS[seat][0], seat)
        self.first.setCurrentIndex(keep if 0 <= keep < self.count.value() else 0)

    def start_player(self) -> int:
        return self.first.currentData() or 0

    def seats(self) -> list[str]:
        return [box.currentData() for box in self.boxes[: self.count.value()]]


class AmericaMode(GameMode):
    game_id = "america"
    title = "America"
    ai_delay_ms = AI_DELAY_MS

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.match: Match | None = None
        self.revealing = False          # a scored card is on show until "Next card"
        self.deck_error = ""
        self.deck_warnings = install_user_decks()
        self.cross_confirmed = False    # the first marker across the Mississippi was confirmed
        self._menu_actions: list[QAction] = []
        self._hatch_layer = None
        self._hatch: dict[str, HatchItem] = {}
        self._ai_timer = QTimer(self, singleShot=True, timeout=self._computer_turn)
        self._build()
        try:
            rules.bundled_deck()
        except StatesideError as e:
            self.deck_error = str(e)
        if not self.deck_error:
            self.start_game(list(DEFAULT_SEATS))
        else:
            self._refresh()

    # --- layout ---------------------------------------------------------------------------
    def _build(self) -> None:
        self.bars = BarsWidget()
        self.bars.spaceClicked.connect(lambda section, space: self._human_place(section, space))
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.setSpacing(0)
        lv.addWidget(self.board_slot, 1)
        lv.addWidget(self.bars)

        panel = QFrame()
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(PANEL_WIDE)
        self.panel = panel
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        self.header = QLabel()
        self.header.setStyleSheet("color:#1d3557; font-weight:bold;")
        side.addWidget(self.header)
        self.card_label = QLabel()
        self.card_label.setWordWrap(True)
        self.card_label.setTextFormat(Qt.RichText)
        self.card_label.setStyleSheet(
            "QLabel { background:#fffdf7; border:1px solid #d8d2c4; border-radius:6px; padding:8px; }")
        side.addWidget(self.card_label)
        self.choose_buttons = []
        for i in range(2):
            button = ChoiceCard()
            button.clicked.connect(lambda i=i: self._human_act(f"choose:{i}"))
            shortcut = QShortcut(QKeySequence(f"Ctrl+{i + 1}"), button)
            shortcut.activated.connect(lambda i=i: self._human_act(f"choose:{i}"))
            side.addWidget(button)
            self.choose_buttons.append(button)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        side.addWidget(self.prompt)
        self.notice = QLabel()          # why a click was refused, until the next move
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color:#a4161a; font-weight:bold;")
        self.notice.hide()
        side.addWidget(self.notice)
        row = QHBoxLayout()
        self.pass_button = QPushButton("Pass")
        self.pass_button.setShortcut(QKeySequence("Ctrl+P"))
        self.pass_button.setToolTip("Place no more markers on this card (Ctrl+P)")
        self.pass_button.clicked.connect(lambda: self._human_act("pass"))
        self.next_button = QPushButton("Next card")
        self.next_button.setShortcut(QKeySequence("Ctrl+Return"))
        self.next_button.setToolTip("Put the card away and go on (Ctrl+Enter)")
        self.next_button.clicked.connect(self.next_card)
        self.new_button = QPushButton("New game\u2026")
        self.new_button.clicked.connect(self.new_game)
        for b in (self.pass_button, self.next_button, self.new_button):
            row.addWidget(b)
        side.addLayout(row)
        self.track = ScoreTrack()
        side.addWidget(self.track)
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(True)
        self.details.setStyleSheet("QTextBrowser { background:#fffdf7; border:1px solid #d8d2c4; }")
        self.details.setMinimumHeight(40)   # six players in a small window: the log gives way
        side.addWidget(self.details, 1)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(left, 1)
        layout.addWidget(panel)
        # Typing a state's name works whatever part of the mode has the focus (after a
        # click on the bars, "indiana" + Enter must reach the map, not the bar space).
        for widget in (self, *self.findChildren(QWidget)):
            widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.KeyPress and self.active and self._route_key(watched, event):
            return True
        return super().eventFilter(watched, event)

    def _route_key(self, watched, event: QKeyEvent) -> bool:
        """Send a key meant for the map's type-a-state box to the board."""
        if watched is self.board or self.board.isAncestorOf(watched) or watched is self.board_slot:
            return False      # the board had it already (and passed it on)
        if event.modifiers() & ~(Qt.ShiftModifier | Qt.KeypadModifier):
            return False      # shortcuts stay shortcuts
        text, key = event.text(), event.key()
        typing = self.board.is_typing()
        if not ((text and text.isalpha()) or (typing and (
                text == " " or key in (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Backspace, Qt.Key_Escape)))):
            return False
        copy = QKeyEvent(QEvent.KeyPress, key, event.modifiers(), text, event.isAutoRepeat(), event.count())
        QApplication.sendEvent(self.board, copy)
        return True

    def resizeEvent(self, event) -> None:
        width = event.size().width()
        self.panel.setFixedWidth(PANEL_LARGE if width >= 1700 else PANEL_WIDE if width >= 1200 else PANEL_NARROW)
        super().resizeEvent(event)

    # --- games ----------------------------------------------------------------------------
    @property
    def game(self) -> AmericaGame | None:
        return self.match.state if self.match is not None else None

    @property
    def seats(self) -> list[str]:
        return self.match.seats if self.match is not None else []

    def start_game(self, seats: list[str], seed: int | None = None, start_player: int = 0) -> None:
        if self.deck_error:
            self.status.emit(f"America cannot start: {self.deck_error}")
            return
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        setup = {"players": [COLOURS[i][0] for i in range(len(seats))], "start_player": start_player,
                 "used_topics": read_history()}
        self._install(Match(rules_on(rules.bundled_deck()), seats, seed, setup), revealing=False)
        self.cross_confirmed = False

    def _install(self, match: Match, revealing: bool) -> None:
        self._ai_timer.stop()
        match.resolve_chance()       # the box shows its topics at once
        self.match = match
        self.revealing = revealing
        self._scored_cards = len(match.state.results)
        self._refresh()
        self.changed.emit()
        self._schedule()

    def new_game(self) -> None:
        dialog = SetupDialog(self.seats or list(DEFAULT_SEATS), self)
        if dialog.exec() == QDialog.Accepted:
            self.start_game(dialog.seats(), start_player=dialog.start_player())
            self.status.emit("New game of America: six cards.")

    def save_state(self) -> dict | None:
        return self.match.to_json() if self.match is not None else None

    def load_state(self, state: dict) -> None:
        if self.deck_error:
            raise SaveError(f"America save cannot be opened: {self.deck_error}")
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError("America save: this is not a saved game of America")
        install_user_decks()      # a deck added or removed in another window counts too
        used = self._user_decks_in(state)
        if missing := sorted(used - set(decks.user_decks())):
            names = " and ".join(f"'{name}'" for name in missing)
            raise SaveError(f"America save: this game drew cards from the deck {names}, which is not "
                            f"installed. Add it again with Game > Add deck\u2026, then open the game.")
        try:
            match = Match.from_json(state, "America save")
        except SaveError as e:
            if not used:
                raise
            raise SaveError(f"{e} (the game used the deck {', '.join(sorted(used))}: if its file changed "
                            f"since, the game cannot be replayed)") from None
        match.rules = rules_on(match.state.deck)
        self.cross_confirmed = False
        # a save made just after a card was scored shows that card's scoring again
        last = next((e for e in reversed(match.log) if e.seat >= 0), None)
        self._install(match, revealing=last is not None and any(ev.kind == "scored" for ev in last.events))

    @staticmethod
    def _user_decks_in(state: dict) -> set[str]:
        """The user decks whose cards a saved game drew."""
        actions = state.get("actions")
        found = set()
        for action in actions if isinstance(actions, list) else []:
            if isinstance(action, str) and action.startswith("draw:"):
                name = decks.user_deck_of(action[5:])
                if name:
                    found.add(name)
        return found

    # --- user decks ---------------------------------------------------------------------
    def game_menu_actions(self) -> list:
        if not self._menu_actions:
            add = QAction("Add deck\u2026", self)
            add.setToolTip("Add your own America cards (a YAML file in the deck format)")
            add.triggered.connect(self.ask_add_deck)
            remove = QAction("Remove deck\u2026", self)
            remove.triggered.connect(self.ask_remove_deck)
            self._menu_actions = [add, remove]
        self._menu_actions[1].setEnabled(bool(decks.user_decks()))
        return list(self._menu_actions)

    def ask_add_deck(self) -> None:
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        path, _ = QFileDialog.getOpenFileName(self, "Add an America deck", str(Path.home()),
                                              "America decks (*.yaml *.yml);;All files (*)")
        if not path:
            return
        try:
            self.add_deck(path)
        except DataError as e:
            QMessageBox.warning(self, "Cannot add this deck", str(e))

    def add_deck(self, path) -> str:
        """Check a deck file and install a copy; new games draw its cards too. Raises
        DataError naming the file, card and field of the first problem."""
        path = Path(path)
        name = decks.deck_name(path)
        cards = decks.load_user_deck(path, name)
        target = decks_dir() / f"{name}.yaml"
        if target.exists():
            raise DataError(f"{path}: a deck called '{name}' is already installed; remove it first "
                            f"(Game > Remove deck\u2026) or give the file another name")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        except OSError as e:
            raise DataError(f"{path}: cannot be copied to {target} ({e.strerror or e})") from None
        install_user_decks()
        self.game_menu_actions()
        text = (f"Added the deck '{name}': {len(cards)} card{'s' if len(cards) != 1 else ''}. "
                f"New games draw from it and the bundled deck.")
        self.status.emit(text)
        return text

    def ask_remove_deck(self) -> None:
        from PySide6.QtWidgets import QInputDialog, QMessageBox

        names = sorted(decks.user_decks())
        if not names:
            QMessageBox.information(self, "Remove a deck", "No deck has been added.")
            return
        name, ok = QInputDialog.getItem(self, "Remove a deck", "Deck to remove:", names, 0, False)
        if ok and name:
            self.remove_deck(name)

    def remove_deck(self, name: str) -> str:
        target = decks_dir() / f"{name}.yaml"
        if name not in decks.user_decks() and not target.exists():
            raise DataError(f"no deck called '{name}' is installed")
        try:
            target.unlink(missing_ok=True)
        except OSError as e:
            raise DataError(f"{target}: cannot be removed ({e.strerror or e})") from None
        install_user_decks()
        self.game_menu_actions()
        text = f"Removed the deck '{name}'."
        if self.game is not None and any(decks.user_deck_of(t) == name for t in self.game.drawn):
            text += " This game plays on with its cards; once closed it opens only with the deck added again."
        self.status.emit(text)
        return text

    # --- turns ----------------------------------------------------------------------------
    def is_human_turn(self) -> bool:
        return bool(self.match and not self.revealing and self.match.waiting_for_human())

    def on_state_clicked(self, code: str) -> None:
        self._human_place("state", code)

    def _refuse(self, text: str) -> None:
        """Say why a click did nothing: in the status bar and in the panel."""
        text = text[:1].upper() + text[1:]
        self.status.emit(text)
        self.notice.setText(text)
        self.notice.show()

    def _human_place(self, section: str, space: str) -> None:
        g = self.game
        if g is not None and g.phase == "choose" and self.is_human_turn():
            self._refuse("First choose this card's topic (in the panel on the right).")
            return
        action = f"place:{section}:{space}"
        if (section == "state" and space not in NO_EXACT_SPACES and not self.cross_confirmed
                and g is not None and self.is_human_turn() and g.topic() is not None
                and action in g.legal_actions(g.current_player())):
            side = rules.mississippi_side(g.topic().state.answer)
            if rules.mississippi_side(space) != side:
                # The rules allow it; a newcomer may simply have misread the card.
                if not self.ask_yes_no(
                        "Across the Mississippi?",
                        f"The card says the state lies {side.upper()} of the Mississippi, and "
                        f"{rules.state_name(space)} is not. The rules allow the marker there all the "
                        f"same (it may score 3 if it borders the answer). Place it?"):
                    self.status.emit("No marker placed.")
                    return
                self.cross_confirmed = True
        self._human_act(action)

    def ask_yes_no(self, title: str, text: str) -> bool:
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(self, title, text, QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
        return answer == QMessageBox.Yes

    def _human_act(self, action: str) -> None:
        g = self.game
        if g is None:
            return
        if self.revealing:
            self._refuse("The card is being scored: press Next card to go on.")
            return
        if g.is_terminal():
            self._refuse("The game is over: start a new one.")
            return
        if not self.is_human_turn():
            self._refuse(f"Wait: it is {g.players[g.current_player()]}'s turn.")
            return
        try:
            self.match.apply(action)
        except IllegalActionError as e:
            self._refuse(f"{e}.")
            return
        self._after_action()

    def _computer_turn(self) -> None:
        if self.match is None or self.revealing or self.match.step() is None:
            return
        self._after_action()

    def _after_action(self) -> None:
        self.match.resolve_chance()
        g = self.game
        if len(g.results) > self._scored_cards:   # the last pass scored the card: show it
            self._scored_cards = len(g.results)
            self.revealing = True
            write_history(g.used_topics_after())
        self._refresh()
        self.changed.emit()
        self._schedule()

    def _schedule(self) -> None:
        self._ai_timer.stop()
        g = self.game
        if g is None or not self.active or self.revealing or g.is_terminal():
            return   # computers play only while this mode is on screen
        if not self.match.waiting_for_human():
            self._ai_timer.start(self.ai_delay_ms)

    def next_card(self) -> None:
        if not self.revealing:
            return
        self.revealing = False
        self._refresh()
        self.changed.emit()
        self._schedule()

    # --- undo -----------------------------------------------------------------------------
    def _undo_index(self) -> int | None:
        """Where the person who acted last may take back that action: only while nobody
        else has acted since, and only on this card (placements and passes: once a card is
        scored its answers are known, so nothing before can be taken back)."""
        m = self.match
        if m is None or self.revealing or m.is_over() or m.state.phase != rules.PLACE:
            return None
        last = next((e for e in reversed(m.log) if e.seat >= 0), None)
        if last is None or not m.is_human(last.seat):
            return None
        point = m.fair_undo_point(last.seat)
        card_start = max(e.index for e in m.log if e.action.startswith("choose:"))
        return point if point is not None and point > card_start else None

    def can_undo(self) -> bool:
        return self._undo_index() is not None

    def undo(self) -> None:
        index = self._undo_index()
        if index is None:
            return
        self.match.undo_to(index)
        self._install(self.match, revealing=False)
        self.status.emit("Took back your last move.")

    # --- drawing --------------------------------------------------------------------------
    def on_activate(self) -> None:
        self._refresh()
        self._schedule()
        # The borders (about 0.2 s to build) are first needed by a computer's move or the
        # reveal: build them just after the window is drawn, not in the middle of a turn.
        QTimer.singleShot(WARM_UP_MS, self._warm_up)
        if self.deck_warnings:
            self.status.emit("America: an added deck no longer loads and is left out: " + self.deck_warnings[0])
        elif self.game is not None and not self.game.is_terminal():
            self.status.emit("America: place markers on the map and the bars; Help > Rules explains the game.")

    @staticmethod
    def _warm_up() -> None:
        rules.state_neighbours("KS")
        state_hops()

    def on_deactivate(self) -> None:
        self._ai_timer.stop()

    def _who(self, seat: int) -> str:
        kind = self.seats[seat]
        if kind == HUMAN:
            return "you" if self.seats.count(HUMAN) == 1 else "player"
        return f"computer ({kind.partition(':')[2] or kind})"

    def _shown(self):
        """(topic, placements as (seat, section, space), result or None) on show now."""
        g = self.game
        if self.revealing and g.results:
            result = g.results[-1]
            placed = [(e.player, e.section, e.space) for e in result.events if e.kind == "place"]
            return g.topics[result.topic], placed, result
        return g.topic(), [(p.player, p.section, p.space) for p in g.placements], None

    def _refresh(self) -> None:
        self.notice.hide()
        g = self.game
        if g is None:
            self.header.setText("America")
            self.card_label.setText(f"<b>The America deck could not be loaded.</b><br>{html.escape(self.deck_error)}")
            for b in (*self.choose_buttons, self.pass_button, self.next_button):
                b.hide()
            return
        topic, placed, result = self._shown()
        self._draw_header(result)
        self._draw_card(topic, result)
        self._draw_prompt()
        self._draw_track()
        self._draw_marks(topic, placed, result)
        self.details.setHtml(self._reveal_html(result) if result else self._log_html())

    def _draw_header(self, result) -> None:
        g = self.game
        shown_card = len(g.results) if result else g.card_number
        if (result and result.showdown) or (not result and g.showdown is not None):
            n = sum(1 for r in g.results if r.showdown) + (0 if result else 1)
            who = " vs ".join(g.players[s] for s in (g.showdown or [p for p in result.points]))
            text = f"Showdown card {n} \u00b7 {who}"
        else:
            text = f"Card {min(shown_card, CARDS_PER_GAME)} of {CARDS_PER_GAME}"
        start = result.start_player if result else g.start_player
        if not g.is_terminal() or result:
            text += f" \u00b7 {g.players[start]} reads the card"
        self.header.setText(text)

    def _question_html(self, topic, section: str, answer_shown: bool) -> str:
        q = getattr(topic, section)
        text = f"<b>{SECTION_TITLES[section]}:</b> {html.escape(q.text)}"
        if section == "number" and q.unit:
            text += f" <span style='color:#666'>({html.escape(q.unit)})</span>"
        if section == "state" and not answer_shown:   # the map shows the answer now
            side = rules.mississippi_side(q.answer)
            text += (f"<br><span style='color:#7a5a00'>The state lies <b>{side.upper()}</b> of the "
                     f"Mississippi (the other side is hatched; a marker there is allowed).</span>")
        if answer_shown:
            space = space_for(section, q.answer)
            where = "" if section == "state" else f" \u2013 the {space} space"
            text += (f"<br><span style='color:#0b6e4f'><b>Answer: {html.escape(format_answer(section, q.answer, q.unit))}"
                     f"</b>{where}</span>")
        return f"<p style='margin:4px 0'>{text}</p>"

    def _draw_card(self, topic, result) -> None:
        g = self.game
        choosing = not result and not g.is_terminal() and g.phase == "choose"
        human_chooses = choosing and self.is_human_turn()
        for i, button in enumerate(self.choose_buttons):
            button.setVisible(human_chooses)
            if human_chooses:
                t = g.offered_topics()[i]
                button.set_text(
                    f"<b style='font-size:14px; color:#1d3557'>{html.escape(t.title)}</b>"
                    f" <span style='color:#888'>(Ctrl+{i + 1})</span>"
                    f"<br><b>Year:</b> {html.escape(t.year.text)}<br><b>State:</b> {html.escape(t.state.text)}"
                    f" <span style='color:#7a5a00'>({rules.mississippi_side(t.state.answer)} of the "
                    f"Mississippi)</span>"
                    f"<br><b>Number:</b> {html.escape(t.number.text)}")
        if topic is None:
            if g.is_terminal():
                self.card_label.setText("<b>The game is over.</b> Start a new game for six more cards.")
            elif human_chooses:
                self.card_label.setText(
                    f"<b>{g.players[g.current_player()]}, choose the card to read</b> (the answers stay hidden):")
            else:
                self.card_label.setText(f"<i>{g.players[g.current_player()]} is choosing between two topics\u2026</i>")
            return
        parts = [f"<div style='font-size:15px; font-weight:bold; color:#1d3557'>{html.escape(topic.title)}</div>"]
        parts += [self._question_html(topic, s, result is not None) for s in SECTIONS]
        self.card_label.setText("".join(parts))

    def _draw_prompt(self) -> None:
        g = self.game
        self.next_button.setVisible(self.revealing and not g.is_terminal())
        self.pass_button.setVisible(not self.revealing and not g.is_terminal())
        human = self.is_human_turn()
        self.pass_button.setEnabled(human and g.phase == "place" and g.can_pass(g.current_player()))
        if g.is_terminal() and not self.revealing:
            self.prompt.setText(f"<b>{g.players[g.winner]} wins.</b>")
        elif g.is_terminal():
            self.prompt.setText(f"<b>{g.players[g.winner]} wins!</b> See the last card's scoring below.")
        elif self.revealing and g.showdown is not None:
            names = " and ".join(g.players[s] for s in g.showdown)
            why = ("are still level on this showdown card" if g.results[-1].showdown
                   else f"are tied on {g.track[g.showdown[0]]} points and on markers in hand")
            self.prompt.setText(f"{names} {why}: a showdown card decides, each with all five markers. "
                                f"Press <b>Next card</b>.")
        elif self.revealing:
            self.prompt.setText(f"Card scored. Press <b>Next card</b> for card {g.card_number}.")
        elif g.phase == "choose":
            self.prompt.setText("")     # the card panel says who chooses
        elif human:
            seat = g.current_player()
            left = g.supply[seat]
            extra = " or <b>Pass</b>" if g.can_pass(seat) else " (your first marker on this card)"
            self.prompt.setText(
                f"<b>{g.players[seat]}</b>, place a marker{extra}: click a state on the map (or type its "
                f"name and press Enter) or a space on the bars below it. "
                f"{left} marker{'s' if left != 1 else ''} in hand.")
        else:
            self.prompt.setText(f"<i>{g.players[g.current_player()]} is thinking\u2026</i>")
        self.prompt.setVisible(bool(self.prompt.text()))   # no empty line in a full panel

    def _draw_track(self) -> None:
        g = self.game
        rows = []
        group = g.participants
        for seat in range(g.n):
            name, colour, letter = COLOURS[seat]
            if g.is_terminal():
                status = "winner" if seat == g.winner else ordinal(self._rank(seat))
            elif seat not in group:
                status = "watching"
            elif self.revealing:
                status = f"+{g.results[-1].points.get(seat, 0)}"
            elif g.phase == "choose":
                status = "chooses" if seat == g.current_player() else ""
            elif seat in g.passed:
                status = "passed"
            else:
                status = "to play" if seat == g.current_player() else "placing"
            showdown = sum(r[seat] for r in g.showdown_points) if seat in (g.showdown or []) and g.showdown_points else 0
            rows.append(TrackRow(name, colour, letter, self._who(seat), g.track[seat], g.supply[seat],
                                 g.nonscoring[seat], status,
                                 current=not self.revealing and not g.is_terminal() and seat == g.current_player(),
                                 showdown=str(showdown) if showdown else ""))
        self.track.set_rows(rows)

    def _rank(self, seat: int) -> int:
        """Final place: the winner first, then by score."""
        g = self.game
        order = sorted(range(g.n), key=lambda s: (s != g.winner, -g.track[s]))
        return order.index(seat) + 1

    def _draw_marks(self, topic, placed, result) -> None:
        g = self.game
        marks = {}
        for order, (seat, section, space) in enumerate(placed, 1):
            if section != "state" or space in NO_EXACT_SPACES:
                name, colour, letter = COLOURS[seat]
                marks[(section, space)] = Mark(colour, letter, f"{name}'s marker (placed {order}.)")
        self.bars.set_marks(marks)
        if result and topic is not None:
            answers = rules.topic_answers(topic)
            self.bars.set_exact({s: space_for(s, answers[s]) for s in SECTIONS})
        else:
            self.bars.set_exact({})
        if result and topic is not None:
            self.bars.set_hint(f"Answer: {rules.state_name(topic.state.answer)} (gold on the map); "
                               f"its neighbours score 3 (light gold).")
        elif topic is not None:
            side = rules.mississippi_side(topic.state.answer)
            self.bars.set_hint(f"The state answer lies {side.upper()} of the Mississippi; "
                               f"click or type a state.  No Exact spaces for the map \u2192")
        elif not g.is_terminal():
            self.bars.set_hint("Choose one of the two topics on the right (Ctrl+1 / Ctrl+2)."
                               if self.is_human_turn() else
                               f"{g.players[g.current_player()]} is choosing this card's topic.")
        else:
            self.bars.set_hint("")
        if not self.active:
            return
        board = self.board
        board.clear_tokens()
        board.clear_fills()
        board.clear_highlight()
        board.clear_dimmed()
        # The card's side of the Mississippi stays as it is; the other side is hatched, not
        # greyed: a marker there is allowed (it can score next to the answer).
        side = rules.mississippi_side(topic.state.answer) if topic is not None and not result else None
        self._draw_hatch(side)
        if result:
            answer = topic.state.answer
            board.set_fills({c: NEAR_FILL for c in rules.state_neighbours(answer)})
            board.set_fill(answer, EXACT_FILL)
            board.set_highlight([answer], "#b8860b")
        board.remove_layer(MARKER_LAYER)
        markers = board.layer(MARKER_LAYER, z=12)
        for order, (seat, section, space) in enumerate(placed, 1):
            if section == "state" and space not in NO_EXACT_SPACES:
                name, colour, letter = COLOURS[seat]
                marker = MapMarker(space, colour, letter, f"{name}'s marker on {rules.state_name(space)} "
                                                          f"(placed {order}.)")
                marker.setPos(self._marker_point(space))
                markers.addToGroup(marker)

    def _marker_point(self, code: str):
        """On the state's label (a marker covers it, larger than it), or beside its tab."""
        point = self.board.state_anchor(code)
        if code in CALLOUT_STATES:
            point.setX(point.x() + TAB_W / 2 + 4 + MapMarker.RADIUS)
        return point

    def map_markers(self) -> dict[str, MapMarker]:
        """The markers on the map now, by state (for tests and tools)."""
        group = self.board.layer(MARKER_LAYER, z=12)
        return {item.code: item for item in group.childItems() if isinstance(item, MapMarker)}

    def _draw_hatch(self, side: str | None) -> None:
        layer = self.board.layer(HATCH_LAYER, z=1.5)
        if layer is not self._hatch_layer:   # the board dropped our layers: build them again
            self._hatch_layer = layer
            self._hatch = {}
            for state in self.board.atlas.states:
                item = HatchItem.for_state(state.polygons)
                layer.addToGroup(item)
                self._hatch[state.code] = item
            tabs = self.board.layer(HATCH_LAYER + "-tabs", z=3.5)   # the tabs lie above the states
            for code in CALLOUT_STATES:
                centre = self.board.state_anchor(code)
                item = HatchItem.for_rect(centre.x() - TAB_W / 2, centre.y() - TAB_H / 2, TAB_W, TAB_H)
                tabs.addToGroup(item)
                self._hatch[f"tab:{code}"] = item
        for key, item in self._hatch.items():
            code = key.removeprefix("tab:")
            item.setVisible(side is not None and rules.mississippi_side(code) != side)

    def hatched(self) -> set[str]:
        """The states hatched as the other side of the Mississippi now."""
        return {code for code, item in self._hatch.items() if item.isVisible() and ":" not in code}

    def _space_text(self, section: str, space: str) -> str:
        if space in NO_EXACT_SPACES:
            return f"{rules.NO_EXACT_NAMES[space]} ({section})"
        if section == "state":
            return rules.state_name(space)
        return f"{space} ({section})"

    def _badge(self, seat: int) -> str:
        """A player's colour with its letter, as on the markers (White and Silver, Blue and
        Light Blue stay apart for everyone)."""
        _, colour, letter = COLOURS[seat]
        ink = "#1b1b1b" if letter in "WSL" else "#ffffff"
        return (f"<span style='background-color:{colour}; color:{ink}; font-weight:bold'>"
                f"&nbsp;{letter}&nbsp;</span>")

    def _log_html(self) -> str:
        g = self.game
        if g.is_terminal():
            return self._final_html()
        if g.phase == "choose":
            return ("<p style='color:#555'>The start player reads one of two topics; then, from the start "
                    "player's left, everyone places one marker a turn or passes.</p>")
        lines = ["<b>This card, in order of play</b><ol style='margin:2px 0'>"]
        for e in g.events:
            name = html.escape(g.players[e.player])
            dot = self._badge(e.player)
            if e.kind == "place":
                lines.append(f"<li>{dot} {name} \u2192 {html.escape(self._space_text(e.section, e.space))}</li>")
            elif e.kind == "pass":
                lines.append(f"<li>{dot} {name} passes</li>")
            else:
                lines.append(f"<li>{dot} {name} is out of markers</li>")
        lines.append("</ol>")
        if not g.events:
            lines.append(f"<p style='color:#555'>{html.escape(g.players[g.current_player()])} places first.</p>")
        return "".join(lines)

    def _reveal_html(self, result) -> str:
        g = self.game
        topic = g.topics[result.topic]
        parts = []
        if g.is_terminal():
            parts.append(self._final_html())
        parts.append("<h3 style='margin:4px 0'>Points on this card</h3>")
        for section in SECTIONS:
            # the markers that scored first, then the others (each in the order placed)
            lines = sorted((line for line in result.lines if line.section == section),
                           key=lambda line: not line.points)
            parts.append(f"<p style='margin:2px 0'><u>{SECTION_TITLES[section]}</u><br>")
            if not lines:
                parts.append("<span style='color:#777'>no markers</span>")
            for line in lines:
                text = html.escape(line.text(g.players[line.player]))
                if line.points:
                    parts.append(f"{self._badge(line.player)} <b>{text}</b><br>")
                else:
                    parts.append(f"{self._badge(line.player)} "
                                 f"<span style='color:#888; font-size:small'>{text}</span><br>")
            parts.append("</p>")
        parts.append("<h3 style='margin:8px 0 2px 0'>About the answers</h3>")
        for section in SECTIONS:
            q = getattr(topic, section)
            parts.append(
                f"<p style='margin:3px 0'><b>{SECTION_TITLES[section]}: "
                f"{html.escape(format_answer(section, q.answer, q.unit))}.</b> "
                f"{html.escape(q.background)}<br><span style='color:#777; font-size:small'>Source: "
                f"{html.escape(q.source)}</span></p>")
        return "".join(parts)

    def _final_html(self) -> str:
        g = self.game
        winner = g.players[g.winner]
        best = max(g.track)
        leaders = [s for s in range(g.n) if g.track[s] == best]
        text = f"<h2 style='margin:4px 0'>{html.escape(winner)} wins with {g.track[g.winner]} points</h2>"
        if len(leaders) > 1:
            names = " and ".join(g.players[s] for s in leaders)
            if g.showdown_points:
                last = g.showdown_points[-1]
                text += (f"<p>{names} tied on {best} points and on markers in supply; {winner} won the "
                         f"showdown ({', '.join(f'{g.players[s]} {last[s]}' for s in range(g.n) if s in g.results[-1].points)}).</p>")
            else:
                text += (f"<p>{names} tied on {best} points; {winner} has the most markers in supply "
                         f"({', '.join(f'{g.players[s]} {g.supply[s]}' for s in leaders)}).</p>")
        order = sorted(range(g.n), key=self._rank)
        text += "<p>" + "<br>".join(f"{ordinal(self._rank(s))} {g.players[s]}: {g.track[s]} points"
                                    for s in order) + "</p>"
        return text

    # --- help -----------------------------------------------------------------------------
    def help_html(self) -> str:
        return """
<h2>America</h2>
<p>A trivia game played on the map. Each card has a topic and three questions: a <b>year</b>,
a <b>state</b> and a <b>number</b>. You do not need to know the answers exactly: markers close
to an answer score too. Six cards make a game; the most points wins.</p>
<h3>A card, step by step</h3>
<ol>
<li><b>Start player.</b> The first card is read by the player chosen in the New game dialog
(Red unless you pick another); after that the role moves one seat clockwise (down the score
list) each card. The start player places last.</li>
<li><b>Choose a topic.</b> The start player sees two topics (questions only, never the answers)
and picks one to play. The one not picked stays in the box for later. The card also tells
whether the state lies east or west of the Mississippi: the other side of the map is hatched.
A marker may still go there (it can score 3 next to the answer); the first time in a game you
place one there, you are asked to confirm.</li>
<li><b>Place markers.</b> Starting with the player after the start player, each player in turn
places one marker: on a free state (click it on the map, or type its name and press Enter),
on a free space of the year or number bar under the map, or on one of the six
<i>No Exact</i> spaces at the right of the bars. One marker per space. Your first marker on a
card is compulsory; after that you may place another on each turn, or <b>Pass</b> (Ctrl+P).
Once you pass you place no more on this card. When everyone has passed, the card is scored.</li>
<li><b>Score</b> the year, then the state, then the number:
<ul>
<li>7 points for each marker on the exact space, 3 for each marker on a space next to it.
On the bars, "next to" means the neighbouring space; on the map, a bordering state.</li>
<li><i>No Exact</i>: 3 points if nobody's marker is on the exact space of that section.</li>
<li><i>No Exact or Adjacent</i>: 7 points if nobody's marker is on the exact space or next to it.</li>
</ul></li>
</ol>
<h3>Markers</h3>
<p>Everyone has five markers to place (a sixth keeps your score). Markers that scored come back
to you. The others wait in a non-scoring supply (small grey squares on the score track, after
the coloured dots of the markers in hand); after each
card you get one of them back, and if you then hold fewer than three you take back enough to
hold three.</p>
<h3>Winning and ties</h3>
<p>After the sixth card the highest score wins. On a tie, the player with more markers in hand
as the sixth card is scored wins (counted before the one marker back and the refill to three). If that is tied too, the tied players play a showdown card with all five markers each;
showdowns repeat, each read by the next tied player, until one player scores more.</p>
<h3>Map adjacency</h3>
<p>States are next to each other when they share a border line. Arizona and Colorado, and Utah
and New Mexico, only touch at a point and are not neighbours. Delaware borders Maryland,
Pennsylvania and New Jersey; Michigan borders Wisconsin; Connecticut does not border New Jersey;
states facing each other across the Mississippi are neighbours. Alaska and Hawaii count as
neighbours of each other, and of no other state. After a card is scored the answer state is gold
on the map and its neighbours light gold.</p>
<h3>What is ours</h3>
<p>The cards (topics, questions, answers, background lines and sources) are written for
Stateside, and so are the year and number bars: the year bar runs from 1492 to 2015 (later years
score on 2015), and the number bar from 0 to 1B in steps of 1-2-5, then 1M, 10M, 100M, 1B.
Each space covers its own value up to the next space's value; hover a space to see its range.
A game draws whole cards, so the two sides of one card never come up in the same game. The
cards you have played are remembered between games: no card comes back until every card has been
played, and then each shows its other side.
Game &gt; Add deck… adds your own cards: a YAML file written like ours (the README names the
format and ships an example); its cards join the box of new games, and Game &gt; Remove deck…
takes them out. A saved game that drew cards from an added deck opens only while it is added.
The computer players "know" each answer more or less closely depending on their level, and
bet on the No Exact spaces when the markers already placed look wrong to them.</p>
<h3>Keys</h3>
<p>Ctrl+1 / Ctrl+2 choose a topic; Ctrl+P passes; Ctrl+Enter goes to the next card; Tab into
the bars, then the arrow keys and Enter place a marker there; type a state's name and press
Enter to place on the map (wherever the keyboard focus is); Ctrl+Z takes back your last move on the current card; Ctrl+N starts a new
game; F1 shows these rules.</p>
"""
