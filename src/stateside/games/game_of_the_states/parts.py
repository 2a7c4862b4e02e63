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
from pathlib import Path

from stateside.data.yamlio import hex_colour, read_yaml, text
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


def _read(path: Path) -> dict:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected a mapping, found "
                        f"{type(data).__name__ if data is not None else 'an empty file'}")
    return data


def _keys(entry: object, want: set[str], label: str, optional: frozenset = frozenset()) -> dict:
    if not isinstance(entry, dict):
        raise DataError(f"{label}: expected a mapping with {', '.join(sorted(want))}")
    if missing := sorted(want - optional - set(entry)):
        raise DataError(f"{label}: missing '{missing[0]}'")
    if extra := sorted(set(entry) - want, key=str):
        raise DataError(f"{label}: unknown key {extra[0]!r}")
    return entry


def read_products(path: Path, codes: tuple[str, ...]) -> tuple[dict[str, Product],
                                                              dict[str, tuple[tuple[str, ...], str]]]:
    """products.yaml: (catalogue id -> Product, state code -> (product ids, source))."""
    data = _keys(_read(path), {"catalogue", "states"}, str(path))
    raw_cat = data["catalogue"]
    if not isinstance(raw_cat, dict) or not raw_cat:
        raise DataError(f"{path}: catalogue must map product ids to products")
    cat = {}
    icons: dict[str, str] = {}
    for pid, entry in raw_cat.items():
        label = f"{path}: catalogue entry {pid!r}"
        if not isinstance(pid, str) or not pid:
            raise DataError(f"{label}: a product id must be a text")
        _keys(entry, {"name", "icon", "colour"}, label)
        name = text(entry["name"], f"{label}: 'name'")
        icon = entry["icon"]
        if not (isinstance(icon, str) and 1 <= len(icon) <= 2):
            raise DataError(f"{label}: 'icon' must be one or two letters, got {icon!r}")
        if icon in icons:   # the icon is how a player tells products apart
            raise DataError(f"{label}: icon {icon!r} is also {icons[icon]!r}'s")
        icons[icon] = pid
        cat[pid] = Product(pid, name, icon, hex_colour(entry["colour"], f"{label}: 'colour'"))
    raw_states = data["states"]
    if not isinstance(raw_states, dict):
        raise DataError(f"{path}: states must map postal codes to products")
    out = {}
    for code, entry in raw_states.items():
        label = f"{path}: state {code}"
        if code not in codes:
            raise DataError(f"{label}: unknown state code {code!r}")
        _keys(entry, {"products", "source"}, label)
        prods = entry["products"]
        if not isinstance(prods, list) or not 1 <= len(prods) <= 4:
            raise DataError(f"{label}: 'products' must list 1 to 4 products, got {prods!r}")
        for p in prods:
            if not isinstance(p, str) or p not in cat:
                raise DataError(f"{label}: unknown product {p!r}")
        if len(set(prods)) != len(prods):
            raise DataError(f"{label}: a product is listed twice")
        out[code] = (tuple(prods), text(entry["source"], f"{label}: 'source'"))
    if missing := sorted(set(codes) - set(out)):
        raise DataError(f"{path}: states missing: {', '.join(missing)}")
    return cat, out


def read_spinner(path: Path) -> tuple[Sector, ...]:
    data = _keys(_read(path), {"sectors"}, str(path))
    raw = data["sectors"]
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{path}: 'sectors' must be a list of sectors")
    out = []
    for i, s in enumerate(raw):
        label = f"{path}: sector {i + 1}"
        _keys(s, {"price", "move"}, label)
        move = s["move"]
        if move == "jam":
            move = JAM
        elif type(move) is not int or move not in (0, 1, 2, 3):
            raise DataError(f"{label}: 'move' must be 0-3 or jam, got {move!r}")
        price = s["price"]
        if type(price) is not int or not 100 <= price <= 1000 or price % 100:
            raise DataError(f"{label}: 'price' must be $100-$1,000 in hundreds, got {price!r}")
        out.append(Sector(i, price, move))
    return tuple(out)


VARIANTS = ("buy-and-sell", "junior", "trivia")
# Buy and Sell, setup 3: "Each player receives $5,000 in play money" (the other
# variants' starting money is ours).
RULEBOOK_START = {"buy-and-sell": 5000}


def read_money(path: Path) -> dict:
    data = _keys(_read(path), {"bills", "start", "bank"}, str(path))
    bills = data["bills"]
    if not (isinstance(bills, list) and bills and all(type(b) is int and b > 0 for b in bills)
            and bills == sorted(set(bills), reverse=True) and bills[-1] == 100):
        # bills_for pays any amount in hundreds only if the smallest bill is $100
        raise DataError(f"{path}: 'bills' must list bill values, largest first, ending with 100; got {bills!r}")
    start = _keys(data["start"], set(VARIANTS), f"{path}: start")
    start_bills = {}
    for variant in VARIANTS:
        label = f"{path}: start: {variant}"
        counts = start[variant] if start[variant] is not None else {}
        if not isinstance(counts, dict):
            raise DataError(f"{label}: expected a mapping of bill -> count")
        for bill, n in counts.items():
            if bill not in bills:
                raise DataError(f"{label}: {bill!r} is not one of the bills {bills}")
            if type(n) is not int or n < 0:
                raise DataError(f"{label}: the count of ${bill} bills must be a whole number, got {n!r}")
        start_bills[variant] = dict(counts)
    for variant, amount in RULEBOOK_START.items():
        if (got := sum(b * n for b, n in start_bills[variant].items())) != amount:
            raise DataError(f"{path}: start: {variant}: the bills add up to ${got:,}; the rulebook says ${amount:,}")
    bank = data["bank"]
    if type(bank) is not int or bank <= 0 or bank % 100:
        raise DataError(f"{path}: 'bank' must be a positive amount in hundreds, got {bank!r}")
    return {"bills": tuple(bills), "start": {v: sum(b * n for b, n in d.items()) for v, d in start_bills.items()},
            "start_bills": start_bills, "bank": bank}


@cache
def states():
    from stateside.data.states import load_states

    return load_states()


@dataclass(frozen=True)
class OtherYear:
    """One documented year of a state's first settlement (the card's or another)."""
    year: int
    what: str       # what the year is ("William Penn's Philadelphia")
    source: str     # the page that documents it ("Wikipedia, 'Roanoke Colony'")
    url: str        # where that page is
    fact: str       # what the page says, in our words


@dataclass(frozen=True)
class SettledYears:
    card: OtherYear                 # the card's own year and its source
    also: tuple[OtherYear, ...]     # the other documented years, earliest first


_YEAR_KEYS = {"year", "what", "source", "url", "fact"}


def _year(entry: object, label: str) -> OtherYear:
    _keys(entry, _YEAR_KEYS, label)
    y = entry["year"]
    if not (type(y) is int and 1500 <= y <= 1900):
        raise DataError(f"{label}: 'year' must be a year 1500-1900, got {y!r}")
    url = text(entry["url"], f"{label}: 'url'")
    if not url.startswith(("http://", "https://")):
        raise DataError(f"{label}: 'url' must be a web address (http:// or https://), got {url!r}")
    return OtherYear(y, text(entry["what"], f"{label}: 'what'"), text(entry["source"], f"{label}: 'source'"),
                     url, text(entry["fact"], f"{label}: 'fact'"))


def read_settled(path: Path, facts: dict) -> dict[str, SettledYears]:
    """settled.yaml: state code -> its documented years of first settlement. Each entry gives
    the card's year (`card`, which must be the facts file's) and the others (`also`), every
    year with what it is and the page that documents it. A year after the state entered the
    union is refused: a first settlement comes before statehood."""
    data = _read(path)
    out = {}
    for code, entry in data.items():
        label = f"{path}: state {code}"
        if code not in facts:
            raise DataError(f"{label}: unknown state code {code!r}")
        _keys(entry, {"card", "also"}, label)
        card = _year(entry["card"], f"{label}: card")
        if card.year != facts[code].settled:
            raise DataError(f"{label}: 'card' year is {card.year!r} but the state's card says "
                            f"{facts[code].settled!r} (resources/data/states.yaml)")
        also = entry["also"]
        if not isinstance(also, list) or not also:
            raise DataError(f"{label}: 'also' must list one or more years")
        years: list[OtherYear] = []
        for i, y in enumerate(also, 1):
            where = f"{label}: year {i}"
            o = _year(y, where)
            if o.year == card.year or o.year in [p.year for p in years]:
                raise DataError(f"{where}: 'year' {o.year} is the card's or one listed before")
            years.append(o)
        for o in (card, *years):
            if o.year > facts[code].admitted_year:
                raise DataError(f"{label}: year {o.year} is after the state entered the union "
                                f"({facts[code].admitted_year})")
        out[code] = SettledYears(card, tuple(sorted(years, key=lambda o: o.year)))
    return out


@cache
def settled_years() -> dict[str, SettledYears]:
    """The documented years of first settlement of the states that have more than one."""
    return read_settled(resource("game_of_the_states", "settled.yaml"), states())


@cache
def other_settled_years() -> dict[str, tuple[OtherYear, ...]]:
    """The other documented years of first settlement, by state (most states have none)."""
    return {code: s.also for code, s in settled_years().items()}


@cache
def state_codes() -> tuple[str, ...]:
    return tuple(sorted(states()))


def state_name(code: str) -> str:
    return states()[code].name


@cache
def _products():
    return read_products(resource("game_of_the_states", "products.yaml"), state_codes())


def catalogue() -> dict[str, Product]:
    return _products()[0]


def _state_products() -> dict[str, tuple[tuple[str, ...], str]]:
    return _products()[1]


def products(code: str) -> tuple[str, ...]:
    """The product ids pictured on a state."""
    return _state_products()[code][0]


def products_source(code: str) -> str:
    return _state_products()[code][1]


def product_name(pid: str) -> str:
    return catalogue()[pid].name


@cache
def sectors() -> tuple[Sector, ...]:
    return read_spinner(resource("game_of_the_states", "spinner.yaml"))


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
    return read_money(resource("game_of_the_states", "money.yaml"))


def check_data() -> None:
    """Load every data file the game needs (the app calls this before opening it);
    raises DataError naming the first broken file and entry."""
    from stateside.geo.atlas import load_atlas

    load_atlas()
    states()
    other_settled_years()
    _products()
    sectors()
    money()
    borders()


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
