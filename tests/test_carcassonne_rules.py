"""Carcassonne rules on small hand-built tables: placement, followers, scoring.

Coordinates: x grows east, y grows south; rotations are clockwise quarter turns.
The start tile (base D) lies at 0,0: city cap to the north, road west-east, field south.
"Rules facts" names section 5 of the project's tile fact sheet (carcassonne-tiles.md), the
standard rules that the USA-map rulebook plays by; that rulebook's own examples (map-chips,
face-down tiles) belong to the USA-map issue.
"""
from __future__ import annotations

import json
import random

import pytest

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE, EVERY_SEAT, SPECTATOR
from stateside.errors import IllegalActionError, SaveError
from stateside.games.carcassonne.engine import Game, PlaceTurnedUp, Setup, TurnUp, draw
from stateside.games.carcassonne.tiles import HALVES, tile_by_id

ANN, BOB = 0, 1
FILLER = "B-B"   # a cloister in a field: fits next to any field edge, keeps the deck from running out


def table(start=(("B-D", 0, 0, 0),), players=("Ann", "Bob"), **options) -> Game:
    g = Game(Setup(players=list(players), start=[list(s) for s in start], **options))
    g.deck = {tile_by_id()[FILLER].index: 20}
    return g


def seg(tile_id: str, key: str) -> int:
    return [s.key for s in tile_by_id()[tile_id].segments].index(key)


def field_at(tile_id: str, rot: int, half: str) -> int:
    """The field segment of `tile_id` turned `rot` that lies on half-edge `half`."""
    return tile_by_id()[tile_id].oriented(rot).half_seg[HALVES.index(half)]


def put(g: Game, tile_id: str, x: int, y: int, rot: int = 0, follower: int | str = -1,
        seat: int = ANN, last: bool = False):
    """Hand `seat` the tile `tile_id` and play it; `last` empties the deck so the game ends."""
    g.current = seat
    g.drawn = tile_by_id()[tile_id].index
    if isinstance(follower, str):
        follower = seg(tile_id, follower)
    if last:
        g.deck.clear()
    return g.apply_action((x, y, rot, follower))


# --------------------------------------------------------------------------- placement
def test_a_tile_must_touch_the_table_and_match_every_edge():
    """Rules facts (carcassonne-tiles.md section 5, Tile placement): touch along an edge, every edge matches."""
    g = table()
    g.drawn = tile_by_id()["B-E"].index          # city cap north
    with pytest.raises(IllegalActionError, match="does not touch"):
        g.apply_action((3, 3, 0, -1))
    with pytest.raises(IllegalActionError, match="already holds a tile"):
        g.apply_action((0, 0, 0, -1))
    # North of the start tile the edge is city: the cap must face south (rotation 2).
    with pytest.raises(IllegalActionError, match="every edge must match"):
        g.apply_action((0, -1, 0, -1))
    assert g.fits(tile_by_id()["B-E"], (0, -1)) == (2,)
    # East of the start tile is a road end: a cap has no road edge, so it cannot go there.
    assert g.fits(tile_by_id()["B-E"], (1, 0)) == ()
    g.apply_action((0, -1, 2, -1))
    assert g.board.keys() == {(0, 0), (0, -1)} and g.placed[-1].rot == 2


def test_legal_placements_list_every_square_and_turn_that_fits():
    g = table()
    g.drawn = tile_by_id()["B-U"].index          # straight road
    places = set(g.legal_placements())
    # Road west-east continues the start road east and west; north needs a city edge (none).
    assert (1, 0, 1) in places and (1, 0, 3) in places and (-1, 0, 1) in places
    assert not any(y == -1 for _, y, _ in places)
    # Below the start tile (field edge): the road runs west-east there too.
    assert (0, 1, 1) in places and (0, 1, 0) not in places
    assert set(g.legal_placements(distinct=True)) <= places
    assert (1, 0, 3) not in g.legal_placements(distinct=True)


def test_a_tile_that_fits_nowhere_is_set_aside_and_another_drawn():
    """A full city tile cannot continue a road: on a table of three playable squares
    whose only free one needs a road edge, it is set aside."""
    g = table(squares=[[0, 0], [1, 0], [2, 0]])
    by_id = tile_by_id()
    assert set(g.open) == {(1, 0)}
    g.deck = {by_id["B-U"].index: 1, by_id["B-C"].index: 1}
    put(g, "B-U", 1, 0, rot=1)
    assert g.current_player() == CHANCE
    events = g.apply_action(draw("B-C"))                        # B-C is drawn first
    assert g.set_aside == [by_id["B-C"].index] and g.current_player() == CHANCE
    # in a player's words, not the tile's catalogue id
    assert [e.text for e in events if e.kind == "set-aside"] == ["A city tile with a pennant fits nowhere: it is set aside"]
    g.apply_action(draw("B-U"))
    assert g.drawn == by_id["B-U"].index
    assert g.legal_placements() == [(2, 0, 1), (2, 0, 3)]


def test_the_game_ends_when_the_last_tiles_fit_nowhere():
    g = table(squares=[[0, 0], [1, 0]])
    g.deck = {tile_by_id()["B-C"].index: 2}
    put(g, "B-U", 1, 0, rot=1)
    g.apply_action(draw("B-C"))
    g.apply_action(draw("B-C"))
    assert g.is_terminal() and len(g.set_aside) == 2 and g.drawn is None


def test_a_refused_move_changes_nothing_and_a_move_is_whole():
    """The engine takes a turn as one move (the tile put down for now is the view's business):
    a refused move leaves no trace, an accepted one is recorded and passes the turn."""
    g = table()
    g.drawn = tile_by_id()["B-U"].index
    with pytest.raises(IllegalActionError, match="no feature number 9"):
        g.apply_action((1, 0, 1, 9))
    assert (1, 0) not in g.board and g.actions == [] and g.current == 0
    g.apply_action((-1, 0, 1, -1))
    assert (-1, 0) in g.board and g.actions == [(-1, 0, 1, -1)]
    assert g.current == 1 and g.current_player() == CHANCE
    with pytest.raises(IllegalActionError, match="drawn first"):
        g.apply_action((1, 0, 1, -1))


# --------------------------------------------------------------------------- followers
def test_no_follower_on_a_feature_already_occupied_through_connected_tiles():
    """Rules facts (section 5, Meeple placement): no follower where one already stands along the feature."""
    g = table()
    put(g, "B-U", 1, 0, rot=1, follower="r1", seat=ANN)        # Ann's road
    g.current = BOB
    g.drawn = tile_by_id()["B-U"].index
    opts = g.follower_options(2, 0, 1)
    assert seg("B-U", "r1") not in opts                        # the road is Ann's already
    assert set(opts) == {seg("B-U", "f1"), seg("B-U", "f2")}  # the fields beside it are free
    with pytest.raises(IllegalActionError, match="already occupied"):
        g.apply_action((2, 0, 1, seg("B-U", "r1")))


def test_followers_leave_the_supply_and_none_can_be_placed_when_it_is_empty():
    g = table(followers=1)
    put(g, "B-U", 1, 0, rot=1, follower="r1", seat=ANN)
    assert g.supply == [0, 1]
    g.current, g.drawn = ANN, tile_by_id()["B-B"].index
    assert g.follower_options(0, 1, 0) == []


# --------------------------------------------------------------------------- roads
def test_a_road_closed_by_two_junctions_scores_one_point_per_tile():
    """Rules facts (section 5, Road): closed at both ends, 1 point per tile; the follower comes back."""
    g = table()
    put(g, "B-W", 1, 0, 0, follower="r3", seat=ANN)    # T-junction east; its west road joins
    assert g.supply[ANN] == 6
    events = put(g, "B-W", -1, 0, 0, seat=BOB)          # T-junction west closes the road
    assert [(e.kind, e.seats, e.points, e.tiles) for e in events] == [("road", (ANN,), 3, 3)]
    assert g.scores() == [3, 0] and g.supply[ANN] == 7
    assert "Ann: road of 3 tiles (1 per tile): 3 points" == events[0].describe(["Ann", "Bob"])


def _joined_road(g: Game) -> list:
    """Ann's road from the start tile east and Bob's road below it, joined and closed:
    7 tiles, one follower each."""
    put(g, "B-U", 1, 0, 1, follower="r1", seat=ANN)     # road west-east
    put(g, "B-V", 1, 1, 3, follower="r1", seat=BOB)     # curve east-south, its own road
    put(g, "B-V", 2, 0, 0, seat=ANN)                    # curve west-south
    put(g, "B-V", 2, 1, 1, seat=BOB)                    # curve north-west: the roads meet
    put(g, "B-W", -1, 0, 0, seat=ANN)                   # junction closes the west end
    return put(g, "B-W", 1, 2, 2, seat=BOB)             # junction closes the south end


def test_tied_followers_on_a_joined_road_both_score_in_full():
    """Rules facts (section 5, Majority): tied players each score the full points."""
    g = table()
    events = _joined_road(g)
    assert [(e.kind, e.seats, e.points, e.tiles, e.followers) for e in events] == [("road", (ANN, BOB), 7, 7, (1, 1))]
    assert g.scores() == [7, 7] and g.supply == [7, 7]
    assert events[0].describe(["Ann", "Bob"]) == "Ann and Bob: road of 7 tiles (1 per tile), tied 1 follower each: 7 points each"


def test_an_unfinished_road_scores_one_point_per_tile_at_the_end():
    g = table()
    put(g, "B-U", 1, 0, 1, follower="r1", seat=ANN)
    put(g, "B-U", 2, 0, 1, seat=BOB)
    events = put(g, "B-B", 0, 1, 0, seat=BOB, last=True)
    assert g.is_terminal()
    assert [(e.kind, e.seats, e.points, e.final) for e in events] == [("road", (ANN,), 3, True)]
    assert g.scores() == [3, 0]


def test_a_road_loop_counts_each_tile_once():
    """A loop that passes the bridge tile (TB-24) twice, once on each of its roads:
    7 tiles, 7 points."""
    g = table(start=(("TB-24", 0, 0, 0),))
    put(g, "B-V", 1, 0, 1, follower="r1", seat=ANN)   # west-north
    put(g, "B-V", 1, -1, 0, seat=BOB)                  # south-west
    put(g, "B-V", 0, -1, 3, seat=BOB)                  # east-south, into the bridge from the north
    put(g, "B-V", 0, 1, 1, seat=BOB)                   # north-west, out of the bridge to the south
    put(g, "B-V", -1, 1, 2, seat=BOB)                  # north-east
    events = put(g, "B-V", -1, 0, 3, seat=BOB)         # east-south: back into the bridge from the west
    assert [(e.kind, e.seats, e.points, e.tiles) for e in events] == [("road", (ANN,), 7, 7)]


# --------------------------------------------------------------------------- cities
def test_a_completed_city_scores_two_per_tile_and_two_per_pennant():
    """Rules facts (section 5, City): 2 points per tile plus 2 per pennant."""
    g = table()
    put(g, "B-M", 0, -1, 2, follower="c1", seat=ANN)   # pennant corner city, open south and west
    events = put(g, "B-E", -1, -1, 1, seat=BOB)         # cap facing east closes it
    assert [(e.kind, e.seats, e.points, e.tiles, e.pennants) for e in events] == [("city", (ANN,), 8, 3, 1)]
    assert events[0].describe(["Ann", "Bob"]) == "Ann: city of 3 tiles with 1 pennant (2 per tile and pennant): 8 points"


def test_a_two_tile_city_scores_four():
    """Rules facts (section 5, City): a completed 2-tile city scores 4 (the old 2-point rule is obsolete)."""
    g = table()
    events = put(g, "B-E", 0, -1, 2, follower="c1", seat=BOB)
    assert [(e.kind, e.seats, e.points) for e in events] == [("city", (BOB,), 4)]
    assert g.supply[BOB] == 7


def test_an_unfinished_city_scores_one_per_tile_and_pennant():
    """Rules facts (section 5, End of game): an unfinished city scores 1 per tile and pennant."""
    g = table()
    put(g, "B-M", 0, -1, 2, follower="c1", seat=ANN)
    events = put(g, "B-U", 1, 0, 1, seat=BOB, last=True)
    assert [(e.kind, e.seats, e.points, e.final) for e in events] == [("city", (ANN,), 3, True)]


def test_the_majority_takes_a_joined_city_alone():
    """Rules facts (section 5, Majority): the most followers take the feature.
    Two of Ann's cities and one of Bob's grow into one: 7 tiles and a pennant, 16 points, Ann only."""
    g = table()
    put(g, "B-F", 0, -1, 1, follower="c1", seat=ANN)    # pennant band north-south
    put(g, "B-E", 1, -1, 0, follower="c1", seat=BOB)    # Bob's cap, open north
    put(g, "B-E", -1, -1, 0, follower="c1", seat=ANN)   # Ann's second cap, open north
    put(g, "B-R", 0, -2, 2, seat=BOB)                   # city west, south, east
    put(g, "B-N", 1, -2, 2, seat=ANN)                   # corner joins Bob's cap
    events = put(g, "B-N", -1, -2, 1, seat=BOB)         # corner joins Ann's cap: complete
    assert [(e.kind, e.seats, e.points, e.tiles, e.pennants, e.followers) for e in events] == [
        ("city", (ANN,), 16, 7, 1, (2, 1))]
    assert g.scores() == [16, 0] and g.supply == [7, 7]
    assert events[0].describe(["Ann", "Bob"]) == (
        "Ann: city of 7 tiles with 1 pennant (2 per tile and pennant), most followers: 2 to 1: 16 points")


# --------------------------------------------------------------------------- cloisters
def _ring(g: Game, last: bool):
    """The eight squares around 0,1 (the start tile is one of them)."""
    put(g, "B-U", 1, 0, 1, seat=BOB)
    put(g, "B-U", -1, 0, 1, seat=BOB)
    spots = [(-1, 1), (1, 1), (-1, 2), (0, 2), (1, 2)]
    events = []
    for i, (x, y) in enumerate(spots):
        events = put(g, "B-B", x, y, 0, seat=BOB, last=last and i == len(spots) - 1)
    return events


def test_a_surrounded_cloister_scores_nine_and_frees_its_monk():
    """Rules facts (section 5, Cloister): all 8 neighbours present, 9 points."""
    g = table()
    put(g, "B-B", 0, 1, 0, follower="cloister", seat=ANN)
    assert g.supply[ANN] == 6
    events = _ring(g, last=False)
    assert [(e.kind, e.seats, e.points) for e in events] == [("cloister", (ANN,), 9)]
    assert g.supply[ANN] == 7 and g.scores() == [9, 0]


def test_an_unfinished_cloister_scores_itself_and_its_neighbours():
    """Rules facts (section 5, End of game): a cloister scores 1 plus 1 per neighbouring tile."""
    g = table()
    put(g, "B-B", 0, 1, 0, follower="cloister", seat=ANN)
    put(g, "B-U", 1, 0, 1, seat=BOB)
    events = put(g, "B-B", 1, 1, 0, seat=BOB, last=True)
    # neighbours: the start tile, 1,0 and 1,1
    assert [(e.kind, e.points, e.tiles, e.final) for e in events] == [("cloister", 4, 4, True)]


# --------------------------------------------------------------------------- fields
def test_a_field_scores_three_per_completed_city_it_borders():
    """Rules facts (section 5, Fields): 3 points per completed city bordering the field.
    Start tile H: caps north and south around one field. Both caps are closed, a third
    city next to the field stays open: Ann's farmer scores 2 x 3 = 6."""
    g = table(start=(("B-H", 0, 0, 0),))
    put(g, "B-E", 0, -1, 2, seat=BOB)                    # closes the north cap
    put(g, "B-E", 0, 1, 0, seat=BOB)                     # closes the south cap
    put(g, "B-B", 1, 0, 0, follower=field_at("B-B", 0, "WR"), seat=ANN)
    events = put(g, "B-E", 2, 0, 1, seat=BOB, last=True)  # an open cap east of the field
    assert [(e.kind, e.seats, e.points, e.cities) for e in events] == [("field", (ANN,), 6, 2)]
    assert events[0].describe(["Ann", "Bob"]) == "Ann: field bordering 2 completed cities (3 per city): 6 points"


def test_each_field_scores_on_its_own_even_for_the_same_city_and_player():
    """Rules facts (section 5, Fields): each field is scored on its own.
    The city north of the start tile borders two fields (the one between city and road,
    and the one beyond the city); Ann farms both and scores the city twice."""
    g = table()
    put(g, "B-E", 0, -1, 2, follower=field_at("B-E", 2, "NL"), seat=ANN)   # closes the city
    events = put(g, "B-U", 1, 0, 1, follower=field_at("B-U", 1, "WR"), seat=ANN, last=True)
    fields = [(e.kind, e.seats, e.points) for e in events if e.kind == "field"]
    assert fields == [("field", (ANN,), 3), ("field", (ANN,), 3)]
    assert g.scores() == [6, 0]


def test_a_field_next_to_unfinished_cities_only_scores_nothing():
    """Rules facts (section 5, Fields): incomplete cities give nothing."""
    g = table()
    events = put(g, "B-U", 1, 0, 1, follower=field_at("B-U", 1, "WR"), seat=ANN, last=True)
    assert g.scores() == [0, 0]
    assert [(e.kind, e.points) for e in events] == [("field", 0)]


# --------------------------------------------------------------------------- expansions
def test_expansion_tiles_score_as_plain_tiles_by_default():
    g = table(start=(("IC-15", 0, 0, 0),))                 # straight road with an inn
    put(g, "B-W", 1, 0, 0, follower="r3", seat=ANN)
    events = put(g, "B-W", -1, 0, 0, seat=BOB)
    assert [(e.points, e.bonus) for e in events] == [(3, "")]


def test_with_the_inn_rule_a_finished_inn_road_scores_double_and_an_unfinished_one_nothing():
    g = table(start=(("IC-15", 0, 0, 0),), inns_cathedrals=True)
    put(g, "B-W", 1, 0, 0, follower="r3", seat=ANN)
    events = put(g, "B-W", -1, 0, 0, seat=BOB)
    assert [(e.points, e.bonus) for e in events] == [(6, "inn")]
    g2 = table(start=(("IC-15", 0, 0, 0),), inns_cathedrals=True)
    put(g2, "B-W", 1, 0, 0, follower="r3", seat=ANN)
    events = put(g2, "B-B", 0, 1, 0, seat=BOB, last=True)
    assert [(e.points, e.bonus, e.final) for e in events if e.kind == "road"] == [(0, "inn", True)]


def test_with_the_cathedral_rule_a_finished_cathedral_city_scores_three_per_tile():
    g = table(start=(("IC-01", 0, 0, 0),), inns_cathedrals=True)
    put(g, "B-E", 0, -1, 2, follower="c1", seat=ANN)
    put(g, "B-E", 1, 0, 3, seat=BOB)
    put(g, "B-E", 0, 1, 0, seat=BOB)
    events = put(g, "B-E", -1, 0, 1, seat=BOB)
    assert [(e.kind, e.points, e.tiles, e.bonus) for e in events] == [("city", 15, 5, "cathedral")]


def test_with_the_goods_rule_the_closing_player_takes_the_goods():
    g = table(start=(("TB-02", 0, 0, 0),), goods=True)     # wine, corner city north-west
    put(g, "B-E", 0, -1, 2, seat=BOB)
    put(g, "B-E", -1, 0, 1, seat=BOB, last=True)
    assert g.tokens[BOB] == [1, 0, 0]
    assert [(e.kind, e.seats, e.points, e.bonus) for e in g.events] == [("goods", (BOB,), 10, "wine")]


# --------------------------------------------------------------------------- saving
def test_a_game_saves_as_setup_and_moves_and_replays_to_the_same_state():
    match = Match("carcassonne", ["random"] * 3, seed=5, setup=Setup(players=["Ann", "Bob", "Cy"]).to_json())
    while len(match.state.actions) < 30:
        match.step()
    match.resolve_chance()                      # the next tile in hand
    data = match.to_json()
    assert set(data) == {"game", "rules_version", "setup", "seed", "seats", "actions"}
    assert [type(a) for a in data["actions"]] == [dict, list] * 30 + [dict]   # a draw before each move
    g, h = match.state, Match.from_json(data).state
    assert h.scores() == g.scores() and h.board == g.board and h.drawn == g.drawn
    assert h.followers_on_board() == g.followers_on_board()


SAVE = {"game": "carcassonne", "rules_version": 2, "seed": 0, "seats": ["human", "human"]}


@pytest.mark.parametrize("data, message", [
    ({}, "game"),
    ({**SAVE, "seats": ["human"], "setup": {"players": ["a"]}, "actions": []}, "2-5 players"),
    ({**SAVE, "setup": {"players": ["a", "b"]}, "actions": [[99, 99, 0, -1]]}, "action 1 of 1 is not legal"),
    ({**SAVE, "setup": {"players": ["a", "b"]}, "actions": [{"draw": "B-D"}, [99, 99, 0, -1]]},
     "action 2 of 2 is not legal there: square 99,99 does not touch"),
    ({**SAVE, "setup": {"players": ["a", "b"]}, "actions": [["x"]]}, "action 1 of 1 is not a move"),
])
def test_broken_saves_raise_save_error(data, message):
    with pytest.raises(SaveError, match=message):
        Match.from_json(data)


# --------------------------------------------------------------------------- printed boards
def test_printed_squares_start_tiles_and_face_down_tiles_given_from_outside():
    """What a printed map needs: only its squares are playable, several start tiles lie on
    it, and face-down tiles keep their squares until they are turned up."""
    squares = [[x, y] for x in range(-1, 7) for y in range(-1, 2)]
    g = Game(Setup(players=["Ann", "Bob"], sets=["base"], squares=squares,
                   start=[["B-D", 0, 0, 0], ["B-D", 5, 0, 0]], reserved=[["B-U", 1, 0], ["B-E", 3, 1]]))
    assert g.tiles_left == 72 - 4          # two start tiles and the face-down ones
    assert (1, 0) not in g.open and (7, 0) not in g.open and (4, 0) in g.open
    g.apply_action(draw("B-U"))
    with pytest.raises(IllegalActionError, match="not a playable square"):
        g.apply_action((1, 0, 1, -1))
    # Turning up and laying a face-down tile are the player's logged actions, outside the turn order.
    assert TurnUp(1, 0) in g.legal_actions() and TurnUp(3, 1) not in g.legal_actions()   # 3,1 touches nothing
    with pytest.raises(IllegalActionError, match="does not touch the landscape"):
        g.apply_action(TurnUp(3, 1))
    assert g.action_to_string(TurnUp(1, 0)) == "Ann turned up the face-down tile just east of the start tile: a road tile"
    g.apply_action(TurnUp(1, 0))
    assert (1, 0) in g.open and (1, 0) not in g.reserved
    assert g.fits(tile_by_id()["B-U"], (1, 0)) == (1, 3)
    assert g.legal_actions() == [PlaceTurnedUp(1, 0, 1), PlaceTurnedUp(1, 0, 3)]   # nothing else meanwhile
    with pytest.raises(IllegalActionError, match="does not fit"):
        g.apply_action(PlaceTurnedUp(1, 0, 0))
    with pytest.raises(IllegalActionError, match="its own square"):
        g.apply_action(PlaceTurnedUp(2, 0, 1))
    g.apply_action(PlaceTurnedUp(1, 0, 1))
    assert (1, 0) in g.board and g.turn == 0 and g.current == 0   # outside the turn order
    assert g.drawn == tile_by_id()["B-U"].index                    # the tile in hand is still to play
    g.check_invariants()
    # The log holds both, so a save made now reloads the same table.
    data = {"game": "carcassonne", "rules_version": 2, "seed": 0, "seats": ["human", "human"],
            "setup": g.setup, "actions": [g.action_to_json(a) for a in g.history]}
    again = Match.from_json(data).state
    assert again.board == g.board and again.reserved == g.reserved and again.tiles_left == g.tiles_left


def test_a_turned_up_tile_that_fits_its_square_no_way_is_set_aside():
    g = Game(Setup(players=["Ann", "Bob"], sets=["base"], reserved=[["B-C", 1, 0]]))
    g.apply_action(draw("B-U"))
    assert g.apply_action(TurnUp(1, 0))[0].kind == "set-aside"       # a full city beside a road end
    assert g.set_aside == [tile_by_id()["B-C"].index] and g.turned_up is None
    assert g.current_player() == 0 and (1, 0) in g.open
    g.check_invariants()


def test_on_the_open_table_every_draw_is_public_and_a_seats_world_is_the_game_itself():
    """The open table hides nothing: the tile drawn is shown to everyone (its audience is
    every seat, its words the same for all), so the world consistent with a seat's view is
    the game itself, rebuilt from the log."""
    match = Match("carcassonne", ["random", "random", "random"], seed=11)
    for _ in range(40):
        match.step()
    g = match.state
    while g.current_player() != CHANCE:
        match.step()
    d = g.chance_outcomes()[0][0]
    assert g.audience(d) is EVERY_SEAT
    assert {g.describe(d, v) for v in (None, 0, 1, 2, SPECTATOR)} == {g.action_to_string(d)}
    for seat in range(3):
        world = Game.consistent_with(g.setup, seat, json.loads(json.dumps(g.observation(seat))), random.Random(seat))
        world.check_invariants()
        assert [world.observation(s) for s in range(3)] == [g.observation(s) for s in range(3)]
        assert world.points == g.points and world.followers_on_board() == g.followers_on_board()
        assert world.deck == g.deck and world.legal_actions() == g.legal_actions()
