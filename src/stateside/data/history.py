"""The history of finished games: each game's save (the normal save format, so it opens
and replays like any save) in <config>/history/games/, and an index of what the list and
the statistics show (game, way to play, date, players, result) in <config>/history/index.json.

At most MAX_GAMES games are kept: the oldest go first, save and all. An index that cannot
be read is moved aside (never deleted) and rebuilt from the saves, each of which carries
its own index entry under "history". Pure Python, no Qt (app/history.py is the dialog)."""
from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stateside.data.saves import SAVE_FORMAT, SAVE_VERSION, move_aside, read_json_file, write_json_atomic
from stateside.errors import SaveError

INDEX_FORMAT = "stateside-history"
INDEX_VERSION = 1
MAX_GAMES = 500   # the last 500 games: a few hundred KB of index, saves of a few KB to 1 MB each

# The ways to play, in words (the games' own titles for their setup["variant"]).
VARIANT_WORDS = {"buy-and-sell": "Buy and Sell", "trivia": "Trivia", "junior": "Junior",
                 "table": "Open table", "usa-west": "USA West", "usa-east": "USA East", "usa": "USA (both maps)"}

_ENTRY_FIELDS = {"id": str, "file": str, "game": str, "variant": str, "date": str, "key": str,
                 "players": list, "seats": list, "people": list, "winners": list, "online": bool}


def way_to_play(variant: str) -> str:
    return VARIANT_WORDS.get(variant, variant.replace("-", " ").capitalize()) if variant else ""


def level_of(seat_kind: str) -> str:
    """A seat's kind in words: "person", "random" or the computer's level."""
    if seat_kind == "human":
        return "person"
    return seat_kind.removeprefix("ai:")


def make_entry(body: dict, *, names: list[str], people: list[int], winners: list[int],
               scores: list[float] | None, online: bool, when: datetime.datetime | None = None) -> dict:
    """The index entry of a finished match (body: Match.to_json() and the mode's extras)."""
    import hashlib

    when = when or datetime.datetime.now().astimezone()
    given = body.get("setup")
    setup = given if isinstance(given, dict) else {}
    variant = setup.get("variant")
    key = hashlib.sha256(json.dumps([body.get("game"), body.get("seed"), body.get("seats"), setup],
                                    sort_keys=True, default=str).encode()).hexdigest()[:16]
    stamp = when.strftime("%Y%m%d-%H%M%S")
    entry_id = f"{stamp}-{body.get('game')}-{key[:6]}"
    return {"id": entry_id, "file": f"{entry_id}.stateside.json", "game": str(body.get("game")),
            "variant": variant if isinstance(variant, str) else "", "date": when.isoformat(timespec="seconds"),
            "key": key, "players": [str(n) for n in names], "seats": [str(s) for s in body.get("seats", [])],
            "people": list(people), "winners": list(winners),
            "scores": None if scores is None else [float(s) for s in scores], "online": bool(online)}


def valid_entry(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    if any(not isinstance(entry.get(k), t) for k, t in _ENTRY_FIELDS.items()):
        return False
    if Path(entry["file"]).name != entry["file"] or not entry["file"].endswith(".json"):
        return False   # a name inside the folder, never a path elsewhere
    n = len(entry["players"])
    if len(entry["seats"]) != n or not all(type(i) is int and 0 <= i < n for i in entry["people"] + entry["winners"]):
        return False
    scores = entry.get("scores")
    return scores is None or (isinstance(scores, list) and len(scores) == n
                              and all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores))


@dataclass
class History:
    folder: Path
    entries: list[dict] = field(default_factory=list)   # oldest first
    problem: str = ""   # what went wrong reading it, for the person (empty: nothing)
    max_games: int = MAX_GAMES

    @property
    def index_path(self) -> Path:
        return self.folder / "index.json"

    @property
    def games_folder(self) -> Path:
        return self.folder / "games"

    def save_path(self, entry: dict) -> Path:
        return self.games_folder / entry["file"]

    # ------------------------------------------------------------------ reading
    @classmethod
    def load(cls, folder: str | os.PathLike, max_games: int = MAX_GAMES) -> History:
        history = cls(Path(folder), max_games=max_games)
        path = history.index_path
        if not path.exists():
            return history
        try:
            data = read_json_file(path, "history of games")
            if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
                raise SaveError(f"{path}: not a Stateside history of games")
            if data.get("version") != INDEX_VERSION:
                raise SaveError(f"{path}: history version {data.get('version')!r} is not one this Stateside reads")
            games = data.get("games")
            if not isinstance(games, list) or not all(valid_entry(e) for e in games):
                raise SaveError(f"{path}: the list of games in it is damaged")
            history.entries = games
        except SaveError as e:
            kept = move_aside(path)
            history.entries = history._from_saves()
            where = f" it is kept as {kept.name}" if kept else " it could not be moved aside"
            history.problem = (f"The history of games could not be read ({e});{where}, and the list was "
                               f"rebuilt from the {len(history.entries)} saved games in {history.folder}.")
            history._write_index()
        return history

    def _from_saves(self) -> list[dict]:
        """The entries the saves in games/ carry (when the index is lost)."""
        found = []
        for path in sorted(self.games_folder.glob("*.json")) if self.games_folder.is_dir() else ():
            try:
                entry = read_json_file(path, "save").get("history")
            except (SaveError, AttributeError):
                continue
            if valid_entry(entry) and entry["file"] == path.name:
                found.append(entry)
        found.sort(key=lambda e: e["date"])
        return found[-self.max_games:]

    # ------------------------------------------------------------------ writing
    def _write_index(self) -> None:
        write_json_atomic(self.index_path, {"format": INDEX_FORMAT, "version": INDEX_VERSION,
                                            "games": self.entries}, "history of games")

    def add(self, body: dict, entry: dict) -> dict:
        """Keep a finished game: its save, then its line in the index. The same game
        finished again (taken back and played on) replaces its earlier line."""
        for old in [e for e in self.entries if e["key"] == entry["key"]]:
            self._drop(old)
        write_json_atomic(self.save_path(entry), {"format": SAVE_FORMAT, "version": SAVE_VERSION, **body,
                                                  "history": entry}, "save")
        self.entries.append(entry)
        while len(self.entries) > self.max_games:
            self._drop(self.entries[0])
        self._write_index()
        return entry

    def _drop(self, entry: dict) -> None:
        self.entries.remove(entry)
        try:
            self.save_path(entry).unlink()
        except OSError:
            pass   # already gone: the line goes all the same

    def delete(self, entry_id: str) -> None:
        entry = self.find(entry_id)
        if entry is not None:
            self._drop(entry)
            self._write_index()

    def find(self, entry_id: str) -> dict | None:
        return next((e for e in self.entries if e["id"] == entry_id), None)

    def set_aside(self, entry_id: str) -> Path | None:
        """A save that cannot be replayed: moved aside (kept, never read again), its line gone."""
        entry = self.find(entry_id)
        if entry is None:
            return None
        kept = move_aside(self.save_path(entry)) if self.save_path(entry).exists() else None
        self.entries.remove(entry)
        self._write_index()
        return kept


# ---------------------------------------------------------------------- statistics
def opponents(entry: dict) -> str:
    """Whom the people here played against, in words: the computers' levels ("easy",
    "easy and hard"), "people only", or "computers only" when no person played here."""
    if not entry["people"]:
        return "computers only"
    levels = sorted({level_of(s) for i, s in enumerate(entry["seats"]) if i not in entry["people"]} - {"person"})
    others_are_people = any(level_of(s) == "person" for i, s in enumerate(entry["seats"]) if i not in entry["people"])
    if not levels:
        return "people only"
    return " and ".join(levels) + (" (and people)" if others_are_people else "")


def won(entry: dict) -> bool:
    return any(w in entry["people"] for w in entry["winners"])


def best_score(entry: dict) -> float | None:
    scores = entry.get("scores")
    if scores is None or not entry["people"]:
        return None
    return max(scores[p] for p in entry["people"])


@dataclass
class Stats:
    played: int = 0
    won: int = 0
    best: float | None = None

    def count(self, entry: dict) -> None:
        self.played += 1
        self.won += won(entry)
        score = best_score(entry)
        if score is not None and (self.best is None or score > self.best):
            self.best = score


def statistics(entries: list[dict], game: str) -> list[tuple[str, Stats]]:
    """One game's rows: every game ("all"), then by opponents, most played first."""
    total = Stats()
    by: dict[str, Stats] = {}
    for entry in entries:
        if entry["game"] != game:
            continue
        total.count(entry)
        by.setdefault(opponents(entry), Stats()).count(entry)
    rows = sorted(by.items(), key=lambda kv: (-kv[1].played, kv[0]))
    return [("all", total), *rows] if total.played else []
