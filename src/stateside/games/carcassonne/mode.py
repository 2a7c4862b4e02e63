"""Carcassonne: the Qt mode, on the shared turn-based scaffold (app/turns.py).

The open table does not use the map of the states: the shared board stays hidden in
its slot and our own TableView takes the space; the USA maps are a layer on the shared
board. The scaffold runs the turns, the move log, undo, saving, replays and online play;
this mode draws the match and turns clicks into actions: it asks what fits where, keeps
the tile the player has put down (turned and moved at will) until the turn ends, then
hands the whole move to `act`. Computer seats think in a worker thread on their
observation (`computer_turn`), and their tile stays on view a moment before it is played.
The panels themselves are in panels.py.
"""
from __future__ import annotations

import random
import threading
from html import escape

from PySide6.QtCore import QEvent, QObject, QPointF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeySequence, QPen, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from stateside.app.movelog import NO_COLOUR
from stateside.app.setup_screen import SetupScreen
from stateside.app.turns import ScoreTable, TurnBasedMode
from stateside.board.motion import Motion
from stateside.data.saves import read_json_file, write_json_atomic
from stateside.engine.match import AI_PREFIX, HUMAN, MAX_NAME, Match, run_decision
from stateside.errors import SaveError, StatesideError

from .engine import Game, PlaceTurnedUp, ScoreEvent, Setup, TurnUp
from .map_items import OUTLINE, MapLayer
from .maps import TITLES
from .panels import (
    KINDS,
    HandWidget,
    ScoreBoard,
    TilesLeftDialog,
    chosen_seats,
    fill_final_scores,
    final_table,
    plays_on_map,
    seat_icon,
    setup_screen,
)
from .shapes import segment_at
from .table import TARGET, TableScene, TableView
from .tile_art import SEAT_COLOURS, SEAT_NAMES
from .tiles import K_CITY, K_CLOISTER, K_FIELD, K_ROAD
from .usa import ChipDraw, Follow, Lay, Look, Reveal
from .words import verb

PANEL_WIDTH = 310
SETUP_MEMORY = "carcassonne-setup.json"   # in the settings folder: the last setup chosen
DEFAULT_SEATS = [{"name": "You", "kind": "human"}, {"name": "Computer", "kind": "easy"}]
MAP_LAYER = "carcassonne-map"
FIT_MARGIN = 4     # pixels left round the map's squares when it is fitted
OFF = -9999
FEATURE_WORDS = {K_CITY: "city", K_ROAD: "road", K_FIELD: "field (as a farmer)", K_CLOISTER: "cloister"}


class _Thinker(QObject):
    """Runs a computer player's choice off the GUI thread; decided sends (action, ms) or
    the exception. One choice at a time: a stale one still running is waited for, since
    a player keeps its own copy of the game between choices."""
    decided = Signal(int, object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.busy = threading.Lock()

    def think(self, generation: int, inputs: tuple) -> None:
        """Match.run_decision(*inputs) (Match.decision_inputs) on a thread of its own."""
        def run():
            with self.busy:
                try:
                    result = run_decision(*inputs)
                except Exception as e:     # reported on the GUI thread, never lost
                    result = e
            try:
                self.decided.emit(generation, result)
            except RuntimeError:       # the window closed while the computer thought
                pass
        threading.Thread(target=run, daemon=True).start()


class CarcassonneMode(TurnBasedMode):
    game_id = "carcassonne"
    title = "Carcassonne"
    rules = Game
    private_view = "secret tiles"    # on the USA maps, the face-down tiles a player looked at
    opens_variants = True            # stateside --map usa-west (a board by its name)

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.board_slot.hide()        # the open table does not use the map
        self.pending: tuple[int, int, int] | None = None   # x, y, rot of the tile put down this turn
        self.computer_move = None      # a computer's decided (action, ms), on view until its turn ends
        self.rot = 0                   # how the tile in hand is turned
        self.chosen: int | None = None  # follower spot picked on the placed tile
        self.hover: tuple[int, int] | None = None
        self.hover_seg: int | None = None  # follower spot under the pointer on the placed tile
        self._hover_on = None              # the placement hover_seg belongs to
        self._notes: dict = {}             # segment -> what that spot claims, for the placement below
        self._notes_for = None
        self.generation = 0            # bumped whenever a computer's pending answer becomes stale
        self.thinking = False
        self.thinker = _Thinker(self)
        self.thinker.decided.connect(self._computer_decided)
        self.show_timer = QTimer(self, singleShot=True, timeout=self._show_done)   # a computer's move on view
        self.map_item: MapLayer | None = None   # the USA maps, drawn on the shared board
        self.map_hover = None              # the map's square under the pointer
        self.peek = False                  # the secret looks shown (while the button is held)
        self._scored_game = None           # the state whose scoring events the list shows
        self._fitted_game = None           # the game (a replay: the whole one) the view was fitted to
        self._fitted_as = None             # the board's view just after the map was fitted (_board_view)
        self._pick_at = None                  # (state, log length) last drawn: a new move drops the pick
        self._build()
        board.viewport().installEventFilter(self)
        self.start_game(Setup(players=[s["name"] for s in DEFAULT_SEATS]), DEFAULT_SEATS)

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        self.scene = TableScene(self)
        self.table = self.scene.layer
        self.view = TableView(self.scene, self)
        self.tile_motion = Motion(self.view)   # a tile placed moves into its square (View > Animations)
        self.view.squareHovered.connect(self._hovered)
        self.view.squareClicked.connect(self._clicked)

        panel = QFrame(self)
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(PANEL_WIDTH)
        side = QVBoxLayout(panel)
        side.setContentsMargins(12, 10, 12, 10)
        side.setSpacing(6)
        self.turn_label = QLabel()
        self.turn_label.setWordWrap(True)
        self.turn_label.setTextFormat(Qt.PlainText)
        self.turn_label.setStyleSheet("font-size: 15px; font-weight: bold; color: #1d3557;")
        side.addWidget(self.turn_label)

        hand_row = QHBoxLayout()
        self.hand = HandWidget()
        self.hand.turned.connect(self.turn_tile)
        self.hand.spotHovered.connect(self._hand_hovered)
        self.hand.spotClicked.connect(self._hand_clicked)
        hand_row.addWidget(self.hand)
        turn_col = QVBoxLayout()
        self.btn_left = QPushButton("\u27f2 Turn left")
        self.btn_left.setToolTip("Turn the tile counter-clockwise (Shift+R)")
        self.btn_left.clicked.connect(lambda: self.turn_tile(-1))
        self.btn_right = QPushButton("Turn right \u27f3")
        self.btn_right.setToolTip("Turn the tile clockwise (R)")
        self.btn_right.clicked.connect(lambda: self.turn_tile(1))
        self.tiles_label = QLabel()
        self.tiles_label.setStyleSheet("color: #6b6355;")
        self.tiles_label.setWordWrap(True)
        turn_col.addWidget(self.btn_left)
        turn_col.addWidget(self.btn_right)
        turn_col.addWidget(self.tiles_label)
        self.btn_tiles = QPushButton("Tiles to come…")
        self.btn_tiles.setToolTip("The tiles not drawn yet, by type (T)")
        self.btn_tiles.clicked.connect(self.show_tiles_left)
        turn_col.addWidget(self.btn_tiles)
        self.tiles_dialog: TilesLeftDialog | None = None
        turn_col.addStretch(1)
        hand_row.addLayout(turn_col)
        self.hand_box = QWidget()          # hidden at the end, for the final scores and the log
        self.hand_box.setLayout(hand_row)
        hand_row.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.hand_box)

        self.hint = QLabel()
        self.hint.setTextFormat(Qt.RichText)     # names in it are escaped
        self.hint.setWordWrap(True)
        # room for four lines, so the buttons below do not jump as the hint changes
        self.hint.setMinimumHeight(4 * self.hint.fontMetrics().lineSpacing() + 14)
        self.hint.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.hint.setStyleSheet("background: #fffdf6; border: 1px solid #e2dccd; border-radius: 4px; padding: 5px;")
        side.addWidget(self.hint)
        self.final_scores = ScoreTable()      # at the end, in place of the hint
        self.final_scores.setToolTip("Each player's points by kind of feature; every scoring is in the "
                                     "Scoring tab below.")
        self.final_scores.hide()
        # compact rows: with eight kinds and five players the log below keeps its lines
        self.final_scores.verticalHeader().setDefaultSectionSize(self.final_scores.fontMetrics().lineSpacing() + 6)
        side.addWidget(self.final_scores)

        actions = QHBoxLayout()
        self.btn_confirm = QPushButton("End turn")
        self.btn_confirm.setToolTip("Confirm the tile and follower (Enter)")
        self.btn_confirm.setStyleSheet("QPushButton:enabled { font-weight: bold; }")
        self.btn_confirm.clicked.connect(self.confirm_turn)
        self.btn_back = QPushButton("Take back tile")
        self.btn_back.setToolTip("Pick the tile up again before ending the turn (Backspace)")
        self.btn_back.clicked.connect(self.take_back)
        actions.addWidget(self.btn_confirm)
        actions.addWidget(self.btn_back)
        self.action_box = QWidget()
        self.action_box.setLayout(actions)
        actions.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.action_box)
        # The USA maps: a cover over the secret looks, opened only while held.
        self.btn_peek = QPushButton("Hold to see your secret tiles")
        self.btn_peek.setToolTip("The face-down tiles you looked at show face up while you hold this; "
                                 "let go before passing the screen on.")
        self.btn_peek.pressed.connect(lambda: self._set_peek(True))
        self.btn_peek.released.connect(lambda: self._set_peek(False))
        self.btn_peek.hide()
        side.addWidget(self.btn_peek)

        side.addSpacing(4)
        side.addWidget(self._heading("Scores"))
        self.scoreboard = ScoreBoard()
        side.addWidget(self.scoreboard)
        # The move log (every action, the computers' included) and the scoring lines share
        # the rest of the panel as two tabs, so the log keeps room for a dozen lines.
        self.scoring = QListWidget()
        self.scoring.setObjectName("scoringList")
        self.scoring.setWordWrap(True)
        self.scoring.setResizeMode(QListView.Adjust)     # re-wrap the lines when the width settles
        self.scoring.setIconSize(QSize(34, 20))
        self.scoring.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.scoring.setToolTip("Click an entry to see the feature on the table")
        self.scoring.itemClicked.connect(self._scoring_clicked)
        self.scoring.setStyleSheet("QListWidget { background: #fffdf6; border: 1px solid #e2dccd; }"
                                   "QListWidget::item { padding: 3px 0px; border-bottom: 1px solid #efe9da; }"
                                   # the style's white selected text was invisible on the pale background
                                   "QListWidget::item:selected { background: #ffe8a3; color: #1d1d1d; }")
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.log_panel, "Moves")
        self.tabs.addTab(self.scoring, "Scoring, newest first")
        self.tabs.setTabToolTip(0, "Every move, newest last. Point at a line to see its tile on the table.")
        side.addWidget(self.tabs, 1)
        bottom = QHBoxLayout()
        self.btn_new = QPushButton("New game\u2026")
        self.btn_new.setToolTip("Start another game (Ctrl+N): the setup offers your last choice, and asks "
                                "first if this game is under way")
        self.btn_new.clicked.connect(self._new_game_button)
        self.btn_fit = QPushButton("Show whole table")
        self.btn_fit.setToolTip("Fit the table in view (F). Drag to move it, the mouse wheel or +/- to zoom.")
        self.btn_fit.clicked.connect(self._fit_view)
        bottom.addWidget(self.btn_new)
        bottom.addWidget(self.btn_fit)
        side.addLayout(bottom)

        outer = QVBoxLayout(self)          # the replay bar spans the window: it needs the width
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.replay_bar)
        lay = QHBoxLayout()
        lay.setSpacing(0)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.board_slot, 1)
        lay.addWidget(panel)
        outer.addLayout(lay, 1)

        for keys, slot in (("R", lambda: self.turn_tile(1)), ("Shift+R", lambda: self.turn_tile(-1)),
                           ("Return", self.confirm_turn), ("Enter", self.confirm_turn),
                           ("Backspace", self.take_back),
                           ("Space", self.cycle_follower),
                           ("F", self._fit_view), ("T", self.show_tiles_left),
                           ("+", lambda: self._zoom(1.2)), ("-", lambda: self._zoom(1 / 1.2))):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)

    @staticmethod
    def _heading(text: str) -> QLabel:
        label = QLabel(text)
        label.setStyleSheet("font-weight: bold; color: #5a5140; margin-top: 4px;")
        return label

    # ---------------------------------------------------------------- games
    @property
    def seats(self) -> list[dict]:
        """{"name", "kind"} per seat, kind as in KINDS."""
        m = self.match
        return [{"name": name, "kind": spec[len(AI_PREFIX):] if spec.startswith(AI_PREFIX) else spec}
                for name, spec in zip(m.names, m.seats)] if m is not None else []

    def start_game(self, setup: Setup, seats: list[dict], seed: int | None = None) -> None:
        """A new match; `seed` decides its draws and the computers' choices (random when None)."""
        specs = [HUMAN if s["kind"] == HUMAN else AI_PREFIX + s["kind"] for s in seats]
        seed = random.randrange(1 << 30) if seed is None else seed
        self.install(Match(Game, specs, seed, setup.to_json()))

    def on_install(self, state: dict | None) -> None:
        self._drop_computer_move()
        self.pending = None
        self.rot = 0
        self.chosen = None
        self.table.clear()
        self._scored_game = None
        # Nothing is hidden on the open table, nor on a map before anyone has looked at a
        # face-down tile: people at one screen then need no pass screen to start.
        people = self.people()
        if people and not (self.on_map and self.game.known):
            self.viewer = people[0]
        self._show_board()
        if self.active:   # once the panel shows the new match, unless something more was said meanwhile
            said = self.last_status
            QTimer.singleShot(0, self, lambda: self.last_status == said and self._announce())

    def setup_screen(self) -> SetupScreen:
        """New game's screen, set as the last one was accepted (a fresh config: you and a
        computer at the open table)."""
        seats, conf = self.remembered_setup() or (DEFAULT_SEATS, None)
        return setup_screen(seats, conf, self)

    def play_area(self):
        """The map on a USA board; the open table's own view otherwise."""
        return self.board_slot if self.board_slot.isVisible() else self.view

    def open_variant(self, variant: str) -> None:
        """A new game on this board (`stateside --map`), with the seats chosen last time."""
        seats, conf = self.remembered_setup() or (DEFAULT_SEATS, None)
        options = {} if conf is None else {"followers": conf.followers, "inns_cathedrals": conf.inns_cathedrals,
                                           "goods": conf.goods, **({"sets": conf.sets} if variant == "table" else {})}
        self.start_game(Setup(players=[s["name"] for s in seats], variant=variant, **options), seats)

    # The last choice made on the setup screen, kept in the settings folder.
    def _setup_memory(self):
        from stateside.app.main import config_dir

        return config_dir() / SETUP_MEMORY

    def remembered_setup(self) -> tuple[list[dict], Setup] | None:
        """(seats, setup) of the last game started from the setup screen; None when there is
        none, or the file is not one we wrote (then the defaults: it is only a preference)."""
        try:
            data = read_json_file(self._setup_memory(), "setup")
            seats = data["seats"]
            if not (isinstance(seats, list) and 2 <= len(seats) <= 5 and all(
                    isinstance(s, dict) and s.get("kind") in KINDS and isinstance(s.get("name"), str)
                    and 0 < len(s["name"].strip()) <= MAX_NAME for s in seats)):
                return None
            seats = [{"name": s["name"].strip(), "kind": s["kind"]} for s in seats]
            return seats, Setup.from_json({**data["setup"], "players": [s["name"] for s in seats]})
        except (StatesideError, OSError, ValueError, KeyError, TypeError):
            return None

    def _remember_setup(self, seats: list[dict], setup: Setup) -> None:
        if not getattr(self.window(), "persist", True):      # a screenshot's window keeps nothing
            return
        conf = setup.to_json()
        conf.pop("players")
        try:
            write_json_atomic(self._setup_memory(), {"seats": seats, "setup": conf}, "setup")
        except (StatesideError, OSError, ValueError) as e:
            self.status.emit(f"The setup could not be remembered for next time: {e}")

    chosen_seats = staticmethod(chosen_seats)

    def new_game(self) -> None:
        dialog = self.setup_screen()
        if dialog.exec() == QDialog.Accepted:
            seats = chosen_seats(dialog)
            try:
                setup = Setup(players=[s["name"] for s in seats], **dialog.options())
                self.start_game(setup, seats)
            except (ValueError, StatesideError) as e:
                self.status.emit(str(e))
                return
            self._remember_setup(seats, setup)

    def game_in_progress(self) -> bool:
        """A game New or Open would throw away: someone has moved, and it is not over."""
        m = self.play_table.kept_match()     # not the replay shown
        return m is not None and not m.is_over() and any(e.seat >= 0 for e in m.log)

    def _new_game_button(self) -> None:
        """The panel's New game: as Game > New game, which asks before a game in progress is lost."""
        shell = self.window()
        if shell is not self and hasattr(shell, "new_game") and hasattr(shell, "confirm_discard"):
            shell.new_game()
        else:
            self.new_game()

    def match_from_save(self, state: dict, where: str = "the save") -> Match:
        match = super().match_from_save(state, where)
        if any(spec != HUMAN and spec[len(AI_PREFIX):] not in KINDS for spec in match.seats):
            raise SaveError(f"{where}: it has seats this table does not offer: {', '.join(match.seats)}")
        return match

    def step_to_take_back(self) -> bool:
        """The tile put down this turn, not played yet: undo takes it back first."""
        return self.pending is not None

    def on_activate(self) -> None:
        self._show_board()
        QTimer.singleShot(0, self.view.setFocus)
        super().on_activate()
        self._announce()

    def _announce(self) -> None:
        """Say on the status bar whose turn it is (or how the game ended)."""
        g = self.game
        if g is None or self.replaying is not None:
            return
        if g.finished:
            self.status.emit(self.turn_label.text() + ". Game \u2192 New game starts another.")
        elif self.is_human_turn():
            self.status.emit(f"{g.names[g.current]} to play: click a gold square to place the tile "
                             "(R or the buttons turn it). Help \u2192 Rules explains the game.")
        elif not self.match.is_human(g.current):
            self.status.emit(f"{g.names[g.current]} (the computer) is playing.")

    def on_deactivate(self) -> None:
        super().on_deactivate()
        self._detach_map()            # before the board clears its layers
        if self.thinking:             # the answer will be stale; ask again on return
            self._drop_computer_move()
        if self.show_timer.isActive():   # a computer's tile on view: end its turn now
            self.show_timer.stop()
            self._show_done()

    # ---------------------------------------------------------------- turn flow
    def seat_colour(self, seat: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else NO_COLOUR

    def busy(self) -> bool:
        return self.thinking or self.show_timer.isActive()

    def _drop_computer_move(self) -> None:
        self.generation += 1
        self.thinking = False
        self.show_timer.stop()
        self.computer_move = None

    def computer_turn(self, seat: int) -> None:
        """What Match.decide does, with the choice itself off the GUI thread."""
        self.thinking = True
        self.refresh()
        self.thinker.think(self.generation, self.match.decision_inputs(seat))

    def _computer_decided(self, generation: int, result) -> None:
        if generation != self.generation:
            return
        self.thinking = False
        if isinstance(result, Exception):
            self.status.emit(f"The computer player failed: {result}")
            return
        action, ms = result
        if type(action) is not tuple:      # not a tile from the hand: nothing to show first
            self.record(self.match.apply(action, ms))
            return
        x, y, rot, seg = action
        self._drop_stale_pick()
        self.pending = (x, y, rot)
        self.chosen = seg if seg >= 0 else None
        self.computer_move = result
        # Let people see the tile and follower before the turn ends.
        self.show_timer.start(self.ai_delay_ms)
        self.refresh()

    def _show_done(self) -> None:
        if self.computer_move is not None:
            action, ms = self.computer_move
            self.computer_move = None
            self.record(self.match.apply(action, ms))

    def record(self, entry) -> None:
        super().record(entry)
        if entry is not None and self.game is not None and not self.on_map:
            self.view.ensure_shown(self._target_squares())

    def keyPressEvent(self, event) -> None:
        # Esc takes the placed tile back; not a shortcut, which would clash with the replay bar's Esc.
        if event.key() == Qt.Key_Escape and self.replaying is None and self.pending is not None:
            self.take_back()
            return
        super().keyPressEvent(event)

    def _drop_stale_pick(self) -> None:
        """The tile put down, the follower picked and the turn of the tile in hand belong
        to one position: any move (here, a computer's, online, an undo) drops them."""
        seen = (self.game, len(self.match.log))
        if seen != self._pick_at:
            self._pick_at = seen
            self.pending = None
            self.chosen = None
            self.rot = 0

    def _not_now(self) -> None:
        """Why a click does nothing now."""
        g = self.game
        if self.refused_in_replay():
            return
        if g is not None and not g.finished and g.current_player() >= 0 and self.waiting_for is None:
            who = g.names[g.current]
            self.refuse(f"{who} {verb(who, 'is', 'are')} playing; wait for your turn.")

    def turn_tile(self, step: int) -> None:
        g = self.game
        if not self.is_human_turn():
            return
        if self.on_map:
            if g.step == "flip":
                fits = g.fits(g.tiles[g.turned_up[0]], g.turned_up[1])
                i = fits.index(self.rot) if self.rot in fits else 0
                self.rot = fits[(i + step) % len(fits)]
            elif g.step == "lay":
                self.rot = (self.rot + step) % 4
            self.refresh()
            return
        if self.pending is not None:
            # Turn the placed tile in place, among the ways it fits there.
            x, y, rot = self.pending
            fits = g.fits(g.tiles[g.drawn], (x, y))
            if len(fits) < 2:
                self.status.emit("The tile fits this square only one way.")
                return
            i = fits.index(rot)
            new = fits[(i + step) % len(fits)]
            self.place_tile(x, y, new)
            self.rot = new
        else:
            self.rot = (self.rot + step) % 4
        self.refresh()
        if self.pending is None and self.hover is not None:
            self._hovered(*self.hover, QPointF())

    def _clicked(self, x: int, y: int, point: QPointF) -> None:
        g = self.game
        if not self.is_human_turn():
            self._not_now()
            return
        tile = g.tiles[g.drawn]
        if self.pending is not None:
            px, py, prot = self.pending
            options = g.follower_options(px, py, prot)
            seg = self.table.segment_under(tile, prot, (px, py), point, options)
            if seg is not None:
                self.chosen = None if self.chosen == seg else seg
                self.refresh()
                return
            if (x, y) == (px, py):
                self.status.emit(self._why_no_follower(tile, prot, (px, py), point))
                return
            # A click on another square moves the tile there.
            if not g.fits(tile, (x, y)):
                return
        fits = g.fits(tile, (x, y))
        if not fits:
            if (x, y) in g.board:
                self.status.emit("That square already holds a tile.")
            elif (x, y) in g.open:
                self.status.emit("The tile does not fit there whichever way it is turned.")
            else:
                self.status.emit("A tile must touch the tiles on the table along an edge.")
            return
        if self.rot not in fits:
            # Turn it to the nearest way that fits, clockwise.
            self.rot = next(r for r in ((self.rot + k) % 4 for k in range(4)) if r in fits)
        self.place_tile(x, y, self.rot)
        self.table.hide_preview()
        self.refresh()
        self.changed.emit()

    def place_tile(self, x: int, y: int, rot: int) -> None:
        """Put the tile in hand down on x, y turned `rot`, for now: the view keeps it (moved,
        turned or taken back at will) until the turn ends and the engine gets the move."""
        self.game.check_placement(x, y, rot)
        self._drop_stale_pick()
        self.pending = (x, y, rot)
        self.chosen = None

    def _why_no_follower(self, tile, rot, pos, point) -> str:
        seg = segment_at(tile, rot, self.table.local_point(point))
        if self.game.supply[self.game.current] == 0:
            return "You have no followers left; end the turn without one."
        if seg is None:
            return "Click a highlighted spot to put a follower there."
        return f"That {FEATURE_WORDS[tile.segments[seg].kind]} already has a follower through connected tiles."

    def _hovered(self, x: int, y: int, point: QPointF) -> None:
        g = self.game
        if g is None:
            return
        self.hover = None if x == OFF else (x, y)
        if not self.is_human_turn():
            self.table.hide_preview()
            return
        tile = g.tiles[g.drawn]
        if self.pending is None:
            if self.hover is None or (x, y) in g.board or not g.fits(tile, (x, y)) and (x, y) not in g.open:
                self.table.hide_preview()
                return
            self.table.show_preview(tile, self.rot, (x, y), self.rot in g.fits(tile, (x, y)))
        else:
            seg = None
            if x != OFF:
                px, py, prot = self.pending
                options = g.follower_options(px, py, prot)
                seg = self.table.segment_under(tile, prot, (px, py), point, options)
            if seg != self.hover_seg:
                self.hover_seg, self._hover_on = seg, self.pending
                self._show_claim()

    def feature_note(self, seg: int) -> tuple[str, tuple]:
        """What a follower on segment `seg` of the placed tile would claim: a sentence and
        the squares of the whole feature, as it will be once the tile is down."""
        g = self.game
        if self._notes_for != (g.turn, self.pending):
            self._notes, self._notes_for = {}, (g.turn, self.pending)
        if seg not in self._notes:
            x, y, rot = self.pending
            after = g.clone(history=False)
            after.apply_action((x, y, rot, -1))
            root = after.find(after.placed[after.board[(x, y)]].base + seg)
            kind = after.kind[root]
            squares = after.feature_squares(root)
            if kind == K_FIELD:
                n = after.field_cities(root)
                text = (f"the field ({len(squares)} tile{'s' * (len(squares) != 1)}) as a farmer, who stays until "
                        f"the end: 3 points per finished city beside it ({n} so far).")
            elif kind == K_CLOISTER:
                have = after.feature_points(root, True) - 1      # 1 for itself, 1 per neighbour
                text = ("the cloister: surrounded now, 9 points at once." if have == 8 else
                        f"the cloister: {have} of its 8 neighbours so far (9 points when all are there).")
            else:
                n = len(after.ftiles[root])
                what = f"the {kind}: {n} tile{'s' * (n != 1)}"
                if kind == K_CITY and after.pennants[root]:
                    what += f", {after.pennants[root]} pennant{'s' * (after.pennants[root] != 1)}"
                if after.ports[root] == 0:
                    text = (f"{what}, finished by this tile: {after.feature_points(root, False)} points at once "
                            "and the follower comes back.")
                else:
                    text = f"{what} so far, still open."
            self._notes[seg] = (text, squares)
        return self._notes[seg]

    def _update_hand(self) -> None:
        """The tile in hand in the panel; once placed, with its follower spots, large."""
        g = self.game
        if g.finished or g.drawn is None:
            self.hand.show_tile(None, 0, "game over" if g.finished else "a tile is drawn next")
            return
        tile = g.tiles[g.drawn]
        if self.pending is None:
            self.hand.show_tile(tile, self.rot)
            return
        human = self.is_human_turn()
        spots = g.follower_options(*self.pending) if human else [s for s in [self.chosen] if s is not None]
        self.hand.show_tile(tile, self.pending[2], seat=g.current, spots=spots, chosen=self.chosen,
                            hover=self.hover_seg if human else None)

    def _show_claim(self) -> None:
        """Outline the feature the hovered (or chosen) follower spot claims, and say what it is."""
        g = self.game
        if g is not None and self._hover_on != self.pending:    # the tile moved or turned under the pointer
            self.hover_seg = None
        seg = self.hover_seg if self.hover_seg is not None else self.chosen
        if g is None or self.pending is None or seg is None or not self.is_human_turn():
            self.table.show_segment(None, 0, None, None)
            self.table.show_reach(())
        else:
            x, y, rot = self.pending
            tile = g.tiles[g.drawn]
            self.table.show_segment(tile, rot, (x, y), seg)
            self.table.show_reach(self.feature_note(seg)[1])
        self._update_hand()
        self._set_hint()

    def _hand_hovered(self, seg) -> None:
        if self.on_map:
            return
        if self.game is not None and self.pending is not None and seg != self.hover_seg:
            self.hover_seg, self._hover_on = seg, self.pending
            self._show_claim()

    def _hand_clicked(self, seg: int) -> None:
        g = self.game
        if self.on_map:
            if g.step == "follow" and self.is_human_turn():
                self.chosen = None if self.chosen == seg else seg
                self.refresh()
            return
        if g is None or self.pending is None or not self.is_human_turn():
            return
        self.chosen = None if self.chosen == seg else seg
        self.refresh()

    def cycle_follower(self) -> None:
        """Space: step the follower through the free spots of the placed tile, then none."""
        g = self.game
        if not self.is_human_turn():
            return
        if self.on_map:
            if g.step == "follow":
                order = [None] + g.follow_options()
                i = order.index(self.chosen) if self.chosen in order else 0
                self.chosen = order[(i + 1) % len(order)]
                self.refresh()
            return
        if self.pending is None:
            self.status.emit("Place the tile first: click a highlighted square.")
            return
        order = [None] + g.follower_options(*self.pending)
        if len(order) == 1:
            self.status.emit("No follower can go on this tile.")
            return
        i = order.index(self.chosen) if self.chosen in order else 0
        self.chosen = order[(i + 1) % len(order)]
        self.hover_seg = None
        self.refresh()

    def take_back(self) -> None:
        if self.on_map or self.pending is None or not self.is_human_turn():
            return
        self.pending = None
        self.chosen = None
        self.refresh()
        self.changed.emit()

    def confirm_turn(self) -> None:
        if self.on_map:
            g = self.game
            if not self.is_human_turn():
                return
            if g.step == "follow":
                self.act(Follow(-1 if self.chosen is None else self.chosen))
            elif g.step == "flip":
                t, (x, y) = g.turned_up
                fits = g.fits(g.tiles[t], (x, y))
                self.act(PlaceTurnedUp(x, y, self.rot if self.rot in fits else fits[0]))
            else:
                self.status.emit("Click a highlighted square first.")
            return
        if self.pending is None or not self.is_human_turn():
            if self.game is not None and self.pending is None and self.is_human_turn():
                self.status.emit("Place the tile first: click a highlighted square.")
            return
        x, y, rot = self.pending
        self.act((x, y, rot, -1 if self.chosen is None else self.chosen))

    # ---------------------------------------------------------------- drawing
    def _target_squares(self) -> list[tuple[int, int]]:
        g = self.game
        if g is None or g.drawn is None:
            return []
        return [(x, y) for (x, y), key in g.open.items() if g.fits(g.tiles[g.drawn], (x, y))]

    def refresh(self) -> None:
        g = self.game
        if g is None:
            return
        self._drop_stale_pick()
        self._sync_scoring()
        if self.on_map:
            self._refresh_map()
            return
        names = g.names
        before = set(self.table.tiles)
        self.table.sync_tiles(g.placed)
        if before and len(self.table.tiles) == len(before) + 1 and before <= set(self.table.tiles):
            # one tile just placed: it comes down into its square (not a loaded game's tiles,
            # nor a new game's start tile)
            new = (set(self.table.tiles) - before).pop()
            self.tile_motion.arrive(self.table.tiles[new], drop=self.table.square * 0.6)
        if self._fitted_game is not (self.replaying or self.match):   # a new game, or a replay's
            self._fitted_game = self.replaying or self.match
            self.view.show_all(self._target_squares())
        elif self.replaying is not None:
            self.view.ensure_shown()
        self.table.sync_followers([(seat, pos, g.placed[g.board[pos]].tile, g.placed[g.board[pos]].rot, seg)
                                   for seat, pos, seg in g.followers_on_board()])
        human = self.is_human_turn()
        tile = g.tiles[g.drawn] if g.drawn is not None else None
        if self.pending is not None and tile is not None:
            x, y, rot = self.pending
            self.table.px_per_unit = self.view.transform().m11()
            options = g.follower_options(x, y, rot) if human else []
            shown = options if human else ([self.chosen] if self.chosen is not None else [])
            self.table.show_pending(tile, rot, (x, y), g.current, shown, self.chosen)
            # A computer's tile on view is framed in its colour: gold is for where a person may play.
            self.table.pending_frame.setPen(QPen(TARGET if human else QColor(self.seat_colour(g.current)), 5))
            self.table.show_targets(set(), set())
            self.table.hide_preview()
        else:
            self.table.hide_pending()
            if human and tile is not None:
                now, other = set(), set()
                for pos in self._target_squares():
                    (now if self.rot in g.fits(tile, pos) else other).add(pos)
                self.table.show_targets(now, other)
            else:
                self.table.show_targets(set(), set())

        left = g.tiles_left
        self.tiles_label.setText(f"{left} tile{'s' * (left != 1)} left to draw"
                                 + (f"\n{len(g.set_aside)} set aside" if g.set_aside else ""))
        if g.finished:
            self.turn_label.setText(self._game_over_text())
        else:
            who = names[g.current]
            colour = SEAT_NAMES[g.current]
            self.turn_label.setText(f"Turn {g.turn + 1}: {who} ({colour})"
                                    + (" \u2013 thinking\u2026" if self.thinking else ""))
        self._update_hand()
        self.table.show_last(self._last_tiles())
        if self.pending is None:
            self.hover_seg = None
            self._set_hint()
        else:
            self._show_claim()
        self.btn_left.setEnabled(human)
        self.btn_right.setEnabled(human)
        self.btn_confirm.setEnabled(human and self.pending is not None)
        self.btn_back.setEnabled(human and self.pending is not None)
        self._update_scores()

    def _game_over_text(self) -> str:
        g = self.game
        win = [g.names[i] for i in g.winners()]
        return "Game over: " + " and ".join(win) + f" {verb(win, 'wins', 'win')} with {max(g.points)} points"

    def _last_tiles(self) -> dict:
        """Each player's last tile laid from the hand: seat -> (square, colour)."""
        g = self.game
        last = {}
        for k, move in enumerate(g.actions):     # move k was made by seat k % n, turn by turn
            last[k % g.n] = (move[:2], QColor(self.seat_colour(k % g.n)))
        return last

    def _update_scores(self) -> None:
        """The scores and followers at hand; at the end, the points by kind as a ScoreTable."""
        g = self.game
        seats = self.seats
        rows = [(g.names[i], seats[i]["kind"], g.points[i], g.supply[i], g.conf.followers) for i in range(g.n)]
        self.scoreboard.set_rows(rows, -1 if g.finished else g.current, g.winners() if g.finished else [])
        self.final_scores.setVisible(g.finished)
        for w in (self.hint, self.hand_box, self.action_box):
            w.setVisible(not g.finished)
        if g.finished:
            fill_final_scores(self.final_scores, g, PANEL_WIDTH - 24)
        self._update_tiles_left()

    def show_tiles_left(self) -> None:
        if self.tiles_dialog is None:
            self.tiles_dialog = TilesLeftDialog(self)
        self.tiles_dialog.show_game(self.game)
        self.tiles_dialog.show()
        self.tiles_dialog.raise_()

    def _update_tiles_left(self) -> None:
        if self.tiles_dialog is not None and self.tiles_dialog.isVisible():
            self.tiles_dialog.show_game(self.game)

    def _set_hint(self) -> None:
        """The hint, after who left or lost connection at an online table (the table's note)."""
        self._set_turn_hint()
        if self.online is not None and self.online_note and not self.game.finished:
            self.hint.setText(f"<b style='color:#b02a37'>{escape(self.online_note)}</b><br>{self.hint.text()}")

    def _set_turn_hint(self) -> None:
        """The line that tells the person what to do now (or what the computer is doing)."""
        g = self.game
        if g.finished:
            return          # the final scores show instead
        if self.replaying is not None:
            self.hint.setText(self._replay_hint())
            return
        who = escape(g.names[g.current])
        if g.drawn is None:       # online, the table's draw is on its way
            self.hint.setText(f"{who} draws the next tile\u2026")
            return
        tile = g.tiles[g.drawn]
        if not self.is_human_turn():
            if self.pending is None:
                self.hint.setText(f"{who} is thinking\u2026")
            elif self.chosen is not None:
                kind = FEATURE_WORDS[tile.segments[self.chosen].kind]
                self.hint.setText(f"{who} places the tile framed in its colour, with a follower on the {kind}.")
            else:
                self.hint.setText(f"{who} places the tile framed in its colour, without a follower.")
        elif self.pending is None:
            self.hint.setText("Click a highlighted square to place the tile. Solid gold: it fits turned as "
                              "shown; dashed: it fits turned another way. Turn it with R or the buttons.")
        elif self.hover_seg is not None and self.hover_seg != self.chosen:
            note = self.feature_note(self.hover_seg)[0]
            self.hint.setText(f"This spot claims {note} Click to put your follower there.")
        elif self.chosen is not None:
            note = self.feature_note(self.chosen)[0]
            self.hint.setText(f"Your follower goes on {note} Click it again to take it off. "
                              "Enter ends the turn; Backspace takes the tile back.")
        elif g.follower_options(*self.pending):
            self.hint.setText("Point at a pale follower (on the table or the large tile above) to see what it "
                              "would claim; click one to put it there, "
                              "or end the turn without one (Enter). Backspace takes the tile back; R turns it.")
        else:
            why = "you have no followers left" if g.supply[g.current] == 0 else "every feature is taken"
            self.hint.setText(f"No follower can go on this tile ({why}). End the turn with Enter.")

    def _replay_hint(self) -> str:
        n, total = len(self.match.log), len(self.replaying.log)
        return (f"<b>Replay</b>: the game after move {n} of {total}. Left and Right step, Home and End "
                "jump; point at a line of the log to see its move. Esc goes back to the game.")

    def final_table(self) -> tuple[list[str], list[list]]:
        return final_table(self.game)

    def _sync_scoring(self) -> None:
        """The scoring lines, newest first: new ones flash their feature on the table and
        are said on the status bar; a new, loaded, undone or replayed game is listed afresh."""
        g = self.game
        fresh = g is not self._scored_game or self.scoring.count() > len(g.events)
        if fresh:
            self.scoring.clear()
        new = g.events[self.scoring.count():]
        for e in new:
            self._scoring_line(e)
            if not fresh and e.squares and not self.on_map:
                self.table.flash(e.squares, QColor(SEAT_COLOURS[e.seats[0]]) if e.seats else TARGET)
        if new and not fresh:
            said = [e.text for e in new if e.text]
            if said:
                self.status.emit("; ".join(said[-3:]))
        self._scored_game = g

    def _scoring_line(self, e: ScoreEvent) -> None:
        names = self.game.names
        when = "End" if e.final else f"Turn {e.turn + 1}"
        item = QListWidgetItem(f"{when} \u00b7 {e.describe(names)}")
        item.setData(Qt.UserRole, list(e.squares))
        item.setIcon(seat_icon(e.seats))      # who scored, by follower colour and number
        self.scoring.insertItem(0, item)

    def _scoring_clicked(self, item: QListWidgetItem) -> None:
        squares = item.data(Qt.UserRole) or []
        if squares and not self.on_map:
            self.table.flash([tuple(s) for s in squares], TARGET)

    # ---------------------------------------------------------------- the move log
    def _entry_square(self, entry) -> tuple[int, int] | None:
        """The square a logged move concerns: the tile it laid, the face-down tile it looked
        at or flipped, the town whose chip it took."""
        a = entry.action
        if type(a) is tuple:
            return a[:2]
        if type(a) in (Lay, Look, PlaceTurnedUp, TurnUp):
            return (a.x, a.y)
        if type(a) in (Follow, ChipDraw):        # on the tile laid first this turn
            m = self.replaying or self.match
            lay = next((e.action for e in reversed(m.log[:entry.index]) if type(e.action) is Lay), None)
            return (lay.x, lay.y) if lay is not None else None
        if type(a) is Reveal:
            m = self.replaying or self.match
            before = m.log[entry.index - 1].action if entry.index > 0 else None
            if type(before) is Look:             # a secret look: the square looked at (public)
                return (before.x, before.y)
            revealing = getattr(self.state_before(entry.index), "revealing", None)   # a flip
            return revealing[0] if revealing else None
        return None

    def highlight_entry(self, entry) -> None:
        """Frame the square of the hovered move in its player's colour (white for chance)."""
        pos = self._entry_square(entry) if entry is not None else None
        colour = QColor(self.seat_colour(entry.seat) if entry is not None and entry.seat >= 0 else "#ffffff")
        if self.on_map:
            if self.map_item is not None:
                self.map_item.set_highlight(pos, colour)
        else:
            self.table.show_highlight(pos, colour)
            if pos is not None:
                self.view.ensureVisible(self.table.square_rect(*pos), 20, 20)
        self.highlighted = pos

    # ---------------------------------------------------------------- the USA maps
    @property
    def on_map(self) -> bool:
        return self.game is not None and plays_on_map(self.game)

    def _show_board(self) -> None:
        """The open table in our own view, or a USA map on the shared board."""
        on_map = self.on_map
        self.view.setVisible(not on_map)
        self.board_slot.setVisible(on_map)
        self.btn_peek.setVisible(on_map)
        self.btn_back.setVisible(not on_map)
        self.btn_fit.setText("Show whole map" if on_map else "Show whole table")
        if self.map_item is not None and (not on_map or self.map_item.map is not self.game.map):
            self._detach_map()
            self.map_item = None
        if on_map and self.map_item is None:
            self.map_item = MapLayer(self.game.map)
            self.map_item.squareClicked.connect(self._map_clicked)
            self.map_item.squareHovered.connect(self._map_hovered)
        if self.active:
            self.board.show_callout_tabs(not on_map)   # the squares are clicked, not the states
        if on_map and self.active and self.map_item.scene() is None:
            self.board.layer(MAP_LAYER, 60).addToGroup(self.map_item)
            QTimer.singleShot(0, self, self._fit_view)     # once the board has its size

    def _detach_map(self) -> None:
        """Take the map's item off the shared board, which it only borrows: the mode owns the
        item (self.map_item). Left in the board's layer, it died with the layer when the board
        was handed to another game (reset_overlays), and the mode held a dead item."""
        item = self.map_item
        if item is not None and item.scene() is not None:
            group = item.parentItem()
            if group is not None:
                group.removeFromGroup(item)
            item.scene().removeItem(item)       # back in Python's hands (self.map_item)

    def _fit_view(self) -> None:
        """F / the button: the whole table, or the whole map's squares."""
        if not self.on_map:
            self.view.show_all(self._target_squares())
        elif self.map_item is not None and self.map_item.scene() is not None:
            b = self.board
            b.fit()
            r = self.map_item.grid_rect()
            # the squares as large as the viewport allows, measured in its pixels
            shown = b.mapFromScene(r).boundingRect()
            view = b.viewport().rect()
            if shown.width() > 0 and shown.height() > 0:
                b.zoom_by(min((view.width() - 2 * FIT_MARGIN) / shown.width(),
                              (view.height() - 2 * FIT_MARGIN) / shown.height()))
            b.centerOn(r.center())
            self._fitted_as = self._board_view()

    def _board_view(self) -> tuple:
        """The board's scale and scroll position: if they are still as the fit left them, nobody
        has zoomed or moved the map since (by wheel, keys, menu, pinch or drag)."""
        b = self.board
        return b.transform().m11(), b.horizontalScrollBar().value(), b.verticalScrollBar().value()

    def square_px(self) -> float:
        """How many screen pixels a square of the map takes now (0 off the maps)."""
        if not self.on_map or self.map_item is None:
            return 0.0
        return self.map_item.map.square_size * self.board.transform().m11()

    def eventFilter(self, watched, event) -> bool:
        """The shared board's viewport, while a map is shown: the map is fitted again whenever
        the window changes size, unless someone zoomed or moved it since it was fitted (their view
        stays). Seen before the board itself handles the resize, so the view is still as it was."""
        if watched is self.board.viewport() and event.type() == QEvent.Resize and self.on_map and self.active \
                and self._fitted_as is not None and self._fitted_as == self._board_view():
            QTimer.singleShot(0, self, self._fit_view)     # after the board has taken its new size
        return False

    def _zoom(self, factor: float) -> None:
        (self.board if self.on_map else self.view).zoom_by(factor)

    def _set_peek(self, on: bool) -> None:
        self.peek = on
        if self.on_map:
            self.refresh()

    def _map_clicked(self, x: int, y: int, point: QPointF) -> None:
        g = self.game
        if g is None or g.finished:
            return
        if not self.is_human_turn():
            self._not_now()
            return
        pos = (x, y)
        legal = g.legal_actions(g.current)
        if g.step == "lay":
            rot = self._lay_rot(pos)
            if rot is None:
                self.status.emit("That square holds a face-down tile." if pos in g.covert else
                                 "The tile does not fit there: click a gold square (next to the tiles, "
                                 "every edge matching).")
                return
            self.rot = rot
            self.act(Lay(x, y, self.rot))
        elif g.step == "look":
            if Look(x, y) not in legal:
                self.status.emit(f"Click a face-down tile with a {g.look_colour} outline to look at it.")
                return
            self.act(Look(x, y))
            if self.game.known.get(pos) and self.game.covert.get(pos) is not None:
                self.status.emit("You looked at the tile: hold “Hold to see your secret tiles” to see "
                                 "it again on your turns.")
        elif g.step == "flip":
            if pos == g.turned_up[1]:
                self.confirm_turn()
        elif g.step == "follow":
            if pos != g.first:
                self.status.emit("A follower may go only on the tile you laid first this turn (or none: Enter).")
                return
            options = g.follow_options()
            placed = g.placed[g.board[pos]]
            r = self.map_item.square_rect(pos)
            local = ((point.x() - r.x()) / r.width(), (point.y() - r.y()) / r.height())
            seg = segment_at(placed.tile, placed.rot, local)
            if seg in options:
                self.chosen = None if self.chosen == seg else seg
                self.refresh()

    def _map_hovered(self, pos) -> None:
        self.map_hover = pos
        if self.map_item is not None and self.game is not None and self.on_map:
            self.map_item.set_preview(self._map_preview())

    def _lay_rot(self, pos) -> int | None:
        """How the tile in hand would go on `pos` if clicked: as turned now if it fits so,
        else the next way round that fits; None where it does not fit."""
        g = self.game
        fits = [a.rot for a in g.legal_actions(g.current) if isinstance(a, Lay) and (a.x, a.y) == pos]
        if not fits:
            return None
        return next(r for r in ((self.rot + k) % 4 for k in range(4)) if r in fits)

    def _map_preview(self):
        """(square, tile, rot) of the tile in hand under the pointer over a square it fits."""
        g, pos = self.game, self.map_hover
        if pos is None or g.finished or g.step != "lay" or not self.is_human_turn() or self.replaying is not None:
            return None
        rot = self._lay_rot(pos)
        return None if rot is None else (pos, g.tiles[g.drawn], rot)

    def _refresh_map(self) -> None:
        g = self.game
        names = g.names
        human = self.is_human_turn()
        self._show_board()
        targets, other = set(), set()
        tile, hand_rot, caption, spots = None, 0, "", []
        if not g.finished and human:
            if g.step == "lay":
                tile = g.tiles[g.drawn]
                for pos in g.open:
                    fits = g.fits(tile, pos)
                    if fits:
                        (targets if self.rot in fits else other).add(pos)
                hand_rot = self.rot
            elif g.step == "look":
                targets = set(g.look_squares())
            elif g.step == "flip":
                t, pos = g.turned_up
                fits = g.fits(g.tiles[t], pos)
                if self.rot not in fits:
                    self.rot = fits[0]
                tile, hand_rot, caption, targets = g.tiles[t], self.rot, "flipped", {pos}
            elif g.step == "follow":
                p = g.placed[g.board[g.first]]
                tile, hand_rot, targets, spots = p.tile, p.rot, {g.first}, g.follow_options()
        elif g.step == "lay" and not g.finished:
            tile = g.tiles[g.drawn]
        if self.map_item is not None:
            known = any(g.current in k for k in g.known.values())
            self.map_item.update_from(g, targets, other, g.current if (self.peek and human and known) else None,
                                      self._last_tiles())
            self.map_item.set_preview(self._map_preview())
        if g.finished:
            self.hand.show_tile(None, 0, "game over")
        else:
            self.hand.show_tile(tile, hand_rot, caption, seat=g.current, spots=spots, chosen=self.chosen)
        self.tiles_label.setText(f"{g.stack} tile{'s' * (g.stack != 1)} left in the stack\n"
                                 f"{len(g.covert)} face down, {len(g.chip_towns)} chips on towns")
        if g.finished:
            self.turn_label.setText(self._game_over_text())
        else:
            self.turn_label.setText(f"{TITLES[g.conf.variant]}, turn {g.turn + 1}: {names[g.current]} "
                                    f"({SEAT_NAMES[g.current]})" + (" – thinking…" if self.thinking else ""))
            self.hint.setText(self._replay_hint() if self.replaying is not None else self._map_hint(human))
        self.btn_left.setEnabled(human and g.step in ("lay", "flip"))
        self.btn_right.setEnabled(human and g.step in ("lay", "flip"))
        self.btn_confirm.setEnabled(human and g.step in ("follow", "flip"))
        self.btn_peek.setEnabled(human and any(g.current in k for k in g.known.values()))
        self.btn_peek.setVisible(not g.finished)
        self._update_scores()

    def _map_hint(self, human: bool) -> str:
        g = self.game
        who = escape(g.names[g.current])
        if not human:
            return f"{who} {verb(g.names[g.current], 'is', 'are')} playing…"
        if g.step == "lay":
            return ("Click a gold square to lay the tile (solid: it fits turned as shown; dashed: turned another "
                    "way; R or the buttons turn it). A town gives its chip and a secret look; a tile next to a "
                    "face-down tile flips it: +2 if it fits, -2 if not.")
        if g.step == "look":
            colour, letter = g.look_colour, OUTLINE[g.look_colour][1]
            return (f"Click a face-down tile with a <b>{colour}</b> outline (marked {letter}) to look at it "
                    "secretly, anywhere on the map.")
        if g.step == "flip":
            return "The flipped tile fits its square: turn it with R if you like, then click it or press Enter."
        if self.chosen is not None:
            kind = FEATURE_WORDS[g.placed[g.board[g.first]].tile.segments[self.chosen].kind]
            return f"Your follower goes on the {kind}. Enter ends the turn; click it again to take it off."
        return ("Put a follower on the tile you laid first (click a pale spot on it or on the large tile), "
                "or end the turn without one (Enter). Flipped tiles take no follower.")

    # ---------------------------------------------------------------- help
    def help_html(self) -> str:
        """F1: the rules of the board being played first (a map's own rules, then the
        table's, which the maps build on)."""
        if self.on_map:
            playing = f"</h2>\n<p><b>This game is on {TITLES[self.game.conf.variant]}.</b></p>"
            return (MAPS_HELP.replace("</h2>", playing, 1) + "<hr>"
                    + TABLE_HELP.replace("<h2>Carcassonne on the open table</h2>",
                                         "<h2>The open table's rules, which the maps follow</h2>", 1))
        return TABLE_HELP + "<hr>" + MAPS_HELP


TABLE_HELP = """
<h2>Carcassonne on the open table</h2>
<p>Players take turns building a landscape of square tiles and placing their followers on it
to score roads, cities, cloisters and fields. The highest score when the tiles run out wins.</p>
<h3>A turn</h3>
<ol>
<li><b>Place the tile in hand.</b> It must touch a tile on the table along an edge, and every edge
it touches must continue what is there: city to city, road to road, field to field. Gold squares
show where it fits as it is turned now, dashed ones where it fits turned another way. Turn it with
<b>R</b> (Shift+R the other way), the buttons, or by clicking it. The mouse wheel zooms, as
everywhere else in Stateside.
A tile that fits nowhere is put out of the game and another one is drawn.</li>
<li><b>Put a follower on it, if you like.</b> Pale followers mark the features of the new tile that
may take one: a road, a city, a cloister, or a field (a farmer lies down). Point at one to see the
whole feature it would claim outlined on the table, with its size so far; click it (or press Space
to step through them) to put your follower there. You may not put a follower on a feature that
already has one anywhere along it, yours or not. Features that grow together later can end up
with several followers.</li>
<li><b>End the turn</b> with Enter. Until then Backspace takes the tile back.</li>
</ol>
<h3>Scoring as you go</h3>
<ul>
<li>A <b>road</b> is finished when both ends stop (at a city, a crossing, a cloister) or it closes in a
loop: 1 point per tile.</li>
<li>A <b>city</b> is finished when its walls close all round: 2 points per tile and 2 per blue pennant.</li>
<li>A <b>cloister</b> is finished when all eight squares around it hold tiles: 9 points.</li>
<li>Whoever has the most followers on a finished feature scores it; tied players each score it in full.
The followers on it go back to their owners. Farmers stay until the end.</li>
</ul>
<h3>At the end</h3>
<ul>
<li>Unfinished roads score 1 per tile, unfinished cities 1 per tile and pennant, cloisters 1 plus 1 per
neighbouring tile.</li>
<li>Each <b>field</b> scores 3 points for every finished city that borders it, to the player(s) with the
most farmers in it. Fields are scored one by one, so a city next to two of your fields counts twice.</li>
</ul>
<h3>Expansion tiles</h3>
<p>The Inns &amp; Cathedrals and Traders &amp; Builders tiles are in the game as tiles only: an inn
(a house by a pond), a cathedral or a trade good (grapes, a sheaf, a bolt of cloth) is drawn on the
tile but scores like a plain road or city. In a new game you may switch on two of their rules:
inns and cathedrals (a finished road with an inn scores 2 per tile, a finished city with a cathedral
3 per tile and pennant, but unfinished ones score nothing), and trade goods (whoever finishes a city
takes its goods; the most of each kind scores 10 at the end). The big follower, the builder and the
pig are not part of this version.</p>
<h3>Keys</h3>
<table cellspacing="0" cellpadding="2">
<tr><td><b>R</b> / <b>Shift+R</b></td><td>turn the tile clockwise / the other way</td></tr>
<tr><td><b>Space</b></td><td>step the follower through the free spots of the placed tile</td></tr>
<tr><td><b>Enter</b></td><td>end the turn</td></tr>
<tr><td><b>Backspace</b>, <b>Esc</b></td><td>take the placed tile back (before the turn ends)</td></tr>
<tr><td><b>Ctrl+Z</b></td><td>the same; with no tile placed, take back your last move while nobody else
has moved since</td></tr>
<tr><td><b>F</b></td><td>show the whole table</td></tr>
<tr><td><b>T</b></td><td>the tiles still to come, by type</td></tr>
<tr><td><b>+</b> / <b>-</b>, mouse wheel</td><td>zoom in / out; drag to move the table</td></tr>
<tr><td><b>Left</b> / <b>Right</b>, <b>Home</b> / <b>End</b>, <b>Esc</b></td><td>in a replay: step back /
forward, go to the start / the end, close the replay</td></tr>
</table>
<h3>Seats and the table</h3>
<p>Two to five seats, each a person or the computer (easy or hard), set in Game &rarr; New game,
with who starts (that player plays red); people share the screen and take their turns in order.
Nothing on the open table is hidden, so there is no hand-over screen there. Drag the table to move
it, zoom with the mouse wheel or +/-, press F to see it all. Each player's last tile is framed in
their colour with their number; a computer's tile stays on view, framed in its colour with its
follower, for a moment before its turn ends.</p>
<p>New game offers what was chosen last time (the first time: you and one computer); it asks before
a game in progress is thrown away. The <b>Moves</b> tab lists every move, the computers' included,
newest last, in the players' colours and in their words ("Ada laid a city-and-road tile two squares
east of the start tile, turned left, and placed a knight in the city": a follower is a knight in a city,
a thief on a road, a monk in a cloister, a farmer in a field): point at a line to see its tile framed \
on the table (click to keep it framed). The
<b>Scoring</b> tab lists every scoring; click one to see the feature. Game &rarr; Replay&hellip; (or
"Replay this game" at the end) steps through a finished or saved game on the same table.</p>
<p><i>Our design:</i> the tile drawings, symbols and follower figures are Stateside's own; the tile
contents follow the published tile lists of the three sets (see resources/carcassonne/SOURCES.md).</p>
"""

MAPS_HELP = """
<h2>Carcassonne Maps: USA West, USA East and USA (both maps)</h2>
<p>Choose the board in Game &rarr; New game. The tiles go on the squares of a grid laid over the map of
the states: only the squares marked on the map are playable (sea, the Great Lakes, Canada and Mexico
are not; Alaska and Hawaii are not on these maps). One map uses the base game and both expansions
(114 tiles); both maps together use two copies of each (228 tiles), and the half squares where the
maps meet become whole, playable squares.</p>
<ul>
<li><b>Setup:</b> a start tile (the base game's road-and-city tile) on each start square (2 per map), a
face-down tile on each outlined square (violet V, orange O, light blue B; 15 per map) and a face-down
chip on each town (15 per map).</li>
<li><b>1. Placing a tile</b> on a town takes its chip: you score its 1 or 2 points at once, the chip
leaves the game, and you secretly look at one face-down tile with the chip's outline colour, anywhere
on the map(s). Hold <i>Hold to see your secret tiles</i> on your turn to see the tiles you looked at;
let go before the next player takes the screen (once someone has looked, people at one
screen pass it on between turns). A tile laid next to a face-down tile flips it for
everyone: if it fits its square (turn it as you like) it is laid and you score 2; if not it leaves
the game and you lose 2 (scores may go below zero). Several are flipped one after the other.</li>
<li><b>2. A follower</b> may go only on the tile you laid first, never on a flipped tile.</li>
<li><b>3. Scoring:</b> everything the turn's tiles completed, flipped ones included, scores as usual.
The game ends when the stack is empty; face-down tiles still on the map score nothing.</li>
</ul>
<h3>On the map</h3>
<p>The map is fitted to the window when a game opens and whenever the window changes size, with the
squares as large as it allows; once you zoom (wheel, + or -) or drag, the view stays yours until you press
<b>F</b> (or <i>Show whole map</i>). Point at a gold or dashed square to see the tile in hand lying there
as a click would lay it. While you hold <i>Hold to see your secret tiles</i>, each tile you looked at is
shown twice the size of its square, over it. The Moves tab says where each tile went by the nearest
town ("south of Denver"); from the command line, <code>stateside --mode carcassonne --map usa-east</code>
opens a map game (usa-west, usa-east, usa or table).</p>
<p><i>Our design:</i> the grid, towns, start squares and outlined squares are ours, made from the
app's own map by a script (resources/carcassonne/maps/SOURCES.md), and so are the 30 map-chips
(10 per colour: six worth 1, four worth 2).</p>
"""
