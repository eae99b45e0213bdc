"""Money, when a tournament has it (docs/host.md §11): buy-in and fee, re-buys and add-ons
with their windows, bounties (fixed or progressive), the prize pool and the payouts.

Free tournaments (LPPL, the US free league) have no ``[money]`` table: ``setup["money"]``
is None and nothing here shows anywhere.  Amounts are integer cents (pence) inside; the
TOML gives them in the currency's units (``buy_in = 20`` or ``12.50``).

    cfg = money.parse(doc.get("money"), fail)          # from tdhost.tfile
    pool = money.pool(cfg, entries, rebuys, addons)    # cents
    money.payouts(cfg, pool, entries)                  # [cents for 1st, 2nd, ...]

The prize pool is buy-ins + re-buys + add-ons - fees; bounties are paid on top of the
buy-in and go to the players who knock others out, never into the pool.
"""

MONEY_KEYS = ("currency", "buy_in", "fee", "unit", "bounty", "bounty_kind", "rebuy",
              "addon", "payouts")
REBUY_KEYS = ("price", "fee", "chips", "until_level", "max")
ADDON_KEYS = ("price", "fee", "chips", "from_level", "until_level")
BRACKET_KEYS = ("up_to", "places")
BOUNTY_KINDS = ("fixed", "progressive")

# Percentages by number of entries when the file gives none: the usual ~15-20% paid,
# a steeper top for small fields (each row sums to 100).
DEFAULT_PAYOUTS = [
    {"up_to": 10, "places": [50, 30, 20]},
    {"up_to": 20, "places": [40, 25, 18, 10, 7]},
    {"up_to": 30, "places": [35, 22, 15, 11, 9, 8]},
    {"up_to": 50, "places": [30, 20, 14, 10, 8, 7, 6, 5]},
    {"up_to": None, "places": [27, 17, 12, 9, 7, 6, 5, 4.5, 4, 3.5, 3, 2]},
]


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def cents(v):
    """Units of money (20, 12.5) as integer cents; None when not a whole number of cents."""
    if not _is_num(v) or v < 0 or v > 10**9:
        return None
    c = round(v * 100)
    return c if abs(c - v * 100) < 1e-6 else None


def fmt(c, currency=""):
    """Cents as money text: "£1,250", "£12.50"."""
    sign = "-" if c < 0 else ""
    c = abs(c)
    whole = "{:,}".format(c // 100)
    return "%s%s%s%s" % (sign, currency, whole, "" if c % 100 == 0 else ".%02d" % (c % 100))


def _pct_ok(places):
    return (isinstance(places, list) and places and all(_is_num(p) and p > 0 for p in places)
            and abs(sum(places) - 100) < 1e-6
            and all(a >= b for a, b in zip(places, places[1:])))


def check_places(places):
    """None when *places* is a usable payout row (percentages, largest first, sum 100),
    else the sentence saying why."""
    if not isinstance(places, list) or not places or not all(
            _is_num(p) and p > 0 for p in places):
        return "give the places as a list of percentages, e.g. [50, 30, 20]"
    if abs(sum(places) - 100) > 1e-6:
        return "the percentages add up to %s, not 100" % ("%g" % sum(places))
    if not all(a >= b for a, b in zip(places, places[1:])):
        return "each place must pay no more than the place above it"
    return None


def parse(raw, fail):
    """The normalised ``[money]`` table, or None for a free tournament.  ``fail(path,
    sentence)`` raises the file error (tdhost.tfile._Checker.fail)."""
    if raw is None:
        return None
    p = ("money",)
    if not isinstance(raw, dict):
        fail(p, "must be a table")
    for k in raw:
        if k not in MONEY_KEYS:
            fail(p + (k,), "unknown key (expected one of %s)" % ", ".join(MONEY_KEYS))

    def amount(obj, path, key, default=None, required=False):
        if key not in obj:
            if required:
                fail(path, "the key %r is missing" % key)
            return default
        c = cents(obj[key])
        if c is None:
            fail(path + (key,), "must be an amount of money like 20 or 12.50, not %r"
                 % (obj[key],))
        return c

    def level(obj, path, key, default=None):
        v = obj.get(key, default)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
            fail(path + (key,), "must be a level number from 1, not %r" % (v,))
        return v

    buy_in = amount(raw, p, "buy_in", required=True)
    if buy_in == 0:
        fail(p + ("buy_in",), "a tournament with money needs a buy-in above 0 "
                              "(leave [money] out for a free one)")
    fee = amount(raw, p, "fee", 0)
    if fee >= buy_in:
        fail(p + ("fee",), "must be less than the buy-in")
    unit = amount(raw, p, "unit", 100)
    if unit == 0:
        fail(p + ("unit",), "the smallest payout step must be above 0")
    currency = raw.get("currency", "£")
    if not isinstance(currency, str) or len(currency) > 4:
        fail(p + ("currency",), "must be a short text like \"£\" or \"$\"")
    bounty = amount(raw, p, "bounty", 0)
    kind = raw.get("bounty_kind", "fixed")
    if kind not in BOUNTY_KINDS:
        fail(p + ("bounty_kind",), "must be \"fixed\" or \"progressive\", not %r" % (kind,))

    def window(key, keys):
        if key not in raw:
            return None
        w = raw[key]
        wp = ("money." + key,)  # one name: tfile.locate finds the [money.rebuy] header
        if not isinstance(w, dict):
            fail(wp, "must be a table")
        for k in w:
            if k not in keys:
                fail(wp + (k,), "unknown key (expected one of %s)" % ", ".join(keys))
        out = {"price": amount(w, wp, "price", required=True), "fee": amount(w, wp, "fee", 0)}
        if out["price"] == 0 or out["fee"] >= out["price"]:
            fail(wp + ("price",), "the price must be above 0 and above its fee")
        chips = w.get("chips")
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 1:
            fail(wp + ("chips",), "must be the whole number of chips it buys")
        out["chips"] = chips
        out["until_level"] = level(w, wp, "until_level")
        if out["until_level"] is None:
            fail(wp, "the key 'until_level' is missing (the last level it is allowed in)")
        if key == "rebuy":
            mx = w.get("max")
            if mx is not None and (not isinstance(mx, int) or isinstance(mx, bool) or mx < 1):
                fail(wp + ("max",), "must be a whole number of re-buys per player from 1")
            out["max"] = mx
        else:
            out["from_level"] = level(w, wp, "from_level", 1)
            if out["from_level"] > out["until_level"]:
                fail(wp + ("from_level",), "comes after until_level")
        return out

    table = raw.get("payouts", DEFAULT_PAYOUTS)
    if not isinstance(table, list) or not table:
        fail(p + ("payouts",), "must be a list: [[money.payouts]] up_to = 10, "
                               "places = [50, 30, 20]")
    rows, last = [], 0
    for i, row in enumerate(table):
        rp = ("money.payouts", i)  # the i-th [[money.payouts]]
        if not isinstance(row, dict):
            fail(rp, "must be a table")
        for k in row:
            if k not in BRACKET_KEYS:
                fail(rp + (k,), "unknown key (expected up_to, places)")
        up = row.get("up_to")
        if up is not None and (not isinstance(up, int) or isinstance(up, bool) or up <= last):
            fail(rp + ("up_to",), "must be a number of entries above the row before")
        why = check_places(row.get("places"))
        if why:
            fail(rp + ("places",), why)
        rows.append({"up_to": up, "places": list(row["places"])})
        last = up or last
    return {"currency": currency, "buy_in": buy_in, "fee": fee, "unit": unit,
            "bounty": bounty, "bounty_kind": kind, "rebuy": window("rebuy", REBUY_KEYS),
            "addon": window("addon", ADDON_KEYS), "payouts": rows}


def table_for(cfg, entries):
    """The payout percentages for *entries* (the first row whose up_to covers them, else
    the last), no more places than entries."""
    row = cfg["payouts"][-1]
    for r in cfg["payouts"]:
        if r["up_to"] is None or entries <= r["up_to"]:
            row = r
            break
    return list(row["places"])[:max(entries, 1)]


def pool(cfg, entries, rebuys, addons):
    """The prize pool in cents: buy-ins + re-buys + add-ons - fees."""
    total = entries * cfg["buy_in"] - entries * cfg["fee"]
    for key, n in (("rebuy", rebuys), ("addon", addons)):
        w = cfg.get(key)
        if w and n:
            total += n * (w["price"] - w["fee"])
    return total


def split(pool_c, places, unit):
    """The pool shared by the percentages *places*: each place rounded down to a whole
    *unit* (the smallest chip of money), what rounding leaves over goes to 1st; the amounts
    add up to the pool exactly and never rise down the table."""
    if not places or pool_c <= 0:
        return [0] * len(places)
    total_bp = sum(round(p * 100) for p in places)
    out = [(pool_c * round(p * 100) // total_bp) // unit * unit for p in places]
    out[0] += pool_c - sum(out)
    return out


def payouts(cfg, pool_c, entries, places=None):
    """[cents for 1st, 2nd, ...]; *places* overrides the table (the TD's edit)."""
    row = list(places)[:max(entries, 1)] if places else table_for(cfg, entries)
    return split(pool_c, row, cfg["unit"])


def shares(amounts, tiers, unit):
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
