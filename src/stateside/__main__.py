"""The `stateside` command.

    stateside [FILE] [--mode NAME] [--screenshot OUT] [--size WxH]
                                                              the app (or a PNG of its window),
                                                              FILE a saved game to open
    stateside borders [--rules NAME]                           the borders graph, one pair a line
    stateside selfplay GAME --players ai:hard,ai:easy [--games N] [--seed S]
    stateside server [--nats URL] [--host H] [--port N] [--data DIR]
                                                              online play: NATS + JetStream and a referee
    stateside GAME ...                                         a game's own commands (e.g. ten-days check)

Errors in what you typed or in data files print one clear line and exit 2; nothing
here prints a traceback for a mistake a person can fix.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

from stateside.errors import StatesideError

SUBCOMMANDS = ("borders", "selfplay", "server")


def _fail(message: str, code: int = 2) -> int:
    print(f"stateside: {message}", file=sys.stderr)
    return code


# Every count typed on the command line has a range: 10**20 games would run for ever.
MAX_GAMES = 100_000
SEED_RANGE = (0, 2**62)   # game i uses seed+i, and a save holds a seed below 2**63


def whole_number(text: str, option: str, lo: int, hi: int) -> int:
    """`text` as a whole number from lo to hi, or ValueError saying so in one line."""
    stripped = text.strip()
    # the length first: int() of thousands of digits is slow, and refused past 4300
    digits = stripped[1:] if stripped[:1] in "+-" else stripped
    value = int(stripped) if digits.isdigit() and len(digits) <= 20 and digits.isascii() else None
    if value is None or not lo <= value <= hi:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"{option} must be a whole number from {lo} to {hi}, not {shown}")
    return value


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
    from stateside.engine.match import check_seats, rules_for
    from stateside.games import discover_games
    from stateside.selfplay import format_stats, run_selfplay

    games = [g.id for g in discover_games() if g.rules]
    parser = argparse.ArgumentParser(prog="stateside selfplay",
                                     description="Seeded games between computer players; one line per player.")
    parser.add_argument("game", help=f"one of: {', '.join(games) or '(none installed)'}")
    parser.add_argument("--players", required=True,
                        help="comma-separated player specs, e.g. ai:hard,ai:easy or random")
    parser.add_argument("--games", default="100", help=f"1 to {MAX_GAMES} (default 100)")
    parser.add_argument("--seed", default="1", help=f"{SEED_RANGE[0]} to {SEED_RANGE[1]} (default 1)")
    parser.add_argument("--variant", help="a way to play, for games that have several")
    parser.add_argument("--map", dest="variant", help="the same as --variant, for Carcassonne's maps")
    args = parser.parse_args(argv)
    if args.game not in games:
        return _fail(f"selfplay: unknown game {args.game!r} (choose from {', '.join(games)})")
    try:
        args.games = whole_number(args.games, "--games", 1, MAX_GAMES)
        args.seed = whole_number(args.seed, "--seed", *SEED_RANGE)
    except ValueError as e:
        return _fail(f"selfplay: {e}")
    specs = [s.strip() for s in args.players.split(",")]
    try:
        if "human" in specs:
            raise ValueError("self-play seats are computers: random or ai:<level>, not human")
        rules = rules_for(args.game)
        check_seats(rules, specs)
        if args.variant is not None and args.variant not in rules.spec.variants:
            raise ValueError(f"no variant {args.variant!r} (variants: {', '.join(rules.spec.variants) or 'none'})")
    except ValueError as e:
        return _fail(f"selfplay {args.game}: {e}")
    report = getattr(rules, "selfplay_report", None)   # a game's own figures, where it has some
    tally = report(args.variant) if report else None
    stats = run_selfplay(args.game, specs, args.games, args.seed, variant=args.variant,
                         on_game=tally.add if tally else None)
    variant = f", variant {args.variant}" if args.variant else ""
    print(f"{args.game}{variant}: {args.games} games, seed {args.seed}, seats rotate each game")
    print("\n".join(format_stats(stats)))
    if tally:
        print("\n".join(tally.lines()))
    return 0


def cmd_server(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="stateside server",
        description="Host online tables: start nats-server with JetStream and a referee (or, with "
                    "--nats, only a referee against an existing NATS server or cluster).")
    parser.add_argument("--nats", metavar="URL",
                        help="run only a referee against this NATS (nats://HOST:PORT; the referee's credentials "
                             "come from the --auth-dir folder or the file $STATESIDE_REFEREE_CREDS names)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address nats-server listens on (default 127.0.0.1; 0.0.0.0 for a network)")
    parser.add_argument("--port", type=int, default=4222, help="port nats-server listens on (default 4222)")
    parser.add_argument("--data", metavar="DIR", help="folder for the server's configuration and game logs "
                                                      "(default: the user's data folder)")
    parser.add_argument("--auth-dir", metavar="DIR",
                        help="with --nats: the data folder of the server (its keys: this referee signs seats)")
    parser.add_argument("--replicas", type=int, default=1, choices=(1, 3, 5),
                        help="copies of each game's log kept by a cluster (default 1)")
    parser.add_argument("--share", metavar="I/N",
                        help="with --nats: serve only the i-th of n shares of the tables (e.g. 2/4), "
                             "so that n referees split the tables between them")
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        return _fail(f"server: --port must be 1 to 65535, not {args.port}")
    if args.nats is not None and not args.nats.strip():
        return _fail("server: --nats needs the address of a NATS server, e.g. nats://HOST:4222")
    if args.auth_dir and not args.nats:
        return _fail("server: --auth-dir goes with --nats (the embedded server signs its own seats)")
    try:
        import nats  # noqa: F401
    except ImportError:
        return _fail("server: online play needs its extra: pip install 'stateside[online]'")
    import asyncio
    import signal
    from pathlib import Path

    from stateside.online.server import (
        PASSWORD_ON_COMMAND_LINE,
        ServerError,
        default_data_dir,
        has_password,
        run_server,
    )

    if args.nats and has_password(args.nats):
        return _fail(f"server: {PASSWORD_ON_COMMAND_LINE}")

    data = Path(args.data) if args.data else default_data_dir()
    share = None
    if args.share:
        if not args.nats:
            return _fail("server: --share goes with --nats (one referee of several against one server)")
        from stateside.online import protocol as online_protocol

        try:
            share = online_protocol.parse_share(args.share)
        except ValueError as e:
            return _fail(f"server: --share: {e}")

    def ready(server, referee):
        if server is not None:
            print(f"stateside server: NATS with JetStream on {server.url}, data in {server.data_dir}")
            print(f"players connect to nats://{'<this machine>' if args.host == '0.0.0.0' else args.host}"
                  f":{server.port}; referee {referee.name} ready (Ctrl+C stops)", flush=True)
        else:
            print(f"stateside server: referee {referee.name} ready on {args.nats.split('@')[-1]} "
                  "(Ctrl+C stops)", flush=True)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):   # Windows: Ctrl+C raises instead
                pass
        await run_server(args.host, args.port, data, args.nats,
                         auth_dir=Path(args.auth_dir) if args.auth_dir else None,
                         replicas=args.replicas, ready=ready, stop_event=stop,
                         share=share)

    try:
        asyncio.run(main())
    except ServerError as e:
        return _fail(f"server: {e}")
    except OSError as e:
        return _fail(f"server: cannot reach NATS ({e})")
    return 0


SIZE_LIMITS = (320, 8192)   # pixels a side for --size


def cmd_app(argv: list[str], quick_exit: bool = False) -> int:
    # Python's cycle collector paused until the map has first painted and the mode is built
    # (run_app resumes it): importing PySide6 and the app and building the window make
    # hundreds of thousands of objects and little garbage, and the collector's passes over
    # them cost start-up 10-20 ms. (Resumed here too if run_app returns before, as after a
    # mistake on the command line.)
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        return _app(argv, quick_exit, resume_gc=gc_was_on)
    finally:
        if gc_was_on:
            gc.enable()


def _usual_start(argv: list[str]):
    """The arguments of the usual starts, none or `--mode NAME`, read without argparse:
    building its parser costs start-up about 3 ms (it looks up translations of its own
    messages). Anything else (None) goes to the parser, as before."""
    import types

    if not argv:
        mode = None
    elif len(argv) == 2 and argv[0] == "--mode" and argv[1] and not argv[1].startswith("-"):
        mode = argv[1]
    else:
        return None
    return types.SimpleNamespace(file=None, mode=mode, screenshot=None, size=None, map=None)


def _app(argv: list[str], quick_exit: bool, resume_gc: bool) -> int:
    args = _usual_start(argv)
    if args is None:
        args = _parse_app_args(argv)
    return _app_checked(args, quick_exit, resume_gc)


def _parse_app_args(argv: list[str]):
    parser = argparse.ArgumentParser(prog="stateside", description="Board games about the United States.",
                                     epilog="Other commands: stateside borders | selfplay | server | <game> ... "
                                            "(each takes --help)")
    parser.add_argument("file", nargs="?", metavar="FILE", help="a saved game to open (.json)")
    parser.add_argument("--mode", metavar="NAME", help="open this mode first (e.g. explorer, ten-days)")
    parser.add_argument("--screenshot", metavar="OUT", help="render the main window to a PNG and exit")
    parser.add_argument("--size", metavar="WxH", default=None, help="window size for --screenshot (default 1280x800)")
    parser.add_argument("--map", metavar="NAME", help="Carcassonne: start a game on this board (usa-west, usa-east, "
                                                      "usa or table); implies --mode carcassonne")
    return parser.parse_args(argv)


def _app_checked(args, quick_exit: bool, resume_gc: bool) -> int:
    if args.screenshot is not None and not args.screenshot.strip():
        return _fail("--screenshot: give the name of the PNG file to write")
    if args.file is not None and not os.path.isfile(args.file):
        return _fail(f"{args.file}: no such saved game")
    if args.file is not None and args.mode is not None:
        return _fail("give a saved game or --mode, not both (a save opens in its own game)")
    if args.map is not None:
        from stateside.games.carcassonne.engine import VARIANTS

        if args.map not in VARIANTS:
            return _fail(f"--map: no Carcassonne board {args.map[:40]!r} (boards: {', '.join(VARIANTS)})")
        if args.file is not None:
            return _fail("give a saved game or --map, not both (a save opens on its own board)")
        if args.mode not in (None, "carcassonne"):
            return _fail(f"--map goes with Carcassonne, not --mode {args.mode[:40]}")
        args.mode = "carcassonne"
    size = None
    if args.size:
        lo, hi = SIZE_LIMITS
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            return _fail(f"--size: expected WIDTHxHEIGHT such as 1280x800, got {args.size!r}")
        if not (lo <= w <= hi and lo <= h <= hi):
            return _fail(f"--size: each side must be {lo} to {hi} pixels, got {args.size!r}")
        size = (w, h)
    from stateside.app.main import run_app

    return run_app(mode=args.mode, screenshot=args.screenshot, size=size, open_file=args.file,
                   quick_exit=quick_exit, variant=args.map, resume_gc=resume_gc)


def _looks_like_a_file(token: str) -> bool:
    return os.path.sep in token or token.endswith(".json") or os.path.isfile(token)


def main(argv: list[str] | None = None, *, quick_exit: bool = False) -> int:
    """The command's exit code. `quick_exit`: the app's process ends as soon as its window
    is done (see run_app); only for a process that is `stateside` itself, not a caller."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "borders":
            return cmd_borders(argv[1:])
        if argv and argv[0] == "selfplay":
            return cmd_selfplay(argv[1:])
        if argv and argv[0] == "server":
            return cmd_server(argv[1:])
        if argv and not argv[0].startswith("-") and not _looks_like_a_file(argv[0]):
            from stateside.games import discover_games, load_object

            game = next((g for g in discover_games() if g.id == argv[0]), None)
            if game is None or not game.cli:
                known = list(SUBCOMMANDS) + [g.id for g in discover_games() if g.cli]
                return _fail(f"unknown command {argv[0]!r} (commands: {', '.join(known)}; "
                             "run 'stateside --help' for the app's options)")
            return load_object(game.cli)(argv[1:])
        return cmd_app(argv, quick_exit)
    except StatesideError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # e.g. `stateside borders | head`: the reader has gone
        sys.stderr.close()
        return 0


def run() -> None:
    """The `stateside` command (console script, `python -m stateside`, the binary)."""
    sys.exit(main(quick_exit=True))


if __name__ == "__main__":
    run()
