"""The turn cue (issue 26, item 4): QApplication.alert when the turn passes to a person
and the window is not active, never otherwise; the sound is a remembered setting."""
import pytest
from PySide6.QtWidgets import QApplication

from stateside.app import cue as cue_module
from stateside.app.main import MainWindow
from stateside.engine.match import Match
from stateside.games.ten_days.rules import TenDaysState
from fake_table import FakeSession, referee_views


@pytest.fixture
def alerts(monkeypatch):
    calls = []
    monkeypatch.setattr(QApplication, "alert", staticmethod(lambda widget, ms=0: calls.append(widget)))
    return calls


@pytest.fixture
def beeps(monkeypatch):
    calls = []
    monkeypatch.setattr(QApplication, "beep", staticmethod(lambda: calls.append(1)))
    monkeypatch.setattr(cue_module, "sound_effect_class", lambda: None)   # this wheel's case: no QtMultimedia
    monkeypatch.setattr(cue_module.TurnCue, "can_play_sound", lambda self: False)
    return calls


def make_window(qtbot, monkeypatch, active: bool):
    w = MainWindow(persist=True)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    monkeypatch.setattr(w, "isActiveWindow", lambda: active)
    mode = w.open_mode("ten-days")
    mode.ai_delay_ms = 0
    w.show()
    qtbot.waitExposed(w)
    return w, mode


def match(seats, seed=3):
    return Match(TenDaysState, seats, seed, {**TenDaysState.default_setup(len(seats)),
                                             "players": ["Ann", "Bob", "Cy"][:len(seats)]})


def play_my_turn(mode) -> None:
    me = mode.game.current_player()
    while mode.game.current_player() == me and not mode.match.is_over():
        g = mode.game
        assert mode.act(g.legal_actions(me)[0])


def test_the_window_asks_for_attention_exactly_when_the_computer_hands_the_turn_back(qtbot, monkeypatch, alerts):
    w, mode = make_window(qtbot, monkeypatch, active=False)
    mode.install(match(["human", "ai:easy"]))
    assert mode.is_human_turn() and alerts == []   # a game opened on your turn: nothing passed to you
    play_my_turn(mode)                              # several actions of one turn: no cue on the way
    assert alerts == [] and not mode.is_human_turn()
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)   # the computer played and passed the turn back
    assert alerts == [w]
    play_my_turn(mode)
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert alerts == [w, w]


def test_no_alert_while_the_window_is_active(qtbot, monkeypatch, alerts):
    _w, mode = make_window(qtbot, monkeypatch, active=True)
    came = []
    mode.turn_came.connect(lambda: came.append(1))
    mode.install(match(["human", "ai:easy"]))
    play_my_turn(mode)
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert came == [1]       # the turn did come back ...
    assert alerts == []      # ... to a person already looking at the window


def test_no_alert_when_only_computers_play(qtbot, monkeypatch, alerts):
    _w, mode = make_window(qtbot, monkeypatch, active=False)
    mode.install(match(["ai:easy", "ai:easy"], seed=5))

    def turns_passed() -> int:
        seats = [e.seat for e in mode.match.log if e.seat >= 0]
        return sum(a != b for a, b in zip(seats, seats[1:]))

    qtbot.waitUntil(lambda: turns_passed() >= 6, timeout=10000)   # the turn passed back and forth ...
    assert alerts == []                                            # ... never to a person


def test_the_sound_is_a_remembered_setting_and_beeps_without_qtmultimedia(qtbot, monkeypatch, alerts, beeps):
    w, mode = make_window(qtbot, monkeypatch, active=False)
    assert not w.act_turn_sound.isChecked()   # off by default: the alert alone
    assert w.act_turn_sound.text() == "&Beep when it is your turn"
    w.act_turn_sound.trigger()
    mode.install(match(["human", "ai:easy"]))
    play_my_turn(mode)
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert alerts == [w] and beeps == [1]
    w.close()
    again = MainWindow(persist=True)   # the next start remembers it
    qtbot.addWidget(again)
    assert again.act_turn_sound.isChecked() and again.cue.sound
    again.act_turn_sound.trigger()
    assert MainWindow(persist=True).cue.sound is False


def test_the_chime_is_a_short_wav(tmp_path):
    import wave

    path = tmp_path / "chime.wav"
    cue_module.write_chime(path)
    with wave.open(str(path)) as w:
        seconds = w.getnframes() / w.getframerate()
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
    assert 0.1 <= seconds <= 0.3




def played_table(seed=5):
    """A finished online table's game: seat 0 a person (played here by the model's moves), seat 1 the
    referee's easy computer."""
    model = match(["ai:easy", "ai:easy"], seed)
    model.play_out()
    table = match(["human", "ai:easy"], seed)
    for e in model.log:
        table.apply(e.action)
    return table


def test_online_the_alert_comes_each_time_the_table_hands_the_turn_to_this_seat(qtbot, monkeypatch, alerts):
    _w, mode = make_window(qtbot, monkeypatch, active=False)
    table = played_table()
    # Counted from the rules, not the screen: the turns at which seat 0 comes to act after
    # someone else (or at the start), up to the end of the game.
    mine = [table.state_after(k).current_player() == 0 for k in range(1, len(table.log))]
    expected = sum(now and not before for before, now in zip([False, *mine], mine))
    assert expected >= 3
    mode.attach_online(FakeSession(0))
    for view in referee_views(table, 0):
        mode.online_update(view)
    assert len(alerts) == expected


def test_where_qtmultimedia_is_there_the_chime_plays_through_it(qtbot, monkeypatch, alerts, tmp_path):
    played = []

    class FakeEffect:   # QSoundEffect's calls the cue makes
        def __init__(self, parent):
            self.source = None

        def setSource(self, url):
            self.source = url.toLocalFile()

        def setVolume(self, v):
            pass

        def play(self):
            played.append(self.source)

    monkeypatch.setattr(cue_module, "sound_effect_class", lambda: FakeEffect)
    monkeypatch.setattr(cue_module.TurnCue, "can_play_sound", lambda self: True)
    monkeypatch.setattr(QApplication, "beep", staticmethod(lambda: played.append("beep")))
    w, mode = make_window(qtbot, monkeypatch, active=False)
    assert w.act_turn_sound.text() == "&Sound when it is your turn"
    w.cue.chime_file = tmp_path / "turn-cue.wav"
    w.act_turn_sound.trigger()
    mode.install(match(["human", "ai:easy"]))
    play_my_turn(mode)
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert played == [str(tmp_path / "turn-cue.wav")] and (tmp_path / "turn-cue.wav").stat().st_size > 1000
