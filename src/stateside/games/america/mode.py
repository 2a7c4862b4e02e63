"""America on the shared map: the Qt view over a stateside.engine.match.Match, on the
shared turn-based scaffold (stateside.app.turns: the setup screen, computer turns, the fair
undo, the move log, the score table, replays, saving and online play).

The side panel shows the card (topic and three questions, or the two topics the start
player chooses between), whose turn it is, the score track and the move log. Markers go on
a state by clicking the map, or on a year/number space or a No Exact space by clicking the
bars under the map. After the last pass the card is revealed: the answers with their
background lines and every marker's points, explained, until "Next card" (the game waits
meanwhile: `busy`).

Letters typed anywhere in the mode go to the map's type-a-state box (the bars and buttons
keep only the keys they need). Game > Add deck... installs a player's own deck file (the
bundled deck's format) into the config folder; its cards join the box of new games.
"""
from __future__ import annotations

import html
import random

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from stateside.app.setup_screen import SeatChoice, SetupScreen
from stateside.app.turns import ScoreTable, TurnBasedMode
from stateside.board.plain import plain_label
from stateside.board.view import CALLOUT_STATES, TAB_H, TAB_W
from stateside.data.words import possessive
from stateside.engine.match import HUMAN, LogEntry, Match
from stateside.errors import SaveError, StatesideError
from stateside.games.america import deck as decks
from stateside.games.america import rules
from stateside.games.america.ai import state_hops
from stateside.games.america.help import HELP_HTML
from stateside.games.america.panels import (
    BarsWidget,
    ChoiceCard,
    HatchItem,
    MapMarker,
    Mark,
    OutlineItem,
    ScoreTrack,
    TrackRow,
)
from stateside.games.america.rules import (
    CARDS_PER_GAME,
    COLOURS,
    NO_EXACT_SPACES,
    SECTIONS,
    AmericaGame,
    format_answer,
    space_for,
)
from stateside.games.america.widgets import (  # noqa: F401 (decks_dir, read_history: for tools and tests)
    DeckMenu,
    decks_dir,
    install_user_decks,
    read_history,
    rules_on,
    write_history,
)

DEFAULT_SEATS = ("human", "ai:medium", "ai:medium")
EXACT_FILL = "#ffc933"
NEAR_FILL = "#ffe9a8"
PANEL_WIDE, PANEL_NARROW = 340, 290    # the side panel gives way to the bars in small windows
PANEL_LARGE = 400                      # and grows a little in large ones
SECTION_TITLES = {"year": "Year", "state": "State", "number": "Number"}
WARM_UP_MS = 400
HATCH_LAYER = "america-other-side"
MARKER_LAYER = "america-markers"
LOG_LAYER = "america-log-move"         # the move under the pointer in the log
LOG_EVENTS = ("scored", "showdown", "won")   # what a logged move set off, said after it
LOG_WHITE = "#d4d4d4"                  # White's bar in the log: white would not show on the list


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


class AmericaMode(DeckMenu, TurnBasedMode):
    game_id = "america"
    title = "America"
    rules = AmericaGame

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.revealing = False          # a scored card is on show until "Next card"
        self._scored_cards = 0          # cards scored when the reveal was last set
        self.deck_error = ""
        self.deck_warnings = install_user_decks()
        self.cross_confirmed = False    # the first marker across the Mississippi was confirmed
        self.highlighted = None         # what the log's highlight shows: ("state"|"bars"|"track", ...)
        self._menu_actions: list[QAction] = []
        self._hatch_layer = None
        self._hatch: dict[str, HatchItem] = {}
        self._markers_drawn: set | None = None   # (seat, state) of the markers on the map; None: none come down
        self._marker_group = None   # the marker layer as drawn, and what it shows
        self._markers_key = None
        self._build()
        try:
            rules.bundled_deck()
        except StatesideError as e:
            self.deck_error = str(e)
        if not self.deck_error:
            self.start_game(list(DEFAULT_SEATS))
        else:
            self.refresh()

    # --- layout ---------------------------------------------------------------------------
    def _build(self) -> None:
        self.bars = BarsWidget()
        self.bars.spaceClicked.connect(lambda section, space: self._human_place(section, space))
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.setSpacing(0)
        lv.addWidget(self.replay_bar)
        lv.addWidget(self.board_slot, 1)
        lv.addWidget(self.bars)

        panel = QFrame()
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(PANEL_WIDE)
        self.panel = panel
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        self.header = plain_label()   # names the players
        self.header.setStyleSheet("color:#1d3557; font-weight:bold;")
        side.addWidget(self.header)
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
        # Right under the header: the card's text and the messages below change height, and
        # buttons under them moved about (misclicks); here they stay put.
        side.addLayout(row)
        self.card_label = QLabel()
        self.card_label.setWordWrap(True)
        self.card_label.setTextFormat(Qt.RichText)
        self._card_frame("#d8d2c4", 1)
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
        self.prompt.setTextFormat(Qt.RichText)   # the names in it are escaped
        side.addWidget(self.prompt)
        self.notice = plain_label()     # why a click was refused, until the next move
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color:#a4161a; font-weight:bold;")
        self.notice.hide()
        side.addWidget(self.notice)
        self.track = ScoreTrack()
        side.addWidget(self.track)
        self.final_scores = ScoreTable()    # at the end of the game
        self.final_scores.hide()
        side.addWidget(self.final_scores)
        # The scoring of the card on show (a reveal), then the log of every move.
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(True)
        self.details.setStyleSheet("QTextBrowser { background:#fffdf7; border:1px solid #d8d2c4; }")
        self.details.setMinimumHeight(40)
        side.addWidget(self.details, 3)
        self.log_panel.setMinimumHeight(60)
        side.addWidget(self.log_panel, 2)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(left, 1)
        layout.addWidget(panel)
        # Typing a state's name works whatever part of the mode has the focus (after a
        # click on the bars, "indiana" + Enter must reach the map, not the bar space).
        for widget in (self, *self.findChildren(QWidget)):
            widget.installEventFilter(self)

    def _card_frame(self, colour: str, width: int) -> None:
        self.card_label.setStyleSheet(
            f"QLabel {{ background:#fffdf7; border:{width}px solid {colour}; border-radius:6px; padding:8px; }}")

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
    def seats(self) -> list[str]:
        return self.match.seats if self.match is not None else []

    def start_game(self, seats: list[str], seed: int | None = None, start_player: int = 0,
                   names: list[str] | None = None) -> None:
        if self.deck_error:
            self.status.emit(f"America cannot start: {self.deck_error}")
            return
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        problems: list[str] = []
        setup = {"players": names or [COLOURS[i][0] for i in range(len(seats))], "start_player": start_player,
                 "used_topics": read_history(problems.append)}
        self.install(Match(rules_on(rules.bundled_deck()), seats, seed, setup))
        for text in problems:   # after the game's own first line, so that it stays in view
            self.status.emit(text)

    def setup_screen(self) -> SetupScreen:
        """The New game screen: 2-6 seats (each a person or a computer level, with a name
        beside its colour), and who reads the first card."""
        m = self.match
        seats = ([SeatChoice(name, kind) for name, kind in zip(m.names, m.seats)] if m is not None else
                 [SeatChoice(COLOURS[i][0], kind) for i, kind in enumerate(DEFAULT_SEATS)])
        # Rulebook, 1. Change the Start Player: for the first card the players agree who
        # starts (it reads the card and places last)
        colours = [self.seat_colour(i) for i in range(len(COLOURS))]
        dialog = SetupScreen(self.rules.spec, "America", seats, colours=colours,
                             first=m.initial_setup.get("start_player", 0) if m is not None else 0,
                             default_names=[c[0] for c in COLOURS], parent=self)
        dialog.first_box.setToolTip("The start player of the first card: reads it and places last")
        return dialog

    def start_from_setup(self, dialog: SetupScreen) -> None:
        chosen = dialog.seats()
        names: list[str] = []
        for choice in chosen:   # the rules need a name of one's own for each seat
            name, k = choice.name, 2
            while name in names:
                name, k = f"{choice.name} {k}", k + 1
            names.append(name)
        self.start_game([c.kind for c in chosen], start_player=dialog.first(), names=names)
        self.status.emit("New game of America: six cards.")

    def new_game(self) -> None:
        if self.deck_error:
            self.status.emit(f"America cannot start: {self.deck_error}")
            return
        dialog = self.setup_screen()
        if dialog.exec() == SetupScreen.Accepted:
            self.start_from_setup(dialog)

    def match_from_save(self, state: dict, where: str = "America save") -> Match:
        """A save's match on the deck it was played with: the user decks it drew from must
        be added (and unchanged)."""
        if self.deck_error:
            raise SaveError(f"{where} cannot be opened: {self.deck_error}")
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError(f"{where}: this is not a saved game of America")
        install_user_decks()      # a deck added or removed in another window counts too
        used = self._user_decks_in(state)
        if missing := sorted(used - set(decks.user_decks())):
            names = " and ".join(f"'{name}'" for name in missing)
            raise SaveError(f"{where}: this game drew cards from the deck {names}, which is not "
                            f"installed. Add it again with Game > Add deck\u2026, then open the game.")
        try:
            match = Match.from_json(state, where)
        except SaveError as e:
            if not used:
                raise
            raise SaveError(f"{e} (the game used the deck {', '.join(sorted(used))}: if its file changed "
                            f"since, the game cannot be replayed)") from None
        match.rules = rules_on(match.state.deck)
        return match

    def on_install(self, state: dict | None) -> None:
        self.cross_confirmed = False
        # a save made just after a card was scored shows that card's scoring again
        if self.match.rules is AmericaGame:   # e.g. an online table's log: keep the deck it was played on
            self.match.rules = rules_on(self.game.deck)
        self.revealing = state is not None and self._just_scored(self.match)
        self._scored_cards = len(self.game.results)
        self._markers_drawn = None   # a loaded game's markers are there already
        self.highlight_entry(None)

    @staticmethod
    def _just_scored(match: Match) -> bool:
        """The last move of a seat scored a card (chance may have followed)."""
        last = next((e for e in reversed(match.log) if e.seat >= 0), None)
        return last is not None and any(getattr(ev, "kind", "") == "scored" for ev in last.events)

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

    # --- turns ----------------------------------------------------------------------------
    def busy(self) -> bool:
        """A scored card is on show: the game waits for Next card (not after the last)."""
        return self.revealing and self.game is not None and not self.game.is_terminal()

    def entry_landed(self, entry: LogEntry | None) -> None:
        self._note_scoring()

    def _note_scoring(self) -> bool:
        """A card was scored since the last look: show it until Next card."""
        g = self.game
        if g is None or self.replaying is not None or len(g.results) <= self._scored_cards:
            return False
        self._scored_cards = len(g.results)
        self.revealing = True
        if self.online is None:
            write_history(g.used_topics_after())
        return True

    def next_card(self) -> None:
        if not self.revealing or self.replaying is not None:
            return
        self.revealing = False
        self.schedule()
        self.changed.emit()

    def undo_allowed(self, n: int) -> bool:
        """Only a marker or a pass on the card in play: once a card is scored its answers
        are known, and the topic chosen stays chosen."""
        m = self.match
        if m.state.phase != rules.PLACE:
            return False
        card_start = max((e.index for e in m.log if str(e.action).startswith("choose:")), default=-1)
        return n > card_start

    def seat_colour(self, seat: int) -> str:
        if not 0 <= seat < len(COLOURS):
            return super().seat_colour(seat)
        return LOG_WHITE if COLOURS[seat][0] == "White" else COLOURS[seat][1]

    def log_text(self, entry: LogEntry) -> str:
        """The move in words, and the scoring it set off (public: the answers are read out)."""
        if str(entry.action).startswith("draw:"):
            return self._draw_text(entry)
        said = [ev.text for ev in entry.events if getattr(ev, "kind", "") in LOG_EVENTS and ev.text]
        return entry.text + "".join(f". {text}" for text in said)

    def _after(self, entry: LogEntry):
        """The game just after a logged entry (None online: the log holds stand-ins)."""
        return self.state_after(entry.index + 1)

    def in_log(self, entry: LogEntry) -> bool:
        # The box shows a card's topics one draw at a time: one line, once both are up.
        if str(entry.action).startswith("draw:"):
            after = self._after(entry)
            return after is None or after.phase != "draw"
        return True

    def _draw_text(self, entry: LogEntry) -> str:
        """The topics the box shows, named once they are offered (every seat sees them)."""
        after = self._after(entry)
        titles = [after.topics[t].title for t in after.offered] if after is not None else []
        if len(titles) == 2:
            return f"A new card: “{titles[0]}” at one end of the box, “{titles[1]}” at the other"
        if titles:
            return f"A new card: “{titles[0]}” came up"
        return entry.text

    def final_table(self) -> tuple[list[str], list[list]]:
        """Place, points, and what settles a tie: markers in hand, then the showdowns."""
        g = self.game
        rows = [[g.players[s], ordinal(self._rank(s)), g.track[s], g.supply[s]] for s in range(g.n)]
        if not g.showdown_points:
            return ["Player", "Place", "Points", "In hand"], rows
        played = {s for r in g.results if r.showdown for s in r.points}
        for s, row in enumerate(rows):
            row.append(sum(r[s] for r in g.showdown_points) if s in played else "")
        return ["Player", "Place", "Points", "In hand", "Showdown"], rows

    def winners(self) -> set[int]:
        g = self.game
        return {g.winner} if g is not None and g.winner is not None else set()

    def on_state_clicked(self, code: str) -> None:
        self._human_place("state", code)

    def refuse(self, text: str) -> None:
        """Say why a click did nothing: in the status bar and in the panel."""
        super().refuse(text)
        self.notice.setText(text[:1].upper() + text[1:])
        self.notice.show()

    def _human_place(self, section: str, space: str) -> None:
        g = self.game
        if g is not None and g.phase == "choose" and self.is_human_turn():
            self.refuse("First choose this card's topic (in the panel on the right).")
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
        if self.game is None:
            return
        if self.busy() and self.replaying is None:
            self.refuse("The card is being scored: press Next card to go on.")
            return
        self.act(action)

    def last_move_states(self, entry: LogEntry) -> list[str] | None:
        section, _, space = str(entry.action).removeprefix("place:").partition(":")
        if not str(entry.action).startswith("place:"):
            return None
        return [space] if section == "state" and space not in NO_EXACT_SPACES else []

    # --- the move log on the board ---------------------------------------------------------
    def highlight_entry(self, entry: LogEntry | None) -> None:
        """A logged marker is framed where it went (a state outlined and ringed on the map, a
        bar space framed), a choice or a pass frames its player on the score track; all in
        the player's colour."""
        self.bars.set_flash(None)
        self.track.set_flash(None)
        self._card_frame("#d8d2c4", 1)
        if self.active:
            self.board.remove_layer(LOG_LAYER)
        self.highlighted = None
        if entry is None or entry.seat < 0 or self.match is None:
            return
        colour = COLOURS[entry.seat][1]
        action = str(entry.action)
        section, _, space = action.removeprefix("place:").partition(":")
        if action.startswith("place:") and section == "state" and space not in NO_EXACT_SPACES:
            self.highlighted = ("state", space, colour)
            if self.active:
                layer = self.board.layer(LOG_LAYER, z=13)
                layer.addToGroup(OutlineItem.for_state(self.board.atlas[space].polygons, colour))
                layer.addToGroup(OutlineItem.ring(self._marker_point(space), MapMarker.RADIUS + 5, colour))
        elif action.startswith("place:"):
            self.highlighted = ("bars", (section, space), colour)
            self.bars.set_flash((section, space), colour)
        else:
            self.highlighted = ("track", entry.seat, colour)
            self.track.set_flash(entry.seat)
            shown = self._shown()[0]
            if action.startswith("choose:") and shown is not None and shown.title in entry.text:
                self._card_frame(colour, 3)   # the card on show is the one chosen

    # --- online play (the frame's; the table plays the bundled deck: the referee has no added decks) ---
    def online_rules(self) -> type:
        return rules_on(decks.load_deck(decks.default_folder()))

    def online_log_match(self, save: dict) -> Match:
        match = Match.from_json(save, "the online table's log", rules=self.online_rules())
        match.rules = rules_on(match.state.deck)   # kept through undo and replays
        return match

    # --- drawing --------------------------------------------------------------------------
    def on_activate(self) -> None:
        super().on_activate()
        # The borders (about 0.2 s to build) are first needed by a computer's move or the
        # reveal: build them just after the window is drawn, not in the middle of a turn.
        QTimer.singleShot(WARM_UP_MS, self._warm_up)
        if self.deck_warnings:
            self.status.emit("America: an added deck no longer loads and is left out: " + self.deck_warnings[0])
        elif self.busy():   # the panel and the status bar say the same after a resume
            self.status.emit("America: the card just scored is on show; press Next card to go on.")
        elif self.game is not None and not self.game.is_terminal():
            self.status.emit("America: place markers on the map and the bars; Help > Rules explains the game.")
        elif self.game is not None:
            self.status.emit(f"America: {self.game.players[self.game.winner]} won this game; Game > New game "
                             f"starts another, Game > Replay… shows it again.")

    @staticmethod
    def _warm_up() -> None:
        rules.state_neighbours("KS")
        state_hops()

    def _who(self, seat: int) -> str:
        kind = self.seats[seat]
        if kind == HUMAN:
            if self.online is not None:
                return "you" if seat == self.online.seat else "player"
            return "you" if self.seats.count(HUMAN) == 1 else "player"
        return f"computer ({kind.partition(':')[2] or kind})"

    def _revealed(self):
        """The scored card on show, or None: the live reveal, the end of the game, or in a
        replay a position just after a card was scored."""
        g = self.game
        if not g.results:
            return None
        if self.replaying is not None:
            return g.results[-1] if g.is_terminal() or self._just_scored(self.match) else None
        return g.results[-1] if self.revealing or g.is_terminal() else None

    def _shown(self):
        """(topic, placements as (seat, section, space), result or None) on show now."""
        g = self.game
        result = self._revealed()
        if result is not None:
            placed = [(e.player, e.section, e.space) for e in result.events if e.kind == "place"]
            return g.topics[result.topic], placed, result
        return g.topic(), [(p.player, p.section, p.space) for p in g.placements], None

    def refresh(self) -> None:
        self.notice.hide()
        g = self.game
        if g is None:
            self.header.setText("America")
            self.card_label.setText(f"<b>The America deck could not be loaded.</b><br>{html.escape(self.deck_error)}")
            for b in (*self.choose_buttons, self.pass_button, self.next_button):
                b.hide()
            self.details.hide()
            return
        topic, placed, result = self._shown()
        self._draw_header(result)
        self._draw_card(topic, result)
        self._draw_prompt(result)
        self._draw_track(result)
        self._draw_marks(topic, placed, result)
        self._draw_final()
        if self.details.isVisible() != (result is not None) and self.replaying is None:
            QTimer.singleShot(0, self.log_panel.scrollToBottom)   # the log's height changes: keep the newest in view
        self.details.setVisible(result is not None)
        if result is not None:
            self.details.setHtml(self._reveal_html(result))

    def _draw_final(self) -> None:
        g = self.game
        self.track.setVisible(not g.is_terminal())   # the score table takes its place
        if not g.is_terminal():
            self.final_scores.hide()
            return
        columns, rows = self.final_table()
        self.final_scores.set_table(columns, rows, self.winners(), [self.seat_colour(s) for s in range(g.n)])
        self.final_scores.show()

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
        if not result and g.phase == "choose" and self.is_human_turn():
            text += f" \u00b7 {g.players[start]}, choose a topic:"
        elif not g.is_terminal() or result:
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
            text += ("<br><span style='color:#0b6e4f'><b>Answer: "
                     f"{html.escape(format_answer(section, q.answer, q.unit))}"
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
        self.card_label.setVisible(not human_chooses)   # the two topics say it all, and need the room
        if topic is None:
            actor = g.current_player()
            if g.is_terminal():
                self.card_label.setText("<b>The game is over.</b> Start a new game for six more cards.")
            elif actor >= 0:
                self.card_label.setText(f"<i>{html.escape(g.players[actor])} is choosing between two topics\u2026</i>")
            else:
                self.card_label.setText("<i>The next topics come out of the box\u2026</i>")
            return
        parts = [f"<div style='font-size:15px; font-weight:bold; color:#1d3557'>{html.escape(topic.title)}</div>"]
        parts += [self._question_html(topic, s, result is not None) for s in SECTIONS]
        self.card_label.setText("".join(parts))

    def _draw_prompt(self, result) -> None:
        g = self.game
        replay = self.replaying is not None
        live_reveal = self.busy() and not replay
        self.next_button.setVisible(live_reveal)
        self.pass_button.setVisible(not replay and not g.is_terminal() and not live_reveal)
        self.new_button.setVisible(not replay)
        human = self.is_human_turn()
        self.pass_button.setEnabled(human and g.phase == "place" and g.can_pass(g.current_player()))
        actor = g.current_player()
        if g.is_terminal():
            self.prompt.setText(f"<b>{html.escape(g.players[g.winner])} wins!</b> The last card's scoring is below.")
        elif replay:
            self.prompt.setText(f"<i>Replay: the game after move {self.replay_bar.position} of "
                                f"{self.replay_bar.total}.</i>")
        elif live_reveal and g.showdown is not None:
            names = html.escape(" and ".join(g.players[s] for s in g.showdown))
            why = ("are still level on this showdown card" if g.results[-1].showdown
                   else f"are tied on {g.track[g.showdown[0]]} points and on markers in hand")
            self.prompt.setText(f"{names} {why}: a showdown card decides, each with all five markers. "
                                f"Press <b>Next card</b>.")
        elif live_reveal:
            self.prompt.setText(f"Card scored. Press <b>Next card</b> for card {g.card_number}.")
        elif g.phase != "place" or actor < 0:
            self.prompt.setText(self.online_note)     # the card panel says who chooses
        elif human:
            left = g.supply[actor]
            extra = " or <b>Pass</b>" if g.can_pass(actor) else " (your first marker on this card)"
            self.prompt.setText(
                f"<b>{html.escape(g.players[actor])}</b>, place a marker{extra}: click a state on the map (or "
                f"type its name and press Enter) or a space on the bars below it. "
                f"{left} marker{'s' if left != 1 else ''} in hand.")
        elif self.online_unconfirmed:
            self.prompt.setText("<i>Sent to the table\u2026</i>")
        else:
            self.prompt.setText(f"<i>{html.escape(g.players[actor])} is thinking\u2026</i> {self.online_note}")
        self.prompt.setVisible(bool(self.prompt.text().strip()))   # no empty line in a full panel

    def _draw_track(self, result) -> None:
        g = self.game
        rows = []
        group = g.participants
        for seat in range(g.n):
            _, colour, letter = COLOURS[seat]
            if g.is_terminal():
                status = "winner" if seat == g.winner else ordinal(self._rank(seat))
            elif seat not in group:
                status = "watching"
            elif result is not None:
                status = f"+{result.points.get(seat, 0)}"
            elif g.phase == "choose":
                status = "chooses" if seat == g.current_player() else ""
            elif seat in g.passed:
                status = "passed"
            else:
                status = "to play" if seat == g.current_player() else "placing"
            showdown = (sum(r[seat] for r in g.showdown_points)
                        if seat in (g.showdown or []) and g.showdown_points else 0)
            rows.append(TrackRow(g.players[seat], colour, letter, self._who(seat), g.track[seat], g.supply[seat],
                                 g.nonscoring[seat], status,
                                 current=result is None and not g.is_terminal() and seat == g.current_player(),
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
                _, colour, letter = COLOURS[seat]
                marks[(section, space)] = Mark(
                    colour, letter, f"{possessive(g.players[seat], start=True)} marker (placed {order}.)")
        self.bars.set_marks(marks)
        if result and topic is not None:
            answers = rules.topic_answers(topic)
            self.bars.set_exact({s: space_for(s, answers[s]) for s in SECTIONS})
        else:
            self.bars.set_exact({})
        actor = g.current_player()
        if result and topic is not None:
            self.bars.set_hint(f"Answer: {rules.state_name(topic.state.answer)} (gold on the map); "
                               f"its neighbours score 3 (light gold).")
        elif topic is not None:
            side = rules.mississippi_side(topic.state.answer)
            self.bars.set_hint(f"The state answer lies {side.upper()} of the Mississippi"
                               + ("." if self.replaying is not None else
                                  "; click or type a state.  No Exact spaces for the map \u2192"))
        elif not g.is_terminal() and actor >= 0 and self.replaying is None:
            self.bars.set_hint("Choose one of the two topics on the right (Ctrl+1 / Ctrl+2)."
                               if self.is_human_turn() else
                               f"{g.players[actor]} is choosing this card's topic.")
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
        key = (tuple(placed), tuple(g.players))
        if board.layer(MARKER_LAYER, z=12) is self._marker_group and key == self._markers_key:
            return   # the same markers: a marker on its way down keeps going
        board.remove_layer(MARKER_LAYER)
        markers = board.layer(MARKER_LAYER, z=12)
        self._marker_group, self._markers_key = markers, key
        drawn = set()
        for order, (seat, section, space) in enumerate(placed, 1):
            if section == "state" and space not in NO_EXACT_SPACES:
                _, colour, letter = COLOURS[seat]
                marker = MapMarker(space, colour, letter, f"{possessive(g.players[seat], start=True)} marker on "
                                                          f"{rules.state_name(space)} (placed {order}.)")
                marker.setPos(self._marker_point(space))
                markers.addToGroup(marker)
                drawn.add((seat, space))
                if self._markers_drawn is not None and (seat, space) not in self._markers_drawn:
                    board.motion.arrive(marker)   # a marker just placed comes down onto its state
        self._markers_drawn = drawn

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
        """How a tie was settled (the winner and the places are in the score table)."""
        g = self.game
        best = max(g.track)
        leaders = [s for s in range(g.n) if g.track[s] == best]
        if len(leaders) < 2:
            return ""
        names, winner = " and ".join(g.players[s] for s in leaders), g.players[g.winner]
        if g.showdown_points:
            last = g.showdown_points[-1]
            how = ", ".join(f"{g.players[s]} {last[s]}" for s in range(g.n) if s in g.results[-1].points)
            text = f"{names} tied on {best} points and on markers in supply; {winner} won the showdown ({how})."
        else:
            how = ", ".join(f"{g.players[s]} {g.supply[s]}" for s in leaders)
            text = f"{names} tied on {best} points; {winner} has the most markers in supply ({how})."
        return f"<p><b>{html.escape(text)}</b></p>"

    # --- help -----------------------------------------------------------------------------
    def help_html(self) -> str:
        return HELP_HTML
