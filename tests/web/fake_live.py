"""An in-memory stand-in for ``tdhost.live.night.Live`` (contract: the coordinator's live_api spec,
summarised in docs/web.md): ``version``, ``snapshot()``, ``act(action, args)``, ``poll()``.

It is for the web's own tests and for developing and photographing the pages
(``tests/tools/web_shots.py``); the real rules live in tdhost.league and tdhost.rules.balance.
The night is an LPPL Monday (docs/examples/lppl.toml): 3000-chip stacks, 8 seats a table,
the LPPL structure with its two colour-up breaks (LPPL ¶16, ¶18), points 10 * sqrt(n / p).

Times are integer milliseconds from ``clock()`` (Unix ms; inject a virtual clock in tests).
A refused action raises ``ActionRefused`` (tdhost.league.refusal) with one sentence and
changes nothing.
"""

import copy
import math
import random
import time

from tdhost.league.refusal import ActionRefused
from tdhost.rules import money as _money, schedule as _schedule

STACK = 3000  # LPPL ¶11 "will start with 3000 chips"
SEATS = 8  # the Ace-8 draw: 8 seats a table
# The LPPL structure of docs/examples/lppl.toml: (sb, bb, ante, minutes) or a break.
LEVELS = [
    (25, 50, 0, 20), (50, 100, 0, 20), (75, 150, 0, 20), (100, 200, 0, 20), (150, 300, 0, 20),
    ("break", 10, "Colour up: the 25 and 50 chips go out."),
    (200, 400, 0, 20), (300, 600, 0, 20), (400, 800, 0, 20), (500, 1000, 0, 20),
    (600, 1200, 0, 20),
    ("break", 10, "Colour up: the 100 chips go out."),
    (1000, 2000, 0, 15), (1500, 3000, 0, 15), (2000, 4000, 0, 15), (3000, 6000, 0, 15),
]
NAMES = [
    "Alice Moreton", "Ben Taylor", "Chloe Price", "Dev Patel", "Eddie Clarke", "Fran Hughes",
    "Gaz Whitlock", "Hannah Lee", "Ian McAllister", "Jo Brennan", "Kev Adeyemi", "Lucy Fenwick",
    "Mo Hassan", "Nina Kowalski", "Ollie Stubbs", "Priya Shah", "Quentin Ashby-Ward",
    "Rob Dunmore", "Sue Granger", "Tariq Malik", "Una Byrne", "Vince Polley", "Wendy Oakes",
    "Xavier Lund", "Yasmin Roe", "Zach Fowler",
]


# LPPL ¶18's colour-ups, as the profile gives them
COLOUR_UPS = [{"after_level": 5, "remove": [25, 50]}, {"after_level": 10, "remove": [100]}]


def _box_levels():
    """LEVELS as the boxes' parsed entries (sb, bb, ante, ms, number; 0 = a break)."""
    out, n = [], 0
    for lv in LEVELS:
        if _is_break(lv):
            out.append((0, 0, 0, lv[1] * 60000, 0))
        else:
            n += 1
            out.append((lv[0], lv[1], lv[2], lv[3] * 60000, n))
    return out


def _is_break(lv):
    return lv[0] == "break"


def _minutes(lv):
    return lv[1] if _is_break(lv) else lv[3]


class FakeLive:
    """A running night (or one in registration with ``players=0``) on three tables.

    clock(): Unix time in integer ms.  ``links`` maps table -> link state shown on the console.
    """

    def __init__(self, clock=None, players=23, tables=3, seed=1, links=None, money=None):
        self.money = money  # a parsed [money] table (tdhost.rules.money.parse) or None: free
        self._clock = clock or (lambda: int(time.time() * 1000))
        self._rng = random.Random(seed)
        self.version = 1
        self.links = links or {1: "live", 2: "live", 3: "configured"}
        self.wifi = []  # the Wi-Fi notes: [{"text", "at_ms", "times"}], newest first
        now = self._clock()
        names = NAMES[:players]
        s = {
            "state": "running" if players else "registration",
            "level_index": 0, "level_end_ms": now + LEVELS[0][3] * 60000, "paused_left": None,
            "h4h": False, "tables": {}, "broken": [], "pending": [], "moves": [],
            "registration": [], "standby": [], "results": [], "next_id": 1, "entries": players,
        }
        for t in range(1, tables + 1):
            s["tables"][t] = {}
        for i, name in enumerate(names):
            t, seat = i % tables + 1, i // tables + 1
            s["tables"][t][seat] = {"name": name, "stack": STACK, "away": False}
            s["registration"].append({"name": name, "member": i % 3 != 0, "state": "seated",
                                      "seat": "%d.%d" % (t, seat)})
        self._shuffle_stacks(s)
        self._s = s
        self._undo = []  # (log seq, state before)
        self.log = []
        self.contact = {t: now - 1500 * t for t in self.links}

    def _shuffle_stacks(self, s):
        """Chips move between players (the total stays entries x 3000)."""
        seats = [p for t in sorted(s["tables"]) for _, p in sorted(s["tables"][t].items())]
        for _ in range(len(seats) * 3):
            a, b = self._rng.choice(seats), self._rng.choice(seats)
            amount = min(a["stack"] // 2, self._rng.choice((100, 250, 400, 650, 1200)))
            a["stack"] -= amount
            b["stack"] += amount

    # ------------------------------------------------------------------ clock

    def _ms_left(self, now=None):
        s = self._s
        if s["paused_left"] is not None:
            return s["paused_left"]
        return max(0, s["level_end_ms"] - (self._clock() if now is None else now))

    def _go_to(self, index, now):
        s = self._s
        s["level_index"] = index
        length = _minutes(LEVELS[index]) * 60000
        if s["paused_left"] is not None:
            s["paused_left"] = length
        s["level_end_ms"] = now + length

    def poll(self, now=None):
        """Moves the clock to the next level when this one has run out (ms, Unix clock)."""
        now = self._clock() if now is None else now
        s = self._s
        if s["paused_left"] is None and now >= s["level_end_ms"] and \
                s["level_index"] + 1 < len(LEVELS):
            self._go_to(s["level_index"] + 1, s["level_end_ms"])
            self.version += 1

    def _clock_view(self, now):
        s = self._s
        i = s["level_index"]
        lv = LEVELS[i]
        left = self._ms_left(now)
        view = {"level_index": i, "level": None, "sb": 0, "bb": 0, "ante": 0,
                "is_break": _is_break(lv), "ms_left": left, "paused": s["paused_left"] is not None,
                "next": None, "break_in_ms": None, "colour_up": lv[2] if _is_break(lv) else None}
        if not _is_break(lv):
            view["level"] = sum(1 for x in LEVELS[:i + 1] if not _is_break(x))
            view["sb"], view["bb"], view["ante"] = lv[0], lv[1], lv[2]
        if i + 1 < len(LEVELS):
            nx = LEVELS[i + 1]
            if _is_break(nx):
                view["next"] = {"sb": 0, "bb": 0, "ante": 0, "is_break": True, "minutes": nx[1]}
            else:
                view["next"] = {"sb": nx[0], "bb": nx[1], "ante": nx[2], "is_break": False,
                                "minutes": nx[3]}
        if not _is_break(lv):
            ahead = left
            for nx in LEVELS[i + 1:]:
                if _is_break(nx):
                    view["break_in_ms"] = ahead
                    break
                ahead += nx[3] * 60000
        return view

    # --------------------------------------------------------------- snapshot

    def _left(self):
        return sum(len(seats) for seats in self._s["tables"].values())

    def snapshot(self):
        s = self._s
        now = self._clock()
        left = self._left()
        chips = sum(p["stack"] for seats in s["tables"].values() for p in seats.values())
        tables = []
        for t in sorted(s["tables"]):
            seats = s["tables"][t]
            order = sorted(seats)
            link = self.links.get(t, "none")
            row = {"table": t, "box": "tc-%02d" % t if t in self.links else None, "link": link,
                   "last_contact_ms": now - 400 * t if link == "live" else self.contact.get(t),
                   "hand": 20 + 3 * t if order else None,
                   "button": None, "sb": None, "bb": None, "broken": t in s["broken"],
                   "seats": {str(n): dict(seats[n]) for n in order}}
            if len(order) >= 3:
                row["button"], row["sb"], row["bb"] = order[0], order[1], order[2]
            tables.append(row)
        money = self._money_view()  # one player a place here: no ties
        paid = {p["place"]: p["text"] for p in money["payouts"] if p["name"]} if money else {}
        return {
            "event": "LPPL Lincolnshire",
            "tournament": {"number": 12, "name": "Monday night at the Red Lion",
                           "profile": "lppl", "state": s["state"]},
            "now_ms": now,
            "clock": self._clock_view(now),
            "schedule": _schedule.view(_box_levels(), COLOUR_UPS, s["level_index"],
                                       self._ms_left(now)),
            "money": money,
            "players": {"entries": s["entries"], "left": left,
                        "average_stack": chips // left if left else None,
                        "chips_in_play": chips if left else None},
            "tables": tables,
            "pending": [{k: v for k, v in p.items() if k not in ("from", "stack")}
                        for p in s["pending"]],
            "moves": [dict(m) for m in s["moves"][-20:]],
            "broken": list(s["broken"]),
            "final_table": len([t for t in s["tables"] if t not in s["broken"]]) == 1,
            "hand_for_hand": s["h4h"],
            "registration": [dict(r) for r in s["registration"]],
            "standby": [dict(r) for r in s["standby"]],
            "results": [dict(r, tied=False, prize=paid.get(r["place"])) for r in s["results"]],
            "leaderboard": self._leaderboard(),
            "log": [dict(e) for e in self.log[-50:]],
            "wifi": [dict(w) for w in self.wifi],
        }

    def _money_view(self):
        cfg = self.money
        if cfg is None:
            return None
        entries = self._s["entries"]
        pool = _money.pool(cfg, entries, 0, 0)
        names = {r["place"]: r["name"] for r in self._s["results"]
                 if r["place"] and (r["place"] > 1 or self._s["state"] == "finished")}
        return {"currency": cfg["currency"], "buy_in": _money.fmt(cfg["buy_in"], "£"),
                "fee": _money.fmt(cfg["fee"], "£"), "entries": entries, "rebuys": 0,
                "addons": 0, "pool_c": pool, "pool": _money.fmt(pool, cfg["currency"]),
                "payouts": [{"place": i + 1, "amount_c": a, "text": _money.fmt(a, "£"),
                             "name": names.get(i + 1), "tied": False}
                            for i, a in enumerate(_money.payouts(cfg, pool, entries))],
                "edited": False, "bounty": None, "rebuy": None, "addon": None}

    def _leaderboard(self):
        earlier = {"Alice Moreton": 61.2, "Dev Patel": 58.0, "Priya Shah": 47.5,
                   "Gaz Whitlock": 44.1, "Sue Granger": 39.9}
        pts = dict(earlier)
        for r in self._s["results"]:
            if r["points"] is not None:
                pts[r["name"]] = round(pts.get(r["name"], 0) + r["points"], 2)
        ranked = sorted(pts.items(), key=lambda kv: (-kv[1], kv[0]))
        return [{"rank": i + 1, "name": n, "points": p, "played": 9 if n in earlier else 1}
                for i, (n, p) in enumerate(ranked)]

    # -------------------------------------------------------------------- act

    def act(self, action, args):
        """One TD action: {"ok": True, "text": sentence}; ActionRefused(sentence) changes
        nothing."""
        fn = getattr(self, "_act_" + action, None) if isinstance(action, str) else None
        if fn is None:
            raise ActionRefused("The host has no action called %r." % (action,))
        if not isinstance(args, dict):
            raise ActionRefused("The action's arguments must be a JSON object.")
        before = copy.deepcopy(self._s)
        try:
            text = fn(args)
        except ActionRefused:
            self._s = before
            raise
        seq = len(self.log) + 1
        self.log.append({"seq": seq, "action": action, "text": text, "undone": False})
        if action != "undo":
            self._undo.append((seq, before))
        self.version += 1
        return {"ok": True, "text": text}

    def check(self, action, args):
        """Would act(action, args) be taken now (bust, level, register)? Tried on a copy and
        put back; a bust's names each resolved to the one seated player whose name, or a
        word of it, starts with what was typed: {"ok": True, "names"?}; a registration's
        "doubts" (none here: the fake knows no close spellings)."""
        if action not in ("bust", "level", "register"):
            raise ActionRefused("only bust, level and register can be checked")
        args = dict(args)
        out = {"ok": True}
        if action == "register":
            out["doubts"] = []
        if action == "bust":
            typed = args.get("names")
            if not isinstance(typed, list) or not all(isinstance(n, str) for n in typed):
                raise ActionRefused("type the name of the player who is out")
            out["names"] = args["names"] = [self._who(n) for n in typed]
        saved, rng = copy.deepcopy(self._s), self._rng.getstate()
        try:
            getattr(self, "_act_" + action)(args)
        finally:
            self._s = saved
            self._rng.setstate(rng)
        return out

    def _who(self, typed):
        key = " ".join(typed.split()).lower()
        seated = [p["name"] for seats in self._s["tables"].values() for p in seats.values()]
        found = [n for n in seated if n.lower() == key] or [
            n for n in seated if any(w.startswith(key) for w in n.lower().split())]
        if len(found) != 1:
            raise ActionRefused("%s could be %s: type more of the name" % (typed, " or ".join(
                found)) if found else "nobody called %s is playing" % typed)
        return found[0]

    def _act_pause(self, args):
        s = self._s
        if s["paused_left"] is not None:
            raise ActionRefused("The clock is already paused.")
        s["paused_left"] = self._ms_left()
        return "Clock paused with %s left in the level." % _mmss(s["paused_left"])

    def _act_resume(self, args):
        s = self._s
        if s["paused_left"] is None:
            raise ActionRefused("The clock is already running.")
        s["level_end_ms"] = self._clock() + s["paused_left"]
        s["paused_left"] = None
        return "Clock running again."

    def _act_level(self, args):
        n = args.get("level")
        playing = [i for i, lv in enumerate(LEVELS) if not _is_break(lv)]
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(playing):
            raise ActionRefused("The level must be a whole number from 1 to %d." % len(playing))
        self._go_to(playing[n - 1], self._clock())
        lv = LEVELS[playing[n - 1]]
        return "Clock set to the start of level %d (%d/%d)." % (n, lv[0], lv[1])

    def _act_adjust(self, args):
        sec = args.get("seconds")
        if not isinstance(sec, int) or isinstance(sec, bool) or sec == 0:
            raise ActionRefused("Give the seconds to add (or remove, negative) as a whole number.")
        s = self._s
        if self._ms_left() + sec * 1000 < 1000:
            raise ActionRefused("That leaves less than a second in this level: jump to the next "
                                "level instead.")
        if s["paused_left"] is not None:
            s["paused_left"] += sec * 1000
        else:
            s["level_end_ms"] += sec * 1000
        return "%s %d seconds %s this level." % ("Added" if sec > 0 else "Removed", abs(sec),
                                                 "to" if sec > 0 else "from")

    def _act_hand_for_hand(self, args):
        on = args.get("on")
        if not isinstance(on, bool):
            raise ActionRefused("Say whether hand-for-hand is on (true) or off (false).")
        self._s["h4h"] = on
        return "Hand-for-hand is %s." % ("on" if on else "off")

    def _act_register(self, args):
        names = args.get("names")
        s = self._s
        if s["state"] == "running":
            raise ActionRefused("The tournament has started: enter a latecomer with late.")
        if not isinstance(names, list) or not names or \
                not all(isinstance(n, str) and n.strip() for n in names):
            raise ActionRefused("Give at least one player's name.")
        known = {r["name"].lower() for r in s["registration"]}
        for n in names:
            if n.strip().lower() in known:
                raise ActionRefused("%s is registered already." % n.strip())
            known.add(n.strip().lower())
        for n in names:
            s["registration"].append({"name": n.strip(), "member": bool(args.get("member")),
                                      "state": "registered", "seat": None})
        s["entries"] = len(s["registration"])
        return "Registered %s." % ", ".join(n.strip() for n in names)

    def _seated(self, name):
        for t, seats in self._s["tables"].items():
            for seat, p in seats.items():
                if p["name"].lower() == name.strip().lower():
                    return t, seat
        return None

    def _act_bust(self, args):
        names, chips = args.get("names"), args.get("chips")
        s = self._s
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise ActionRefused("Give the name of the player who is out.")
        if chips is not None and (not isinstance(chips, list) or len(chips) != len(names)):
            raise ActionRefused("Give the chips at the start of the hand once for each player.")
        where = []
        for n in names:
            w = self._seated(n)
            if w is None:
                raise ActionRefused("%s is not playing at any table." % n.strip())
            where.append(w)
        order = list(range(len(names)))
        if chips is not None:  # the smaller stack at the start of the hand finishes lower
            order.sort(key=lambda i: chips[i])
        place = self._left()
        out = []
        for i in order:
            t, seat = where[i]
            p = s["tables"][t].pop(seat)
            mates = [s["tables"][t][n] for n in sorted(s["tables"][t])]
            if mates:  # the chips stay in play: the winner of the hand takes them
                self._rng.choice(mates)["stack"] += p["stack"]
            pts = round(10 * math.sqrt(s["entries"] / place), 2)
            s["results"].append({"place": place, "name": p["name"], "points": pts})
            for r in s["registration"]:
                if r["name"] == p["name"]:
                    r["state"], r["seat"] = "out", None
            out.append("%s (%d)" % (p["name"], place))
            place -= 1
        s["results"].sort(key=lambda r: r["place"])
        self._balance()
        return "Out: %s." % ", ".join(out)

    def _counts(self):
        s = self._s
        return {t: len(seats) for t, seats in s["tables"].items() if t not in s["broken"]}

    def _balance(self):
        """Queues a break when the players fit on one table fewer, else one move from the
        fullest to the emptiest table when they differ by two or more."""
        s = self._s
        if any(p["state"] in ("queued", "sent", "acknowledged") for p in s["pending"]):
            return
        counts = self._counts()
        if len(counts) < 2:
            return
        left = sum(counts.values())
        if left <= (len(counts) - 1) * SEATS:
            gone = min(counts, key=lambda t: (counts[t], -t))
            free = {t: [n for n in range(1, SEATS + 1) if n not in s["tables"][t]]
                    for t in counts if t != gone}
            for seat in sorted(s["tables"][gone]):
                to = max(free, key=lambda t: (len(free[t]), -t))
                self._instruct("break", gone, seat, to, free[to].pop(0))
            return
        hi = max(counts, key=lambda t: (counts[t], -t))
        lo = min(counts, key=lambda t: (counts[t], t))
        if counts[hi] - counts[lo] >= 2:
            seat = max(s["tables"][hi])
            to_seat = min(n for n in range(1, SEATS + 1) if n not in s["tables"][lo])
            self._instruct("move", hi, seat, lo, to_seat)

    def _instruct(self, kind, table, seat, to_table, to_seat):
        """A move as the host writes it (docs/host.md §10.6, protocol 1.2): its move_out now,
        its receive once the move_out is confirmed."""
        s = self._s
        player = s["tables"][table][seat]["name"]
        s["pending"].append({
            "id": "i%d" % s["next_id"], "action": "move_out", "table": table, "seat": seat,
            "player": player, "to_table": to_table, "to_seat": to_seat, "state": "sent",
            "reason": "Table %d has %d players, table %d has %d." % (
                table, len(s["tables"][table]), to_table, len(s["tables"][to_table]))
            if kind == "move" else "Table %d breaks." % table,
            "text": "move %s from table %d seat %d to table %d seat %d (out)" % (
                player, table, seat, to_table, to_seat)})
        s["next_id"] += 1

    def _act_confirm(self, args):
        s = self._s
        ins = [p for p in s["pending"] if p["id"] == args.get("id")]
        if not ins:
            raise ActionRefused("There is no instruction %r." % (args.get("id"),))
        p = ins[0]
        if p["state"] in ("done", "refused"):
            raise ActionRefused("That instruction is %s already." % p["state"])
        stack = args.get("stack")
        if stack is not None and (isinstance(stack, bool) or not isinstance(stack, int)
                                  or stack < 1):
            raise ActionRefused("stack must be a whole number from 1")
        if stack is not None and p["action"] != "move_out":
            raise ActionRefused("a stack goes with a move_out only: %s is a %s" % (p["id"],
                                                                                 p["action"]))
        p["state"] = "done"
        if p["action"] == "move_out":  # the player has left: their receive goes out
            chips = stack or s["tables"][p["table"]][p["seat"]]["stack"]
            s["pending"].append({
                "id": "i%d" % s["next_id"], "action": "receive", "table": p["to_table"],
                "seat": p["to_seat"], "player": p["player"], "to_table": None,
                "to_seat": None, "state": "sent", "reason": None,
                "text": "%s (in, %d chips)" % (p["text"][:-len(" (out)")], chips),
                "from": [p["table"], p["seat"]], "stack": chips})
            s["next_id"] += 1
            return "Confirmed: %s%s." % (p["text"], ", %d chips" % stack if stack else "")
        frm = p.pop("from")
        chips = p.pop("stack")
        player = s["tables"][frm[0]].pop(frm[1])
        s["tables"][p["table"]][p["seat"]] = dict(player, stack=chips)
        src, dst = "%d.%d" % tuple(frm), "%d.%d" % (p["table"], p["seat"])
        s["moves"].append({"player": p["player"], "from": src, "to": dst,
                           "at_ms": self._clock()})
        for r in s["registration"]:
            if r["name"] == p["player"]:
                r["seat"] = dst
        if not s["tables"][frm[0]] and frm[0] not in s["broken"]:
            s["broken"].append(frm[0])
        self._balance()
        return "%s moved from %s to %s." % (p["player"], src, dst)

    def _act_undo(self, args):
        if not self._undo:
            raise ActionRefused("There is nothing to undo.")
        seq, before = self._undo.pop()
        self._s = before
        entry = self.log[seq - 1]
        entry["undone"] = True
        return "Undone: %s" % entry["text"]


def _mmss(ms):
    sec = (ms + 999) // 1000
    return "%d:%02d" % (sec // 60, sec % 60)
