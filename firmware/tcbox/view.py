"""What the box shows: every text on screen, by field, from the table state
(tcbox/screen.py lays them out).  Pure: no hardware imports.  The fields, the
host's data and an instruction's keys: docs/box.md, "The screen's fields".
"""

SETUP = "setup"  # tcbox.menu's mode name for the setup screen


def chips(n):
    """3,025 from 3025 (thousands separated, readable across a table)."""
    text = str(n)
    out = ""
    while len(text) > 3:
        out = "," + text[-3:] + out
        text = text[:-3]
    return text + out


# the banner of the table's hold (tableclock/table.py ``hold``)
HOLDS = {
    "hfh": "HAND FOR HAND",
    "hfh1": "HAND FOR HAND: DEAL",
    "broken": "TABLE BROKEN",
    "redraw": "RE-DRAW: WAIT FOR TD",
}


def colour_changes(st):
    """[(seat, stack, after)] for the seats a colour-up due now changes,
    by seat; [] during a hand or when none is due."""
    out = []  # type: list
    if st["street"] is not None or not st.get("colour_up"):
        return out
    after = st.get("colour_changes") or {}
    for k in after:
        now = st["stacks"].get(k)
        if now is not None and now != after[k]:
            out.append((int(k), now, after[k]))
    out.sort()
    return out


def act_line(st, f):
    """The players' line (``act``): the seat to act and what it costs, a
    called clock, else between hands the instruction, the break, the hold
    or a colour-up, else the ante (or the level) and the next blinds."""
    actor = st["action"]
    if actor is not None:
        if f["shot"]:
            return "Seat %d: %s" % (actor, f["shot"])
        if st["to_call"]:
            return "Seat %d: call %s" % (actor, chips(st["to_call"]))
        return "Seat %d: check" % actor
    if st["street"] == "showdown":
        return "Showdown"
    if st["street"] is not None:
        return ""
    if f["instr"]:
        return f["instr"]
    if st["on_break"] and not st["paused"]:  # the blinds shown are the next level's
        line = "Break: level %d next" % st["level"]
        return line + (", ante " + chips(st["ante"]) if st["ante"] else "")
    if f["banner"]:  # PAUSED, hand for hand, a colour-up...
        return f["banner"]
    return (f["ante"] or f["level"]) + "   " + f["next"]


def fields(st, menu=None, info=None, box=None, blink_off=False, players=False):
    """The screen's fields for table state *st*.

    :param menu: the tcbox.menu.Menu (options and highlight), or None.
    :param info: host data (above).
    :param box: the box's own facts (above), for the setup screen.
    :param blink_off: the dark half second of the shot clock's warning.
    :param players: the players' view (the screen shows the clock, the
        blinds and ``act``, large).
    """
    info = info or {}
    box = box or {}
    f = {}  # type: dict
    f["level"] = "Level %d" % st["level"]
    f["blinds"] = "%s/%s" % (chips(st["sb"]), chips(st["bb"]))
    f["ante"] = "Ante %s" % chips(st["ante"]) if st["ante"] else ""
    f["time"] = st["seconds_left"]  # the screen shows 12:05 (tcbox/screen.py _Clock)
    nl = st.get("next_level")
    f["next"] = "Next %s/%s" % (chips(nl["sb"]), chips(nl["bb"])) if nl else "Last level"
    if st["on_break"]:  # the blinds shown are the next level's: play resumes at them
        f["level"] = "Level %d next" % st["level"]
        f["next"] = ""
    if st["paused"]:
        f["banner"] = "PAUSED"
    elif st["on_break"]:
        f["banner"] = "BREAK"
    elif box.get("hold"):
        f["banner"] = HOLDS.get(box["hold"]) or str(box["hold"])
    elif st.get("colour_up"):
        gone = st["colour_up"]["remove"] or []
        f["banner"] = "Colour up: %s go" % ", ".join(str(x) for x in gone)
    else:
        f["banner"] = ""
    sb = st["sb_seat"]
    f["hand"] = "%s  BTN %s  SB %s  BB %s  Deal %s" % (
        "Hand %d" % st["hand"] if st["hand"] else "First hand", st["button"],
        sb if sb is not None else "dead", st["bb_seat"], st["dealer"])
    actor = st["action"]
    if st["street"] is None:
        f["action"] = "Between hands"
    elif actor is None:
        f["action"] = "Showdown: who wins?" if st["street"] == "showdown" else ""
    else:
        line = "Seat %d to act: %s" % (actor, "call %s" % chips(st["to_call"]) if st["to_call"]
                                        else "check")
        if st["min_raise_to"] is not None:
            line += ", min raise %s" % chips(st["min_raise_to"])
        f["action"] = line
    if st["street"] is not None:
        pots = st["pots"]
        f["pot"] = "Pot %s" % chips(st["pot"])
        if len(pots) > 1:
            f["pot"] += " (" + " + ".join(chips(post["amount"]) for post in pots) + ")"
        f["pot"] += "  " + st["street"]
    else:
        won = st.get("winners") or {}
        f["pot"] = "Won: " + ", ".join(
            "seat %s %s" % (seat, chips(won[seat])) for seat in sorted(won)) if won else ""
    posts = []
    for post in st["posts"]:
        if post["kind"] != "ante":
            away = " (away)" if post["seat"] in st["away"] else ""
            posts.append("%s %d: %s%s" % (post["kind"].upper(), post["seat"],
                                          chips(post["amount"]), away))
    f["posts"] = "  ".join(posts)
    f["away"] = "Away: " + ", ".join(str(seat) for seat in st["away"]) if st["away"] else ""
    f["colour"] = "  ".join("S%d %s>%s" % (change[0], chips(change[1]), chips(change[2]))
                            for change in colour_changes(st))
    f["shot"] = ""
    f["shot_kind"] = ""
    if st["shot_clock"] is not None:
        f["shot"] = "CLOCK %d%s" % (st["shot_clock"], "!" if st["clock_warning"] else "")
        if st["clock_warning"]:
            f["shot_kind"] = "flash" if blink_off else "warning"
        else:
            f["shot_kind"] = "running"
    parts = []
    if info.get("players"):
        parts.append("%d left" % info["players"])
    if info.get("average"):
        parts.append("avg %s" % chips(info["average"]))
    if info.get("link"):
        parts.append(info["link"])
    f["info"] = "  ".join(parts)
    f["instr"] = ""
    later = box.get("moves")
    if info.get("instruction") or later:  # their words load at the first (instructions/words.py)
        from .instructions.words import instruction_text, later_text

        f["instr"] = instruction_text(info.get("instruction"))
    if f["instr"] and info.get("queued"):
        f["instr"] += " (+%d)" % info["queued"]
    if not f["instr"] and later:
        f["instr"] = later_text(later[0])
        if len(later) > 1:
            f["instr"] += " (+%d)" % (len(later) - 1)
    note = menu.note if menu and menu.note else ""
    f["status"] = st["error"] or note or st["last"] or ""
    f["status_kind"] = "error" if st["error"] else ("note" if note else "")
    f["menu"] = [option[0] for option in menu.options] if menu else []
    f["menu_i"] = menu.i if menu else 0
    f["act"] = act_line(st, f)
    f["players"] = players
    if menu is not None and menu.mode == SETUP:
        setup_lines(f, st, info, box)
    return f


def setup_lines(f, st, info, box):
    """The setup screen: the hand rows carry what the box is and knows."""
    table = info.get("table")
    f["hand"] = "Box setup"
    f["action"] = "Table %s" % table if table else "No table yet"  # first, largest
    f["pot"] = "%s seats  %s  Link: %s" % (box.get("seats", "?"),
                                           (st.get("profile") or "").upper(),
                                           info.get("link") or "none")
    f["posts"] = "%s, firmware %s%s" % (
        (box.get("board") or "?").split(":")[0], box.get("fw") or "?",
        "" if box.get("buzzer", True) else ", no buzzer")
    f["away"] = ""
    f["colour"] = ""
    f["banner"] = ""
    f["in_hand"] = True
    f["players"] = False
