"""An online table without a server, for the tests of a screen's online play: the views a
referee would send one seat, and what attach_online needs of a session."""
from __future__ import annotations

from stateside.engine.match import Match


def referee_views(match: Match, seat: int):
    """The views a referee sends `seat` after each entry of `match` (stateside.online's own
    visibility rules: a move the seat may not see comes hidden, in the rules' words)."""
    from stateside.online.visibility import entry_views

    entries = []
    for e in match.log:
        before = match.state_after(e.index)
        entries.append(entry_views(e, before.action_to_json(e.action), len(match.seats))[1][seat])
        after = match.state_after(e.index + 1)
        yield {"status": "playing", "n": len(entries), "entries": list(entries),
               "observation": after.observation(seat), "legal": after.legal_actions(seat),
               "info": {"seats": match.seats, "setup": match.initial_setup}}


class FakeSession:
    """What attach_online needs of an online session, without a server."""

    def __init__(self, seat):
        from PySide6.QtCore import QObject, Signal

        class Signals(QObject):
            update = Signal(dict)
            connection = Signal(bool)
            refused = Signal(str)
            ended = Signal(dict)

        self.signals = Signals()
        self.update, self.connection = self.signals.update, self.signals.connection
        self.refused, self.ended = self.signals.refused, self.signals.ended
        self.seat, self.table, self.sent = seat, "ABCDEF", []
        self.left = False

    def send(self, action_json):
        self.sent.append(action_json)

    def leave(self):
        self.left = True

    def close(self):
        pass
