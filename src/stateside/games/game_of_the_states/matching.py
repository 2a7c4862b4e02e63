"""Tolerant matching of typed Trivia answers (pure Python, no Qt).

A quizmaster takes what a person means. A typed name is right when it equals the card's
answer after normalising both:
- case and accents do not matter ("saint paul" = "Saint Paul", "Santa Fé" = "Santa Fe");
- punctuation and spacing do not matter ("Show Me State" = "Show-Me State");
- "St." / "St" / "Ste" and "Saint" are the same word ("St. Paul" = "Saint Paul");
- a leading "The" may be left out or added ("Last Frontier" = "The Last Frontier");
- for a nickname, a trailing "State" may be left out ("Sunshine" = "Sunshine State");
- a capital may carry its state: "Saint Paul, MN", "Saint Paul Minnesota" (another
  state named after it makes the answer wrong: that is not the city asked for);
- a few words around the answer are dropped: "I think Phoenix", "it's Boise?";
- one typo (a letter wrong, missing, extra, or two letters swapped) is forgiven in a
  name of LONG_NAME letters or more, spaces not counted ("Pheonix" = "Phoenix",
  "Concorde" = "Concord"). A typed text that is another state's capital or nickname
  exactly is that answer (wrong), never a typo of the right one.

Numbers are read as a person says them: "39.5", "39,5", "39.5 million", "39 million
people", "about 39 million", "39,538,223" (a head count, turned into millions), "thirty-
nine million", "half a million", "one and a half million", "1,787" (a year), "September
9, 1850" or "9/9/1850" (a date, where a year is asked: its year), "twenty-second" (a rank).

``answer_value(typed, fact, candidates, ...)`` turns typed text into the answer the rules
record: the candidate it matches (a name, or a number in the fact's own form) or UNKNOWN.
A population is judged on the exact typed figure (no rounding first): the caller passes
the exact count and the value recorded is one the rules judge the same way.
"""
from __future__ import annotations

import math
import re
import unicodedata

LONG_NAME = 5            # letters (spaces not counted) from which one typo is forgiven
UNKNOWN = "?"            # a typed answer that matches nothing
POP_TOLERANCE = 1.0      # millions: a population is right within one million (rulebook)

_SAINT = {"st": "saint", "ste": "saint", "saint": "saint"}

# Words around an answer that say nothing about it ("I think it's Phoenix").
_LEAD = ("i think its", "i think it is", "i think", "i guess", "i believe", "i would say", "id say",
         "my answer is", "answer is", "its", "it is", "is it", "maybe", "perhaps", "probably", "um",
         "uh", "hmm", "well")
_TRAIL = ("i think", "i guess", "maybe", "perhaps", "probably", "right", "city of")

_UNITS = {w: i for i, w in enumerate([
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen"])}
_TENS = {w: 10 * i for i, w in enumerate(
    ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]) if w != "_"}
_ORDINAL_WORDS = {"first": "one", "second": "two", "third": "three", "fourth": "four", "fifth": "five",
                  "sixth": "six", "seventh": "seven", "eighth": "eight", "ninth": "nine", "tenth": "ten",
                  "eleventh": "eleven", "twelfth": "twelve", "thirteenth": "thirteen",
                  "fourteenth": "fourteen", "fifteenth": "fifteen", "sixteenth": "sixteen",
                  "seventeenth": "seventeen", "eighteenth": "eighteen", "nineteenth": "nineteen",
                  "twentieth": "twenty", "thirtieth": "thirty", "fortieth": "forty", "fiftieth": "fifty"}
_SCALE = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "millions": 1_000_000}
_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec"]
# Words of a natural phrasing of a number that do not change it.
_HEDGES = {"about", "around", "roughly", "approximately", "approx", "circa", "ca", "c", "nearly", "almost",
           "over", "under", "just", "some", "maybe", "like", "give", "or", "take", "so", "than", "more",
           "less", "little", "bit", "people", "persons", "residents", "inhabitants", "population", "in",
           "the", "year", "of", "is", "its", "it", "i", "think", "guess", "say", "ad", "state",
           "number", "no", "place", "was", "joined", "st", "nd", "rd", "th", "on", "an", "a"}


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.casefold().replace("&", " and ")
    return re.sub(r"[\u2018\u2019\u02bb'`]", "", text)     # Hawai'i -> hawaii


def normalise(text: str, nickname: bool = False) -> str:
    """Lower case, no accents, no punctuation, single spaces, "St." -> "saint",
    no leading "the" (and for a nickname no trailing "state")."""
    words = re.sub(r"[^a-z0-9]+", " ", _plain(text)).split()
    words = [_SAINT.get(w, w) for w in words]
    if words and words[0] == "the":
        words = words[1:]
    if nickname and len(words) > 1 and words[-1] == "state":
        words = words[:-1]
    return " ".join(words)


def _drop_filler(norm: str) -> str:
    changed = True
    while changed and norm:
        changed = False
        for lead in _LEAD:
            if norm.startswith(lead + " "):
                norm, changed = norm[len(lead) + 1:], True
        for trail in _TRAIL:
            if norm.endswith(" " + trail):
                norm, changed = norm[:-len(trail) - 1], True
    return norm


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


def _close(t: str, a: str) -> bool:
    """Equal, or one typo apart in a name long enough for one to be forgiven."""
    t, a = t.replace(" ", ""), a.replace(" ", "")
    return t == a or (len(a) >= LONG_NAME and _one_edit(t, a))


def names_match(typed: str, answer: str, nickname: bool = False) -> bool:
    """Is the typed name the answer, with the tolerance above? (Without a state suffix:
    answer_value handles "City, ST".)"""
    t, a = _drop_filler(normalise(typed, nickname)), normalise(answer, nickname)
    return bool(t) and _close(t, a)


def _state_suffix(typed: str, states: dict[str, str]) -> tuple[str, str | None]:
    """Split "Saint Paul, MN" / "Saint Paul MN" / "saint paul, minnesota" into the city
    and the state's code (None when no state is named). `states` maps code -> name. A
    postal code may follow the city without a comma: no capital ends in a word that is
    a postal code (a test checks it), so a city's own last word is never taken for one."""
    norm = _drop_filler(normalise(typed))
    for code, name in sorted(states.items(), key=lambda kv: -len(kv[1])):
        n = normalise(name)
        if norm.endswith(" " + n) and len(norm) > len(n) + 1:
            return norm[:-len(n) - 1], code
    m = re.fullmatch(r"(.*?)(,\s*|\s+)([A-Za-z]{2})\.?\s*[?!.]*\s*", typed)
    if m and m.group(1).strip() and m.group(3).upper() in states:
        return m.group(1), m.group(3).upper()
    return typed, None


# --- numbers -----------------------------------------------------------------------------
def _words_number(words: list[str]) -> float | None:
    """English number words ("thirty nine", "one hundred and five", "eighteen fifty",
    "seventeen eighty seven") to a number, or None."""
    if not words:
        return None
    words = [{"oh": "zero"}.get(w, _ORDINAL_WORDS.get(w, w)) for w in words if w != "and"]
    if not all(w in _UNITS or w in _TENS or w in _SCALE for w in words):
        return None
    # a year said in pairs: "eighteen fifty", "seventeen eighty seven", "nineteen oh five"
    if len(words) >= 2 and words[0] in _UNITS and 10 <= _UNITS[words[0]] <= 19 and words[1] in _TENS | _UNITS \
            and not any(w in _SCALE for w in words):
        rest = _words_number(words[1:])
        if rest is not None and rest < 100:
            return _UNITS[words[0]] * 100 + rest
    total, current = 0, 0
    for w in words:
        if w in _UNITS:
            current += _UNITS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = (current or 1) * 100
        else:
            total += (current or 1) * _SCALE[w]
            current = 0
    return float(total + current)


def _digits(token: str) -> float | None:
    t = token.lstrip("$#~").rstrip(".")
    t = re.sub(r"(st|nd|rd|th)$", "", t)
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", t):      # thousands separators
        t = t.replace(",", "")
    elif re.fullmatch(r"\d+,\d{1,2}", t):                   # a decimal comma ("39,5")
        t = t.replace(",", ".")
    try:
        v = float(t)
    except ValueError:
        return None
    return v if math.isfinite(v) and v >= 0 else None


def parse_number(text: str) -> float | None:
    """The number in what a person typed, or None: "39.5 million" -> 39.5 (millions stay
    the unit said: see population_millions), "1,787" -> 1787, "39,5" -> 39.5, "49th" ->
    49, "thirty-nine" -> 39, "about 40" -> 40. Words that do not change a number
    ("about", "people") are dropped; anything else makes it no number."""
    value, _ = _number_and_scale(text)
    return value


def _number_and_scale(text: str) -> tuple[float | None, float]:
    """(the number said, the scale word's factor: 1e6 for "million", else 1)."""
    t = _plain(text).replace("\u00a0", " ").strip().rstrip("?!.")
    if re.match(r"-\s*\d", t):                       # no population, year or rank is negative
        return None, 1.0
    t = re.sub(r"(\d)\s*(m|mil|mln|million|millions)\b\.?", r"\1 million", t)
    t = re.sub(r"(\d)\s*(k)\b", r"\1 thousand", t)
    t = t.replace("+", " ")
    tokens = re.findall(r"[a-z]+|[$#~]?\d[\d,]*(?:\.\d+)?(?:st|nd|rd|th)?|\.\d+", t.replace("-", " "))
    tokens = [w for w in tokens if w not in _HEDGES]
    if not tokens:
        return None, 1.0
    scale = 1.0
    if tokens[-1] in ("million", "millions"):
        scale, tokens = 1e6, tokens[:-1]
        if not tokens:                                  # "a million"
            return 1.0, scale
    elif tokens[-1] == "thousand" and len(tokens) > 1 and _digits(tokens[0]) is not None:
        scale, tokens = 1e3, tokens[:-1]
    # "half", "one and a half", "two and a half", "a quarter"
    fraction = 0.0
    if tokens and tokens[-1] in ("half", "quarter"):
        fraction = 0.5 if tokens[-1] == "half" else 0.25
        tokens = tokens[:-1]
        if not tokens:
            return fraction, scale
    if len(tokens) == 1 and (v := _digits(tokens[0])) is not None:
        return v + fraction, scale
    if "point" in tokens:                               # "two point five"
        i = tokens.index("point")
        whole = _words_number(tokens[:i]) if i else 0.0
        decimals = tokens[i + 1:]
        if whole is None or not decimals or not all(w in _UNITS and _UNITS[w] < 10 for w in decimals):
            return None, 1.0
        return whole + float("0." + "".join(str(_UNITS[w]) for w in decimals)), scale
    v = _words_number(tokens)
    return (None, 1.0) if v is None else (v + fraction, scale)


def population_millions(text: str) -> float | None:
    """A typed population in millions: "39.5", "39.5 million", "thirty-nine million" and
    "half a million" are millions; a big number (100,000 or more) is a head count."""
    value, scale = _number_and_scale(text)
    if value is None:
        return None
    if scale != 1.0:
        return value * scale / 1e6
    return value / 1_000_000 if value >= 100_000 else value


_DATE = re.compile(r"^\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})\s*$"
                   r"|^\s*(\d{4})\s*-\s*\d{1,2}\s*-\s*\d{1,2}\s*$")


def year_of(text: str) -> int | None:
    """The year in a typed year or date: "1850", "in 1850", "eighteen fifty",
    "September 9, 1850", "9 Sept 1850", "9/9/1850", "1850-09-09"; None when none."""
    m = _DATE.match(text)
    if m:
        return int(m.group(3) or m.group(4))
    words = re.findall(r"[a-z]+|\d+(?:st|nd|rd|th)?", _plain(text).replace("-", " "))
    if any(w in _MONTHS for w in words):
        years = [w for w in words if w.isdigit() and len(w) == 4]
        rest = [w for w in words if w not in _MONTHS and w not in years and w not in _HEDGES
                and not re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", w)]
        if len(years) == 1 and not rest:
            return int(years[0])
        return None
    v = parse_number(text)
    return int(v) if v is not None and v == int(v) else None


def answer_value(typed: str, fact: str, candidates, *, population: int | None = None,
                 state: str | None = None, states: dict[str, str] | None = None) -> str:
    """The recorded answer for typed text: one of `candidates` (the fact's possible
    answers, as the rules write them; the right answer first) or UNKNOWN.

    For a population pass `population`, the exact count the card is judged on: a typed
    figure within one million of it records the right answer (candidates[0]), one
    further off the nearest candidate that is also further off. For a capital pass
    `state` (the code asked about) and `states` (code -> name) to read "City, ST"."""
    candidates = list(candidates)
    if fact in ("capital", "nickname"):
        nick = fact == "nickname"
        text = typed
        if fact == "capital" and states:
            text, named = _state_suffix(typed, states)
            if named is not None and state is not None and named != state:
                return UNKNOWN      # another state's city is not this state's capital
        t = _drop_filler(normalise(text, nick))
        if not t:
            return UNKNOWN
        names = [c for c in candidates if c != UNKNOWN]
        for c in names:              # another answer typed exactly is that answer
            if t.replace(" ", "") == normalise(c, nick).replace(" ", ""):
                return c
        for c in names:              # then a typo, the right answer first
            if _close(t, normalise(c, nick)):
                return c
        return UNKNOWN
    if fact == "population":
        value = population_millions(typed)
        if value is None:
            return UNKNOWN
        if population is None:
            text = _pop_text(round(value, 2))
            return text if text in candidates else UNKNOWN
        exact = population / 1e6
        if abs(value - exact) <= POP_TOLERANCE + 1e-9:
            return candidates[0]
        # wrong: the nearest recorded value that is as wrong (never rounded into the range)
        step = 0.01 if value > exact else -0.01
        v = round(value, 2)
        while abs(v - exact) <= POP_TOLERANCE + 1e-9:
            v = round(v + step, 2)
        text = _pop_text(v)
        return text if text in candidates else UNKNOWN
    if fact in ("settled", "entered"):
        year = year_of(typed)
        text = str(year) if year is not None else ""
        return text if text in candidates else UNKNOWN
    value = parse_number(typed)
    if value is None or value != int(value):
        return UNKNOWN
    text = str(int(value))
    return text if text in candidates else UNKNOWN


def _pop_text(v: float) -> str:
    """A population in millions as the rules record it: tenths as "39.5", hundredths as
    "39.54" (the typed answers' finer values)."""
    return f"{v:.1f}" if round(v * 100) % 10 == 0 else f"{v:.2f}"
