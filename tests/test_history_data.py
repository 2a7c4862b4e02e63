"""The history of games without Qt (data/history.py): keeping, bounding, deleting, a
damaged index moved aside and rebuilt, and the statistics counted by hand."""
import datetime
import json

from stateside.data.history import History, make_entry, opponents, statistics, valid_entry
from stateside.engine.saves import read_save


def body(seed, seats=("human", "ai:easy"), game="ten-days", variant=None):
    setup = {"players": ["Ann", "Bob", "Cy"][:len(seats)]}
    if variant:
        setup["variant"] = variant
    return {"game": game, "rules_version": 1, "setup": setup, "seed": seed, "seats": list(seats), "actions": []}


def entry_of(b, winners=(0,), scores=None, people=(0,), minute=0):
    when = datetime.datetime(2026, 12, 1, 20, minute, tzinfo=datetime.timezone.utc)
    return make_entry(b, names=b["setup"]["players"], people=list(people), winners=list(winners),
                      scores=scores, online=False, when=when)


def test_a_kept_game_is_a_normal_save_and_its_line_survives_a_restart(tmp_path):
    h = History.load(tmp_path)
    assert h.entries == [] and h.problem == ""
    b = body(7, variant="trivia")
    e = h.add(b, entry_of(b, scores=[3, 5], winners=[1]))
    game, saved = read_save(h.save_path(e))   # the app's own reader takes it
    assert game == "ten-days" and saved["seed"] == 7 and saved["history"]["id"] == e["id"]
    again = History.load(tmp_path)
    assert [x["id"] for x in again.entries] == [e["id"]] and again.problem == ""
    assert e["variant"] == "trivia" and e["players"] == ["Ann", "Bob"] and e["scores"] == [3.0, 5.0]


def test_the_same_game_finished_again_replaces_its_line(tmp_path):
    h = History.load(tmp_path)
    first = h.add(body(7), entry_of(body(7), minute=1))
    second = h.add(body(7), entry_of(body(7), minute=2))   # taken back at the end and played on
    assert [e["id"] for e in h.entries] == [second["id"]]
    assert not h.save_path(first).exists() and h.save_path(second).exists()


def test_only_the_last_games_are_kept(tmp_path):
    h = History.load(tmp_path, max_games=3)
    made = [h.add(body(s), entry_of(body(s), minute=s)) for s in range(5)]
    assert [e["id"] for e in h.entries] == [e["id"] for e in made[2:]]
    assert [p.name for p in sorted(h.games_folder.iterdir())] == sorted(e["file"] for e in made[2:])


def test_delete_removes_the_line_and_the_save(tmp_path):
    h = History.load(tmp_path)
    a, b = h.add(body(1), entry_of(body(1), minute=1)), h.add(body(2), entry_of(body(2), minute=2))
    h.delete(a["id"])
    assert [e["id"] for e in History.load(tmp_path).entries] == [b["id"]]
    assert not h.save_path(a).exists()


def test_a_damaged_index_is_moved_aside_and_rebuilt_from_the_saves(tmp_path):
    h = History.load(tmp_path)
    kept = [h.add(body(s), entry_of(body(s), minute=s)) for s in range(3)]
    h.index_path.write_text('{"format": "stateside-history", "version": 1, "games": [{"id": 3', encoding="utf-8")
    again = History.load(tmp_path)
    assert [e["id"] for e in again.entries] == [e["id"] for e in kept]
    assert "could not be read" in again.problem and "rebuilt from the 3 saved games" in again.problem
    aside = list(tmp_path.glob("index.unreadable-*.json"))
    assert len(aside) == 1 and aside[0].name in again.problem
    assert History.load(tmp_path).problem == ""   # the rebuilt index reads cleanly


def test_an_index_with_a_hostile_entry_is_refused():
    good = entry_of(body(1))
    assert valid_entry(good)
    assert not valid_entry({**good, "file": "../../settings.ini"})
    assert not valid_entry({**good, "people": [5]})
    assert not valid_entry({**good, "scores": [1]})
    assert not valid_entry({**good, "online": "yes"})


def test_wrong_kind_of_file_is_a_clear_problem(tmp_path):
    (tmp_path / "index.json").write_text(json.dumps({"format": "something-else"}), encoding="utf-8")
    h = History.load(tmp_path)
    assert h.entries == [] and "not a Stateside history of games" in h.problem


def test_statistics_by_opponent_level_counted_by_hand():
    g = "carcassonne"
    games = [
        entry_of(body(1, ("human", "ai:easy"), g), winners=[0], scores=[30, 20]),      # easy: won, 30
        entry_of(body(2, ("human", "ai:easy"), g), winners=[1], scores=[25, 40]),      # easy: lost, 25
        entry_of(body(3, ("ai:hard", "human"), g), winners=[0], scores=[50, 45], people=[1]),  # hard: lost, 45
        entry_of(body(4, ("human", "human"), g), winners=[1], scores=[10, 12], people=[0, 1]),  # people: won, 12
        entry_of(body(5, ("human", "ai:easy", "ai:hard"), g), winners=[0], scores=[60, 1, 2]),  # easy and hard
        entry_of(body(6, ("ai:easy", "ai:hard"), g), winners=[0], scores=[70, 3], people=[]),   # watched
        entry_of(body(7, ("human", "ai:easy")), winners=[0], scores=None),                      # another game
    ]
    rows = {name: (s.played, s.won, s.best) for name, s in statistics(games, g)}
    assert rows == {
        "all": (6, 3, 60.0),   # won: games 1, 4 (the people's) and 5; best a person scored: 60
        "easy": (2, 1, 30.0),
        "hard": (1, 0, 45.0),
        "people only": (1, 1, 12.0),
        "easy and hard": (1, 1, 60.0),
        "computers only": (1, 0, None),   # no person played: no win, no score of theirs
    }
    assert [name for name, _ in statistics(games, g)][:2] == ["all", "easy"]   # most played first
    assert statistics(games, "america") == []
    assert opponents(entry_of(body(8, ("human", "human", "ai:hard")), people=[0])) == "hard (and people)"
