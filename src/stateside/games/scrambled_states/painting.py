"""Drawing the Scrambled States cards and die with QPainter: our own design.

A card: a frame in its region's border colour with the region's name in the bottom
band (so the region reads without colour vision too), the state's name, its shape
filled with the state colour and that colour's pattern, the land-mass icon (1-4 rising
bars filled, the rest outlined) and 1-5 people.
"""
from __future__ import annotations

from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QConicalGradient,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QTransform,
)

from stateside.board.items import polygons_path
from stateside.games.scrambled_states.cards import Card, CardSet

PAPER = QColor("#fffdf7")
INK = QColor("#27323a")
LAND = QColor("#a0784a")
PEOPLE = QColor("#37474f")
BACK = QColor("#1d3557")
PATTERN_STYLE = {
    "plain": None,
    "stripes": Qt.HorPattern,
    "dots": Qt.Dense6Pattern,
    "diagonal": Qt.BDiagPattern,
    "crosshatch": Qt.DiagCrossPattern,
}



def text_on(colour: QColor) -> QColor:
    """Black or white, whichever reads better on `colour`."""
    lum = 0.299 * colour.redF() + 0.587 * colour.greenF() + 0.114 * colour.blueF()
    return QColor("#1b1b1b") if lum > 0.6 else QColor("#ffffff")


@cache
def state_outline(code: str) -> QPainterPath:
    """The state's shape from the shared atlas, in board units (holes cut out)."""
    from stateside.geo.atlas import load_atlas

    return polygons_path(load_atlas()[code].polygons)


def fitted(path: QPainterPath, box: QRectF) -> QPainterPath:
    """`path` scaled (aspect kept) and centred into `box`."""
    b = path.boundingRect()
    if b.width() <= 0 or b.height() <= 0:
        return QPainterPath()
    s = min(box.width() / b.width(), box.height() / b.height())
    t = QTransform()
    t.translate(box.center().x(), box.center().y())
    t.scale(s, s)
    t.translate(-b.center().x(), -b.center().y())
    return t.map(path)


def fill_with_pattern(p: QPainter, path: QPainterPath, colour: QColor, pattern: str) -> None:
    p.fillPath(path, colour)
    style = PATTERN_STYLE.get(pattern)
    if style is not None:
        p.fillPath(path, QBrush(QColor(0, 0, 0, 95), style))


def land_bars(box: QRectF, size: int) -> list[tuple[QRectF, bool]]:
    """The land-mass icon's four rising bars (rect, filled): `size` of them filled. A count
    of bars reads at a glance and in grey, where four sizes of one blob did not."""
    gap = box.width() * 0.08
    w = (box.width() - 3 * gap) / 4
    bars = []
    for i in range(4):
        h = box.height() * (0.4 + 0.2 * i)
        bars.append((QRectF(box.left() + i * (w + gap), box.bottom() - h, w, h), i < size))
    return bars


def paint_land_mass(p: QPainter, box: QRectF, size: int) -> None:
    p.save()
    side = min(box.width(), box.height() * 1.15)
    box = QRectF(box.center().x() - side / 2, box.top(), side, box.height())
    for rect, filled in land_bars(box, size):
        if filled:
            p.setPen(QPen(LAND.darker(150), max(0.8, side / 40)))
            p.setBrush(LAND)
        else:   # the bars a bigger state would have: a faint outline keeps the scale visible
            p.setPen(QPen(QColor(160, 120, 74, 120), max(0.8, side / 45), Qt.DashLine))
            p.setBrush(Qt.NoBrush)
        p.drawRect(rect)
    p.restore()


def person_path(cx: float, bottom: float, height: float) -> QPainterPath:
    path = QPainterPath()
    head = height * 0.36
    path.addEllipse(QPointF(cx, bottom - height + head / 2), head / 2, head / 2)
    body = QRectF(cx - height * 0.26, bottom - height * 0.58, height * 0.52, height * 0.58)
    path.addRoundedRect(body, height * 0.2, height * 0.2)
    return path


def paint_people(p: QPainter, box: QRectF, count: int, colour: QColor = PEOPLE, slots: int = 5) -> None:
    step = box.width() / slots
    height = min(box.height(), step * 1.7)
    start = box.center().x() - step * (count - 1) / 2
    p.save()
    p.setPen(Qt.NoPen)
    p.setBrush(colour)
    for i in range(count):
        p.drawPath(person_path(start + i * step, box.bottom(), height))
    p.restore()


def _fit_font(text: str, rect: QRectF, bold: bool, max_px: float, min_px: float) -> QFont:
    font = QFont("DejaVu Sans")
    font.setBold(bold)
    px = max_px
    while px > min_px:
        font.setPixelSize(max(1, round(px)))
        if QFontMetricsF(font).horizontalAdvance(text) <= rect.width():
            break
        px -= 0.5
    font.setPixelSize(max(1, round(px)))
    return font


def draw_fitted_text(p: QPainter, rect: QRectF, text: str, *, bold: bool, max_px: float, min_px: float) -> None:
    """`text` centred in `rect`, as large as fits up to `max_px`; below `min_px` it is
    squeezed sideways rather than shrunk further, so a long name on a small card
    ("New Hampshire") stays whole and legible."""
    font = _fit_font(text, rect, bold, max_px, min_px)
    p.setFont(font)
    advance = QFontMetricsF(font).horizontalAdvance(text)
    if advance <= rect.width() or advance <= 0:
        p.drawText(rect, Qt.AlignCenter, text)
        return
    squeeze = rect.width() / advance
    p.save()
    p.translate(rect.center().x(), 0)
    p.scale(squeeze, 1.0)
    p.translate(-rect.center().x(), 0)
    wide = QRectF(rect.center().x() - advance / 2, rect.top(), advance, rect.height())
    p.drawText(wide, Qt.AlignCenter, text)
    p.restore()


def paint_caption(p: QPainter, rect: QRectF, text: str, colour: QColor) -> None:
    """A ribbon across the middle of a card: who just won it."""
    h = max(12.0, rect.height() * 0.24)
    band = QRectF(rect.left() - 2, rect.center().y() - h / 2, rect.width() + 4, h)
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(colour.darker(140), 1.0))
    p.setBrush(colour)
    p.drawRoundedRect(band, h * 0.2, h * 0.2)
    p.setPen(text_on(colour))
    draw_fitted_text(p, band.adjusted(3, 0, -3, 0), text, bold=True, max_px=h * 0.62, min_px=7)
    p.restore()


def paint_card(p: QPainter, rect: QRectF, card: Card, cards: CardSet, *, hover: bool = False,
               faded: bool = False) -> None:
    """One card filling `rect` (about 5:7)."""
    w, h = rect.width(), rect.height()
    region = cards.region(card.region)
    colour = cards.colour(card.colour)
    border = QColor(region.border_hex)
    radius = w * 0.09
    side = max(3.0, w * 0.065)
    band = max(11.0, h * 0.12)
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    if faded:
        p.setOpacity(0.35)
    p.setPen(QPen(QColor("#1b1b1b") if hover else border.darker(130), 2.2 if hover else 1.0))
    p.setBrush(border)
    p.drawRoundedRect(rect, radius, radius)
    inner = rect.adjusted(side, side, -side, -band)
    p.setPen(Qt.NoPen)
    p.setBrush(PAPER.darker(104) if hover else PAPER)
    p.drawRoundedRect(inner, radius * 0.6, radius * 0.6)

    # The region's name in the bottom band.
    band_rect = QRectF(rect.left() + side, inner.bottom(), rect.width() - 2 * side, band)
    p.setPen(text_on(border))
    draw_fitted_text(p, band_rect, card.region, bold=True, max_px=band * 0.62, min_px=7)

    pad = inner.width() * 0.06
    name_rect = QRectF(inner.left() + pad, inner.top() + pad * 0.5, inner.width() - 2 * pad, inner.height() * 0.17)
    p.setPen(INK)
    draw_fitted_text(p, name_rect, card.name, bold=True, max_px=name_rect.height() * 0.78, min_px=8)

    shape_box = QRectF(inner.left() + pad, name_rect.bottom() + pad * 0.3,
                       inner.width() - 2 * pad, inner.height() * 0.45)
    outline = fitted(state_outline(card.code), shape_box)
    fill_with_pattern(p, outline, QColor(colour.hex), colour.pattern)
    p.setPen(QPen(QColor(colour.hex).darker(170), max(0.8, w / 110)))
    p.setBrush(Qt.NoBrush)
    p.drawPath(outline)

    icons = QRectF(inner.left() + pad * 0.5, shape_box.bottom() + pad * 0.8, inner.width() - pad,
                   inner.bottom() - shape_box.bottom() - pad * 1.6)
    land_box = QRectF(icons.left(), icons.top(), min(icons.height() * 1.15, icons.width() * 0.4), icons.height())
    paint_land_mass(p, land_box, card.land_mass)
    people_box = QRectF(land_box.right() + pad, icons.top(), icons.right() - land_box.right() - pad, icons.height())
    paint_people(p, people_box, card.population)
    p.restore()


def paint_card_back(p: QPainter, rect: QRectF, text: str = "?") -> None:
    w = rect.width()
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#0f1f36"), 1.0))
    p.setBrush(BACK)
    p.drawRoundedRect(rect, w * 0.09, w * 0.09)
    p.setPen(QPen(QColor("#e9c46a"), max(1.0, w / 60)))
    p.setBrush(Qt.NoBrush)
    p.drawRoundedRect(rect.adjusted(w * 0.08, w * 0.08, -w * 0.08, -w * 0.08), w * 0.06, w * 0.06)
    font = QFont("DejaVu Sans")
    font.setBold(True)
    font.setPixelSize(max(8, round(w * (0.35 if len(text) <= 2 else 0.11))))
    p.setFont(font)
    p.setPen(QColor("#f1faee"))
    p.drawText(rect.adjusted(w * 0.1, 0, -w * 0.1, 0), Qt.AlignCenter | Qt.TextWordWrap, text)
    p.restore()


def paint_empty_slot(p: QPainter, rect: QRectF) -> None:
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#b9b2a3"), 1.2, Qt.DashLine))
    p.setBrush(Qt.NoBrush)
    p.drawRoundedRect(rect.adjusted(2, 2, -2, -2), rect.width() * 0.09, rect.width() * 0.09)
    p.restore()


# --- the die ---------------------------------------------------------------------------
def paint_die(p: QPainter, rect: QRectF, face: str | None, cards: CardSet, label: str = "",
              tilt: float = 0.0) -> None:
    """The die showing `face` (None: blank), tilted by `tilt` degrees while it rolls."""
    side = min(rect.width(), rect.height())
    box = QRectF(0, 0, side, side)
    box.moveCenter(rect.center())
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.translate(box.center())
    p.rotate(tilt)
    p.translate(-box.center())
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(0, 0, 0, 45))
    p.drawRoundedRect(box.translated(side * 0.03, side * 0.04), side * 0.16, side * 0.16)
    p.setPen(QPen(QColor("#51606b"), max(1.0, side / 60)))
    p.setBrush(QColor("#ffffff"))
    p.drawRoundedRect(box, side * 0.16, side * 0.16)
    if face is None:   # not rolled yet
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(max(8, round(side * 0.5)))
        p.setFont(font)
        p.setPen(QColor("#c9c2b3"))
        p.drawText(box, Qt.AlignCenter, "?")
    else:
        art = QRectF(box.left() + side * 0.18, box.top() + side * 0.1, side * 0.64, side * 0.56)
        paint_face_icon(p, art, face, cards)
        if label:
            text_rect = QRectF(box.left() + side * 0.05, box.top() + side * 0.68, side * 0.9, side * 0.26)
            p.setPen(INK)
            draw_fitted_text(p, text_rect, label, bold=True, max_px=side * 0.16, min_px=7)
    p.restore()


def paint_face_icon(p: QPainter, art: QRectF, face: str, cards: CardSet) -> None:
    s = min(art.width(), art.height())
    sq = QRectF(0, 0, s, s)
    sq.moveCenter(art.center())
    if face == "region":
        grad = QConicalGradient(sq.center(), 90)
        regions = cards.regions
        for i, r in enumerate(regions):
            grad.setColorAt(i / len(regions), QColor(r.border_hex))
        grad.setColorAt(1.0, QColor(regions[0].border_hex))
        frame = sq.adjusted(s * 0.14, s * 0.02, -s * 0.14, -s * 0.02)
        p.setPen(QPen(QBrush(grad), s * 0.16))
        p.setBrush(PAPER)
        p.drawRoundedRect(frame, s * 0.08, s * 0.08)
    elif face == "land-mass":
        paint_land_mass(p, sq, 4)
    elif face == "population":
        paint_people(p, sq.adjusted(-s * 0.1, 0, s * 0.1, -s * 0.05), 3, slots=3)
    elif face == "colour":
        half = s / 2
        for i, c in enumerate(cards.colours[:4]):
            cell = QRectF(sq.left() + (i % 2) * half, sq.top() + (i // 2) * half, half, half).adjusted(3, 3, -3, -3)
            path = QPainterPath()
            path.addEllipse(cell)
            fill_with_pattern(p, path, QColor(c.hex), c.pattern)
            p.setPen(QPen(QColor(c.hex).darker(160), 1.0))
            p.setBrush(Qt.NoBrush)
            p.drawEllipse(cell)
    elif face == "two":
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(max(8, round(s * 0.95)))
        p.setFont(font)
        p.setPen(QColor("#e63946"))
        p.drawText(sq, Qt.AlignCenter, "2")
    elif face == "hand":
        paint_hand(p, sq)


def paint_hand(p: QPainter, box: QRectF) -> None:
    """An open hand, palm forward."""
    s = box.width()
    x, y = box.left(), box.top()
    path = QPainterPath()
    palm = QRectF(x + s * 0.22, y + s * 0.42, s * 0.56, s * 0.52)
    path.addRoundedRect(palm, s * 0.14, s * 0.14)
    for fx, top in [(0.23, 0.14), (0.37, 0.04), (0.51, 0.06), (0.65, 0.18)]:
        path.addRoundedRect(QRectF(x + s * fx, y + s * top, s * 0.12, s * 0.42), s * 0.06, s * 0.06)
    thumb = QPainterPath()
    thumb.addRoundedRect(QRectF(-s * 0.06, -s * 0.2, s * 0.12, s * 0.36), s * 0.06, s * 0.06)
    t = QTransform()
    t.translate(x + s * 0.2, y + s * 0.62)
    t.rotate(-40)
    path = path.united(t.map(thumb))
    p.setPen(QPen(QColor("#8d5a2b"), max(1.0, s / 40)))
    p.setBrush(QColor("#f1c27d"))
    p.drawPath(path.simplified())
