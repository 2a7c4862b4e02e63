"""The turn cue: when it becomes the turn of a person at this screen (after the computers,
or the other players of an online table) and the window is not the active one, the
desktop is asked to draw attention to it (QApplication.alert: a flashing task-bar entry,
a bouncing dock icon) and, if the setting is on, a short sound plays: a chime through
QtMultimedia where this Qt build has it, else the system's beep.

The modes say when a turn comes (TurnBasedMode.turn_came); this decides what follows."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

SETTING = "turn_sound"
CHIME_HZ, CHIME_MS, RATE = 880.0, 180, 22050


def write_chime(path: Path) -> None:
    """A short soft chime (a sine at 880 Hz fading out), 16-bit mono WAV: our own sound."""
    import math
    import struct
    import wave  # here: start-up builds the menus, and plays nothing

    n = RATE * CHIME_MS // 1000
    frames = b"".join(struct.pack("<h", int(9000 * math.exp(-5 * i / n) * math.sin(2 * math.pi * CHIME_HZ * i / RATE)))
                      for i in range(n))
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def sound_effect_class():
    """QSoundEffect where this Qt build has QtMultimedia (the PySide6 Essentials wheel has not)."""
    try:
        from PySide6.QtMultimedia import QSoundEffect
    except ImportError:
        return None
    return QSoundEffect


class TurnCue(QObject):
    """Owned by the main window; `turn_came()` is connected to each turn-based mode."""

    def __init__(self, window, settings=None, chime_file: Path | None = None):
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.chime_file = chime_file
        self._effect = None
        stored = settings.value(SETTING) if settings is not None else None
        self.sound = str(stored).lower() in ("true", "1") if stored is not None else False
        self.alerts = 0   # how many times the window asked for attention (for the status, tests)

    def can_play_sound(self) -> bool:
        """Whether QtMultimedia is there, found without loading it (the menu asks at start-up)."""
        from importlib.util import find_spec

        try:
            return find_spec("PySide6.QtMultimedia") is not None
        except (ImportError, ValueError):
            return False

    def set_sound(self, on: bool) -> None:
        self.sound = bool(on)
        if self.settings is not None:
            self.settings.setValue(SETTING, self.sound)

    def turn_came(self) -> None:
        if self.window.isActiveWindow():
            return   # the person is looking: the board already shows it is their turn
        self.alerts += 1
        QApplication.alert(self.window)
        if self.sound:
            self.play()

    def play(self) -> None:
        effect_class = sound_effect_class()
        if effect_class is None or self.chime_file is None:
            QApplication.beep()
            return
        if self._effect is None:
            from PySide6.QtCore import QUrl

            try:
                if not self.chime_file.exists():
                    write_chime(self.chime_file)
            except OSError:
                QApplication.beep()
                return
            self._effect = effect_class(self)
            self._effect.setSource(QUrl.fromLocalFile(str(self.chime_file)))
            self._effect.setVolume(0.5)
        self._effect.play()
