"""The messages of online play: subjects, size limits, validation, the seed's hash.
Pure Python; see ARCHITECTURE.md for the flow.

Every message is one JSON object with a "type". Anything a client sends is checked
here before the referee looks at it; a bad message gets a ProtocolError whose text is
the refusal the client reads.
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import Any

try:   # the online extra installs it: about 15x faster than json for the referee's messages
    import orjson
except ImportError:   # pragma: no cover - the standard library writes the same JSON
    orjson = None

PREFIX = "ss"
LOBBY_HOST = f"{PREFIX}.lobby.host"      # guest -> referee: open a table
LOBBY_JOIN = f"{PREFIX}.lobby.join"      # guest -> referee: take a seat, get credentials
LOBBY_LOOK = f"{PREFIX}.lobby.look"      # guest -> referee: who is seated at a table
LOBBY_LIST = f"{PREFIX}.lobby.list"      # guest -> referee: the server's public tables
LOBBY_WATCH = f"{PREFIX}.lobby.watch"    # guest -> referee: watch a public table (a spectator's credentials)
REFEREE_LIST = f"{PREFIX}.ref.list"      # referee -> every referee: your public tables (referees only)
MAX_LISTED = 100                         # tables in one list
DONE_STREAM = "STATESIDE_DONE"           # the public tables that finished, newest last (a listing each)
DONE_SUBJECTS = f"{PREFIX}.done.*"       # ss.done.<T>: one message per finished public table
DONE_KEPT = 1_000                        # listings the stream keeps (the oldest go first)
MAX_FINISHED = 20                        # finished tables in one list, the most recent first
LOG_STREAM = "STATESIDE_LOG"             # the JetStream stream of every game's log
LOG_SUBJECTS = f"{PREFIX}.log.>"
REFEREE_QUEUE = "referees"               # several referees share the work

MAX_INTENT_BYTES = 8 * 1024              # what a client may send (a move is tens of bytes)
MAX_LOBBY_BYTES = 4 * 1024
MAX_SERVER_PAYLOAD = 1024 * 1024         # the largest message (a finished game's full log)
MAX_TABLES = 10_000                      # open tables a referee will host
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L: read aloud, typed by hand
CODE_LENGTH = 6
_CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


class ProtocolError(ValueError):
    """A message that is refused; its text is what the sender is told."""


class RateLimit:
    """Token buckets by key: `rate` messages a second on average, `burst` at once. What
    a key sends beyond that is dropped before it costs the referee anything more."""

    def __init__(self, rate: float, burst: float, clock=None, max_keys: int = 100_000):
        import time

        self.rate, self.burst = float(rate), float(burst)
        self.clock = clock or time.monotonic
        self.max_keys = max_keys
        self._buckets: dict = {}   # key -> (tokens, when)

    def allow(self, key, cost: float = 1.0) -> bool:
        now = self.clock()
        tokens, when = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < cost:
            self._buckets[key] = (tokens, now)
            return False
        if len(self._buckets) >= self.max_keys and key not in self._buckets:
            self._forget_full(now)
        self._buckets[key] = (tokens - cost, now)
        return True

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they remember nothing): memory stays bounded."""
        full = [k for k, (t, w) in self._buckets.items() if t + (now - w) * self.rate >= self.burst]
        for k in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[k]


def log_subject(table: str) -> str:
    return f"{PREFIX}.log.{table}"


def done_subject(table: str) -> str:
    return f"{PREFIX}.done.{table}"


def intent_subject(table: str, seat: int) -> str:
    return f"{PREFIX}.t.{table}.in.{seat}"


def public_subject(table: str) -> str:
    return f"{PREFIX}.t.{table}.pub"


def private_subject(table: str, seat: int) -> str:
    return f"{PREFIX}.t.{table}.seat.{seat}"


INTENT_WILDCARD = f"{PREFIX}.t.*.in.*"

# Several referees: the server maps each seat's intent subject to one of PARTITIONS
# partitions by a hash of the table code (the mapping in nats.conf, see server.py), so
# that one referee handles every intent of a table and keeps it in memory; without that,
# any referee may get any intent, re-reads the log and mostly loses the race to append.
PARTITIONS = 16
PARTITION_MAPPING = (INTENT_WILDCARD,
                     f"{PREFIX}.p.{{{{partition({PARTITIONS},1)}}}}.t.{{{{wildcard(1)}}}}.in.{{{{wildcard(2)}}}}")


def partition_wildcard(k: int | str) -> str:
    """The intents of partition k (or "*": of every partition), as the mapping delivers them."""
    return f"{PREFIX}.p.{k}.t.*.in.*"


def partition_of(table: str) -> int:
    """The partition the server maps a table's intents to: NATS's partition() transform,
    FNV-1a (32 bits) of the table code, modulo PARTITIONS (tests/test_online_partitions.py
    holds it against a real server). A referee with a share hosts only codes of its own
    partitions and hands a join or look for another's table to that table's owner, so a
    table has one referee from the first join to the end."""
    h = 0x811C9DC5
    for byte in table.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h % PARTITIONS


def partition_lobby_subject(k: int, kind: str) -> str:
    """Where a referee hands a lobby request (join, look) to the owner of partition k
    (referees only: no guest or seat may publish or subscribe there)."""
    return f"{PREFIX}.p.{k}.lobby.{kind}"


def mapped_intent_subject(table: str, seat: int) -> str:
    """A seat's intent subject after the mapping, whatever its partition."""
    return f"{PREFIX}.p.*.t.{table}.in.{seat}"


def parse_share(text: str) -> tuple[int, int]:
    """"i/n": the i-th of n referees that split the partitions between them (i from 1)."""
    try:
        i, n = (int(x) for x in str(text).split("/"))
    except ValueError:
        raise ProtocolError(f"a share is i/n such as 1/4, not {text!r}") from None
    if not 1 <= i <= n <= PARTITIONS:
        raise ProtocolError(f"a share i/n needs 1 <= i <= n <= {PARTITIONS}, not {text!r}")
    return i, n


def share_partitions(share: tuple[int, int]) -> list[int]:
    i, n = share
    return [k for k in range(PARTITIONS) if k % n == i - 1]


def parse_intent_subject(subject: str) -> tuple[str, int]:
    """The table and seat of an intent, as sent (ss.t.T.in.S) or mapped (ss.p.K.t.T.in.S)."""
    parts = subject.split(".")
    if len(parts) == 7 and parts[1] == "p":
        parts = parts[:1] + parts[3:]
    if len(parts) != 5 or parts[1] != "t" or parts[3] != "in" or not parts[4].isdigit():
        raise ProtocolError(f"not an intent subject: {subject!r}")
    return parts[2], int(parts[4])


class Conflict(Exception):
    """Someone else appended to this game's log first: reload it and think again."""


def refusal(reason: str, intent_id: str = "") -> dict:
    """The message that refuses an intent, with the reason the seat reads."""
    return {"type": "refused", "id": intent_id, "reason": reason}


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def check_code(code: Any) -> str:
    if not isinstance(code, str) or not _CODE_RE.match(code.strip().upper()):
        raise ProtocolError(f"a table code is {CODE_LENGTH} letters and digits such as "
                            f"'K7QX3M', not {str(code)[:20]!r}")
    return code.strip().upper()


def encode(message: dict) -> bytes:
    """Compact JSON. orjson writes what json.dumps(separators=(",", ":")) writes, except
    non-ASCII text as UTF-8 rather than \\u escapes (the same JSON once read); what it
    cannot write (an integer beyond 64 bits) goes through json as before."""
    if orjson is not None:
        try:
            return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:
            pass
    # (the leading space, valid JSON, tells decode() not to read it with orjson)
    return b" " + json.dumps(message, separators=(",", ":")).encode()


MAX_DEPTH = 16   # a move nests a few levels; deeper is refused before anything reads it


def _nesting(data: bytes, limit: int) -> int:
    """How deeply [ and { nest in JSON text, brackets inside strings ignored (a message
    has passed its size limit, so this loop is bounded; json.loads would recurse)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:        # backslash
                escaped = True
            elif byte == 0x22:        # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):    # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def decode(data: bytes, limit: int, what: str = "message", max_depth: int | None = MAX_DEPTH) -> dict:
    """A received JSON object, or ProtocolError saying what is wrong with it: too large,
    nested deeper than max_depth, not JSON (NaN and Infinity included), not an object.
    Clients read the referee's own messages with max_depth None (a long game's sync has
    thousands of brackets; the referee is the one writer they trust)."""
    if len(data) > limit:
        raise ProtocolError(f"{what} too large: {len(data)} bytes (at most {limit})")
    # Counting brackets is cheap; the exact scan runs only when they could nest too deep.
    if max_depth is not None and data.count(b"[") + data.count(b"{") > max_depth \
            and _nesting(data, max_depth) > max_depth:
        raise ProtocolError(f"{what} is nested too deeply (at most {max_depth} levels)")
    msg = None
    if max_depth is None and orjson is not None and data[:1] == b"{":
        # The referee's own messages (about 1.4 KB an update, two a turn): orjson reads them in
        # a third of json's time. What it refuses (a lone surrogate, bad JSON) goes through
        # json, which reads it or says what is wrong, as before; so does what encode() wrote
        # with json (it starts with a space: an integer beyond 64 bits, which orjson would
        # read as a float).
        try:
            msg = orjson.loads(data)
        except orjson.JSONDecodeError:
            msg = None
    try:
        if msg is None:
            msg = _DECODER.decode(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ProtocolError(f"{what} is not valid JSON ({str(e)[:80]})") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError(f"{what} must be a JSON object with a \"type\"")
    return msg


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a message may hold")


# What json.loads(text, parse_constant=_no_constant) builds at every call, built once (a
# decoder holds no state between calls): 3-5 µs less for each message read.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def check_intent(msg: dict) -> dict:
    """An intent from a seat: {"type": "act", "n": N, "action": ..., "id": "..."} or
    {"type": "sync", "since": N}, {"type": "leave"}, {"type": "resign"} or {"type": "ping"}
    (a heartbeat, see PING). Returns it with its fields checked."""
    kind = msg["type"]
    mid = msg.get("id", "")
    if not isinstance(mid, str) or len(mid) > 64:
        raise ProtocolError("\"id\" must be a string of at most 64 characters")
    if kind == "act":
        n = msg.get("n")
        if type(n) is not int or n < 0:
            raise ProtocolError("an action needs \"n\": the number of actions you have seen")
        if "action" not in msg:
            raise ProtocolError("an action needs \"action\": the move, as the game writes it in JSON")
        if "seat" in msg and type(msg["seat"]) is not int:
            raise ProtocolError("\"seat\" must be a whole number")
        return msg
    if kind == "sync":
        since = msg.get("since", 0)
        if type(since) is not int or since < 0:
            raise ProtocolError("\"since\" must be a whole number of actions")
        return msg
    if kind in ("leave", "resign", "ping"):
        return msg
    if kind == "computer":   # the host gives a seat that stays empty to a computer
        if type(msg.get("for")) is not int or not isinstance(msg.get("level"), str) or len(msg["level"]) > 20:
            raise ProtocolError("\"computer\" needs \"for\": the empty seat, and \"level\": a computer level")
        return msg
    raise ProtocolError(f"unknown intent type {kind[:20]!r} (use act, sync, leave, resign, ping or computer)")


# A seat's heartbeat, exactly these bytes (the referee recognises them without parsing):
# a client sends one every PING_EVERY_S; a seat heard from by a ping and then silent for
# LOST_AFTER_S is "lost" to the others until it is heard again ("back"). Neither is logged.
PING = b'{"type":"ping"}'
PING_EVERY_S = 2.0
LOST_AFTER_S = 7.0


def resignation_returns(num_seats: int, resigner: int) -> list[float]:
    """A table ended by a resignation: the resigner takes last place (0) and every other
    seat shares the win (1/k each of the k others, the engine's rule for k winners)."""
    others = num_seats - 1
    return [0.0 if s == resigner else (1.0 / others if others else 0.0) for s in range(num_seats)]


# --- the seed: hidden until the end, committed to from the start -----------------------

def seed_commitment(seed: int, salt: str) -> str:
    """sha256 of the seed and a random salt (the salt stops anyone trying every seed)."""
    return hashlib.sha256(f"stateside-seed:{seed}:{salt}".encode()).hexdigest()


# --- guests' replies ------------------------------------------------------------------
# A guest's inbox is _INBOX_guest.<its own public key>: the guests' account lets each guest
# subscribe there only (online.auth.guest_scope), so a lobby reply (a table's code, its
# names) is read by the asker alone, and the guests' account sees no subject of the game
# account (never the referee's JetStream replies).

GUEST_INBOX_PREFIX = "_INBOX_guest"
