"""What came of a simulated night: its result dict (places, league table, the dealers',
the floor's and the MQTT pump's counts) and the host's exactly-once check of the boxes'
busts, which the scale drill shares.  docs/demo.md §2 (What happens) and §4.
"""

from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from tdhost.links.hoststore import HostStore

if TYPE_CHECKING:
    from .virtualnight import Night


def tournament_ms(clock: Any) -> int:
    """Tournament time on a LevelClock: ms since level 1 began (pauses excluded)."""
    ms = 0
    for i in range(clock.index):
        ms += clock.levels[i][3]
    return ms + clock.levels[clock.index][3] - clock.left_ms


def exactly_once(links_db: str, league_store: Any) -> Dict[str, Any]:
    """What the host holds of the boxes' busts: each box's bust events in the link store
    *links_db* (seat, hand, chips at the start: what the box said, whatever the ids), the
    league's busts in *league_store* (tiers, table, hand), and what was applied twice (a
    box event behind two league busts, a player out twice)."""
    store = HostStore(links_db)
    try:
        evs = store.events()
    finally:
        store.close()
    boxes: Dict[str, List[Tuple[Any, Any, Any]]] = {}
    for ev in evs:
        if ev.get("what") == "bust":
            boxes.setdefault(ev["box"], []).append((ev.get("seat"), ev.get("hand"),
                                                    ev.get("chips_start")))
    league: List[Tuple[Any, Any, Any]] = []
    srcs: set = set()
    out: set = set()
    doubled: List[str] = []
    for ev in league_store.events():
        if ev.action != "bust" or ev.undoes:
            continue
        payload = ev.payload
        league.append((payload.get("tiers"), payload.get("table"), payload.get("hand")))
        for src in payload.get("src") or ():
            if tuple(src) in srcs:
                doubled.append("box event %s/%s" % tuple(src))
            srcs.add(tuple(src))
        for tier in payload.get("tiers") or ():
            for name in tier:
                if name in out:
                    doubled.append("%s out twice" % name)
                out.add(name)
    return {"bust_events": {k: sorted(v, key=repr) for k, v in boxes.items()},
            "league_busts": league, "doubled": doubled}


def night_result(night: "Night", wall_s: float) -> Dict[str, Any]:
    """The result dict of a night that was played (tcsim.virtualnight.run_night's)."""
    tournament = night.live.tournament
    res: Dict[str, Any] = {
        "seed": night.seed, "profile": night.profile, "tables": night.tables,
        "players": len(tournament.entrants()), "virtual_ms": night.room.now_ms,
        "wall_s": round(wall_s, 1), "ended": bool(tournament.ended),
        "winner": tournament.ended["tiers"][0][0] if tournament.ended else None,
        "results": [{"place": row["place"], "name": row["name"], "entry": row["entry"],
                     "points": row["points"]} for row in tournament.results()],
        "league": [{"rank": row["rank"], "name": row["name"], "points": row["points"]}
                   for row in night.live.lg.standings()],
        "transports": dict(night.transport_of),
        "out_dir": night.out_dir,
    }
    res.update(night.show.figures())
    res["end_ms"] = night.room.clock()
    res["trace"] = list(night.show.trace)
    res["quiet"] = {n: list(box.bot.quiet) for n, box in night.boxes.items()
                    if box.bot is not None}
    res["unplugged"] = dict(night.unplugged)
    floor = night.floor
    res["floor"] = {"arrivals": floor.arrivals, "mismatched": floor.mismatched,
                    "drift": floor.drift}
    res["final_chips"] = night.show.final_chips
    res.update(exactly_once(night.links_db, night.live.store))
    if night.faults is not None:
        res["fault_figures"] = night.faults.figures()
    net = night.net
    if net is not None:
        res["mqtt"] = {"pumps": net.pumps, "waits": net.waits, "wait_s": round(net.wait_s, 1),
                       "late": net.late, "broker_errors": list(net.broker_errors)}
    res["dealers"] = {n: {"hands": box.bot.hands, "confirms": box.bot.counts.get("confirm", 0),
                          "refusals": len(box.bot.refusals), "via_host": len(box.bot.via_host),
                          "rebooted_turns": box.bot.errors}
                      for n, box in night.boxes.items() if box.bot is not None}
    return res
