"""Help > Learn to play: a tutorial (stateside.engine.tutorial, data) run over a game's mode.

A thin layer: the mode plays the tutorial's seeded match as any other game; this module
only shows the step's text in a box over the mode, rings what to look at (states on the
map, or a widget by name), and watches the person's actions through the mode's
`action_guard` (app/mode.py): the action a step waits for goes in, any other is refused
before it is applied, with words that explain it. After the last step the waiting seats
get their computer players and the box goes: the game goes on as an ordinary one.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QKeySequence, QPainterPath, QPen, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from stateside.board.plain import plain_label
from stateside.engine.tutorial import CHANCE_STEP, Tutorial, readable_tutorials, refusal, step_fits
from stateside.errors import IllegalActionError

RING = "#ff7b00"       # the tutorial's own colour: a ring no game uses
LAYER = "tutorial"


def find_widget(root: QWidget, name: str) -> QWidget | None:
    """A visible widget by objectName or by the mode's name for it ("spinner"; "name#1": the
    second), or a button by the start of its text ("text:Spin")."""
    if name.startswith("text:"):
        want = name[5:].replace("&", "").lower()
        for button in root.findChildren(QAbstractButton):
            if button.isVisible() and button.text().replace("&", "").lower().startswith(want):
                return button
        return None
    name, _, nth = name.partition("#")
    i = int(nth) if nth.isdigit() else 0
    found = [w for w in root.findChildren(QWidget, name) if w.isVisible()]
    if not found:   # a mode's own part by its name (mode.spinner), or a list of them
        part = getattr(root, name, None)
        found = [w for w in (part if isinstance(part, (list, tuple)) else [part])
                 if isinstance(w, QWidget) and w.isVisible()]
    return found[i] if i < len(found) else None


class _Ring(QFrame):
    """An orange frame drawn over a widget the step is about; clicks go through it."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("tutorialRing")
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setStyleSheet(f"QFrame#tutorialRing {{ border: 3px solid {RING}; border-radius: 6px; "
                           f"background: transparent; }}")
        self.hide()


class TutorialBox(QFrame):
    """The step's box: where we are, what to do and why, the answer to a wrong try."""

    def __init__(self, parent: QWidget, on_next, on_leave):
        super().__init__(parent)
        self.setObjectName("tutorialBox")
        self.setStyleSheet(
            f"QFrame#tutorialBox {{ background: #fffaf0; border: 2px solid {RING}; border-radius: 8px; }}"
            "QLabel#tutorialWhy { color: #9d0208; }")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        self.heading = plain_label()
        self.heading.setObjectName("tutorialHeading")
        self.heading.setStyleSheet("font-weight: bold; color: #1d3557;")
        self.heading.setWordWrap(True)
        self.text = plain_label()
        self.text.setObjectName("tutorialText")
        self.text.setWordWrap(True)
        self.why = plain_label()
        self.why.setObjectName("tutorialWhy")
        self.why.setWordWrap(True)
        self.why.hide()
        row = QHBoxLayout()
        self.leave = QPushButton("Leave tutorial")
        self.leave.setObjectName("tutorialLeave")
        self.leave.setToolTip("Stop the tutorial; the game stays and goes on against the computer")
        self.leave.clicked.connect(on_leave)
        self.next = QPushButton("Next")
        self.next.setObjectName("tutorialNext")
        for button in (self.leave, self.next):   # a click leaves the keys where they were (the map, the cards)
            button.setFocusPolicy(Qt.NoFocus)
        self.next.clicked.connect(on_next)
        self.next_key = QShortcut(QKeySequence("Ctrl+Shift+Return"), parent, on_next)
        self.next_key.setContext(Qt.WidgetWithChildrenShortcut)
        row.addWidget(self.leave)
        row.addStretch(1)
        row.addWidget(self.next)
        lay.addWidget(self.heading)
        lay.addWidget(self.text)
        lay.addWidget(self.why)
        lay.addLayout(row)
        self.setFixedWidth(380)
        self.setCursor(Qt.OpenHandCursor)
        self.setToolTip("Drag the box to move it out of the way")
        self.dragged = False
        self._grab = None
        self.hide()

    # The box may cover what a person wants to see: it can be dragged anywhere over the game.
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self._grab = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._grab is not None:
            parent = self.parentWidget().rect()
            to = self.mapToParent(event.position().toPoint() - self._grab)
            self.move(max(0, min(to.x(), parent.width() - self.width())),
                      max(0, min(to.y(), parent.height() - self.height())))
            self.dragged = True
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        self._grab = None
        super().mouseReleaseEvent(event)


class TutorialRun(QObject):
    """One tutorial running over one mode (the mode keeps playing the game)."""

    def __init__(self, mode, tutorial: Tutorial, on_end=None):
        super().__init__(mode)
        self.mode = mode
        self.tutorial = tutorial
        self.on_end = on_end
        self.index = 0
        self.done: list[int] = []   # the log's length just before each step's action went in
        self.finished = False
        self.waiting = False   # a step's action went in; the next step waits for the computers' moves
        self.match = tutorial.match()
        self.box = TutorialBox(mode, self.next_pressed, self.leave)
        self.ring = _Ring(mode)
        if mode.online is not None:   # the referee keeps the online game
            mode.leave_online(restore=False)
        mode.installEventFilter(self)
        mode.action_guard = self.guard
        mode.changed.connect(self._changed)
        mode.start_tutorial(self.match)
        self.show_step()

    # ------------------------------------------------------------------ steps
    @property
    def step(self):
        return self.tutorial.steps[self.index] if not self.finished else None

    def show_step(self) -> None:
        step = self.step
        if step is None:
            return
        self.waiting = False
        n = len(self.tutorial.steps)
        self.box.heading.setText(f"Learn to play: {self.tutorial.title} (step {self.index + 1} of {n})")
        self.box.text.setText(step.text)
        self.box.why.hide()
        last = self.index == n - 1
        self.box.next.setVisible(not step.waits_for_action)
        self.box.next.setText("Play on" if last else "Next")
        self.box.next.setToolTip("End the tutorial: the game goes on against the computer (Ctrl+Shift+Enter)"
                                 if last else "The next step (Ctrl+Shift+Enter)")
        self.mode.hold_for_reading()   # real time: the clock is held while a step is read
        self._place()
        self.box.show()
        self.box.raise_()
        self.highlight()
        QTimer.singleShot(0, self, self._rehighlight)

    def highlight(self) -> None:
        board = self.mode.board
        board.remove_layer(LAYER)
        step = self.step
        if step is None:
            self.ring.hide()
            return
        if step.states and self.mode.active:
            layer = board.layer(LAYER, z=95)
            pen = QPen(QColor(RING), 4.0)
            pen.setCosmetic(True)
            for code in step.states:
                item = QGraphicsPathItem(_outline(board, code))
                item.setPen(pen)
                layer.addToGroup(item)
        widget = find_widget(self.mode, step.widget) if step.widget else None
        if widget is not None and widget is not self.box:
            top_left = widget.mapTo(self.mode, widget.rect().topLeft())
            self.ring.setGeometry(top_left.x() - 4, top_left.y() - 4, widget.width() + 8, widget.height() + 8)
            self.ring.show()
            self.ring.raise_()
            self.box.raise_()
        else:
            self.ring.hide()

    def _place(self) -> None:
        """The box in a bottom corner of the map (the right one, unless the step's states are
        there), clear of the mode's side panels and of what the step asks to look at."""
        self.box.adjustSize()
        slot = self.mode.play_area()   # the map, or where a mode plays without it (Carcassonne's table)
        if not slot.isVisible():
            slot = None
        area = QRect(slot.mapTo(self.mode, QPoint(0, 0)), slot.size()) if slot is not None else self.mode.rect()
        lay = self.box.layout()
        lay.activate()
        w = self.box.width()
        size = QSize(w, max(lay.totalHeightForWidth(w), lay.totalMinimumSize().height()) if lay.hasHeightForWidth()
                     else self.box.sizeHint().height())
        self.box.resize(size)
        if self.box.dragged:   # the person moved it out of the way: it stays there
            return
        y = max(8, area.bottom() - size.height() - 12)
        right = QRect(max(8, area.right() - size.width() - 12), y, size.width(), size.height())
        left = QRect(max(8, area.left() + 12), y, size.width(), size.height())
        self.box.move((left if self._states_rect().intersects(right) else right).topLeft())

    def _states_rect(self) -> QRect:
        """Where the step's states are on screen, in the mode's coordinates (empty: none)."""
        step, board = self.step, self.mode.board
        if step is None or not step.states or not board.isVisible():
            return QRect()
        scene = QRectF()
        for code in step.states:
            scene = scene.united(_outline(board, code).boundingRect())
        view = board.mapFromScene(scene).boundingRect()
        return QRect(board.viewport().mapTo(self.mode, view.topLeft()), view.size())

    # ------------------------------------------------------------------ the person's input
    def guard(self, action) -> str | None:
        """The mode asks before applying a person's action (see GameMode.action_guard)."""
        step = self.step
        if step is None:
            return None
        if self.mode.match is not self.match:   # another game is on screen: not ours to watch
            return None
        state = self.match.state
        fits = step.expect == CHANCE_STEP if action == CHANCE_STEP else (
            action != CHANCE_STEP and step_fits(step, state, action))
        if not fits:
            why = refusal(self.tutorial, step)
            self.box.why.setText(why)
            self.box.why.show()
            self._place()
            return why
        if action != CHANCE_STEP:
            try:   # an illegal action the mode refuses in its own words; the step still waits
                state.clone().apply_action(action)
            except IllegalActionError:
                return None
        self.done.append(len(self.match.log))
        self.index += 1
        QTimer.singleShot(0, self._after_action)
        return None

    def _after_action(self) -> None:
        if self.finished:
            return
        if self.index >= len(self.tutorial.steps):
            self.finish()
        elif self._ready():
            self.show_step()
        else:   # the next step speaks of what the others do first: it waits for them
            self.waiting = True
            self.box.text.setText("The others play now: watch the map and the list of moves.")
            self.box.why.hide()
            self.box.next.hide()
            self.highlight_none()

    def _ready(self) -> bool:
        """Is it the person's turn again (the computers have moved)? Real time: at once."""
        return self.mode.is_human_turn() or self.mode.match is None or self.mode.match.is_over()

    def highlight_none(self) -> None:
        self.mode.board.remove_layer(LAYER)
        self.ring.hide()

    def next_pressed(self) -> None:
        step = self.step
        if step is None or step.waits_for_action:
            return
        self.done.append(len(self.match.log))
        self.index += 1
        if self.index >= len(self.tutorial.steps):
            self.finish()
        else:
            self.show_step()

    def _changed(self) -> None:
        if self.finished:
            return
        if self.mode.match is not self.match and self.mode.replaying is None:
            self.leave(quiet=True)   # a new game or a loaded one replaced the tutorial's
            return
        # Ctrl+Z took a step's action back: that step again.
        log, back = len(self.match.log), False
        while self.done:
            before, prev = self.done[-1], self.tutorial.steps[self.index - 1]
            if log < before or (prev.waits_for_action and log <= before):
                self.done.pop()
                self.index -= 1
                back = True
            else:
                break
        if back or (self.waiting and self._ready()):
            self.show_step()
        elif not self.waiting:   # after the mode's new buttons are shown (a layout shows them a moment later)
            QTimer.singleShot(0, self, self._rehighlight)

    def _rehighlight(self) -> None:
        if not self.finished and not self.waiting:
            self.highlight()

    # ------------------------------------------------------------------ the end
    def finish(self) -> None:
        """The hand-over: the game goes on as an ordinary one against the computer."""
        self._stop()
        self.tutorial.hand_over(self.match)
        self.mode.status.emit("Tutorial done: the game is yours to finish against the computer.")
        self.mode.schedule()
        if self.on_end:
            self.on_end(self)

    def leave(self, quiet: bool = False) -> None:
        if self.finished:
            return
        if self.mode.match is self.match:   # the game stays: the computers play their seats
            self.tutorial.hand_over(self.match)
            self.mode.schedule()
        self._stop()
        if not quiet:
            self.mode.status.emit("Tutorial left: the game goes on (Help > Learn to play starts it again).")
        if self.on_end:
            self.on_end(self)

    def _stop(self) -> None:
        self.finished = True
        if self.mode.action_guard == self.guard:
            self.mode.action_guard = None
        self.mode.removeEventFilter(self)
        self.mode.changed.disconnect(self._changed)
        self.mode.board.remove_layer(LAYER)
        self.box.hide()
        self.ring.hide()
        self.box.next_key.setEnabled(False)
        self.box.next_key.deleteLater()
        self.box.deleteLater()
        self.ring.deleteLater()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.mode and event.type() in (QEvent.Resize, QEvent.Show) and not self.finished:
            self._place()
            QTimer.singleShot(0, self, self._rehighlight)
        return False


def _outline(board, code: str) -> QPainterPath:
    """A state's shape on the map, with its callout tab for the small eastern states."""
    path = QPainterPath(board.state_shape(code))
    tab = board.state_tab_rect(code)
    if tab is not None:
        path.addRoundedRect(tab, 4, 4)
    return path


class LearnDialog(QDialog):
    """Help > Learn to play: every game and way to play, each with its tutorial."""

    def __init__(self, tutorials: list[Tutorial], titles: dict[str, str], parent=None, first: str | None = None,
                 variant: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("Learn to play")
        # the chooser's order of games (the order of `titles`), each game's ways to play in its own order
        games = list(titles)
        self.tutorials = sorted(tutorials, key=lambda t: (
            games.index(t.game) if t.game in games else len(games), _way_index(t)))
        tutorials = self.tutorials
        lay = QVBoxLayout(self)
        intro = QLabel("A short first game with a guide: each step says what to do and why, and the game "
                       "goes on against the computer when the steps are done.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.list = QListWidget()
        self.list.setObjectName("tutorialList")
        for t in tutorials:
            item = QListWidgetItem(f"{titles.get(t.game, t.game)}: {t.title}")
            item.setToolTip(t.summary or t.title)
            self.list.addItem(item)
        # the way to play on screen first, else the game's first tutorial
        pick = next((i for i, t in enumerate(tutorials) if t.game == first and t.variant == variant),
                    next((i for i, t in enumerate(tutorials) if t.game == first), 0))
        self.list.setCurrentRow(pick)
        self.list.itemActivated.connect(lambda _item: self.accept())
        lay.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.start = buttons.addButton("Start the tutorial", QDialogButtonBox.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(460, 420)

    def chosen(self) -> Tutorial | None:
        row = self.list.currentRow()
        return self.tutorials[row] if 0 <= row < len(self.tutorials) else None


def _way_index(tutorial: Tutorial) -> int:
    from stateside.engine.match import rules_for

    ways = rules_for(tutorial.game).spec.variants
    return ways.index(tutorial.variant) if tutorial.variant in ways else 0


def bundled() -> tuple[list[Tutorial], list[str]]:
    """The tutorials that load, and what is wrong with those that do not."""
    return readable_tutorials()
