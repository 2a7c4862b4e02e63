"""Issue 27, finding 7: a text from a save, a deck or the network is shown as that text,
never read as HTML (a player called `<img src="/dev/zero">` made Qt read that file as an
image until memory ran out). Rich-text names go through every place that shows a name
(each game's panels, the board's tooltips, the move log, the pass screen, the score
table, the lobby, message boxes, the status bar and the window title), and what a person
would see is checked: the name exactly as written, and no image in any document.

The payload is harmless: an image that does not exist."""
from __future__ import annotations

import random
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtGui import Qt as QtText
from PySide6.QtWidgets import (
    QAbstractButton, QApplication, QComboBox, QGraphicsSimpleTextItem, QGraphicsTextItem, QGraphicsView,
    QGroupBox, QLabel, QListWidget, QMessageBox, QStatusBar, QTableWidget, QTextEdit, QWidget,
)

from stateside.engine.match import Match, rules_for
from stateside.engine.protocol import CHANCE
from stateside.engine.saves import save_game

NAMES = ['<b>Zed</b><img src="/no/x.png">', "<i>Quo</i> &amp; Vex"]
# Each word of the names, and what comes just before it when the name is shown as written.
MARKS = {"Zed": "<b>", "Quo": "<i>", " Vex": "&amp;"}
FILE_NAME = "<img src=x.png>&lt;b&gt;[*].stateside.json"


# ------------------------------------------------------------------ what a person sees
def _rich(text: str) -> str:
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()   # an image would show as U+FFFC


def _guessed(text: str, fmt=Qt.AutoText) -> str:
    """A text as a QLabel with this format (or a tooltip, a message box: AutoText) shows it."""
    if fmt == Qt.RichText or (fmt == Qt.AutoText and QtText.mightBeRichText(text)):
        return _rich(text)
    return text


def _mnemonic(text: str) -> str:
    """A button's or menu entry's text as shown: "&x" underlines x, "&&" is an "&"."""
    return re.sub(r"&(.)", r"\1", text)


def shown_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, the text a person sees) for every text under `root`."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        name = f"{type(w).__name__} {w.objectName()}"
        if w.toolTip():
            out.append((f"tooltip of {name}", _guessed(w.toolTip())))
        if w.isWindow() and w.windowTitle():
            out.append((f"title of {name}", w.windowTitle().replace("[*][*]", "[*]")))
        if isinstance(w, QLabel):
            out.append((f"{name} {w.text()!r}", _guessed(w.text(), w.textFormat())))
        elif isinstance(w, QAbstractButton):
            out.append((name, _mnemonic(w.text())))
        elif isinstance(w, QGroupBox):
            out.append((name, _mnemonic(w.title())))
        elif isinstance(w, QTextEdit):
            out.append((name, w.document().toPlainText()))
        elif isinstance(w, QListWidget):
            for i in range(w.count()):
                out.append((f"{name} line {i}", w.item(i).text()))
                out.append((f"{name} tooltip {i}", _guessed(w.item(i).toolTip())))
        elif isinstance(w, QTableWidget):
            items = [w.item(r, c) for r in range(w.rowCount()) for c in range(w.columnCount())]
            items += [w.horizontalHeaderItem(c) for c in range(w.columnCount())]
            for item in filter(None, items):
                out.append((f"{name} cell", item.text()))
                out.append((f"{name} cell tooltip", _guessed(item.toolTip())))
        elif isinstance(w, QComboBox):
            out += [(f"{name} item", w.itemText(i)) for i in range(w.count())]
        elif isinstance(w, QStatusBar):
            out.append(("status bar", w.currentMessage()))   # painted as plain text
        elif isinstance(w, QGraphicsView) and w.scene() is not None:
            for item in w.scene().items():
                kind = type(item).__name__
                if item.toolTip():
                    out.append((f"tooltip of {kind}", _guessed(item.toolTip())))
                if isinstance(item, QGraphicsSimpleTextItem):
                    out.append((kind, item.text()))
                elif isinstance(item, QGraphicsTextItem):
                    out.append((kind, item.toPlainText()))
        for action in w.actions():
            out.append((f"menu entry of {name}", _mnemonic(action.text())))
            out.append((f"menu tooltip of {name}", _guessed(action.toolTip())))
    return out


def misread(texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The texts in which a name is not shown as written (or a document holds an image)."""
    bad = []
    for where, text in texts:
        if "\ufffc" in text or any(not text[:m.start()].endswith(before)
                                   for word, before in MARKS.items() for m in re.finditer(re.escape(word), text)):
            bad.append((where, text))
    return bad


def everything_shown(window: QWidget) -> list[tuple[str, str]]:
    QApplication.processEvents()
    texts = shown_texts(window)
    for top in QApplication.topLevelWidgets():   # dialogs of the game (the score table) and message boxes
        if top is not window and top.isVisible():
            texts += shown_texts(top)
    return texts


def assert_shown_as_written(window: QWidget, when: str) -> list[tuple[str, str]]:
    texts = everything_shown(window)
    bad = misread(texts)
    assert not bad, f"{when}: names read as HTML in {bad[:6]}"
    return texts


# ------------------------------------------------------------------ the games
def _advance(match: Match, n: int, rng: random.Random, prefer=lambda action: False) -> None:
    """n actions, chosen at random (chance too), through the match."""
    for _ in range(n):
        s = match.state
        if s.is_terminal():
            return
        seat = s.current_player()
        actions = [a for a, _ in s.chance_outcomes()] if seat == CHANCE else s.legal_actions(seat if seat >= 0 else 0)
        if not actions:
            return
        preferred = [a for a in actions if prefer(a)]
        match.apply(rng.choice(preferred or actions))


def _played_out(rules, setup: dict, prefer=None) -> Match:
    """A whole game, by two random players (or, with `prefer`, choosing such actions first)."""
    if prefer is None:
        match = Match(rules, ["random", "random"], 5, setup)
        match.play_out()
    else:
        match = Match(rules, ["human", "human"], 5, setup)
        _advance(match, 20_000, random.Random(5), prefer)
    assert match.is_over()
    return match


GAMES = [("america", None), ("carcassonne", None), ("carcassonne", "usa-west"), ("game-of-the-states", "buy-and-sell"),
         ("game-of-the-states", "trivia"), ("game-of-the-states", "junior"), ("scrambled-states", None),
         ("ten-days", None)]


@pytest.fixture
def window(qtbot, monkeypatch):
    from stateside.app.main import MainWindow

    boxes = []
    for kind in ("warning", "information", "question", "critical"):
        monkeypatch.setattr(QMessageBox, kind, staticmethod(lambda *a: boxes.append(a[2]) or QMessageBox.Yes))
    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.message_boxes = boxes
    return w


@pytest.mark.parametrize("game_id, variant", GAMES)
def test_every_game_shows_rich_text_names_as_written(qtbot, window, tmp_path, game_id, variant):
    rules = rules_for(game_id)
    setup = {**rules.default_setup(2), "players": list(NAMES)}
    if variant:
        setup["variant"] = variant
    # A save opened from a file whose name looks like HTML too, a few moves in, two people at
    # the screen (the pass screen names them) and then a person against a computer.
    logged = []
    for seats, steps in ((["human", "human"], 0), (["human", "human"], 9),
                         (["human", f"ai:{rules.spec.ai_levels[0]}"], 25)):
        match = Match(rules, seats, 3, setup)
        _advance(match, steps, random.Random(steps))
        path = tmp_path / f"{steps}" / FILE_NAME
        path.parent.mkdir()
        save_game(path, match.to_json())
        assert window.load_file(str(path)), window.message_boxes
        mode = window.current
        assert window.windowHandle().title().startswith(FILE_NAME + " \u2013 ")   # plain, "[*]" and all
        assert window.statusBar().currentMessage() == f"Opened {path}"
        assert_shown_as_written(window, f"{game_id} {seats} after {steps} moves")
        pass_screen = getattr(mode, "pass_screen", None)
        if pass_screen is not None and pass_screen.isVisible():
            assert pass_screen.title.text() in (f"Pass to {NAMES[0]}", f"Pass to {NAMES[1]}")
            pass_screen.button.click()
            assert_shown_as_written(window, f"{game_id} after the pass screen")
        logged += [mode.log_panel.item(i).text() for i in range(mode.log_panel.count())]
        mode.status.emit(f"The table refused that move: {NAMES[0]} is not at the table")
        assert window.statusBar().currentMessage() == f"The table refused that move: {NAMES[0]} is not at the table"
    # The end: the score table (and a replay of the whole game, every position on screen).
    finished = _played_out(rules, setup)
    path = tmp_path / "end" / "end.stateside.json"
    path.parent.mkdir()
    save_game(path, {**finished.to_json(), "seats": ["human", "human"]})   # people at the screen
    assert window.load_file(str(path))
    mode = window.current
    logged += [mode.log_panel.item(i).text() for i in range(mode.log_panel.count())]
    assert any(name in line for line in logged for name in NAMES), logged[:5]   # the move log names them
    if hasattr(mode, "show_scores"):
        mode.show_scores()
    table = getattr(mode, "score_table", None)
    assert table is not None and {table.cell_text(r, 0) for r in range(2)} == set(NAMES)
    assert_shown_as_written(window, f"{game_id}: the end")
    mode.start_replay(finished)
    total = len(finished.log)
    for n in sorted({1, 2, 3, 5, 8, total // 3, total // 2, total - 1, total}):
        mode.replay_bar.go(n)
        assert_shown_as_written(window, f"{game_id}: replay at move {n}")
    assert not window.message_boxes


def test_a_resumed_autosave_shows_the_names_as_written(qtbot, window):
    """The autosave (which came back at every start when a name crashed the app)."""
    from stateside.app.main import MainWindow

    rules = rules_for("ten-days")
    match = Match(rules, ["human", "human"], 3, {**rules.default_setup(2), "players": list(NAMES)})
    _advance(match, 12, random.Random(1))
    window.open_mode("ten-days").load_state(match.to_json())
    window.close()   # saves the game to resume
    second = MainWindow(persist=True)
    qtbot.addWidget(second)
    second.resize(1280, 800)
    second.show()
    mode = second.open_mode("ten-days")
    assert mode.match.names == NAMES
    texts = assert_shown_as_written(second, "ten-days resumed")
    assert any(text == f"Pass to {NAMES[0]}" or text == f"Pass to {NAMES[1]}" for _, text in texts)


def test_america_topics_from_an_added_deck_are_shown_as_written(qtbot, window, tmp_path):
    """A deck's texts (titles, questions, units, backgrounds, sources) are the file's words."""
    from stateside.games.america import rules
    from stateside.games.america.widgets import rules_on
    from stateside.paths import resource

    text = resource("decks", "america", "example-user-deck.yaml").read_text(encoding="utf-8")
    rich = re.sub(r'(title|question|background|source|unit): "', r'\1: "<b>Zed</b><img src=/no/x.png> ', text)
    deck = tmp_path / "rich.yaml"
    deck.write_text(rich, encoding="utf-8")
    mode = window.open_mode("america")
    mode.add_deck(deck)
    finished = _played_out(rules_on(rules.bundled_deck()), {"players": list(NAMES), "start_player": 0,
                                                             "used_topics": []},
                           prefer=lambda action: action.startswith("draw:rich"))
    assert any(e.action.startswith("draw:rich") for e in finished.log)
    mode.load_state(finished.to_json())
    assert_shown_as_written(window, "America at the end")
    mode.start_replay(finished)
    shown_rich = False
    for n in range(1, len(finished.log) + 1):
        mode.replay_bar.go(n)
        texts = assert_shown_as_written(window, f"America replay at move {n}")
        shown_rich |= any("<b>Zed</b><img src=/no/x.png> " in text for _, text in texts)   # (no quotes: not a name)
    assert shown_rich   # the deck's own words were on screen, as written


def test_a_file_name_and_a_save_s_words_in_a_message_box_are_shown_as_written(window, tmp_path):
    bad = tmp_path / FILE_NAME
    bad.write_text('{"format": "stateside-save", "version": 2, "game": "<b>Zed</b><img src=/no/x.png>"}')
    assert not window.load_file(str(bad))
    [text] = window.message_boxes
    shown = _guessed(text)
    assert str(bad) in shown and "\ufffc" not in shown


# ------------------------------------------------------------------ online
def _lobby_dialog(qtbot):
    pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")
    from stateside.app.online import OnlineDialog, online_games
    from stateside.games import discover_games

    class Window:
        games = discover_games()

    dialog = OnlineDialog([g for g in online_games(Window()) if g[0] == "ten-days"])
    qtbot.addWidget(dialog)
    dialog.show()
    session = dialog._session()   # a real session, connected to nothing: its queue is fed here
    return dialog, session


def test_the_online_lobby_shows_a_stranger_s_names_as_written(qtbot):
    dialog, session = _lobby_dialog(qtbot)
    session.table = "K7QX3M"
    names = [NAMES[0], NAMES[1], "Computer 1"]
    session._inbox.put(("lobby", {"table": "K7QX3M", "seat": 1, "status": "lobby", "game": "ten-days",
                                  "names": names, "seats": ["human", "human", "ai:easy"], "joined": {0: NAMES[0]}}))
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1)
    texts = assert_shown_as_written(dialog, "the lobby")
    seated = dialog.seated.text()
    assert "&lt;b&gt;Zed&lt;/b&gt;&lt;img" in seated and "<img" not in seated
    assert any(NAMES[0] in text and NAMES[1] in text for _, text in texts)
    # The server's words (a refusal) show as written too.
    session._inbox.put(("failed", f"no seat for {NAMES[1]}"))
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 0)
    assert dialog.message.textFormat() == Qt.PlainText and dialog.message.text() == f"no seat for {NAMES[1]}"
    session.close()
