"""Game of the States, Trivia, "year settled": every documented year is in the data with
the page that documents it, and the reveal names the sources (issue 24, Deliver 2:
"settled years accept every documented alternative, each with its source in the data and
shown when the answer is revealed")."""
from __future__ import annotations

import pathlib
import re

import pytest

from stateside.errors import DataError
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.rules import GameOfTheStates
from stateside.games.game_of_the_states.trivia import is_right, right_years, truth
from stateside.paths import resource

SOURCES_MD = resource("game_of_the_states", "SOURCES.md")


def test_every_documented_year_has_a_source_a_url_a_fact_and_a_year_in_range():
    years = parts.settled_years()
    assert len(years) == 27
    for code, s in years.items():
        state = parts.states()[code]
        assert s.card.year == state.settled, code
        for o in (s.card, *s.also):
            assert o.what and o.source and o.fact, (code, o.year)
            assert re.match(r"https?://\S+$", o.url), (code, o.year, o.url)
            # a first settlement: after Columbus, and not after the state entered the union
            assert 1500 <= o.year <= state.admitted_year, (code, o.year)
            assert is_right(code, "settled", str(o.year)), (code, o.year)
        assert len({o.year for o in (s.card, *s.also)}) == 1 + len(s.also), code


def test_the_issues_examples_are_all_right_answers():
    """Issue 24: "e.g. PA 1643/1682, OK 1796/1889, CO 1851/1858, NM 1610/1598"."""
    for code, card, other in (("PA", 1643, 1682), ("OK", 1796, 1889), ("CO", 1851, 1858), ("NM", 1610, 1598)):
        assert truth(code, "settled") == str(card)
        assert str(other) in right_years(code)
    assert not is_right("OK", "settled", "1907")   # statehood, not settlement


def test_every_documented_year_and_page_is_listed_in_sources_md():
    text = SOURCES_MD.read_text(encoding="utf-8")
    for code, s in parts.settled_years().items():
        for o in (s.card, *s.also):
            assert f"| {code} | {o.year} |" in text and o.url in text, (code, o.year)


def _trivia():
    return GameOfTheStates.new({"players": ["Ann", "Bob", "Cy"], "variant": "trivia", "answers": "typed"})


def test_the_reveal_names_every_year_with_its_source():
    """Rulebook, Trivia: "If no one answers correctly, the player holding the card reads the
    answer and keeps the card" - the answer read out names each documented year's source."""
    g = _trivia()
    g.apply_action("card:OK")
    g.apply_action("ask:settled")
    g.apply_action("say:1900")
    text = g.apply_action("say:1901")[-1].text
    s = parts.settled_years()["OK"]
    assert "keeps the card" in text and "1796" in text and "1889" in text
    assert s.card.source in text and s.also[0].source in text and s.also[0].what in text


def test_a_right_other_year_is_told_with_what_it_is_and_its_source():
    g = _trivia()
    g.apply_action("card:CO")
    g.apply_action("ask:settled")
    text = g.apply_action("say:1858")[0].text
    other = parts.settled_years()["CO"].also[0]
    assert "right" in text and other.what in text and other.source in text and "the card says 1851" in text


def _write(tmp: pathlib.Path, body: str) -> pathlib.Path:
    p = tmp / "settled.yaml"
    p.write_text(body, encoding="utf-8")
    return p


Y = "{year: %d, what: w, source: s, url: '%s', fact: f}"


@pytest.mark.parametrize("body, message", [
    (f"PA:\n  card: 1643\n  also:\n    - {Y % (1682, 'https://e.org/')}\n", r"PA: card: expected a mapping"),
    (f"PA:\n  card: {Y % (1643, 'https://e.org/')}\n  also:\n    - {Y % (1682, 'e.org')}\n",
     r"PA: year 1: 'url' must be a web address"),
    (f"PA:\n  card: {Y % (1643, 'https://e.org/')}\n  also:\n    - {Y % (1790, 'https://e.org/')}\n",
     r"PA: year 1790 is after the state entered the union \(1787\)"),
    (f"PA:\n  card: {Y % (1643, 'https://e.org/')}\n  also:\n    - {{year: 1682, what: w, source: s, url: 'https://e.org/'}}\n",
     r"PA: year 1: missing 'fact'"),
])
def test_a_bad_entry_is_refused_naming_the_state_and_field(tmp_path, body, message):
    with pytest.raises(DataError, match=message):
        parts.read_settled(_write(tmp_path, body), parts.states())
