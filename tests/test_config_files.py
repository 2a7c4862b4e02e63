"""Files the app keeps in its config and cache folders go through the strict loader, have
their shape checked, and are moved aside or made again when bad (issue 27, finding 10):
a damaged or hostile file never stops a game from opening."""
import json
import os

import pytest
from PySide6.QtWidgets import QMessageBox

from stateside.games.america import widgets
from stateside.games.america.mode import AmericaMode

HISTORIES = {
    "nested 3000 deep": '{"used": ' + "[" * 3000 + "]" * 3000 + "}",
    "used a number": '{"used": 5}',
    "topics of numbers": '{"used": [1, 2, 3]}',
    "a list": '["1A", "2B"]',
    "a topic too long": json.dumps({"used": ["x" * 5000]}),
    "a huge number": '{"used": [' + "9" * 5000 + "]}",
    "not text": "\udcff",
}


@pytest.mark.parametrize("damage", [*HISTORIES, "a FIFO"])
def test_a_bad_topic_history_is_moved_aside_and_america_opens(show_mode, damage):
    mode = show_mode(AmericaMode)
    path = widgets.history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if damage == "a FIFO":
        os.mkfifo(path)   # opened, it would block for ever
    elif damage == "not text":
        path.write_bytes(b"\xff\xfe\x00\x01")
    else:
        path.write_text(HISTORIES[damage])
    said = []
    mode.status.connect(said.append)
    mode.start_game(["human", "human"], seed=3)
    assert mode.game is not None and mode.game.phase == "choose"
    kept = list(path.parent.glob("america-used-topics.unreadable-*.json"))
    assert len(kept) == 1 and not path.exists()
    assert any("The America topics already played could not be read" in t and str(kept[0]) in t for t in said)
    # the next card scored writes a good history in its place
    widgets.write_history(["1A"])
    assert widgets.read_history() == ["1A"]


def test_a_good_history_is_read_and_nothing_moved(show_mode):
    widgets.write_history(["1A", "family:3B"])
    said = []
    assert widgets.read_history(said.append) == ["1A", "family:3B"] and said == []
    assert not list(widgets.history_path().parent.glob("*.unreadable-*"))


# --- the board's shape cache --------------------------------------------------------------

def _call_with_timeout(function, *args, seconds=30):
    """function(*args) in a thread; fails (instead of hanging the suite) if it blocks."""
    import threading

    result = []
    worker = threading.Thread(target=lambda: result.append(function(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"{function.__name__} blocked"
    return result[0]


@pytest.mark.parametrize("damage", ["a FIFO", "a label at NaN", "a colour out of the palette", "a code twice",
                                    "a count of 2**31 - 1"])
def test_a_bad_board_shape_cache_is_not_read_and_is_made_again(qtbot, tmp_path, damage):
    from PySide6.QtCore import QByteArray, QDataStream, QIODevice

    from stateside.board import view
    from stateside.board.view import BoardView
    from stateside.geo.atlas import load_atlas

    cache = tmp_path / "board-shapes.bin"
    shapes = view._shapes_from_atlas(load_atlas())
    if damage == "a FIFO":
        os.mkfifo(cache)   # opened, it would block the start for ever
    elif damage == "a count of 2**31 - 1":
        data = QByteArray()
        stream = QDataStream(data, QIODevice.WriteOnly)
        stream.writeQString(view._cache_key())
        stream.writeInt32(2**31 - 1)
        del stream
        cache.write_bytes(bytes(data))
    else:
        first = shapes[0]
        if damage == "a label at NaN":
            first.label = (float("nan"), 1.0)
        elif damage == "a colour out of the palette":
            first.colour = 99
        else:
            first.code = shapes[1].code
        view._write_shape_cache(cache, shapes)
    assert _call_with_timeout(view._read_shape_cache, cache) is None
    board = BoardView(shape_cache=cache)
    qtbot.addWidget(board)
    assert len(board.codes()) == 50 and view._read_shape_cache(cache) is not None   # made again


# --- the borders cache, in the app --------------------------------------------------------

@pytest.mark.parametrize("damage", ["nested 3000 deep", "wrong types", "a wrong pair with its digest"])
def test_a_bad_borders_cache_disables_no_game(qtbot, tmp_path, monkeypatch, damage):
    from stateside import paths
    from stateside.app.main import MainWindow
    from stateside.geo import borders as geo_borders

    monkeypatch.setattr(QMessageBox, "show", lambda self: None)
    config = tmp_path / "config"
    kept = config / "cache" / "borders.json"
    paths.use_cache_dir(kept.parent)
    geo_borders.derived_borders.cache_clear()
    geo_borders.load_borders.cache_clear()
    try:
        geo_borders.derived_borders()
        data = json.loads(kept.read_text())
        if damage == "nested 3000 deep":
            text = "[" * 3000 + "]" * 3000
        elif damage == "wrong types":
            text = json.dumps({**data, "codes": {"AL": 1}, "pairs": 105})
        else:   # AK-HI: America adds it, Game of the States and 10 Days expect it absent
            pairs = sorted(data["pairs"] + ["AK-HI"])
            text = json.dumps({**data, "pairs": pairs, "digest": geo_borders._digest(data["atlas"], data["codes"], pairs)})
        kept.write_text(text)
        geo_borders.derived_borders.cache_clear()
        geo_borders.load_borders.cache_clear()
        window = MainWindow(persist=True)
        qtbot.addWidget(window)
        for game in ("america", "game-of-the-states", "ten-days"):
            assert window.open_mode(game) is window.current, game
        assert window.data_errors == {}
        assert len(geo_borders.derived_borders().pairs) == 105
        assert "AK-HI" not in json.loads(kept.read_text())["pairs"]   # replaced by the real pairs
        window.close()
    finally:
        paths.use_cache_dir(None)
        geo_borders.derived_borders.cache_clear()
        geo_borders.load_borders.cache_clear()
