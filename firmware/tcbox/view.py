"""What the box shows: every text on screen, by field, from the table state.

The screen module (tcbox/screen.py) lays these fields out for the display's
size and redraws only the labels whose text changed, so an idle second
changes the clock digits and nothing else.  Pure: no hardware imports.

Fields (all strings; empty hides a label):
  level, blinds, ante, time, next   the clock (the largest things on screen)
  banner       BREAK / PAUSED / HAND FOR HAND / colour-up, else empty
  hand         hand number, button, SB, BB, dealer
  action       whose action, to call, minimum raise
  pot          the pot (and side pots)
  posts        forced bets of this hand, away seats marked
  shot         the shot clock while it runs
  info         players left and average stack (from the host), link state
  instr        an instruction from the host (move a player, break table...)
  status       the one status line: a refusal, else what just happened
  status_kind  "error" (a refusal), "note" (the menu asks), or "" (colour)
  menu         the options, one line each; ``menu_i`` is the highlighted one
"""


def mmss(seconds):
    """12:05 from 725; 1:02:05 from an hour or more."""
    m, s = divmod(max(seconds, 0), 60)
    if m >= 60:
        h, m = divmod(m, 60)
        return "%d:%02d:%02d" % (h, m, s)
    return "%d:%02d" % (m, s)


def chips(n):
    """3,025 from 3025 (thousands separated, readable across a table)."""
    s = str(n)
    out = ""
    while len(s) > 3:
        out = "," + s[-3:] + out
        s = s[:-3]
    return s + out


def fields(st, menu=None, info=None):
    """The screen's fields for table state *st*.

    :param menu: the tcbox.menu.Menu (options and highlight), or None.
    :param info: host data: ``{"players", "average", "link", "instruction"}``.
    """
    info = info or {}
    f = {}
    f["level"] = "Level %d" % st["level"]
    f["blinds"] = "%s/%s" % (chips(st["sb"]), chips(st["bb"]))
    f["ante"] = "Ante %s" % chips(st["ante"]) if st["ante"] else ""
    f["time"] = mmss(st["seconds_left"])
    nl = st.get("next_level")
    f["next"] = "Next %s/%s" % (chips(nl["sb"]), chips(nl["bb"])) if nl else "Last level"
    if st["paused"]:
        f["banner"] = "PAUSED"
    elif st["on_break"]:
        f["banner"] = "BREAK"
    elif st.get("colour_up"):
        gone = st["colour_up"]["remove"] or []
        f["banner"] = "Colour up: %s go" % ", ".join(str(x) for x in gone)
    else:
        f["banner"] = ""
    sb = st["sb_seat"]
    f["hand"] = "Hand %d  BTN %s  SB %s  BB %s  Deal %s" % (
        st["hand"], st["button"], sb if sb is not None else "dead", st["bb_seat"], st["dealer"])
    a = st["action"]
    if st["street"] is None:
        f["action"] = "Between hands"
    elif a is None:
        f["action"] = "Showdown: who wins?" if st["street"] == "showdown" else ""
    else:
        line = "Seat %d to act: %s" % (a, "call %s" % chips(st["to_call"]) if st["to_call"]
                                        else "check")
        if st["min_raise_to"] is not None:
            line += ", min raise %s" % chips(st["min_raise_to"])
        f["action"] = line
    if st["street"] is not None:
        pots = st["pots"]
        f["pot"] = "Pot %s" % chips(st["pot"])
        if len(pots) > 1:
            f["pot"] += " (" + " + ".join(chips(p["amount"]) for p in pots) + ")"
        f["pot"] += "  " + st["street"]
    else:
        won = st.get("winners") or {}
        f["pot"] = "Won: " + ", ".join(
            "seat %s %s" % (s, chips(won[s])) for s in sorted(won)) if won else ""
    posts = []
    for p in st["posts"]:
        if p["kind"] != "ante":
            away = " (away)" if p["seat"] in st["away"] else ""
            posts.append("%s %d: %s%s" % (p["kind"].upper(), p["seat"], chips(p["amount"]), away))
    f["posts"] = "  ".join(posts)
    f["shot"] = ""
    if st["shot_clock"] is not None:
        f["shot"] = "CLOCK %d%s" % (st["shot_clock"], "!" if st["clock_warning"] else "")
    parts = []
    if info.get("players"):
        parts.append("%d left" % info["players"])
    if info.get("average"):
        parts.append("avg %s" % chips(info["average"]))
    if info.get("link"):
        parts.append(info["link"])
    f["info"] = "  ".join(parts)
    f["instr"] = info.get("instruction") or ""
    note = menu.note if menu and menu.note else ""
    f["status"] = st["error"] or note or st["last"] or ""
    f["status_kind"] = "error" if st["error"] else ("note" if note else "")
    f["menu"] = [o[0] for o in menu.options] if menu else []
    f["menu_i"] = menu.i if menu else 0
    return f
