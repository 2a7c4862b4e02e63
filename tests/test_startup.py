"""Start-up (issue 11, item 8): what the map's first frame may not wait for, and how the
`stateside` process ends. The figures are in benchmarks/bench_foundation.py."""
import os
import subprocess
import sys
import textwrap

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

from startup_probe import probe_script
from stateside.board import qt_lazy


def _env(tmp_path, **extra):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_CONFIG_DIR=str(tmp_path / "config"))
    env.update(extra)
    return env


def test_the_ints_the_board_passes_before_the_first_paint_are_qt_s_own_values():
    assert qt_lazy.ALIGN_CENTER == Qt.AlignCenter.value
    assert qt_lazy.SCROLL_BAR_ALWAYS_OFF == Qt.ScrollBarAlwaysOff.value
    assert qt_lazy.STRONG_FOCUS == Qt.StrongFocus.value
    assert qt_lazy.TOOL_BUTTON_TEXT_ONLY == Qt.ToolButtonTextOnly.value
    assert qt_lazy.Qt.KeepAspectRatio is Qt.KeepAspectRatio   # the stand-in hands out the real thing


def test_solid_brushes_and_pens_are_what_qbrush_and_qpen_make(qapp):
    colour = QColor("#e9d8a6")
    brush = qt_lazy.solid(colour)
    assert brush.style() == Qt.SolidPattern and brush.color() == colour
    pen = qt_lazy.pen(colour, 3.2)
    made = QPen(colour, 3.2, Qt.SolidLine, Qt.SquareCap, Qt.BevelJoin)
    assert pen == made
    assert qt_lazy.pen(colour).isCosmetic()   # width 0: the one-pixel hairline


# Records every Python enum PySide6 builds, and says at the app's "painted" line whether
# the Qt namespace's (AlignmentFlag is one) were among them yet.
WATCH = probe_script('"enums"', "len(made)", '"qt-namespace"', '"AlignmentFlag" in made')



def test_the_explorer_paints_its_map_before_pyside_sets_up_the_qt_namespace(tmp_path):
    """About 30 ms of a start-up (see board/qt_lazy.py): one `Qt.` on the way to the first
    paint, or a call whose overloads take a Qt enum, brings it back."""
    result = subprocess.run([sys.executable, "-c", WATCH, "--mode", "explorer"],
                            env=_env(tmp_path, STATESIDE_QUIT_AFTER_PAINT="1"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("enums "))
    _, count, _, built = line.split()
    assert int(count) > 20   # the hook sees PySide6's enums (QEvent.Type and the like)
    assert built == "False", "the Qt namespace was set up before the map's first paint"


def test_the_command_ends_its_process_once_the_screenshot_is_written(tmp_path):
    out = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "stateside", "--screenshot", str(out)],
                            env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_settings_are_written_before_the_process_ends(tmp_path):
    """_end_process skips Qt's teardown, which is where QSettings would write otherwise."""
    code = textwrap.dedent("""
        from PySide6.QtWidgets import QApplication
        from stateside.app.main import MainWindow, _end_process
        app = QApplication([])
        window = MainWindow(persist=True)
        window.settings.setValue("last_folder", "/somewhere")
        _end_process(window, 3)
        raise SystemExit("not reached")
    """)
    result = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 3, result.stderr
    assert "last_folder=/somewhere" in (tmp_path / "config" / "settings.ini").read_text()


# Says at the "painted" line whether Python's cycle collector runs and whether PySide6 had
# set up QIcon (its enum ThemeIcon) by then; at the end, whether the collector runs again.
GC_WATCH = probe_script('"gc-on"', "gc.isenabled()", '"icon"', '"ThemeIcon" in made')



def test_the_collector_is_paused_until_just_after_the_first_paint_and_no_icon_is_set_up(tmp_path):
    """The `stateside` command pauses Python's garbage collector for start-up (its passes
    over PySide6's objects cost 10-20 ms) and sets up no QIcon (QAction(text, parent) would,
    to choose its overload): the map paints with the collector off, the mode built after it
    paints with the collector on, and it is on when the command returns."""
    first = subprocess.run([sys.executable, "-c", GC_WATCH, "--mode", "america"], capture_output=True, text=True,
                           env=_env(tmp_path, STATESIDE_QUIT_AFTER_PAINT="1"), timeout=60)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "gc-on False icon False" in first.stdout and "after gc-on True" in first.stdout
    whole = subprocess.run([sys.executable, "-c", GC_WATCH, "--mode", "america"], capture_output=True, text=True,
                           env=_env(tmp_path, STATESIDE_QUIT_AFTER_PAINT="panels"), timeout=60)
    assert whole.returncode == 0, whole.stderr[-2000:]
    assert "gc-on True" in whole.stdout and "after gc-on True" in whole.stdout


def test_the_usual_starts_read_their_arguments_as_the_parser_does():
    """No arguments, or `--mode NAME`, skip building argparse's parser (about 3 ms of
    start-up); they come out as the parser reads them, and anything else goes to it."""
    from stateside.__main__ import _parse_app_args, _usual_start

    for argv in ([], ["--mode", "america"], ["--mode", "ten-days"]):
        assert vars(_usual_start(argv)) == vars(_parse_app_args(argv))
    for argv in (["--mode=america"], ["--mo", "america"], ["--mode", "-x"], ["--mode", ""], ["game.json"],
                 ["--mode", "america", "--size", "800x600"], ["--screenshot", "a.png"], ["--mode"]):
        assert _usual_start(argv) is None


def test_the_games_are_found_in_a_folder_and_in_a_desktop_binarys_archive(monkeypatch):
    """The registry lists the game packages from their folders without pkgutil (start-up);
    in a frozen binary the packages live in its archive, where only pkgutil sees them: both
    ways find the same games (the binary once found none and offered only the Map explorer)."""
    import sys

    import stateside.games as games
    from stateside.registry import _subpackages

    from_folders = _subpackages(games.__path__)
    assert {"america", "carcassonne", "game_of_the_states", "scrambled_states", "ten_days"} <= set(from_folders)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert sorted(_subpackages(games.__path__)) == sorted(from_folders)
