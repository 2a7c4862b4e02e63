"""The messages of online play: subjects, size limits, validation, the seed's hash and
the sealing of a seat's password. Pure Python; see ARCHITECTURE.md for the flow.

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

PREFIX = "ss"
LOBBY_HOST = f"{PREFIX}.lobby.host"      # guest -> referee: open a table
LOBBY_JOIN = f"{PREFIX}.lobby.join"      # guest -> referee: take a seat, get credentials
LOBBY_LOOK = f"{PREFIX}.lobby.look"      # guest -> referee: who is seated at a table
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


def log_subject(table: str) -> str:
    return f"{PREFIX}.log.{table}"


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


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def check_code(code: Any) -> str:
    if not isinstance(code, str) or not _CODE_RE.match(code.strip().upper()):
        raise ProtocolError(f"a table code is {CODE_LENGTH} letters and digits such as "
                            f"'K7QX3M', not {str(code)[:20]!r}")
    return code.strip().upper()


def encode(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def decode(data: bytes, limit: int, what: str = "message") -> dict:
    """A received JSON object, or ProtocolError saying what is wrong with it."""
    if len(data) > limit:
        raise ProtocolError(f"{what} too large: {len(data)} bytes (at most {limit})")
    try:
        msg = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ProtocolError(f"{what} is not valid JSON ({str(e)[:80]})") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError(f"{what} must be a JSON object with a \"type\"")
    return msg


def check_intent(msg: dict) -> dict:
    """An intent from a seat: {"type": "act", "n": N, "action": ..., "id": "..."} or
    {"type": "sync", "since": N} or {"type": "leave"}. Returns it with its fields checked."""
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
    if kind == "leave":
        return msg
    raise ProtocolError(f"unknown intent type {kind[:20]!r} (use act, sync or leave)")


# --- the seed: hidden until the end, committed to from the start -----------------------

def seed_commitment(seed: int, salt: str) -> str:
    """sha256 of the seed and a random salt (the salt stops anyone trying every seed)."""
    return hashlib.sha256(f"stateside-seed:{seed}:{salt}".encode()).hexdigest()


# --- a seat's password travels sealed -------------------------------------------------
# Guests share one public account and all may listen on _INBOX.>, so the referee's reply
# to a join must not carry the password in clear. The joiner puts a fresh random key in
# its request, which only referees can read (guests may publish to the lobby, never
# subscribe to it); the reply carries the password XORed with sha256(key).

def new_seal_key() -> str:
    return secrets.token_hex(32)


def _pad(key: str, n: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(f"stateside-seal:{counter}:{key}".encode()).digest()
        counter += 1
    return out[:n]


def seal(password: str, key: str) -> str:
    data = password.encode()
    return bytes(a ^ b for a, b in zip(data, _pad(key, len(data)))).hex()


def unseal(sealed: str, key: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _pad(key, len(data)))).decode()
