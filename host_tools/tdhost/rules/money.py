"""Money, when a tournament has it: the ``[money]`` table checked (buy-in, fee, re-buys,
add-ons, bounties, payout table), the prize pool and the payouts in integer cents.  Free
tournaments have none (``setup["money"]`` is None).  docs/host.md §11 tells the rules.
"""

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

MONEY_KEYS = ("currency", "buy_in", "fee", "unit", "bounty", "bounty_kind", "rebuy",
              "addon", "payouts")
REBUY_KEYS = ("price", "fee", "chips", "until_level", "max")
ADDON_KEYS = ("price", "fee", "chips", "from_level", "until_level")
BRACKET_KEYS = ("up_to", "places")
BOUNTY_KINDS = ("fixed", "progressive")

# Percentages by number of entries when the file gives none: the usual ~15-20% paid,
# a steeper top for small fields (each row sums to 100).
MoneyRules = dict[str, Any]  # the checked [money] table (parse)
Fail = Callable[[tuple[Any, ...], str], NoReturn]  # (path in the file, sentence): raises
Tier = tuple[Sequence[str], int, int]  # (names, first place, last place)

DEFAULT_PAYOUTS: list[dict[str, Any]] = [
    {"up_to": 10, "places": [50, 30, 20]},
    {"up_to": 20, "places": [40, 25, 18, 10, 7]},
    {"up_to": 30, "places": [35, 22, 15, 11, 9, 8]},
    {"up_to": 50, "places": [30, 20, 14, 10, 8, 7, 6, 5]},
    {"up_to": None, "places": [27, 17, 12, 9, 7, 6, 5, 4.5, 4, 3.5, 3, 2]},
]


def _is_num(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def cents(value: object) -> int | None:
    """Units of money (20, 12.5) as integer cents; None when not a whole number of cents."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0 \
            or value > 10**9:
        return None
    amount = round(value * 100)
    return amount if abs(amount - value * 100) < 1e-6 else None


def fmt(amount: int, currency: str = "") -> str:
    """Cents as money text: "£1,250", "£12.50"."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    whole = "{:,}".format(amount // 100)
    return "%s%s%s%s" % (sign, currency, whole,
                         "" if amount % 100 == 0 else ".%02d" % (amount % 100))


def check_places(places: object) -> str | None:
    """None when *places* is a usable payout row (percentages, largest first, sum 100),
    else the sentence saying why."""
    if not isinstance(places, list) or not places or not all(
            _is_num(pct) and pct > 0 for pct in places):
        return "give the places as a list of percentages, e.g. [50, 30, 20]"
    if abs(sum(places) - 100) > 1e-6:
        return "the percentages add up to %s, not 100" % ("%g" % sum(places))
    if not all(above >= below for above, below in zip(places, places[1:])):
        return "each place must pay no more than the place above it"
    return None


def parse(raw: object, fail: Fail) -> MoneyRules | None:
    """The normalised ``[money]`` table, or None for a free tournament.  ``fail(path,
    sentence)`` raises the file error (tdhost.tournamentfile.FileChecker.fail)."""
    if raw is None:
        return None
    path = ("money",)
    if not isinstance(raw, dict):
        fail(path, "must be a table")
    for key in raw:
        if key not in MONEY_KEYS:
            fail(path + (key,), "unknown key (expected one of %s)" % ", ".join(MONEY_KEYS))

    def amount(obj: dict[str, Any], where: tuple[Any, ...], key: str, default: int = 0,
               required: bool = False) -> int:
        if key not in obj:
            if required:
                fail(where, "the key %r is missing" % key)
            return default
        value = cents(obj[key])
        if value is None:
            fail(where + (key,), "must be an amount of money like 20 or 12.50, not %r"
                 % (obj[key],))
        return value

    def level(obj: dict[str, Any], where: tuple[Any, ...], key: str,
              default: int | None = None) -> int | None:
        value = obj.get(key, default)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or value < 1):
            fail(where + (key,), "must be a level number from 1, not %r" % (value,))
        return value

    buy_in = amount(raw, path, "buy_in", required=True)
    if buy_in == 0:
        fail(path + ("buy_in",), "a tournament with money needs a buy-in above 0 "
                                 "(leave [money] out for a free one)")
    fee = amount(raw, path, "fee", 0)
    if fee >= buy_in:
        fail(path + ("fee",), "must be less than the buy-in")
    unit = amount(raw, path, "unit", 100)
    if unit == 0:
        fail(path + ("unit",), "the smallest payout step must be above 0")
    currency = raw.get("currency", "£")
    if not isinstance(currency, str) or len(currency) > 4:
        fail(path + ("currency",), "must be a short text like \"£\" or \"$\"")
    bounty = amount(raw, path, "bounty", 0)
    kind = raw.get("bounty_kind", "fixed")
    if kind not in BOUNTY_KINDS:
        fail(path + ("bounty_kind",), "must be \"fixed\" or \"progressive\", not %r"
             % (kind,))

    def window(key: str, keys: Sequence[str]) -> dict[str, Any] | None:
        if key not in raw:
            return None
        given = raw[key]
        where = ("money." + key,)  # one name: tournamentfile.locate finds the [money.rebuy] header
        if not isinstance(given, dict):
            fail(where, "must be a table")
        for name in given:
            if name not in keys:
                fail(where + (name,), "unknown key (expected one of %s)" % ", ".join(keys))
        out: dict[str, Any] = {"price": amount(given, where, "price", required=True),
                               "fee": amount(given, where, "fee", 0)}
        if out["price"] == 0 or out["fee"] >= out["price"]:
            fail(where + ("price",), "the price must be above 0 and above its fee")
        chips = given.get("chips")
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 1:
            fail(where + ("chips",), "must be the whole number of chips it buys")
        out["chips"] = chips
        out["until_level"] = level(given, where, "until_level")
        if out["until_level"] is None:
            fail(where, "the key 'until_level' is missing (the last level it is allowed in)")
        if key == "rebuy":
            most = given.get("max")
            if most is not None and (not isinstance(most, int) or isinstance(most, bool)
                                     or most < 1):
                fail(where + ("max",), "must be a whole number of re-buys per player from 1")
            out["max"] = most
        else:
            out["from_level"] = level(given, where, "from_level", 1)
            if out["from_level"] > out["until_level"]:
                fail(where + ("from_level",), "comes after until_level")
        return out

    table = raw.get("payouts", DEFAULT_PAYOUTS)
    if not isinstance(table, list) or not table:
        fail(path + ("payouts",), "must be a list: [[money.payouts]] up_to = 10, "
                                  "places = [50, 30, 20]")
    rows, last = [], 0
    for i, row in enumerate(table):
        where = ("money.payouts", i)  # the i-th [[money.payouts]]
        if not isinstance(row, dict):
            fail(where, "must be a table")
        for key in row:
            if key not in BRACKET_KEYS:
                fail(where + (key,), "unknown key (expected up_to, places)")
        up = row.get("up_to")
        if up is not None and (not isinstance(up, int) or isinstance(up, bool) or up <= last):
            fail(where + ("up_to",), "must be a number of entries above the row before")
        why = check_places(row.get("places"))
        if why:
            fail(where + ("places",), why)
        rows.append({"up_to": up, "places": list(row["places"])})
        last = up or last
    return {"currency": currency, "buy_in": buy_in, "fee": fee, "unit": unit,
            "bounty": bounty, "bounty_kind": kind, "rebuy": window("rebuy", REBUY_KEYS),
            "addon": window("addon", ADDON_KEYS), "payouts": rows}


def table_for(cfg: MoneyRules, entries: int) -> list[int | float]:
    """The payout percentages for *entries* (the first row whose up_to covers them, else
    the last), no more places than entries."""
    row = cfg["payouts"][-1]
    for bracket in cfg["payouts"]:
        if bracket["up_to"] is None or entries <= bracket["up_to"]:
            row = bracket
            break
    return list(row["places"])[:max(entries, 1)]


def pool(cfg: MoneyRules, entries: int, rebuys: int, addons: int) -> int:
    """The prize pool in cents: buy-ins + re-buys + add-ons - fees."""
    total = entries * cfg["buy_in"] - entries * cfg["fee"]
    for key, count in (("rebuy", rebuys), ("addon", addons)):
        window = cfg.get(key)
        if window and count:
            total += count * (window["price"] - window["fee"])
    return total


def split(pool_c: int, places: Sequence[int | float], unit: int) -> list[int]:
    """The pool shared by the percentages *places*: each place rounded down to a whole
    *unit* (the smallest chip of money), what rounding leaves over goes to 1st; the amounts
    add up to the pool exactly and never rise down the table."""
    if not places or pool_c <= 0:
        return [0] * len(places)
    total_bp = sum(round(pct * 100) for pct in places)
    out = [(pool_c * round(pct * 100) // total_bp) // unit * unit for pct in places]
    out[0] += pool_c - sum(out)
    return out


def payouts(cfg: MoneyRules, pool_c: int, entries: int,
            places: Sequence[int | float] | None = None) -> list[int]:
    """[cents for 1st, 2nd, ...]; *places* overrides the table (the TD's edit)."""
    row = list(places)[:max(entries, 1)] if places else table_for(cfg, entries)
    return split(pool_c, row, cfg["unit"])


def shares(amounts: Sequence[int], tiers: Sequence[Tier], unit: int) -> dict[str, int]:
    """{name: cents} of the payouts *amounts* (1st, 2nd, ...) for the players placed.
    *tiers* are (names, first, last): players tied over places first..last share the sum of
    those places' payouts, each rounded down to a whole *unit*; what that leaves goes a unit
    at a time to the first named, then any part of a unit to the next (docs/host.md §11).
    The shares add up to those payouts exactly and differ by at most one unit."""
    out = {}
    for names, first, last in tiers:
        total = sum(amounts[first - 1:last])
        base = total // len(names) // unit * unit
        rest = total - base * len(names)  # less than one unit a player
        for i, name in enumerate(names):
            out[name] = base + min(unit, max(0, rest - i * unit))
    return out
