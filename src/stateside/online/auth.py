"""Who may connect to the server, by NATS's decentralized JWT auth (operator -> account -> user).

Pure Python (the `nkeys` package signs with Ed25519), no Qt. See ARCHITECTURE.md, "Who may
do what". The server trusts one operator, made once in its data folder; the operator signs
the accounts, an account's signing key signs its users, and a user proves at connect that
it holds its own private key (the server's nonce, signed). So:

- the referee signs, for the public key a client made itself, a user JWT that may do what
  that seat may do and nothing else, for a few hours; a JWT travels in the clear (it is
  worthless without the client's private key, which never leaves the client);
- a seat is revoked by the account's revocations: the referee re-signs the account JWT with
  the revoked keys and pushes it to the server ($SYS.REQ.CLAIMS.UPDATE, through the system
  account); the server closes their connections and refuses them from then on. Nothing of
  the server's configuration is rewritten or reloaded for a seat.

A JWT is three base64url parts without padding, `header.claims.signature`: the header is
{"typ": "JWT", "alg": "ed25519-nkey"}, the claims name their issuer (`iss`, a public nkey)
and subject (`sub`), and the signature is the issuer's Ed25519 signature of
`header.claims`. `jti` is base32 of a SHA-256 of the claims (with `jti` empty): an id.
The format follows the NATS JWT v2 claims; tests/test_online_security_jwt.py checks what we
sign against the real server.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path

import nacl.signing  # (nkeys' own dependency)
import nkeys

from stateside.online import protocol as P

SEAT_LIFETIME_S = 8 * 3600   # a seat's JWT expires then (a seat taken again gets a new one)
RECHECK_S = (1.0, 4.0)       # after a push, look this long after, and again (JwtAuthorizer._keep)
HEADER = {"typ": "JWT", "alg": "ed25519-nkey"}
UNLIMITED = {"subs": -1, "data": -1, "payload": -1}
# What the server itself holds a seat's, a spectator's and a guest's connection to: a few
# subscriptions, and messages a little above what the referee accepts from each (8 KiB from
# a seat, 4 KiB to the lobby), so that a flood of large messages is cut off at the server.
SEAT_LIMITS = {"subs": 8, "data": -1, "payload": 2 * P.MAX_INTENT_BYTES}
SPECTATOR_LIMITS = {"subs": 4, "data": -1, "payload": 1024}
GUEST_LIMITS = {"subs": 4, "data": -1, "payload": 2 * P.MAX_LOBBY_BYTES}

# The guests' account is the same on every Stateside server, so that a client that knows only
# a server's address can sign itself in as a guest: its public key below was made once and its
# private key thrown away (nobody can sign an unrestricted user of it). What a guest may do is
# fixed by the scoped signing key's template, which the server applies to every user that key
# signs, whatever the user's JWT says; the key's seed is public on purpose. A guest's inbox is
# named after its own public key (the template's {{subject()}}), so no guest reads another's
# replies.
GUEST_ACCOUNT = "ABVTRUVZWBRGHIKFAIHZM3CFO5RKJQ6L4HXE4RUNOPQTK2OMBCHZOXSE"
GUEST_SIGNING_SEED = b"SAAP3J4MHXW77DBM564LJFX7H6GNVVYZQ2TFOYGCKVANI32PPSN2FUM3ME"   # public, scoped
LOBBY_SUBJECTS = (P.LOBBY_HOST, P.LOBBY_JOIN, P.LOBBY_LOOK, P.LOBBY_LIST, P.LOBBY_WATCH)


class AuthError(RuntimeError):
    """The data folder's keys cannot be read, or a key or JWT is not what it must be."""


# --- keys and JWTs -----------------------------------------------------------------------
_PREFIXES = {"operator": nkeys.PREFIX_BYTE_OPERATOR, "account": nkeys.PREFIX_BYTE_ACCOUNT,
             "user": nkeys.PREFIX_BYTE_USER}


def new_key(kind: str) -> nkeys.KeyPair:
    """A fresh nkey pair: "operator", "account" (an account or a signing key) or "user"."""
    return nkeys.from_seed(nkeys.encode_seed(os.urandom(32), _PREFIXES[kind]))


def key_from_seed(seed: str | bytes) -> nkeys.KeyPair:
    try:
        return nkeys.from_seed(seed.encode() if isinstance(seed, str) else bytes(seed))
    except Exception as e:   # nkeys raises its own kinds for a damaged seed
        raise AuthError(f"not an nkey seed ({type(e).__name__})") from None


def public(kp: nkeys.KeyPair) -> str:
    return kp.public_key.decode()


def check_user_key(key) -> str:
    """A client's public user key (56 base32 characters starting with U, with a good checksum)."""
    if not isinstance(key, str) or len(key) != 56 or not key.startswith("U"):
        raise P.ProtocolError("\"user_key\" must be your public nkey (56 characters starting with U)")
    try:
        raw = base64.b32decode(key)
    except ValueError:
        raise P.ProtocolError("\"user_key\" is not a public nkey (not base32)") from None
    if raw[0] != nkeys.PREFIX_BYTE_USER or int.from_bytes(raw[-2:], "little") != nkeys.crc16(bytearray(raw[:-2])):
        raise P.ProtocolError("\"user_key\" is not a public user nkey (its checksum is wrong)")
    return key


def _is_user_key(key) -> bool:
    try:
        check_user_key(key)
        return True
    except P.ProtocolError:
        return False


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_jwt(signer: nkeys.KeyPair, claims: dict, now: int | None = None) -> str:
    """Sign `claims` (sub, name, nats, perhaps exp) as `signer`: iss, iat and jti are set here."""
    body = {**claims, "iss": public(signer), "iat": int(time.time()) if now is None else int(now), "jti": ""}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).digest()
    body["jti"] = base64.b32encode(digest).rstrip(b"=").decode()
    signed = _b64(json.dumps(HEADER, separators=(",", ":")).encode()) + "." + \
        _b64(json.dumps(body, separators=(",", ":")).encode())
    return signed + "." + _b64(signer.sign(signed.encode()))


def decode_jwt(token: str) -> dict:
    """The claims of a JWT, whose signature is checked against its own `iss` (not whether
    that issuer is trusted: the server decides that)."""
    try:
        head, body, sig = token.split(".")
        claims = json.loads(_unb64(body))
        raw = base64.b32decode(claims["iss"])[1:-2]
        nacl.signing.VerifyKey(raw).verify(f"{head}.{body}".encode(), _unb64(sig))
    except Exception as e:
        raise AuthError(f"not a JWT signed by its issuer ({type(e).__name__})") from None
    return claims


def user_claims(user_key: str, name: str, account: str, pub: list[str] | None, sub: list[str] | None,
                expires: float | None = None, bearer: bool = False, resp: bool = False,
                limits: dict | None = None) -> dict:
    """A user of `account`. pub/sub: the subjects it may publish/subscribe to (None: all;
    []: none); limits: subscriptions, bytes, a message's size (-1: no limit)."""
    perms: dict = {}
    if pub is not None:
        perms["pub"] = {"allow": pub} if pub else {"deny": [">"]}
    if sub is not None:
        perms["sub"] = {"allow": sub} if sub else {"deny": [">"]}
    if resp:
        perms["resp"] = {"max": 1, "ttl": 0}
    nats = {**perms, **(limits or UNLIMITED), "type": "user", "version": 2, "issuer_account": account}
    if bearer:
        nats["bearer_token"] = True
    claims = {"sub": user_key, "name": name, "nats": nats}
    if expires is not None:
        claims["exp"] = int(expires)
    return claims


def creds_text(jwt: str, seed: bytes | str) -> str:
    """A NATS credentials file (what `nats` and every client library read)."""
    seed = seed.decode() if isinstance(seed, bytes) else seed
    return ("-----BEGIN NATS USER JWT-----\n" + jwt + "\n------END NATS USER JWT------\n\n"
            "************************* IMPORTANT *************************\n"
            "NKEY Seed printed below can be used to sign and prove identity.\n"
            "NKEYs are sensitive and should be treated as secrets.\n\n"
            "-----BEGIN USER NKEY SEED-----\n" + seed + "\n------END USER NKEY SEED------\n\n"
            "*************************************************************\n")


# --- what a seat, a spectator and a guest may do ---------------------------------------------
def seat_permissions(table: str, seat: int, inbox: str) -> tuple[list[str], list[str]]:
    """Publish its own intents (the server checks the subject after the partition mapping
    too); subscribe to its private subject, the table's public subject and its own inbox."""
    return ([P.intent_subject(table, seat), P.mapped_intent_subject(table, seat)],
            [P.private_subject(table, seat), P.public_subject(table), inbox + ".>"])


def user_inbox(user_key: str) -> str:
    """A seat's or a spectator's own inbox prefix (nobody else may read it)."""
    return f"_INBOX_{user_key}"


def guest_inbox(user_key: str) -> str:
    """A guest's inbox prefix: named after its key (the guests' template allows only this)."""
    return f"{P.GUEST_INBOX_PREFIX}.{user_key}"


def guest_jwt(user: nkeys.KeyPair, now: int | None = None) -> str:
    """A guest's user JWT, which any client signs itself with the public scoped key: the
    server gives it the template's permissions only (the lobby's requests, its own inbox)."""
    claims = {"sub": public(user), "name": "stateside-guest",
              "nats": {"type": "user", "version": 2, "issuer_account": GUEST_ACCOUNT}}
    return encode_jwt(key_from_seed(GUEST_SIGNING_SEED), claims, now)


def guest_scope() -> dict:
    """The guests' signing key's scope: what every guest may do."""
    return {"kind": "user_scope", "key": public(key_from_seed(GUEST_SIGNING_SEED)), "role": "guest",
            "description": "a guest: the lobby's requests and its own inbox",
            "template": {"pub": {"allow": list(LOBBY_SUBJECTS)},
                         "sub": {"allow": [P.GUEST_INBOX_PREFIX + ".{{subject()}}.>"]},
                         **GUEST_LIMITS}}


# --- the data folder's operator and accounts ---------------------------------------------------
class Trust:
    """The server's keys, made once in DATA/auth.json (mode 0600): the operator, the system
    account (the server's own events, the revocations' push), the game account (the
    referee and the games' logs) with its signing key and the referee's user, and the
    seats' account (every seat and spectator) with the signing key the referee signs them
    with. Every node of a cluster and every referee process reads the same file.

    Why the seats have an account of their own: revoking a seat re-signs its account, and
    the server then rebuilds the imports of the accounts that import from it, dropping the
    replies still on their way (a guest's lobby request crossing a revocation went
    unanswered). The seats' account exports only streams (intents: no replies to lose),
    and the game account, which exports the lobby's services, never changes."""

    KINDS = {"operator": "operator", "system": "account", "system_user": "user", "account": "account",
             "signing": "account", "referee": "user", "seats": "account", "seat_signing": "account"}

    def __init__(self, seeds: dict[str, str]):
        self.seeds = seeds
        self.keys = {k: key_from_seed(seeds[k]) for k in self.KINDS}
        self.pub = {k: public(kp) for k, kp in self.keys.items()}

    @classmethod
    def load(cls, data_dir: Path, create: bool = True) -> Trust:
        path = Path(data_dir) / "auth.json"
        seeds: dict = {}
        if path.exists():
            try:
                seeds = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(seeds, dict) or any(not isinstance(v, str) for v in seeds.values()):
                    raise ValueError("not an object of nkey seeds")
                if not (set(cls.KINDS) - set(seeds)):
                    return cls(seeds)
            except (OSError, ValueError, AuthError) as e:
                raise AuthError(f"{path}: cannot be read ({e}); remove it (and the accounts folder) "
                                "to make new keys") from None
        elif not create:
            raise AuthError(f"{path}: missing; --auth-dir must be the --data folder of a `stateside server`")
        for k, kind in cls.KINDS.items():   # (a key this version needs and the file lacks is made now)
            seeds.setdefault(k, new_key(kind).seed.decode())
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        write_private(path, json.dumps(seeds, indent=1))
        return cls(seeds)

    # -- the JWTs --
    def operator_jwt(self) -> str:
        return encode_jwt(self.keys["operator"], {
            "sub": self.pub["operator"], "name": "stateside",
            "nats": {"type": "operator", "version": 2, "system_account": self.pub["system"]}}, now=0)

    def system_account_jwt(self) -> str:
        return encode_jwt(self.keys["operator"], {
            "sub": self.pub["system"], "name": "SYS",
            "nats": {"type": "account", "version": 2,
                     "limits": {**UNLIMITED, "imports": -1, "exports": -1, "wildcards": True, "conn": -1,
                                "leaf": -1},
                     "exports": [{"name": "account-monitoring-services", "subject": "$SYS.REQ.ACCOUNT.*.*",
                                  "type": "service", "response_type": "Stream"},
                                 {"name": "account-monitoring-streams", "subject": "$SYS.ACCOUNT.*.>",
                                  "type": "stream"}]}}, now=1)

    def guest_account_jwt(self) -> str:
        imports = [{"name": s, "subject": s, "account": self.pub["account"], "type": "service", "share": True}
                   for s in LOBBY_SUBJECTS]
        return encode_jwt(self.keys["operator"], {
            "sub": GUEST_ACCOUNT, "name": "GUESTS",
            "nats": {"type": "account", "version": 2, "imports": imports,
                     "limits": {**UNLIMITED, "imports": -1, "exports": -1, "wildcards": True, "conn": -1,
                                "leaf": -1},
                     "signing_keys": [guest_scope()]}}, now=1)

    def account_jwt(self) -> str:
        """The game account: JetStream, the lobby's services exported to the guests, the
        table's subjects exported to the seats and the seats' intents imported from them,
        and the signing key of the referee's user. It never changes (see the class)."""
        seats = self.pub["seats"]
        table_out = [P.private_subject("*", "*"), P.public_subject("*")]
        nats = {"type": "account", "version": 2,
                "limits": {**UNLIMITED, "imports": -1, "exports": -1, "wildcards": True, "conn": -1, "leaf": -1,
                           "mem_storage": 64 * 1024 * 1024, "disk_storage": -1, "streams": -1, "consumer": -1},
                "exports": [*({"name": s, "subject": s, "type": "service"} for s in LOBBY_SUBJECTS),
                            *({"name": s, "subject": s, "type": "stream"} for s in table_out)],
                "imports": [{"name": "intents", "subject": P.partition_wildcard("*"), "account": seats,
                             "type": "stream"}],
                # (a referee's own intents, in tests, are mapped here as the seats' are there)
                "mappings": _partition_mapping(),
                "signing_keys": [self.pub["signing"]]}
        return encode_jwt(self.keys["operator"], {"sub": self.pub["account"], "name": "STATESIDE", "nats": nats},
                          now=1)

    def seats_account_jwt(self, revocations: dict[str, int] | None = None, now: int | None = None) -> str:
        """The seats' account: each table's intents to one partition (protocol.PARTITION_MAPPING:
        one referee per table) exported to the game account, the table's subjects imported
        from it, the signing key the referee signs seats with, and the revoked users."""
        account = self.pub["account"]
        nats = {"type": "account", "version": 2,
                "limits": {**UNLIMITED, "imports": -1, "exports": -1, "wildcards": True, "conn": -1, "leaf": -1},
                "exports": [{"name": "intents", "subject": P.partition_wildcard("*"), "type": "stream"}],
                "imports": [{"name": s, "subject": s, "account": account, "type": "stream"}
                            for s in (P.private_subject("*", "*"), P.public_subject("*"))],
                "mappings": _partition_mapping(),
                "signing_keys": [self.pub["seat_signing"]]}
        if revocations:
            nats["revocations"] = dict(revocations)
        return encode_jwt(self.keys["operator"], {"sub": self.pub["seats"], "name": "SEATS", "nats": nats},
                          now=1 if now is None else now)

    def referee_creds(self) -> str:
        claims = user_claims(self.pub["referee"], "referee", self.pub["account"], None, None)
        return creds_text(encode_jwt(self.keys["signing"], claims, now=1), self.seeds["referee"])

    def system_creds(self) -> str:
        claims = user_claims(self.pub["system_user"], "system", self.pub["system"], None, None)
        return creds_text(encode_jwt(self.keys["system"], claims, now=1), self.seeds["system_user"])

    def config_lines(self, resolver_dir: Path) -> list[str]:
        """nats.conf's trust: the operator, the system account and a full nats resolver that
        keeps the accounts (pushed updates included) in resolver_dir; the accounts are
        preloaded, so a fresh server needs no push to start."""
        pre = {self.pub["system"]: self.system_account_jwt(), self.pub["account"]: self.account_jwt(),
               self.pub["seats"]: self.seats_account_jwt(), GUEST_ACCOUNT: self.guest_account_jwt()}
        return [f"operator: {json.dumps(self.operator_jwt())}",
                f"system_account: {self.pub['system']}",
                "resolver: {",
                "  type: full",
                f"  dir: {json.dumps(str(Path(resolver_dir).resolve()))}",
                "  allow_delete: false",
                "  interval: \"2m\"",
                "}",
                "resolver_preload: {",
                *(f"  {k}: {json.dumps(v)}" for k, v in pre.items()),
                "}"]


def _partition_mapping() -> dict:
    return {P.PARTITION_MAPPING[0]: [{"subject": P.PARTITION_MAPPING[1], "weight": 100}]}


def write_private(path: Path, text: str) -> None:
    """Write a file only its owner may read (it holds keys or passwords), atomically."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


# --- the referee's side: signing seats, pushing revocations --------------------------------------
class JwtAuthorizer:
    """Signs each seat's and spectator's user JWT for the client's own public key, and
    revokes them (a seat that left, a finished table) by pushing the seats' account's JWT
    with its revocations through the system account. Revocations asked for at about the
    same moment share one push. Nothing is written to the server's configuration.

    Several referees may share the account: each push first reads the account the server
    holds and keeps its revocations, so none loses another's (and each referee pushes its
    own again with every later push)."""

    def __init__(self, trust: Trust, urls: str | list[str], lifetime_s: float = SEAT_LIFETIME_S):
        self.trust = trust
        self.urls = urls
        self.lifetime_s = lifetime_s
        self.issued: dict[str, list[str]] = {}   # table -> the users issued for it (spectators too)
        self._issued_at: dict[str, float] = {}   # table -> when it was last issued a user
        self.revoked: dict[str, int] = {}        # user key -> when revoked (kept until its JWT expired)
        self._sys = None                          # the system account's connection, and its event loop
        self._loop = None
        self._lock = None
        self._pending: list = []                 # futures of revocations waiting for the next push
        self._watch: asyncio.Future | None = None   # the looks after a push (_keep)

    @property
    def connect_options(self) -> dict:
        """nats.connect's options for the referee's own user (from memory, not a file)."""
        from collections import UserString

        return {"user_credentials": UserString(self.trust.referee_creds())}

    def _sign(self, table: str, user_key: str, name: str, pub: list[str], sub: list[str],
              limits: dict = SEAT_LIMITS) -> str:
        user_key = check_user_key(user_key)
        jwt = encode_jwt(self.trust.keys["seat_signing"], user_claims(
            user_key, name, self.trust.pub["seats"], pub, sub, expires=time.time() + self.lifetime_s,
            limits=limits))
        users = self.issued.setdefault(table, [])
        if user_key not in users:   # (a seat's renewal: the same key again)
            users.append(user_key)
        now = time.time()
        self._issued_at[table] = now
        if len(self._issued_at) > 1000 and len(self._issued_at) % 1000 == 1:
            # a table never finished (closed, abandoned) is forgotten once its JWTs expired
            for old in [t for t, at in self._issued_at.items() if at < now - self.lifetime_s]:
                self.issued.pop(old, None)
                self._issued_at.pop(old, None)
        return jwt

    async def issue(self, table: str, seat: int, user_key: str) -> str:
        """A seat's user JWT: live at once (the server checks the signature at connect)."""
        pub, sub = seat_permissions(table, seat, user_inbox(user_key))
        return self._sign(table, user_key, f"{table}-{seat}", pub, sub)

    async def issue_spectator(self, table: str, user_key: str) -> str:
        """A user who may only read the table's public subject, and publish nothing."""
        return self._sign(table, user_key, f"{table}-w", [], [P.public_subject(table)], SPECTATOR_LIMITS)

    async def revoke_table(self, table: str, also: Iterable[str] = ()) -> None:
        """Every user issued for a table (its game is over), and `also` those another
        referee issued (the seats of a table taken over: the log names their keys)."""
        self._issued_at.pop(table, None)
        users = self.issued.pop(table, [])
        await self._revoke([*users, *(u for u in dict.fromkeys(also) if u not in users)])

    async def revoke_user(self, user_key: str) -> None:
        """One seat (it left): the server closes its connection and refuses it from the push on."""
        for users in self.issued.values():
            if user_key in users:
                users.remove(user_key)
        await self._revoke([user_key])

    async def _revoke(self, users: list[str]) -> None:
        users = [u for u in users if _is_user_key(u)]   # (a seat of the password days has no key to revoke)
        if not users:
            return
        now = int(time.time())
        for u in users:
            self.revoked[u] = now
        done = asyncio.get_running_loop().create_future()
        done.add_done_callback(lambda f: f.cancelled() or f.exception())   # (a caller gone: no warning)
        self._pending.append(done)
        self._bind()
        async with self._lock:
            if not done.done():   # else a push while we waited for the lock took ours too
                batch, self._pending = self._pending, []
                try:
                    await self._push()
                except Exception as e:
                    for f in batch:
                        f.done() or f.set_exception(e)
                else:
                    for f in batch:
                        f.done() or f.set_result(None)
                    if self._watch is None or self._watch.done():
                        self._watch = asyncio.ensure_future(self._keep())
        await done

    async def _keep(self) -> None:
        """Look again a little after a push, and push again if our revocations are gone:
        the server takes the last account pushed, whatever its date, so a referee that read
        the account just before ours was pushed may have pushed it without them."""
        for wait in RECHECK_S:
            await asyncio.sleep(wait)
            try:
                async with self._lock:
                    nc = await self._system()
                    held = (await self._held(nc, self.trust.pub["seats"])).get("nats", {}).get("revocations") or {}
                    if any(held.get(u, 0) < t for u, t in self.revoked.items()):
                        await self._push()
            except Exception:   # the server is away: the next revocation pushes everything again
                return

    def _bind(self) -> None:
        """(One authorizer may serve referees in several event loops one after another, as
        the tests do: a connection and a lock belong to the loop that made them.)"""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._sys, self._lock, self._watch = loop, None, asyncio.Lock(), None
            self._pending = [f for f in self._pending if f.get_loop() is loop]

    async def _system(self):
        import nats

        if self._sys is None or self._sys.is_closed:
            creds = self.trust.system_creds()
            seed = self.trust.keys["system_user"]
            jwt = creds.split("\n")[1]
            self._sys = await nats.connect(self.urls, name="stateside-revocations", connect_timeout=3,
                                           user_jwt_cb=lambda: jwt.encode(),
                                           signature_cb=lambda nonce: base64.b64encode(seed.sign(nonce.encode())),
                                           max_reconnect_attempts=-1, reconnect_time_wait=0.5)
        return self._sys

    async def _push(self) -> None:
        """Read the account the server holds, add our revocations, push it; check it took."""
        nc = await self._system()
        account = self.trust.pub["seats"]
        horizon = int(time.time() - self.lifetime_s - 60)   # a JWT issued before this has expired anyway
        self.revoked = {u: t for u, t in self.revoked.items() if t >= horizon}
        for _ in range(5):
            held = await self._held(nc, account)
            merged = {u: t for u, t in (held.get("nats", {}).get("revocations") or {}).items() if t >= horizon}
            for u, t in self.revoked.items():
                merged[u] = max(t, merged.get(u, 0))
            # (the server takes the last account pushed, whatever its date; never one dated before it)
            iat = max(int(time.time()), int(held.get("iat", 0)))
            reply = await nc.request("$SYS.REQ.CLAIMS.UPDATE", self.trust.seats_account_jwt(merged, now=iat).encode(),
                                     timeout=5)
            answer = json.loads(reply.data or b"{}")
            if "error" in answer:
                raise AuthError(f"the server refused the account's update: {answer['error']}")
            after = (await self._held(nc, account)).get("nats", {}).get("revocations") or {}
            if all(after.get(u, 0) >= t for u, t in self.revoked.items()):
                return
        raise AuthError("the revocations did not hold (other referees kept pushing)")

    async def _held(self, nc, account: str) -> dict:
        reply = await nc.request(f"$SYS.REQ.ACCOUNT.{account}.CLAIMS.LOOKUP", b"", timeout=5)
        token = reply.data.decode()
        return decode_jwt(token) if token.count(".") == 2 else {}

    async def close(self) -> None:
        if self._watch is not None and not self._watch.done() and self._loop is asyncio.get_running_loop():
            self._watch.cancel()
            try:
                await self._watch
            except asyncio.CancelledError:
                pass
        self._watch = None
        if self._sys is not None and not self._sys.is_closed:
            await self._sys.close()
        self._sys = None
