"""The main window: game chooser, the active mode over the shared board, menus,
settings, saving and resuming."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QKeySequence, QPalette

# Dialogs are imported where they are used: PySide6 sets up each Qt class on first
# access, and start-up should pay only for what the first window shows.
from PySide6.QtWidgets import QApplication, QMainWindow, QStackedWidget, QToolBar, QVBoxLayout, QWidget

from stateside import __version__
from stateside.app.mode import GameMode
from stateside.board.plain import literal
from stateside.board.qt_lazy import TOOL_BUTTON_TEXT_ONLY, Qt, single_shot
from stateside.board.view import BoardView
from stateside.errors import DataError, StatesideError
from stateside.games import GameInfo, discover_games, load_object
from stateside.paths import cache_file, resource, use_cache_dir

APP_NAME = "Stateside"
AUTOSAVE_DELAY_MS = 300   # an autosave follows each action this long after it, at most once
DEFAULT_SIZE = (1280, 800)
MINIMUM_SIZE = (1024, 700)   # every mode readable at this size (issue 11, item 5)
# zlib level 1 rather than 6: about 20 ms less for a 1280x800 window, and 10% more bytes
SCREENSHOT_PNG_QUALITY = 80
# Where a mode's main view sits (left, top, right, bottom margins) before it has been laid out once
DEFAULT_MARGINS = (0, 0, 320, 0)
PANEL_COLOUR = "#f7f5ef"   # the side panels' background (the stack's style sheet), also while a mode is built
PANEL_EDGE = "#d8d2c4"     # the side panels' left border (the stack's style sheet)
# The Map explorer's map, before it is first laid out: its panel (app/explorer.py) is 300 wide
# on the right, with a 1-pixel border at its left (shown too while it is built: see _Opening).
EXPLORER_MARGINS = (0, 0, 300, 0)
EXPLORER = GameInfo(
    id="explorer", title="Map explorer", summary="Click a state for its facts and neighbours.",
    mode="stateside.app.explorer:ExplorerMode", order=90,
)


def config_dir() -> Path:
    """Where settings and autosaves live; STATESIDE_CONFIG_DIR overrides (tests use it)."""
    override = os.environ.get("STATESIDE_CONFIG_DIR")
    if override:
        return Path(override)
    from PySide6.QtCore import QStandardPaths

    return Path(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation) or Path.home() / ".stateside")


def shortcuts(key: str | QKeySequence.StandardKey) -> list[QKeySequence] | QKeySequence.StandardKey:
    """What QAction.setShortcuts takes for "Ctrl+R" or a standard key (all of the
    platform's keys for it). Not setShortcut: to choose between its overloads PySide6
    sets up the whole Qt namespace, which start-up leaves until after the first paint
    (see board/qt_lazy.py)."""
    return key if isinstance(key, QKeySequence.StandardKey) else [QKeySequence(key)]


def new_action(text: str, parent: QObject) -> QAction:
    """QAction(text, parent) without its overloads: to choose between them PySide6 sets up
    QIcon (one of them takes an icon), about 1 ms of start-up before the first paint."""
    action = QAction(parent)
    action.setText(text)
    return action


def new_menu(parent_menu, title: str):
    """parent_menu.addMenu(title) (a QMenuBar or a QMenu) without setting up QIcon (see
    new_action): the menu made on its own, then added."""
    from PySide6.QtWidgets import QMenu

    menu = QMenu(title, parent_menu)
    parent_menu.addMenu(menu)
    return menu


def app_icon():
    from PySide6.QtGui import QIcon  # set after the first paint (see MainWindow), and so imported

    icon = QIcon()
    folder = resource("icons")
    for png in sorted(folder.glob("stateside-*.png")) if folder.is_dir() else []:
        icon.addFile(str(png))
    return icon


class _Opening(QWidget):
    """What the window shows while a mode is built after the first paint (see
    MainWindow.open_mode_painting_first): the shared board, or for a game whose first
    screen is its own table that table's colour, where the mode will put its main view
    (the margins it had the last time), and the panels' colour around it."""

    def __init__(self, board: BoardView, margins: tuple[int, int, int, int], table_colour: str | None,
                 panel_edge: bool = False):
        """`panel_edge`: the side panel's border at the left of the right margin, as the
        Map explorer's panel has it (a plain widget: no style sheet before the first paint)."""
        super().__init__()
        self.setObjectName("openingMode")
        _fill(self, PANEL_COLOUR)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(*margins)
        if table_colour is None:
            self.view: QWidget = board
        else:
            self.view = QWidget()
            _fill(self.view, table_colour)
        lay.addWidget(self.view)
        self.right_margin = margins[2]
        self.edge: QWidget | None = None
        if panel_edge and self.right_margin > 0:
            self.edge = QWidget(self)
            _fill(self.edge, PANEL_EDGE)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.edge is not None:
            self.edge.setGeometry(self.width() - self.right_margin, 0, 1, self.height())


def _fill(widget: QWidget, colour: str) -> None:
    """A plain background (a palette, not a style sheet: cheap before the first paint)."""
    palette = widget.palette()
    palette.setColor(QPalette.Window, QColor(colour))
    widget.setPalette(palette)
    widget.setAutoFillBackground(True)


class MainWindow(QMainWindow):
    # A mode opened with open_mode_painting_first is built and shown (its id).
    opened = Signal(str)

    def __init__(self, *, persist: bool = True, caches: bool | None = None, defer_menus: bool = False):
        """`caches` (as `persist` unless given): keep what is worked out from the bundled
        data (the map's shapes, the borders) in the settings folder, and read it back.
        `defer_menus`: the menus' settings entries (After your move, the turn sound,
        Animations) are filled by complete_menus, which start-up runs after the first
        paint; every action with a keyboard shortcut is made at once."""
        super().__init__()
        self.persist = persist   # off for --screenshot: no settings read or written, no autosave
        self.notices: list[str] = []   # messages that wait for the player (see notify)
        self.autosaving = persist   # off too when another running copy holds the lock
        self.lock = None
        if persist:
            self._take_lock()
        self._autosave_timer = QTimer(self)   # after every action, debounced
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(AUTOSAVE_DELAY_MS)
        self._autosave_timer.timeout.connect(self.autosave_current)
        self.setWindowTitle(APP_NAME)
        # Below this every mode's panels still fit (checked in tests/test_app_shell.py).
        self.setMinimumSize(*MINIMUM_SIZE)
        # Six PNGs to decode: after the first paint, which is what start-up waits for.
        single_shot(150, self, self._set_icon)   # with `self` as context: dropped if the window goes
        self.settings = QSettings(str(config_dir() / "settings.ini"), QSettings.IniFormat) if persist else None
        caches = persist if caches is None else caches
        if caches:   # e.g. the borders (see paths.cache_file)
            use_cache_dir(config_dir() / "cache")
        self.board = BoardView(shape_cache=cache_file("board-shapes.bin") if caches else None)
        self.games: list[GameInfo] = [*discover_games(), EXPLORER]
        self.modes: dict[str, GameMode] = {}
        self._current: GameMode | None = None
        # A mode to be built just after the first paint (open_mode_painting_first): its
        # id, whether it was asked for by name (--mode), and what is shown meanwhile.
        self._pending: tuple[str, bool] | None = None
        self._opening: _Opening | None = None
        self.current_files: dict[str, Path] = {}   # game id -> the file last opened or saved in it
        self._file_games: dict[str, object] = {}   # game id -> the game (match) that file holds
        self._last_folder: str | None = None   # where Open and Save start (when not persisted)
        self._autosave_failed: set[str] = set()
        self.data_errors: dict[str, str] = {}   # game id -> why its data check failed
        self.chooser_actions: dict[str, QAction] = {}
        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.stack.setStyleSheet("QFrame#sidePanel { background: #f7f5ef; border-left: 1px solid #d8d2c4; }")
        # Kept by the copy that owns the autosaves: two copies writing one index would lose games.
        self._history_folder = config_dir() / "history" if self.autosaving else None
        self._history = None   # see history
        # Built before the first paint: built after it (tried for start-up) they saved no
        # measurable time, and the map jumped down under them a moment later.
        self._menus_complete = False
        self._build_chrome()
        if not defer_menus:
            self.complete_menus()

    @property
    def history(self):
        """Game > History: every finished game kept (an app.history.HistoryKeeper), made on
        first use: the first mode is built after the map's first paint, which need not wait."""
        if self._history is None:
            from stateside.app.history import HistoryKeeper

            self._history = HistoryKeeper(self, self._history_folder)
        return self._history

    def _build_chrome(self) -> None:
        """The game chooser, the menus and the status bar's first hint."""
        # The game chooser: a bar of the installed modes across the top, so that the map
        # keeps the whole width of the window.
        self.chooser = QToolBar("Games")
        self.chooser.setObjectName("gameChooser")
        self.chooser.setMovable(False)
        self.chooser.setProperty("toolButtonStyle", TOOL_BUTTON_TEXT_ONLY)   # an int: see board/qt_lazy.py
        self.chooser_group = QActionGroup(self)
        self.chooser_group.setExclusive(True)
        for n, game in enumerate(self.games, 1):
            act = new_action(game.title, self)
            act.setCheckable(True)
            act.setToolTip(f"{game.title} ({game.players})\n{game.summary}" if game.players else game.summary)
            act.setShortcuts(shortcuts(f"Alt+{n}"))
            act.triggered.connect(lambda _checked=False, gid=game.id: self.choose(gid))
            self.chooser_group.addAction(act)
            self.chooser.addAction(act)
            self.chooser_actions[game.id] = act
        # Style sheets are set on the widgets they style, not the window: a window-wide
        # sheet makes Qt restyle every widget it creates, which start-up pays for.
        chooser_style = (
            "QToolBar#gameChooser { background: #1d3557; border: none; spacing: 2px; padding: 3px; }"
            "QToolBar#gameChooser QToolButton { color: #f1faee; padding: 6px 12px; font-size: 13px;"
            " border-radius: 4px; }"
            "QToolBar#gameChooser QToolButton:hover { background: #2c4a70; }"
            # not bold: a button is sized for its normal text, and bold text was cut off at the ends
            "QToolBar#gameChooser QToolButton:checked { background: #e63946; color: white; }"
            # a game whose data is broken (see _check_data): greyed, in italics
            "QToolBar#gameChooser QToolButton:disabled { color: #9fb0c8; font-style: italic; }"
        )
        # The first-run offer: shown beside the chooser until a game's tutorial was taken or declined.
        self.act_learn_offer = new_action("Learn to play\u2026", self)
        self.act_learn_offer.setObjectName("learnOffer")
        self.act_learn_offer.setToolTip("A short guided first game (Help > Learn to play)")
        self.act_learn_offer.triggered.connect(
            lambda: self.learn_to_play(self.current.game_id if self.current else None))
        self.act_learn_offer.setVisible(False)
        self.chooser.addSeparator()
        self.chooser.addAction(self.act_learn_offer)
        # An offer, not a game: in the tutorial's orange, outlined.
        self.chooser.widgetForAction(self.act_learn_offer).setObjectName("learnOffer")
        # (one style sheet, set once: each setStyleSheet restyles the bar and its buttons)
        self.chooser.setStyleSheet(chooser_style + (
            "QToolBar#gameChooser QToolButton#learnOffer { color: #ffb36b; border: 1px solid #ff7b00; }"
            "QToolBar#gameChooser QToolButton#learnOffer:hover { background: #3a2a1a; }"))
        self.tutorial_run = None   # the tutorial running (stateside.app.tutorial.TutorialRun), if any
        self.addToolBar(self.chooser)   # at the top
        self._build_menus()
        self.statusBar().showMessage("Choose a game in the bar above, or explore the map.")

    def _set_icon(self) -> None:
        self.setWindowIcon(app_icon())

    # ---------------------------------------------------------------- menus
    def _build_menus(self) -> None:
        def action(menu, text, slot, shortcut=None):
            a = new_action(text, self)
            if shortcut:
                a.setShortcuts(shortcuts(shortcut))
            a.triggered.connect(slot)
            menu.addAction(a)
            return a

        bar = self.menuBar()
        game = new_menu(bar, "&Game")
        self.act_new = action(game, "&New game\u2026", self.new_game, QKeySequence.New)
        self.act_open = action(game, "&Open saved game\u2026", self.open_file, QKeySequence.Open)
        self.act_save = action(game, "&Save game as\u2026", self.save_file, QKeySequence.Save)
        self.act_history = action(game, "&History of games\u2026", self.show_history, "Ctrl+H")
        self.act_online = action(game, "Play on&line\u2026", self.play_online)
        self.act_replay = action(game, "&Replay\u2026", self.replay, "Ctrl+R")
        game.addSeparator()
        self.act_undo = action(game, "&Undo", self.undo, QKeySequence.Undo)
        # Their titles now (the menus look the same from the start), their entries by
        # complete_menus: reading their settings, finding out whether sound can play and
        # importing the animations cost start-up about 2 ms. None has a shortcut.
        self._beat_menu = new_menu(game, "After your &move")
        self.mode_menu_separator = game.addSeparator()   # the active game's own actions follow
        self.mode_menu_actions: list[QAction] = []
        game.addSeparator()
        action(game, "&Quit", self.close, QKeySequence.Quit)
        self.game_menu = game
        view = new_menu(bar, "&View")
        action(view, "Zoom &in", lambda: self.board.zoom_by(1.25), QKeySequence.ZoomIn)
        action(view, "Zoom &out", lambda: self.board.zoom_by(0.8), QKeySequence.ZoomOut)
        action(view, "&Fit map to window", self.board.fit, "Ctrl+0")
        view.addAction(self.chooser.toggleViewAction())
        self._motion_menu = new_menu(view, "&Animations")
        for menu in (game, view):   # should one open before complete_menus has run
            menu.aboutToShow.connect(self.complete_menus)
        helpm = new_menu(bar, "&Help")
        action(helpm, "&Rules of this game", self.show_rules, QKeySequence.HelpContents)
        self.act_learn = action(helpm, "&Learn to play\u2026", lambda: self.learn_to_play(
            self.current.game_id if self.current else None), "Ctrl+Shift+L")
        action(helpm, "&About Stateside", self.show_about)

    # The computers' pause after a person's move, in which Ctrl+Z takes it back.
    BEATS = (("Computers answer at once", 0), ("Computers wait 1.5 s (Ctrl+Z takes your move back)", 1500),
             ("Computers wait 3 s", 3000))

    def complete_menus(self) -> None:
        """The menu entries that __init__ may leave for after the first paint (once)."""
        if self._menus_complete:
            return
        self._menus_complete = True
        self._build_beat_menu(self._beat_menu)
        self._build_turn_cue(self.game_menu)
        self._build_motion_menu(self._motion_menu)

    def _build_beat_menu(self, menu) -> None:
        group = QActionGroup(self)
        stored = self.settings.value("undo_beat_ms") if self.settings is not None else None
        try:
            current = int(stored) if stored is not None else GameMode.undo_beat_ms
        except (TypeError, ValueError):   # a hand-edited settings file: the default
            current = GameMode.undo_beat_ms
        if current not in {ms for _, ms in self.BEATS}:
            current = 1500
        if stored is not None:
            GameMode.undo_beat_ms = current
        for text, ms in self.BEATS:
            a = QAction(text, self, checkable=True)
            a.setChecked(ms == GameMode.undo_beat_ms)
            a.triggered.connect(lambda _=False, ms=ms: self.set_undo_beat(ms))
            group.addAction(a)
            menu.addAction(a)

    def _build_turn_cue(self, game) -> None:
        """The turn cue (app/cue.py) and its setting: a sound as well as the window's alert."""
        from stateside.app.cue import TurnCue

        self.cue = TurnCue(self, self.settings, cache_file("turn-cue.wav") if self.persist else None)
        text = "&Sound when it is your turn" if self.cue.can_play_sound() else "&Beep when it is your turn"
        self.act_turn_sound = QAction(text, self, checkable=True)
        self.act_turn_sound.setChecked(self.cue.sound)
        self.act_turn_sound.setToolTip("When it becomes your turn while the window is in the background")
        self.act_turn_sound.toggled.connect(self.cue.set_sound)
        game.insertAction(self.mode_menu_separator, self.act_turn_sound)

    def _build_motion_menu(self, menu) -> None:
        """View > Animations: how fast pieces move into place (Off: they appear at once)."""
        from stateside.board.motion import SPEEDS, Motion

        group = QActionGroup(self)
        stored = self.settings.value("animation_ms") if self.settings is not None else None
        try:
            current = int(stored) if stored is not None else Motion.duration_ms
        except (TypeError, ValueError):   # a hand-edited settings file: the default
            current = Motion.duration_ms
        if stored is not None and current in {ms for _, ms in SPEEDS}:
            Motion.duration_ms = current
        self.motion_actions: dict[int, QAction] = {}
        for text, ms in SPEEDS:
            a = QAction(text if ms == 0 else f"{text} ({ms} ms a move)", self, checkable=True)
            a.setChecked(ms == Motion.duration_ms)
            a.triggered.connect(lambda _=False, ms=ms: self.set_motion(ms))
            group.addAction(a)
            menu.addAction(a)
            self.motion_actions[ms] = a

    def set_motion(self, ms: int) -> None:
        from stateside.board.motion import Motion

        Motion.duration_ms = ms
        self.board.motion.finish()
        if ms in getattr(self, "motion_actions", {}):
            self.motion_actions[ms].setChecked(True)
        if self.settings is not None:
            self.settings.setValue("animation_ms", ms)
        self.statusBar().showMessage("Animations off: pieces appear in place at once." if ms == 0 else
                                     f"Pieces move into place in about {ms} ms.", 6000)

    def set_undo_beat(self, ms: int) -> None:
        GameMode.undo_beat_ms = ms
        if self.settings is not None:
            self.settings.setValue("undo_beat_ms", ms)
        self.statusBar().showMessage("Computers answer at once: your moves are final." if ms == 0 else
                                     f"Computers wait {ms / 1000:g} s after your move: Ctrl+Z takes it back meanwhile.",
                                     6000)

    def refresh_actions(self) -> None:
        mode = self.current
        has_game = bool(mode and mode.has_game())
        self.act_new.setEnabled(bool(mode and type(mode).new_game is not GameMode.new_game))
        self.act_save.setEnabled(has_game)
        # Open and Replay work from every mode: a save opens in its own game's mode.
        self.act_open.setEnabled(True)
        self.act_replay.setEnabled(True)
        self.act_undo.setEnabled(has_game)   # pressed when refused, it says why

    def game_in_progress(self, mode: GameMode | None) -> bool:
        """A game that New or Open would throw away (GameMode.game_in_progress)."""
        return mode is not None and bool(mode.game_in_progress())

    def confirm_discard(self, question: str = "Start a new game?") -> bool:
        """Ask before a game in progress is replaced; True to go ahead."""
        from PySide6.QtWidgets import QMessageBox

        answer = self.modal(lambda: QMessageBox.question(
            self, APP_NAME, literal(f"{question} The game in progress will be lost."),
            QMessageBox.Yes | QMessageBox.No, QMessageBox.No))
        return answer == QMessageBox.Yes

    def at_online_table(self, mode) -> bool:
        """Whether the mode plays at an online table whose game is not over."""
        game = mode.game
        return mode.online is not None and not (game is not None and game.is_terminal())

    def confirm_leave_table(self, mode, question: str) -> bool:
        """Ask before leaving an online table (New game, Open, Quit); True to leave. The
        others are left waiting for the seat until someone takes it by the table's code."""
        from PySide6.QtWidgets import QMessageBox

        table = mode.online.table or ""
        answer = self.modal(lambda: QMessageBox.question(
            self, APP_NAME, literal(f"{question} You will leave online table {table}; the others will wait "
                                    "until someone takes your seat with the table's code."),
            QMessageBox.Yes | QMessageBox.No, QMessageBox.No))
        return answer == QMessageBox.Yes

    def new_game(self) -> None:
        """Game > New: ask first if a game is in progress, then the mode's own setup."""
        mode = self.current
        if mode is None:
            return
        if self.at_online_table(mode):
            if not self.confirm_leave_table(mode, "Start a new game?"):
                return
            mode.leave_online()   # (the screen's own game comes back: the new one replaces it)
        elif self.game_in_progress(mode) and not self.confirm_discard():
            return
        before = mode.save_state()
        mode.new_game()
        if mode.save_state() != before:   # not when the setup was cancelled
            self.current_files.pop(mode.game_id, None)
            self.update_title()

    @staticmethod
    def _game_of(mode: GameMode) -> object:
        """The game a mode plays now (its match), to tell a new game from the one in a file."""
        return mode.match

    def _forget_file_of_another_game(self, mode: GameMode) -> None:
        """A new game began without Game > New (the score table's New game, a mode's own
        button): the file open before is no longer the game on screen, nor its title."""
        if mode.game_id in self.current_files and self._file_games.get(mode.game_id) is not self._game_of(mode):
            if mode.replaying is not None:   # a replay puts the game aside, not away
                return
            self.current_files.pop(mode.game_id, None)
            self._file_games.pop(mode.game_id, None)
            if mode is self.current:
                self.update_title()

    def replay(self) -> None:
        try:
            from stateside.app.replay import start_replay
        except ImportError:
            from PySide6.QtWidgets import QMessageBox

            self.modal(lambda: QMessageBox.information(self, APP_NAME, "Replays are not available in this build."))
            return
        start_replay(self)

    def show_history(self) -> None:
        from stateside.app.history import show_history

        show_history(self)

    def update_title(self) -> None:
        """"name.json \u2013 Game \u2013 Stateside" while a file is open in the mode shown."""
        mode = self.current
        if mode is None:
            self.setWindowTitle(APP_NAME)
            return
        info = next((g for g in self.games if g.id == mode.game_id), None)
        title = f"{info.title if info else mode.title} \u2013 {APP_NAME}"
        path = self.current_files.get(mode.game_id)
        # A window title is plain text; only "[*]" means something to Qt (the unsaved mark).
        self.setWindowTitle(f"{path.name.replace('[*]', '[*][*]')} \u2013 {title}" if path else title)

    def last_folder(self) -> str:
        """Where Open, Save and Replay start: the folder last used, else the home folder
        (a str, as Qt's file dialogs take it)."""
        value = self.settings.value("last_folder") if self.settings is not None else self._last_folder
        folder = Path(str(value)) if value else None
        return str(folder if folder is not None and folder.is_dir() else Path.home())

    def remember_folder(self, path: str | Path) -> None:
        folder = str(Path(path).resolve().parent)
        self._last_folder = folder
        if self.settings is not None:
            self.settings.setValue("last_folder", folder)

    # ---------------------------------------------------------------- modes
    @property
    def current(self) -> GameMode | None:
        """The mode shown. A mode still waiting to be built after the first paint is built
        at the first look: whatever asks for it (a menu, a save, online play) gets it whole."""
        if self._pending is not None:
            self.finish_opening()
        return self._current

    @current.setter
    def current(self, mode: GameMode | None) -> None:
        self._current = mode

    def mode_ids(self) -> list[str]:
        return [g.id for g in self.games]

    def open_mode_painting_first(self, mode_id: str, *, asked: bool = False) -> None:
        """Open a mode at start-up with its map painted first: the window shows the shared
        board (or the game's table colour, GameInfo.table_colour) where the mode will put
        it, and the mode (its module, its panels, its resumed game) is built just after that
        first paint. Importing and building a game's mode takes 100-300 ms, which the map
        need not wait for. Anything that asks for `current` before then builds it at once.
        `asked`: the mode was named on the command line; if it cannot be opened the app
        ends with exit code 2 (as before it would have shown no window), where the last
        game used falls back to the Map explorer."""
        info = next((g for g in self.games if g.id == mode_id), None)
        # Nothing to gain for a mode built already, or a window showing one. The Map explorer
        # comes this way too: built in about 3 ms, but laying out and polishing its panel's
        # frame before the first paint cost about 10 ms more.
        if (info is None or mode_id in self.modes or self._current is not None
                or self._pending is not None):
            self.open_mode(mode_id)   # the usual way (and its errors)
            return
        self._pending = (mode_id, asked)
        self._opening = _Opening(self.board, self._remembered_margins(mode_id), info.table_colour,
                                 panel_edge=mode_id == EXPLORER.id)
        self.stack.addWidget(self._opening)
        self.stack.setCurrentWidget(self._opening)
        self.chooser_actions[mode_id].setChecked(True)
        self.setWindowTitle(f"{info.title} \u2013 {APP_NAME}")
        self._offer_tutorial(mode_id)   # the chooser as it will be: the map does not move down later
        view = self._opening.view   # (a graphics view paints in its viewport)
        after_first_paint(view.viewport() if view is self.board else view, self.finish_opening)

    def finish_opening(self) -> None:
        """Build the mode that open_mode_painting_first left for after the first paint (once)."""
        if self._pending is None:
            return
        (mode_id, asked), self._pending = self._pending, None
        opening, self._opening = self._opening, None
        try:
            self.open_mode(mode_id)
        except StatesideError as e:
            if asked:
                print(f"stateside: --mode {mode_id}: {e}", file=sys.stderr)
                QTimer.singleShot(0, lambda: QApplication.exit(2))
            self.open_mode(EXPLORER.id)   # the last game used is broken: start on the map
        finally:
            if self.board.parent() is opening:   # (no mode took it) the board outlives the stand-in
                self.board.setParent(None)
            self.stack.removeWidget(opening)
            opening.deleteLater()
        if self._current is not None:
            self.opened.emit(self._current.game_id)

    def _remembered_margins(self, mode_id: str) -> tuple[int, int, int, int]:
        """Where the mode had its main view the last time (left, top, right, bottom margins
        within the mode), so that the map shown before the panels does not move when they
        come. The first time, or if the setting is not four numbers in range, a side panel's
        width on the right (as most modes have; the Map explorer's own)."""
        default = EXPLORER_MARGINS if mode_id == EXPLORER.id else DEFAULT_MARGINS
        value = self.settings.value(f"layout/{mode_id}") if self.settings is not None else None
        # (an ini file's unquoted "a,b,c,d" reads back as a list)
        parts = value if isinstance(value, (list, tuple)) else str(value).split(",")
        try:
            margins = tuple(int(v) for v in parts)
        except (TypeError, ValueError):
            return default
        if len(margins) != 4 or not all(0 <= m <= 4000 for m in margins):
            return default
        return margins   # type: ignore[return-value]

    def _remember_layout(self, mode: GameMode | None) -> None:
        """Keep where the mode shown has its main view (the board, or its largest own view
        such as Carcassonne's table) for the next start (see _remembered_margins)."""
        if self.settings is None or mode is None or not mode.isVisible():
            return
        from PySide6.QtCore import QPoint
        from PySide6.QtWidgets import QGraphicsView

        views = [v for v in (self.board, *mode.findChildren(QGraphicsView)) if v.isVisibleTo(mode)]
        if not views:
            return
        view = max(views, key=lambda v: v.width() * v.height())
        corner = view.mapTo(mode, QPoint(0, 0))
        margins = (corner.x(), corner.y(), mode.width() - corner.x() - view.width(),
                   mode.height() - corner.y() - view.height())
        if all(0 <= m <= 4000 for m in margins):
            self.settings.setValue(f"layout/{mode.game_id}", ",".join(map(str, margins)))

    def open_mode(self, mode_id: str) -> GameMode:
        info = next((g for g in self.games if g.id == mode_id), None)
        if info is None or not info.mode:
            raise StatesideError(f"unknown mode {mode_id!r} (installed: {', '.join(self.mode_ids())})")
        if self.current is not None and self.current.game_id == mode_id:
            return self.current
        if info.rules:   # a game: its turn cue, the computers' beat and the animations' speed (the
            self.complete_menus()   # Map explorer has none of them, and is built before the first paint)
        mode = self.modes.get(mode_id)
        if mode is None:
            self._check_data(info)
            try:
                mode = load_object(info.mode)(self.board)
            except Exception as e:   # a broken game must not take the app down with it
                import traceback

                traceback.print_exc()
                raise StatesideError(f"{info.title} could not be opened: {e}") from e
            mode.game_id = mode.game_id or info.id
            # Only the mode shown speaks in the status bar (issue 11, item 6).
            mode.status.connect(lambda text, m=mode: self._mode_status(m, text))
            mode.changed.connect(self.refresh_actions)
            mode.changed.connect(lambda m=mode: self._forget_file_of_another_game(m))
            mode.changed.connect(self._autosave_timer.start)
            self.history.watch(mode)
            if mode.turn_cue:   # turn-based modes: the window's turn cue
                mode.turn_came.connect(self.cue.turn_came)
            self.modes[mode_id] = mode
            self.stack.addWidget(mode)
            resumed = self._resume(mode)
        else:
            resumed = False
        previous = self.current
        if previous is not None:
            self._remember_layout(previous)
            previous.deactivate()
        self.stack.setCurrentWidget(mode)
        self.current = mode
        mode.activate()
        self.board.setFocus()
        self.update_title()
        # The status bar says what this mode said last, never another mode's message; after a
        # resume it says so and keeps the mode's own message, as the mode's panel does.
        if resumed:
            self.statusBar().showMessage(" ".join(filter(None, ["Resumed your last game.", mode.last_status])),
                                         8000)
        elif mode.last_status:
            self.statusBar().showMessage(mode.last_status, 8000)
        elif previous is not None:
            self.statusBar().clearMessage()
        self.chooser_actions[mode_id].setChecked(True)
        self._offer_tutorial(mode_id)
        self._show_mode_menu_actions(mode)
        if self.settings is not None:
            self.settings.setValue("last_mode", mode_id)
        self.refresh_actions()
        return mode

    def _check_data(self, info: GameInfo) -> None:
        """Load every data file a game needs before its mode is first built: a
        game whose data is broken is refused here, with its message on its chooser
        button, instead of failing half-way through a game (a computer's turn, say)."""
        if info.id in self.data_errors:
            raise DataError(self.data_errors[info.id])
        if not info.data_check:
            return
        try:
            load_object(info.data_check)()
        except Exception as e:   # a check that crashes is broken data too: the app goes on
            if not isinstance(e, DataError):
                import traceback

                traceback.print_exc()
            text = (str(e) if isinstance(e, DataError)
                    else "its data files could not be checked (details in the terminal)")
            self.data_errors[info.id] = f"{info.title} cannot be opened: {text}"
            self._mark_broken(info)
            self.notify(f"{self.data_errors[info.id]}\n\nThe other games can still be played.")
            raise DataError(self.data_errors[info.id]) from None

    def _mark_broken(self, info: GameInfo) -> None:
        act = self.chooser_actions[info.id]
        act.setText(f"{info.title} (data error)")
        act.setToolTip(literal(self.data_errors[info.id]))
        act.setChecked(False)
        act.setEnabled(False)

    def _mode_status(self, mode: GameMode, text: str) -> None:
        if mode is self.current:
            self.statusBar().showMessage(text, 8000)

    def _show_mode_menu_actions(self, mode: GameMode) -> None:
        """The Game menu holds the active mode's own actions, and only its."""
        for act in self.mode_menu_actions:
            self.game_menu.removeAction(act)
        self.mode_menu_actions = list(mode.game_menu_actions())
        after = self.game_menu.actions()
        before = after[after.index(self.mode_menu_separator) + 1]
        self.game_menu.insertActions(before, self.mode_menu_actions)

    def choose(self, mode_id: str) -> None:
        """Open a mode picked in the chooser; a failure is reported, not raised."""
        from PySide6.QtWidgets import QMessageBox

        try:
            self.open_mode(mode_id)
        except StatesideError as e:
            if not isinstance(e, DataError):   # a data error has said so already (notify)
                QMessageBox.warning(self, "Cannot open this game", literal(str(e)))
            if self.current is not None:   # the chooser goes back to what is shown
                self.chooser_actions[self.current.game_id].setChecked(True)

    # ---------------------------------------------------------------- saving
    def autosave_path(self, mode_id: str) -> Path:
        return config_dir() / "autosave" / f"{mode_id}.json"

    def play_online(self) -> None:
        # Imported on use: asyncio and the online client would cost start-up ~75 ms.
        from stateside.app.online import play_online

        play_online(self)

    def _take_lock(self) -> None:
        """One running copy owns the autosaves; a second one plays without them."""
        folder = config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        self.lock = ProcessLock(folder / "stateside.lock")
        if not self.lock.tryLock():
            self.autosaving = False
            self.lock = None
            self.notify("Another Stateside window is already running: this one will not save "
                                "your game automatically. Use Game > Save game as… to keep it.")
            return
        autosaves = folder / "autosave"
        for tmp in autosaves.glob(".*.tmp") if autosaves.is_dir() else ():   # left by a kill mid-write
            try:
                tmp.unlink()
            except OSError:
                pass

    def _resume(self, mode: GameMode) -> bool:
        """Load a mode's autosave, if any; True when a game was resumed (open_mode says so)."""
        if not self.autosaving or type(mode).load_state is GameMode.load_state:
            return False
        path = self.autosave_path(mode.game_id)
        if not path.exists():
            return False
        from stateside.engine.saves import read_save

        try:
            _, body = read_save(path, mode.game_id)
            mode.load_state(body)
            return True
        except Exception as e:   # whatever the file holds, the app starts
            if not isinstance(e, StatesideError):
                import traceback
                traceback.print_exc()
            kept = self._move_aside(path)
            where = f" It is kept as {kept}." if kept else ""
            self.notify(f"Your last game of {mode.title or mode.game_id} could not be resumed: "
                        f"{_message(e)}{where} A new game has started.")
            return False

    @staticmethod
    def _move_aside(path: Path) -> Path | None:
        """Rename an unreadable autosave with the date in its name; never delete it."""
        from stateside.data.saves import move_aside

        return move_aside(path)

    def notify(self, text: str) -> None:
        """A message that stays until the player dismisses it (not the status bar,
        which the next message would replace)."""
        from PySide6.QtWidgets import QMessageBox

        self.notices.append(text)
        box = QMessageBox(QMessageBox.Warning, APP_NAME, literal(text), QMessageBox.Ok, self)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.setModal(False)
        QTimer.singleShot(0, self, box.show)   # once the window itself is up

    def autosave_current(self) -> None:
        if self.current is not None:
            self.autosave(self.current.game_id)

    def autosave(self, mode_id: str) -> None:
        """Write one mode's game to its autosave (atomically), or remove the autosave when
        there is no game to resume. A failure is said once and changes nothing else."""
        if not self.autosaving:
            return
        from stateside.engine.saves import save_game

        mode = self.modes.get(mode_id)
        if mode is None:
            return
        path = self.autosave_path(mode_id)
        try:
            state = mode.save_state()
            if state is not None:
                save_game(path, state)
            elif path.exists():   # the game ended or was never started: nothing to resume
                path.unlink()
            self._autosave_failed.discard(mode_id)
        except (OSError, TypeError, ValueError, StatesideError) as e:   # e.g. over the size a save may hold
            print(f"stateside: autosave of {mode_id} failed: {e}", file=sys.stderr)
            if mode_id not in self._autosave_failed:
                self._autosave_failed.add(mode_id)
                self.statusBar().showMessage(f"Could not save your game automatically: {e}", 15000)

    def autosave_all(self) -> None:
        for mode_id in list(self.modes):
            self.autosave(mode_id)

    def modal(self, run):
        """Run a dialog with the current mode told to pause around it."""
        mode = self.current
        if mode is not None:
            mode.on_modal(True)
        try:
            return run()
        finally:
            if mode is not None:
                mode.on_modal(False)

    def save_file(self) -> None:
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        mode = self.current
        state = mode.save_state() if mode else None
        if state is None:
            return
        current = self.current_files.get(mode.game_id)
        start = str(Path(self.last_folder()) / (current.name if current else f"{mode.game_id}.stateside.json"))
        path, _ = self.modal(lambda: QFileDialog.getSaveFileName(self, "Save game", start,
                                                                 "Stateside saves (*.json)"))
        if not path:
            return
        from stateside.engine.saves import save_game

        try:
            save_game(path, state)
            self.remember_folder(path)
            self.current_files[mode.game_id] = Path(path)
            self._file_games[mode.game_id] = self._game_of(mode)
            self.update_title()
            self.statusBar().showMessage(f"Saved to {path}", 6000)
        except OSError as e:
            QMessageBox.warning(self, "Save failed", literal(f"Could not save to {path}:\n{e.strerror or e}"))
        except StatesideError as e:   # e.g. over the size a save may hold: the file there is kept
            QMessageBox.warning(self, "Save failed", literal(str(e)))

    def open_file(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = self.modal(lambda: QFileDialog.getOpenFileName(self, "Open saved game", self.last_folder(),
                                                                 "Stateside saves (*.json);;All files (*)"))
        if not path:
            return
        self.remember_folder(path)
        online = self._online_mode_for(path)
        if online is not None:
            if not self.confirm_leave_table(online, f"Open {Path(path).name}?"):
                return
            online.leave_online()
        elif self._would_replace_game(path) and not self.confirm_discard(f"Open {Path(path).name}?"):
            return
        self.load_file(path)

    def _online_mode_for(self, path: str):
        """The mode that opening this save would take off an online table, or None."""
        from stateside.engine.saves import read_save

        try:
            game_id, _ = read_save(path)
        except StatesideError:
            return None
        mode = self.modes.get(game_id)
        return mode if mode is not None and self.at_online_table(mode) else None

    def _would_replace_game(self, path: str) -> bool:
        """Whether loading this save throws away a game in progress in its game's mode
        (built, or not built yet but with an autosave that opening it would resume)."""
        from stateside.engine.saves import read_save

        try:
            game_id, _ = read_save(path)
        except StatesideError:
            return False   # load_file says what is wrong with the file and changes nothing
        mode = self.modes.get(game_id)
        if mode is not None:
            return self.game_in_progress(mode)
        return self.autosaving and self.autosave_path(game_id).exists()

    def load_file(self, path: str, quiet: bool = False) -> bool:
        """Open a save in its game's mode; on any problem, say so and change nothing."""
        from PySide6.QtWidgets import QMessageBox

        from stateside.engine.saves import read_save

        try:
            game_id, body = read_save(path)
            if game_id not in self.mode_ids():
                raise StatesideError(f"{path}: a save of {game_id!r}, which is not installed")
            mode = self.open_mode(game_id)
            mode.load_state(body)
        except StatesideError as e:
            text = str(e) if str(path) in str(e) else f"{path}: {e}"   # always name the file
            if quiet:
                print(f"stateside: {text}", file=sys.stderr)
            else:
                QMessageBox.warning(self, "Cannot open this file", literal(text))
            return False
        self.current_files[game_id] = Path(path)
        self._file_games[game_id] = self._game_of(mode)
        self.update_title()
        self.statusBar().showMessage(f"Opened {path}", 6000)
        self.refresh_actions()
        return True

    def undo(self) -> None:
        if self.current and self.current.can_undo():
            self.current.undo()
            self.refresh_actions()
        elif self.current is not None:   # say why, rather than a grey menu item and silence
            self.statusBar().showMessage(self.current.undo_refusal() or "There is nothing to take back here.", 8000)

    # ---------------------------------------------------------------- help
    def show_rules(self) -> None:
        self.modal(self.rules_dialog().exec)

    def rules_dialog(self):
        """The rules of the mode shown, opened at the part about the variant being played."""
        from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

        mode = self.current
        html = mode.help_html() if mode else ""
        dialog = QDialog(self)
        dialog.setWindowTitle(f"Rules \u2013 {mode.title if mode else APP_NAME}")
        browser = QTextBrowser()
        browser.setOpenExternalLinks(True)
        browser.setHtml(html or "<p>No rules page for this mode.</p>")
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(dialog.reject)
        lay = QVBoxLayout(dialog)
        lay.addWidget(browser)
        lay.addWidget(buttons)
        dialog.resize(640, 620)
        anchor = mode.help_anchor() if mode else ""
        if anchor:   # once the page is laid out at the dialog's size
            QTimer.singleShot(0, dialog, lambda: browser.scrollToAnchor(anchor))
        dialog.browser = browser
        return dialog

    # ------------------------------------------------------------------ tutorials
    def _offer_tutorial(self, mode_id: str) -> None:
        """The chooser's offer of a first game with a guide, until this game's was taken or declined."""
        taken = self.settings is not None and bool(self.settings.value(f"tutorials/{mode_id}", False, type=bool))
        has = mode_id != EXPLORER.id and self.tutorial_run is None and not taken
        self.act_learn_offer.setVisible(has)
        if has:
            info = next((g for g in self.games if g.id == mode_id), None)
            # short, so that it fits beside the games at the smallest window
            self.act_learn_offer.setToolTip(f"New to {info.title if info else 'this game'}? "
                                            "A short guided first game (Help > Learn to play)")

    def learn_to_play(self, game_id: str | None = None, tutorial=None) -> None:
        """Help > Learn to play: pick a tutorial (this game's first), open its game and start it."""
        from stateside.app.tutorial import LearnDialog, TutorialRun, bundled

        if tutorial is None:
            tutorials, problems = bundled()
            for problem in problems:   # the others still play; the broken file is named
                self.notify(f"A tutorial cannot be read: {problem}")
            if not tutorials:
                return
            titles = {g.id: g.title for g in self.games}
            match = self.current.match if self.current is not None else None
            variant = (match.initial_setup.get("variant")
                       if match is not None and self.current.game_id == game_id else None)
            dialog = LearnDialog(tutorials, titles, self, first=game_id, variant=variant)
            if self.modal(dialog.exec) != LearnDialog.Accepted or dialog.chosen() is None:
                if self.settings is not None and game_id and self.act_learn_offer.isVisible():
                    self.settings.setValue(f"tutorials/{game_id}", True)   # the offer was declined
                    self.act_learn_offer.setVisible(False)
                return
            tutorial = dialog.chosen()
        mode = self.open_mode(tutorial.game)
        if self.game_in_progress(mode) and not self.confirm_discard("Start the tutorial?"):
            return
        if self.tutorial_run is not None:
            self.tutorial_run.leave(quiet=True)
        if self.settings is not None:
            self.settings.setValue(f"tutorials/{tutorial.game}", True)
        self.current_files.pop(mode.game_id, None)
        self.tutorial_run = TutorialRun(mode, tutorial, on_end=self._tutorial_ended)
        self.act_learn_offer.setVisible(False)
        self.update_title()

    def _tutorial_ended(self, run) -> None:
        if self.tutorial_run is run:
            self.tutorial_run = None

    def show_about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        self.modal(lambda: QMessageBox.about(
            self, "About Stateside",
            f"<h3>Stateside {__version__}</h3><p>Board games about the United States on one shared map.</p>"
            "<p>Map: US Census Bureau cartographic boundaries (public domain) via us-atlas "
            "(ISC licence, \u00a9 Michael Bostock).</p>"))

    # ---------------------------------------------------------------- window
    def restore(self) -> None:
        if self.settings is None:
            return
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)

    def closeEvent(self, event) -> None:
        seated = [m for m in self.modes.values() if self.at_online_table(m)]
        # (a window nobody sees, as in a test, has nobody to ask)
        if seated and self.isVisible() and not self.confirm_leave_table(seated[0], "Quit Stateside?"):
            event.ignore()
            return
        self._autosave_timer.stop()
        self._remember_layout(self._current)
        for mode in self.modes.values():   # give up online seats now: the process ends at once after
            if mode.online is not None:   # the close (run_app's quick exit)
                mode.leave_online()   # and the screen's own game comes back, to be saved below
        if self.persist:
            self.autosave_all()
            self.settings.setValue("geometry", self.saveGeometry())
            self.settings.sync()
        for mode in self.modes.values():
            mode.on_deactivate()
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None
        super().closeEvent(event)


class ProcessLock:
    """A lock on a file, held while this process keeps it: the system drops it when the
    process ends, so a crashed copy leaves nothing stale. (QLockFile did this job, but
    it syncs its file to disk, 8 to 20 ms of every start.)"""

    def __init__(self, path: Path):
        self.path = path
        self.fd: int | None = None

    def tryLock(self) -> bool:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return False
        try:
            if os.name == "nt":
                import msvcrt

                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # per open file: a second window conflicts too
        except OSError:
            os.close(fd)
            return False
        self.fd = fd
        return True

    def unlock(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _message(error: Exception) -> str:
    return str(error) if isinstance(error, StatesideError) else "the file does not hold a game this version can play"


def _first_mode(window: MainWindow, requested: str | None) -> str:
    if requested:
        return requested
    last = window.settings.value("last_mode") if window.settings is not None else None
    return last if last in window.mode_ids() else EXPLORER.id


def run_app(mode: str | None = None, screenshot: str | None = None, size: tuple[int, int] | None = None,
            open_file: str | None = None, quick_exit: bool = False, variant: str | None = None,
            resume_gc: bool = False) -> int:
    """The app's window until it is closed (or the screenshot written); the exit code.
    With `quick_exit` (the `stateside` command) the process ends there and then. `variant`:
    a new game of `mode` on this board (the mode's open_variant; `stateside --map`).
    `resume_gc`: the caller paused Python's garbage collector for start-up (the `stateside`
    command does): it is switched on again just after the first paint, or once the mode
    built after it (open_mode_painting_first) is built."""
    headless = screenshot and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if headless or os.environ.get("STATESIDE_QUIT_AFTER_PAINT"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        _quiet_offscreen_warnings()
    if QApplication.instance() is None and sys.platform.startswith("linux") \
            and os.environ.get("QT_QPA_PLATFORM") != "offscreen":   # Qt aborts if its X11 plugin cannot load
        from stateside.app.desktop_libs import missing_window_libraries

        problem = missing_window_libraries()
        if problem:
            print(problem, file=sys.stderr)
            return 1
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    app.setDesktopFileName("stateside")
    # a screenshot reads no settings, but the caches
    window = MainWindow(persist=not screenshot, caches=True, defer_menus=not screenshot)
    if mode is not None and mode not in window.mode_ids():
        print(f"stateside: --mode: unknown mode {mode!r} (installed: {', '.join(window.mode_ids())})",
              file=sys.stderr)
        return 2
    if size is not None and (size[0] < MINIMUM_SIZE[0] or size[1] < MINIMUM_SIZE[1]):
        window.setMinimumSize(min(size[0], MINIMUM_SIZE[0]), min(size[1], MINIMUM_SIZE[1]))   # as asked
    window.resize(*(size or DEFAULT_SIZE))
    if not screenshot:
        window.restore()
    if open_file is not None:
        from stateside.engine.saves import read_save

        try:   # a save named on the command line: refuse it before any window shows
            game_id, _ = read_save(open_file)
            if game_id not in window.mode_ids():
                raise StatesideError(f"{open_file}: a save of {game_id!r}, which is not installed")
        except StatesideError as e:
            print(f"stateside: {e}", file=sys.stderr)
            return 2
        mode = game_id
    try:
        if screenshot or open_file is not None or variant is not None:   # these need the mode now
            window.open_mode(_first_mode(window, mode))
        else:   # the map first, the mode's panels just after (the person sees the window sooner)
            window.open_mode_painting_first(_first_mode(window, mode), asked=mode is not None)
    except StatesideError as e:
        if mode is not None and open_file is None:
            print(f"stateside: --mode {mode}: {e}", file=sys.stderr)
            return 2
        window.open_mode(EXPLORER.id)   # the last game used is broken: start on the map
    if open_file is not None and not window.load_file(open_file, quiet=bool(screenshot)):
        if screenshot:
            return 2
    if variant is not None and window.current.opens_variants and (
            not window.game_in_progress(window.current) or window.confirm_discard(f"Start a game on {variant}?")):
        window.current.open_variant(variant)
    window.show()
    after_first_paint(window.board.viewport(), window.complete_menus)   # (if no mode has yet)
    # SIGTERM and Ctrl+C save and quit from just after the first paint, before the mode left
    # for after it is built (watchers run in the reverse order of their installing): until
    # then there is no game to save, and Python's own handling ends the process.
    if not screenshot:
        after_first_paint(window.board.viewport(), lambda: _save_on_signals(window, app))
    if resume_gc:   # once the mode left for after the first paint is built too (or none was left)
        import gc

        window.opened.connect(lambda _mode_id: gc.enable())
        after_first_paint(window.board.viewport(), lambda: window._pending is None and gc.enable())
    if screenshot:
        # A mode may build part of itself after the map's first paint (the explorer's
        # panel); a screenshot shows the complete window.
        window.current.ensure_panel()
        for _ in range(3):
            app.processEvents()
        if not window.grab().save(screenshot, "PNG", SCREENSHOT_PNG_QUALITY):
            print(f"stateside: --screenshot: cannot write {screenshot}", file=sys.stderr)
            return 2
        window.persist = False
        window.close()
        if quick_exit:
            _end_process(window, 0)
        return 0
    app.commitDataRequest.connect(lambda _manager: window.autosave_all())   # the desktop session ends
    if os.environ.get("STATESIDE_QUIT_AFTER_PAINT"):   # start-up benchmark: quit at the first paint
        window.persist = False
        window.autosaving = False
        _quit_after_first_paint(window, app)
    code = app.exec()
    if window.lock is not None:   # quit without a close (the benchmark, a session's end): no stale lock
        window.lock.unlock()      # left for the next start to check (about 10 ms)
        window.lock = None
    if quick_exit:
        _end_process(window, code)
    return code


def _end_process(window: MainWindow, code: int) -> None:
    """End the process without tearing down Qt and Python. By now the games are saved
    (at the window's close, or at the desktop session's request) and the screenshot is
    written; settings are synced below. Deleting the window's thousands of objects and
    then every module one by one only kept the person waiting: 50 to 100 ms at each quit
    (benchmarks/bench_foundation.py measures start-up to the process's end)."""
    if window.settings is not None:
        window.settings.sync()
    for stream in (sys.stdout, sys.stderr):   # None in a windowed binary; a reader may have gone
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _save_on_signals(window: MainWindow, app: QApplication) -> None:
    """SIGTERM and Ctrl+C (SIGINT) close the window, which saves the game, and quit.
    Python runs signal handlers only between its own bytecodes, so a light timer
    gives it the chance while Qt's event loop waits. Once per window."""
    if getattr(window, "_saves_on_signals", False):
        return
    window._saves_on_signals = True
    import signal

    def close(signum, _frame):
        print(f"stateside: {signal.Signals(signum).name}: saving and quitting", file=sys.stderr)
        QTimer.singleShot(0, window.close)
        QTimer.singleShot(0, app.quit)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, close)
    ticker = QTimer(window)
    ticker.timeout.connect(lambda: None)
    ticker.start(200)


def _quiet_offscreen_warnings() -> None:
    """The offscreen platform warns that it cannot size windows to their hints, once
    per window; that is expected without a screen and says nothing to the person."""
    from PySide6.QtCore import qInstallMessageHandler

    previous = None

    def handler(kind, context, message):
        if "propagateSizeHints" in message:
            return
        if previous is not None:
            previous(kind, context, message)
        else:
            print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)


class _PaintWatcher(QObject):
    """Calls `then` (once) just after the first paint of a watched widget."""

    def __init__(self, parent, then):
        super().__init__(parent)
        self.then = then
        self.done = False

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Paint and not self.done:
            self.done = True
            QTimer.singleShot(0, self.then)   # once the paint is done
        return False


def after_first_paint(widget: QWidget, then, fallback_ms: int = 500) -> None:
    """Run `then` once `widget` has painted (the map is what start-up waits for), or
    after `fallback_ms` if it does not paint (the window minimised, say). `then` must be
    safe to call twice."""
    # Two turns of the event loop after the paint: the frame reaches the screen first
    # (and the start-up benchmark, which quits one turn after the paint, measures the map).
    watcher = _PaintWatcher(widget, lambda: QTimer.singleShot(0, widget, then))
    widget.installEventFilter(watcher)
    single_shot(fallback_ms, widget, then)



def _quit_after_first_paint(window: MainWindow, app: QApplication) -> None:
    """Quit once the opened mode's main view has painted: the map, or where a mode shows
    no map (Carcassonne's table) the first of its own widgets to paint; while the mode is
    built after the first paint (open_mode_painting_first), the map or the table's colour
    shown meanwhile. With STATESIDE_QUIT_AFTER_PAINT=panels, the mode's own paint after
    it is built. Writes the time then (`painted <epoch seconds>`), which the benchmark reads."""
    import time

    def painted():
        print("painted", time.time(), flush=True)
        app.quit()

    def watch(_opened: str = "") -> None:
        watcher = _PaintWatcher(app, painted)
        mode = window._current
        if window._opening is not None:   # the map (or the game's table) shown before the mode is built
            view = window._opening.view
            targets = [view.viewport() if view is window.board else view]
        elif mode is None or window.board.isVisibleTo(window):
            targets = [window.board.viewport()]
        else:
            targets = [mode, *mode.findChildren(QWidget)]
        for widget in targets:
            widget.installEventFilter(watcher)

    # "panels": once the mode built after the first paint has painted too (its whole window)
    if os.environ.get("STATESIDE_QUIT_AFTER_PAINT") == "panels" and window._opening is not None:
        window.opened.connect(watch)
    else:
        watch()
