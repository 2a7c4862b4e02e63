"""Game of the States: our own parts, read from resources/game_of_the_states/ (no Qt).

- products.yaml: 1-4 products per state (the board's symbols) and the product catalogue
  (the platform has one space per product);
- spinner.yaml: twenty sectors, each with a price ($100-$1,000) and a move (0-3) or a
  Traffic Jam;
- money.yaml: the bills, each variant's starting money and the bank.

Also the state facts and the game's borders graph (Alaska only through Washington,
Hawaii only through California), with all-pairs distances for the rules and the
computer players.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

import yaml

from stateside.errors import DataError
from stateside.paths import resource

JAM = None   # the move of a Traffic Jam sector


@dataclass(frozen=True)
class Product:
    id: str
    name: str
    icon: str       # two letters drawn on the icon
    colour: str


@dataclass(frozen=True)
class Sector:
    index: int
    price: int
    move: int | None   # None: Traffic Jam

    @property
    def jam(self) -> bool:
        return self.move is None

    def move_text(self) -> str:
        return "Traffic Jam" if self.move is None else str(self.move)


def _read(name: str) -> dict:
    path = resource("game_of_the_states", name)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise DataError(f"{path}: cannot be read: {e}") from None
    if not isinstance(data, dict):
        raise DataError(f"{path}: not a mapping")
    return data


@cache
def states():
    from stateside.data.states import load_states

    return load_states()


@cache
def state_codes() -> tuple[str, ...]:
    return tuple(sorted(states()))


def state_name(code: str) -> str:
    return states()[code].name


@cache
def catalogue() -> dict[str, Product]:
    data = _read("products.yaml")
    out = {}
    for pid, entry in (data.get("catalogue") or {}).items():
        if not isinstance(entry, dict) or not {"name", "icon", "colour"} <= set(entry):
            raise DataError(f"products.yaml: catalogue entry {pid!r} needs name, icon and colour")
        out[pid] = Product(pid, str(entry["name"]), str(entry["icon"]), str(entry["colour"]))
    return out


@cache
def _state_products() -> dict[str, tuple[tuple[str, ...], str]]:
    data = _read("products.yaml")
    cat = catalogue()
    out = {}
    for code, entry in (data.get("states") or {}).items():
        products = tuple(entry.get("products") or ())
        if not 1 <= len(products) <= 4:
            raise DataError(f"products.yaml: {code} must have 1 to 4 products")
        for p in products:
            if p not in cat:
                raise DataError(f"products.yaml: {code}: unknown product {p!r}")
        if not entry.get("source"):
            raise DataError(f"products.yaml: {code} names no source")
        out[code] = (products, str(entry["source"]))
    if set(out) != set(state_codes()):
        missing = sorted(set(state_codes()) - set(out))
        raise DataError(f"products.yaml: states missing: {', '.join(missing) or 'none'}")
    return out


def products(code: str) -> tuple[str, ...]:
    """The product ids pictured on a state."""
    return _state_products()[code][0]


def products_source(code: str) -> str:
    return _state_products()[code][1]


def product_name(pid: str) -> str:
    return catalogue()[pid].name


@cache
def sectors() -> tuple[Sector, ...]:
    data = _read("spinner.yaml")
    out = []
    for i, s in enumerate(data.get("sectors") or ()):
        move = s.get("move")
        if move == "jam":
            move = JAM
        elif move not in (0, 1, 2, 3):
            raise DataError(f"spinner.yaml: sector {i}: move must be 0-3 or jam")
        price = s.get("price")
        if not isinstance(price, int) or not 100 <= price <= 1000 or price % 100:
            raise DataError(f"spinner.yaml: sector {i}: price must be $100-$1,000 in hundreds")
        out.append(Sector(i, price, move))
    if not out:
        raise DataError("spinner.yaml: no sectors")
    return tuple(out)


def spinner_odds() -> dict[str, dict]:
    """{"move": {"0": p, ..., "Traffic Jam": p}, "price": {100: p, ...}} for the help."""
    secs = sectors()
    n = len(secs)
    move: dict[str, float] = {}
    price: dict[int, float] = {}
    for s in secs:
        move[s.move_text()] = move.get(s.move_text(), 0) + 1 / n
        price[s.price] = price.get(s.price, 0) + 1 / n
    return {"move": move, "price": dict(sorted(price.items()))}


@cache
def money() -> dict:
    data = _read("money.yaml")
    bills = tuple(int(b) for b in data["bills"])
    start = {v: sum(int(k) * int(c) for k, c in (d or {}).items()) for v, d in data["start"].items()}
    start_bills = {v: {int(k): int(c) for k, c in (d or {}).items()} for v, d in data["start"].items()}
    return {"bills": bills, "start": start, "start_bills": start_bills, "bank": int(data["bank"])}


def bills_for(amount: int) -> list[int]:
    """The bills that make up `amount` (largest first): $700 -> [500, 100, 100]."""
    out = []
    for b in money()["bills"]:
        while amount >= b:
            out.append(b)
            amount -= b
    return out


def bills_text(amount: int) -> str:
    bills = bills_for(amount)
    if not bills:
        return "no bills"
    parts = []
    for b in money()["bills"]:
        k = bills.count(b)
        if k:
            parts.append(f"{k} \u00d7 ${b:,}" if k > 1 else f"${b:,}")
    return " + ".join(parts)


# --- the map -------------------------------------------------------------------------
@cache
def borders():
    from stateside.geo.borders import load_borders

    return load_borders("game-of-the-states")


@cache
def neighbours() -> dict[str, tuple[str, ...]]:
    b = borders()
    return {c: tuple(sorted(b.neighbours(c))) for c in state_codes()}


@cache
def distances() -> dict[str, dict[str, int]]:
    """Border hops between every two states on the game's map."""
    nb = neighbours()
    out = {}
    for start in state_codes():
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for n in nb[here]:
                if n not in dist:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        out[start] = dist
    return out


def distance(a: str, b: str) -> int:
    return distances()[a][b]


def route(start: str, end: str) -> list[str]:
    """A shortest route from start to end (both included), the same every time."""
    d = distances()
    nb = neighbours()
    path = [start]
    here = start
    while here != end:
        here = next(n for n in nb[here] if d[n][end] == d[here][end] - 1)
        path.append(here)
    return path


def money_text(amount: int) -> str:
    return f"${amount:,}"
