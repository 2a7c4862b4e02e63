"""Game > History: every game finished in this app is kept (data/history.py keeps the saves
and the index), listed with Replay and Delete, and counted in a statistics table per game.

HistoryKeeper watches each mode's `changed` signal: a match this screen saw in progress
that is now over is kept. A finished game opened from a file or resumed is not (it was
never played to its end here); online, the table's whole log is kept once the referee
sends it, not this screen's copy with the hidden moves stood in for."""
from __future__ import annotations

import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from stateside.errors import StatesideError

if TYPE_CHECKING:
    from stateside.data.history import History

# data.history (and the dialog, app/history_dialog.py) are imported on first use: every
# window builds a keeper, and start-up pays only for what the first paint needs.


class HistoryKeeper(QObject):
    def __init__(self, window, folder: Path | None):
        super().__init__(window)
        self.window = window
        self.folder = folder   # None: nothing kept (a screenshot, a window that does not persist)
        self._history: History | None = None
        self._playing: dict[str, tuple] = {}   # mode id -> (match ref, people here, online)

    def history(self) -> History | None:
        """The history, read on first use (a damaged index is said once, and set right)."""
        if self._history is None and self.folder is not None:
            from stateside.data.history import History

            self._history = History.load(self.folder)
            if self._history.problem:
                self.window.notify(self._history.problem)
        return self._history

    def watch(self, mode) -> None:
        mode.changed.connect(lambda m=mode: self._changed(m))

    def _changed(self, mode) -> None:
        match = mode.match
        if match is None or mode.replaying is not None:
            return
        online = mode.online
        if not match.is_over():
            people = [online.seat] if online is not None else list(mode.people())
            self._playing[mode.game_id] = (weakref.ref(match), people, online is not None)
            return
        if online is not None:
            return   # the referee's whole log comes next: that is the game to keep
        seen = self._playing.pop(mode.game_id, None)
        if seen is None:
            return
        ref, people, was_online = seen
        if ref() is not match and not was_online:
            return   # another match, finished already: opened from a file
        self.keep(mode, match, people, was_online)

    def keep(self, mode, match, people: list[int], online: bool) -> None:
        from stateside.data.history import make_entry

        history = self.history()
        if history is None:
            return
        state = match.state
        returns = list(state.returns())
        best = max(returns) if returns else 0
        winners = [i for i, r in enumerate(returns) if r == best and best > 0] if len(set(returns)) > 1 else []
        scores = list(state.scores()) if state.spec.has_scores else None
        body = mode.save_state()
        if not isinstance(body, dict) or body.get("seed") != match.seed:
            body = match.to_json()
        entry = make_entry(body, names=list(match.names), people=people, winners=winners, scores=scores,
                           online=online)
        try:
            history.add(body, entry)
        except (OSError, StatesideError) as e:
            self.window.statusBar().showMessage(f"The finished game could not be kept in the history: {e}", 15000)


def show_history(window) -> None:
    history = window.history.history()
    if history is None:
        from PySide6.QtWidgets import QMessageBox

        window.modal(lambda: QMessageBox.information(window, "History", "This window keeps no history "
                                                     "(it saves nothing: a second copy of the app, or a screenshot)."))
        return
    from stateside.app.history_dialog import HistoryDialog

    dialog = HistoryDialog(window, history)
    window.history_dialog = dialog
    window.modal(dialog.exec)
