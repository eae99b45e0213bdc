"""The scale drill: N tables (300 by default) on an external Mosquitto with a user per box,
the host pointed at it by URL, under faults (Wi-Fi drops, a broker restart, a host kill), in
one process on the room's virtual clock; then the checks (`make scale`).

    result = run_scale(tables=300, seed=1)      # result["ok"], result["checks"], figures
    python -m tcsim.scale [--tables 300] [--seed 1] [--minutes 16] [--json]

docs/demo.md §8, "Scale drill": what runs, the plan, the checks, the figures.
"""

import argparse
import json
import logging
import sys
import time
from typing import Any, Callable, Dict, List, Optional

from . import scalecheck
from .scaledrill import TABLES_MAX, Drill
from .scaleroom import DrillError, players_for

MINUTES = 16  # the full drill's play (about 18 virtual minutes with the settling): at 300
#               tables 25 minutes took 10 min 14 s of wall time here, over the 10 wanted


# ---------------------------------------------------------------- running it
def run_scale(tables: int = 300, seed: int = 1, minutes: float = MINUTES,
              echo: Callable[[str], None] = print) -> Dict[str, Any]:
    """The drill (docs/demo.md §8); returns {"ok", "checks", "figures", "counts", "log",
    "tables", "seed", "minutes", "wall_s"}.  Raises tdhost.links.broker.MosquittoMissing
    without Mosquitto, DrillError when the room cannot be set up."""
    logging.getLogger("tdhost").setLevel(logging.ERROR)
    wall0 = time.monotonic()
    drill = Drill(tables, seed, minutes, echo)
    try:
        drill.names.install()
        drill.start_mqtt()
        drill.prepare()
        drill.play()
        checks, extra = scalecheck.checks(drill)
        res: Dict[str, Any] = {
            "tables": tables, "seed": seed, "minutes": minutes, "players": players_for(tables),
            "ok": all(c["ok"] for c in checks), "checks": checks,
            "counts": scalecheck.counted(drill), "figures": scalecheck.figures(drill),
            "log": list(drill.log)}
        res["figures"].update(extra)
        res["wall_s"] = round(time.monotonic() - wall0, 1)
        return res
    finally:
        drill.close()


def report(res: Dict[str, Any], echo: Callable[[str], None] = print) -> None:
    """The drill's result for a person: figures, faults, counts, each check."""
    figures = res["figures"]
    counts = res["counts"]
    echo("")
    echo("Scale drill: %d tables, %d players, seed %d, %.1f virtual minutes in %.0f s wall "
         "(%.1f s per virtual minute)." % (res["tables"], res["players"], res["seed"],
                                           figures["virtual_min"], res["wall_s"],
                                           figures["wall_s_per_virtual_min"]))
    echo("Faults: %d Wi-Fi drops, %d broker restart, %d host kill.  TD busts %d, box busts %d,"
         " moves %d, tables broken %d, instructions %d (%d confirmed on the boxes), hands %d,"
         " host notices %d."
         % (counts["wifi_drops"], counts["broker_restarts"], counts["host_kills"],
            counts["td_busts"],
            counts["box_busts"], counts["moves"], counts["tables_broken"], counts["instructions"],
            counts["confirmed"], counts["hands"], counts["notices"]))
    for text in counts.get("notice_texts") or []:
        echo("  notice: %s" % text)
    for lv in figures["level_changes"]:
        echo("Level change: %s" % ("all %d boxes within %.1f virtual s (first %.1f s), %.2f s"
                                   " wall" % (lv["boxes"], lv["last_ms"] / 1000.0,
                                              (lv["first_ms"] or 0) / 1000.0, lv["wall_s"])
                                   if lv.get("last_ms") is not None else
                                   "only %d of %d boxes" % (lv.get("shown", 0), lv["boxes"])))
    echo("Room step: p50 %s ms, p99 %s ms; host poll: p50 %s ms, p99 %s ms, max %s ms." % (
        figures["step_ms_p50"], figures["step_ms_p99"], figures["host_poll_ms_p50"],
        figures["host_poll_ms_p99"],
        figures["host_poll_ms_max"]))
    fr = figures["frames"]
    echo("Frames through Mosquitto: %d from the boxes (%d reached the host), %d from the host"
         " (%d reached the boxes); pumps waited %.0f s, gave up %d." % (
             fr["boxes_published"], fr["host_received"], fr["host_published"],
             fr["boxes_received"], figures["pump"]["wait_s"], figures["pump"]["gave_up"]))
    for ch in res["checks"]:
        echo("%s %s%s" % ("ok    " if ch["ok"] else "FAILED", ch["check"],
                          "" if ch["ok"] else ": " + "; ".join(ch["failures"])))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tcsim.scale",
                                 description="The scale drill: N tables on Mosquitto under "
                                             "faults (docs/demo.md, \"Scale drill\").")
    ap.add_argument("--tables", type=int, default=300, help="boxes and tables (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=MINUTES,
                    help="virtual minutes until no new hand is dealt; then the room settles "
                         "(default %g; 4 to under 16: the test's reduced drill)" % MINUTES)
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = ap.parse_args(argv)
    from tdhost.links.broker import BrokerError

    if not 2 <= args.tables <= TABLES_MAX:
        ap.error("--tables must be from 2 to %d" % TABLES_MAX)
    if args.minutes < 4:
        ap.error("--minutes must be at least 4")
    echo = (lambda line: print(line, file=sys.stderr)) if args.json else print
    try:
        res = run_scale(args.tables, args.seed, args.minutes, echo=echo)
    except (DrillError, BrokerError) as err:
        print("scale: %s." % str(err).rstrip("."), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(res))
    else:
        report(res)
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
