"""Carcassonne on an open table: the Qt mode.

The open table does not use the map of the states: the shared board stays hidden in
its slot and our own TableView takes the space. The mode is a thin view over the
engine, driven through a stateside.engine.match.Match: it asks what fits where, keeps
the tile the player has put down (the preview, turned and moved at will) until the turn
ends, then hands the engine the whole move, and shows the scoring as it happens.
Computer seats think in a worker thread on their observation and play after a short
visible delay.
"""
from __future__ import annotations

import random
import threading
import time
from html import escape

from PySide6.QtCore import QLineF, QObject, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QKeySequence, QPainter, QPen, QPixmap, QShortcut
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame,
                               QGridLayout, QHBoxLayout, QLabel, QLineEdit, QListView, QListWidget, QListWidgetItem,
                               QPushButton, QScrollArea, QSizePolicy, QSpinBox, QVBoxLayout, QWidget)

from stateside.app.mode import AI_DELAY_MS, GameMode
from stateside.engine.match import AI_PREFIX, HUMAN, Match, seat_rng_seed
from stateside.errors import IllegalActionError, SaveError, StatesideError

from .engine import Game, PlaceTurnedUp, ScoreEvent, Setup
from .map_items import OUTLINE, MapLayer
from .maps import TITLES
from .shapes import rotate_point, segment_at, tile_shape
from .table import TableScene, TableView
from .tile_art import SEAT_COLOURS, SEAT_NAMES, paint_follower, paint_tile, tile_paths, tile_transform
from .tiles import K_CITY, K_CLOISTER, K_FIELD, K_ROAD, SET_NAMES, TileType, load_tile_set, tile_by_id
from .usa import Follow, Lay, Look, MapGame

KINDS = {"human": "Person", "easy": "Computer (easy)", "hard": "Computer (hard)"}
KIND_KEYS = list(KINDS)
PANEL_WIDTH = 310
OFF = -9999
FEATURE_WORDS = {K_CITY: "city", K_ROAD: "road", K_FIELD: "field (as a farmer)", K_CLOISTER: "cloister"}


def seat_icon(seats) -> QIcon:
    """The followers of `seats` side by side (a tie shows each), for the scoring list."""
    pix = QPixmap(34, 20)
    pix.fill(Qt.transparent)
    p = QPainter(pix)
    step = 0 if len(seats) < 2 else min(12.0, 22.0 / (len(seats) - 1))
    for i, seat in enumerate(seats):
        paint_follower(p, QPointF(6 + i * step, 10), 18, seat)
    p.end()
    icon = QIcon(pix)
    icon.addPixmap(pix, QIcon.Selected)     # keep the seat colours on a selected line
    return icon


class _Thinker(QObject):
    """Runs a computer player's choice off the GUI thread; decided sends (action, ms) or
    the exception. One choice at a time: a stale one still running is waited for, since
    a player keeps its own copy of the game between choices."""
    decided = Signal(int, object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.busy = threading.Lock()

    def think(self, generation: int, player, seed: str, observation: dict, legal: list) -> None:
        def run():
            with self.busy:
                player.rng.seed(seed)
                start = time.perf_counter()
                try:
                    result = (player.choose(observation, legal), (time.perf_counter() - start) * 1000)
                except Exception as e:     # reported on the GUI thread, never lost
                    result = e
            try:
                self.decided.emit(generation, result)
            except RuntimeError:       # the window closed while the computer thought
                pass
        threading.Thread(target=run, daemon=True).start()


class HandWidget(QWidget):
    """The tile in hand, as it will be placed; click it to turn it. Once it is on the
    table it also shows the free follower spots, large: point at one to see what it claims,
    click it to choose it (the same as on the table)."""
    turned = Signal(int)
    spotHovered = Signal(object)     # segment index or None
    spotClicked = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tile = None
        self.rot = 0
        self.caption = ""
        self.seat = 0
        self.spots: list[int] = []
        self.chosen: int | None = None
        self.hover: int | None = None
        self.setFixedSize(QSize(120, 120))
        self.setMouseTracking(True)
        self.setCursor(Qt.PointingHandCursor)
        self._tip()

    def _tip(self) -> None:
        self.setToolTip("The placed tile: click a pale follower to put one there; R or the buttons turn the tile."
                        if self.spots else
                        "The tile to place. Click it, press R or use the buttons to turn it.")

    def show_tile(self, tile, rot: int, caption: str = "", seat: int = 0, spots=(), chosen=None,
                  hover=None) -> None:
        self.tile, self.rot, self.caption = tile, rot, caption
        self.seat, self.spots, self.chosen, self.hover = seat, list(spots), chosen, hover
        self._tip()
        self.update()

    def _rect(self) -> QRectF:
        return QRectF(6, 6, self.width() - 12, self.height() - 12)

    def _spot_point(self, seg: int) -> QPointF:
        r = self._rect()
        ax, ay = rotate_point(tile_shape(self.tile).segments[seg].anchor, self.rot)
        return QPointF(r.x() + ax * r.width(), r.y() + ay * r.height())

    def spot_at(self, pos: QPointF) -> int | None:
        """The free spot under `pos`: the nearest follower within reach, else the feature's area."""
        if self.tile is None or not self.spots:
            return None
        r = self._rect()
        near = [(QLineF(pos, self._spot_point(seg)).length(), seg) for seg in self.spots]
        d, seg = min(near)
        if d <= r.width() * 0.13:
            return seg
        seg = segment_at(self.tile, self.rot, ((pos.x() - r.x()) / r.width(), (pos.y() - r.y()) / r.height()))
        return seg if seg in self.spots else None

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = self._rect()
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
        shown = self.hover if self.hover is not None else self.chosen
        if shown is not None and shown in self.spots:
            path = tile_transform(r, self.rot).map(tile_paths(self.tile).hit[shown])
            fill = QColor("#ffb300")
            fill.setAlpha(70)
            p.setPen(QPen(QColor("#ffb300"), 2.5))
            p.setBrush(fill)
            p.drawPath(path)
        for seg in self.spots:
            at = self._spot_point(seg)
            lying = self.tile.segments[seg].kind == K_FIELD
            if seg == self.chosen:
                paint_follower(p, at, r.width() * 0.3, self.seat, lying=lying)
            else:
                p.setPen(QPen(QColor(255, 255, 255, 220), 1.5))
                p.setBrush(QColor(255, 255, 255, 120))
                p.drawEllipse(at, r.width() * 0.12, r.width() * 0.12)
                paint_follower(p, at, r.width() * 0.22, self.seat, lying=lying, ghost=True)

    def mousePressEvent(self, event) -> None:
        seg = self.spot_at(event.position()) if event.button() == Qt.LeftButton else None
        if seg is not None:
            self.spotClicked.emit(seg)
        else:
            self.turned.emit(-1 if event.button() == Qt.RightButton else 1)

    def mouseMoveEvent(self, event) -> None:
        seg = self.spot_at(event.position())
        if seg != self.hover:
            self.spotHovered.emit(seg)

    def leaveEvent(self, event) -> None:
        if self.hover is not None:
            self.spotHovered.emit(None)


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
        self.setToolTip("\n".join(f"{name}: {supply} of {total} followers at hand, {score} points"
                                   for name, kind, score, supply, total in rows))
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
            # The followers at hand, one small figure each (the rest are out on the table), so
            # the supply reads at a glance; then who plays the seat.
            step = min(10.0, 90.0 / max(1, total))
            for k in range(supply):
                paint_follower(p, QPointF(39 + k * step, top + self.ROW * 0.74), 10, i)
            small = QFont(self.font())
            small.setPointSizeF(max(7.0, self.font().pointSizeF() - 1.5))
            p.setFont(small)
            p.setPen(QColor("#6b6355"))
            left = 36 + total * step + 4
            p.drawText(QRectF(left, top + self.ROW / 2, w - 44 - left, self.ROW / 2 - 2), Qt.AlignLeft | Qt.AlignTop,
                       f"{supply} \u00b7 {KINDS.get(kind, 'Computer')}")
            big = QFont(self.font())
            big.setPointSizeF(self.font().pointSizeF() + 4)
            big.setBold(True)
            p.setFont(big)
            p.setPen(QColor("#222"))
            p.drawText(QRectF(w - 80, top, 72, self.ROW - 2), Qt.AlignRight | Qt.AlignVCenter, str(score))


def unseen_tiles(g: Game) -> dict[int, int]:
    """Tile index -> how many nobody has seen face up: the stack, and on the USA maps the
    face-down tiles too (which of them someone looked at stays their secret)."""
    unseen = dict(g.deck)
    for t in getattr(g, "covert", {}).values():
        if t is not None:
            unseen[t] = unseen.get(t, 0) + 1
    return unseen


class TileCountsWidget(QWidget):
    """Every tile type of the game, drawn small, with how many are still to come."""
    CELL, GAP, LINE = 44, 8, 16

    def __init__(self, parent=None):
        super().__init__(parent)
        self.entries: list[tuple[TileType, int]] = []

    def set_counts(self, entries: list[tuple[TileType, int]]) -> None:
        self.entries = entries
        cols = self.columns()
        rows = (len(entries) + cols - 1) // cols
        self.setMinimumHeight(rows * (self.CELL + self.LINE + self.GAP) + self.GAP)
        self.update()

    def columns(self) -> int:
        return max(1, (self.width() - self.GAP) // (self.CELL + self.GAP))

    def resizeEvent(self, event) -> None:
        self.set_counts(self.entries)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        cols = self.columns()
        for k, (tile, n) in enumerate(self.entries):
            x = self.GAP + (k % cols) * (self.CELL + self.GAP)
            y = self.GAP + (k // cols) * (self.CELL + self.LINE + self.GAP)
            p.setOpacity(1.0 if n else 0.25)       # none left: faded, still there to compare
            paint_tile(p, tile, 0, QRectF(x, y, self.CELL, self.CELL))
            p.setOpacity(1.0)
            p.setPen(QColor("#222" if n else "#9a927f"))
            p.drawText(QRectF(x - 4, y + self.CELL, self.CELL + 8, self.LINE), Qt.AlignCenter, f"×{n}")


class TilesLeftDialog(QDialog):
    """The "Tiles to come" button (T): the remaining tiles by type, kept up to date."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Tiles to come")
        self.resize(470, 560)
        lay = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.counts = TileCountsWidget()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.counts)
        lay.addWidget(scroll, 1)

    def show_game(self, g: Game) -> None:
        by_id = tile_by_id()
        unseen = unseen_tiles(g)
        kinds = sorted({by_id[t.id].index for name in g.conf.sets for t in load_tile_set(name).tiles})
        entries = [(g.tiles[i], unseen.get(i, 0)) for i in kinds]
        self.counts.set_counts(entries)
        total = sum(unseen.values())
        where = " (the stack and the face-down tiles)" if hasattr(g, "covert") else ""
        self.summary.setText(f"{total} tile{'s' * (total != 1)} not seen yet{where}, by type; "
                             f"{sum(1 for _, n in entries if n)} of {len(entries)} types still to come.")


AUTO_NAMES = {"", "You", "Computer"}


def default_name(seat: int, kind: str) -> str:
    """The name a seat gets until someone types one."""
    if kind == HUMAN:
        return "You" if seat == 0 else f"Player {seat + 1}"
    return "Computer" if seat == 1 else f"Computer {seat + 1}"


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
        defaults = seats + [{"name": default_name(i, "easy"), "kind": "easy"} for i in range(len(seats), 5)]
        for i in range(5):
            on = QCheckBox(f"{i + 1} ({SEAT_NAMES[i]})")
            on.setChecked(i < len(seats))
            on.setEnabled(i >= 2)
            name = QLineEdit(defaults[i]["name"])
            name.setMaxLength(16)
            kind = QComboBox()
            kind.addItems([KINDS[k] for k in KIND_KEYS])
            kind.setCurrentIndex(KIND_KEYS.index(defaults[i]["kind"]) if defaults[i]["kind"] in KINDS else 1)
            for w in (name, kind):
                w.setEnabled(on.isChecked())
                on.toggled.connect(w.setEnabled)
            kind.currentIndexChanged.connect(lambda index, i=i, name=name: self._kind_changed(i, name, index))
            grid.addWidget(on, i + 1, 0)
            grid.addWidget(name, i + 1, 1)
            grid.addWidget(kind, i + 1, 2)
            self.rows.append((on, name, kind))
        lay.addLayout(grid)
        form = QFormLayout()
        self.variant = QComboBox()
        for key, title in TITLES.items():
            self.variant.addItem(title, key)
        self.variant.setCurrentIndex(list(TITLES).index(setup.variant) if setup else 0)
        self.variant.setToolTip("Table: the open table. USA West, USA East, USA: Carcassonne Maps, on the map "
                                "of the states, with towns, chips and face-down tiles (114 tiles, 228 with both)")
        form.addRow("Board:", self.variant)
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

        def board_changed():
            table = self.variant.currentData() == "table"
            for name, box in self.sets.items():
                box.setEnabled(table and name != "base")
        self.variant.currentIndexChanged.connect(board_changed)
        board_changed()
        note = QLabel("Without these two, expansion tiles play as plain roads and cities.")
        note.setStyleSheet("color: #6b6355;")
        lay.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    @staticmethod
    def _kind_changed(i: int, name: QLineEdit, index: int) -> None:
        """A name left at its default follows the seat: a computer is never called "You"."""
        if name.text().strip() in AUTO_NAMES | {f"Player {i + 1}", f"Computer {i + 1}"}:
            name.setText(default_name(i, KIND_KEYS[index]))

    def choice(self) -> tuple[Setup, list[dict]]:
        seats = []
        for i, (on, name, kind) in enumerate(self.rows):
            if on.isChecked():
                key = KIND_KEYS[kind.currentIndex()]
                text = name.text().strip()
                if not text or (key != HUMAN and text == "You"):
                    text = default_name(i, key)
                seats.append({"name": text, "kind": key})
        variant = self.variant.currentData()
        sets = [n for n in SET_NAMES if self.sets[n].isChecked()] if variant == "table" else list(SET_NAMES)
        setup = Setup(players=[s["name"] for s in seats], followers=self.followers.value(), sets=sets,
                      inns_cathedrals=self.inns.isChecked(), goods=self.goods.isChecked(), variant=variant)
        return setup, seats


class CarcassonneMode(GameMode):
    game_id = "carcassonne"
    title = "Carcassonne"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.board_slot.hide()        # the open table does not use the map
        self.match: Match | None = None
        self.seats: list[dict] = []        # {"name", "kind"} per seat, kind as in KINDS
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
        self.active = False
        self.ai_delay_ms = AI_DELAY_MS     # tests set it to 0
        self.thinker = _Thinker(self)
        self.thinker.decided.connect(self._computer_decided)
        self.ai_timer = QTimer(self, singleShot=True, timeout=self._computer_think)
        self.show_timer = QTimer(self, singleShot=True, timeout=self._finish_turn)   # a computer's move on view
        self.map_item: MapLayer | None = None   # the USA maps, drawn on the shared board
        self.peek = False                  # the secret looks shown (while the button is held)
        self._build()
        self.start_game(Setup(players=["You", "Computer"]),
                        [{"name": "You", "kind": "human"}, {"name": "Computer", "kind": "easy"}])

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        self.scene = TableScene(self)
        self.table = self.scene.layer
        self.view = TableView(self.scene, self)
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
        side.addLayout(hand_row)

        self.hint = QLabel()
        self.hint.setTextFormat(Qt.RichText)     # names in it are escaped
        self.hint.setWordWrap(True)
        # room for four lines, so the buttons below do not jump as the hint changes
        self.hint.setMinimumHeight(4 * self.hint.fontMetrics().lineSpacing() + 14)
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
        side.addWidget(self._heading("Scoring, newest first"))
        self.log = QListWidget()
        self.log.setWordWrap(True)
        self.log.setResizeMode(QListView.Adjust)     # re-wrap the lines when the width settles
        self.log.setIconSize(QSize(34, 20))
        self.log.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.log.setToolTip("Click an entry to see the feature on the table")
        self.log.itemClicked.connect(self._log_clicked)
        self.log.setStyleSheet("QListWidget { background: #fffdf6; border: 1px solid #e2dccd; }"
                               "QListWidget::item { padding: 3px 0px; border-bottom: 1px solid #efe9da; }"
                               # the style's white selected text was invisible on the pale background
                               "QListWidget::item:selected { background: #ffe8a3; color: #1d1d1d; }")
        side.addWidget(self.log, 1)
        bottom = QHBoxLayout()
        self.btn_new = QPushButton("New game\u2026")
        self.btn_new.clicked.connect(self.new_game)
        self.btn_fit = QPushButton("Show whole table")
        self.btn_fit.setToolTip("Fit the table in view (F). Drag to move it, the mouse wheel or +/- to zoom.")
        self.btn_fit.clicked.connect(self._fit_view)
        bottom.addWidget(self.btn_new)
        bottom.addWidget(self.btn_fit)
        side.addLayout(bottom)

        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.board_slot, 1)
        lay.addWidget(panel)

        for keys, slot in (("R", lambda: self.turn_tile(1)), ("Shift+R", lambda: self.turn_tile(-1)),
                           ("Return", self.confirm_turn), ("Enter", self.confirm_turn),
                           ("Backspace", self.take_back), ("Escape", self.take_back),
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
    def game(self) -> Game | None:
        return self.match.state if self.match is not None else None

    def start_game(self, setup: Setup, seats: list[dict], seed: int | None = None) -> None:
        """A new match; `seed` decides its draws and the computers' choices (random when None)."""
        specs = [HUMAN if s["kind"] == HUMAN else AI_PREFIX + s["kind"] for s in seats]
        seed = random.randrange(1 << 30) if seed is None else seed
        self.start_match(Match(Game, specs, seed, setup.to_json()))

    def start_match(self, match: Match) -> None:
        self.match = match
        self.seats = [{"name": name, "kind": spec[len(AI_PREFIX):] if spec.startswith(AI_PREFIX) else spec}
                      for name, spec in zip(match.names, match.seats)]
        self._show_match()
        self.view.show_all(self._target_squares())
        if self.active:
            self._announce()
        self._next_turn()
        self.changed.emit()

    def _show_match(self) -> None:
        """Draw the match afresh (a new game, a loaded one, or after an undo)."""
        self._show_board()
        self.generation += 1
        self.ai_timer.stop()
        self.show_timer.stop()
        self.thinking = False
        self.match.resolve_chance()
        self.pending = self.computer_move = None
        self.rot = 0
        self.chosen = None
        self.table.clear()
        self.log.clear()
        for e in self.game.events:
            self._log_event(e)
        self.refresh()

    def new_game(self) -> None:
        dialog = SetupDialog(self.seats, self.game.conf if self.game else None, self)
        if dialog.exec() == QDialog.Accepted:
            setup, seats = dialog.choice()
            try:
                self.start_game(setup, seats)
            except (ValueError, StatesideError) as e:
                self.status.emit(str(e))

    def save_state(self) -> dict | None:
        return None if self.match is None else self.match.to_json()

    def load_state(self, state: dict) -> None:
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError("not a Carcassonne save")
        match = Match.from_json(state, "the Carcassonne save")
        if any(spec != HUMAN and spec[len(AI_PREFIX):] not in KINDS for spec in match.seats):
            raise SaveError(f"the Carcassonne save has seats this table does not offer: {', '.join(match.seats)}")
        self.start_match(match)

    def _undo_point(self) -> int | None:
        """Where the person who acted last may take their move back: only while nobody
        else has acted since (the match's fair undo)."""
        m = self.match
        seat = next((e.seat for e in reversed(m.log) if e.seat >= 0), None) if m else None
        return m.fair_undo_point(seat) if seat is not None and m.is_human(seat) else None

    def can_undo(self) -> bool:
        return bool(self.pending is not None and self._human_to_move()) or self._undo_point() is not None

    def undo(self) -> None:
        """Take back the tile put down this turn; with none, the last move of the person
        who moved last, while nobody else has moved since."""
        if self.pending is not None and self._human_to_move():
            self.take_back()
            return
        n = self._undo_point()
        if n is None:
            return
        self.match.undo_to(n)
        self._show_match()
        self._announce()
        self.changed.emit()

    def on_activate(self) -> None:
        self.active = True
        self._show_board()
        QTimer.singleShot(0, self.view.setFocus)
        self._announce()
        self._next_turn()

    def _announce(self) -> None:
        """Say on the status bar whose turn it is (or how the game ended)."""
        g = self.game
        if g is None:
            return
        if g.finished:
            self.status.emit(self.turn_label.text() + ". Game \u2192 New game starts another.")
        elif self._human_to_move():
            self.status.emit(f"{g.names[g.current]} to play: click a gold square to place the tile "
                             "(R or the buttons turn it). Help \u2192 Rules explains the game.")
        else:
            self.status.emit(f"{g.names[g.current]} (the computer) is playing.")

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
        return bool(g and g.current_player() >= 0 and self.match.is_human(g.current))

    def _next_turn(self) -> None:
        g = self.game
        if g is None or g.finished or not self.active or self.thinking:
            return
        if not self._human_to_move() and not self.ai_timer.isActive() and self.computer_move is None:
            self.ai_timer.start(self.ai_delay_ms)

    def _computer_think(self) -> None:
        g = self.game
        if g is None or g.finished or self._human_to_move() or not self.active:
            return
        m = self.match
        seat = g.current
        self.thinking = True
        self.refresh()
        # What Match.decide does, with the choice itself off the GUI thread.
        self.thinker.think(self.generation, m.players[seat], seat_rng_seed(m.seed, seat, len(m.log)),
                           g.observation(seat), g.legal_actions(seat))

    def _computer_decided(self, generation: int, result) -> None:
        if generation != self.generation:
            return
        self.thinking = False
        if isinstance(result, Exception):
            self.status.emit(f"The computer player failed: {result}")
            return
        action, ms = result
        if type(action) is not tuple:      # not a tile from the hand: nothing to show first
            self._play(action, ms)
            return
        x, y, rot, seg = action
        self.pending = (x, y, rot)
        self.chosen = seg if seg >= 0 else None
        self.computer_move = result
        self.refresh()
        # Let people see the tile and follower before the turn ends.
        self.show_timer.start(self.ai_delay_ms)

    def turn_tile(self, step: int) -> None:
        g = self.game
        if not self._human_to_move():
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
        if not self._human_to_move():
            if g and not g.finished:
                self.status.emit(f"{self.seats[g.current]['name']} is playing; wait for your turn.")
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
        if not self._human_to_move():
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
        if g.finished:
            self.hand.show_tile(None, 0, "game over")
            return
        tile = g.tiles[g.drawn]
        if self.pending is None:
            self.hand.show_tile(tile, self.rot)
            return
        human = self._human_to_move()
        spots = g.follower_options(*self.pending) if human else [s for s in [self.chosen] if s is not None]
        self.hand.show_tile(tile, self.pending[2], seat=g.current, spots=spots, chosen=self.chosen,
                            hover=self.hover_seg if human else None)

    def _show_claim(self) -> None:
        """Outline the feature the hovered (or chosen) follower spot claims, and say what it is."""
        g = self.game
        if g is not None and self._hover_on != self.pending:    # the tile moved or turned under the pointer
            self.hover_seg = None
        seg = self.hover_seg if self.hover_seg is not None else self.chosen
        if g is None or self.pending is None or seg is None or not self._human_to_move():
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
            if g.step == "follow" and self._human_to_move():
                self.chosen = None if self.chosen == seg else seg
                self.refresh()
            return
        if g is None or self.pending is None or not self._human_to_move():
            return
        self.chosen = None if self.chosen == seg else seg
        self.refresh()

    def cycle_follower(self) -> None:
        """Space: step the follower through the free spots of the placed tile, then none."""
        g = self.game
        if not self._human_to_move():
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
        if self.on_map or self.pending is None or not self._human_to_move():
            return
        self.pending = None
        self.chosen = None
        self.refresh()
        self.changed.emit()

    def confirm_turn(self) -> None:
        if self.on_map:
            g = self.game
            if not self._human_to_move():
                return
            if g.step == "follow":
                self._play(Follow(-1 if self.chosen is None else self.chosen))
            elif g.step == "flip":
                t, (x, y) = g.turned_up
                fits = g.fits(g.tiles[t], (x, y))
                self._play(PlaceTurnedUp(x, y, self.rot if self.rot in fits else fits[0]))
            else:
                self.status.emit("Click a highlighted square first.")
            return
        if self.pending is None or not self._human_to_move():
            if self.game is not None and self.pending is None and self._human_to_move():
                self.status.emit("Place the tile first: click a highlighted square.")
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        """End the turn on view: the computer's decided move, or the person's tile and follower."""
        if self.computer_move is not None:
            self._play(*self.computer_move)
        else:
            x, y, rot = self.pending
            self._play((x, y, rot, -1 if self.chosen is None else self.chosen))

    def _play(self, action, ms: float | None = None) -> None:
        """Hand the engine one whole action, then draw the next tile (chance)."""
        m = self.match
        seat = m.state.current
        try:
            entries = [m.apply(action, ms)]
        except IllegalActionError as e:
            self.status.emit(str(e))
            return
        entries += m.resolve_chance()
        self.pending = self.computer_move = None
        self.chosen = None
        self.rot = 0
        events = [e for entry in entries for e in entry.events]
        for e in events:
            if isinstance(e, ScoreEvent):
                self._log_event(e)
                if e.squares:
                    self.table.flash(e.squares, QColor(SEAT_COLOURS[e.seats[0]]) if e.seats else QColor("#ffb300"))
        said = [e.text for e in events if e.text]
        self.status.emit("; ".join(said[-3:]) if said else f"{m.names[seat]} placed a tile.")
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
        if self.on_map:
            self._refresh_map()
            return
        names = g.names
        self.table.sync_tiles(g.placed)
        self.table.sync_followers([(seat, pos, g.placed[g.board[pos]].tile, g.placed[g.board[pos]].rot, seg)
                                   for seat, pos, seg in g.followers_on_board()])
        human = self._human_to_move()
        tile = g.tiles[g.drawn] if g.drawn is not None else None
        if self.pending is not None and tile is not None:
            x, y, rot = self.pending
            self.table.px_per_unit = self.view.transform().m11()
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
            best = max(g.points)
            win = [names[i] for i in g.winners()]
            self.turn_label.setText(("Game over: " + " and ".join(win) + (" win" if len(win) > 1 else " wins")
                                     + f" with {best} points"))
        else:
            who = names[g.current]
            colour = SEAT_NAMES[g.current]
            self.turn_label.setText(f"Turn {g.turn + 1}: {who} ({colour})"
                                    + (" \u2013 thinking\u2026" if self.thinking else ""))
        self._update_hand()
        if g.actions:      # frame the tile placed last, in its player's colour
            self.table.show_last(g.actions[-1][:2], QColor(SEAT_COLOURS[(g.turn - 1) % g.n]))
        else:
            self.table.show_last(None)
        if self.pending is None:
            self.hover_seg = None
            self._set_hint()
        else:
            self._show_claim()
        self.btn_left.setEnabled(human)
        self.btn_right.setEnabled(human)
        self.btn_confirm.setEnabled(human and self.pending is not None)
        self.btn_back.setEnabled(human and self.pending is not None)
        rows = [(names[i], self.seats[i]["kind"], g.points[i], g.supply[i], g.conf.followers) for i in range(g.n)]
        self.scoreboard.set_rows(rows, -1 if g.finished else g.current, g.winners() if g.finished else [])
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
        """The line that tells the person what to do now (or what the computer is doing)."""
        g = self.game
        if g.finished:
            self.hint.setText(self._breakdown() + "<span style='color:#6b6355'>Every scoring is in the list "
                              "below; click one to see it on the table.</span>")
            return
        who = escape(g.names[g.current])
        tile = g.tiles[g.drawn]
        if not self._human_to_move():
            if self.pending is None:
                self.hint.setText(f"{who} is thinking\u2026")
            elif self.chosen is not None:
                kind = FEATURE_WORDS[tile.segments[self.chosen].kind]
                self.hint.setText(f"{who} places the tile framed in gold, with a follower on the {kind}.")
            else:
                self.hint.setText(f"{who} places the tile framed in gold, without a follower.")
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

    def _breakdown(self) -> str:
        """A small table of each player's points by kind of feature, for the end of the game."""
        g = self.game
        kinds = [("road", "Roads"), ("city", "Cities"), ("cloister", "Cloisters"), ("field", "Fields")]
        if isinstance(g, MapGame):
            kinds += [("chip", "Chips"), ("flip", "Flips")]
        if g.conf.goods:
            kinds.append(("goods", "Goods"))
        per = [dict.fromkeys((k for k, _ in kinds), 0) for _ in range(g.n)]
        for e in g.events:
            for seat in e.seats:
                per[seat][e.kind] += e.points
        # Kinds down, players across: five players fit the panel, where eight kinds did not
        # (the Total column was cut off). When the names do not fit their columns, the heads
        # are the seat numbers, as on the followers in the scores below.
        fm = self.hint.fontMetrics()
        label_w = max(fm.horizontalAdvance(w) for _, w in kinds + [("", "Total")]) + 8
        col_w = (PANEL_WIDTH - 24 - 16 - label_w) // g.n - 6     # panel and hint margins, cell padding
        bold = QFont(self.hint.font())
        bold.setBold(True)
        fits = all(QFontMetrics(bold).horizontalAdvance(name) <= col_w for name in g.names)
        cell = "<td align='right' style='padding: 0 3px'>{}</td>"
        head = "".join(cell.format(f"<span style='color:{QColor(SEAT_COLOURS[i]).darker(130).name()}'><b>"
                                   f"{escape(g.names[i]) if fits else i + 1}</b></span>")
                       for i in range(g.n))
        rows = ["<tr><td></td>" + head + "</tr>"]
        for k, w in kinds:
            rows.append(f"<tr><td><i>{w}</i></td>" + "".join(cell.format(per[i][k]) for i in range(g.n)) + "</tr>")
        rows.append("<tr><td><b>Total</b></td>" + "".join(cell.format(f"<b>{g.points[i]}</b>") for i in range(g.n))
                    + "</tr>")
        return "<table cellspacing='0'>" + "".join(rows) + "</table>"

    def _log_event(self, e: ScoreEvent) -> None:
        names = self.game.names
        when = "End" if e.final else f"Turn {e.turn + 1}"
        item = QListWidgetItem(f"{when} \u00b7 {e.describe(names)}")
        item.setData(Qt.UserRole, list(e.squares))
        item.setIcon(seat_icon(e.seats))      # who scored, by follower colour and number
        self.log.insertItem(0, item)

    def _log_clicked(self, item: QListWidgetItem) -> None:
        squares = item.data(Qt.UserRole) or []
        if squares:
            self.table.flash([tuple(s) for s in squares], QColor("#ffb300"))

    # ---------------------------------------------------------------- the USA maps
    @property
    def on_map(self) -> bool:
        return isinstance(self.game, MapGame)

    def _show_board(self) -> None:
        """The open table in our own view, or a USA map on the shared board."""
        on_map = self.on_map
        self.view.setVisible(not on_map)
        self.board_slot.setVisible(on_map)
        self.btn_peek.setVisible(on_map)
        self.btn_back.setVisible(not on_map)
        self.btn_fit.setText("Show whole map" if on_map else "Show whole table")
        item = self.map_item
        if item is not None and (not on_map or item.map is not self.game.map or item.scene() is None):
            if item.scene() is not None:
                item.scene().removeItem(item)
            self.map_item = None
        if on_map and self.active and self.map_item is None:
            self.map_item = MapLayer(self.game.map)
            self.map_item.squareClicked.connect(self._map_clicked)
            self.board.layer("carcassonne-map", 60).addToGroup(self.map_item)
            QTimer.singleShot(0, self._fit_view)     # once the board has its size

    def _fit_view(self) -> None:
        """F / the button: the whole table, or the whole map's squares."""
        if not self.on_map:
            self.view.show_all(self._target_squares())
        elif self.map_item is not None:
            b = self.board
            b.fit()
            r, m = self.map_item.sceneBoundingRect(), b.map_rect()
            b.zoom_by(0.97 * min(m.width() / r.width(), m.height() / r.height()))
            b.centerOn(r.center())

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
        if not self._human_to_move():
            self.status.emit(f"{self.seats[g.current]['name']} is playing; wait for your turn.")
            return
        pos = (x, y)
        legal = g.legal_actions(g.current)
        if g.step == "lay":
            fits = [a.rot for a in legal if (a.x, a.y) == pos]
            if not fits:
                self.status.emit("That square holds a face-down tile." if pos in g.covert else
                                 "The tile does not fit there: click a gold square (next to the tiles, "
                                 "every edge matching).")
                return
            if self.rot not in fits:
                self.rot = next(r for r in ((self.rot + k) % 4 for k in range(4)) if r in fits)
            self._play(Lay(x, y, self.rot))
        elif g.step == "look":
            if Look(x, y) not in legal:
                self.status.emit(f"Click a face-down tile with a {g.look_colour} outline to look at it.")
                return
            self._play(Look(x, y))
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

    def _refresh_map(self) -> None:
        g = self.game
        names = g.names
        human = self._human_to_move()
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
            last = None
            if g.placed and len(g.placed) > len(g.map.starts):
                last = (g.placed[-1].pos, QColor(SEAT_COLOURS[(g.turn - (0 if g.first else 1)) % g.n]))
            known = any(g.current in k for k in g.known.values())
            self.map_item.update_from(g, targets, other, g.current if (self.peek and human and known) else None, last)
        if g.finished:
            self.hand.show_tile(None, 0, "game over")
        else:
            self.hand.show_tile(tile, hand_rot, caption, seat=g.current, spots=spots, chosen=self.chosen)
        self.tiles_label.setText(f"{g.stack} tile{'s' * (g.stack != 1)} left in the stack\n"
                                 f"{len(g.covert)} face down, {len(g.chip_towns)} chips on towns")
        if g.finished:
            win = [names[i] for i in g.winners()]
            self.turn_label.setText("Game over: " + " and ".join(win) + (" win" if len(win) > 1 else " wins")
                                    + f" with {max(g.points)} points")
            self.hint.setText(self._breakdown())
        else:
            self.turn_label.setText(f"{TITLES[g.conf.variant]}, turn {g.turn + 1}: {names[g.current]} "
                                    f"({SEAT_NAMES[g.current]})" + (" – thinking…" if self.thinking else ""))
            self.hint.setText(self._map_hint(human))
        self.btn_left.setEnabled(human and g.step in ("lay", "flip"))
        self.btn_right.setEnabled(human and g.step in ("lay", "flip"))
        self.btn_confirm.setEnabled(human and g.step in ("follow", "flip"))
        self.btn_peek.setEnabled(human and any(g.current in k for k in g.known.values()))
        rows = [(names[i], self.seats[i]["kind"], g.points[i], g.supply[i], g.conf.followers) for i in range(g.n)]
        self.scoreboard.set_rows(rows, -1 if g.finished else g.current, g.winners() if g.finished else [])
        self._update_tiles_left()

    def _map_hint(self, human: bool) -> str:
        g = self.game
        who = escape(g.names[g.current])
        if not human:
            return f"{who} is playing…"
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
</table>
<h3>Seats and the table</h3>
<p>Two to five seats, each a person or the computer (easy or hard); people share the screen and take
their turns in order. Nothing in this game is hidden, so there is no hand-over screen. Drag the table
to move it, zoom with the mouse wheel or +/-, press F to see it all. Click a scoring line to see that
feature on the table. The tile placed last is framed in its player's colour, and the computer's
tile stays on view, framed in gold with its follower, for a moment before its turn ends.</p>
<p><i>Our design:</i> the tile drawings, symbols and follower figures are Stateside's own; the tile
contents follow the published tile lists of the three sets (see resources/carcassonne/SOURCES.md).</p>
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
let go before the next player takes the screen. A tile laid next to a face-down tile flips it for
everyone: if it fits its square (turn it as you like) it is laid and you score 2; if not it leaves
the game and you lose 2 (scores may go below zero). Several are flipped one after the other.</li>
<li><b>2. A follower</b> may go only on the tile you laid first, never on a flipped tile.</li>
<li><b>3. Scoring:</b> everything the turn's tiles completed, flipped ones included, scores as usual.
The game ends when the stack is empty; face-down tiles still on the map score nothing.</li>
</ul>
<p><i>Our design:</i> the grid, towns, start squares and outlined squares are ours, made from the
app's own map by a script (resources/carcassonne/maps/SOURCES.md), and so are the 30 map-chips
(10 per colour: six worth 1, four worth 2).</p>
"""
