"""The base class every game's Qt mode derives from.

The shell owns one BoardView and hands it to the active mode. A mode builds its
panels around ``self.board_slot`` (an empty widget in its own layout); when the
mode is activated the shell moves the board into that slot. The mode is a thin
view: it asks its engine what is legal, tells it what the player did, and draws
the result on the board and in its panels.

Rules for modes:
- Never open a modal dialog from __init__ or activate(): ``stateside --screenshot``
  and the tests construct modes without anyone to answer. Start a sensible default
  game instead (e.g. you against the computer) and offer the setup in new_game().
- At start-up the shell paints the map before it imports and builds the mode shown
  (MainWindow.open_mode_painting_first): a mode needs nothing of its own before the
  first paint. Its module, panels and data load just after, in __init__ as usual; a
  game whose first screen is its own table, not the map, names the table's colour in
  its GameInfo (table_colour), which the shell paints meanwhile.
- Computer turns run on QTimer with a short visible delay (``AI_DELAY_MS``), never
  by blocking the event loop for long.
- Hidden information in hot-seat play appears only after a "pass to <name>" screen.
- The board is shared by every mode: react to its clicks and hovers by overriding
  on_state_clicked / on_state_hovered (connected only while the mode is active), not by
  connecting to board.stateClicked yourself; if you must connect, check ``self.active``.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

AI_DELAY_MS = 700
UNDO_BEAT_MS = 1500   # after a person's move, computers wait this long: Ctrl+Z takes it back meanwhile


class GameMode(QWidget):
    game_id: str = ""          # equals the game's GameInfo.id
    title: str = ""
    undo_beat_ms = UNDO_BEAT_MS   # the setting (Game > After your move), for every mode
    # A tutorial watching this mode (stateside.app.tutorial): called with a person's action
    # before it is applied; its words refuse it (nothing changes), None lets it in.
    action_guard = None
    # What the shell may ask of this mode (declared, never probed): an online table
    # (attach_online/leave_online/online), a replay (start_replay/match/replaying), and the
    # turn_came signal for the window's turn cue.
    plays_online = False
    replays = False
    turn_cue = False
    opens_variants = False   # `stateside --map NAME` starts a game of it on that board (open_variant)
    # What the shell reads of any mode (a mode with a game sets or computes them): the
    # match on show, the whole match a replay steps through, the online session.
    match = None
    game = None
    replaying = None
    online = None

    status = Signal(str)        # a one-line message for the status bar
    changed = Signal()          # the game changed: the shell refreshes Save/Undo

    def __init__(self, board, parent: QWidget | None = None):
        super().__init__(parent)
        self.board = board
        self.active = False
        self.last_status = ""   # what the mode said before the shell was listening
        self.status.connect(self._remember_status)
        self.board_slot = QWidget(self)
        self.board_slot.setObjectName("boardSlot")
        lay = QVBoxLayout(self.board_slot)
        lay.setContentsMargins(0, 0, 0, 0)

    def _remember_status(self, text: str) -> None:
        self.last_status = text

    # --- called by the shell -------------------------------------------------
    def activate(self) -> None:
        """Take the shared board: move it into our slot, clear other modes' marks."""
        self.board_slot.layout().addWidget(self.board)
        self.board.reset_overlays()
        self.board.show()
        self.active = True
        self.board.stateClicked.connect(self.on_state_clicked)
        self.board.stateHovered.connect(self.on_state_hovered)
        self.on_activate()

    def deactivate(self) -> None:
        if self.active:
            self.board.stateClicked.disconnect(self.on_state_clicked)
            self.board.stateHovered.disconnect(self.on_state_hovered)
        self.active = False
        self.on_deactivate()
        self.board.reset_overlays()

    # --- for subclasses ------------------------------------------------------
    def on_activate(self) -> None:
        """Redraw this mode's marks on the board (it was cleared)."""

    def on_deactivate(self) -> None:
        """Stop timers; the board is about to be given to another mode."""

    def on_modal(self, opened: bool) -> None:
        """The shell opens (True) or has closed (False) a dialog over the game: a
        real-time game pauses its clock meanwhile."""

    def on_state_clicked(self, code: str) -> None:
        """A state (or its callout tab) was clicked, or picked by typing its name."""

    def on_state_hovered(self, code: str) -> None:
        """The pointer entered a state ("" when it left every state)."""

    def new_game(self) -> None:
        """Ask for a setup (players, options) and start a new game. May open a dialog."""

    def has_game(self) -> bool:
        return self.save_state() is not None

    def game_in_progress(self) -> bool:
        """A game that New or Open would throw away (default: anything to save)."""
        return self.has_game()

    def save_state(self) -> dict | None:
        """The game as JSON-able data, or None when there is nothing to save."""
        return None

    def people(self) -> list[int]:
        """The seats played by people at this screen (online: only ours)."""
        return self.match.humans() if self.match is not None else []

    # ---------------------------------------------------------------- for a tutorial
    def start_tutorial(self, match) -> None:
        """Put a tutorial's match on screen (a game that plays matches says how)."""
        raise NotImplementedError(f"{self.title} plays no tutorial")

    def is_human_turn(self) -> bool:
        """A person here may act now (real time: at any moment)."""
        return True

    def hold_for_reading(self) -> None:
        """A tutorial's step is on screen: a running clock stops while it is read."""

    def schedule(self) -> None:
        """Move the game on as far as it goes without a person (computers, the clock)."""

    def load_state(self, state: dict) -> None:
        """Replace the current game by a saved one. Raise SaveError (stateside.errors)
        with a clear message if `state` is malformed, leaving the current game untouched."""
        raise NotImplementedError

    def can_undo(self) -> bool:
        return False

    def guard_refusal(self, action) -> str | None:
        """What a watching tutorial says to a person's action about to go in (None: it may).
        Every way a person's action is applied asks this first (TurnBasedMode.act, and a
        mode's own input path such as a spin or a real-time slap)."""
        return self.action_guard(action) if self.action_guard is not None else None

    def undo_refusal(self) -> str | None:
        """Why there is nothing to take back now, for the status bar (None: can_undo)."""
        return None if self.can_undo() else "There is nothing to take back here."

    def undo(self) -> None:
        """Take back the last action of the human player, where the rules make it fair."""

    def game_menu_actions(self) -> list:
        """QActions of this game for the Game menu (e.g. America's "Add deck..."), shown
        while the mode is active; create them once and return the same ones."""
        return []

    def help_html(self) -> str:
        """The rules in our own words (HTML), including which parts of the game are our design."""
        return ""

    def open_variant(self, variant: str) -> None:
        """A new game on the board named `variant` (only where opens_variants)."""
        raise NotImplementedError(f"{type(self).__name__} opens no variant")

    def play_area(self) -> QWidget:
        """Where the game is played, for what points at it (a tutorial's box): the map."""
        return self.board_slot

    def ensure_panel(self) -> None:
        """Build whatever this mode left for after the map's first paint (a screenshot shows
        the complete window); nothing, for a mode that builds all at once."""

    def help_anchor(self) -> str:
        """The anchor (<a name=...>) in help_html of the variant being played: F1 opens there."""
        return ""
