"""Carcassonne Maps: USA West, USA East and both (rulebooks/carcassonne-maps-usa.txt): each
rule of the sheet, by its section. Positions are reached by laying tiles from the stack on
a path of squares (the helper `prepare`), then the rule under test is played with real
actions."""
from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

import pytest

from stateside.engine.protocol import CHANCE, EVERY_SEAT, SPECTATOR
from stateside.errors import IllegalActionError
from stateside.games.carcassonne.engine import Game, draw
from stateside.games.carcassonne.tiles import CITY, DELTA, FIELD, K_CITY, tile_by_id
from stateside.games.carcassonne.usa import ChipDraw, Follow, Lay, Look, MapGame, PlaceTurnedUp, Reveal


def new(variant="usa-east", players=2) -> MapGame:
    g = Game.new({"players": [f"P{i + 1}" for i in range(players)], "variant": variant})
    assert isinstance(g, MapGame)
    return g


def path_to(g: MapGame, target, avoid=()):
    """The free playable squares from the landscape's edge to `target` (target excluded),
    avoiding face-down tiles, towns and `avoid`."""
    blocked = set(g.covert) | set(g.map.towns) | set(avoid)
    start = [p for p in g.open if p not in blocked]
    prev = {p: None for p in start}
    todo = deque(start)
    while todo:
        p = todo.popleft()
        if p == target:
            break
        for dx, dy in DELTA:
            q = (p[0] + dx, p[1] + dy)
            if q in prev or q in g.board or q not in g.map.squares or (q in blocked and q != target):
                continue
            prev[q] = p
            todo.append(q)
    if target not in prev:
        return None
    out, p = [], prev[target]
    while p is not None:
        out.append(p)
        p = prev[p]
    return out[::-1] if target not in start else []


KEEP = {"B-B", "B-E", "B-K"}    # tiles the tests draw or reveal themselves


def prepare(g: MapGame, squares, last_toward=None) -> None:
    """Lay tiles from the stack on `squares` in order (no turn, no scoring): each shows a
    field towards the next square where some tile can."""
    for i, sq in enumerate(squares):
        nxt = squares[i + 1] if i + 1 < len(squares) else last_toward
        best = None
        for t, _ in sorted(g.deck.items()):
            tile = g.tiles[t]
            if tile.id in KEEP:
                continue
            for r in g.fits(tile, sq):
                field = nxt is None or tile.oriented(r).edges[DELTA.index((nxt[0] - sq[0], nxt[1] - sq[1]))] == FIELD
                if best is None or (field and not best[2]):
                    best = (t, r, field)
        assert best is not None, f"no tile fits on {sq}"
        t, r, _ = best
        g._take(t)
        g.stack -= 1
        g._put(g.tiles[t], r, sq, None, -1)
    g.check_invariants()


def deal(g: MapGame, tile_id: str) -> None:
    g.apply_action(draw(tile_id))
    assert g.step == "lay"


def find_flip_site(g: MapGame):
    """(Q, S): a free square Q next to exactly one face-down square S and to no town."""
    for s in sorted(g.covert):
        for dx, dy in DELTA:
            q = (s[0] + dx, s[1] + dy)
            if q not in g.map.squares or q in g.map.towns or q in g.board:
                continue
            if sum((q[0] + ex, q[1] + ey) in g.covert for ex, ey in DELTA) != 1:
                continue
            path = path_to(g, q)
            if path is not None:
                return q, s, path
    raise AssertionError("no square next to a face-down tile is reachable")


def lay_city_towards(g: MapGame, q, s):
    """Draw a B-E (a city on one edge) and lay it on q with its city towards s."""
    d = DELTA.index((s[0] - q[0], s[1] - q[1]))
    deal(g, "B-E")
    rots = [a.rot for a in g.legal_actions(g.current) if (a.x, a.y) == q
            and g.tiles[g.drawn].oriented(a.rot).edges[d] == CITY]
    assert rots, "B-E cannot show its city towards the face-down tile here"
    g.apply_action(Lay(q[0], q[1], rots[0]))


# --------------------------------------------------------------------------- Setup
@pytest.mark.parametrize("variant, starts, covert, towns, stack", [
    ("usa-west", 2, 15, 15, 114 - 2 - 15), ("usa-east", 2, 15, 15, 97), ("usa", 4, 30, 30, 228 - 4 - 30)])
def test_setup_start_tiles_covert_tiles_and_chips(variant, starts, covert, towns, stack):
    """Setup: start tiles on the start squares, 15 tiles face down on the outlined squares
    (30 with both maps), a chip on each town; 114 tiles per map (228 with both)."""
    g = new(variant)
    assert [(p.tile.id, p.pos) for p in g.placed] == [("B-D", s) for s in g.map.starts]
    assert len(g.placed) == starts and len(g.covert) == covert and len(g.chip_towns) == towns
    assert g.stack == stack and sum(g.deck.values()) == stack + covert
    assert g.current_player() == CHANCE and g.step == "draw"
    assert sum(g.chips_left.values()) == 30
    obs = g.observation(0)
    assert all(c["tile"] is None for c in obs["covert"]) and len(obs["chips"]) == towns
    g.check_invariants()


def test_one_map_setup_has_no_variant_options_of_the_table():
    with pytest.raises(ValueError, match="usa-west cannot set start"):
        Game.new({"players": ["A", "B"], "variant": "usa-west", "start": [["B-D", 3, 3, 0]]})
    with pytest.raises(ValueError, match="no known map"):
        Game.new({"players": ["A", "B"], "variant": "usa-north"})


# --------------------------------------------------------------------------- Exceptions: one map / both
def test_seam_squares_are_not_playable_with_one_map_but_are_with_both():
    """Exceptions for USA Maps: with one map the half squares are not part of the game;
    with both they form full squares and tiles may go there."""
    both = new("usa")
    seam = both.map.seam_column
    target = min((s for s in both.map.squares if s[0] == seam), key=lambda s: len(path_to(both, s) or range(99)))
    path = path_to(both, target)
    prepare(both, path, last_toward=target)
    tile = next(both.tiles[t].id for t in sorted(both.deck) if both.fits(both.tiles[t], target))
    deal(both, tile)
    assert any((a.x, a.y) == target for a in both.legal_actions(0))
    west = new("usa-west")
    assert target not in west.map.squares
    wpath = path_to(west, (target[0] - 1, target[1]))
    prepare(west, wpath + [(target[0] - 1, target[1])])
    deal(west, next(west.tiles[t].id for t in sorted(west.deck) if west.can_place_anywhere(west.tiles[t])))
    assert not any((a.x, a.y) == target for a in west.legal_actions(0))
    with pytest.raises(IllegalActionError, match="not a playable square"):
        west.apply_action(Lay(target[0], target[1], 0))


# --------------------------------------------------------------------------- 1. Placing a tile: chips
def next_to_covert(g: MapGame, sq) -> bool:
    return any((sq[0] + dx, sq[1] + dy) in g.covert for dx, dy in DELTA)


def town_turn(variant="usa-east"):
    """A town's chip to take: the nearest town with no face-down neighbour (so the turn's
    only chance action is the chip)."""
    g = new(variant)
    town = min((t for t in g.map.towns if not next_to_covert(g, t)), key=lambda t: (len(path_to(g, t) or range(99)), t))
    prepare(g, path_to(g, town), last_toward=town)
    tile = next(g.tiles[t].id for t in sorted(g.deck) if g.fits(g.tiles[t], town))
    deal(g, tile)
    lay = next(a for a in g.legal_actions(0) if (a.x, a.y) == town)
    g.apply_action(lay)
    return g, town


def test_a_chip_scores_at_once_and_leaves_the_game_then_a_secret_look():
    """1. Placing a tile, Collecting chips and discovering tiles (the sheet's example: a
    violet chip worth 2, then a look at a tile with a violet outline)."""
    g, town = town_turn()
    assert g.step == "chip" and g.current_player() == CHANCE
    odds = dict((a.chip, p) for a, p in g.chance_outcomes())
    assert odds["violet-2"] == pytest.approx(4 / 30) and odds["violet-1"] == pytest.approx(6 / 30)
    events = g.apply_action(ChipDraw("violet-2"))
    assert g.points == [2, 0] and events[0].kind == "chip"
    assert events[0].text == f"P1 took the violet chip in {g.map.towns[town].name}: 2 points"
    assert town not in g.chip_towns and g.chips_left["violet-2"] == 3
    # Any violet face-down tile may be looked at, and only those.
    violet = sorted(p for p, c in g.map.outlined.items() if c == "violet")
    assert sorted((a.x, a.y) for a in g.legal_actions(0)) == violet
    orange = next(p for p, c in g.map.outlined.items() if c == "orange")
    with pytest.raises(IllegalActionError, match="no face-down violet tile"):
        g.apply_action(Look(*orange))
    g.apply_action(Look(*violet[0]))
    assert g.current_player() == CHANCE
    g.apply_action(Reveal("B-K"))
    mine, theirs = g.observation(0), g.observation(1)
    seen = {tuple(c["square"]): c["tile"] for c in mine["covert"]}
    assert seen[violet[0]] == "B-K"
    assert all(c["tile"] is None for c in theirs["covert"])
    assert {"reveal": None} in theirs["actions"] and {"reveal": "B-K"} not in theirs["actions"]
    assert {"reveal": "B-K"} in mine["actions"]
    # What P2 may not know can change without P2's view changing.
    other = g.with_hidden_changed(1, random.Random(3))
    assert other.observation(1) == theirs
    assert other.covert[violet[0]] is not None
    g.check_invariants()


def test_with_both_maps_a_look_may_be_on_the_other_map():
    """Playing with both West and East maps: a chip lets you look at a tile of its colour
    even on the other half of the big map."""
    g, town = town_turn("usa")
    g.apply_action(ChipDraw("orange-1"))
    seam = g.map.seam_column
    sides = {p[0] < seam for p in ((a.x, a.y) for a in g.legal_actions(g.current))}
    assert sides == {True, False} and len(g.legal_actions(g.current)) == 10


def test_a_looked_tile_keeps_its_identity_when_flipped():
    """The tile you looked at is the one that is flipped (the sheet's example: you place a
    tile next to the covert tile you have looked at before; it fits: +2)."""
    g, town = town_turn()
    g.apply_action(ChipDraw("violet-1"))
    look = g.legal_actions(0)[0]
    s = (look.x, look.y)
    g.apply_action(look)
    g.apply_action(Reveal("B-E"))
    while g.current_player() != CHANCE:
        g.apply_action(g.legal_actions(g.current)[0])
    assert g.covert[s] == tile_by_id()["B-E"].index and g.known[s] == {0}
    # Reach a square next to it and lay a tile there: the flip can only show that tile.
    q = next(q for q in ((s[0] + dx, s[1] + dy) for dx, dy in DELTA)
             if q in g.map.squares and q not in g.map.towns and q not in g.board and path_to(g, q) is not None)
    prepare(g, path_to(g, q), last_toward=q)
    tile = next(g.tiles[t].id for t in sorted(g.deck) if g.fits(g.tiles[t], q))
    deal(g, tile)
    g.apply_action(next(a for a in g.legal_actions(g.current) if (a.x, a.y) == q))
    while g.step == "reveal" and g.revealing[0] != s:
        g.apply_action(g.chance_outcomes()[0][0])
        while g.step == "flip":
            g.apply_action(g.legal_actions(g.current)[0])
    assert g.revealing == (s, "flip") and g.chance_outcomes() == [(Reveal("B-E"), 1.0)]
    g.apply_action(Reveal("B-E"))
    assert s not in g.covert
    g.check_invariants()


# --------------------------------------------------------------------------- 1. Placing a tile next to a covert tile
def flip_turn(reveal: str):
    g = new()
    q, s, path = find_flip_site(g)
    prepare(g, path, last_toward=q)
    lay_city_towards(g, q, s)
    assert g.step == "reveal" and g.revealing == (s, "flip")
    assert len(g.chance_outcomes()) > 1                  # nobody looked: any unseen tile
    events = g.apply_action(Reveal(reveal))
    return g, q, s, events


def test_a_flipped_tile_that_fits_is_laid_and_scores_2():
    """Placing a tile next to a covert tile: it is flipped for everyone; it fits, so it is
    placed (turned as the player likes) and the player receives 2 points."""
    g, q, s, _ = flip_turn("B-E")
    assert g.step == "flip" and all(a.x == s[0] and a.y == s[1] for a in g.legal_actions(0))
    assert s not in g.covert
    assert g.observation(1)["turned_up"] == ["B-E", *s]
    rot = g.legal_actions(0)[0].rot
    events = g.apply_action(PlaceTurnedUp(s[0], s[1], rot))
    assert g.board.get(s) is not None and g.points[0] == 2
    near = g.map.town_near(s).name
    text = events[0].text
    assert text.startswith("P1 turned up the face-down tile ") and near in text and text.endswith(": it fits, +2")


def test_a_flipped_tile_that_does_not_fit_leaves_the_game_minus_2():
    """...it does not fit (a cloister tile, all field, against a city edge): it is put back
    into the box and the player loses 2 points; scores may go below zero."""
    g, q, s, events = flip_turn("B-B")
    assert g.points[0] == -2 and tile_by_id()["B-B"].index in g.set_aside
    assert events[0].text.endswith("it does not fit and leaves the game, -2")
    assert s not in g.covert and s not in g.board and s in g.open   # an ordinary square again
    g.check_invariants()


def test_followers_only_on_the_first_tile_never_on_the_flipped_one_and_its_city_scores():
    """2. Placing a meeple: only on the tile placed first, not on a flipped tile. 3. Scoring:
    the city of the first tile, closed by the flipped tile, scores 4 at the end of the turn."""
    g, q, s, _ = flip_turn("B-E")
    d = DELTA.index((q[0] - s[0], q[1] - s[1]))
    rot = next(a.rot for a in g.legal_actions(0) if g.tiles[g.turned_up[0]].oriented(a.rot).edges[d] == CITY)
    g.apply_action(PlaceTurnedUp(s[0], s[1], rot))
    assert g.step == "follow"
    first = g.placed[g.board[q]]
    legal = g.legal_actions(0)
    assert legal == [Follow(-1)] + [Follow(i) for i in range(len(first.tile.segments))]
    city = next(i for i, seg in enumerate(first.tile.segments) if seg.kind == K_CITY)
    events = g.apply_action(Follow(city))
    scored = [e for e in events if e.kind == "city"]
    assert len(scored) == 1 and scored[0].points == 4 and scored[0].tiles == 2
    assert g.points[0] == 2 + 4 and g.supply[0] == 7            # the follower came back
    assert not g.meeples[g.find(g.placed[g.board[s]].base)]
    g.check_invariants()


def test_a_follower_index_beyond_the_first_tile_is_refused():
    g, q, s, _ = flip_turn("B-B")
    assert g.step == "follow"
    n = len(g.placed[g.board[q]].tile.segments)
    with pytest.raises(IllegalActionError, match="tile laid first"):
        g.apply_action(Follow(n))


# --------------------------------------------------------------------------- the end
def random_action(g, rng):
    """A chance outcome by its weight, or a random legal action of the player to move."""
    if g.current_player() == CHANCE:
        outs = g.chance_outcomes()
        return rng.choices([o for o, _ in outs], [w for _, w in outs])[0]
    return rng.choice(g.legal_actions(g.current))


def play_random(variant, seed, stop=None):
    """A random game to its end: the game; with `stop(g, action)`, (the game, the action
    it stopped before), or (the finished game, None)."""
    rng = random.Random(seed)
    g = new(variant)
    while not g.is_terminal():
        a = random_action(g, rng)
        if stop is not None and stop(g, a):
            return g, a
        g.apply_action(a)
    return g if stop is None else (g, None)


def test_a_game_ends_with_covert_tiles_still_face_down():
    """When the stack runs out the game ends, face-down tiles or not. (On our grid random
    players flip every face-down tile before then: the stack is cut to 6 tiles here, the
    rest set aside as if they had fitted nowhere.)"""
    rng = random.Random(1)
    g = new("usa-west")
    for t in [t for t, c in sorted(g.deck.items()) for _ in range(c)][6 + len(g.covert):]:
        g._take(t)
        g.set_aside.append(t)
        g.stack -= 1
    assert g.stack == 6
    while not g.is_terminal():
        g.apply_action(random_action(g, rng))
    assert g.is_terminal() and g.stack == 0 and g.covert
    g.check_invariants()
    assert sum(e.points for e in g.events if 0 in e.seats) == g.points[0]
    json.dumps([g.observation(s) for s in range(2)])


def test_unknown_actions_on_the_maps_are_refused_with_a_reason():
    g = new()
    with pytest.raises(IllegalActionError, match="laying a tile is not possible now"):
        g.apply_action(Lay(0, 0, 0))
    with pytest.raises(ValueError, match="not one of our map-chips"):
        g.action_from_json({"chip": "green-3"})
    assert g.action_from_json(g.action_to_json(Look(3, 4))) == Look(3, 4)
    assert g.action_from_json({"reveal": None}) == Reveal(None)


def test_a_second_look_at_the_same_tile_shows_it_without_a_new_draw():
    """You may look at every tile, whether or not your fellow players have already looked
    at it: the second looker sees the same tile, with no new draw."""
    g, town = town_turn()
    g.apply_action(ChipDraw("violet-1"))
    s = (g.legal_actions(0)[0].x, g.legal_actions(0)[0].y)
    g.apply_action(Look(*s))
    g.apply_action(Reveal("B-K"))
    while g.current_player() != CHANCE:
        g.apply_action(g.legal_actions(g.current)[0])
    # P2 reaches another town and takes a violet chip too.
    other = min((t for t in g.map.towns if t in g.chip_towns and not next_to_covert(g, t)
                 and path_to(g, t) is not None),
                key=lambda t: len(path_to(g, t)))
    prepare(g, path_to(g, other), last_toward=other)
    deal(g, next(g.tiles[t].id for t in sorted(g.deck) if g.fits(g.tiles[t], other)))
    g.apply_action(next(a for a in g.legal_actions(1) if (a.x, a.y) == other))
    g.apply_action(ChipDraw("violet-2"))
    assert Look(*s) in g.legal_actions(1)
    g.apply_action(Look(*s))
    assert g.current_player() != CHANCE and g.known[s] == {0, 1}
    seen = {tuple(c["square"]): c["tile"] for c in g.observation(1)["covert"]}
    assert seen[s] == "B-K"
    assert g.with_hidden_changed(1, random.Random(1)) is None     # nothing hidden from P2 now


# --------------------------------------------------------------------------- who may know what
def test_a_secret_look_is_declared_for_the_looker_alone_and_worded_so():
    """1. Collecting chips and discovering tiles: 'look at it secretly'. The tile shown is
    for the looker only (audience and words); the chip, the look itself and a flip are public."""
    g, town = town_turn()
    assert g.audience(ChipDraw("violet-1")) is EVERY_SEAT
    g.apply_action(ChipDraw("violet-1"))
    look = g.legal_actions(0)[0]
    assert g.audience(look) is EVERY_SEAT            # who looked, and where, is public
    g.apply_action(look)
    near = g.map.town_near((look.x, look.y)).name
    # B-K: the base game's city with a curved road (tile K of the rulebook's list), B-E: a city on one edge
    for tile, words in (("B-K", "a city-and-road tile"), ("B-E", "a city tile")):
        assert g.audience(Reveal(tile)) == frozenset({0})
        said = g.describe(Reveal(tile), 0)
        assert said.startswith("the face-down tile ") and near in said
        assert said.endswith(f" was shown to P1 only: {words}")
        assert g.describe(Reveal(tile), None) == g.describe(Reveal(tile), 0)
        for viewer in (1, SPECTATOR):
            assert g.describe(Reveal(tile), viewer) == "the face-down tile was shown to P1 only"
    assert "B-K" not in g.action_to_string(Reveal("B-K"))   # the match's log text, read at one screen


def test_a_flip_is_declared_public():
    g = new()
    q, s, path = find_flip_site(g)
    prepare(g, path, last_toward=q)
    lay_city_towards(g, q, s)
    assert g.revealing == (s, "flip")
    assert g.audience(Reveal("B-E")) is EVERY_SEAT
    assert g.describe(Reveal("B-E"), 1).endswith(": a city tile")     # B-E: a city on one edge


def played(variant: str, seed: int, stop):
    """A random game (a list of real actions, so the log is the game) up to `stop(g, action)`."""
    g, a = play_random(variant, seed, stop)
    if a is None:
        raise AssertionError("the game ended first")
    return g, a


def same_seat_view(world: MapGame, g: MapGame, seat: int) -> None:
    world.check_invariants()
    assert world.observation(seat) == g.observation(seat)
    assert world.current_player() == g.current_player()
    assert world.legal_actions(seat) == g.legal_actions(seat)
    assert world.points == g.points and world.supply == g.supply and world.board.keys() == g.board.keys()


def test_consistent_with_deals_the_tile_another_player_looked_at_from_the_unseen_ones():
    """Mid-game, after one player looked at a face-down tile: the other's world has every
    public thing of the game (board, followers, scores, chips, the stack) and some unseen
    tile on that square, dealt at random; the looker's world has the very tile it saw."""
    g, _ = played("usa-east", 1, lambda g, a: type(a) is Reveal and g.revealing[1] == "look")
    looked, looker = g.revealing[0], g.current
    other = 1 - looker
    g.apply_action(g.chance_outcomes()[0][0])
    for _ in range(6):    # a few actions more: the next turn begins
        g.apply_action(g.chance_outcomes()[0][0] if g.current_player() == CHANCE else g.legal_actions(g.current)[0])
    seen = g.tiles[g.covert[looked]].id
    obs = json.loads(json.dumps(g.observation(other)))
    dealt = set()
    for i in range(12):
        world = MapGame.consistent_with(g.setup, other, obs, random.Random(i))
        same_seat_view(world, g, other)
        t = world.tiles[world.covert[looked]].id
        assert obs["unseen"].get(t), f"{t} is no tile the other player has not seen"
        dealt.add(t)
    assert len(dealt) > 1
    mine = MapGame.consistent_with(g.setup, looker, g.observation(looker), random.Random(5))
    same_seat_view(mine, g, looker)
    assert mine.tiles[mine.covert[looked]].id == seen
    assert mine.history == g.history


def test_consistent_with_keeps_a_tile_the_seat_saw_at_a_second_look():
    """P2 looks at a tile P1 looked at first: no draw is logged, P2 learns it from the
    observation, and P2's world must have that very tile there (and in P1's look)."""
    g, a = played("usa-east", 1, lambda g, a: type(a) is Look and bool(g.known.get((a.x, a.y)))
                  and g.current not in g.known[(a.x, a.y)])
    seat = g.current
    g.apply_action(a)
    square = (a.x, a.y)
    for i in range(3):
        world = MapGame.consistent_with(g.setup, seat, g.observation(seat), random.Random(i))
        same_seat_view(world, g, seat)
        assert world.covert[square] == g.covert[square]
        first = next(i for i, (_, p) in g.secret.items() if p == square)   # the other's look
        assert world.history[first] == g.history[first]


def test_with_both_maps_every_seat_of_five_gets_a_consistent_world_throughout():
    g, _ = played("usa", 4, lambda g, a: len(g.history) >= 180)
    for seat in range(g.num_players):
        world = MapGame.consistent_with(g.setup, seat, g.observation(seat), random.Random(seat))
        same_seat_view(world, g, seat)


# --------------------------------------------------------------------------- saves from before grid 2
OLD_SAVE = Path(__file__).parent / "data" / "carcassonne-usa-east-grid1.json"


def test_a_save_from_the_old_grid_replays_on_it_and_keeps_it():
    """A USA East save written by Stateside before grid 2 (rules version 2; made with the
    code of main aa3f134: 40 actions, scores 5 to 4) still opens, on its own grid (32-unit
    squares, 164 of them), and saving it again keeps that grid."""
    from stateside.engine.match import Match
    from stateside.engine.saves import load_match, read_save

    _, body = read_save(OLD_SAVE)
    assert body["rules_version"] == 2 and "grid" not in body["setup"]
    match = load_match(OLD_SAVE)
    g = match.state
    assert g.map.square_size == 32 and len(g.map.squares) == 164 and g.setup["grid"] == 1
    assert len(match.log) == 40 and g.scores() == [5, 4]
    assert {(19, 12), (18, 12), (20, 13), (21, 6)} <= set(g.board)     # its first tiles, as laid then
    again = json.loads(json.dumps(match.to_json()))
    assert again["rules_version"] == Game.spec.save_version and again["setup"]["grid"] == 1
    assert Match.from_json(again).state.board.keys() == g.board.keys()


def test_a_new_map_game_is_on_the_current_grid_and_an_unknown_grid_is_refused():
    from stateside.games.carcassonne.maps import GRID

    g = new("usa-west")
    assert g.map.square_size == 38 and "grid" not in g.setup and GRID == 2
    assert new("usa-east").conf.grid == GRID
    with pytest.raises(ValueError, match="no known grid of the USA maps: 7"):
        Game.new({"players": ["A", "B"], "variant": "usa-west", "grid": 7})
    with pytest.raises(ValueError, match="gives a grid, which only the USA maps have"):
        Game.new({"players": ["A", "B"], "grid": 1})


def test_an_old_grid_save_passed_off_as_new_is_refused_with_the_action_that_fails():
    """The same log claiming today's rules version replays on today's grid: refused with
    a message naming the action, never a crash or a silently different game."""
    from stateside.engine.match import Match
    from stateside.engine.saves import read_save
    from stateside.errors import SaveError

    _, body = read_save(OLD_SAVE)
    with pytest.raises(SaveError, match=r"action 2 of 40 is not legal there: square 19,12 is not a playable square"):
        Match.from_json({**body, "rules_version": Game.spec.save_version}, "old.json")
