"""The blind schedule and the chip-up schedule as the big screen and the players' phones
show them (docs/web.md §4, "The big screen"): the level playing, the next few levels and
breaks with the time each starts in, and every colour-up with the level it follows.

    schedule.view(levels, colour_ups, index, ms_left)   # -> {"levels": [...], "chip_ups": [...]}

``levels`` are the boxes' parsed entries (sb, bb, ante, ms, number; number 0 = a break),
``index`` the entry playing, ``ms_left`` its time left.  Integer milliseconds throughout.
"""

AHEAD = 8  # levels and breaks listed after the one playing


def _minutes(ms):
    m = ms / 60000
    return int(m) if m == int(m) else round(m, 2)


def _chips(values):
    vs = ["%d" % v for v in values]
    return vs[0] if len(vs) == 1 else "%s and %s" % (", ".join(vs[:-1]), vs[-1])


def chip_up_text(c):
    """One sentence for a colour-up: "After level 5: the 25 and 50 chips go out; smallest
    chip 100."."""
    remove = c.get("remove") or []
    chip = c.get("chip")
    parts = []
    if remove:
        parts.append("the %s chips go out" % _chips(remove))
    if chip:
        parts.append("smallest chip %d" % chip)
    what = "; ".join(parts) or "colour-up"
    return "After level %d: %s." % (c["after_level"], what)


def view(levels, colour_ups, index, ms_left):
    """The schedule from entry *index* (playing, *ms_left* to go) on (see the module)."""
    rows = []
    starts = 0
    for j in range(index, min(len(levels), index + 1 + AHEAD)):
        sb, bb, ante, ms, number = levels[j]
        rows.append({"index": j, "level": number or None, "is_break": number == 0,
                     "sb": sb if number else None, "bb": bb if number else None,
                     "ante": ante if number else None, "minutes": _minutes(ms),
                     "now": j == index, "starts_in_ms": 0 if j == index else starts})
        starts += ms_left if j == index else ms
    played = max([e[4] for e in levels[:index + 1] if e[4]] or [0])
    now_level = levels[index][4]
    chip_ups = []
    for c in sorted(colour_ups or [], key=lambda c: c["after_level"]):
        after = c["after_level"]
        chip_ups.append({"after_level": after, "remove": list(c.get("remove") or []),
                         "chip": c.get("chip"), "done": after < played,
                         "now": after == played and not now_level, "text": chip_up_text(c)})
    return {"levels": rows, "chip_ups": chip_ups}
