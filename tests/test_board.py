"""BoardView: clicks, click targets, typing, zoom and the overlay API (foundation item 6)."""
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from stateside.app.main import DEFAULT_SIZE
from stateside.board.items import TOKEN_SIZE
from stateside.board.view import CALLOUT_STATES, BoardView


@pytest.fixture
def window(open_window):
    return open_window(size=DEFAULT_SIZE)


@pytest.fixture
def board(window):
    return window.board


def test_a_click_inside_each_state_emits_its_code(qtbot, board):
    assert len(board.codes()) == 50
    for code in board.codes():
        pos = board.state_view_point(code).toPoint()
        with qtbot.waitSignal(board.stateClicked, timeout=1000) as blocker:
            qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=pos)
        assert blocker.args == [code], code


def test_every_state_has_a_24px_click_target_at_the_default_size(board):
    """Small eastern states through their callout tabs; Hawaii through the sea around it."""
    for code in board.codes():
        centre = board.state_view_point(code)
        missed = []
        for dx in range(-12, 13, 4):
            for dy in range(-12, 13, 4):
                p = QPoint(round(centre.x() + dx), round(centre.y() + dy))
                if board.state_at(board.mapToScene(p)) != code:
                    missed.append((dx, dy))
        assert not missed, f"{code}: 24x24 px target misses at {missed[:3]}"


def test_callout_tabs_stand_for_the_small_states(board):
    assert set(CALLOUT_STATES) == {"RI", "DE", "CT", "NJ", "MD", "MA", "NH", "VT"}
    for code in CALLOUT_STATES:
        anchor = board.state_anchor(code)
        assert anchor.x() > 960   # out in the Atlantic
        assert board.state_at(anchor) == code


def test_sea_is_not_clickable(qtbot, board):
    clicks = []
    board.stateClicked.connect(clicks.append)
    gulf_of_mexico = board.mapFromScene(QPointF(700, 600))
    pacific = board.mapFromScene(QPointF(5, 320))
    canada = board.mapFromScene(QPointF(600, 5))
    for p in (gulf_of_mexico, pacific, canada):
        assert board.state_at(board.mapToScene(p)) is None
        qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=p)
    assert clicks == []


def test_typing_a_code_or_a_name_selects_the_state(qtbot, board):
    board.setFocus()
    for typed, code in (("tx", "TX"), ("new m", "NM"), ("Rhode", "RI"), ("mississippi", "MS")):
        with qtbot.waitSignal(board.stateClicked, timeout=1000) as blocker:
            qtbot.keyClicks(board, typed)
            qtbot.keyClick(board, Qt.Key_Return)
        assert blocker.args == [code], typed
    assert board.match_typed("new") is None          # four states start with "New"
    assert board.match_typed("zz") is None


def test_zoom_keys_and_fit(qtbot, board):
    scale = board.transform().m11()
    qtbot.keyClick(board, Qt.Key_Plus)
    assert board.transform().m11() == pytest.approx(scale * 1.25)
    qtbot.keyClick(board, Qt.Key_Minus)
    qtbot.keyClick(board, Qt.Key_Minus)   # cannot zoom out past the whole map
    assert board.transform().m11() == pytest.approx(scale)
    qtbot.keyClick(board, Qt.Key_Plus)
    qtbot.keyClick(board, Qt.Key_0)
    assert board.transform().m11() == pytest.approx(scale)


def test_the_map_fits_the_window_on_resize(qtbot, window, board):
    before = board.transform().m11()
    window.resize(1600, 1000)
    qtbot.wait(20)
    assert board.transform().m11() > before
    rect = board.mapFromScene(board.map_rect()).boundingRect()
    assert rect.width() <= board.viewport().width() + 2


def test_overlay_api(qtbot):
    board = BoardView()
    qtbot.addWidget(board)
    t1 = board.add_token("TX", color="#ff0000", shape="truck", tooltip="red truck")
    t2 = board.add_token("TX", color="#0000ff")
    board.add_token("RI", color="#00ff00", key="ri")
    assert board.tokens_on("TX") == [t1, t2]
    pos1, pos2 = board._tokens[t1].pos(), board._tokens[t2].pos()
    assert pos1 != pos2 and abs(pos1.y() - pos2.y()) < 1e-6   # side by side
    board.remove_token(t1)
    assert board.tokens_on("TX") == [t2]
    p = board.add_path("CA", "OR")
    board.add_path("OR", "AZ", style="dashed")
    board.add_path("AK", "HI", style="arc", key="flight", tooltip="by air")
    assert board._paths["flight"].toolTip() == "by air"
    with pytest.raises(ValueError):
        board.add_path("CA", "NV", style="zigzag")
    board.remove_path(p)
    board.set_fill("CA", "#123456")
    board.set_highlight(["CO"])
    board.set_dimmed(["UT"])
    board.set_state_tooltip("NV", "3 markers")
    assert "Nevada" in board._states["NV"].toolTip() and "3 markers" in board._states["NV"].toolTip()
    grid = board.layer("grid", z=40)
    assert board.layer("grid") is grid
    board.reset_overlays()
    assert not board._tokens and not board._paths and not board._layers
    assert board._states["CA"].fill is None and board._states["CO"].highlight is None
    assert not board._states["UT"].dimmed and board._states["NV"].toolTip() == "Nevada"


def test_neighbouring_states_have_different_colours(qtbot):
    from stateside.geo.borders import derived_borders

    board = BoardView()
    qtbot.addWidget(board)
    for a, b in derived_borders().pairs:
        assert board._states[a].base_colour != board._states[b].base_colour, (a, b)


def test_the_qt_binding_keeps_none_alive(qtbot):
    """PySide6 6.12.0 drops a reference to None on every void call, and Python 3.11
    aborts at exit once None's count runs out; pyproject.toml keeps that release out."""
    import sys

    board = BoardView()
    qtbot.addWidget(board)
    before = sys.getrefcount(None)
    for _ in range(2000):
        board._states["TX"].update()
    assert sys.getrefcount(None) - before > -100


def _leaders(board):
    return [(tab.leader_from, tab.state.label_at) for tab in board._tabs.values()]


def _cross(a, b, c, d) -> bool:
    def side(p, q, r):
        return (q.x() - p.x()) * (r.y() - p.y()) - (q.y() - p.y()) * (r.x() - p.x())
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def test_callout_leader_lines_never_cross(board):
    """Issue 11: the leaders of NJ/MD/DE and of MA/RI/CT crossed; now no two do."""
    leaders = _leaders(board)
    crossings = [(x, y) for i, x in enumerate(CALLOUT_STATES) for j, y in enumerate(CALLOUT_STATES)
                 if i < j and _cross(*leaders[i], *leaders[j])]
    assert crossings == []
    tops = [board._tabs[c].rect.top() for c in CALLOUT_STATES]
    assert tops == sorted(tops)   # one column, in the listed order


def test_callout_tabs_keep_their_screen_size_when_zoomed(qtbot, board):
    """Issue 11: zooming in no longer grows the tabs off the edge: each keeps its size on
    screen and its centre (where tokens and paths end), and still takes the click."""
    tab = board._tabs["RI"]
    anchor = board.state_anchor("RI")

    def on_screen():
        return board.mapFromScene(tab.rect).boundingRect()

    before = on_screen()
    board.add_token("RI", key="t")
    for _ in range(4):
        qtbot.keyClick(board, Qt.Key_Plus)
    assert board.transform().m11() > 2
    after = on_screen()
    assert abs(after.width() - before.width()) <= 2 and abs(after.height() - before.height()) <= 2
    assert board.state_anchor("RI") == anchor
    assert board._tokens["t"].pos().x() < tab.rect.right() + TOKEN_SIZE + 6   # still beside the tab
    board.centerOn(anchor)
    point = board.mapFromScene(anchor)
    with qtbot.waitSignal(board.stateClicked, timeout=1000) as blocker:
        qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=point)
    assert blocker.args == ["RI"]
    qtbot.keyClick(board, Qt.Key_0)
    assert on_screen() == before and tab.rect == tab.base_rect


def test_a_tooltip_goes_when_the_pointer_leaves_the_state(qtbot, board):
    """Issue 11: a state's tooltip stayed up after the pointer left the state (out over the
    sea), and after it left the map."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    viewport = board.viewport()
    texas = board.state_view_point("TX").toPoint()
    gulf = board.mapFromScene(QPointF(700, 600))
    assert board.state_at(board.mapToScene(gulf)) is None

    def show_texas_tip():
        QToolTip.showText(viewport.mapToGlobal(texas), board._states["TX"].toolTip(), viewport)
        qtbot.waitUntil(QToolTip.isVisible, timeout=1000)

    show_texas_tip()
    qtbot.mouseMove(viewport, texas + QPoint(3, 0))      # still on Texas: it stays
    assert QToolTip.isVisible()
    qtbot.mouseMove(viewport, gulf)                       # out to sea: it goes
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=1000)
    show_texas_tip()
    QApplication.sendEvent(viewport, QEvent(QEvent.Leave))   # off the map: it goes
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=1000)
