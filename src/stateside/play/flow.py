"""What comes next in a turn-based game at this screen: a person's turn, a pass screen, a
computer's move after its beat, a draw that waits with the computers, or the end.

TurnFlow reads a Table and decides; the Qt layer (app/turns.py) only shows what it says and
runs the timers it asks for, then calls back (`computer_due`, `pass_done`). Chance outcomes
are applied inside `next()` (through the table, so its listeners log them). Pure Python.

The policy, in one place:
- a computer seat moves after `ai_delay_ms`; right after a person's move the computers (and
  the draw that begins their turn) wait the undo beat instead (`beat_ms`, a setting), so that
  the move can still be taken back before anyone has seen what comes next;
- with two people at this screen who see different things (the rules' observations differ
  beyond their seat number), the next one's view appears only after a pass screen;
- a person takes back only their own last move (Table.undo_refusal), never while a move is
  under way or the next person is at the screen.

A game shapes it through the hooks it is given: `next_actor()` (who acts next: a game whose
chance a person sets off, a spin, names that person), `busy()` (an animation under way: the
flow waits) and `undo_allowed(n)` (the game's own limit on undo).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from stateside.engine.match import LogEntry, chance_rng, sample_chance
from stateside.engine.protocol import CHANCE, SIMULTANEOUS
from stateside.play.table import ONLINE, REPLAY, Table

AI_DELAY_MS = 700     # a computer's move shows after this pause
UNDO_BEAT_MS = 1500   # after a person's move, computers wait this long: undo takes it back meanwhile


# --- the steps next() returns ---------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """Base of what comes next."""


@dataclass(frozen=True)
class Idle(Step):
    """Nothing to do here: no game, a replay on show, or a move under way (`busy`)."""


@dataclass(frozen=True)
class PersonTurn(Step):
    """A person here is to act (seat; SIMULTANEOUS when every person here may)."""
    seat: int


@dataclass(frozen=True)
class PassScreen(Step):
    """Cover the screen until `seat`'s person says they are ready (then pass_done())."""
    seat: int


@dataclass(frozen=True)
class ComputerAfter(Step):
    """A computer seat moves after `ms`: run a timer, then call computer_due()."""
    seat: int
    ms: int


@dataclass(frozen=True)
class ChanceAfter(Step):
    """The draw that starts the computers' turn waits the undo beat: call computer_due() after `ms`."""
    ms: int


@dataclass(frozen=True)
class Waiting(Step):
    """Another seat is to act elsewhere (online), or nobody here can act now."""
    why: str


@dataclass(frozen=True)
class Over(Step):
    """The game is over; `first`: it just ended in front of the players (show the scores)."""
    first: bool


@dataclass(frozen=True)
class ComputerNow(Step):
    """computer_due(): the computer `seat` moves now (computer_move(), or a mode's own thinking)."""
    seat: int


@dataclass(frozen=True)
class Recheck(Step):
    """computer_due(): the turn went elsewhere meanwhile; call next() again."""


class TurnFlow:
    def __init__(self, table: Table, *, next_actor: Callable[[], int] | None = None,
                 busy: Callable[[], bool] | None = None, undo_allowed: Callable[[int], bool] | None = None,
                 beat_ms: Callable[[], int] | None = None, ai_delay_ms: Callable[[], int] | None = None):
        self.table = table
        self._next_actor = next_actor
        self.busy = busy or (lambda: False)
        self.undo_allowed = undo_allowed or (lambda n: True)
        self.beat_ms = beat_ms or (lambda: UNDO_BEAT_MS)
        self.ai_delay_ms = ai_delay_ms or (lambda: AI_DELAY_MS)
        self.viewer: int | None = None        # the seat whose private view is on screen
        self.waiting_for: int | None = None   # a pass screen is up for this seat
        self.beat_over = False                # the computers' beat after a person's move has run out
        self.over_shown = False               # the end was announced already

    # --- reading ------------------------------------------------------------------------
    def next_actor(self) -> int:
        if self._next_actor is not None:
            return self._next_actor()
        m = self.table.match
        assert m is not None
        return m.state.current_player()

    def people(self) -> list[int]:
        return self.table.people()

    def _playable(self) -> bool:
        m = self.table.match
        return m is not None and not m.is_over() and self.table.kind != REPLAY

    def _online_waits(self) -> bool:
        online = self.table.online
        return online is not None and not online.started

    def is_human_turn(self) -> bool:
        """A person here may act now (their turn, on screen, nothing under way or pending)."""
        if not self._playable() or self.busy() or self.waiting_for is not None or self._online_waits():
            return False
        online = self.table.online
        if online is not None and online.pending:
            return False
        actor = self.next_actor()
        if actor == SIMULTANEOUS:
            return bool(self.people())
        return actor in self.people() and self.viewer == actor

    def persons_turn(self) -> bool:
        """A person here is to act, or their pass screen is up. Unlike is_human_turn, not
        interrupted by an animation or a move on its way to the online table (which would
        make the same turn seem to come twice)."""
        if not self._playable():
            return False
        if self.waiting_for is not None:
            return True
        if self._online_waits():
            return False
        actor = self.next_actor()
        return bool(self.people()) if actor == SIMULTANEOUS else actor in self.people()

    def _seen(self, seat: int) -> str:
        """What a seat sees now, apart from its own seat number."""
        m = self.table.match
        assert m is not None
        obs = dict(m.state.observation(seat))
        obs.pop("seat", None)
        return json.dumps(obs, sort_keys=True, default=str)

    def _hidden(self) -> bool:
        m = self.table.match
        return m is not None and m.rules.spec.hidden_information

    def private_views(self) -> bool:
        """Do the people at this screen see different things now (a hand, a secret card)?"""
        people = self.people()
        if len(people) < 2 or not self._hidden():
            return False
        first = self._seen(people[0])
        return any(self._seen(p) != first for p in people[1:])

    def needs_pass_screen(self, actor: int) -> bool:
        """Two people at this screen, and the next one sees something the one on screen does
        not (their observations differ beyond their own seat number)."""
        if len(self.people()) < 2 or self.viewer == actor or not self._hidden():
            return False
        if self.viewer is None:
            return self.private_views()
        return self._seen(actor) != self._seen(self.viewer)

    def person_moved_last(self) -> bool:
        """The last action that was no chance outcome is a person's here (their move is not
        final yet: the computers wait the beat)."""
        m = self.table.match
        last = next((e for e in reversed(m.log) if e.seat != CHANCE), None) if m is not None else None
        return self.beat_ms() > 0 and last is not None and last.seat in self.people()

    def in_beat(self) -> bool:
        """At a chance node right after a person's move, when what it deals begins another
        seat's turn (a computer's): it waits the beat, so that the move can still be taken
        back without anyone having seen what comes next. A draw the person's own turn needs
        (their card, their flip) is dealt at once."""
        if self.beat_over or not self.person_moved_last():
            return False
        m = self.table.match
        assert m is not None
        probe = m.state.clone()   # where the turn goes, found on a copy with the match's own draws
        n = len(m.log)
        while probe.current_player() == CHANCE and not probe.is_terminal():
            probe.apply_action(sample_chance(probe, chance_rng(m.seed, n)))
            n += 1
        nxt = probe.current_player()
        return nxt >= 0 and nxt not in self.people()

    # --- deciding -----------------------------------------------------------------------
    def reset(self) -> None:
        """A new or loaded game is on the table."""
        m = self.table.match
        self.viewer = None
        self.waiting_for = None
        self.over_shown = m is not None and m.is_over()   # a loaded finished game: no score popup

    def next(self) -> Step:
        """Move the game on as far as it goes without a person (chance outcomes, through the
        table) and say what comes next."""
        table = self.table
        m = table.match
        if m is None or table.kind == REPLAY:
            return Idle()
        if table.kind != ONLINE:
            while not m.is_over() and not self.busy() and self.next_actor() == CHANCE:
                if self.in_beat():   # the draw that starts the computers' turn waits with them
                    return ChanceAfter(self.beat_ms())
                table.step()
        people = self.people()
        if m.is_over():
            self.viewer = people[0] if len(people) == 1 else None
            first = not self.over_shown
            self.over_shown = True
            return Over(first)
        actor = self.next_actor()
        if actor in people:
            if self.needs_pass_screen(actor):
                self.viewer = None
                self.waiting_for = actor
                return PassScreen(actor)
            self.viewer = actor
            return PersonTurn(actor)
        if len(people) == 1:
            self.viewer = people[0]
        elif len(people) > 1 and self.private_views():
            self.viewer = None   # nobody's private view while a computer plays between people
        elif not people:
            self.viewer = actor if actor >= 0 else None   # computers only: watch everything
        if actor == SIMULTANEOUS and people:
            return PersonTurn(actor)
        if table.kind == ONLINE:
            return Waiting("another seat is to move at the table")
        if actor < 0 or self.busy():
            return Idle()
        beat = self.person_moved_last() and not self.beat_over
        delay = self.ai_delay_ms()
        return ComputerAfter(actor, max(self.beat_ms(), delay) if beat else delay)

    def pass_done(self) -> int | None:
        """The person the pass screen waited for is at the screen: their view is on."""
        self.viewer, self.waiting_for = self.waiting_for, None
        return self.viewer

    def computer_due(self) -> Step:
        """The timer a ComputerAfter or ChanceAfter asked for ran out."""
        m = self.table.match
        if m is None or m.is_over() or self.table.kind == REPLAY or self.busy():
            return Idle()
        self.beat_over = True   # the person's move is final from here
        actor = self.next_actor()
        if actor < 0 or actor in self.people() or self.table.kind == ONLINE:
            return Recheck()
        return ComputerNow(actor)

    def computer_move(self) -> LogEntry | None:
        """The computer to move decides here and now (through the table: logged)."""
        return self.table.step()

    def moved(self, entry: LogEntry | None) -> None:
        """An entry went in: a person's new move makes the computers wait the beat again."""
        if entry is not None and entry.seat in self.people():
            self.beat_over = False

    # --- undo -----------------------------------------------------------------------------
    def undo_refusal(self) -> str | None:
        """Why undo takes nothing back now, in a person's words (None: it would)."""
        why = self.table.source_refusal()
        if why:
            return why
        if self.busy():
            return "Wait for the move under way to finish."
        m = self.table.match
        if self.waiting_for is not None and m is not None:
            return f"{m.names[self.waiting_for]} is at the screen now: the last move can't be taken back."
        return self.table.undo_refusal(self.people(), self.viewer, self.undo_allowed)

    def undo_point(self) -> int | None:
        if self.table.source_refusal() or self.busy() or self.waiting_for is not None:
            return None
        return self.table.undo_point(self.people(), self.viewer, self.undo_allowed)

    def undo(self) -> int | None:
        """Take back the person's last move: the seat whose it was (None: nothing taken back)."""
        if self.undo_point() is None:
            return None
        seat = self.table.undo(self.people(), self.viewer, self.undo_allowed)
        if seat is not None:
            self.beat_over = False
            self.over_shown = False
            self.viewer = seat          # the same person, who saw it all already
        return seat
