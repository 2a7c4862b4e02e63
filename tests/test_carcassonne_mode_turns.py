"""Carcassonne on the shared turn-based scaffold (issue 11): the move log and its
highlights, a log that never tells a seat what it may not see, replays of saved games,
the fair undo, and the score table at the end."""
from __future__ import annotations

from pathlib import Path

import pytest

from stateside.app.mode import GameMode
from PySide6.QtCore import Qt

from stateside.engine.following import follow
from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.engine.saves import read_save, save_game
from stateside.games.carcassonne.engine import Game, Setup
from stateside.games.carcassonne.mode import CarcassonneMode
from stateside.games.carcassonne.tile_art import SEAT_COLOURS
from stateside.games.carcassonne.usa import Look, Reveal
from audience_oracle import hidden_from
from stateside.selfplay import play_match

SAVES = Path(__file__).parent / "data" / "saves-v1"
HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]


@pytest.fixture
def mode(show_mode):
    m = show_mode(CarcassonneMode, size=(1024, 700))
    m.ai_delay_ms = 0
    return m


def play_first_legal(mode, turns: int) -> None:
    for _ in range(turns):
        g = mode.game
        x, y, rot = g.legal_placements()[0]
        mode.place_tile(x, y, rot)
        mode.confirm_turn()


def test_the_log_shows_every_action_the_computers_included_in_the_players_colours(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Cpu"]), [HUMANS[0], {"name": "Cpu", "kind": "easy"}], seed=9)
    for _ in range(2):
        play_first_legal(mode, 1)
        qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    lines = mode.log_panel.lines()
    log = mode.match.log
    assert [line.index for line in lines] == list(range(len(log)))         # every action, newest last
    assert [line.text for line in lines] == [e.text for e in log]
    assert {line.seat for line in lines} == {CHANCE, 0, 1}                  # draws, Ann's and the computer's
    for line in lines:
        assert line.colour == (SEAT_COLOURS[line.seat] if line.seat >= 0 else mode.seat_colour(-1))
    cpu = next(line for line in lines if line.seat == 1)
    assert cpu.text.startswith("Cpu laid a ") and " tile " in cpu.text and cpu.who == "Cpu"
    assert mode.log_panel.minimumSizeHint().height() <= mode.log_panel.height()
    # Six or more lines fit at 1024x700.
    rows = mode.log_panel.visualItemRect(mode.log_panel.item(0)).height()
    assert mode.log_panel.viewport().height() >= 6 * rows


def test_pointing_at_a_line_frames_that_moves_tile_in_the_players_colour(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"]), HUMANS, seed=4)
    play_first_legal(mode, 3)
    log = mode.match.log
    bob = next(e for e in log if e.seat == 1)
    mode.log_panel.hovered.emit(bob.index)
    frame = mode.table.highlight
    assert frame.isVisible() and mode.highlighted == bob.action[:2]
    assert frame.rect().center() == mode.table.square_rect(*bob.action[:2]).center()
    assert frame.pen().color().name() == SEAT_COLOURS[1]
    draw = next(e for e in log if e.seat == CHANCE)
    mode.log_panel.hovered.emit(draw.index)          # a draw lays nothing: no frame
    assert not frame.isVisible()
    mode.log_panel.hovered.emit(bob.index)
    mode.log_panel.hovered.emit(-1)                  # the pointer left the log
    assert not frame.isVisible()
    mode.log_panel.picked.emit(bob.index)            # a click pins it
    mode.log_panel.hovered.emit(-1)
    assert frame.isVisible() and mode.highlighted == bob.action[:2]


def test_on_a_map_a_log_line_frames_its_square_on_the_map(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], variant="usa-west"), HUMANS, seed=2)
    g = mode.game
    lay = g.legal_actions(0)[0]
    assert mode.act(lay)
    entry = next(e for e in mode.match.log if e.action == lay)
    mode.log_panel.hovered.emit(entry.index)
    assert mode.map_item.highlight[0] == (lay.x, lay.y)
    assert mode.map_item.highlight[1].name() == SEAT_COLOURS[0]
    mode.log_panel.hovered.emit(-1)
    assert mode.map_item.highlight is None


def looking_game(seed: int = 2) -> Match:
    """A seeded computers' game on USA West until several secret looks have happened."""
    match = Match("carcassonne", ["ai:easy", "ai:easy", "ai:easy"], seed,
                  {**Game.default_setup(3), "variant": "usa-west"})
    looks = 0
    while looks < 3 and not match.is_over():
        entry = match.step()
        state = match.state
        looks += type(entry.action) is Reveal and state.secret.get(len(state.history) - 1) is not None
    assert looks == 3
    return match


def test_the_log_never_names_a_tile_a_seat_may_not_see(qtbot, mode):
    """Checked against stateside.online.visibility.hidden_from: whenever an action is hidden
    from some seat, its line says the same whichever of the indistinguishable actions it was."""
    match = looking_game()
    mode.install(Match.from_json(match.to_json()))
    lines = {line.index: line.text for line in mode.log_panel.lines()}
    state = Game.new(match.initial_setup)
    secret = 0
    for e in match.log:
        if e.seat == CHANCE and type(e.action) is Reveal:
            hidden = hidden_from(state, e.action, e.seat)
            looker = state.current
            if state.revealing[1] == "look":
                secret += 1
                assert hidden == set(range(3)) - {looker}           # the others may not see it
                assert e.action.tile not in lines[e.index]
                for other, _ in state.chance_outcomes():             # any other tile: the same words
                    assert state.action_to_string(other) == lines[e.index]
                assert lines[e.index] == f"the face-down tile was shown to {state.names[looker]} only"
            else:
                assert hidden == set()                               # a flip is public
        state.apply_action(e.action)
    assert secret == 3


def saved_match(tmp_path, seats=("ai:easy", "ai:easy"), seed=3, **setup) -> Match:
    """A seeded match played to the end, saved to a file and read back."""
    record = play_match("carcassonne", list(seats), seed, {**Game.default_setup(len(seats)), "sets": ["base"], **setup})
    path = tmp_path / "game.stateside.json"
    save_game(path, record.match.to_json())
    _, body = read_save(path, "carcassonne")
    return Match.from_json(body, str(path))


def shown(mode):
    """What the table shows: the tiles on it and the followers."""
    return sorted(mode.table.tiles), len(mode.table.followers)


def expected(state):
    return sorted(p.pos for p in state.placed), len(state.followers_on_board())


def test_a_saved_game_replays_first_back_forward_last_read_only(qtbot, mode, tmp_path):
    match = saved_match(tmp_path)
    live = mode.match
    mode.start_replay(match)
    bar = mode.replay_bar
    assert bar.isVisible() and mode.replaying is match
    total = len(match.log)
    assert shown(mode) == expected(match.state) and "Game over" in mode.turn_label.text()
    qtbot.mouseClick(bar.first_button, Qt.LeftButton)
    assert bar.position == 0 and shown(mode) == expected(match.state_after(0))
    for n in (41, 40, 41):                       # forward to 41, back one, forward one
        if n == 41 and bar.position == 0:
            bar.go(41)
        elif n < bar.position:
            qtbot.mouseClick(bar.back_button, Qt.LeftButton)
        else:
            qtbot.mouseClick(bar.forward_button, Qt.LeftButton)
        assert bar.position == n
        state = match.state_after(n)
        assert shown(mode) == expected(state)
        assert [row[2] for row in mode.scoreboard.rows] == state.points
        assert mode.table.targets == [] and not mode.table.pending.isVisible()   # nothing to click
        assert not mode.btn_confirm.isEnabled() and not mode.btn_left.isEnabled()
        assert "Replay" in mode.hint.text() and "Click" not in mode.hint.text()
        assert mode.highlighted == (match.log[n - 1].action[:2] if type(match.log[n - 1].action) is tuple else None)
    messages = []
    mode.status.connect(messages.append)
    g = mode.game
    if g.current_player() >= 0:
        x, y, rot = g.legal_placements()[0]
        mode._clicked(x, y, mode.table.square_rect(x, y).center())
        assert mode.pending is None and "replay" in messages[-1]
    qtbot.mouseClick(bar.last_button, Qt.LeftButton)
    assert bar.position == total and shown(mode) == expected(match.state)
    assert mode.final_scores.isVisible()
    bar.close_replay()
    assert mode.replaying is None and mode.match is live and mode.is_human_turn()
    assert mode.table.targets                    # the game in progress is playable again


def test_a_version_1_save_replays(qtbot, mode):
    _, body = read_save(SAVES / "carcassonne-midgame.json", "carcassonne")
    match = mode.match_from_save(body, "carcassonne-midgame.json")
    mode.start_replay(match)
    mode.replay_bar.go(10)
    assert shown(mode) == expected(match.state_after(10))
    mode.replay_bar.go(len(match.log))
    assert shown(mode) == expected(match.state)


def test_a_map_game_replays_without_showing_anyones_secret_tiles(qtbot, mode):
    match = looking_game()
    mode.start_replay(match)
    assert mode.on_map and mode.map_item is not None
    mode.replay_bar.go(len(match.log) // 2)
    assert mode.map_item.game.placed == mode.game.placed and mode.map_item.secret_for is None
    assert mode.map_item.targets == set()


def test_undo_is_fair_and_a_computers_reply_cannot_be_seen_and_taken_back(qtbot, mode, monkeypatch):
    # The computers' beat after a person's move (the tile the computer draws waits with it)
    monkeypatch.setattr(GameMode, "undo_beat_ms", 400)
    mode.start_game(Setup(players=["Ann", "Cpu"]), [HUMANS[0], {"name": "Cpu", "kind": "hard"}], seed=9)
    mode.ai_delay_ms = 400
    assert not mode.can_undo()
    play_first_legal(mode, 1)
    assert mode.can_undo()                       # the computer has not moved yet
    mode.undo()
    assert mode.game.turn == 0 and mode.is_human_turn() and mode.game.drawn is not None
    play_first_legal(mode, 1)
    # The computer's tile is on view before its turn ends: it cannot be taken back now...
    qtbot.waitUntil(lambda: mode.computer_move is not None, timeout=5000)
    assert mode.pending is not None and not mode.can_undo()
    mode.undo()
    assert mode.computer_move is not None and mode.game.turn == 1
    # ...nor once it is played.
    qtbot.waitUntil(mode.is_human_turn, timeout=5000)
    assert mode.game.turn == 2 and not mode.can_undo()
    assert mode.table.pending_frame.pen().color().name() != "#ffb300" or mode.pending is None


def test_a_computers_tile_on_view_is_framed_in_its_colour_not_gold(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Cpu"]), [HUMANS[0], {"name": "Cpu", "kind": "easy"}], seed=9)
    mode.ai_delay_ms = 400
    play_first_legal(mode, 1)
    qtbot.waitUntil(lambda: mode.computer_move is not None, timeout=5000)
    assert mode.table.pending_frame.pen().color().name() == SEAT_COLOURS[1]
    assert "framed" in mode.hint.text()


def test_the_end_opens_the_score_table_with_every_kind_and_the_total(qtbot, mode):
    mode.start_game(Setup(players=["Ann", "Bob"], sets=["base"]), HUMANS, seed=4)
    match = mode.match
    mode.ai_delay_ms = 0
    while not match.is_over():
        g = mode.game
        moves = g.legal_actions(g.current)
        assert mode.act(moves[0])
    dialog = mode.score_dialog
    assert dialog is not None and dialog.isVisible()
    table = mode.score_table
    columns = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert columns == ["Player", "Roads", "Cities", "Cloisters", "Fields", "Total"]
    assert [int(table.cell_text(r, 5)) for r in range(2)] == match.state.scores()
    assert mode.final_scores.isVisible()
    dialog.close()
    mode.start_replay(match)                     # "Replay this game"
    assert mode.replaying is match


def test_keys_step_a_replay_and_esc_takes_back_a_placed_tile(qtbot, mode, tmp_path):
    match = saved_match(tmp_path)
    mode.start_replay(match)
    qtbot.keyClick(mode.replay_bar.slider, Qt.Key_Home)
    assert mode.replay_bar.position == 0
    qtbot.keyClick(mode.replay_bar.slider, Qt.Key_Right)
    assert mode.replay_bar.position == 1 and len(mode.match.log) == 1
    qtbot.keyClick(mode.replay_bar.slider, Qt.Key_Escape)
    assert mode.replaying is None
    g = mode.game
    x, y, rot = g.legal_placements()[0]
    mode.place_tile(x, y, rot)
    mode.refresh()
    qtbot.keyClick(mode.view, Qt.Key_Escape)
    assert mode.pending is None and (x, y) not in mode.game.board


def test_people_at_one_screen_pass_it_on_once_someone_has_looked_at_a_face_down_tile(qtbot, mode):
    source = looking_game()
    first_look = next(i for i, e in enumerate(source.log)
                      if type(e.action) is Reveal and "only" in e.text)
    body = {**source.to_json(), "seats": ["human"] * 3, "actions": source.to_json()["actions"][:first_look + 1]}
    mode.install(mode.match_from_save(body))
    g = mode.game
    looker = source.log[first_look - 1].seat
    assert g.known and mode.pass_screen.isVisible() and mode.waiting_for == g.current
    assert mode.map_item.secret_for is None and not mode.is_human_turn()
    mode._pass_done()
    assert mode.viewer == g.current and mode.is_human_turn()
    # The turn goes on; when the next person sees something else, the screen is passed.
    assert g.current == looker       # the looker's turn goes on (a follower next)
    while mode.game.current == looker:
        assert mode.act(mode.game.legal_actions(looker)[0])
    nxt = mode.game.current
    assert mode.pass_screen.isVisible() and mode.waiting_for == nxt
    assert mode.pass_screen.title.text() == f"Pass to {mode.game.names[nxt]}" and mode.viewer is None


def a_second_look():
    """The first seeded game of three easy computers on USA West in which a seat looks at
    a face-down tile another seat looked at first: (the match up to that look, the seat,
    the square)."""
    for seed in range(40):
        source = Match("carcassonne", ["ai:easy"] * 3, seed, {**Game.default_setup(3), "variant": "usa-west"})
        while not source.is_over() and len(source.log) < 400:
            before = source.state.clone()
            entry = source.step()
            if type(entry.action) is Look:
                pos = (entry.action.x, entry.action.y)
                if before.known.get(pos) and entry.seat not in before.known[pos]:
                    return source, entry.seat, pos
    raise AssertionError("no seeded game has a second look at a tile")


def test_online_a_tile_someone_else_looked_at_first_is_named_once_this_seat_looks_too(qtbot, mode):
    """The online copy (engine.following): another seat's look reaches this seat hidden, and
    the square stays face down here; when this seat looks at the same tile later (no chance
    action: the referee just shows it), the copy shows it on its square."""
    source, me, pos = a_second_look()
    k = len(source.log) - 1   # the look
    views = []
    for e in source.log:
        state = source.state_after(e.index)
        views.append({"n": e.index, "seat": e.seat, "text": e.words_for(me), **(
            {"action": state.action_to_json(e.action)} if e.seen_by(me) else {"hidden": True})})
    assert any(v.get("hidden") for v in views[:k])

    def shown(state):   # the tile this seat's view shows on the square (None: face down, unknown)
        return next(c["tile"] for c in state.observation(me)["covert"] if tuple(c["square"]) == pos)
    local = Match("carcassonne", ["human"] * 3, source.seed, source.initial_setup)
    done = follow(local, me, views[:k], {}, source.state_after(k).observation(me), k)
    mode.install(local)
    assert not done.disagreed and shown(mode.game) is None
    done = follow(local, me, views, {}, source.state.observation(me), len(views))
    assert not done.disagreed and [e.index for e in done.entries] == [k]
    assert mode.game.observation(me) == source.state.observation(me)
    assert shown(mode.game) == shown(source.state) is not None
