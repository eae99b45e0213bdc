"""The scale drill: N tables (300 by default) on an external Mosquitto with a user per box,
the host pointed at it by URL, behind a busy Wi-Fi (tcsim.nightnet.BusyWifi; ``wifi``
"quiet": none), under faults (Wi-Fi drops, a broker restart, a host kill), in one process on
the room's virtual clock; then the checks (`make scale`).  Several seeds run in processes of
their own, *jobs* at a time (each beside another CPU-bound one).

    result = run_scale(tables=300, seed=1)  # or run_seeds(300, [1, 2, 3, 4, 5], jobs=2)
    python -m tcsim.scale [--tables 300] [--seeds 1-5] [--jobs 2] [--wifi busy] [--json]

docs/demo.md §8, "Scale drill": what runs, the plan, the checks, the figures.
"""

import argparse
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import scalecheck
from .scaledrill import TABLES_MAX, WIFI, Drill
from .scaleroom import DrillError, players_for

MINUTES = 16  # the full drill's play (about 18 virtual minutes with the settling): at 300
#               tables 25 minutes took 10 min 14 s of wall time here, over the 10 wanted


# ---------------------------------------------------------------- running it
def run_scale(tables: int = 300, seed: int = 1, minutes: float = MINUTES,
              echo: Callable[[str], None] = print, wifi: str = "busy") -> Dict[str, Any]:
    """The drill (docs/demo.md §8); returns {"ok", "checks", "figures", "counts", "log",
    "tables", "seed", "minutes", "wifi", "wall_s"}.  Raises tdhost.links.broker.MosquittoMissing
    without Mosquitto, DrillError when the room cannot be set up."""
    logging.getLogger("tdhost").setLevel(logging.ERROR)
    wall0 = time.monotonic()
    drill = Drill(tables, seed, minutes, echo, wifi=wifi)
    try:
        drill.names.install()
        drill.start_mqtt()
        drill.prepare()
        drill.play()
        checks, extra = scalecheck.checks(drill)
        res: Dict[str, Any] = {
            "tables": tables, "seed": seed, "minutes": minutes, "players": players_for(tables),
            "wifi": wifi, "ok": all(c["ok"] for c in checks), "checks": checks,
            "counts": scalecheck.counted(drill), "figures": scalecheck.figures(drill),
            "log": list(drill.log)}
        res["figures"].update(extra)
        res["figures"]["rss_mb"] = _rss_mb()
        res["figures"]["mosquitto_rss_mb"] = _peak_mb(getattr(drill.net.broker, "proc", None))
        res["wall_s"] = round(time.monotonic() - wall0, 1)
        return res
    finally:
        drill.close()


def _rss_mb() -> float:
    """This process's peak resident memory (the room, the host, paho), MB."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1)


def _peak_mb(proc: Any) -> Optional[float]:
    """The peak resident memory of a running process (Linux's VmHWM), MB; None unknown."""
    pid = getattr(proc, "pid", None)
    if not isinstance(pid, int):
        return None
    try:
        with open("/proc/%d/status" % pid, encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024.0, 1)
    except (OSError, TypeError, ValueError):
        pass
    return None


def run_seeds(tables: int, seeds: List[int], minutes: float = MINUTES, wifi: str = "busy",
              jobs: int = 2, echo: Callable[[str], None] = print,
              log_dir: Optional[str] = None) -> List[Dict[str, Any]]:
    """The drill once per seed, each in a process of its own (``python -m tcsim.scale
    --json``), *jobs* of them at a time; returns their results in the seeds' order (one that
    could not run: {"seed", "ok": False, "error"}).  Each one's lines go to
    *log_dir*/scale-seed-N.log (a temporary directory when None, named by *echo*), its
    result to scale-seed-N.json there."""
    log_dir = log_dir or tempfile.mkdtemp(prefix="tableclock-scale-logs-")
    os.makedirs(log_dir, exist_ok=True)
    echo("Seeds %s at %d tables, %d at a time; each one's log in %s" % (
        ", ".join(map(str, seeds)), tables, jobs, log_dir))
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join([here] + [p for p in [env.get("PYTHONPATH")] if p])
    todo = list(seeds)
    running: List[Tuple[int, Any, Any, Any, float]] = []
    done: Dict[int, Dict[str, Any]] = {}
    while todo or running:
        while todo and len(running) < max(1, jobs):
            seed = todo.pop(0)
            log = open(os.path.join(log_dir, "scale-seed-%d.log" % seed), "w", encoding="utf-8")
            out = tempfile.TemporaryFile()
            proc = subprocess.Popen(
                [sys.executable, "-m", "tcsim.scale", "--tables", str(tables), "--seeds",
                 str(seed), "--minutes", str(minutes), "--wifi", wifi, "--json"],
                stdout=out, stderr=log, env=env)
            running.append((seed, proc, out, log, time.monotonic()))
        time.sleep(1)
        for item in list(running):
            seed, proc, out, log, t0 = item
            if proc.poll() is None:
                continue
            running.remove(item)
            log.close()
            out.seek(0)
            text = out.read().decode("utf-8", "replace").strip().splitlines()
            out.close()
            try:
                res = json.loads(text[-1])
            except (IndexError, ValueError):
                res = {"seed": seed, "ok": False, "wall_s": round(time.monotonic() - t0, 1),
                       "error": "the drill did not finish (exit %d): see %s" % (
                           proc.returncode, os.path.join(log_dir, "scale-seed-%d.log" % seed))}
            done[seed] = res
            with open(os.path.join(log_dir, "scale-seed-%d.json" % seed), "w",
                      encoding="utf-8") as saved:
                json.dump(res, saved)
            echo("seed %d: %s" % (seed, _one_line(res)))
    return [done[seed] for seed in seeds]


def _one_line(res: Dict[str, Any]) -> str:
    if "error" in res:
        return "could not run: %s" % res["error"]
    failed = [c["check"] for c in res["checks"] if not c["ok"]]
    return "%d of %d checks pass%s, %.0f s wall, peak RSS %s MB" % (
        len(res["checks"]) - len(failed), len(res["checks"]),
        " (failed: %s)" % ", ".join(failed) if failed else "", res["wall_s"],
        res["figures"].get("rss_mb"))


def report(res: Dict[str, Any], echo: Callable[[str], None] = print) -> None:
    """The drill's result for a person: figures, faults, counts, each check."""
    figures = res["figures"]
    counts = res["counts"]
    echo("")
    if "error" in res:
        echo("Scale drill, seed %d: could not run: %s" % (res["seed"], res["error"]))
        return
    echo("Scale drill: %d tables, %d players, seed %d, %.1f virtual minutes in %.0f s wall "
         "(%.1f s per virtual minute); peak RSS %s MB (Mosquitto %s MB)." % (
             res["tables"], res["players"], res["seed"], figures["virtual_min"],
             res["wall_s"], figures["wall_s_per_virtual_min"], figures.get("rss_mb"),
             figures.get("mosquitto_rss_mb")))
    jitter = figures.get("jitter")
    echo("Wi-Fi: %s." % ("a busy one's jitter: %d chunks on the air, %.0f ms on average, at "
                         "most %d ms" % (jitter["chunks"], jitter["mean_ms"] or 0,
                                         jitter["max_ms"])
                         if jitter else "quiet (no jitter)"))
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


def seeds_of(text: str) -> List[int]:
    """"1,2,3" or "1-5" (or both: "1-3,7") as a list of seeds; ValueError otherwise."""
    seeds: List[int] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        first, last = int(lo), int(hi or lo)
        if last < first or last - first > 100:
            raise ValueError(part)
        seeds += [s for s in range(first, last + 1) if s not in seeds]
    return seeds


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tcsim.scale",
                                 description="The scale drill: N tables on Mosquitto under "
                                             "faults (docs/demo.md, \"Scale drill\").")
    ap.add_argument("--tables", type=int, default=300, help="boxes and tables (default 300)")
    ap.add_argument("--seeds", "--seed", default="1",
                    help="the seeds: 1, 1,2,3 or 1-5 (default 1); several run side by side, "
                         "each in its own process")
    ap.add_argument("--jobs", type=int, default=2,
                    help="seeds run at a time (default 2: each beside another CPU-bound run)")
    ap.add_argument("--minutes", type=float, default=MINUTES,
                    help="virtual minutes until no new hand is dealt; then the room settles "
                         "(default %g; 4 to under 16: the test's reduced drill)" % MINUTES)
    ap.add_argument("--wifi", choices=WIFI, default="busy",
                    help="the boxes' Wi-Fi: busy (jitter on every link, the default) or quiet")
    ap.add_argument("--log-dir", help="where several seeds' logs go (default: a new "
                                      "temporary directory)")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line "
                                                        "(a list with several seeds)")
    args = ap.parse_args(argv)
    from tdhost.links.broker import BrokerError

    if not 2 <= args.tables <= TABLES_MAX:
        ap.error("--tables must be from 2 to %d" % TABLES_MAX)
    if args.minutes < 4:
        ap.error("--minutes must be at least 4")
    try:
        seeds = seeds_of(args.seeds)
    except ValueError:
        ap.error("--seeds must be numbers like 1,2,3 or 1-5")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    echo = (lambda line: print(line, file=sys.stderr, flush=True)) if args.json else print
    if len(seeds) > 1:
        results = run_seeds(args.tables, seeds, args.minutes, args.wifi, args.jobs, echo,
                            args.log_dir)
        if args.json:
            print(json.dumps(results))
        else:
            for res in results:
                report(res)
            summary(results)
        return 0 if all(res["ok"] for res in results) else 1
    try:
        res = run_scale(args.tables, seeds[0], args.minutes, echo=echo, wifi=args.wifi)
    except (DrillError, BrokerError) as err:
        print("scale: %s." % str(err).rstrip("."), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(res))
    else:
        report(res)
    return 0 if res["ok"] else 1


def summary(results: List[Dict[str, Any]], echo: Callable[[str], None] = print) -> None:
    """One line per seed, and the seeds that failed."""
    echo("")
    echo("Seeds: %s." % ", ".join(str(res["seed"]) for res in results))
    for res in results:
        echo("  seed %d: %s" % (res["seed"], _one_line(res)))
    bad = [str(res["seed"]) for res in results if not res["ok"]]
    echo("All %d seeds pass every check." % len(results) if not bad else
         "Seeds failing: %s." % ", ".join(bad))


if __name__ == "__main__":
    sys.exit(main())
