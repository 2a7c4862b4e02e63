"""The shared map as Scrambled States shows it: the face-up states in their colours and
outlined by region, the center card's star, the states just won with their winner's name
tag, and a logged move's states pointed out in its player's colour. Drawn from what the
mode gives; redrawn only when that changed."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsSimpleTextItem


class MapMarks:
    def __init__(self, board, cards):
        self.board = board
        self.cards = cards
        self.key = None             # what the map shows now; None: draw again
        self.pointed_tokens: list = []
        self.tags_shown: set = set()   # (state, winner) of the name tags on the map

    def forget(self) -> None:
        """The map is to be drawn again at the next look (another board state, a new game)."""
        self.key = None

    def draw(self, on_table: list[str], face_up: list, center: str | None, recent: list[tuple[str, str, str]],
             pointed: tuple[list[str], str] | None, replay: bool) -> None:
        """`on_table`: the face-up states; `center`: the center card's state, when shown;
        `recent`: (state, winner, colour) just won; `pointed`: a log line's states and colour."""
        key = (tuple(face_up), center, tuple(recent), pointed and (tuple(pointed[0]), pointed[1]), replay)
        if key == self.key:
            return
        self.key = key
        b = self.board
        b.clear_fills()
        b.clear_highlight()
        b.clear_dimmed()
        b.remove_token("scrambled-center")
        b.remove_layer("scrambled-won")
        won = {code for code, _, _ in recent}
        codes_pointed, pointed_colour = pointed or ((), None)
        act = "" if replay else " Click to slap."
        for code in self.cards.codes:
            b.set_state_tooltip(code, None)
        b.set_dimmed([c for c in b.codes() if c not in on_table and c not in won and c not in codes_pointed])
        by_region: dict[str, list[str]] = {}
        for code in on_table:
            card = self.cards[code]
            b.set_fill(code, self.cards.colour(card.colour).hex)
            by_region.setdefault(card.region, []).append(code)
            b.set_state_tooltip(code, f"On the table: {card.region}, land mass {card.land_mass}/4, "
                                      f"{card.population} {'person' if card.population == 1 else 'people'}, "
                                      f"{card.colour}.{act}")
        for region, codes in by_region.items():
            b.set_highlight(codes, self.cards.region(region).border_hex)
        if center:
            b.add_token(center, color="#e63946", shape="star", key="scrambled-center",
                        tooltip=f"The center card: {self.cards[center].name}")
        if recent:
            self._mark_won_states(recent)
        for token in self.pointed_tokens:
            b.remove_token(token)
        self.pointed_tokens = []
        for code in codes_pointed:   # a move pointed at in the log, in its player's colour (a pin finds small states)
            b.set_fill(code, self.cards.colour(self.cards[code].colour).hex)
            b.set_highlight([code], pointed_colour)
            self.pointed_tokens.append(b.add_token(code, color=pointed_colour, shape="marker",
                                                   key=("scrambled-pointed", code)))

    def _mark_won_states(self, recent: list[tuple[str, str, str]]) -> None:
        """The states just won: their colour, the winner's outline and a name tag."""
        b = self.board
        layer = b.layer("scrambled-won", z=60)
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(13)
        for code, who, colour in recent:
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
                if (code, who) not in self.tags_shown:   # a state just won: its tag comes down onto it
                    b.motion.arrive(item)
        self.tags_shown = {(code, who) for code, who, _ in recent}
