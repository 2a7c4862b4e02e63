"""More Carcassonne scoring on hand-built tables: the cases a rules lawyer asks about.

Each test names the part of the standard rules it checks ("Rules facts", section 5 of the
project's tile fact sheet carcassonne-tiles.md, as issue 7 states them). Coordinates: x east,
y south; the start tile (base D) lies at 0,0 with its city cap north, road west-east.
"""
from __future__ import annotations

from stateside.games.carcassonne.engine import Game

from test_carcassonne_rules import ANN, BOB, field_at, put, table

CY = 2


def scored(events, kind=None):
    return [(e.kind, e.seats, e.points) for e in events if kind is None or e.kind == kind]


def totals_from_events(g: Game) -> list[int]:
    out = [0] * g.n
    for e in g.events:
        for s in e.seats:
            out[s] += e.points
    return out


# --------------------------------------------------------------------------- cities
def test_a_city_built_by_two_players_and_closed_with_a_tie_scores_both_in_full():
    """Rules facts (section 5, Majority and City): Ann's part of the city (over the start
    cap) and Bob's cap join when Cy lays the band between them. One follower each: a tie,
    both score 2 x 4 tiles = 8, Cy (who closed it) nothing; both followers come back."""
    g = table(players=("Ann", "Bob", "Cy"))
    put(g, "B-N", 0, -1, 1, follower="c1", seat=ANN)    # corner city south-east, joins the start cap
    put(g, "B-U", 1, 0, 1, seat=CY)                      # road west-east, east of the start
    put(g, "B-U", 2, 0, 1, seat=CY)
    put(g, "B-E", 2, -1, 3, follower="c1", seat=BOB)     # Bob's cap, open to the west
    assert g.supply == [6, 6, 7]
    events = put(g, "B-G", 1, -1, 0, seat=CY)            # band west-east closes the city
    assert [(e.kind, e.seats, e.points, e.tiles, e.followers) for e in events] == [
        ("city", (ANN, BOB), 8, 4, (1, 1, 0))]
    assert g.scores() == [8, 8, 0] and g.supply == [7, 7, 7]
    assert events[0].describe(["Ann", "Bob", "Cy"]) == (
        "Ann and Bob: city of 4 tiles (2 per tile), tied 1 follower each: 8 points each")


def test_an_unfinished_city_with_two_pennants_scores_one_per_tile_and_pennant_at_the_end():
    """Rules facts (section 5, End of game, incomplete features): 1 per tile + 1 per pennant.
    Start cap + pennant corner (B-M) + pennant band (B-F): 3 tiles, 2 pennants = 5, still open."""
    g = table()
    put(g, "B-M", 0, -1, 1, follower="c1", seat=ANN)     # pennant corner south-east
    put(g, "B-U", 1, 0, 1, seat=BOB)
    events = put(g, "B-F", 1, -1, 0, seat=BOB, last=True)   # pennant band west-east, open east
    assert [(e.kind, e.seats, e.points, e.tiles, e.pennants, e.final) for e in events] == [
        ("city", (ANN,), 5, 3, 2, True)]
    assert g.scores() == [5, 0]
    assert events[0].describe(["Ann", "Bob"]) == (
        "Ann: unfinished city of 3 tiles with 2 pennants (1 per tile and pennant): 5 points")


# --------------------------------------------------------------------------- roads
def test_a_road_loop_of_four_curves_is_complete_and_scores_one_per_tile():
    """Rules facts (section 5, Road): a road is complete when it forms a loop; 1 point per tile.
    Four curves below the start tile close a ring of 4 tiles; no end is ever closed."""
    g = table()
    put(g, "B-V", 0, 1, 3, follower="r1", seat=ANN)      # road east-south
    put(g, "B-V", 1, 1, 0, seat=BOB)                     # road south-west
    assert put(g, "B-V", 0, 2, 2, seat=BOB) == []        # road north-east: still open
    events = put(g, "B-V", 1, 2, 1, seat=BOB)            # road north-west closes the ring
    assert [(e.kind, e.seats, e.points, e.tiles) for e in events] == [("road", (ANN,), 4, 4)]
    assert g.supply[ANN] == 7
    assert g.ports[g.find(g.placed[g.board[(0, 1)]].base)] == 0


# --------------------------------------------------------------------------- cloisters
def _ring_around_0_1(g: Game) -> None:
    """The eight squares around 0,1, left empty: the start tile, two roads and five cloisters."""
    put(g, "B-U", 1, 0, 1, seat=BOB)
    put(g, "B-U", -1, 0, 1, seat=BOB)
    for x, y in [(-1, 1), (1, 1), (-1, 2), (0, 2), (1, 2)]:
        put(g, "B-B", x, y, 0, seat=BOB)


def test_a_cloister_laid_last_into_a_full_ring_scores_nine_at_once():
    """Rules facts (section 5, Cloister): complete when all 8 surrounding tiles are present,
    however they came; the monk placed on it comes straight back."""
    g = table()
    _ring_around_0_1(g)
    assert g.scores() == [0, 0]
    events = put(g, "B-B", 0, 1, 0, follower="cloister", seat=ANN)
    assert scored(events) == [("cloister", (ANN,), 9)]
    assert g.supply[ANN] == 7 and g.scores() == [9, 0]


def test_a_cloister_completed_by_the_last_tile_of_the_game_scores_once_as_finished():
    """Rules facts (section 5, Cloister and End of game): a cloister completed by the very
    last tile scores its 9 as a completed cloister and is not scored again at the end."""
    g = table()
    put(g, "B-B", 0, 1, 0, follower="cloister", seat=ANN)
    put(g, "B-U", 1, 0, 1, seat=BOB)
    put(g, "B-U", -1, 0, 1, seat=BOB)
    for x, y in [(-1, 1), (1, 1), (-1, 2), (0, 2)]:
        put(g, "B-B", x, y, 0, seat=BOB)
    events = put(g, "B-B", 1, 2, 0, seat=BOB, last=True)
    assert g.is_terminal()
    assert [(e.kind, e.seats, e.points, e.final) for e in events] == [("cloister", (ANN,), 9, False)]
    assert g.scores() == [9, 0] and g.supply == [7, 7]


# --------------------------------------------------------------------------- fields
def test_a_field_touching_one_city_through_two_tiles_counts_that_city_once():
    """Rules facts (section 5, Fields): 3 points per completed city bordering the field.
    The 2-tile city (start cap + cap above it) borders the farmer's field on both of its
    tiles: below the cap on the start tile and around the cap above; the field runs round
    the east side. One city, so 3 points, not 6."""
    g = table()
    put(g, "B-E", 0, -1, 2, seat=BOB)                   # cap facing south closes the city
    put(g, "B-B", 1, -1, 0, seat=BOB)                   # field east of it
    events = put(g, "B-U", 1, 0, 1, follower=field_at("B-U", 1, "WR"), seat=ANN, last=True)
    field = [e for e in events if e.kind == "field"]
    root = g.find(g.placed[g.board[(1, 0)]].base + field_at("B-U", 1, "WR"))
    city_parts = {g.find(c) for c in g.adj[root]}
    assert len(g.adj[root]) == 2 and len(city_parts) == 1        # two city segments, one city
    assert [(e.seats, e.points, e.cities) for e in field] == [((ANN,), 3, 1)]
    assert g.scores() == [3, 0]


def test_tied_farmers_each_score_the_field_in_full():
    """Rules facts (section 5, Fields and Majority): tied farmers each score 3 per city.
    Bob's farmer stands beyond the cap that closes the start city, Ann's between the city
    and the road; a cloister tile in the corner joins the two fields. One farmer each: both
    score 3 for the one city, Cy (no farmer there) nothing."""
    g = table(players=("Ann", "Bob", "Cy"))
    put(g, "B-E", 0, -1, 2, follower=field_at("B-E", 2, "NL"), seat=BOB)  # closes the city
    put(g, "B-U", 1, 0, 1, follower=field_at("B-U", 1, "WR"), seat=ANN)  # a field of its own so far
    put(g, "B-B", 1, -1, 0, seat=CY)                                       # joins the two fields
    events = put(g, "B-U", 2, 0, 1, seat=CY, last=True)
    assert [(e.kind, e.seats, e.points, e.followers) for e in events if e.kind == "field"] == [
        ("field", (ANN, BOB), 3, (1, 1, 0))]
    assert events[-1].describe(["Ann", "Bob", "Cy"]) == (
        "Ann and Bob: field bordering 1 completed city (3 per city), tied 1 farmer each: 3 points each")
    assert g.scores() == [3, 3, 0]


def test_farmers_stay_until_the_end_and_are_not_returned():
    """Rules facts (section 5, Majority): meeples on a scored road, city or cloister go back;
    farmers stay until the end."""
    g = table()
    put(g, "B-E", 0, -1, 2, follower=field_at("B-E", 2, "NL"), seat=ANN)  # city closes at once
    assert g.supply[ANN] == 6 and g.scores() == [0, 0]    # the farmer stays; nobody held the city
    assert [s for s, _, _ in g.followers_on_board()] == [ANN]


def test_scores_always_equal_the_sum_of_the_explained_events():
    """Every point comes from an event the scoring list shows (a city, a road, a cloister, a field)."""
    g = table()
    put(g, "B-E", 0, -1, 2, follower="c1", seat=BOB)
    put(g, "B-U", 1, 0, 1, follower=field_at("B-U", 1, "WR"), seat=ANN)
    put(g, "B-U", 2, 0, 1, follower="r1", seat=BOB)
    put(g, "B-B", 0, 1, 0, follower="cloister", seat=ANN, last=True)
    assert g.is_terminal()
    assert totals_from_events(g) == g.scores()
    assert sorted(e.kind for e in g.events) == ["city", "cloister", "field", "road"]
