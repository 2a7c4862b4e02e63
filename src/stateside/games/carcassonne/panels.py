"""The Carcassonne mode's own panels (Qt): the tile in hand with its follower spots, the
scores with each player's followers at hand, the tiles still to come by type, the final
points by kind as a ScoreTable, and the game's rows of the shared setup screen."""
from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from stateside.app.setup_screen import SeatChoice, SetupScreen
from stateside.app.turns import ScoreTable
from stateside.board.plain import literal
from stateside.engine.match import AI_PREFIX, HUMAN

from .engine import Game, Setup
from .maps import TITLES
from .shapes import rotate_point, segment_at, tile_shape
from .tile_art import SEAT_COLOURS, paint_follower, paint_tile, tile_paths, tile_transform
from .tiles import K_FIELD, SET_NAMES, TileType, load_tile_set, tile_by_id

KINDS = {"human": "Person", "easy": "Computer (easy)", "hard": "Computer (hard)"}
KIND_KEYS = list(KINDS)


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
        self.setToolTip(literal("\n".join(f"{name}: {supply} of {total} followers at hand, {score} points"
                                           for name, kind, score, supply, total in rows)))
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


def plays_on_map(g: Game) -> bool:
    """A game on a USA map (its setup says so), not on the open table."""
    return g.conf.variant != "table"


def unseen_tiles(g: Game) -> dict[int, int]:
    """Tile index -> how many nobody has seen face up: the stack, and on the USA maps the
    face-down tiles too (which of them someone looked at stays their secret)."""
    unseen = dict(g.deck)
    for t in (g.covert if plays_on_map(g) else {}).values():
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
        where = " (the stack and the face-down tiles)" if plays_on_map(g) else ""
        self.summary.setText(f"{total} tile{'s' * (total != 1)} not seen yet{where}, by type; "
                             f"{sum(1 for _, n in entries if n)} of {len(entries)} types still to come.")


AUTO_NAMES = {"", "You", "Computer"}


def default_name(seat: int, kind: str) -> str:
    """The name a seat gets until someone types one."""
    if kind == HUMAN:
        return "You" if seat == 0 else f"Player {seat + 1}"
    return "Computer" if seat == 1 else f"Computer {seat + 1}"


def is_auto_name(seat: int, name: str) -> bool:
    return name.strip() in AUTO_NAMES | {f"Player {seat + 1}", f"Computer {seat + 1}"}


def board_options(setup: Setup | None):
    """The setup screen's rows for Carcassonne: the board, followers, tile sets and the
    expansions' rules (an OptionsBuilder of app.setup_screen)."""
    def build(form: QFormLayout):
        variant = QComboBox()
        for key, title in TITLES.items():
            variant.addItem(title, key)
        variant.setCurrentIndex(list(TITLES).index(setup.variant) if setup else 0)
        variant.setToolTip("Table: the open table. USA West, USA East, USA: Carcassonne Maps, on the map "
                           "of the states, with towns, chips and face-down tiles (114 tiles, 228 with both)")
        form.addRow("Board:", variant)
        followers = QSpinBox()
        followers.setRange(1, 12)
        followers.setValue(setup.followers if setup else 7)
        form.addRow("Followers each:", followers)
        sets = {}
        chosen = setup.sets if setup else list(SET_NAMES)
        for name in SET_NAMES:
            ts = load_tile_set(name)
            box = QCheckBox(f"{ts.title.replace('&', '&&')} ({ts.size} tiles)")
            box.setChecked(name in chosen or name == "base")
            sets[name] = box
            form.addRow("Tiles:" if name == SET_NAMES[0] else "", box)
        inns = QCheckBox("Score inns and cathedrals by their expansion rules")
        inns.setChecked(bool(setup and setup.inns_cathedrals))
        goods = QCheckBox("Trade goods: 10 points per majority at the end")
        goods.setChecked(bool(setup and setup.goods))
        form.addRow("Expansions:", inns)
        form.addRow("", goods)
        note = QLabel("Without these two, expansion tiles play as plain roads and cities.")
        note.setStyleSheet("color: #6b6355;")
        form.addRow("", note)

        def board_changed():
            table = variant.currentData() == "table"   # a map sets its own tiles
            for name, box in sets.items():
                box.setEnabled(table and name != "base")
        variant.currentIndexChanged.connect(board_changed)
        board_changed()
        form.carcassonne = (variant, sets)   # for the tests

        def read() -> dict:
            v = variant.currentData()
            return {"variant": v, "followers": followers.value(),
                    "sets": [n for n in SET_NAMES if sets[n].isChecked()] if v == "table" else list(SET_NAMES),
                    "inns_cathedrals": inns.isChecked(), "goods": goods.isChecked()}
        return read
    return build


def setup_screen(seats: list[dict], conf: Setup | None, parent: QWidget | None = None) -> SetupScreen:
    """The shared setup screen with the board, tile sets and expansion rules added; a
    name left at its default follows the seat's kind, so a computer is never "You"."""
    choices = [SeatChoice(s["name"], HUMAN if s["kind"] == HUMAN else AI_PREFIX + s["kind"]) for s in seats]
    choices += [SeatChoice(default_name(i, "easy"), AI_PREFIX + "easy") for i in range(len(choices), 5)]
    dialog = SetupScreen(Game.spec, "Carcassonne", choices, colours=list(SEAT_COLOURS),
                         default_names=[default_name(i, "easy" if i else HUMAN) for i in range(5)],
                         options=board_options(conf), parent=parent)
    for i, (name, kind) in enumerate(zip(dialog.names, dialog.kind_boxes)):
        kind.currentIndexChanged.connect(
            lambda _, i=i, name=name, kind=kind: is_auto_name(i, name.text())
            and name.setText(default_name(i, kind.currentData().removeprefix(AI_PREFIX))))
    dialog.count.setValue(len(seats))     # the rows past them are ready, not chosen
    return dialog


def chosen_seats(dialog: SetupScreen) -> list[dict]:
    """The seats in playing order (whoever starts is seat 1 and plays red)."""
    seats = []
    for i, choice in enumerate(dialog.seats()):
        kind = choice.kind.removeprefix(AI_PREFIX)
        name = choice.name if not (kind != HUMAN and choice.name == "You") else default_name(i, kind)
        seats.append({"name": name, "kind": kind})
    first = dialog.first()
    return seats[first:] + seats[:first]


# ------------------------------------------------------------------------ the final scores
def score_kinds(g: Game) -> list[tuple[str, str]]:
    """The kinds of points this game can give: (event kind, column head)."""
    kinds = [("road", "Roads"), ("city", "Cities"), ("cloister", "Cloisters"), ("field", "Fields")]
    if plays_on_map(g):
        kinds += [("chip", "Chips"), ("flip", "Flips")]
    if g.conf.goods:
        kinds.append(("goods", "Goods"))
    return kinds


def points_by_kind(g: Game) -> list[dict]:
    per = [dict.fromkeys((k for k, _ in score_kinds(g)), 0) for _ in range(g.n)]
    for e in g.events:
        for seat in e.seats:
            per[seat][e.kind] += e.points
    return per


def final_table(g: Game) -> tuple[list[str], list[list]]:
    """Each player's points by kind of feature, and the total (the score dialog)."""
    kinds, per = score_kinds(g), points_by_kind(g)
    return (["Player"] + [w for _, w in kinds] + ["Total"],
            [[g.names[i]] + [per[i][k] for k, _ in kinds] + [g.points[i]] for i in range(g.n)])


def fill_final_scores(table: ScoreTable, g: Game, width: int) -> None:
    """The same points in the side panel (`width` wide), kinds down and players across:
    five players fit, where eight kinds did not (the Total column was cut off). When the
    names do not fit their columns, the heads are the seat numbers, as on the followers."""
    kinds, per = score_kinds(g), points_by_kind(g)
    fm = table.fontMetrics()
    label_w = max(fm.horizontalAdvance(w) for _, w in kinds + [("", "Total")]) + 16
    col_w = (width - label_w - 6) // g.n - 14      # cell padding
    bold = QFont(table.font())
    bold.setBold(True)
    fits = all(QFontMetrics(bold).horizontalAdvance(name) <= col_w for name in g.names)
    heads = [name if fits else str(i + 1) for i, name in enumerate(g.names)]
    rows = [[w] + [per[i][k] for i in range(g.n)] for k, w in kinds]
    rows.append(["Total"] + list(g.points))
    table.set_table([""] + heads, rows, winners={len(rows) - 1})
    for i in range(g.n):
        head = table.horizontalHeaderItem(i + 1)
        head.setForeground(QColor(SEAT_COLOURS[i]).darker(130))
        head.setToolTip(literal(g.names[i]))
    table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeToContents)
    for c in range(1, g.n + 1):
        table.horizontalHeader().setSectionResizeMode(c, QHeaderView.Stretch)
