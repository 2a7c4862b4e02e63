"""Online play through a real nats-server (started here on 127.0.0.1 at a free port):
headless clients play whole games through the referee and reach exactly the result of
the same seeded match played locally; a client killed mid-game and a referee killed
mid-game are replaced and nothing is lost; each seat sees only what it may."""
from __future__ import annotations

import asyncio
import random

import pytest

from stateside.engine.match import Match, seat_rng_seed
from stateside.engine.protocol import CHANCE

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.online import client as C  # noqa: E402
from stateside.online.referee import Referee  # noqa: E402
from online_support import NEEDS_NATS, bare_server_per_module  # noqa: E402

pytestmark = NEEDS_NATS
server = bare_server_per_module()


def seeded_random(seed):
    """The choice a local Match's "random" seat would make: same generator, same order."""
    def choose(client):
        rng = random.Random(seat_rng_seed(seed, client.seat, client.n))
        return client.legal[rng.randrange(len(client.legal))]
    return choose


async def open_table(srv, game, seats, seed, names=None, options=None):
    host = await C.host_table(srv.guest_url(), game, seats, names, options, seed=seed)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    creds = [await C.join_table(srv.guest_url(), host["table"], s) for s in humans]
    clients = [await C.SeatClient(srv.guest_url(), c).connect() for c in creds]
    return host, clients


def local_match(game, seats, seed, setup):
    local = Match(game, ["random" if s == "human" else s for s in seats], seed, setup)
    local.play_out()
    return local


async def referee_for(srv):
    ref = Referee(srv.referee_url(), authorizer=srv.authorizer, allow_chosen_seed=True)
    await ref.start()
    return ref


def play_whole_game(srv, game, seats, seed, options=None):
    async def go():
        ref = await referee_for(srv)
        try:
            host, clients = await open_table(srv, game, seats, seed, options=options)
            await asyncio.gather(*(c.play(seeded_random(seed), timeout=60) for c in clients))
            matches = [c.verify() for c in clients]
            for c in clients:
                await c.close()
            return host, clients, matches
        finally:
            await ref.stop()
    return asyncio.run(go())


@pytest.mark.parametrize("game,seats,seed,options", [
    ("america", ["human", "human", "random"], 12, None),
    ("carcassonne", ["human", "human"], 13, None),
    ("game-of-the-states", ["human", "human"], 14, {"variant": "buy-and-sell"}),
    ("game-of-the-states", ["human", "human", "random"], 15, {"variant": "trivia", "answers": "choices"}),
    ("game-of-the-states", ["human", "human"], 16, {"variant": "junior"}),
    ("game-of-the-states", ["human", "human"], 17, {"variant": "trivia", "answers": "typed"}),
])
def test_two_clients_play_a_whole_game_as_a_local_match(server, game, seats, seed, options):
    host, clients, matches = play_whole_game(server, game, seats, seed, options)
    online = matches[0]
    if options:
        assert all(online.initial_setup[k] == v for k, v in options.items())
    local = local_match(game, seats, seed, online.initial_setup)
    assert online.actions == local.actions
    assert online.state.returns() == local.state.returns()
    assert online.state.scores() == local.state.scores()
    assert clients[0].end["returns"] == local.state.returns()
    # Every seat's last view is its observation in the local game.
    for c in clients:
        assert c.observation == local.state.observation(c.seat)
        assert len(c.entries) == len(local.log)
    # The finished game is an ordinary save: it replays the same way.
    assert Match.from_json(online.to_json()).state.returns() == local.state.returns()


def test_ten_days_online_is_the_local_game_and_each_seat_sees_only_its_own(server):
    seed = 21
    _, clients, matches = play_whole_game(server, "ten-days", ["human", "human"], seed)
    full = matches[0]
    local = local_match("ten-days", ["human", "human"], seed, full.initial_setup)
    assert full.actions == local.actions and full.state.returns() == local.state.returns()
    assert [c.observation for c in clients] == [local.state.observation(s) for s in (0, 1)]
    hidden = [{e["n"] for e in c.entries if e.get("hidden")} for c in clients]
    assert hidden[0] and hidden[1] and not hidden[0] & hidden[1]
    for c, other in ((clients[0], 1), (clients[1], 0)):
        for e in c.entries:
            if e.get("hidden"):
                assert "action" not in e and "events" not in e
                # a draw, or where the other seat put a card in its rack (racks face their owner)
                assert full.log[e["n"]].seat in (CHANCE, other)
                # the rules' words for this seat, which name no card ("Player 2 was dealt a card")
                assert e["text"] == full.log[e["n"]].words_for(c.seat)
                assert e["text"] != full.log[e["n"]].text
            else:
                assert e["action"] == full.state.action_to_json(full.log[e["n"]].action)
    # What is hidden from one seat is a draw into the other's hand or a move in its rack:
    # that seat saw it, and the public saw none of it.
    assert all(not clients[1].entries[n].get("hidden") for n in hidden[0])
    assert any(full.log[n].seat == CHANCE for n in hidden[0])


def test_a_client_killed_mid_game_comes_back_and_loses_nothing(server):
    seed, seats = 31, ["human", "human"]

    async def go():
        ref = await referee_for(server)
        try:
            host, (a, b) = await open_table(server, "ten-days", seats, seed)
            b_task = asyncio.create_task(b.play(seeded_random(seed), timeout=60))
            await a.play(seeded_random(seed), stop_after=15)
            seen_before = a.n
            await a.close()   # this client is gone; a new one takes its credentials
            await asyncio.sleep(0.3)
            creds = a.credentials   # (its JWT and key: the same seat, signed in again)
            a2 = await C.SeatClient(server.guest_url(), creds).connect()
            for _ in range(50):
                if a2.n >= seen_before:
                    break
                await a2.wait_change(5)
            assert a2.entries[:seen_before] == a.entries[:seen_before]
            await asyncio.gather(a2.play(seeded_random(seed), timeout=60), b_task)
            match = a2.verify()
            await a2.close()
            await b.close()
            return match
        finally:
            await ref.stop()

    online = asyncio.run(go())
    local = local_match("ten-days", seats, seed, online.initial_setup)
    assert online.actions == local.actions and online.state.returns() == local.state.returns()


def test_a_referee_killed_mid_game_is_replaced_and_the_game_goes_on(server):
    seed, seats = 41, ["human", "human", "random"]

    async def go():
        first = await referee_for(server)
        host, clients = await open_table(server, "america", seats, seed)
        playing = [asyncio.create_task(c.play(seeded_random(seed), timeout=60)) for c in clients]
        while clients[0].n < 12:
            await clients[0].wait_change(10)
        await first.kill()   # mid-game, with the clients still sending intents
        await asyncio.sleep(0.2)
        second = await referee_for(server)   # reads the log and carries on
        try:
            assert second.tables[host["table"]].n >= 12
            await asyncio.gather(*playing)
            match = clients[0].verify()
            for c in clients:
                await c.close()
            return match
        finally:
            await second.stop()

    online = asyncio.run(go())
    local = local_match("america", seats, seed, online.initial_setup)
    assert online.actions == local.actions and online.state.returns() == local.state.returns()
