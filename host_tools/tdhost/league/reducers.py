"""How each logged event changes a tournament: one function per action, applied in log
order by replay (tdhost.league.replay) and never deciding anything (docs/host.md §3)."""

from typing import Callable

from tdhost.league.text import player_key
from tdhost.league.times import from_iso
from tdhost.league.tournament import Entry, Payload, Tournament


def apply(tournament: Tournament, action: str, payload: Payload) -> None:
    """Event *action* with *payload* applied to *tournament*."""
    REDUCERS[action](tournament, payload)


def on_register(tournament: Tournament, payload: Payload) -> None:
    key = player_key(payload["name"])
    entry = Entry(payload["name"], payload["member"],
                  "standby" if payload["standby"] else "registered")
    tournament.players[key] = entry
    if payload["standby"]:
        tournament.standby.append(key)
    else:
        entry.entry = "registered"
        entry.seat = payload.get("seat")
        entry.stack = tournament.setup["starting_stack"]
        if entry.seat:
            tournament.tables_used.add(entry.seat[0])


def on_unregister(tournament: Tournament, payload: Payload) -> None:
    key = player_key(payload["name"])
    tournament.players.pop(key, None)
    tournament.locks.pop(key, None)
    if key in tournament.standby:
        tournament.standby.remove(key)


def on_lock(tournament: Tournament, payload: Payload) -> None:
    tournament.locks[player_key(payload["name"])] = [payload["table"], payload["seat"],
                                                     payload["reason"]]


def on_unlock(tournament: Tournament, payload: Payload) -> None:
    tournament.locks.pop(player_key(payload["name"]), None)


def on_draw(tournament: Tournament, payload: Payload) -> None:
    if payload.get("final"):
        tournament.final = payload
    else:
        tournament.draw = payload
    tournament.tables_used = set()
    tournament.buttons = {}  # a new draw: the boxes' buttons of before count no more
    for name, seat in payload["seats"].items():
        tournament.players[player_key(name)].seat = list(seat)
        tournament.tables_used.add(seat[0])


def on_start(tournament: Tournament, payload: Payload) -> None:
    tournament.started = from_iso(payload["time"])
    tournament.started_on_time = payload["started_on_time"]
    for entry in tournament.entries("registered"):
        entry.state = "in"
    for awol_name, standby_name in payload["replaced"]:
        absent, standby = tournament.need(awol_name), tournament.need(standby_name)
        i = tournament.standby.index(player_key(standby_name))
        tournament.standby[i] = player_key(awol_name)
        standby.state, standby.seat, standby.entry, standby.stack = \
            "in", absent.seat, "replacement", absent.stack
        absent.state, absent.seat, absent.entry, absent.stack = "standby", None, None, None
    for name in payload["awol"]:
        tournament.need(name).absent = "awol"
    for name in payload["away"]:
        tournament.need(name).absent = "away"


def on_level(tournament: Tournament, payload: Payload) -> None:
    tournament.anchors.append((payload["level"], from_iso(payload["time"])))


def on_late(tournament: Tournament, payload: Payload) -> None:
    entry = Entry(payload["name"], payload["member"], "in")
    entry.entry, entry.seat, entry.stack, entry.dead_bb = \
        "late", payload["seat"], payload["stack"], payload["dead_bb"]
    tournament.players[player_key(payload["name"])] = entry
    tournament.tables_used.add(payload["seat"][0])


def on_reenter(tournament: Tournament, payload: Payload) -> None:
    """A new entry of a player who was out: in again with a new seat and stack; the
    earlier entry's place goes (the player finishes where the last entry does)."""
    entry = tournament.need(payload["name"])
    entry.earlier += (entry.stack or 0) - entry.deducted
    entry.state, entry.seat, entry.stack = "in", payload["seat"], payload["stack"]
    entry.dead_bb, entry.absent, entry.deducted = False, None, 0
    entry.reentries += 1
    tournament.tables_used.add(payload["seat"][0])
    tournament.busts = [dict(bust, tiers=[tier for tier in (
        [name for name in tier if name != entry.name] for tier in bust["tiers"]) if tier])
        for bust in tournament.busts]


def on_arrive(tournament: Tournament, payload: Payload) -> None:
    entry = tournament.need(payload["name"])
    entry.absent = None
    entry.deducted = payload["deduction"]
    entry.dead_bb = payload["dead_bb"]


def on_standby_take(tournament: Tournament, payload: Payload) -> None:
    key = player_key(payload["name"])
    entry = tournament.players[key]
    tournament.standby.remove(key)
    entry.state, entry.entry, entry.seat = "in", "standby", payload["seat"]
    entry.stack, entry.dead_bb = payload["stack"], payload["dead_bb"]
    tournament.offers = [offer for offer in tournament.offers
                         if offer["seat"] != payload["offer"]]
    for offer in tournament.offers:  # directed to a seat offered to others: they get the freed one
        if offer["seat"] == payload["seat"]:
            offer["seat"] = payload["offer"]
    tournament.tables_used.add(payload["seat"][0])


def on_standby_pass(tournament: Tournament, payload: Payload) -> None:
    for offer in tournament.offers:
        if offer["seat"] == payload["offer"]:
            offer["passed"].append(player_key(payload["name"]))


def on_move(tournament: Tournament, payload: Payload) -> None:
    tournament.need(payload["name"]).seat = payload["seat"]
    tournament.tables_used.add(payload["seat"][0])
    tournament.moves.append(payload)
    for iid in payload.get("instrs", ()):
        if iid in tournament.instrs:
            tournament.instrs[iid]["moved"] = True


# the live night's events (tdhost.live)
def on_clock(tournament: Tournament, payload: Payload) -> None:
    tournament.clocks.append(payload)


def on_instr(tournament: Tournament, payload: Payload) -> None:
    tournament.instrs[payload["id"]] = dict(payload, results=[], moved=False)


def on_instr_result(tournament: Tournament, payload: Payload) -> None:
    record = tournament.instrs.get(payload["id"])
    if record is not None:
        record["results"].append(payload)
    if payload.get("final_stack") and tournament.final is not None:
        # a player who left their old table after the final draw: the chips they left
        # with (tdhost.live.moves.late_done); copied, the draw's payload stays as logged
        final, left = tournament.final, payload["final_stack"]
        tournament.final = dict(final, stacks=dict(final.get("stacks") or {}, **left),
                                walked=sorted(set(final.get("walked") or ()) | set(left)))


def on_notice(tournament: Tournament, payload: Payload) -> None:
    pass


def on_button(tournament: Tournament, payload: Payload) -> None:
    tournament.buttons[str(payload["table"])] = payload


def on_final_seated(tournament: Tournament, payload: Payload) -> None:
    # the finalists' chips once every table finished its hand (tdhost.live.final.final_seat)
    if tournament.final is not None:
        # and what each takes to it (docs/rules.md §14; none in files of older hosts)
        tournament.final = dict(tournament.final, stacks=dict(payload["stacks"]),
                                records=dict(payload.get("records") or {}), seated=True)
        if payload.get("left"):  # chips of players entered out that leave play with it
            tournament.final["left"] = dict(payload["left"])


def on_hand_for_hand(tournament: Tournament, payload: Payload) -> None:
    tournament.hfh = {"wait": dict(payload["wait"]), "round": 0} if payload["on"] else None


def on_hfh_release(tournament: Tournament, payload: Payload) -> None:
    if tournament.hfh is not None:
        tournament.hfh = {"wait": dict(payload["wait"]), "round": payload["round"]}


def on_bust(tournament: Tournament, payload: Payload) -> None:
    for tier in payload["tiers"]:
        for name in tier:
            entry = tournament.need(name)
            entry.state = "out"
            entry.absent = None
    tournament.busts.append(payload)
    for seat, name in payload.get("offers", []):
        tournament.offers.append({"seat": seat, "freed_by": name, "passed": []})
    rem = tournament.remaining()
    if len(rem) == 1:
        tournament.ended = {"kind": "last", "tiers": [[rem[0].name]], "time": payload["time"]}


def on_money(tournament: Tournament, payload: Payload) -> None:  # host.md §11
    tournament.money.append(payload)


def on_ruling(tournament: Tournament, payload: Payload) -> None:  # tdhost.league.rulings
    tournament.rulings.append(payload)


def on_end(tournament: Tournament, payload: Payload) -> None:
    tournament.ended = {"kind": "time", "tiers": payload["tiers"], "time": payload["time"],
                        "chips": payload["chips"]}


REDUCERS: dict[str, Callable[[Tournament, Payload], None]] = {
    "register": on_register, "unregister": on_unregister, "lock": on_lock,
    "unlock": on_unlock, "draw": on_draw,
    "start": on_start, "level": on_level, "late": on_late, "reenter": on_reenter,
    "arrive": on_arrive,
    "standby_take": on_standby_take, "standby_pass": on_standby_pass, "move": on_move,
    "clock": on_clock, "instr": on_instr, "instr_result": on_instr_result,
    "notice": on_notice, "button": on_button, "final_seated": on_final_seated,
    "hand_for_hand": on_hand_for_hand,
    "hfh_release": on_hfh_release, "bust": on_bust, "money": on_money, "end": on_end,
    "ruling": on_ruling,
}
