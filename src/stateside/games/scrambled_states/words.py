"""Scrambled States in words: the move log's lines, the cards a logged move is about, the
banner's hint for a round, the score table and the pile count. Pure Python: the mode
puts them on screen."""
from __future__ import annotations

import html

from stateside.engine.match import LogEntry
from stateside.games.scrambled_states.rules import FACE_NAMES, FACE_UP, Action, Advance, Roll, Turn

DIE_LABELS = {"two": "Any two"}   # a face whose name reads badly on the die

FACE_HINT = {   # "find a card with ... as/with <center>"
    "region": "the same region (frame colour) as",
    "land-mass": "the same land-mass icon as",
    "population": "the same number of people as",
    "colour": "the same state colour as",
    "two": "any two features in common with",
}


def reveal_text(face: str, center_name: str, buzz_keys: str = "") -> str:
    """The banner as the die lands: what to look for; in a party, the buzzer keys."""
    if face == "hand":
        text = f"Hand! Slap the center card, {center_name}!"
    else:
        text = f"{DIE_LABELS.get(face, FACE_NAMES[face])}: find a card with {FACE_HINT[face]} {center_name}."
    return text + (f" Buzz ({buzz_keys}), then pick." if buzz_keys else "")


def log_line(log: list[LogEntry], i: int, note: str | None = None) -> tuple[str, int] | None:
    """Entry i of a match log as the move log shows it: (plain words, the seat it is
    coloured by, negative for the table's own), or None for an entry that shows nothing
    by itself: the clock running on, the deal's single cards, and the center card and the
    die, which stay face down until the die lands (the round's line then names them).
    `note`: an online table's own words on the entry (a round voided by a change of referee)."""
    entry = log[i]
    a = entry.action
    said = [ev for ev in entry.events if ev.kind not in ("pending", "buzz")]
    texts = [ev.text for ev in said] + ([note] if note else [])
    if isinstance(a, Action):   # what came of it names who did what; else the move itself, with its time
        return (" ".join(texts) if texts else entry.text + "."), a.player
    if isinstance(a, Turn):
        center = i + 1 < len(log) and isinstance(log[i + 1].action, Roll)
        if center:
            return None
        if i < FACE_UP:   # the opening deal: one line for the fifteen cards
            return (f"The deal: {FACE_UP} cards face up.", -1) if i == FACE_UP - 1 else None
        return entry.text + ".", -1
    if isinstance(a, (Advance, Roll)) and texts:
        players = {p for ev in said for p in ev.players}
        return " ".join(texts), (players.pop() if len(players) == 1 else -1)
    return None


def entry_cards(log: list[LogEntry], i: int) -> list[str]:
    """The cards a logged move is about, to point them out on the map and the table."""
    entry = log[i]
    a = entry.action
    if isinstance(a, Turn) and i < FACE_UP:
        return [e.action.card for e in log[:FACE_UP]]
    codes = [a.card] if isinstance(a, (Action, Turn)) and a.card else []
    for ev in entry.events:
        codes += ev.cards if ev.cards else ([ev.center] if ev.center and ev.kind == "void" else [])
    return list(dict.fromkeys(codes))


def final_table(game, log: list[LogEntry]) -> tuple[list[str], list[list]]:
    """Columns and rows of the score table: cards won and slips, a row a player."""
    slips = [0] * game.num_players
    for entry in log:
        for ev in entry.events:
            if ev.kind in ("slip", "buzz-timeout"):
                for p in ev.players:
                    slips[p] += 1
    return ["Player", "Cards", "Slips"], [[name, len(game.piles[p]), slips[p]] for p, name in enumerate(game.names)]


def scoreboard_html(game, barred: set[int], people: list[int], colours: list[str]) -> str:
    """The pile count: each player's cards against the target, and who sits out or buzzed."""
    target = game.settings.target
    rows = []
    holder = game.buzz_holder()
    for p, seat_name in enumerate(game.names):
        n = len(game.piles[p])
        bar = "\u25a0" * min(n, target) + "\u25a1" * max(0, target - n)
        state = ""
        if p in game.winners():
            state = "<b style='color:#2a9d8f'>winner</b>"
        elif p in barred:
            state = "<span style='color:#e63946'>sits out</span>"
        elif holder == p:
            state = "<b style='color:#b07d00'>buzzed</b>"
        name = f"<span style='color:{colours[p]}'>\u25a0</span> {html.escape(seat_name)}"
        if p in people:
            name = f"<b>{name}</b>"
        rows.append(f"<tr><td>{name}</td><td style='color:#1d3557; font-size:10px'>{bar}</td>"
                    f"<td align='right'><b>{n}</b></td><td>{state}</td></tr>")
    return (f"<table cellspacing='0' cellpadding='1' width='100%'><tr><th align='left'>Player</th>"
            f"<th align='left'>Pile (to {target})</th><th></th><th></th></tr>{''.join(rows)}</table>")
