"""BoardView: the shared, clickable map of the 50 states. It knows no game.

Games colour states, put tokens on them, draw paths between them and add overlay
layers, and listen to `stateClicked`. Small eastern states get callout tabs in the
Atlantic so that every state has a comfortable click target.
"""
from __future__ import annotations

import itertools
import math
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPointF, QRectF, QTimer, Signal

# Only what the map's first paint needs at the top (PySide6 sets up each class on first
# use, up to a millisecond each): the others are imported where they are used.
from PySide6.QtGui import QColor, QCursor, QPainter, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsScene, QGraphicsView, QWidget
from shiboken6 import isValid

from stateside.board.items import (
    INSET_FRAME,
    LABEL_BOLD,
    LABEL_FAMILY,
    LABEL_POINTS,
    SEA,
    STATE_COLOURS,
    TOKEN_SIZE,
    CalloutTab,
    MarkRing,
    PathItem,
    StateItem,
    TokenItem,
    code_path,
    known_code_paths,
    polygons_path,
)
from stateside.board.qt_lazy import SCROLL_BAR_ALWAYS_OFF, STRONG_FOCUS, Qt, pen, solid
from stateside.paths import resource

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QGraphicsItemGroup, QLabel

    from stateside.board.motion import Motion

# Small states drawn with a callout tab, as printed boards do: roughly north to south, in
# the order in which no two leader lines cross (found once by trying every order; RI before
# MA and DE before MD because their label points lie east of their neighbours').
CALLOUT_STATES = ("VT", "NH", "RI", "CT", "MA", "NJ", "DE", "MD")
TAB_W, TAB_H, TAB_GAP = 40.0, 32.0, 5.0
TAB_LEFT = 972.0
TAB_TOP = 150.0
# Hawaii's islands are small: its click target is the sea around them too.
SEA_TARGET_STATES = ("HI",)
MARGIN = 12.0
ZOOM_STEP = 1.25
MAX_ZOOM = 8.0
TYPE_RESET_MS = 4500   # typed letters are forgotten after this long without a key
TAB_TOKEN_ROOM = 2 * TOKEN_SIZE + 10
SHAPE_CACHE_FORMAT = 3   # bump when what _write_shape_cache stores changes


class _Shape:
    """What the board draws of one state: enough to build the map without the atlas."""
    __slots__ = ("code", "name", "label", "colour", "inset", "bounds", "path")

    def __init__(self, code, name, label, colour, inset, bounds, path):
        self.code, self.name, self.label, self.colour = code, name, label, colour
        self.inset, self.bounds, self.path = inset, bounds, path


def _atlas_file() -> Path:
    return resource("geo", "states.geojson")


def _cache_key() -> str:
    """The atlas file's size and time, the Qt that wrote the paths and the label font
    asked for: a cache written from another atlas, by another Qt or for another font is
    not read. (Not the font file Qt finds for it: asking costs as much as the cache
    saves; a font installed since is seen when the atlas or PySide6 changes. Nor a QFont's
    description: making the QFont costs start-up a millisecond, and Qt's version is in.)"""
    import PySide6

    st = os.stat(_atlas_file())
    return (f"stateside-board-shapes {SHAPE_CACHE_FORMAT} {st.st_size} {st.st_mtime_ns} {PySide6.__version__} "
            f"{LABEL_FAMILY},{LABEL_POINTS:g}{',bold' if LABEL_BOLD else ''}")


def _shapes_from_atlas(atlas) -> list[_Shape]:
    return [_Shape(s.code, s.name, s.label, s.colour, s.inset, s.bounds(), polygons_path(s.polygons))
            for s in atlas.states]


def _read_shape_cache(path: Path) -> list[_Shape] | None:
    """The board's shapes from a binary cache (QPainterPaths in a QDataStream): 2 to 4
    ms against about 35 ms to read the GeoJSON and build the paths. None when the
    cache is missing, stale or damaged (the board is then built from the atlas)."""
    from PySide6.QtCore import QByteArray, QDataStream, QIODevice

    try:
        st = path.stat()
        # Not a regular file (a FIFO would block the start for ever) or far larger than
        # the 50 states' paths (about 330 KB): not ours, made again.
        if not stat.S_ISREG(st.st_mode) or st.st_size > SHAPE_CACHE_MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    buffer = QByteArray(data)   # kept in a name: the stream does not own it
    stream = QDataStream(buffer, QIODevice.ReadOnly)
    try:
        if stream.readQString() != _cache_key() or stream.readInt32() != STATE_COUNT:
            return None
        shapes, codes = [], {}
        for _ in range(STATE_COUNT):
            code, name = stream.readQString(), stream.readQString()
            label = (stream.readDouble(), stream.readDouble())
            colour, inset = stream.readInt32(), stream.readBool()
            bounds = tuple(stream.readDouble() for _ in range(4))
            shape_path, label_path = QPainterPath(), QPainterPath()
            stream >> shape_path
            stream >> label_path
            if stream.status() != QDataStream.Ok or not _plausible(code, name, label, colour, bounds) \
                    or code in codes:
                return None
            shapes.append(_Shape(code, name, label, colour, inset, bounds, shape_path))
            codes[code] = label_path
    except OSError:   # the atlas file itself is gone: the atlas will say so
        return None
    ok = stream.status() == QDataStream.Ok and stream.atEnd()
    del stream, buffer   # the stream first
    if not ok:
        return None
    known_code_paths(codes)
    return shapes


STATE_COUNT = 50
SHAPE_CACHE_MAX_BYTES = 8 * 2**20
_CODE = re.compile(r"[A-Z]{2}")


def _plausible(code, name, label, colour, bounds) -> bool:
    """One state's fields as _write_shape_cache writes them (finite numbers, a postal code,
    a palette colour): anything else is a damaged or foreign cache."""
    return (bool(_CODE.fullmatch(code)) and 0 < len(name) <= 60 and 0 <= colour < len(STATE_COLOURS)
            and all(math.isfinite(v) for v in (*label, *bounds)) and bounds[0] <= bounds[2] and bounds[1] <= bounds[3])


def _write_shape_cache(path: Path, shapes: list[_Shape]) -> None:
    from PySide6.QtCore import QByteArray, QDataStream, QIODevice

    data = QByteArray()
    stream = QDataStream(data, QIODevice.WriteOnly)
    stream.writeQString(_cache_key())
    stream.writeInt32(len(shapes))
    for s in shapes:
        stream.writeQString(s.code)
        stream.writeQString(s.name)
        stream.writeDouble(s.label[0])
        stream.writeDouble(s.label[1])
        stream.writeInt32(s.colour)
        stream.writeBool(s.inset)
        for v in s.bounds:
            stream.writeDouble(v)
        stream << s.path
        stream << code_path(s.code)
    try:   # atomically: a half-written cache is never read (and a failed write costs nothing)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(bytes(data))
        tmp.replace(path)
    except OSError:
        pass


class BoardView(QGraphicsView):
    stateClicked = Signal(str)
    stateHovered = Signal(str)

    def __init__(self, atlas=None, parent=None, shape_cache: Path | None = None):
        """`shape_cache`: a file for the shapes in binary (the app passes one in its
        settings folder, which makes start-up faster); without it they come from the atlas."""
        super().__init__(parent)
        self._first_painted = False   # see viewportEvent
        # A viewport made here, in Python: asked for the one Qt makes, PySide6 works out
        # its class by setting up every widget class of QtWidgets (about 20 ms of start-up).
        self.setViewport(QWidget())
        self._atlas = atlas
        self._shape_cache = shape_cache
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setBackgroundBrush(solid(SEA))
        # Qt's enums as ints until the map has painted (see board/qt_lazy.py).
        self.setProperty("horizontalScrollBarPolicy", SCROLL_BAR_ALWAYS_OFF)
        self.setProperty("verticalScrollBarPolicy", SCROLL_BAR_ALWAYS_OFF)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.viewport().setCursor(QCursor())   # the arrow (the hand only while dragging)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setProperty("focusPolicy", STRONG_FOCUS)
        self.setMouseTracking(True)
        self.setMinimumSize(320, 220)

        self._states: dict[str, StateItem] = {}
        self._tabs: dict[str, CalloutTab] = {}
        self._tokens: dict[object, TokenItem] = {}
        self._paths: dict[object, PathItem] = {}
        self._layers: dict[str, QGraphicsItemGroup] = {}
        self._motion: Motion | None = None   # made on first use (see motion)
        self._was_at: dict[object, tuple] = {}   # a token's last place (and mid-move?), by key
        self._last_marks: dict[object, list] = {}   # each seat's last move, ringed (mark_last)
        self._key_counter = itertools.count(1)
        self._zoom = 1.0
        self._press_pos = None
        self._typed = ""
        self._type_timer = QTimer(self, singleShot=True, interval=TYPE_RESET_MS, timeout=self._clear_typed)
        self._type_label_made: QLabel | None = None   # made when a letter is first typed
        self._build()

    @property
    def motion(self) -> Motion:
        """Pieces slide into place (View > Animations); made on first use, after the map's
        first paint (importing the animations costs start-up about 2 ms)."""
        if self._motion is None:
            from stateside.board.motion import Motion

            self._motion = Motion(self)
        return self._motion

    def _finish_motion(self) -> None:
        if self._motion is not None:   # (none made yet: nothing moves)
            self._motion.finish()

    @property
    def _type_label(self) -> QLabel:
        """What has been typed so far (see keyPressEvent); a style sheet is costly before
        the first paint, and most starts type nothing."""
        if self._type_label_made is None:
            from PySide6.QtWidgets import QLabel

            label = self._type_label_made = QLabel(self)
            label.setStyleSheet(
                "background: rgba(29,53,87,215); color: white; padding: 4px 8px; border-radius: 4px;")
            label.hide()
        return self._type_label_made

    @property
    def atlas(self):
        """The atlas (states with their coordinates), read on first use."""
        if self._atlas is None:
            from stateside.geo.atlas import load_atlas

            self._atlas = load_atlas()
        return self._atlas

    def _shapes(self) -> list[_Shape]:
        cache = self._shape_cache if self._atlas is None else None   # a given atlas is drawn as given
        shapes = _read_shape_cache(cache) if cache is not None else None
        if shapes is None:
            shapes = _shapes_from_atlas(self.atlas)
            if cache is not None:
                _write_shape_cache(cache, shapes)
        return shapes

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        scene = self.scene()
        shapes = self._shapes()
        for s in shapes:
            extra = None
            if s.code in SEA_TARGET_STATES:
                x0, y0, x1, y1 = s.bounds
                extra = QPainterPath()
                extra.addRoundedRect(QRectF(x0 - 6, y0 - 6, x1 - x0 + 12, y1 - y0 + 12), 10, 10)
            item = StateItem(s.code, s.name, s.path, s.label, STATE_COLOURS[s.colour],
                             show_label=s.code not in CALLOUT_STATES, hit_extra=extra)
            scene.addItem(item)
            self._states[s.code] = item
        for i, code in enumerate(CALLOUT_STATES):
            rect = QRectF(TAB_LEFT, TAB_TOP + i * (TAB_H + TAB_GAP), TAB_W, TAB_H)
            tab = CalloutTab(self._states[code], rect)
            scene.addItem(tab)
            self._tabs[code] = tab
        # Inset frames for Alaska and Hawaii, as on printed boards.
        for s in shapes:
            if s.inset:
                x0, y0, x1, y1 = s.bounds
                frame = QGraphicsRectItem(QRectF(x0 - 8, y0 - 8, x1 - x0 + 16, y1 - y0 + 16))
                frame_pen = pen(INSET_FRAME, 1.0)
                frame_pen.setDashPattern([4, 2])   # Qt.DashLine's pattern (see qt_lazy)
                frame.setPen(frame_pen)
                frame.setZValue(0)
                scene.addItem(frame)
        x0, y0, x1, y1 = (f(v) for f, v in zip((min, min, max, max), zip(*(s.bounds for s in shapes))))
        rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        for tab in self._tabs.values():   # with room for tokens to the right of each tab
            rect = rect.united(tab.rect.adjusted(0, 0, TAB_TOKEN_ROOM, 0))
        self._map_rect = rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
        scene.setSceneRect(self._map_rect.adjusted(-400, -400, 400, 400))   # room to pan

    # ---------------------------------------------------------------- geometry
    def codes(self) -> list[str]:
        return list(self._states)

    def map_rect(self) -> QRectF:
        return QRectF(self._map_rect)

    def state_anchor(self, code: str) -> QPointF:
        """Where a state's label, tokens and path ends go (its tab for small states)."""
        tab = self._tabs.get(code)
        if tab is not None:
            return tab.rect.center()
        return QPointF(self._states[code].label_at)

    def state_at(self, scene_pos: QPointF) -> str | None:
        """The state (or callout tab) under a scene point, or None for the sea."""
        for item in self.scene().items(scene_pos, Qt.IntersectsItemShape, Qt.DescendingOrder):
            if isinstance(item, CalloutTab):
                return item.state.code
            if isinstance(item, StateItem):
                return item.code
        return None

    def state_shape(self, code: str) -> QPainterPath:
        """A state's outline in scene coordinates (a copy: for a ring drawn around it)."""
        return QPainterPath(self._states[code].path())

    def state_tab_rect(self, code: str) -> QRectF | None:
        """The callout tab of a small eastern state, or None."""
        tab = self._tabs.get(code)
        return QRectF(tab.rect) if tab is not None else None

    def state_view_point(self, code: str) -> QPointF:
        """The anchor in viewport pixels (for tests and tooltips)."""
        return QPointF(self.mapFromScene(self.state_anchor(code)))

    # ---------------------------------------------------------------- colours
    def _refresh(self, code: str) -> None:
        self._states[code].update()
        if code in self._tabs:
            self._tabs[code].update()

    def set_fill(self, code: str, colour) -> None:
        self._states[code].fill = QColor(colour) if colour is not None else None
        self._refresh(code)

    def set_fills(self, mapping: Mapping[str, object]) -> None:
        for code, colour in mapping.items():
            self.set_fill(code, colour)

    def clear_fills(self) -> None:
        for code in self._states:
            if self._states[code].fill is not None:
                self.set_fill(code, None)

    def set_highlight(self, codes: Iterable[str], color="#ffb300") -> None:
        c = QColor(color)
        for code in codes:
            item = self._states[code]
            item.highlight = c
            item.setZValue(2)   # the thick outline above the neighbours' fills
            self._refresh(code)

    def clear_highlight(self, codes: Iterable[str] | None = None) -> None:
        for code in (self._states if codes is None else codes):
            item = self._states[code]
            if item.highlight is not None:
                item.highlight = None
                item.setZValue(1)
                self._refresh(code)

    def set_dimmed(self, codes: Iterable[str]) -> None:
        for code in codes:
            self._states[code].dimmed = True
            self._refresh(code)

    def clear_dimmed(self) -> None:
        for code, item in self._states.items():
            if item.dimmed:
                item.dimmed = False
                self._refresh(code)

    def set_state_tooltip(self, code: str, text: str | None) -> None:
        item = self._states[code]
        item.extra_tip = text or ""
        item.update_tooltip()
        if code in self._tabs:
            self._tabs[code].setToolTip(item.toolTip())

    # ---------------------------------------------------------------- tokens
    def add_token(self, code: str, *, color="#d62828", shape: str = "disk", label: str = "",
                  tooltip: str = "", key=None, colour=None, via: Iterable[str] = (), arrive: bool = False,
                  size: float = TOKEN_SIZE):
        """A piece on a state. A piece with the key of one taken off since the last
        reset_overlays slides from where that one was (through the anchors of `via`, the
        states on its road); `arrive`: a piece new on the map comes down into place."""
        if key is None:
            key = ("token", next(self._key_counter))
        self.remove_token(key)
        token = TokenItem(key, code, QColor(colour or color), shape, label, tooltip, size)
        self.scene().addItem(token)
        self._tokens[key] = token
        self._layout_tokens(code)
        before, mid_flight = self._was_at.get(key, (None, False))
        if before is not None and before != token.pos():
            road = () if mid_flight else [self.state_anchor(c) for c in via]   # mid-road: straight on
            self.motion.move(token, [before, *road, token.pos()])
        elif before is None and arrive:
            self.motion.arrive(token)
        return key

    def remove_token(self, key) -> None:
        token = self._tokens.pop(key, None)
        if token is not None:
            self._let_go(token)
            self.scene().removeItem(token)
            self._layout_tokens(token.code)

    def clear_tokens(self) -> None:
        for key in list(self._tokens):
            token = self._tokens.pop(key)
            self._let_go(token)
            self.scene().removeItem(token)

    def _let_go(self, token) -> None:
        """Before a token leaves the scene (a redraw), its place is remembered: one drawn
        again with its key goes on from there (a move under way carries on)."""
        motion = self._motion   # none yet: nothing has moved
        self._was_at[token.key] = (token.pos(), motion is not None and motion.moving(token))
        if motion is not None:
            motion.stop(token)

    def tokens_on(self, code: str) -> list:
        return [k for k, t in self._tokens.items() if t.code == code]

    def _layout_tokens(self, code: str) -> None:
        tokens = [t for t in self._tokens.values() if t.code == code]
        if not tokens:
            return
        step = max(t.size for t in tokens) + 1.5   # a bigger piece (a truck) widens its row
        tab = self._tabs.get(code)
        if tab is not None:   # beside the tab, two columns
            for i, token in enumerate(tokens):
                row, col = divmod(i, 2)
                self._place(token, QPointF(tab.rect.right() + 4 + step / 2 + col * step,
                                           tab.rect.top() + step / 2 + row * step))
            return
        anchor = self.state_anchor(code)
        # Below the label, in rows of up to four, centred.
        per_row = 4
        offset_y = 11.0
        for i, token in enumerate(tokens):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(tokens) - row * per_row)
            x = anchor.x() + (col - (in_row - 1) / 2) * step
            y = anchor.y() + offset_y + row * step
            self._place(token, QPointF(x, y))

    def _place(self, token, at: QPointF) -> None:
        # a moving token lands on its new place
        if self._motion is None or not self._motion.retarget(token, at):
            token.setPos(at)

    # ---------------------------------------------------------------- last moves
    def mark_last(self, key, codes: Iterable[str], colour="#333333", tooltip: str = "") -> None:
        """Ring the states of one seat's (key's) last move in its colour, in place of its
        previous ring; mark_last(key, ()) takes it off."""
        for item in self._last_marks.pop(key, []):
            self.scene().removeItem(item)
        items = []
        for code in codes:
            if code not in self._states:
                continue
            ring = MarkRing(self.state_anchor(code), QColor(colour), tooltip)
            self.scene().addItem(ring)
            items.append(ring)
        if items:
            self._last_marks[key] = items

    def forget_places(self) -> None:
        """A new game on the board: its pieces do not slide from the last game's places,
        and no last move of that game stays ringed."""
        self._finish_motion()
        self.clear_tokens()   # the mode draws the new game's own
        self._was_at.clear()
        self.clear_last_marks()

    def clear_last_marks(self) -> None:
        for key in list(self._last_marks):
            self.mark_last(key, ())

    def last_marks(self) -> dict:
        """{key: [state codes]} of the last-move rings on the map now (for tests and tools)."""
        return {key: [self.state_at(item.pos()) for item in items] for key, items in self._last_marks.items()}

    # ---------------------------------------------------------------- paths
    def add_path(self, a: str, b: str, *, style: str = "line", color="#333333", width: float = 3.0,
                 tooltip: str = "", key=None, colour=None):
        if style not in ("line", "dashed", "arc"):
            raise ValueError(f"unknown path style {style!r}")
        if key is None:
            key = ("path", next(self._key_counter))
        self.remove_path(key)
        item = PathItem(key, self.state_anchor(a), self.state_anchor(b), style, QColor(colour or color),
                        width, tooltip)
        self.scene().addItem(item)
        self._paths[key] = item
        return key

    def remove_path(self, key) -> None:
        item = self._paths.pop(key, None)
        if item is not None:
            self.scene().removeItem(item)

    def clear_paths(self) -> None:
        for key in list(self._paths):
            self.remove_path(key)

    # ---------------------------------------------------------------- layers
    def layer(self, name: str, z: float = 50) -> QGraphicsItemGroup:
        from PySide6.QtWidgets import QGraphicsItemGroup

        group = self._layers.get(name)
        if group is None:
            group = QGraphicsItemGroup()
            group.setZValue(z)
            group.setHandlesChildEvents(False)
            self.scene().addItem(group)
            self._layers[name] = group
        return group

    def remove_layer(self, name: str) -> None:
        group = self._layers.pop(name, None)
        if group is not None:
            if self._motion is not None:
                self._motion.land(group.childItems())   # nothing in it moves any more
        if group is not None:
            self.scene().removeItem(group)

    def reset_overlays(self) -> None:
        """Back to the plain map: what a mode leaves when it hands the board on."""
        self._finish_motion()
        self.clear_fills()
        self.clear_highlight()
        self.clear_dimmed()
        for code in self._states:
            if self._states[code].extra_tip:
                self.set_state_tooltip(code, None)
        self.clear_tokens()
        self._was_at.clear()   # the next mode's pieces come from nowhere
        self.clear_last_marks()
        self.clear_paths()
        for name in list(self._layers):
            self.remove_layer(name)
        self.show_callout_tabs(True)

    def show_callout_tabs(self, shown: bool) -> None:
        """The small states' tabs in the Atlantic, or none: a board that is no state map
        (Carcassonne's squares) has nothing to click there, and a tab cut off by its fit
        would look broken."""
        for tab in self._tabs.values():
            tab.setVisible(shown)

    # ---------------------------------------------------------------- view
    def fit(self) -> None:
        self.resetTransform()
        self._zoom = 1.0
        self._size_tabs()
        # fitInView(rect, Qt.KeepAspectRatio) worked out here: this runs before the
        # first paint, when Qt's enums are not set up yet (see qt_lazy).
        view = self.viewport().rect().adjusted(2, 2, -2, -2)   # fitInView's own margin
        rect = self._map_rect
        if view.isEmpty() or rect.isEmpty():
            return
        scale = min(view.width() / rect.width(), view.height() / rect.height())
        self.setTransform(QTransform.fromScale(scale, scale))
        self.centerOn(rect.center())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        zoom = self._zoom
        center = self.mapToScene(self.viewport().rect().center())
        self.fit()
        if zoom != 1.0:
            self.zoom_by(zoom)
            self.centerOn(center)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.fit()

    def zoom_by(self, factor: float) -> None:
        new = max(1.0, min(MAX_ZOOM, self._zoom * factor))
        factor = new / self._zoom
        if abs(factor - 1.0) < 1e-9:
            return
        self._zoom = new
        self.scale(factor, factor)
        self._size_tabs()

    def _size_tabs(self) -> None:
        """Tabs keep their size on screen when zoomed (instead of growing off the edge):
        each shrinks about its own centre, so the anchors of tokens and paths stay put."""
        for code, tab in self._tabs.items():
            if tab.set_scale(1.0 / self._zoom) and self.tokens_on(code):
                self._layout_tokens(code)

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(ZOOM_STEP ** steps)
        event.accept()

    def viewportEvent(self, event) -> bool:
        if not self._first_painted and event.type() == QEvent.Paint:
            # Two turns of the event loop after the first paint (as app.main.after_first_paint),
            # so that the frame is out first.
            self._first_painted = True
            # (the first without a context object: choosing that overload sets up QMetaMethod,
            # 0.3 ms of the first paint; the board may be gone by then, hence isValid)
            QTimer.singleShot(0, lambda: isValid(self) and QTimer.singleShot(0, self, self._after_first_paint))
        if event.type() == QEvent.Leave:   # a state's tooltip must not outlive the pointer
            from PySide6.QtWidgets import QToolTip

            QToolTip.hideText()
        if event.type() == QEvent.Gesture:
            from PySide6.QtWidgets import QPinchGesture

            pinch = event.gesture(Qt.PinchGesture)
            if isinstance(pinch, QPinchGesture):
                self.zoom_by(pinch.scaleFactor())
                return True
        return super().viewportEvent(event)

    def _after_first_paint(self) -> None:
        self.viewport().grabGesture(Qt.PinchGesture)   # this sets up Qt's enums (see qt_lazy)
        for item in self._states.values():   # hovers and highlights repaint from a pixmap
            item.setCacheMode(QGraphicsItem.DeviceCoordinateCache)

    # ---------------------------------------------------------------- input
    def mousePressEvent(self, event) -> None:
        self._finish_motion()   # input never waits for a move on the map
        self._press_pos = event.position()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        # Qt keeps an item's tooltip up until the pointer has moved well away, even out over
        # the sea: hide it as soon as the pointer is no longer on what it describes.
        from PySide6.QtWidgets import QToolTip

        if QToolTip.isVisible():
            here = next((i.toolTip() for i in self.items(event.position().toPoint()) if i.toolTip()), "")
            if here != QToolTip.text():
                QToolTip.hideText()

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        self.viewport().setCursor(Qt.ArrowCursor)
        if event.button() != Qt.LeftButton or self._press_pos is None:
            return
        moved = (event.position() - self._press_pos).manhattanLength()
        self._press_pos = None
        if moved <= 4:   # a click, not a drag
            code = self.state_at(self.mapToScene(event.position().toPoint()))
            if code:
                self.stateClicked.emit(code)

    def _hover_changed(self, code: str) -> None:
        self.stateHovered.emit(code)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._finish_motion()
        key, text = event.key(), event.text()
        if key in (Qt.Key_Plus, Qt.Key_Equal):
            self.zoom_by(ZOOM_STEP)
        elif key == Qt.Key_Minus:
            self.zoom_by(1 / ZOOM_STEP)
        elif key == Qt.Key_0 and not self._typed:
            self.fit()
        elif key in (Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down):
            bar = self.horizontalScrollBar() if key in (Qt.Key_Left, Qt.Key_Right) else self.verticalScrollBar()
            sign = -1 if key in (Qt.Key_Left, Qt.Key_Up) else 1
            bar.setValue(bar.value() + sign * 60)
        elif key in (Qt.Key_Return, Qt.Key_Enter) and self._typed:
            code = self.match_typed(self._typed)
            self._clear_typed()
            if code:
                self.stateClicked.emit(code)
        elif key == Qt.Key_Escape and self._typed:
            self._clear_typed()
        elif key == Qt.Key_Backspace and self._typed:
            self._set_typed(self._typed[:-1])
        elif text and (text.isalpha() or (text == " " and self._typed)):
            self._set_typed(self._typed + text)
        else:
            super().keyPressEvent(event)

    def is_typing(self) -> bool:
        """True while the player is typing a state's name (keys like Space belong to it)."""
        return bool(self._typed)

    def match_typed(self, typed: str) -> str | None:
        """The state a typed code or name prefix picks, if exactly one (or an exact name)."""
        t = typed.strip().lower()
        if not t:
            return None
        if len(t) == 2 and t.upper() in self._states:
            return t.upper()
        names = [(item.name.lower(), code) for code, item in self._states.items()]
        exact = [code for name, code in names if name == t]
        if exact:
            return exact[0]
        found = [code for name, code in names if name.startswith(t)]
        return found[0] if len(found) == 1 else None

    def _set_typed(self, typed: str) -> None:
        self._typed = typed
        if not typed:
            self._clear_typed()
            return
        code = self.match_typed(typed)
        shown = f"{self._states[code].name} ({code}) \u21b5" if code else "\u2026"
        self._type_label.setText(f"Type a state: <b>{typed}</b>  \u2192  {shown}")
        self._type_label.adjustSize()
        self._type_label.move(10, self.height() - self._type_label.height() - 10)
        self._type_label.show()
        for c, item in self._states.items():
            want = c == code
            if item.hovered != want:
                item.hovered = want
                self._refresh(c)
        self._type_timer.start()

    def _clear_typed(self) -> None:
        self._typed = ""
        self._type_label.hide()
        for c, item in self._states.items():
            if item.hovered and not item.isUnderMouse():
                item.hovered = False
                self._refresh(c)


__all__ = ["BoardView", "CALLOUT_STATES"]
