"""Plans on the live night (docs/host.md §10.5, §10.7; docs/live.md "Plans"): after a
change, tdhost.rules.balance on tdhost.live.room_plan's room, turned into moves (or the final
table formed); before it, the moves it replaces called off (refused by a box, heading for a
table it breaks) and a broken table it keeps put back in play (``reopen``).  Each step is a
decision Live writes in turn (``Steps``: ``Live.carry_out``), decided from the tournament
and the boxes as values (``tables.BoxesNow``); the moves themselves are
tdhost.live.moves'."""

import logging
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live import (
    final as _final,
    instruction_log as _ins,
    redraw as _redraw,
    room_plan as _plan,
)
from tdhost.live.effects import Steps, Write, notice
from tdhost.live.shapes import Batch, Instr
from tdhost.rules import balance as _balance

if TYPE_CHECKING:
    from tdhost.live.tables import BoxesNow

log = logging.getLogger("tdhost.live")


def _boxed(boxes: "BoxesNow", tournament: Tournament) -> Callable[[int], bool]:
    """Does a table have a box (tables.BoxesNow.boxed), for *tournament*?"""
    return lambda table: boxes.boxed(tournament, table)


def _told(text: str) -> Write:
    """A ``notice`` for the TD, said in the host's log too."""
    log.warning("%s", text)
    return notice(text)


def plan(tournament: Tournament, boxes: "BoxesNow", seed: int, after_bust: bool,
         final_seat: "_final.FinalSeat") -> Steps:
    """Balance, break, or form the final table after a change (tdhost.rules.balance; the
    boxes' last statuses: *boxes*; *seed*: the night's, when the draw has none);
    *after_bust*: refused moves are dropped first.  A final table formed restarts
    *final_seat*'s wait."""
    top = tournament
    if tournament.started is None or tournament.ended:
        return
    if after_bust:
        drop = drop_refused(tournament, boxes)
        if drop is not None:
            _, tournament = yield drop
    statuses = boxes.statuses
    seed = (top.draw or {}).get("seed", seed)

    def again(current: Tournament) -> Tuple[Dict[str, List[Instr]], Dict[str, Any]]:
        moving = _ins.moving_players(current)
        return moving, _plan.room(current, statuses, seed, moving)

    moving, room = again(tournament)
    if sum(1 for tb in room["tables"] if tb["seats"]) < 2:
        return
    try:
        result = _balance.plan(room)
        drop = None if result["final_table"] else drop_into_broken(
            tournament, result["broken"], moving, boxes)
        if drop is not None:
            _, tournament = yield drop
            moving, room = again(tournament)  # plan again without them
            result = _balance.plan(room)

        def back_in_play(current: Tournament, lg: League, seq: int) -> Tuple[Batch, bool]:
            evs = reopen(current, lg, result, room, lambda table: boxes.boxed(current, table))
            return evs, bool(evs)

        if not result["final_table"]:
            reopened, tournament = yield back_in_play
            if reopened:
                moving, room = again(tournament)  # plan again with the table in play
                result = _balance.plan(room)
    except _balance.PlanError as err:
        yield _told("no plan: %s" % err)
        return
    if result["final_table"]:
        if top.final is None:
            final_seat.restart()  # the final table waits afresh
            try:
                yield from _final.form(tournament, statuses, seed, boxes.linked)
            except ActionRefused as err:
                yield _told("the final table does not form yet: %s" % err)
        return

    def build(current: Tournament, lg: League, seq: int) -> Tuple[Batch, List[str]]:
        chosen = _plan.spare_held(result, room, _plan.held(current))  # a box refused them
        chosen = _plan.around_box_filled(chosen, current, statuses)  # a box fills that seat
        chosen, told = _plan.not_into_broken(chosen, current, lg)  # no box takes them there
        evs, skipped = _plan.moves(lg, current, chosen, statuses, moving)
        _redraw.mark(current, chosen, evs)  # US 2: two or more joining one table re-draw
        batch: Batch = [("instr", payload, None) for payload in evs]
        batch += [("notice", {"text": text, "src": []}, None) for text in told]
        return batch, skipped

    skipped, _ = yield build
    if skipped:
        log.info("not moved again while their move is pending: %s", ", ".join(skipped))


def reopen(tournament: Tournament, lg: League, result: _balance.BalancePlan,
           room: Dict[str, Any], boxed: Callable[[int], bool]) -> Batch:
    """The events that put back in play a table an earlier plan broke and *result* (a new
    plan on *room*) keeps -- a bust undone after its plan broke the table: the players no
    longer fit at the others (docs/live.md "Every seat taken"): its ``break_table`` called
    off and withdrawn from its box, the moves out of it that neither box has begun called
    off (with the moves into their seats, ``_followers``), a notice.  A break its box has
    carried out is withdrawn too: the box opens the table again if it still can (the break
    its dealer confirmed last, no restart since: docs/protocol.md "withdraw"), and the table
    counts as open once it says so (``room_plan.box_broken``); else it refuses, and the
    table stays broken (chaos seeds 82, 526: the players no longer fitted at the others).
    None to write: []; else the caller plans again."""
    keep = {tb["table"] for tb in room["tables"] if tb["seats"]} - set(result["broken"])
    stale = [record for record in tournament.instrs.values()
             if record["action"] == "break_table" and record["table"] in keep
             and not _ins.cancelled(record)]
    if not stale:
        return []
    tables = sorted({record["table"] for record in stale})
    moving = _ins.moving_players(tournament)
    out = _followers(moving, [pair for pair in moving.values() if pair[0]["from"][0] in tables
                              and _unbegun(pair)])
    evs = _ins.cancel_all(lg, tournament, stale + [instr for pair in out for instr in pair],
                          "table %s plays on: a new plan keeps it" % ", ".join(
                              map(str, tables)), boxed)
    seen = _ins.withdrawn(tournament)
    k = sum(1 for action, _, _ in evs if action == "instr")
    for record in stale:  # carried out at the box: withdrawn all the same (above)
        if "done" in _ins.results(record, "box") and record["id"] not in seen \
                and boxed(record["table"]):
            evs.append(("instr", _ins.withdraw(lg, tournament, k, record), None))
            k += 1
    return evs + [("notice", {"text": "table%s %s in play again: the new plan keeps %s" % (
        "s" if len(tables) > 1 else "", ", ".join(map(str, tables)),
        "them" if len(tables) > 1 else "it"), "src": []}, None)]


def _unbegun(pair: List[Instr]) -> bool:
    """A move the host planned that neither box has carried out any half of."""
    return not pair[0].get("recorded") and not any(_ins.state(instr) == "done" for instr in pair)


def _followers(moving: Dict[str, List[Instr]], drop: List[List[Instr]]) -> List[List[Instr]]:
    """*drop* (moves to call off) and the moves neither box has begun that head for a seat
    one of them leaves (its player stays there now), and so on."""
    out = list(drop)
    while True:
        freed = {tuple(pair[0]["from"]) for pair in out}
        more = [pair for pair in moving.values() if pair not in out and _unbegun(pair)
                and tuple(pair[0]["to"]) in freed]
        if not more:
            return out
        out += more


def _cancel(halves: Sequence[List[Instr]], why: Union[str, Callable[[Instr], str]],
            boxes: "BoxesNow") -> Write:
    """Call off the moves *halves* (lists of instructions), withdrawing what the boxes may
    still show (tdhost.live.instruction_log.cancel_all), in one batch."""
    ids = [instr["id"] for pair in halves for instr in pair]
    return lambda tournament, lg, seq: (_ins.cancel_all(
        lg, tournament, [tournament.instrs[i] for i in ids], why,
        _boxed(boxes, tournament)), None)


def drop_into_broken(tournament: Tournament, broken: Sequence[int],
                     moving: Dict[str, List[Instr]], boxes: "BoxesNow") -> Optional[Write]:
    """A plan that breaks a table cancels the pending moves into it that neither box has
    carried out yet (the player would sit down at a table that is breaking, then move
    again): that decision, or None when there is none.  A move whose one half is done
    goes on; nobody moves into the seats of players who stay (``_followers``)."""
    drop = [pair for pair in moving.values() if pair[0]["to"][0] in broken and _unbegun(pair)]
    if not drop:
        return None
    drop = _followers(moving, drop)  # their players stay: nobody moves into their seats
    return _cancel(drop, lambda instr: "table %d %s; a new plan replaces it" % (
        instr["to"][0], "breaks" if instr["to"][0] in broken else "seat %d stays taken" % (
            instr["to"][1])), boxes)


def drop_refused(tournament: Tournament, boxes: "BoxesNow") -> Optional[Write]:
    """A new plan after a bust replaces moves a box refused (neither half done): that
    decision, or None."""
    drop = [pair for pair in _ins.moves(tournament).values()
            if any(_ins.state(instr) == "refused" for instr in pair)
            and not pair[0].get("recorded")
            and not any(_ins.state(instr) == "done" for instr in pair)]
    if not drop:
        return None
    return _cancel(drop, "refused by a box; a new plan replaces it", boxes)
