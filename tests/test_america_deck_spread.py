"""How the bundled America deck spreads over the board (resources/decks/america).

Targets for the full deck of 160 cards (320 topics): every space of the year bar and of
the number bar holds at least 3 answers, at least 15 years are 1980 or later, at most one
state question in eight asks where someone was born, titles are distinct subjects, and
the two sides of a card have different themes.

The figures are printed (run with `pytest -s`) and repeated in every assertion message.
While the deck is still being written (fewer than 160 cards) the count-dependent checks
are skipped, with the current figures in the skip message; the theme and title checks
apply always.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest

from stateside.games.america.bars import load_bars
from stateside.games.america.deck import THEMES, Card, Topic, load_deck

FULL_DECK = 160                    # cards
MIN_PER_SPACE = 3                  # answers on every space of each bar
MIN_RECENT = 15                    # year answers from RECENT_FROM on
RECENT_FROM = 1980
MAX_BORN_SHARE = 1 / 8             # of the state questions
BORN = re.compile(r"\b(born|foaled)\b", re.IGNORECASE)


def subject(title: str) -> str:
    """A title folded for comparison: case, punctuation, a leading article and plurals ignored."""
    folded = re.sub(r"['\u2019]s\b", "", title.casefold())
    words = re.sub(r"[^\w\s]", " ", folded).split()
    if words and words[0] in ("the", "a", "an"):
        words = words[1:]
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in words)


def spread(deck: tuple[Card, ...]) -> dict:
    bars = load_bars()
    topics: list[Topic] = [t for card in deck for t in card.topics]
    years = Counter(bars["year"].space_for(t.year.answer) for t in topics)
    numbers = Counter(bars["number"].space_for(t.number.answer) for t in topics)
    born = [t.ref for t in topics if BORN.search(t.state.text)]
    by_subject: dict[str, list[str]] = {}
    for t in topics:
        by_subject.setdefault(subject(t.title), []).append(f"{t.ref} {t.title}")
    return {
        "cards": len(deck),
        "topics": len(topics),
        "year": {label: years.get(label, 0) for label in bars["year"].labels},
        "number": {label: numbers.get(label, 0) for label in bars["number"].labels},
        "recent": sum(t.year.answer >= RECENT_FROM for t in topics),
        "born": born,
        "born_share": len(born) / len(topics) if topics else 0.0,
        "duplicates": [refs for refs in by_subject.values() if len(refs) > 1],
        "same_theme": [f"{c.number} ({c.topics[0].theme})" for c in deck
                       if c.topics[0].theme == c.topics[1].theme],
        "themes": Counter(t.theme for t in topics),
        "states": Counter(t.state.answer for t in topics),
    }


def report(s: dict) -> str:
    def row(counts: dict) -> str:
        return " ".join(f"{label}:{n}" for label, n in counts.items())
    return "\n".join([
        f"deck: {s['cards']} cards, {s['topics']} topics",
        f"year spaces: {row(s['year'])}",
        f"number spaces: {row(s['number'])}",
        f"years from {RECENT_FROM} on: {s['recent']}",
        f"'born' state questions: {len(s['born'])} of {s['topics']} "
        f"({s['born_share']:.1%}; limit {MAX_BORN_SHARE:.1%}): {', '.join(s['born'])}",
        f"themes: {row(dict(sorted(s['themes'].items())))}",
        f"states answered: {len(s['states'])} of 50; most often: "
        f"{row(dict(s['states'].most_common(8)))}",
        f"duplicate subjects: {s['duplicates'] or 'none'}",
        f"cards whose sides share a theme: {s['same_theme'] or 'none'}",
    ])


@pytest.fixture(scope="module")
def figures() -> dict:
    return spread(load_deck())


def _full_deck_only(figures: dict) -> None:
    if figures["cards"] < FULL_DECK:
        pytest.skip(f"deck not complete ({figures['cards']} of {FULL_DECK} cards); "
                    f"current figures:\n{report(figures)}")


def test_print_the_spread(figures):
    print("\n" + report(figures))
    assert figures["topics"] == 2 * figures["cards"]


# --- always ------------------------------------------------------------------------------

def test_titles_are_distinct_subjects(figures):
    assert not figures["duplicates"], report(figures)


def test_the_two_sides_of_a_card_have_different_themes(figures):
    assert not figures["same_theme"], report(figures)
    assert set(figures["themes"]) <= set(THEMES), report(figures)


def test_subject_folding():
    assert subject("The Oldest Colleges") == subject("oldest college")
    assert subject("Hot Springs") == subject("hot spring")
    assert subject("The Mississippi River") == "mississippi river"
    assert subject("Lindbergh's Atlantic Flight") == subject("Lindbergh Atlantic Flight")


# --- the full deck -----------------------------------------------------------------------

def test_full_deck_has_160_cards(figures):
    _full_deck_only(figures)
    assert (figures["cards"], figures["topics"]) == (FULL_DECK, 2 * FULL_DECK), report(figures)


@pytest.mark.parametrize("bar", ["year", "number"])
def test_every_space_of_the_bar_holds_at_least_3_answers(figures, bar):
    _full_deck_only(figures)
    thin = {label: n for label, n in figures[bar].items() if n < MIN_PER_SPACE}
    assert not thin, f"{bar} spaces with fewer than {MIN_PER_SPACE}: {thin}\n{report(figures)}"


def test_enough_recent_years(figures):
    _full_deck_only(figures)
    assert figures["recent"] >= MIN_RECENT, report(figures)


def test_few_state_questions_ask_where_someone_was_born(figures):
    _full_deck_only(figures)
    assert len(figures["born"]) <= MAX_BORN_SHARE * figures["topics"], report(figures)
