"""The play layer without Qt: a Table over local, replay and online sources, and the
turn-based flow's decisions (pass screens, the computers' beat, undo)."""
from __future__ import annotations

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.play.flow import ChanceAfter, ComputerAfter, ComputerNow, Over, PassScreen, PersonTurn, TurnFlow
from stateside.play.table import LocalSource, OnlineSource, ReplaySource, Table


def ten_days(seats, seed=3) -> Match:
    return Match("ten-days", seats, seed)


def test_local_table_acts_logs_and_refuses():
    table = Table(LocalSource(ten_days(["human", "human"])))
    heard = []
    table.listen(heard.append)
    flow = TurnFlow(table)
    step = flow.next()   # the deal is chance: applied inside, through the table
    assert heard and all(e.seat == CHANCE for e in heard)
    assert step == PassScreen(0)   # two people with hands of their own: the first one's too
    assert flow.pass_done() == 0 and flow.is_human_turn()
    view = table.view(0)
    assert view.to_move == 0 and view.legal and view.observation["seat"] == 0
    assert table.view(1).legal == []   # not the seat to move
    bad = table.act(0, "day:99")
    assert bad.kind == "refused" and bad.reason and len(table.match.log) == len(heard)
    good = table.act(0, view.legal[0])
    assert good.kind == "accepted" and heard[-1] is good.entry


def test_pass_screen_between_two_people_who_see_different_cards():
    table = Table(LocalSource(ten_days(["human", "human"])))
    flow = TurnFlow(table)
    assert flow.next() == PassScreen(0) and flow.pass_done() == 0 and flow.viewer == 0
    m = table.match
    while m.to_move() == 0:
        table.act(0, m.state.legal_actions(0)[0])
        step = flow.next()
    assert step == PassScreen(1) and flow.viewer is None and not flow.is_human_turn()
    assert flow.undo_refusal().startswith(m.names[1])   # the next person may be at the screen
    assert flow.pass_done() == 1 and flow.is_human_turn()


def test_a_computer_waits_the_beat_after_a_persons_move_and_undo_takes_it_back():
    table = Table(LocalSource(ten_days(["human", "ai:easy"])))
    flow = TurnFlow(table, beat_ms=lambda: 1500, ai_delay_ms=lambda: 700)
    assert flow.next() == PersonTurn(0)
    m = table.match
    while m.to_move() == 0:
        table.act(0, m.state.legal_actions(0)[0])
        step = flow.next()
    assert isinstance(step, (ComputerAfter, ChanceAfter))
    assert getattr(step, "ms", 0) == 1500
    n = len(m.log)
    assert flow.undo_refusal() is None
    assert flow.undo() == 0 and len(m.log) < n and flow.next() == PersonTurn(0)
    # played again, the beat runs out: the computer moves, and the move is final
    while m.to_move() == 0:
        table.act(0, m.state.legal_actions(0)[0])
        step = flow.next()
    moved = []
    while not isinstance(step, PersonTurn):   # the timers the flow asks for, run out at once
        assert isinstance(step, (ComputerAfter, ChanceAfter))
        due = flow.computer_due()
        if isinstance(due, ComputerNow):
            moved.append(flow.computer_move())
        step = flow.next()
    assert moved and all(e.seat == 1 for e in moved)
    assert flow.undo_point() is None and flow.undo_refusal() == "There is no move of yours to take back."


def test_replay_shows_move_n_and_refuses_acts_and_the_live_game_waits_beneath():
    live = ten_days(["ai:easy", "ai:easy"])
    live.play_out()
    table = Table(LocalSource(ten_days(["human", "ai:easy"])))
    kept = table.match
    replay = table.start_replay(live, 5)
    assert isinstance(replay, ReplaySource) and table.replaying is live
    assert len(table.match.log) == 5 and table.match.state.observation(0) == live.state_after(5).observation(0)
    assert table.act(0, "draw").reason == "This is a replay: close it to play on."
    assert TurnFlow(table).undo_refusal() == "This is a replay: close it to play on."
    assert table.save()["seats"] == ["human", "ai:easy"]   # the kept game, not the replay
    replay.go(len(live.log) + 10)
    assert replay.n == len(live.log) and table.match.is_over()
    table.stop_replay()
    assert table.match is kept and table.replaying is None


def test_finished_game_is_over_for_the_flow():
    m = ten_days(["ai:easy", "ai:easy"])
    m.play_out()
    flow = TurnFlow(Table(LocalSource(m)))
    flow.reset()
    assert flow.next() == Over(first=False)   # a loaded finished game: no score popup


class FakeSession:
    table = "K7QX3M"

    def __init__(self, seat=1):
        self.seat, self.sent = seat, []

    def send(self, data):
        self.sent.append(data)


def test_online_source_waits_for_the_sync_then_sends_and_counts_pending():
    session = FakeSession()
    local = LocalSource(ten_days(["human", "ai:easy"]))
    table = Table(local)
    online = OnlineSource(session, Match("ten-days", ["human", "human"]).rules,
                          presence=lambda view: "Gil left; the table waits. Share code K7QX3M")
    table.go_online(online)
    assert table.people() == [1] and table.save() == local.match.to_json()
    assert table.act(1, "draw").kind == "refused"   # no game yet
    assert online.update({"status": "lobby", "table": "K7QX3M"}).waiting
    upd = online.update({"status": "playing", "info": {"seats": ["human", "human"],
                         "setup": {"players": ["Ann", "Gil"]}}, "entries": [], "observed": {}, "n": 0})
    assert upd.started is not None and table.match is upd.started
    said = online.update({"status": "lobby", "table": "K7QX3M"}).said
    assert said.startswith("Gil left") and table.view(1).note == said
    assert online.connection(False) is None and "Connection lost" in table.view(1).note
    assert TurnFlow(table).undo_refusal().startswith("At an online table")
    assert table.leave_online() is online and table.match is local.match


def test_online_act_checks_on_a_copy_and_is_pending():
    session = FakeSession(seat=0)
    table = Table(LocalSource(ten_days(["human", "ai:easy"])))
    online = OnlineSource(session, Match("ten-days", ["human", "human"]).rules)
    table.go_online(online)
    online.update({"status": "playing", "info": {"seats": ["human", "human"], "setup": {"players": ["A", "B"]}},
                   "entries": [], "observed": {}, "n": 0})
    m = table.match
    m.resolve_chance()   # a stand-in deal, as if followed
    assert m.to_move() == 0
    n = len(m.log)
    assert table.act(0, "nonsense").kind == "refused" and not session.sent
    res = table.act(0, m.state.legal_actions(0)[0])
    assert res.kind == "sent" and session.sent and online.pending == 1 and len(m.log) == n
    assert online.refused("not your turn").endswith("not your turn") and online.pending == 0


def test_the_flow_waits_while_busy_and_asks_the_games_next_actor():
    """A game's hooks: busy() (an animation) holds everything; next_actor() names the person
    who sets off a chance outcome (a spin), so no chance is drawn for them."""
    table = Table(LocalSource(ten_days(["ai:easy", "ai:easy"])))
    busy = [True]
    flow = TurnFlow(table, busy=lambda: busy[0], ai_delay_ms=lambda: 700)
    assert flow.next().__class__.__name__ == "Idle" and table.match.log == []   # not even the deal
    busy[0] = False
    step = flow.next()
    assert step == ComputerAfter(table.match.to_move(), 700) and table.match.log   # the deal went in
    spin = TurnFlow(Table(LocalSource(ten_days(["human", "ai:easy"]))), next_actor=lambda: 0)
    assert spin.next() == PersonTurn(0) and spin.table.match.log == []   # the person's own chance waits


def test_a_seat_view_holds_only_what_the_seat_may_know_and_acts_only_on_its_turn():
    table = Table(LocalSource(ten_days(["human", "human"])))
    TurnFlow(table).next()
    g = table.match.state
    mine, theirs, everyone = table.view(0), table.view(1), table.view(None)
    assert mine.observation == g.observation(0) and theirs.observation == g.observation(1)
    assert mine.observation != theirs.observation   # each hand is its own
    assert mine.legal == g.legal_actions(0) and theirs.legal == [] and everyone.legal == []
    assert mine.log == [e.words_for(0) for e in table.match.log]
    assert not mine.over and mine.result is None and mine.pending == 0 and mine.source == "local"
    table.start_replay(table.match, 3)
    assert table.view(0).legal == [] and table.view(0).source == "replay"
