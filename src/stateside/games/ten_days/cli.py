"""`stateside ten-days ...`: a referee for the physical game, and the card colours.

    stateside ten-days check DAY1 ... DAY10   e.g. check CA OR car AZ NM plane-light-blue NY ...
        prints "valid" (exit 0) or one problem per line (exit 1); a word that is no card,
        or a hand nobody could hold, gives a message and exit 2
    stateside ten-days colours                one "AB colour" line per state
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

from stateside.errors import StatesideError
from stateside.games.ten_days.cards import CAR, PLANE_COLOURS, UnknownCardError, is_state, load_cards, plane_colour
from stateside.games.ten_days.journey import DAYS, check_journey

PROG = "stateside ten-days"


class BadHand(StatesideError):
    """The days name cards, but no player could hold them all at once."""


def parse_days(words: list[str]) -> list[str]:
    """Faces from the command line, or UnknownCardError/BadHand saying what is wrong."""
    if len(words) != DAYS:
        raise BadHand(f"a journey has {DAYS} days; you gave {len(words)} card{'s' if len(words) != 1 else ''}")
    cards = load_cards()
    faces = []
    for day, word in enumerate(words, 1):
        try:
            faces.append(cards.parse_token(word))
        except UnknownCardError as e:
            raise UnknownCardError(f"day {day}: {e}") from None
    counts = Counter(faces)
    for face, n in counts.items():
        if is_state(face) and n > 1:
            days = " and ".join(str(d) for d, f in enumerate(faces, 1) if f == face)
            raise BadHand(f"{cards.name(face)} is on days {days}, but there is only one {cards.name(face)} card")
        limit = cards.automobiles if face == CAR else cards.airplanes_per_colour if plane_colour(face) else None
        if limit is not None and n > limit:
            raise BadHand(f"{n} {cards.name(face)} cards, but the game has only {limit}")
    return faces


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="10 Days in the USA: check a journey, or list the colour of each state card.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser(
        "check", help="check a 10-day journey",
        description="Check a 10-day journey. Each day is a postal code (CA), car, or plane-<colour>"
                    f" with a colour among {', '.join(PLANE_COLOURS)}. Prints 'valid' (exit 0) or one"
                    " problem per line (exit 1); unreadable days exit 2.",
    )
    check.add_argument("days", nargs="*", metavar="DAY")
    sub.add_parser("colours", aliases=["colors"], help="print each state's card colour, one 'AB colour' per line")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse has printed its message
        return int(e.code or 0)

    if args.command in ("colours", "colors"):
        try:
            for code, colour in load_cards().state_colour.items():
                print(f"{code} {colour}")
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. `| head`: the reader has what it wanted
            sys.stdout = open(os.devnull, "w")
        return 0

    try:
        faces = parse_days(args.days)
    except StatesideError as e:
        print(f"{PROG} check: {e}", file=sys.stderr)
        return 2
    report = check_journey(faces)
    if report.valid:
        print("valid")
        return 0
    for line in report.lines():
        print(line)
    return 1


if __name__ == "__main__":
    sys.exit(main())
