"""The year bar and the number bar of America, read from resources/america/bars.yaml.

A bar is an ordered list of spaces; each space covers its own value up to, but not
including, the next space's value, and the last space covers everything above it.
Spaces next to each other are adjacent for scoring.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from stateside.data.yamlio import read_yaml
from stateside.errors import DataError
from stateside.paths import resource

BAR_SECTIONS = ("year", "number")


@dataclass(frozen=True)
class Bar:
    section: str                   # "year" or "number"
    labels: tuple[str, ...]        # in order, e.g. ("1492", "1600", ...)
    starts: tuple[float, ...]      # the lowest value each space covers

    def index_for(self, value: float) -> int:
        """Index of the space that holds `value`."""
        if value < self.starts[0]:
            raise DataError(
                f"{self.section} answer {value:g} is below the bar's first space {self.labels[0]}"
            )
        return bisect_right(self.starts, value) - 1

    def space_for(self, value: float) -> str:
        return self.labels[self.index_for(value)]

    def index(self, label: str) -> int:
        try:
            return self.labels.index(label)
        except ValueError:
            raise DataError(f"{label!r} is not a space of the {self.section} bar") from None

    def adjacent(self, a: str, b: str) -> bool:
        return abs(self.index(a) - self.index(b)) == 1

    def span(self, label: str) -> str:
        """The values a space covers, in words, e.g. "1875 to 1899" or "1M to under 10M"."""
        i = self.index(label)
        if i == len(self.labels) - 1:
            return f"{label} or more"
        nxt = self.starts[i + 1]
        if self.section == "year":
            return f"{int(self.starts[i])} to {int(nxt) - 1}"
        return f"{label} to under {self.labels[i + 1]}"


def parse_bars(data: object, where: str) -> dict[str, Bar]:
    if not isinstance(data, dict):
        raise DataError(f"{where}: expected a mapping with 'year' and 'number'")
    bars = {}
    for section in BAR_SECTIONS:
        spaces = data.get(section)
        if not isinstance(spaces, list) or len(spaces) < 3:
            raise DataError(f"{where}: '{section}' must be a list of at least three spaces")
        labels, starts = [], []
        for n, space in enumerate(spaces, 1):
            label = f"{where}: {section} space {n}"
            if not isinstance(space, dict) or set(space) != {"label", "from"}:
                raise DataError(f"{label}: expected {{label: ..., from: ...}}")
            text, start = space["label"], space["from"]
            if not isinstance(text, str) or not text.strip():
                raise DataError(f"{label}: 'label' must be a non-empty text")
            if isinstance(start, bool) or not isinstance(start, (int, float)) or not math.isfinite(start):
                raise DataError(f"{label}: 'from' must be a number, got {start!r}")
            if starts and start <= starts[-1]:
                raise DataError(f"{label} ({text}): 'from' must be above the previous space's {starts[-1]:g}")
            if text in labels:
                raise DataError(f"{label}: label {text!r} is used twice")
            labels.append(text)
            starts.append(start)
        bars[section] = Bar(section, tuple(labels), tuple(starts))
    return bars


def read_bars(path: Path) -> dict[str, Bar]:
    return parse_bars(read_yaml(path), str(path))


@cache
def load_bars() -> dict[str, Bar]:
    """The bundled bars: {"year": Bar, "number": Bar}."""
    return read_bars(resource("america", "bars.yaml"))


def check_data() -> None:
    """Load every data file America needs (the app calls this before opening it);
    raises DataError naming the first broken file and entry. The borders with the
    game's corrections are among them: a broken borders.yaml must stop the game at
    the chooser, not at the first computer turn."""
    from stateside.data.states import load_states
    from stateside.geo.atlas import load_atlas
    from stateside.geo.borders import load_borders

    load_atlas()
    load_states()
    load_bars()
    load_borders("america")
    from stateside.games.america.deck import load_deck  # cached there: the rules' copy is this one

    load_deck()
