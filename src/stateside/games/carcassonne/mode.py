"""Carcassonne on an open table: the Qt mode.

The open table does not use the map of the states: the shared board stays hidden in
its slot and our own TableView takes the space. The mode is a thin view over the
engine: it asks what fits where, places what the player clicks, and shows the
scoring as it happens. Computer seats think in a worker thread on a copy of the
game and play after a short visible delay.
"""
from __future__ import annotations

import random
import threading

from PySide6.QtCore import QObject, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeySequence, QPainter, QPen, QShortcut
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame,
                               QGridLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget)

from stateside.app.mode import AI_DELAY_MS, GameMode
from stateside.errors import SaveError, StatesideError

from .ai import make_player
from .engine import Game, ScoreEvent, Setup
from .shapes import segment_at
from .table import TableScene, TableView
from .tile_art import SEAT_COLOURS, SEAT_NAMES, paint_follower, paint_tile
from .tiles import K_CITY, K_CLOISTER, K_FIELD, K_ROAD, SET_NAMES, load_tile_set

KINDS = {"human": "Person", "easy": "Computer (easy)", "hard": "Computer (hard)"}
KIND_KEYS = list(KINDS)
PANEL_WIDTH = 310
OFF = -9999
FEATURE_WORDS = {K_CITY: "city", K_ROAD: "road", K_FIELD: "field (as a farmer)", K_CLOISTER: "cloister"}


class _Thinker(QObject):
    """Runs a computer player's choice off the GUI thread."""
    decided = Signal(int, object)

    def think(self, generation: int, bot, game: Game) -> None:
        def run():
            try:
                move = bot.choose(game)
            except Exception as e:     # reported on the GUI thread, never lost
                move = e
            self.decided.emit(generation, move)
        threading.Thread(target=run, daemon=True).start()


class HandWidget(QWidget):
    """The tile in hand, as it will be placed; click or wheel to turn it."""
    turned = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tile = None
        self.rot = 0
        self.caption = ""
        self.setFixedSize(QSize(120, 120))
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip("The tile to place. Click it, press R or turn the mouse wheel to turn it.")

    def show_tile(self, tile, rot: int, caption: str = "") -> None:
        self.tile, self.rot, self.caption = tile, rot, caption
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(6, 6, self.width() - 12, self.height() - 12)
        if self.tile is None:
            p.setPen(QPen(QColor("#b9b2a0"), 2, Qt.DashLine))
            p.drawRoundedRect(r, 6, 6)
            p.setPen(QColor("#7d7565"))
            p.drawText(r, Qt.AlignCenter | Qt.TextWordWrap, self.caption or "no tile")
            return
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(0, 0, 0, 50))
        p.drawRect(r.translated(3, 3))
        paint_tile(p, self.tile, self.rot, r)
        p.setPen(QPen(QColor("#4a4030"), 1.2))
        p.setBrush(Qt.NoBrush)
        p.drawRect(r)

    def mousePressEvent(self, event) -> None:
        self.turned.emit(-1 if event.button() == Qt.RightButton else 1)

    def wheelEvent(self, event) -> None:
        self.turned.emit(-1 if event.angleDelta().y() > 0 else 1)


class ScoreBoard(QWidget):
    """One row per seat: follower colour and number, name, score, followers at hand."""

    ROW = 34

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[tuple[str, str, int, int, int]] = []   # name, kind, score, supply, total
        self.current = -1
        self.winners: list[int] = []
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)

    def set_rows(self, rows, current: int, winners: list[int]) -> None:
        self.rows, self.current, self.winners = rows, current, winners
        self.setFixedHeight(self.ROW * max(1, len(rows)) + 4)
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        w = self.width()
        for i, (name, kind, score, supply, total) in enumerate(self.rows):
            top = 2 + i * self.ROW
            row = QRectF(0, top, w, self.ROW - 2)
            if i == self.current:
                p.setPen(QPen(QColor("#e0a100"), 2))
                p.setBrush(QColor("#fff3c4"))
                p.drawRoundedRect(row.adjusted(1, 1, -1, -1), 5, 5)
            paint_follower(p, QPointF(16, top + self.ROW / 2 - 1), 26, i)
            p.setPen(QColor("#222"))
            f = QFont(self.font())
            f.setBold(i == self.current or i in self.winners)
            p.setFont(f)
            label = name + (" \u2605" if i in self.winners else "")
            p.drawText(QRectF(34, top, w - 120, self.ROW / 2 + 2), Qt.AlignLeft | Qt.AlignBottom, label)
            small = QFont(self.font())
            small.setPointSizeF(max(7.0, self.font().pointSizeF() - 1.5))
            p.setFont(small)
            p.setPen(QColor("#6b6355"))
            p.drawText(QRectF(34, top + self.ROW / 2, w - 120, self.ROW / 2 - 2), Qt.AlignLeft | Qt.AlignTop,
                       f"{KINDS[kind]} \u00b7 {supply}/{total} followers")
            big = QFont(self.font())
            big.setPointSizeF(self.font().pointSizeF() + 4)
            big.setBold(True)
            p.setFont(big)
            p.setPen(QColor("#222"))
            p.drawText(QRectF(w - 80, top, 72, self.ROW - 2), Qt.AlignRight | Qt.AlignVCenter, str(score))


class SetupDialog(QDialog):
    """Seats (2-5, each a person or a computer), followers, tile sets and expansion rules."""

    def __init__(self, seats: list[dict], setup: Setup | None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New game of Carcassonne")
        lay = QVBoxLayout(self)
        grid = QGridLayout()
        grid.addWidget(QLabel("<b>Seat</b>"), 0, 0)
        grid.addWidget(QLabel("<b>Name</b>"), 0, 1)
        grid.addWidget(QLabel("<b>Played by</b>"), 0, 2)
        self.rows = []
        defaults = seats + [{"name": f"Player {i + 1}", "kind": "easy"} for i in range(len(seats), 5)]
        for i in range(5):
            on = QCheckBox(f"{i + 1} ({SEAT_NAMES[i]})")
            on.setChecked(i < len(seats))
            on.setEnabled(i >= 2)
            name = QLineEdit(defaults[i]["name"])
            name.setMaxLength(16)
            kind = QComboBox()
            kind.addItems([KINDS[k] for k in KIND_KEYS])
            kind.setCurrentIndex(KIND_KEYS.index(defaults[i]["kind"]))
            for w in (name, kind):
                w.setEnabled(on.isChecked())
                on.toggled.connect(w.setEnabled)
            grid.addWidget(on, i + 1, 0)
            grid.addWidget(name, i + 1, 1)
            grid.addWidget(kind, i + 1, 2)
            self.rows.append((on, name, kind))
        lay.addLayout(grid)
        form = QFormLayout()
        self.followers = QSpinBox()
        self.followers.setRange(1, 12)
        self.followers.setValue(setup.followers if setup else 7)
        form.addRow("Followers each:", self.followers)
        lay.addLayout(form)
        self.sets = {}
        chosen = setup.sets if setup else list(SET_NAMES)
        for name in SET_NAMES:
            ts = load_tile_set(name)
            box = QCheckBox(f"{ts.title.replace('&', '&&')} ({ts.size} tiles)")
            box.setChecked(name in chosen or name == "base")
            box.setEnabled(name != "base")
            self.sets[name] = box
            lay.addWidget(box)
        self.inns = QCheckBox("Score inns and cathedrals by their expansion rules")
        self.inns.setChecked(bool(setup and setup.inns_cathedrals))
        self.goods = QCheckBox("Trade goods: 10 points per majority at the end")
        self.goods.setChecked(bool(setup and setup.goods))
        lay.addWidget(self.inns)
        lay.addWidget(self.goods)
        note = QLabel("Without these two, expansion tiles play as plain roads and cities.")
        note.setStyleSheet("color: #6b6355;")
        lay.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def choice(self) -> tuple[Setup, list[dict]]:
        seats = [{"name": name.text().strip() or f"Player {i + 1}", "kind": KIND_KEYS[kind.currentIndex()]}
                 for i, (on, name, kind) in enumerate(self.rows) if on.isChecked()]
        setup = Setup(players=[s["name"] for s in seats], seed=random.randrange(1 << 30),
                      followers=self.followers.value(),
                      sets=[n for n in SET_NAMES if self.sets[n].isChecked()],
                      inns_cathedrals=self.inns.isChecked(), goods=self.goods.isChecked())
        return setup, seats


class CarcassonneMode(GameMode):
    game_id = "carcassonne"
    title = "Carcassonne"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.board_slot.hide()        # the open table does not use the map
        self.game: Game | None = None
        self.seats: list[dict] = []
        self.bots: dict[int, object] = {}
        self.rot = 0                   # how the tile in hand is turned
        self.chosen: int | None = None  # follower spot picked on the placed tile
        self.hover: tuple[int, int] | None = None
        self.generation = 0            # bumped whenever a computer's pending answer becomes stale
        self.thinking = False
        self.active = False
        self.ai_delay_ms = AI_DELAY_MS     # tests set it to 0
        self.thinker = _Thinker(self)
        self.thinker.decided.connect(self._computer_decided)
        self.ai_timer = QTimer(self, singleShot=True, timeout=self._computer_think)
        self.show_timer = QTimer(self, singleShot=True, timeout=self._finish_turn)   # a computer's move on view
        self._build()
        self.start_game(Setup(players=["You", "Computer"], seed=random.randrange(1 << 30)),
                        [{"name": "You", "kind": "human"}, {"name": "Computer", "kind": "easy"}])

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        self.scene = TableScene(self)
        self.table = self.scene.layer
        self.view = TableView(self.scene, self)
        self.view.squareHovered.connect(self._hovered)
        self.view.squareClicked.connect(self._clicked)
        self.view.wheelTurned.connect(self.turn_tile)

        panel = QFrame(self)
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(PANEL_WIDTH)
        side = QVBoxLayout(panel)
        side.setContentsMargins(12, 10, 12, 10)
        side.setSpacing(6)
        self.turn_label = QLabel()
        self.turn_label.setWordWrap(True)
        self.turn_label.setStyleSheet("font-size: 15px; font-weight: bold; color: #1d3557;")
        side.addWidget(self.turn_label)

        hand_row = QHBoxLayout()
        self.hand = HandWidget()
        self.hand.turned.connect(self.turn_tile)
        hand_row.addWidget(self.hand)
        turn_col = QVBoxLayout()
        self.btn_left = QPushButton("\u27f2 Turn left")
        self.btn_left.setToolTip("Turn the tile counter-clockwise (Shift+R)")
        self.btn_left.clicked.connect(lambda: self.turn_tile(-1))
        self.btn_right = QPushButton("Turn right \u27f3")
        self.btn_right.setToolTip("Turn the tile clockwise (R, or the mouse wheel over the table)")
        self.btn_right.clicked.connect(lambda: self.turn_tile(1))
        self.tiles_label = QLabel()
        self.tiles_label.setStyleSheet("color: #6b6355;")
        self.tiles_label.setWordWrap(True)
        turn_col.addWidget(self.btn_left)
        turn_col.addWidget(self.btn_right)
        turn_col.addWidget(self.tiles_label)
        turn_col.addStretch(1)
        hand_row.addLayout(turn_col)
        side.addLayout(hand_row)

        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setMinimumHeight(48)
        self.hint.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.hint.setStyleSheet("background: #fffdf6; border: 1px solid #e2dccd; border-radius: 4px; padding: 5px;")
        side.addWidget(self.hint)

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
        side.addLayout(actions)

        side.addSpacing(4)
        side.addWidget(self._heading("Scores"))
        self.scoreboard = ScoreBoard()
        side.addWidget(self.scoreboard)
        side.addWidget(self._heading("Scoring, newest first"))
        self.log = QListWidget()
        self.log.setWordWrap(True)
        self.log.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.log.setToolTip("Click an entry to see the feature on the table")
        self.log.itemClicked.connect(self._log_clicked)
        self.log.setStyleSheet("QListWidget { background: #fffdf6; border: 1px solid #e2dccd; }"
                               "QListWidget::item { padding: 3px 2px; border-bottom: 1px solid #efe9da; }")
        side.addWidget(self.log, 1)
        bottom = QHBoxLayout()
        self.btn_new = QPushButton("New game\u2026")
        self.btn_new.clicked.connect(self.new_game)
        self.btn_fit = QPushButton("Show whole table")
        self.btn_fit.setToolTip("Fit the table in view (F). Drag to move it, Ctrl+wheel or +/- to zoom.")
        self.btn_fit.clicked.connect(lambda: self.view.show_all(self._target_squares()))
        bottom.addWidget(self.btn_new)
        bottom.addWidget(self.btn_fit)
        side.addLayout(bottom)

        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.view, 1)
        lay.addWidget(panel)

        for keys, slot in (("R", lambda: self.turn_tile(1)), ("Shift+R", lambda: self.turn_tile(-1)),
                           ("Return", self.confirm_turn), ("Enter", self.confirm_turn),
                           ("Backspace", self.take_back), ("Escape", self.take_back),
                           ("F", lambda: self.view.show_all(self._target_squares())),
                           ("+", lambda: self.view.zoom_by(1.2)), ("-", lambda: self.view.zoom_by(1 / 1.2))):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)

    @staticmethod
    def _heading(text: str) -> QLabel:
        label = QLabel(text)
        label.setStyleSheet("font-weight: bold; color: #5a5140; margin-top: 4px;")
        return label

    # ---------------------------------------------------------------- games
    def start_game(self, setup: Setup, seats: list[dict], game: Game | None = None) -> None:
        self.generation += 1
        self.ai_timer.stop()
        self.show_timer.stop()
        self.thinking = False
        self.game = game or Game(setup)
        self.seats = seats
        self.bots = {i: make_player(s["kind"], seed=self.game.setup.seed + i)
                     for i, s in enumerate(seats) if s["kind"] != "human"}
        self.rot = 0
        self.chosen = None
        self.table.clear()
        self.log.clear()
        for e in self.game.events:
            self._log_event(e)
        self.refresh()
        self.view.show_all(self._target_squares())
        self._next_turn()
        self.changed.emit()

    def new_game(self) -> None:
        dialog = SetupDialog(self.seats, self.game.setup if self.game else None, self)
        if dialog.exec() == QDialog.Accepted:
            setup, seats = dialog.choice()
            try:
                self.start_game(setup, seats)
            except StatesideError as e:
                self.status.emit(str(e))

    def save_state(self) -> dict | None:
        if self.game is None:
            return None
        return {"game": self.game.to_json(), "seats": [dict(s) for s in self.seats]}

    def load_state(self, state: dict) -> None:
        if not isinstance(state, dict) or not isinstance(state.get("seats"), list):
            raise SaveError("not a Carcassonne save (no seats)")
        game = Game.from_json(state.get("game"))
        seats = []
        for i, s in enumerate(state["seats"]):
            if not isinstance(s, dict) or s.get("kind") not in KINDS:
                raise SaveError(f"Carcassonne save: seat {i + 1} is malformed")
            seats.append({"name": str(s.get("name", f"Player {i + 1}")), "kind": s["kind"]})
        if len(seats) != game.n:
            raise SaveError(f"Carcassonne save: {len(seats)} seats for {game.n} players")
        self.start_game(game.setup, seats, game)

    def can_undo(self) -> bool:
        return bool(self.game and self.game.pending is not None and self._human_to_move())

    def undo(self) -> None:
        self.take_back()

    def on_activate(self) -> None:
        self.active = True
        QTimer.singleShot(0, self.view.setFocus)
        if self._human_to_move():
            self.status.emit(f"{self.game.setup.players[self.game.current]} to play: click a gold square "
                             "to place the tile (R or the wheel turns it). Help → Rules explains the game.")
        self._next_turn()

    def on_deactivate(self) -> None:
        self.active = False
        self.ai_timer.stop()
        if self.thinking:             # the answer will be stale; ask again on return
            self.generation += 1
            self.thinking = False
        if self.show_timer.isActive():   # a computer's tile on view: end its turn now
            self.show_timer.stop()
            self._finish_turn()

    # ---------------------------------------------------------------- turn flow
    def _human_to_move(self) -> bool:
        g = self.game
        return bool(g and not g.finished and self.seats[g.current]["kind"] == "human")

    def _next_turn(self) -> None:
        g = self.game
        if g is None or g.finished or not self.active or self.thinking:
            return
        if not self._human_to_move() and not self.ai_timer.isActive() and g.pending is None:
            self.ai_timer.start(self.ai_delay_ms)

    def _computer_think(self) -> None:
        g = self.game
        if g is None or g.finished or self._human_to_move() or not self.active:
            return
        self.thinking = True
        self.refresh()
        self.thinker.think(self.generation, self.bots[g.current], g.clone(history=False))

    def _computer_decided(self, generation: int, move) -> None:
        if generation != self.generation:
            return
        self.thinking = False
        if isinstance(move, Exception):
            self.status.emit(f"The computer player failed: {move}")
            return
        x, y, rot, seg = move
        self.game.place(x, y, rot)
        self.chosen = seg if seg >= 0 else None
        self.refresh()
        # Let people see the tile and follower before the turn ends.
        self.show_timer.start(self.ai_delay_ms)

    def turn_tile(self, step: int) -> None:
        g = self.game
        if not self._human_to_move():
            return
        if g.pending is not None:
            # Turn the placed tile in place, among the ways it fits there.
            x, y, rot = g.pending
            fits = g.fits(g.tiles[g.drawn], (x, y))
            if len(fits) < 2:
                self.status.emit("The tile fits this square only one way.")
                return
            i = fits.index(rot)
            new = fits[(i + step) % len(fits)]
            g.undo_placement()
            g.place(x, y, new)
            self.rot = new
            self.chosen = None
        else:
            self.rot = (self.rot + step) % 4
        self.refresh()
        if g.pending is None and self.hover is not None:
            self._hovered(*self.hover, QPointF())

    def _clicked(self, x: int, y: int, point: QPointF) -> None:
        g = self.game
        if not self._human_to_move():
            if g and not g.finished:
                self.status.emit(f"{self.seats[g.current]['name']} is playing; wait for your turn.")
            return
        tile = g.tiles[g.drawn]
        if g.pending is not None:
            px, py, prot = g.pending
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
            if g.fits(tile, (x, y)):
                g.undo_placement()
                self.chosen = None
            else:
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
        g.place(x, y, self.rot)
        self.chosen = None
        self.table.hide_preview()
        self.refresh()
        self.changed.emit()

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
        if not self._human_to_move():
            self.table.hide_preview()
            return
        tile = g.tiles[g.drawn]
        if g.pending is None:
            if self.hover is None or (x, y) in g.board or not g.fits(tile, (x, y)) and (x, y) not in g.open:
                self.table.hide_preview()
                return
            self.table.show_preview(tile, self.rot, (x, y), self.rot in g.fits(tile, (x, y)))
        elif x != OFF:
            px, py, prot = g.pending
            options = g.follower_options(px, py, prot)
            seg = self.table.segment_under(tile, prot, (px, py), point, options)
            self.table.show_segment(tile, prot, (px, py), seg)

    def take_back(self) -> None:
        g = self.game
        if g is None or g.pending is None or not self._human_to_move():
            return
        g.undo_placement()
        self.chosen = None
        self.refresh()
        self.changed.emit()

    def confirm_turn(self) -> None:
        g = self.game
        if g is None or g.pending is None or not self._human_to_move():
            if g is not None and g.pending is None and self._human_to_move():
                self.status.emit("Place the tile first: click a highlighted square.")
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        g = self.game
        seat = g.current
        try:
            events = g.confirm(-1 if self.chosen is None else self.chosen)
        except StatesideError as e:
            self.status.emit(str(e))
            return
        self.chosen = None
        self.rot = 0
        for e in events:
            self._log_event(e)
            if e.squares:
                self.table.flash(e.squares, QColor(SEAT_COLOURS[e.seats[0]]) if e.seats else QColor("#ffb300"))
        if events:
            self.status.emit("; ".join(e.describe(g.setup.players) for e in events[-3:]))
        elif seat is not None:
            self.status.emit(f"{g.setup.players[seat]} placed a tile.")
        self.refresh()
        self.view.ensure_shown(self._target_squares())
        self.changed.emit()
        self._next_turn()

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
        names = g.setup.players
        self.table.sync_tiles(g.placed)
        self.table.sync_followers([(seat, pos, g.placed[g.board[pos]].tile, g.placed[g.board[pos]].rot, seg)
                                   for seat, pos, seg in g.followers_on_board()])
        human = self._human_to_move()
        tile = g.tiles[g.drawn] if g.drawn is not None else None
        if g.pending is not None and tile is not None:
            x, y, rot = g.pending
            options = g.follower_options(x, y, rot) if human else []
            shown = options if human else ([self.chosen] if self.chosen is not None else [])
            self.table.show_pending(tile, rot, (x, y), g.current, shown, self.chosen)
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
            best = max(g.scores)
            win = [names[i] for i in g.winners()]
            self.turn_label.setText(("Game over: " + " and ".join(win) + (" win" if len(win) > 1 else " wins")
                                     + f" with {best} points"))
            self.hand.show_tile(None, 0, "game over")
            self.hint.setText("Final scoring is in the list below: unfinished roads, cities and cloisters, "
                              "then the fields. Start a new game from the button below or Game \u2192 New game.")
        else:
            who = names[g.current]
            colour = SEAT_NAMES[g.current]
            self.turn_label.setText(f"Turn {g.turn + 1}: {who} ({colour})")
            shown_rot = g.pending[2] if g.pending is not None else self.rot
            self.hand.show_tile(tile, shown_rot)
            if not human:
                self.hint.setText(f"{who} is thinking\u2026" if g.pending is None else f"{who} places this tile.")
            elif g.pending is None:
                self.hint.setText("Click a highlighted square to place the tile. Solid gold: it fits turned as "
                                  "shown; dashed: it fits turned another way. Turn it with R, the wheel or the buttons.")
            else:
                x, y, rot = g.pending
                opts = g.follower_options(x, y, rot)
                if self.chosen is not None:
                    kind = FEATURE_WORDS[tile.segments[self.chosen].kind]
                    self.hint.setText(f"A follower goes on the {kind}. Click it again to remove it. "
                                      "End the turn with Enter, or take the tile back with Backspace.")
                elif opts:
                    self.hint.setText("Click a pale follower to put one on that feature, or end the turn "
                                      "without one (Enter). Backspace takes the tile back; R turns it in place.")
                else:
                    why = "you have no followers left" if g.supply[g.current] == 0 else "every feature is taken"
                    self.hint.setText(f"No follower can go on this tile ({why}). End the turn with Enter.")
        self.btn_left.setEnabled(human)
        self.btn_right.setEnabled(human)
        self.btn_confirm.setEnabled(human and g.pending is not None)
        self.btn_back.setEnabled(human and g.pending is not None)
        rows = [(names[i], self.seats[i]["kind"], g.scores[i], g.supply[i], g.setup.followers) for i in range(g.n)]
        self.scoreboard.set_rows(rows, -1 if g.finished else g.current, g.winners() if g.finished else [])

    def _log_event(self, e: ScoreEvent) -> None:
        names = self.game.setup.players
        when = "End" if e.final else f"Turn {e.turn + 1}" if e.kind != "goods" else "End"
        item = QListWidgetItem(f"{when} \u00b7 {e.describe(names)}")
        item.setData(Qt.UserRole, list(e.squares))
        if e.seats:
            item.setForeground(QColor("#222"))
            swatch = QColor(SEAT_COLOURS[e.seats[0]])
            swatch.setAlpha(40)
            item.setBackground(swatch)
        self.log.insertItem(0, item)

    def _log_clicked(self, item: QListWidgetItem) -> None:
        squares = item.data(Qt.UserRole) or []
        if squares:
            self.table.flash([tuple(s) for s in squares], QColor("#ffb300"))

    # ---------------------------------------------------------------- help
    def help_html(self) -> str:
        return HELP_HTML


HELP_HTML = """
<h2>Carcassonne on the open table</h2>
<p>Players take turns building a landscape of square tiles and placing their followers on it
to score roads, cities, cloisters and fields. The highest score when the tiles run out wins.</p>
<h3>A turn</h3>
<ol>
<li><b>Place the tile in hand.</b> It must touch a tile on the table along an edge, and every edge
it touches must continue what is there: city to city, road to road, field to field. Gold squares
show where it fits as it is turned now, dashed ones where it fits turned another way. Turn it with
<b>R</b> (Shift+R the other way), the mouse wheel over the table, the buttons, or by clicking it.
A tile that fits nowhere is put out of the game and another one is drawn.</li>
<li><b>Put a follower on it, if you like.</b> Pale followers mark the features of the new tile that
may take one: a road, a city, a cloister, or a field (a farmer lies down). You may not put a
follower on a feature that already has one anywhere along it, yours or not. Features that grow
together later can end up with several followers.</li>
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
<h3>Seats and the table</h3>
<p>Two to five seats, each a person or the computer (easy or hard); people share the screen and take
their turns in order. Nothing in this game is hidden, so there is no hand-over screen. Drag the table
to move it, zoom with Ctrl+wheel or +/-, press F to see it all. Click a scoring line to see that
feature on the table.</p>
<p><i>Our design:</i> the tile drawings, symbols and follower figures are Stateside's own; the tile
contents follow the published tile lists of the three sets (see resources/carcassonne/SOURCES.md).</p>
"""
