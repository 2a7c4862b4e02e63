"""The Game > History of games dialog: the kept games (newest first) with Replay and
Delete, and a statistics page per game (app/history.py keeps them, data/history.py holds them)."""
from __future__ import annotations

import datetime

from PySide6.QtWidgets import QDialog

from stateside.board.plain import literal
from stateside.data.history import MAX_GAMES, History, level_of, statistics, way_to_play
from stateside.errors import StatesideError


def title_of(window, game_id: str) -> str:
    info = next((g for g in window.games if g.id == game_id), None)
    return info.title if info else game_id


def players_text(entry: dict) -> str:
    parts = []
    for i, (name, kind) in enumerate(zip(entry["players"], entry["seats"])):
        if i in entry["people"]:
            parts.append(name)
        else:
            level = level_of(kind)
            parts.append(f"{name} ({'online' if level == 'person' and entry['online'] else level})")
    return ", ".join(parts)


def _number(x: float) -> str:
    return f"{x:g}"


def result_text(entry: dict) -> str:
    names = entry["players"]
    winners = [names[w] for w in entry["winners"]]
    plural = len(winners) > 1 or winners == ["You"]   # the setup's default name for the person here
    text = (" and ".join(winners) + (" win" if plural else " wins")) if winners else "Nobody wins"
    if entry.get("scores") is not None:
        text += ": " + ", ".join(f"{n} {_number(s)}" for n, s in zip(names, entry["scores"]))
    return text


def date_text(entry: dict) -> str:
    try:
        return datetime.datetime.fromisoformat(entry["date"]).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return entry["date"]




class HistoryDialog(QDialog):
    COLUMNS = ["Game", "Way to play", "Date", "Players", "Result"]

    def __init__(self, window, history: History):
        from PySide6.QtCore import Qt
        from PySide6.QtGui import QKeySequence, QShortcut
        from PySide6.QtWidgets import (
            QAbstractItemView,
            QComboBox,
            QDialogButtonBox,
            QHBoxLayout,
            QHeaderView,
            QLabel,
            QTableWidget,
            QTabWidget,
            QVBoxLayout,
            QWidget,
        )

        super().__init__(window)
        self.window_ = window
        self.history = history
        self.setWindowTitle("History of games")
        self.tabs = QTabWidget()
        # --- the games
        games = QWidget()
        lay = QVBoxLayout(games)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setObjectName("historyTable")
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        for c in range(len(self.COLUMNS)):
            header.setSectionResizeMode(c, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.Stretch)
        self.table.itemDoubleClicked.connect(lambda _item: self.replay())
        self.table.itemSelectionChanged.connect(self._selection_changed)
        lay.addWidget(self.table)
        self.empty = QLabel("No finished games yet: every game played to its end here is kept in this list.")
        self.empty.setWordWrap(True)
        lay.addWidget(self.empty)
        note = QLabel(f"The last {MAX_GAMES} finished games are kept (older ones go first), each as a "
                      f"save in {history.games_folder}.")
        note.setTextFormat(Qt.PlainText)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        lay.addWidget(note)
        self.tabs.addTab(games, "&Games")
        # --- the statistics
        stats = QWidget()
        slay = QVBoxLayout(stats)
        row = QHBoxLayout()
        row.addWidget(QLabel("Game:"))
        self.stats_game = QComboBox()
        self.stats_game.currentIndexChanged.connect(self._fill_stats)
        row.addWidget(self.stats_game, 1)
        slay.addLayout(row)
        self.stats_table = QTableWidget(0, 4)
        self.stats_table.setObjectName("historyStats")
        self.stats_table.setHorizontalHeaderLabels(["Against", "Played", "Won", "Best score"])
        self.stats_table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.stats_table.setSelectionMode(QAbstractItemView.NoSelection)
        self.stats_table.verticalHeader().hide()
        sheader = self.stats_table.horizontalHeader()
        sheader.setSectionResizeMode(0, QHeaderView.Stretch)
        for c in range(1, 4):
            sheader.setSectionResizeMode(c, QHeaderView.ResizeToContents)
        slay.addWidget(self.stats_table)
        explain = QLabel("Won: a game in which a player at this screen is among the winners. Best score: the best "
                         "a player at this screen scored. \u201cAgainst\u201d: the computers' levels.")
        explain.setWordWrap(True)
        explain.setStyleSheet("color: #555;")
        slay.addWidget(explain)
        self.tabs.addTab(stats, "&Statistics")
        # --- the buttons
        buttons = QDialogButtonBox()
        self.replay_button = buttons.addButton("&Replay", QDialogButtonBox.ActionRole)
        self.delete_button = buttons.addButton("&Delete", QDialogButtonBox.DestructiveRole)
        buttons.addButton(QDialogButtonBox.Close)
        self.replay_button.setToolTip("Step through the chosen game on its board (Enter, or double-click it)")
        self.delete_button.setToolTip("Remove the chosen game and its save from the history (Delete)")
        self.replay_button.clicked.connect(self.replay)
        self.delete_button.clicked.connect(self.delete)
        buttons.rejected.connect(self.reject)
        QShortcut(QKeySequence(Qt.Key_Delete), self.table, self.delete, context=Qt.WidgetShortcut)
        QShortcut(QKeySequence(Qt.Key_Return), self.table, self.replay, context=Qt.WidgetShortcut)
        self.tabs.currentChanged.connect(lambda _i: self._selection_changed())
        out = QVBoxLayout(self)
        out.addWidget(self.tabs)
        out.addWidget(buttons)
        self.resize(900, 520)
        self.fill()

    # ------------------------------------------------------------------ filling
    def entries(self) -> list[dict]:
        return sorted(self.history.entries, key=lambda e: e["date"], reverse=True)   # the newest first

    def fill(self) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QTableWidgetItem

        entries = self.entries()
        self.table.setRowCount(len(entries))
        for r, entry in enumerate(entries):
            cells = [title_of(self.window_, entry["game"]), way_to_play(entry["variant"]) or "\u2013", date_text(entry),
                     players_text(entry), result_text(entry)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.UserRole, entry["id"])
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        self.table.setVisible(bool(entries))
        self.empty.setVisible(not entries)
        self.tabs.setTabEnabled(1, bool(entries))   # no statistics of no games
        if entries:
            self.table.selectRow(0)
        current = self.stats_game.currentData()
        self.stats_game.blockSignals(True)
        self.stats_game.clear()
        for game in dict.fromkeys(e["game"] for e in entries):
            self.stats_game.addItem(title_of(self.window_, game), game)
        index = self.stats_game.findData(current)
        self.stats_game.setCurrentIndex(index if index >= 0 else 0)
        self.stats_game.blockSignals(False)
        self._fill_stats()
        self._selection_changed()

    def _fill_stats(self) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QTableWidgetItem

        game = self.stats_game.currentData()
        rows = statistics(self.history.entries, game) if game else []
        self.stats_table.setRowCount(len(rows))
        for r, (against, s) in enumerate(rows):
            cells = ["every game" if against == "all" else against, str(s.played), str(s.won),
                     "\u2013" if s.best is None else _number(s.best)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                if r == 0:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.stats_table.setItem(r, c, item)

    def selected_id(self) -> str | None:
        from PySide6.QtCore import Qt

        rows = self.table.selectionModel().selectedRows() if self.table.isVisible() or self.table.rowCount() else []
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return item.data(Qt.UserRole) if item else None

    def _selection_changed(self) -> None:
        on_games = self.tabs.currentIndex() == 0
        chosen = self.selected_id() is not None
        self.replay_button.setEnabled(on_games and chosen)
        self.delete_button.setEnabled(on_games and chosen)

    # ------------------------------------------------------------------ the buttons
    def replay(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        from stateside.app.replay import replay_of

        entry = self.history.find(self.selected_id() or "")
        if entry is None:
            return
        path = self.history.save_path(entry)
        window = self.window_
        try:
            target, match = replay_of(window, path)
        except StatesideError as e:
            kept = self.history.set_aside(entry["id"])
            where = f" The file is kept as {kept}." if kept else ""
            QMessageBox.warning(self, "Cannot replay this game",
                                literal(f"{e}{where} It is no longer in the history."))
            self.fill()
            return
        self.accept()
        target.start_replay(match)

    def delete(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        entry = self.history.find(self.selected_id() or "")
        if entry is None:
            return
        answer = QMessageBox.question(
            self, "Delete from the history",
            literal(f"Delete the game of {title_of(self.window_, entry['game'])} of {date_text(entry)} "
                    f"({result_text(entry)}) and its save?"), QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
        if answer != QMessageBox.Yes:
            return
        self.history.delete(entry["id"])
        self.fill()
