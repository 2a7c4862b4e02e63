"""Tolerant matching of typed Trivia answers (pure Python, no Qt).

A typed name is right when it equals the card's answer after normalising both:
- case and accents do not matter ("saint paul" = "Saint Paul", "Santa Fé" = "Santa Fe");
- punctuation and spacing do not matter ("Show Me State" = "Show-Me State");
- "St." / "St" / "Ste" and "Saint" are the same word ("St. Paul" = "Saint Paul");
- a leading "The" may be left out or added ("Last Frontier" = "The Last Frontier");
- for a nickname, a trailing "State" may be left out ("Sunshine" = "Sunshine State");
- one typo (a letter wrong, missing, extra, or two letters swapped) is forgiven in a
  long name: LONG_NAME letters or more, spaces not counted ("Montgomary" = "Montgomery").

Numbers are read from what a person types: "39.5", "39,5", "39.5 million", "39 million",
"39,538,223" (a whole population, turned into millions), "1,787" (a year).

``answer_value(typed, fact, candidates)`` turns typed text into the answer the rules
record: the candidate it matches (a name, or a number in the fact's own form) or UNKNOWN.
"""
from __future__ import annotations

import re
import unicodedata

LONG_NAME = 8            # letters (spaces not counted) from which one typo is forgiven
UNKNOWN = "?"            # a typed answer that matches nothing

_SAINT = {"st": "saint", "ste": "saint", "saint": "saint"}


def normalise(text: str, nickname: bool = False) -> str:
    """Lower case, no accents, no punctuation, single spaces, "St." -> "saint",
    no leading "the" (and for a nickname no trailing "state")."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.casefold().replace("&", " and ")
    text = re.sub(r"[\u2018\u2019\u02bb'`]", "", text)     # Hawai'i -> hawaii
    words = re.sub(r"[^a-z0-9]+", " ", text).split()
    words = [_SAINT.get(w, w) for w in words]
    if words and words[0] == "the":
        words = words[1:]
    if nickname and len(words) > 1 and words[-1] == "state":
        words = words[:-1]
    return " ".join(words)


def _one_edit(a: str, b: str) -> bool:
    """True when a and b differ by at most one edit (substitution, insertion, deletion
    or the swap of two neighbouring letters)."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


def names_match(typed: str, answer: str, nickname: bool = False) -> bool:
    """Is the typed name the answer, with the tolerance above?"""
    t, a = normalise(typed, nickname), normalise(answer, nickname)
    if not t:
        return False
    if t == a or t.replace(" ", "") == a.replace(" ", ""):
        return True
    letters = len(a.replace(" ", ""))
    return letters >= LONG_NAME and _one_edit(t.replace(" ", ""), a.replace(" ", ""))


def parse_number(text: str) -> float | None:
    """The number in what a person typed, or None. "39.5 million" -> 39.5, "1,787" ->
    1787, "39,538,223" -> 39538223, "39,5" -> 39.5 (a decimal comma)."""
    t = text.strip().casefold().replace("\u00a0", " ")
    t = re.sub(r"(million|millions|mil|m)\.?$", "", t).strip()
    t = t.replace(" ", "").lstrip("$").lstrip("#").removesuffix("th").removesuffix("st") \
        .removesuffix("nd").removesuffix("rd")
    if not t:
        return None
    if re.fullmatch(r"\d{1,3}(,\d{3})+", t):          # thousands separators
        t = t.replace(",", "")
    elif re.fullmatch(r"\d+,\d+", t):                   # a decimal comma
        t = t.replace(",", ".")
    try:
        value = float(t)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        return None
    return value


def population_millions(text: str) -> float | None:
    """A typed population in millions: a small number is millions already, a big one
    (100,000 or more) is a head count."""
    value = parse_number(text)
    if value is None:
        return None
    return value / 1_000_000 if value >= 100_000 else value


def answer_value(typed: str, fact: str, candidates) -> str:
    """The recorded answer for typed text: one of `candidates` (the fact's possible
    answers, as the rules write them) or UNKNOWN. For names the right answer is tried
    first, so a typo never turns it into another candidate; pass the right answer first."""
    candidates = list(candidates)
    if fact in ("capital", "nickname"):
        for c in candidates:
            if c != UNKNOWN and names_match(typed, c, nickname=(fact == "nickname")):
                return c
        return UNKNOWN
    if fact == "population":
        value = population_millions(typed)
        if value is None:
            return UNKNOWN
        text = f"{round(value, 1):.1f}"
        return text if text in candidates else UNKNOWN
    value = parse_number(typed)
    if value is None or value != int(value):
        return UNKNOWN
    text = str(int(value))
    return text if text in candidates else UNKNOWN
