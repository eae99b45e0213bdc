"""Print every docs/examples scenario as readable hand tables (`make examples`).

    python host_tools/demo_replay.py [FILE.json ...]

Each example is {"title": str, "setup": {...}, "events": [{"do": ...}, ...]}. The events are
applied in order to tableclock.table.Table (the same core the board runs); "expect" entries are
ignored here (the tests check them). For every hand it prints the level, blinds/ante, button,
SB/BB seats, dealer and posts, then each action with the state after it (next to act, amount to
call, minimum raise-to, pot) and finally the winners and busts. CPython only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))

from tableclock.fields import SetupError  # noqa: E402
from tableclock.table import Table  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
WIDTH = 96
BETTING = ("check", "call", "fold", "bet", "raise", "allin")

Row = "  {street:<8} {who:>5}  {what:<24}| {nxt:>5} {call:>8} {minr:>10} {pot:>8}  {extra}"


def dash(v: Any) -> str:
    return "-" if v is None else str(v)


def mmss(seconds: Any) -> str:
    if seconds is None:
        return "-"
    s = int(seconds)
    return "%d:%02d" % (s // 60, s % 60)


def seat_map(m: dict[str, Any] | None) -> str:
    if not m:
        return "-"
    return " ".join("%s:%s" % (k, m[k]) for k in sorted(m, key=lambda k: int(k)))


def describe(ev: dict[str, Any]) -> str:
    do = ev.get("do", "?")
    if do in ("bet", "raise"):
        return "%s to %s" % (do, ev.get("to"))
    if do == "showdown":
        return "showdown " + " > ".join(
            "=".join(str(s) for s in tier) for tier in ev.get("ranking", []))
    if do in ("tick", "adjust"):
        s = ev.get("s")
        return "%s %s%ss" % (do, "+" if do == "adjust" and s is not None and s >= 0 else "", s)
    if do == "jump":
        return "jump to level %s" % ev.get("level")
    if do == "sit":
        return "sit seat %s (%s)" % (ev.get("seat"), ev.get("stack"))
    if "seat" in ev:
        return "%s seat %s" % (do, ev["seat"])
    return str(do)


def blinds(st: dict[str, Any]) -> str:
    return "%s/%s ante %s" % (st.get("sb"), st.get("bb"), st.get("ante"))


def clock_line(st: dict[str, Any]) -> str:
    parts = ["level %s" % dash(st.get("level"))]
    parts.append(("break, next " if st.get("on_break") else "") + blinds(st))
    parts.append("%s left" % mmss(st.get("seconds_left")))
    if st.get("paused"):
        parts.append("PAUSED")
    if st.get("colour_up"):
        parts.append("colour-up: %s" % st["colour_up"])
    return "  ".join(parts)


def print_hand_start(st: dict[str, Any]) -> None:
    print("-" * WIDTH)
    print("Hand %-4s level %-3s blinds %-18s button %-3s SB %-4s BB %-3s dealer %-3s %s left"
          % (st.get("hand"), dash(st.get("level")), blinds(st), dash(st.get("button")),
             dash(st.get("sb_seat")), dash(st.get("bb_seat")), dash(st.get("dealer")),
             mmss(st.get("seconds_left"))))
    posts = st.get("posts") or []
    if posts:
        print("  posts:  " + " | ".join(
            "seat %s %s %s" % (p.get("seat"), p.get("kind"), p.get("amount")) for p in posts))
    if st.get("away"):
        print("  away:   %s" % st["away"])
    if st.get("waiting"):
        print("  waiting: %s" % st["waiting"])
    print("  in hand: %s" % (st.get("in_hand") or []))
    print("  stacks: %s" % seat_map(st.get("stacks")))
    print(Row.format(street="street", who="seat", what="action", nxt="next", call="to call",
                     minr="min raise", pot="pot", extra="").rstrip())


def print_hand_end(st: dict[str, Any]) -> None:
    winners = st.get("winners") or {}
    print("  winners: " + (" ".join("seat %s +%s" % (k, winners[k])
                                    for k in sorted(winners, key=int)) or "-"))
    if st.get("busted"):
        print("  busted (worst first): %s" % st["busted"])
    if st.get("bust_ties"):
        print("  bust ties for the TD: %s" % st["bust_ties"])
    print("  stacks: %s" % seat_map(st.get("stacks")))


def run_example(path: Path) -> bool:
    data = json.loads(path.read_text())
    title = data.get("title", path.stem)
    setup = data.get("setup", {})
    print("=" * WIDTH)
    print("%s   (%s)" % (title, path.name))
    print("profile %s  seats %s  chip %s  players %s" % (
        setup.get("profile"), setup.get("seats"), setup.get("chip", 1),
        seat_map(setup.get("players"))))
    try:
        table = Table(setup)
    except SetupError as e:
        print("  setup rejected: %s" % e)
        return False
    st = table.state()
    print("  clock: " + clock_line(st))

    ok = True
    for ev in data.get("events", []):
        event = {k: v for k, v in ev.items() if k != "expect"}
        before = st
        st = table.apply(event)
        do = event.get("do")
        what = describe(event)
        in_hand_before = before.get("street") is not None
        if st.get("error"):
            print("  ! %-24s rejected: %s" % (what, st["error"]))
            continue
        if do == "hand":
            if st.get("street") is None:
                print("  . hand: no hand started  %s" % clock_line(st))
                continue
            print_hand_start(st)
            in_hand_before = True
        elif in_hand_before or st.get("street") is not None:
            # During a hand: one row per event with the state after it.
            who = before.get("action") if do in BETTING else ""
            extra = []
            if st.get("shot_clock") is not None:
                extra.append("shot %ss%s" % (st["shot_clock"],
                                             " WARNING" if st.get("clock_warning") else ""))
            if do in ("tick", "pause", "resume", "adjust", "jump"):
                extra.append(clock_line(st))
            if do in ("away", "back", "bust", "sit", "leave") and st.get("away"):
                extra.append("away %s" % st["away"])
            street = dash(before.get("street") or st.get("street"))
            print(Row.format(street=street, who=dash(who), what=what,
                             nxt=dash(st.get("action")), call=dash(st.get("to_call")),
                             minr=dash(st.get("min_raise_to")), pot=dash(st.get("pot")),
                             extra="  ".join(x for x in extra if x)).rstrip())
            if st.get("street") != before.get("street") and st.get("street") is not None:
                if st["street"] == "showdown":
                    pots = st.get("pots") or []
                    print("  -- showdown --  pots: %s  show order: %s" % (
                        " | ".join("%s %s" % (p.get("amount"), p.get("seats")) for p in pots)
                        or "-", st.get("show_order") or "-"))
                else:
                    print("  -- %s --  in hand %s" % (st["street"], st.get("in_hand")))
        else:
            # Between hands: clock and seat events.
            note = clock_line(st)
            if do in ("away", "back", "bust", "sit", "leave"):
                note = "away %s  waiting %s  stacks %s" % (
                    st.get("away") or [], st.get("waiting") or [], seat_map(st.get("stacks")))
            print("  . %-24s %s" % (what, note))
        if in_hand_before and st.get("street") is None:
            print_hand_end(st)
    print()
    return ok


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(EXAMPLES.glob("*.json"))
    if not paths:
        print("demo: no docs/examples/*.json yet -- nothing to show")
        return 0
    ok = True
    for p in paths:
        ok = run_example(p) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
