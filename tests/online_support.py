"""What the online tests share: a real nats-server with a referee in its own thread (as
`stateside server` runs one). Import the `server` fixture by name:
`from online_support import RefereeThread, server  # noqa: F401`. A test file that starts
its own referees takes a bare server for the whole module instead:
`server = bare_server_per_module()`, and `pytestmark = NEEDS_NATS`."""
from __future__ import annotations

import asyncio
import threading

import pytest

from stateside.online.referee import Referee
from stateside.online.server import NatsServer, find_nats_server

NEEDS_NATS = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")


class RefereeThread:
    """A referee in its own thread and event loop, as `stateside server` runs one."""

    def __init__(self, srv: NatsServer):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.referee = Referee(srv.referee_url(), authorizer=srv.authorizer, allow_chosen_seed=True)
        asyncio.run_coroutine_threadsafe(self.referee.start(), self.loop).result(20)

    def stop(self):
        asyncio.run_coroutine_threadsafe(self.referee.stop(), self.loop).result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def server(tmp_path):
    """A nats-server with JetStream on a free port of 127.0.0.1, and a referee on it."""
    srv = NatsServer(tmp_path / "nats").start()
    ref = RefereeThread(srv)
    srv.referee = ref.referee   # a test may wait for the referee's own copy of a table
    yield srv
    ref.stop()
    srv.stop()


def bare_server_per_module():
    """A `server` fixture: one nats-server with JetStream and no referee for a test module."""
    @pytest.fixture(scope="module")
    def server(tmp_path_factory):
        srv = NatsServer(tmp_path_factory.mktemp("nats")).start()
        yield srv
        srv.stop()
    return server


def two_at_one_table(qtbot, a, sa, b, sb, game, kinds, names, options=None, seed=None) -> None:
    """Screen a (session sa) hosts a table of `game`; screen b (sb) joins it by its code;
    each screen then plays its seat (0 and 1)."""
    sa.host(game, kinds, names, options or {}, seed=seed)
    qtbot.waitUntil(lambda: sa.table is not None, timeout=10000)
    a.attach_online(sa)
    sb.join(sa.table)
    qtbot.waitUntil(lambda: sb.table is not None, timeout=10000)
    b.attach_online(sb)
    assert (sa.seat, sb.seat) == (0, 1)
