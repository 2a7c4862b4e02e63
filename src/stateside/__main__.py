"""The `stateside` command.

    stateside [--mode NAME] [--screenshot FILE] [--size WxH]   the app (or a PNG of its window)
    stateside borders [--rules NAME]                           the borders graph, one pair a line
    stateside selfplay GAME --players ai:hard,ai:easy [--games N] [--seed S]
    stateside GAME ...                                         a game's own commands (e.g. ten-days check)

Errors in what you typed or in data files print one clear line and exit 2; nothing
here prints a traceback for a mistake a person can fix.
"""
from __future__ import annotations

import argparse
import sys

from stateside.errors import StatesideError

SUBCOMMANDS = ("borders", "selfplay")


def _fail(message: str, code: int = 2) -> int:
    print(f"stateside: {message}", file=sys.stderr)
    return code


def cmd_borders(argv: list[str]) -> int:
    from stateside.geo.borders import RULESETS, load_borders

    parser = argparse.ArgumentParser(prog="stateside borders",
                                     description="Print the pairs of bordering states, one per line as AB-CD.")
    parser.add_argument("--rules", metavar="NAME", choices=RULESETS,
                        help=f"apply a game's corrections ({', '.join(RULESETS)})")
    args = parser.parse_args(argv)
    print("\n".join(load_borders(args.rules).lines()))
    return 0


def cmd_selfplay(argv: list[str]) -> int:
    from stateside.games import discover_games, load_object
    from stateside.selfplay import format_stats, run_selfplay

    games = {g.id: g for g in discover_games() if g.selfplay}
    parser = argparse.ArgumentParser(prog="stateside selfplay",
                                     description="Seeded games between computer players; one line per player.")
    parser.add_argument("game", help=f"one of: {', '.join(games) or '(none installed)'}")
    parser.add_argument("--players", required=True,
                        help="comma-separated player specs, e.g. ai:hard,ai:easy or random")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.game not in games:
        return _fail(f"selfplay: unknown game {args.game!r} (choose from {', '.join(games)})")
    if args.games < 1:
        return _fail("selfplay: --games must be at least 1")
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    play_game = load_object(games[args.game].selfplay)
    try:
        stats = run_selfplay(play_game, specs, args.games, args.seed)
    except ValueError as e:   # the games reject an unknown player spec this way
        return _fail(f"selfplay {args.game}: {e}")
    print(f"{args.game}: {args.games} games, seed {args.seed}, seats rotate each game")
    print("\n".join(format_stats(stats)))
    return 0


def cmd_app(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="stateside", description="Board games about the United States.",
                                     epilog="Other commands: stateside borders | selfplay | <game> ... "
                                            "(each takes --help)")
    parser.add_argument("--mode", metavar="NAME", help="open this mode first (e.g. explorer, ten-days)")
    parser.add_argument("--screenshot", metavar="FILE", help="render the main window to a PNG and exit")
    parser.add_argument("--size", metavar="WxH", default=None, help="window size for --screenshot (default 1280x800)")
    args = parser.parse_args(argv)
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            if w < 200 or h < 150:
                raise ValueError
            size = (w, h)
        except ValueError:
            return _fail(f"--size: expected WIDTHxHEIGHT such as 1280x800, got {args.size!r}")
    from stateside.app.main import run_app

    return run_app(mode=args.mode, screenshot=args.screenshot, size=size)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "borders":
            return cmd_borders(argv[1:])
        if argv and argv[0] == "selfplay":
            return cmd_selfplay(argv[1:])
        if argv and not argv[0].startswith("-"):
            from stateside.games import discover_games, load_object

            game = next((g for g in discover_games() if g.id == argv[0]), None)
            if game is None or not game.cli:
                known = list(SUBCOMMANDS) + [g.id for g in discover_games() if g.cli]
                return _fail(f"unknown command {argv[0]!r} (commands: {', '.join(known)}; "
                             "run 'stateside --help' for the app's options)")
            return load_object(game.cli)(argv[1:])
        return cmd_app(argv)
    except StatesideError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # e.g. `stateside borders | head`: the reader has gone
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
