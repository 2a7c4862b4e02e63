"""The app shell: chooser, modes, screenshot, saving, and the command line."""
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from stateside.__main__ import main
from stateside.app.main import MainWindow
from stateside.engine.saves import save_game
from stateside.games import discover_games


@pytest.fixture
def window(open_window, tmp_path, monkeypatch):
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))   # the tests read its files there
    return open_window(persist=True)


def test_chooser_lists_every_installed_game_and_the_explorer(window):
    listed = list(window.chooser_actions)
    assert listed[-1] == "explorer"
    assert listed[:-1] == [g.id for g in discover_games()]
    assert window.chooser_actions["explorer"].isChecked()


def test_explorer_shows_facts_and_neighbours_per_ruleset(qtbot, window):
    mode = window.current
    board = window.board
    qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=board.state_view_point("AK").toPoint())
    assert mode.selected == "AK"
    assert "Juneau" in mode.fact_labels["capital"].text()
    assert mode.neighbours.count() == 1 and "none" in mode.neighbours.item(0).text()
    mode.rules_box.setCurrentIndex(mode.rules_box.findData("america"))
    assert [mode.neighbours.item(i).data(Qt.UserRole) for i in range(mode.neighbours.count())] == ["HI"]
    assert board._states["HI"].fill is not None and board._states["AK"].highlight is not None
    mode.select("CO")
    codes = {mode.neighbours.item(i).data(Qt.UserRole) for i in range(mode.neighbours.count())}
    assert codes == {"WY", "NE", "KS", "OK", "NM", "UT"}   # not Arizona: Four Corners


def test_unknown_mode_is_refused(window):
    from stateside.errors import StatesideError

    with pytest.raises(StatesideError, match="unknown mode 'chess'"):
        window.open_mode("chess")


def test_corrupted_autosave_is_reported_and_kept(qtbot, tmp_path, monkeypatch):
    """A broken save never crashes the app and is not deleted."""
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    bad = w.autosave_path("explorer")
    bad.parent.mkdir(parents=True)
    bad.write_text('{"format": "stateside-save", "vers')
    w.open_mode("explorer")
    assert bad.read_text().startswith('{"format"')


def test_open_file_of_unknown_game_changes_nothing(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    path = tmp_path / "s.json"
    save_game(path, {"game": "backgammon", "x": 1})
    assert window.load_file(str(path)) is False
    assert "not installed" in shown[0]
    assert window.current.game_id == "explorer"


def test_screenshot_is_a_real_picture_of_the_map(tmp_path):
    out = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "stateside", "--screenshot", str(out), "--mode", "explorer"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 8) for y in range(0, 800, 8)}
    assert len(colours) > 50   # the map, labels and panel, not a blank window


def test_screenshot_bad_mode_and_size(tmp_path, capsys):
    assert main(["--screenshot", str(tmp_path / "x.png"), "--size", "huge"]) == 2
    assert "--size" in capsys.readouterr().err


def test_borders_command_prints_105_sorted_pairs(capsys):
    assert main(["borders"]) == 0
    lines = capsys.readouterr().out.split()
    assert len(lines) == 105 and lines == sorted(lines)
    assert "MI-WI" in lines and "AZ-CO" not in lines
    assert main(["borders", "--rules", "america"]) == 0
    assert "AK-HI" in capsys.readouterr().out.split()


def test_unknown_command_and_ruleset_exit_2(capsys):
    assert main(["frobnicate"]) == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["borders", "--rules", "chess"])
    assert e.value.code == 2


def test_selfplay_unknown_game(capsys):
    assert main(["selfplay", "chess", "--players", "ai:easy,ai:easy"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_autosave_of_a_mode_with_nothing_to_save_is_removed(qtbot, tmp_path, monkeypatch):
    """A finished game is not resumed next time."""
    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    stale = w.autosave_path("explorer")
    save_game(stale, {"game": "explorer", "old": True})
    w.open_mode("explorer")          # the explorer has no game to resume, and does not try
    w.close()
    assert not stale.exists()
    assert (tmp_path / "settings.ini").exists()


def test_selfplay_bad_player_spec_is_a_clear_error(capsys):
    assert main(["selfplay", "ten-days", "--players", "ai:hard,ai:genius", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "selfplay ten-days: unknown player 'ai:genius'" in err and "Traceback" not in err


def test_selfplay_prints_one_line_per_seat(capsys):
    assert main(["selfplay", "ten-days", "--players", "ai:easy,random", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("seat 1 ai:easy") and out[2].startswith("seat 2 random")
    assert "wins" in out[1] and "median decision" in out[1]


@pytest.mark.parametrize("mode_id", [g.id for g in discover_games()])
def test_a_game_in_progress_is_saved_on_quit_and_resumed(qtbot, mode_id):
    """Every game: quitting saves the game, the next start resumes the same game (a game
    not yet started, like Scrambled States before Start, leaves nothing to resume)."""
    first = MainWindow(persist=True)
    qtbot.addWidget(first)
    mode = first.open_mode(mode_id)
    state = mode.save_state()
    first.close()
    assert first.autosave_path(mode_id).exists() == (state is not None)
    second = MainWindow(persist=True)
    qtbot.addWidget(second)
    resumed = second.open_mode(mode_id)
    assert resumed.save_state() == state
    second.close()


def test_explorer_says_one_neighbour_and_no_source_path(qtbot, window):
    """Issue 11: "Alaska: 1 neighbour", not "1 neighbours"; the help names no file of the source tree."""
    mode = window.current
    messages = []
    mode.status.connect(messages.append)
    mode.rules_box.setCurrentIndex(mode.rules_box.findData("america"))
    mode.select("AK")
    assert messages[-1] == "Alaska: 1 neighbour"
    mode.select("CO")
    assert messages[-1] == "Colorado: 6 neighbours"
    mode.rules_box.setCurrentIndex(mode.rules_box.findData(None))
    mode.select("AK")
    assert messages[-1] == "Alaska: 0 neighbours"
    help_text = mode.help_html()
    assert "Census" in help_text
    assert not any(part in help_text for part in ("resources/", ".md", ".yaml", "src/", "SOURCES"))
