"""The tournament file (TOML): read, check, and turn into the normalised setup the host
stores with the tournament.

    [league]            name
    [tournament]        name, date, profile, seats_per_table, max_players, standby,
                        starting_stack, deepstack
    [late_entry]        until_level, min_players, grace_minutes, dead_big_blind,
                        deductions, absent_deductions, standby_replaces_absent
    [[levels]]          sb, bb, ante, minutes  -- or  break = minutes
    [[colour_ups]]      after_level, remove, chip
    [points]            formula, places, participation, decimals
    [money]             currency, buy_in, fee, unit, bounty, bounty_kind, rebuy, addon,
                        payouts  (tdhost.money; none: a free tournament)

Values left out come from the profile: the boxes' rules in tableclock.profiles (the late
entry window, colour-ups) and the host's in tdhost.rules.  The blind structure is checked
by the boxes' own parser (tableclock.clock.parse_levels, tableclock.config.clock_of), so
a file the host accepts is one the boxes accept.  Every error is one sentence that starts
with FILE:LINE (or FILE when no line can be found) and names the key path.
"""

import datetime
import re
import tomllib

from tableclock import config as box_config
from tableclock.clock import ClockError, parse_levels
from tableclock.fields import SetupError
from tdhost import money as _money, points as _points, rules as _rules

TOP = ("league", "tournament", "late_entry", "levels", "colour_ups", "points", "money")
LEAGUE_KEYS = ("name",)
TOURNAMENT_KEYS = ("name", "date", "profile", "seats_per_table", "max_players", "standby",
                   "starting_stack", "deepstack")
LATE_KEYS = ("until_level", "min_players", "grace_minutes", "dead_big_blind", "deductions",
             "absent_deductions", "standby_replaces_absent")
LEVEL_KEYS = ("sb", "bb", "ante", "minutes", "break")
COLOUR_KEYS = ("after_level", "remove", "chip")
POINTS_KEYS = ("formula", "places", "participation", "decimals")
MIN_SEATS, MAX_SEATS = 2, 10


class FileError(ValueError):
    """The tournament file is not valid; str(err) is one sentence with file:line."""


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _path_str(path):
    out = ""
    for p in path:
        out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + p
    return out


def locate(text, path):
    """The 1-based line of *path* (("levels", 2, "sb"), ("tournament", "profile")) in the
    TOML *text*, or None.  Handles [table] and [[array]] headers and `key =` lines."""
    lines = text.splitlines()
    header = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    head, count, found_head = None, {}, None
    want_table = path[0] if path else None
    want_index = path[1] if len(path) > 1 and isinstance(path[1], int) else None
    rest = [p for p in path[1:] if not isinstance(p, int)]
    key = rest[0] if rest else None
    top_key = re.compile(r"^\s*%s\s*=" % re.escape(str(want_table)))
    for i, line in enumerate(lines, 1):
        m = header.match(line)
        if m:
            name = m.group(2)
            if m.group(1) == "[[":
                count[name] = count.get(name, -1) + 1
                head = (name, count[name])
            else:
                head = (name, None)
            if head[0] == want_table and (want_index is None or head[1] == want_index):
                found_head = i
                if key is None:
                    return i
            continue
        if head is None and top_key.match(line):
            return i  # `levels = [...]` or `tournament = {...}` at the top
        if found_head and head and head[0] == want_table and key is not None and (
                want_index is None or head[1] == want_index):
            if re.match(r"^\s*%s\s*=" % re.escape(key), line):
                return i
    return found_head


class _Checker:
    def __init__(self, name, text):
        self.name, self.text = name, text

    def fail(self, path, msg):
        line = locate(self.text, path) if path else None
        where = "%s:%d" % (self.name, line) if line else self.name
        msg = msg if msg.endswith(".") else msg + "."
        raise FileError("%s: %s: %s" % (where, _path_str(path), msg) if path
                        else "%s: %s" % (where, msg))

    def table(self, obj, path, keys, required=()):
        if not isinstance(obj, dict):
            self.fail(path, "must be a table")
        for k in obj:
            if k not in keys:
                self.fail(path + (k,), "unknown key (expected one of %s)" % ", ".join(keys))
        for k in required:
            if k not in obj:
                self.fail(path, "the key %r is missing" % k)
        return obj

    def int_(self, obj, path, key, lo, hi=None, default=None):
        v = obj.get(key, default)
        if v is None:
            return None
        if not _is_int(v) or v < lo or (hi is not None and v > hi):
            rng = "from %d to %d" % (lo, hi) if hi is not None else "of at least %d" % lo
            self.fail(path + (key,), "must be a whole number %s, not %r" % (rng, v))
        return v

    def bool_(self, obj, path, key, default):
        v = obj.get(key, default)
        if not isinstance(v, bool):
            self.fail(path + (key,), "must be true or false, not %r" % (v,))
        return v

    def str_(self, obj, path, key, default=None):
        v = obj.get(key, default)
        if v is None:
            return None
        if not isinstance(v, str) or not v.strip():
            self.fail(path + (key,), "must be a non-empty string, not %r" % (v,))
        return v.strip()


def load(path):
    """Read and check the tournament file at *path*; (setup dict, text)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as err:
        raise FileError("%s: cannot be read (%s)." % (path, err.strerror or err))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("%s: is not UTF-8 text." % path)
    return parse(text, path), text


def parse(text, name="<file>"):
    """Check the TOML *text* and return the normalised setup (see the module docstring)."""
    c = _Checker(name, text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(err))
        if m:
            raise FileError("%s:%s: not valid TOML: %s (column %s)."
                            % (name, m.group(1), msg, m.group(2)))
        raise FileError("%s: not valid TOML: %s." % (name, msg))
    c.table(doc, (), TOP, required=("tournament", "levels"))

    league = c.table(doc.get("league", {}), ("league",), LEAGUE_KEYS)
    league_name = c.str_(league, ("league",), "name", "League")

    t = c.table(doc["tournament"], ("tournament",), TOURNAMENT_KEYS, required=("name", "profile"))
    tp = ("tournament",)
    profile = t["profile"]
    try:
        box, host = _rules.get(profile)
    except ValueError as err:
        c.fail(tp + ("profile",), str(err))
    seats = c.int_(t, tp, "seats_per_table", MIN_SEATS, MAX_SEATS)
    if seats is None:
        c.fail(tp, "the key 'seats_per_table' is missing")
    field = host["field"]
    max_players = c.int_(t, tp, "max_players", 2, field["max_players"], field["max_players"])
    standby = c.int_(t, tp, "standby", 0, field["standby"] if field["max_players"] else None,
                     field["standby"])
    if standby and max_players is None:
        c.fail(tp + ("standby",), "a standby list needs max_players (standby players wait "
                                  "for a full tournament)")
    stack = c.int_(t, tp, "starting_stack", 1, 10**9, field["starting_stack"])
    if stack is None:
        c.fail(tp, "the key 'starting_stack' is missing (profile %s has no default)" % profile)
    deepstack = c.bool_(t, tp, "deepstack", False)
    date = t.get("date")
    if isinstance(date, (datetime.date, datetime.datetime)):
        date = date.isoformat()
    elif date is not None and not isinstance(date, str):
        c.fail(tp + ("date",), "must be a date like 2025-03-03")

    # late entry: the window is the boxes' late_entry_until_level; the rest is the host's
    lp = ("late_entry",)
    late_in = c.table(doc.get("late_entry", {}), lp, LATE_KEYS)
    rl = host["late"]
    until = c.int_(late_in, lp, "until_level", 1, 1000, box["late_entry_until_level"])
    dkey = "deepstack_deductions" if deepstack else "deductions"
    deductions = late_in.get("deductions", rl[dkey])
    if not isinstance(deductions, list) or not all(_is_int(d) and d >= 0 for d in deductions):
        c.fail(lp + ("deductions",), "must be a list of whole numbers of chips, one per level")
    if deepstack and "deductions" not in late_in and not rl["deepstack_deductions"] \
            and rl["deductions"]:
        c.fail(tp + ("deepstack",), "profile %s has no deepstack deductions: give "
                                    "late_entry.deductions" % profile)
    late = {
        "until_level": until,
        "min_players": c.int_(late_in, lp, "min_players", 1, 10000, rl["min_players"]),
        "grace_minutes": c.int_(late_in, lp, "grace_minutes", 0, 600, rl["grace_minutes"]),
        "grace_dead_bb": c.bool_(late_in, lp, "dead_big_blind", rl["grace_dead_bb"]),
        "deductions": list(deductions),
        "absent_deductions": c.bool_(late_in, lp, "absent_deductions",
                                     rl["absent_deductions"]),
        "standby_replaces_absent": c.bool_(late_in, lp, "standby_replaces_absent",
                                           rl["standby_replaces_absent"]),
    }
    for k in range(1, len(deductions) + 1):
        if stack - sum(deductions[:k]) <= 0:
            c.fail(lp + ("deductions",), "the first %d deductions (%d) leave no chips of the "
                                         "starting stack %d" % (k, sum(deductions[:k]), stack))

    # the blind structure, checked by the boxes' parser
    levels = doc["levels"]
    if not isinstance(levels, list) or not levels:
        c.fail(("levels",), "must be a list of levels: [[levels]] sb = 25, bb = 50, minutes = 20")
    for i, lv in enumerate(levels):
        c.table(lv, ("levels", i), LEVEL_KEYS)
        if "break" in lv and len(lv) > 1:
            c.fail(("levels", i), "a break has only `break = minutes`")
    try:
        parsed = parse_levels(levels)
    except ClockError as err:
        m = re.match(r"levels\[(\d+)\]\.?(\w+)?", str(err))
        path = ("levels", int(m.group(1))) + ((m.group(2),) if m and m.group(2) else ()) \
            if m else ("levels",)
        c.fail(path, re.sub(r"^levels\[\d+\](\.\w+)?[.:]?\s*", "", str(err)))
    numbers = [e[4] for e in parsed if e[4]]
    # the profile's colour-ups apply when the file has none (a structure that ends before
    # one of them simply never reaches it); the file's own must name levels it has
    colour_ups = doc.get("colour_ups", box["colour_ups"])
    if not isinstance(colour_ups, list):
        c.fail(("colour_ups",), "must be a list: [[colour_ups]] after_level = 5, chip = 100")
    for i, cu in enumerate(colour_ups):
        c.table(cu, ("colour_ups", i), COLOUR_KEYS, required=("after_level",))
        if "colour_ups" in doc and cu["after_level"] not in numbers:
            c.fail(("colour_ups", i, "after_level"), "there is no level %r (levels 1 to %d)"
                   % (cu["after_level"], numbers[-1]))
        if "remove" in cu and not (isinstance(cu["remove"], list)
                                   and all(_is_int(x) and x > 0 for x in cu["remove"])):
            c.fail(("colour_ups", i, "remove"), "must be a list of chip values")
    setup = {"levels": levels, "colour_ups": colour_ups, "late_entry_until_level": until}
    try:
        box_config.clock_of(setup, box)
    except SetupError as err:
        c.fail(("colour_ups",), str(err))
    if until is not None and until > numbers[-1] + 1:
        c.fail(lp + ("until_level",), "there are only %d levels" % numbers[-1])

    pp = ("points",)
    pts_in = c.table(doc.get("points", {}), pp, POINTS_KEYS)
    formula = c.str_(pts_in, pp, "formula", "sqrt")
    places = pts_in.get("places")
    if formula == "table":
        if not isinstance(places, list) or not places or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0
                for x in places):
            c.fail(pp + ("places",), 'formula "table" needs places = [points for 1st, 2nd, ...]')
    elif places is not None:
        c.fail(pp + ("places",), 'places is only used with formula = "table"')
    part = pts_in.get("participation", 0)
    if not isinstance(part, (int, float)) or isinstance(part, bool) or part < 0:
        c.fail(pp + ("participation",), "must be a number of points, not %r" % (part,))
    pts = {"formula": formula, "places": places, "participation": part,
           "decimals": c.int_(pts_in, pp, "decimals", 0, 6, 2)}
    try:
        _points.check(pts)
    except _points.FormulaError as err:
        c.fail(pp + ("formula",), str(err))

    return {
        "league": league_name,
        "name": c.str_(t, tp, "name"),
        "date": date,
        "profile": profile,
        "seats_per_table": seats,
        "max_players": max_players,
        "standby": standby,
        "starting_stack": stack,
        "deepstack": deepstack,
        "late": late,
        "levels": levels,
        "colour_ups": colour_ups,
        "points": pts,
        "money": _money_table(doc, c),
    }


def _money_table(doc, c):
    """``[money]`` checked by tdhost.money (None: a free tournament; docs/host.md §11)."""
    return _money.parse(doc.get("money"), c.fail)
