"""Game > History in the real window (issue 26, item 5): a game finished here appears in
it, Replay opens it on its board, Delete removes it, the statistics count right, and a
damaged history or save is said and set aside, never a crash."""
import datetime
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from stateside.app.history_dialog import HistoryDialog
from stateside.app.main import MainWindow
from stateside.data.history import History, make_entry
from stateside.engine.match import Match
from stateside.engine.saves import read_save, save_game
from stateside.games.ten_days.rules import TenDaysState

SEED = 5   # two easy computers: 78 actions, the last one seat 0's, who wins with it


def setup():
    return {**TenDaysState.default_setup(2), "players": ["Ann", "Bob"]}


def one_move_from_the_end():
    """A game of Ann (a person) against Bob (easy) that Ann's next move wins, and that move."""
    model = Match(TenDaysState, ["ai:easy", "ai:easy"], SEED, setup())
    model.play_out()
    last = model.log[-1]
    assert last.seat == 0 and model.state.returns()[0] == 1.0
    m = Match(TenDaysState, ["human", "ai:easy"], SEED, setup())
    for e in model.log[:-1]:
        m.apply(e.action)
    return m, last.action


def history_folder() -> Path:
    return Path(os.environ["STATESIDE_CONFIG_DIR"]) / "history"


@pytest.fixture
def window(open_window):
    w = open_window(persist=True, mode=None)
    yield w
    w.close()


def finish_a_game(window):
    mode = window.open_mode("ten-days")
    mode.ai_delay_ms = 0
    match, winning = one_move_from_the_end()
    mode.install(match)
    assert mode.is_human_turn() and not History.load(history_folder()).entries   # not kept before its end
    assert mode.act(winning)
    assert mode.match.is_over()
    return mode


def test_a_game_finished_here_appears_in_the_history(qtbot, window):
    mode = finish_a_game(window)
    entries = History.load(history_folder()).entries
    assert len(entries) == 1
    e = entries[0]
    assert (e["game"], e["players"], e["seats"], e["people"], e["winners"]) == \
        ("ten-days", ["Ann", "Bob"], ["human", "ai:easy"], [0], [0])
    dialog = HistoryDialog(window, window.history.history())
    qtbot.addWidget(dialog)
    cells = [dialog.table.item(0, c).text() for c in range(5)]
    assert cells[0] == "10 Days in the USA" and cells[1] == "\u2013"   # one way to play
    assert cells[2] == datetime.datetime.now().strftime("%Y-%m-%d %H:%M") or cells[2][:10] == \
        datetime.date.today().isoformat()
    assert cells[3:] == ["Ann, Bob (easy)", "Ann wins"]
    # Opening that finished game again from a file keeps no second copy of it.
    path = Path(os.environ["STATESIDE_CONFIG_DIR"]) / "done.stateside.json"
    save_game(path, mode.save_state())
    assert window.load_file(str(path))
    mode.act(None)   # refused (the game is over): a change of nothing
    assert len(History.load(history_folder()).entries) == 1


def test_replay_opens_the_game_on_its_board(qtbot, window):
    finish_a_game(window)
    window.open_mode("explorer")
    dialog = HistoryDialog(window, window.history.history())
    qtbot.addWidget(dialog)
    assert dialog.replay_button.isEnabled()
    dialog.replay()
    mode = window.current
    assert mode.game_id == "ten-days" and mode.replaying is not None
    assert len(mode.replaying.log) == 78 and mode.replaying.is_over()
    assert mode.replay_bar.isVisible() and mode.replay_bar.total == 78


def test_delete_removes_the_game_and_its_save(qtbot, window, monkeypatch):
    finish_a_game(window)
    dialog = HistoryDialog(window, window.history.history())
    qtbot.addWidget(dialog)
    entry = window.history.history().entries[0]
    save = window.history.history().save_path(entry)
    assert save.exists()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.No))
    dialog.delete()
    assert dialog.table.rowCount() == 1 and save.exists()   # "No" keeps it
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.Yes))
    dialog.delete()
    assert dialog.table.rowCount() == 0 and dialog.empty.isVisibleTo(dialog)
    assert not save.exists() and History.load(history_folder()).entries == []
    assert not dialog.replay_button.isEnabled() and not dialog.delete_button.isEnabled()


def hand_made(history, seats, winners, scores, people, minute):
    body = {"game": "ten-days", "rules_version": 1, "setup": setup(), "seed": 100 + minute, "seats": seats,
            "actions": []}
    when = datetime.datetime(2026, 11, 30, 18, minute).astimezone()
    history.add(body, make_entry(body, names=["Ann", "Bob"], people=people, winners=winners, scores=scores,
                                 online=False, when=when))


def test_the_statistics_table_counts_by_opponent_level(qtbot, window):
    h = window.history.history()
    hand_made(h, ["human", "ai:easy"], [0], [3, 1], [0], 1)    # easy: won, 3
    hand_made(h, ["human", "ai:easy"], [1], [2, 4], [0], 2)    # easy: lost, 2
    hand_made(h, ["ai:hard", "human"], [0], [9, 7], [1], 3)    # hard: lost, 7
    hand_made(h, ["human", "ai:hard"], [0], [5, 0], [0], 4)    # hard: won, 5
    hand_made(h, ["human", "ai:hard"], [], [1, 1], [0], 5)     # hard: nobody wins, 1
    dialog = HistoryDialog(window, h)
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentIndex(1)
    assert not dialog.replay_button.isEnabled()   # nothing to replay on the statistics page
    t = dialog.stats_table
    rows = [[t.item(r, c).text() for c in range(4)] for r in range(t.rowCount())]
    assert rows == [["every game", "5", "2", "7"],
                    ["hard", "3", "1", "7"],
                    ["easy", "2", "1", "3"]]
    assert dialog.table.item(0, 4).text() == "Nobody wins: Ann 1, Bob 1"   # the newest first


def test_a_damaged_history_is_said_moved_aside_and_the_app_goes_on(qtbot, window):
    history_folder().mkdir(parents=True, exist_ok=True)
    (history_folder() / "index.json").write_text("{not json", encoding="utf-8")
    h = window.history.history()
    assert h.entries == []
    assert any("history of games could not be read" in n for n in window.notices)
    assert list(history_folder().glob("index.unreadable-*.json"))
    finish_a_game(window)   # and the next finished game is kept as usual
    assert len(History.load(history_folder()).entries) == 1


def test_a_save_that_no_longer_replays_is_said_and_set_aside(qtbot, window, monkeypatch):
    finish_a_game(window)
    h = window.history.history()
    save = h.save_path(h.entries[0])
    save.write_text('{"format": "stateside-save", "version": 2, "game": "ten-days", "seed": "x"}', encoding="utf-8")
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: said.append(text)))
    dialog = HistoryDialog(window, h)
    qtbot.addWidget(dialog)
    dialog.replay()
    assert len(said) == 1 and said[0].startswith(f"{save}: \"setup\" is missing")   # the file and what is wrong
    assert said[0].endswith("It is no longer in the history.")
    assert h.entries == [] and dialog.table.rowCount() == 0
    assert list(save.parent.glob("*.unreadable-*.json"))   # kept, never read again


def test_game_menu_history_opens_the_dialog_with_ctrl_h(qtbot, window, monkeypatch):
    finish_a_game(window)
    shown = []
    monkeypatch.setattr(HistoryDialog, "exec", lambda self: shown.append(self) or 0)
    assert window.act_history.shortcut().toString() == "Ctrl+H"
    window.act_history.trigger()
    assert len(shown) == 1 and shown[0].table.rowCount() == 1


def test_online_the_tables_whole_log_is_kept_with_this_seat_as_the_person(qtbot, window):
    from fake_table import FakeSession, referee_views
    from test_turn_cue import played_table

    mode = window.open_mode("ten-days")
    table = played_table(SEED)
    mode.attach_online(FakeSession(0))
    for view in referee_views(table, 0):
        mode.online_update(view)
    assert mode.match.is_over() and History.load(history_folder()).entries == []   # not this screen's copy
    mode.online.ended.emit({"save": table.to_json()})
    entries = History.load(history_folder()).entries
    assert len(entries) == 1
    e = entries[0]
    assert e["online"] and e["people"] == [0] and e["winners"] == [0] and e["seats"] == ["human", "ai:easy"]
    _game, body = read_save(History.load(history_folder()).save_path(e))
    assert body["actions"] == table.to_json()["actions"]   # every move as the referee played it


def test_a_real_time_game_finished_here_is_kept_too(qtbot, window):
    from test_scrambled_mode import FakeClock, build_match, choice, start, tick

    mode = window.open_mode("scrambled-states")
    mode.now = FakeClock()
    mode.start_game(build_match(choice(party=False, computers=1, level="hard", target=3), 9))
    start(mode)
    for t in range(2000, 60000, 500):
        tick(mode, t)
        if mode.game.is_terminal():
            break
    assert mode.game.is_terminal()
    entries = History.load(history_folder()).entries
    assert [(e["game"], e["people"], e["seats"]) for e in entries] == \
        [("scrambled-states", [0], mode.match.seats)]
    e = entries[0]
    assert e["scores"] == [float(s) for s in mode.game.scores()] and max(e["scores"]) >= 3   # to 3 cards
    assert [e["scores"][w] for w in e["winners"]] == [max(e["scores"])]


def test_a_second_copy_of_the_app_keeps_no_history_and_says_so(qtbot, window, monkeypatch):
    second = MainWindow(persist=True)   # the first holds the lock on the data folder
    qtbot.addWidget(second)
    assert not second.autosaving and second.history.history() is None
    said = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda parent, title, text: said.append(text)))
    second.act_history.trigger()
    assert len(said) == 1 and "keeps no history" in said[0]
    finish_a_game(second)
    assert History.load(history_folder()).entries == []


def test_a_game_the_computer_ends_on_its_timer_is_kept_as_lost(qtbot, window):
    model = Match(TenDaysState, ["ai:easy", "ai:easy"], 2, setup())   # seed 2: Bob (seat 1) wins
    model.play_out()
    assert model.state.returns() == [0.0, 1.0]
    k = max(e.index for e in model.log if e.seat == 0)   # Ann's last move; Bob's winning turn follows
    m = Match(TenDaysState, ["human", "ai:easy"], 2, setup())
    for e in model.log[:k]:
        m.apply(e.action)
    mode = window.open_mode("ten-days")
    mode.ai_delay_ms = 0
    mode.install(m)
    assert mode.act(model.log[k].action)
    qtbot.waitUntil(mode.match.is_over, timeout=5000)
    (e,) = History.load(history_folder()).entries
    assert e["winners"] == [1] and e["people"] == [0]
    dialog = HistoryDialog(window, window.history.history())
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentIndex(1)
    t = dialog.stats_table
    assert [[t.item(r, c).text() for c in range(4)] for r in range(t.rowCount())] == \
        [["every game", "1", "0", "\u2013"], ["easy", "1", "0", "\u2013"]]   # 10 Days keeps no score


def test_a_history_that_cannot_be_written_is_said_and_the_game_goes_on(qtbot, window):
    history_folder().parent.mkdir(parents=True, exist_ok=True)
    history_folder().write_text("a file where the folder should be", encoding="utf-8")
    mode = finish_a_game(window)
    assert "could not be kept in the history" in window.statusBar().currentMessage()
    assert mode.match.is_over() and mode.score_dialog is not None   # the end of the game as usual
