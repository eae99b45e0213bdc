"""The final table on the live night (docs/host.md §10.7; docs/live.md "The final
table"): the league's final draw with the boxes' chips, its instructions, and the final
table sitting down once every table has finished its hand (``FinalSeat``)."""

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Tuple

from tdhost.league.replay import League
from tdhost.league.seats import decide_draw
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins, room_plan as _plan, tables as _tables
from tdhost.live.effects import Steps, Write
from tdhost.live.shapes import Batch, Statuses

if TYPE_CHECKING:
    from tdhost.live.tables import BoxesNow, TableView

FINAL_WAIT_MS = 120000  # the final table waits this long at most for a table whose box is off


def where_now(tournament: Tournament) -> Dict[str, Optional[List[int]]]:
    """{player: [table, seat] or None}: where each player in the league's seating sits at a
    box now (the branches of ``stacks_now``): their seat; the destination of a move whose
    receive is carried out; None for a player between tables or whose own receive is not
    carried out (their chips are known from the instructions, not from a box)."""
    moving = _ins.moving_players(tournament)
    arriving = _ins.arriving(tournament)
    out: Dict[str, Optional[List[int]]] = {}
    for tb, seats in tournament.seating().items():
        for seat, name in seats.items():
            halves = moving.get(name)
            if halves and len(halves) > 1 and _ins.state(halves[1]) == "done":
                out[name] = list(halves[1]["to"])
            elif (halves and _ins.walking(halves)) or name in arriving:
                out[name] = None
            else:
                out[name] = [tb, seat]
    return out


def stacks_now(tournament: Tournament, statuses: Statuses) -> Dict[str, int]:
    """{player: chips} as the boxes last counted them, for the final draw: each seat's
    stack in its box's last status; a player who sat down after a move not recorded yet:
    the destination box's; a player between two tables (their move_out done, their receive
    not): the chips they left with (the status of the table they left shows them no more);
    a player whose own receive is not carried out yet: its chips (*statuses*: each
    table's box's last status)."""
    moving = _ins.moving_players(tournament)
    arriving = {record["player"]: record["body"]["stack"] for record in tournament.instrs.values()
                if record["action"] == "receive" and not record.get("move") and record.get("player")
                and _ins.state(record) not in ("done", "cancelled") and record["body"].get("stack")}
    out = {}
    for tb, seats in tournament.seating().items():
        for seat, name in seats.items():
            halves = moving.get(name)
            if halves and len(halves) > 1 and _ins.state(halves[1]) == "done":
                count = _plan.stack_at(statuses, *halves[1]["to"])
            elif halves and _ins.walking(halves):
                count = (halves[1]["body"].get("stack") if len(halves) > 1 else None) or \
                    _ins.done_stack(halves[0]) or _ins.fallback_stack(tournament, halves[0])[0]
            elif name in arriving:
                count = arriving[name]
            else:
                count = _plan.stack_at(statuses, tb, seat)
            if count is not None:
                out[name] = count
    return out


def moved_record(tournament: Tournament, name: str) -> Dict[str, Any]:
    """What *name* took along on their last move out of a table the league recorded (its
    move_out's record, tdhost.live.instruction_log.RECORD), {} without one: for a player
    whose old table's box no longer shows them."""
    out: Dict[str, Any] = {}
    for record in tournament.instrs.values():
        if record["action"] == "move_out" and record.get("player") == name \
                and _ins.state(record) == "done":
            out = {key: record[key] for key in _ins.RECORD if record.get(key)}
    return out


def final_table(tournament: Tournament, statuses: Statuses, seed: int,
                ace8: Optional[bool] = None) -> Write:
    """The league's final draw (with the boxes' chips in its ``stacks``: ``stacks_now``;
    *statuses*: each table's box's last status), a decision for Live.write that returns
    the draw's payload; ActionRefused when it cannot form (nothing written then)."""
    before = {tb: dict(seats) for tb, seats in tournament.seating().items()}
    stacks = stacks_now(tournament, statuses)
    where = where_now(tournament)
    if ace8 is None:
        ace8 = (tournament.draw or {}).get("mode") == "Ace-8" \
            and tournament.setup["seats_per_table"] <= 8

    def draw(current: Tournament, lg: League, seq: int) -> Tuple[Batch, Dict[str, Any]]:
        payload = decide_draw(current, seed, ace8, False, True)
        payload["stacks"] = {name: count for name,
                             count in stacks.items() if name in payload["seats"]}
        # what `recover` needs when the host dies before the instructions are written
        payload["had"] = sorted(tb for tb, seats in before.items() if seats)
        payload["instrs_before"] = len(current.instrs)
        # where each player sits until the final table sits down (``final_seat``)
        payload["from"] = {name: where.get(name) for name in payload["seats"]}
        return [("draw", payload, None)], payload
    return draw


def final_instrs(tournament: Tournament, had: List[int], linked: Iterable[int]) -> Write:
    """After the final draw (in *tournament*), a decision for Live.write: pending moves off
    (withdrawn from the boxes that may show them: a table whose box is *linked* or
    answered), ``redraw`` to the tables in *had* (those that had players), ``break_table``
    to the others, the seating to the final table."""
    final = tournament.final
    assert final is not None, "called after the final-table draw"
    keep = final["table"]
    before = {tb: {"had": True} for tb in had}
    boxes = set(linked)

    def instrs(now: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        evs = _ins.cancel_all(lg, now,
                              [record for halves in _ins.moves(now).values() for record in halves],
                              "the final table is drawn",
                              lambda tb: tb in boxes or _tables.answered(now, tb))
        k = sum(1 for action, _, _ in evs if action == "instr")
        evs += [("instr", x, None) for x in _plan.final_instrs(lg, now, before, keep, k)]
        return evs, None
    return instrs


def form(tournament: Tournament, statuses: Statuses, seed: int,
         linked: Iterable[int]) -> Steps:
    """The final table (``Live.carry_out``): the final draw, then in a batch of its own
    (`undo` takes back the draw, not the instructions) its instructions -- a table whose
    box is *linked* or answered counts as boxed.  Returns the draw's payload; ActionRefused
    when it cannot form (nothing written then).  The caller restarts ``FinalSeat``."""
    payload, after = yield final_table(tournament, statuses, seed)
    yield final_instrs(after, payload["had"], linked)
    return payload


class FinalSeat:
    """When the final table first waited to sit down (``since``: Live's clock), and the
    step that sits it down."""

    def __init__(self) -> None:
        self.since: Optional[int] = None

    def restart(self) -> None:
        """A new final draw: wait afresh."""
        self.since = None

    def step(self, tournament: Tournament, boxes: "BoxesNow", views: Mapping[int, "TableView"],
             busts: bool) -> Optional[Write]:
        """The final table sits down (docs/live.md "The final table"): once every table that
        had players has confirmed its ``redraw`` and finished the hand it was playing at the
        draw, a ``final_seated`` event fixes each finalist's chips -- this decision; then
        Live sends the final table's box its seating.  A table whose box is off is waited
        for ``FINAL_WAIT_MS``; nothing while *busts* are gathered.  *boxes*: the boxes now,
        *views*: each table's view."""
        final = tournament.final
        if final is None or final.get("seated") or tournament.ended or "from" not in final \
                or busts:
            return None
        later = list(tournament.instrs.values())[final.get("instrs_before", 0):]
        redraw = {record["table"]: record for record in later
                  if record["action"] == "redraw" and not _ins.cancelled(record)}
        if not redraw:
            return None  # the instructions are not written yet (tdhost.live.moves.recover)
        if self.since is None:
            self.since = boxes.now
        statuses = boxes.statuses
        stacks: Dict[str, int] = {}
        records: Dict[str, Dict[str, Any]] = {}  # what each takes to the final table (§14)
        late = set()
        for name, where in sorted(final["from"].items()):
            entry = tournament.get(name)
            if entry is None or entry.state != "in":
                continue
            if where is None or name in (final.get("walked") or ()) \
                    or not boxes.boxed(tournament, where[0]):
                chips = (final.get("stacks") or {}).get(name)
                records[name] = moved_record(tournament, name)
            else:
                records[name] = _plan.record_at(statuses, where[0], where[1])
                table = where[0]
                status = statuses.get(table)
                instr = redraw.get(table)
                view = views.get(table)
                ready = isinstance(status, dict) and status.get("street") is None \
                    and instr is not None and _ins.state(instr) == "done" \
                    and (view is None or view.status_since_redraw())
                chips = _plan.stack_at(statuses, table, where[1]) if ready else None
                if chips is None:  # a hand still running there, or a bust not decided yet
                    if boxes.linked.get(table) == "live":
                        return None  # its dealer finishes the hand and confirms: wait
                    late.add(table)
                    chips = (final.get("stacks") or {}).get(name)
            if chips:
                stacks[name] = chips
        if late and boxes.now - self.since < FINAL_WAIT_MS:
            return None
        left = left_play(tournament, statuses, redraw, late, final["from"].values())
        if left is None:
            return None  # a take_out there is not answered yet: its answer says the chips
        text = "the final table sits down at table %d: %d players, %s chips" % (
            final["table"], len(stacks), "{:,}".format(sum(stacks.values())))
        for where, (name, chips) in sorted(left.items()):
            text += "; %s still had %s chips at table %s seat %s when the final table was " \
                    "drawn, after the TD had entered them out: they leave play" % (
                        name, "{:,}".format(chips), *where.split("."))
        if late:
            text += "; table%s %s did not report the end of its hand within %d s: the " \
                    "chips of its players are from the draw" % (
                        "s" if len(late) > 1 else "",
                        ", ".join(str(tb) for tb in sorted(late)), FINAL_WAIT_MS // 1000)
        records = {name: record for name, record in records.items()
                   if record and name in stacks}
        payload: Dict[str, Any] = {"stacks": stacks, "records": records, "text": text}
        if left:
            payload["left"] = {where: chips for where, (_, chips) in left.items()}
        return lambda t2, lg, seq: ([("final_seated", payload, None)], None)


def left_play(tournament: Tournament, statuses: Statuses, redraw: Mapping[int, Any],
              late: Iterable[int], finalists: Iterable[Any]
              ) -> Optional[Dict[str, Tuple[str, int]]]:
    """{"table.seat": (player, chips)}: chips the final table's draw leaves out of play --
    at a table that had players (*redraw*: its ``redraw`` instruction; not one of *late*),
    the seat of a player the TD entered out whose take_out the box refused or the host
    called off, once the draw had seated another there (chaos seed 390: the player had won
    an all-in before their take_out came), where the box's last status still shows chips.
    None while a take_out there is open: its answer counts those chips.  *finalists*: the
    seats the finalists come from (``final["from"]``)."""
    out: Dict[str, Tuple[str, int]] = {}
    skip = set(late)
    theirs = {tuple(where) for where in finalists if where}
    last: Dict[Tuple[int, int], Any] = {}
    for record in tournament.instrs.values():
        if record["action"] == "take_out" and record["table"] in redraw \
                and record["table"] not in skip:
            last[(record["table"], record["body"].get("seat"))] = record
    for (table, seat), record in sorted(last.items()):
        done = "done" in _ins.results(record)
        if not done and not _ins.cancelled(record):
            return None
        entry = tournament.get(record.get("player") or "")
        chips = _plan.stack_at(statuses, table, seat) if isinstance(seat, int) else None
        if done or entry is None or entry.state == "in" or not chips or (table, seat) in theirs:
            continue
        out["%d.%d" % (table, seat)] = (entry.name, chips)
    return out
