"""Players waiting alone at a spare box (docs/live.md "Every seat taken"): a player the host
had to seat when every seat in play was taken (or held by somebody the league does not
know) sits alone at a spare box's table, where nobody deals.  ``LoneSeats`` looks for them
every STRAND_MS and gives each a seat among other players once one is free."""

from typing import TYPE_CHECKING, List, Tuple

from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins, moves as _moves, room_plan as _plan
from tdhost.live.effects import Write
from tdhost.live.shapes import Batch

if TYPE_CHECKING:
    from tdhost.live.night import Live
    from tdhost.live.tables import BoxesNow

STRAND_MS = 5000  # how often the host looks for players waiting alone


class LoneSeats:
    """When the host last looked for players waiting alone (``step``, from Live's poll)."""

    def __init__(self) -> None:
        self.at: int | None = None

    def step(self, live: "Live") -> None:
        """Every STRAND_MS before the final table: a seat for each player waiting alone."""
        if live.tournament.final is not None or (
                self.at is not None and live.now - self.at < STRAND_MS):
            return
        self.at = live.now
        for name in stranded(live.tournament, live.boxes_now()):
            live.write(unstrand(name, live.boxes_now()))


def stranded(tournament: Tournament, boxes: "BoxesNow") -> List[str]:
    """Players the host seated alone at a table whose box holds no table (a spare box:
    every seat in play was taken, or held by somebody the league does not know, when they
    needed one): their own ``receive`` there waits, for nobody deals to one player; in
    order.  ``unstrand`` seats them where a seat is free now."""
    after = _plan.seating_after_moves(tournament)
    out = []
    for record in tournament.instrs.values():
        name, to = record.get("player"), record.get("to")
        if record["action"] != "receive" or record.get("move") or not name or not to \
                or _ins.state(record) in ("done", "refused", "cancelled"):
            continue
        entry = tournament.get(name)
        status = boxes.statuses.get(to[0])
        if entry is not None and entry.state == "in" and list(entry.seat or ()) == list(to) \
                and list(after.get(to[0], {})) == [to[1]] \
                and not (isinstance(status, dict) and status.get("stacks")):
            out.append(name)
    return out


def unstrand(name: str, boxes: "BoxesNow") -> Write:
    """*name* (``stranded``) gets a seat at a table where others play once one is free: their
    receive at the lone table and that table's break (nothing to break there) are called
    off, in one batch with the new seat (``reseat``); nothing while no such seat is free."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        entry = tournament.get(name)
        if entry is None or not entry.seat:
            return [], None
        lone = list(entry.seat)
        everywhere = [[lone[0], chair] for chair in
                      range(1, tournament.setup["seats_per_table"] + 1)]  # (not there again)
        seat, _ = _plan.new_seat(boxes, tournament, name, seq, exclude=everywhere)
        if seat[0] == lone[0] or not _plan.seating_after_moves(tournament).get(seat[0]):
            return [], None  # still no seat among other players
        waiting = [r for r in tournament.instrs.values()
                   if r["table"] == lone[0] and not _ins.complete(r)
                   and (r.get("player") == name or r["action"] == "break_table")]
        stack = next((_ins.chips(r["body"].get("stack")) for r in waiting
                      if r["action"] == "receive"), None)
        if stack is None:
            return [], None
        evs = _ins.cancel_all(lg, tournament, waiting, "%s gets a seat among other players"
                              % name, lambda table: boxes.boxed(tournament, table))
        return evs + _moves.reseat(boxes, tournament, lg, seq, evs, name, stack, everywhere,
                            "%s waited alone at table %d, where nobody deals; a seat is "
                            "free" % (name, lone[0])), None
    return build
