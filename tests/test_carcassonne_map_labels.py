"""The USA maps' town names on screen: in the window at 1280x800 and 1024x700, once the
map is fitted (F), no name overlaps another name or a town's ring, and none is cut (by
the window's edge, by what the fit shows, or by a box narrower than its text)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from stateside.app.main import MainWindow
from stateside.games.carcassonne.engine import Setup
from stateside.games.carcassonne.map_items import RING, label_rects, town_font
from stateside.games.carcassonne.maps import load_maps

HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]


@pytest.mark.parametrize("variant", ["usa-west", "usa-east", "usa"])
def test_town_names_never_overlap_and_are_never_cut(qtbot, variant):
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    mode = window.open_mode("carcassonne")
    mode.start_game(Setup(players=["Ann", "Bob"], variant=variant), HUMANS, seed=2)
    window.show()
    qtbot.waitExposed(window)
    for size in ((1280, 800), (1024, 700)):
        window.resize(*size)
        qtbot.waitUntil(lambda width=size[0]: window.size().width() == width)
        mode.btn_fit.click()
        item, view = mode.map_item, mode.board
        board = item.map
        port = QRectF(view.viewport().rect())
        scale = view.transform().m11()

        def on_screen(r: QRectF, view=view, item=item) -> QRectF:
            return QRectF(view.mapFromScene(item.mapToScene(r)).boundingRect())
        labels = item.label_rects()
        names = {pos: on_screen(r) for pos, r in labels.items()}
        assert set(names) == set(board.towns) and len(names) == (30 if variant == "usa" else 15)
        rings = []
        for pos in board.towns:
            c = QRectF(*board.rect(pos)).center()
            s = board.square_size * RING
            rings.append(on_screen(QRectF(c.x() - s, c.y() - s, 2 * s, 2 * s)))
        # The text at the size it is drawn, from the font itself.
        font = QFont(town_font(board))
        font.setPixelSize(max(1, round(font.pixelSize() * scale)))
        fm = QFontMetricsF(font)
        where = f"{variant} at {size[0]}x{size[1]}"
        for pos, r in names.items():
            name = board.towns[pos].name
            assert port.contains(r), f"{name} is cut by the window's edge, {where}"
            shown = item.grid_rect().contains(item.mapRectToScene(labels[pos]))
            assert shown, f"{name} is left out of the fit, {where}"
            assert fm.horizontalAdvance(name) <= r.width() and fm.height() <= r.height() + 2, f"{name}, {where}"
            for other, q in names.items():
                assert other == pos or not r.intersects(q), f"{name} and {board.towns[other].name} overlap, {where}"
            assert not any(r.intersects(g) for g in rings), f"{name} covers a town's ring, {where}"


def test_every_grid_has_places_for_its_names(qtbot):
    """The old grid too (saves on it open; its towns touch, so several names must leave
    the place below their town): no two names overlap, none covers a ring."""
    moved = 0
    for grid in (1, 2):
        for variant, board in load_maps(grid).items():
            rects = label_rects(board)
            assert set(rects) == set(board.towns), (grid, variant)
            s = board.square_size
            for pos, r in rects.items():
                assert not any(r.intersects(q) for p, q in rects.items() if p != pos), (grid, variant, pos)
                for town in board.towns:
                    c = QRectF(*board.rect(town)).center()
                    assert not r.intersects(QRectF(c.x() - s * RING, c.y() - s * RING, 2 * s * RING, 2 * s * RING))
                moved += r.top() < board.rect(pos)[1] + s * 0.9      # not below its square
    assert moved >= 2
