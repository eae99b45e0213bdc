"""The tournament file (TOML): read, check, and turn into the normalised setup the host
stores with the tournament.  Values left out come from the profile; the blind structure is
checked by the boxes' own parser, so a file the host accepts is one the boxes accept.  Every
error is one sentence starting with FILE:LINE and naming the key path; a file over
MAX_BYTES or nested deeper than tomllib's recursion goes is one sentence too.  docs/host.md §2.
"""

import datetime
import math
import re
import tomllib
from typing import Any, NoReturn, Sequence

from tableclock import config as box_config, protocol
from tableclock.canonjson import ProtocolError
from tableclock.clock import ClockError
from tableclock.fields import SetupError
from tableclock.levels import parse_levels
from tdhost.rules import house as _house, money as _money, points as _points

TOP = ("league", "tournament", "late_entry", "reentry", "levels", "colour_ups", "points",
       "money")
LEAGUE_KEYS = ("name",)
TOURNAMENT_KEYS = ("name", "date", "profile", "seats_per_table", "max_players", "standby",
                   "starting_stack", "deepstack")
LATE_KEYS = ("until_level", "min_players", "grace_minutes", "dead_big_blind", "deductions",
             "absent_deductions", "standby_replaces_absent")
LEVEL_KEYS = ("sb", "bb", "ante", "minutes", "break")
COLOUR_KEYS = ("after_level", "remove", "chip")
REENTRY_KEYS = ("max", "until_level")
MAX_REENTRIES = 100  # a player's re-entries in one tournament
POINTS_KEYS = ("formula", "places", "participation", "decimals")
MIN_SEATS, MAX_SEATS = 2, 10
MAX_CHIPS = 10**9  # a stack, a blind, a deduction: far above any night, far below the frame's
MAX_MINUTES = 600  # a level or a break
MAX_PLAYERS = 10000
MAX_NAME = 80  # characters of a league or tournament name
MAX_POINTS = 10**6
MAX_BYTES = 10**6  # a tournament file: a few KB (the blind structure fits in one frame)


class FileError(ValueError):
    """The tournament file is not valid; str(err) is one sentence with file:line."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _path_str(path: Sequence[str | int]) -> str:
    out = ""
    for p in path:
        out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + p
    return out


def locate(text: str, path: Sequence[str | int]) -> int | None:
    """The 1-based line of *path* (("levels", 2, "sb"), ("tournament", "profile")) in the
    TOML *text*, or None.  Handles [table] and [[array]] headers and `key =` lines."""
    lines = text.splitlines()
    header = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    head: tuple[str, int | None] | None = None
    count: dict[str, int] = {}
    found_head: int | None = None
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


class FileChecker:
    """Checks a tournament file's values; ``fail`` raises the FileError of a key path."""

    def __init__(self, name: str, text: str) -> None:
        self.name, self.text = name, text

    def fail(self, path: tuple[str | int, ...], msg: str) -> NoReturn:
        line = locate(self.text, path) if path else None
        where = "%s:%d" % (self.name, line) if line else self.name
        msg = msg if msg.endswith(".") else msg + "."
        raise FileError("%s: %s: %s" % (where, _path_str(path), msg) if path
                        else "%s: %s" % (where, msg))

    def table(self, obj: Any, path: tuple[str | int, ...], keys: Sequence[str],
              required: Sequence[str] = ()) -> Any:
        if not isinstance(obj, dict):
            self.fail(path, "must be a table")
        for k in obj:
            if k not in keys:
                self.fail(path + (k,), "unknown key (expected one of %s)" % ", ".join(keys))
        for k in required:
            if k not in obj:
                self.fail(path, "the key %r is missing" % k)
        return obj

    def int_(self, obj: Any, path: tuple[str | int, ...], key: str, lo: int,
             hi: int | None = None, default: int | None = None) -> Any:
        v = obj.get(key, default)
        if v is None:
            return None
        if not _is_int(v) or v < lo or (hi is not None and v > hi):
            rng = "from %d to %d" % (lo, hi) if hi is not None else "of at least %d" % lo
            self.fail(path + (key,), "must be a whole number %s, not %r" % (rng, v))
        return v

    def bool_(self, obj: Any, path: tuple[str | int, ...], key: str, default: bool) -> Any:
        v = obj.get(key, default)
        if not isinstance(v, bool):
            self.fail(path + (key,), "must be true or false, not %r" % (v,))
        return v

    def str_(self, obj: Any, path: tuple[str | int, ...], key: str,
             default: str | None = None) -> Any:
        v = obj.get(key, default)
        if v is None:
            return None
        if not isinstance(v, str) or not v.strip():
            self.fail(path + (key,), "must be a non-empty string, not %r" % (v,))
        return v.strip()

    def name_(self, obj: Any, path: tuple[str | int, ...], key: str,
              default: str | None = None) -> Any:
        """A name people read on screens: printable, at most MAX_NAME characters."""
        v = self.str_(obj, path, key, default)
        if v is not None and not v.isprintable():
            bad = [ch for ch in v if not ch.isprintable()][0]
            self.fail(path + (key,), "%r holds the control character U+%04X: names must be "
                                     "printable text" % (v, ord(bad)))
        if v is not None and len(v) > MAX_NAME:
            self.fail(path + (key,), "is %d characters long; at most %d fit on the screens"
                      % (len(v), MAX_NAME))
        return v

    def number_(self, obj: Any, path: tuple[str | int, ...], key: str, default: float,
                hi: float) -> Any:
        """A finite number of points from 0 to *hi* (whole or not)."""
        v = obj.get(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                math.isfinite(v) and 0 <= v <= hi):
            self.fail(path + (key,), "must be a number of points from 0 to %d, not %r"
                      % (hi, v))
        return v


def load(path: str) -> tuple[dict[str, Any], str]:
    """Read and check the tournament file at *path*; (setup dict, text)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise FileError("%s: cannot be read (%s)." % (path, err.strerror or err))
    if len(raw) > MAX_BYTES:
        raise FileError(_too_large(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("%s: is not UTF-8 text." % path)
    return parse(text, path), text


def _too_large(name: str) -> str:
    return "%s: is larger than %d MB: a tournament file is a few KB." % (
        name, MAX_BYTES // 10**6)


def parse(text: str, name: str = "<file>") -> dict[str, Any]:
    """Check the TOML *text* and return the normalised setup (see the module docstring)."""
    if len(text) > MAX_BYTES:
        raise FileError(_too_large(name))
    try:
        return _parse(text, name)
    except (RecursionError, MemoryError):  # tomllib recurses into nested arrays and tables
        raise FileError("%s: not a tournament file: its arrays or tables are nested too"
                        " deeply." % name)


def _parse(text: str, name: str) -> dict[str, Any]:
    """The sections in the order they are checked (the first error is the one told)."""
    check = FileChecker(name, text)
    doc = _toml(text, name)
    check.table(doc, (), TOP, required=("tournament", "levels"))
    league_name = _league(check, doc)
    tour, box, host = _tournament(check, doc)
    late = _late_entry(check, doc, tour, box, host)
    levels, numbers = _levels(check, doc)
    colour_ups = _colour_ups(check, doc, box, numbers)
    _structure(check, tour, late["until_level"], levels, colour_ups, numbers, box)
    reentry = _reentry(doc, check, numbers[-1])
    return {
        "league": league_name,
        "name": tour["name"],
        "date": tour["date"],
        "profile": tour["profile"],
        "seats_per_table": tour["seats_per_table"],
        "max_players": tour["max_players"],
        "standby": tour["standby"],
        "starting_stack": tour["starting_stack"],
        "deepstack": tour["deepstack"],
        "late": late,
        "reentry": reentry,
        "levels": levels,
        "colour_ups": colour_ups,
        "points": _points_table(check, doc),
        "money": _money_table(doc, check),
    }


def _toml(text: str, name: str) -> dict[str, Any]:
    """The TOML document, or its syntax error as one sentence with the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(err))
        if m:
            raise FileError("%s:%s: not valid TOML: %s (column %s)."
                            % (name, m.group(1), msg, m.group(2)))
        raise FileError("%s: not valid TOML: %s." % (name, msg))


def _league(check: FileChecker, doc: dict[str, Any]) -> Any:
    """``[league]``: its name ("League" when left out)."""
    league = check.table(doc.get("league", {}), ("league",), LEAGUE_KEYS)
    return check.name_(league, ("league",), "name", "League")


def _tournament(check: FileChecker, doc: dict[str, Any]
                ) -> tuple[dict[str, Any], _house.BoxProfile, _house.HouseRules]:
    """``[tournament]`` with the profile's defaults: (its values by setup key, the
    profile's box rules, the profile's host rules)."""
    tournament_in = check.table(doc["tournament"], ("tournament",), TOURNAMENT_KEYS,
                                  required=("name", "profile"))
    tp = ("tournament",)
    name = check.name_(tournament_in, tp, "name")
    profile = tournament_in["profile"]
    if not isinstance(profile, str):
        check.fail(tp + ("profile",), "must be the name of a profile (%s), not %r"
                   % (", ".join(sorted(_house.HOUSE)), profile))
    try:
        box, host = _house.get(profile)
    except ValueError as err:
        check.fail(tp + ("profile",), str(err))
    seats = check.int_(tournament_in, tp, "seats_per_table", MIN_SEATS, MAX_SEATS)
    if seats is None:
        check.fail(tp, "the key 'seats_per_table' is missing")
    field = host["field"]
    max_players = check.int_(tournament_in, tp, "max_players", 2,
                             field["max_players"] or MAX_PLAYERS, field["max_players"])
    standby = check.int_(tournament_in, tp, "standby", 0,
                         field["standby"] if field["max_players"] else MAX_PLAYERS,
                         field["standby"])
    if standby and max_players is None:
        check.fail(tp + ("standby",), "a standby list needs max_players (standby players wait "
                                      "for a full tournament)")
    stack = check.int_(tournament_in, tp, "starting_stack", 1, MAX_CHIPS, field["starting_stack"])
    if stack is None:
        check.fail(tp, "the key 'starting_stack' is missing (profile %s has no default)" % profile)
    deepstack = check.bool_(tournament_in, tp, "deepstack", False)
    date = _date(check, tp, tournament_in.get("date"))
    return ({"name": name, "date": date, "profile": profile, "seats_per_table": seats,
             "max_players": max_players, "standby": standby, "starting_stack": stack,
             "deepstack": deepstack}, box, host)


def _late_entry(check: FileChecker, doc: dict[str, Any], tour: dict[str, Any],
                box: _house.BoxProfile, host: _house.HouseRules) -> dict[str, Any]:
    """``[late_entry]``: the window is the boxes' late_entry_until_level; the rest is the
    host's (the deductions must leave chips of the starting stack)."""
    lp, tp = ("late_entry",), ("tournament",)
    profile, deepstack, stack = tour["profile"], tour["deepstack"], tour["starting_stack"]
    late_in = check.table(doc.get("late_entry", {}), lp, LATE_KEYS)
    rl = host["late"]
    until = check.int_(late_in, lp, "until_level", 1, 1000, box["late_entry_until_level"])
    deductions = late_in.get("deductions",
                             rl["deepstack_deductions"] if deepstack else rl["deductions"])
    if not isinstance(deductions, list) or len(deductions) > 1000 or not all(
            _is_int(chips) and 0 <= chips <= MAX_CHIPS for chips in deductions):
        check.fail(lp + ("deductions",), "must be a list of whole numbers of chips, one per level, "
                                         "not %s" % _short(deductions))
    if deepstack and "deductions" not in late_in and not rl["deepstack_deductions"] \
            and rl["deductions"]:
        check.fail(tp + ("deepstack",), "profile %s has no deepstack deductions: give "
                                        "late_entry.deductions" % profile)
    late = {
        "until_level": until,
        "min_players": check.int_(late_in, lp, "min_players", 1, 10000, rl["min_players"]),
        "grace_minutes": check.int_(late_in, lp, "grace_minutes", 0, 600, rl["grace_minutes"]),
        "grace_dead_bb": check.bool_(late_in, lp, "dead_big_blind", rl["grace_dead_bb"]),
        "deductions": list(deductions),
        "absent_deductions": check.bool_(late_in, lp, "absent_deductions",
                                         rl["absent_deductions"]),
        "standby_replaces_absent": check.bool_(late_in, lp, "standby_replaces_absent",
                                               rl["standby_replaces_absent"]),
    }
    for k in range(1, len(deductions) + 1):
        if stack - sum(deductions[:k]) <= 0:
            check.fail(lp + ("deductions",), "the first %d deductions (%d) leave no chips of the "
                                             "starting stack %d" % (k, sum(deductions[:k]), stack))
    return late


def _levels(check: FileChecker, doc: dict[str, Any]) -> tuple[Any, list[int]]:
    """``[[levels]]``, checked by the boxes' parser: (the levels, their numbers)."""
    levels = doc["levels"]
    if not isinstance(levels, list) or not levels:
        check.fail(("levels",),
                       "must be a list of levels: [[levels]] sb = 25, bb = 50, minutes = 20")
    for i, lv in enumerate(levels):
        _level(check, lv, ("levels", i))
    try:
        parsed = parse_levels(levels)
    except ClockError as err:
        m = re.match(r"levels\[(\d+)\]\.?(\w+)?", str(err))
        path = ("levels", int(m.group(1))) + ((m.group(2),) if m and m.group(2) else ()) \
            if m else ("levels",)
        check.fail(path, re.sub(r"^levels\[\d+\](\.\w+)?[.:]?\s*", "", str(err)))
    return levels, [entry[4] for entry in parsed if entry[4]]


def _colour_ups(check: FileChecker, doc: dict[str, Any], box: _house.BoxProfile,
                numbers: list[int]) -> Any:
    """``[[colour_ups]]``: the profile's apply when the file has none (a structure that ends
    before one of them simply never reaches it); the file's own must name levels it has."""
    colour_ups = doc.get("colour_ups", box["colour_ups"])
    if not isinstance(colour_ups, list):
        check.fail(("colour_ups",), "must be a list: [[colour_ups]] after_level = 5, chip = 100")
    for i, cu in enumerate(colour_ups):
        check.table(cu, ("colour_ups", i), COLOUR_KEYS, required=("after_level",))
        check.int_(cu, ("colour_ups", i), "after_level", 1, 10000)
        check.int_(cu, ("colour_ups", i), "chip", 1, MAX_CHIPS)
        if "colour_ups" in doc and cu["after_level"] not in numbers:
            check.fail(("colour_ups", i, "after_level"), "there is no level %r (levels 1 to %d)"
                       % (cu["after_level"], numbers[-1]))
        if "remove" in cu and not (isinstance(cu["remove"], list)
                                   and all(_is_int(chip) and chip > 0 for chip in cu["remove"])):
            check.fail(("colour_ups", i, "remove"), "must be a list of chip values")
    return colour_ups


def _structure(check: FileChecker, tour: dict[str, Any], until: int | None, levels: Any,
               colour_ups: Any, numbers: list[int], box: _house.BoxProfile) -> None:
    """The whole structure as the boxes get it: their clock takes it, the late entry ends
    within it, and their configuration fits in one frame."""
    setup = {"levels": levels, "colour_ups": colour_ups, "late_entry_until_level": until}
    try:
        box_config.clock_of(setup, box)
    except SetupError as err:
        check.fail(("colour_ups",), str(err))
    if until is not None and until > numbers[-1] + 1:
        check.fail(("late_entry", "until_level"), "there are only %d levels" % numbers[-1])

    def size_with(n: int) -> int:
        return config_size(box_config_of(setup_of(tour["name"], tour["profile"],
                                                  tour["seats_per_table"], levels[:n],
                                                  colour_ups, until)))
    try:
        size = size_with(len(levels))
    except ValueError as err:
        check.fail(("levels",), "the boxes cannot be sent this structure: %s" % err)
    if size > protocol.MAX_FRAME:
        lo, hi = 0, len(levels)  # the most entries that fit: lo fits, hi does not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if size_with(mid) <= protocol.MAX_FRAME else (lo, mid)
        check.fail(("levels",), "%d entries do not fit in the boxes' configuration (one frame "
                                "of %d bytes): at most %d like these do"
                   % (len(levels), protocol.MAX_FRAME, lo))


def _points_table(check: FileChecker, doc: dict[str, Any]) -> dict[str, Any]:
    """``[points]``: the formula and its numbers, checked by tdhost.rules.points."""
    pp = ("points",)
    pts_in = check.table(doc.get("points", {}), pp, POINTS_KEYS)
    formula = check.str_(pts_in, pp, "formula", "sqrt")
    places = pts_in.get("places")
    if formula == "table":
        if not isinstance(places, list) or not places or len(places) > MAX_PLAYERS or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                and 0 <= x <= MAX_POINTS for x in places):
            check.fail(pp + ("places",), 'formula "table" needs places = [points for 1st, 2nd, '
                                         '...], each from 0 to %d, not %s'
                       % (MAX_POINTS, _short(places)))
    elif places is not None:
        check.fail(pp + ("places",), 'places is only used with formula = "table"')
    part = check.number_(pts_in, pp, "participation", 0, MAX_POINTS)
    pts = {"formula": formula, "places": places, "participation": part,
           "decimals": check.int_(pts_in, pp, "decimals", 0, 6, 2)}
    try:
        _points.check(pts)
    except _points.FormulaError as err:
        check.fail(pp + ("formula",), str(err))
    return pts


def _reentry(doc: dict[str, Any], check: FileChecker, last: int) -> dict[str, Any]:
    """``[reentry]``: ``max`` re-entries a player may make (0, the default: none) and
    ``until_level``, the last level in which one is taken (needed when max > 0)."""
    rp = ("reentry",)
    re_in = check.table(doc.get("reentry", {}), rp, REENTRY_KEYS)
    most = check.int_(re_in, rp, "max", 0, MAX_REENTRIES, 0)
    until = check.int_(re_in, rp, "until_level", 1, 1000)
    if most and until is None:
        check.fail(rp, "the key 'until_level' is missing: the last level in which a player"
                       " may re-enter")
    if until is not None and until > last:
        check.fail(rp + ("until_level",), "there are only %d levels" % last)
    return {"max": most, "until_level": until}


def _money_table(doc: dict[str, Any], check: FileChecker) -> Any:
    """``[money]`` checked by tdhost.rules.money (None: a free tournament; docs/host.md §11)."""
    return _money.parse(doc.get("money"), check.fail)


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _date(check: FileChecker, tp: tuple[str, ...], date: object) -> str | None:
    """The tournament's date as YYYY-MM-DD (a TOML date, or text holding a real one)."""
    if date is None:
        return None
    if isinstance(date, datetime.datetime):
        return date.date().isoformat()
    if isinstance(date, datetime.date):
        return date.isoformat()
    if isinstance(date, str):
        try:
            return datetime.date.fromisoformat(date.strip()).isoformat()
        except ValueError:
            pass
    check.fail(tp + ("date",), "%s is not a date: write it like 2025-03-03" % _short(date))


def _level(check: FileChecker, lv: Any, path: tuple[str | int, ...]) -> None:
    """One [[levels]] entry: whole minutes, whole positive blinds with sb <= bb, a
    whole ante (the boxes carry whole numbers only: docs/protocol.md)."""
    check.table(lv, path, LEVEL_KEYS)
    if "break" in lv:
        if len(lv) > 1:
            check.fail(path, "a break has only `break = minutes`")
        _minutes(check, lv, path, "break")
        return
    for k in ("sb", "bb", "minutes"):
        if k not in lv:
            check.fail(path, "the key %r is missing (a level is sb, bb, minutes and an optional "
                             "ante; a break is `break = minutes`)" % k)
    _minutes(check, lv, path, "minutes")
    for k, lo in (("sb", 1), ("bb", 1), ("ante", 0)):
        v = lv.get(k, 0)
        if not _is_int(v) or not lo <= v <= MAX_CHIPS:
            check.fail(path + (k,), "must be a whole number of chips from %d to %d, not %s"
                       % (lo, MAX_CHIPS, _short(v)))
    if lv["sb"] > lv["bb"]:
        check.fail(path + ("sb",), "the small blind %d is bigger than the big blind %d"
                   % (lv["sb"], lv["bb"]))


def _minutes(check: FileChecker, lv: Any, path: tuple[str | int, ...], key: str) -> None:
    v = lv[key]
    if not _is_int(v) or not 1 <= v <= MAX_MINUTES:
        check.fail(path + (key,), "must be a whole number of minutes from 1 to %d, not %s "
                                  "(the boxes count whole minutes)" % (MAX_MINUTES, _short(v)))


def setup_of(name: str, profile: str, seats: int, levels: list[Any], colour_ups: list[Any],
             until: int | None) -> dict[str, Any]:
    """The parts of a setup a box's config is made of (``box_config_of``)."""
    return {"name": name, "profile": profile, "seats_per_table": seats, "levels": levels,
            "colour_ups": colour_ups, "late": {"until_level": until}}


def box_config_of(setup: dict[str, Any]) -> dict[str, Any]:
    """What the host sends a box of the tournament *setup* in its config frame
    (tdhost.live.night.Live.for_table; the link adds kind, table, key_id and nonce)."""
    return {"profile": setup["profile"], "seats": setup["seats_per_table"],
            "levels": setup["levels"], "colour_ups": setup["colour_ups"],
            "late_entry_until_level": setup["late"]["until_level"], "event": setup["name"]}


# the longest values the link adds to a config (protocol: ids are 1 to 32 characters)
_WORST = {"kind": "config", "table": 9999, "key_id": "k" * 32, "nonce": "n" * 32}


def config_size(config: dict[str, Any]) -> int:
    """The bytes of the config frame carrying *config* at its longest (the real encoder,
    tableclock.protocol); MAX_FRAME + 1 when it does not fit in one."""
    top = protocol.MAX_COUNTER
    try:
        return len(protocol.encode(dict(config, **_WORST), b"k" * 32, top, boot=top,
                                   to="b" * 32))
    except ProtocolError as err:
        if "too large" not in str(err):
            raise ValueError(str(err))
        return protocol.MAX_FRAME + 1
