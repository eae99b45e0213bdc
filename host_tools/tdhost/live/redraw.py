"""US 2's re-draw for the deal on the live night: "If 2 or more players are moved to a new
table, all players on that table re-draw for deal" (docs/host.md §10.7, docs/rules.md §15;
docs/live.md "The re-draw"): the marked moves (``mark``), the ``redraw`` once they are over
(``due``), and the seating that re-seats the table with a button drawn for high card, sent
once its dealer confirmed (``confirmed``)."""

import random
from typing import Any, Dict, List, Optional, Tuple

from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins, room_plan as _plan
from tdhost.live.effects import Write
from tdhost.live.shapes import Batch, Instr, Message
from tdhost.rules import balance as _balance, draw as _draw, house as _house


def mark(tournament: Tournament, plan: _balance.BalancePlan, payloads: List[Instr]) -> List[int]:
    """Tag the move_out *payloads* of *plan* heading to a table that re-draws (module
    notes) with the batch's first id; returns the tables."""
    _, hs = _house.get(tournament.setup["profile"])
    tables = set(_balance.redraw_tables(plan, hs))
    outs = [payload for payload in payloads
            if payload["action"] == "move_out" and payload["to"][0] in tables]
    for payload in outs:
        payload["redraw"] = outs[0]["id"]
    return sorted({payload["to"][0] for payload in outs})


def _groups(tournament: Tournament) -> Dict[Tuple[str, int], List[Instr]]:
    """{(group, table): [move_out records]} of the marked moves."""
    out: Dict[Tuple[str, int], List[Instr]] = {}
    for record in tournament.instrs.values():
        if record["action"] == "move_out" and record.get("redraw"):
            out.setdefault((record["redraw"], record["to"][0]), []).append(record)
    return out


def _redraws(tournament: Tournament) -> Dict[Tuple[Any, int], Instr]:
    return {(record.get("redraw"), record["table"]): record for record in tournament.instrs.values()
            if record["action"] == "redraw" and record.get("redraw")}


def due(tournament: Tournament) -> Optional[Write]:
    """The ``redraw`` of every group whose moves are over (docs/live.md "The re-draw"), a
    decision for Live.write, or None."""
    if tournament.final is not None or tournament.ended:
        return None
    _, hs = _house.get(tournament.setup["profile"])
    need = hs.get("redraw_at_joins")
    done = _redraws(tournament)
    due = []
    for (gid, table), outs in sorted(_groups(tournament).items()):
        if (gid, table) in done or any(not record.get("moved") and not _ins.cancelled(record)
                                       for record in outs):
            continue
        joined = [record["player"] for record in outs if record.get("moved")]
        if need and len(joined) >= need and table not in _plan.broken_tables(tournament):
            due.append((gid, table, joined))
    if not due:
        return None

    def build(current: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        evs: List[Any] = []
        for gid, table, joined in due:
            payload = _ins.instr(_ins.new_id(lg, current, len(evs)), "redraw", table,
                                 "table %d: %s joined: everyone re-draws for the deal (US 2)"
                                 % (table, " and ".join(joined)), deal=True)
            payload["redraw"] = gid
            evs.append(("instr", payload, None))
        return evs, None
    return build


def confirmed(tournament: Tournament) -> List[Tuple[int, Instr]]:
    """[(table, its last ``redraw``)] of the tables whose dealer confirmed it: the first
    status between hands from its box after that answer (after a host restart: the first
    this run hears) brings it the seating (``seating_for``), once
    (tables.TableView.takes_redraw); a box that connects again gets it with its feed
    (``Live.seating_msg``).  Sent again to a box that has built its table already, it
    changes nothing."""
    if tournament.final is not None or tournament.ended:
        return []
    latest: Dict[int, Instr] = {}
    for (_, table), record in _redraws(tournament).items():  # in the order they were written
        latest[table] = record
    return [(table, record) for table, record in sorted(latest.items())
            if _ins.state(record) == "done"]


def seating(tournament: Tournament, seed: int, gid: Any, table: int, status: Any) -> Message:
    """The ``seating`` body that re-seats *table* after its re-draw: the league's names, the
    chips of the box's *status* when it was between hands (else none: the box builds
    nothing from it), the button of a draw for high card among the seats with chips (*seed*:
    the night's, when the draw has none), and ``keep``: the box re-seats its own players
    with its own chips (a player may have sat down since that status; docs/protocol.md
    ``seating``)."""
    names = {str(seat): name for seat, name in tournament.seating().get(table, {}).items()}
    stacks = {}  # only between hands: a hand's bets are not chips behind yet
    if isinstance(status, dict) and isinstance(status.get("stacks"), dict) \
            and status.get("street") is None:
        stacks = {k: value for k, value in status["stacks"].items() if k in names and value}
    msg: Message = {"names": names}
    if len(stacks) >= 2:
        seed = (tournament.draw or {}).get("seed", seed)
        button, _ = _draw.high_card_button({int(k): names[k] for k in stacks},
                                           random.Random("%s|redraw|%s" % (seed, gid)))
        msg.update(stacks=stacks, button=button, keep=True)
    return msg


def seating_for(tournament: Tournament, seed: int, table: int,
                status: Any) -> Optional[Message]:
    """The seating of a *table* that has re-drawn (its last ``redraw`` of this kind, not
    cancelled), or None; *status*: its box's last.  Every seating it gets from then on
    carries the box's own chips and the drawn button, so whenever the box builds its table
    from one -- after the dealer's Confirm, or again before the new table's first hand --
    nothing changes but the button."""
    last = None
    for (gid, tb), record in _redraws(tournament).items():
        if tb == table and not _ins.cancelled(record):
            last = gid
    if last is None or tournament.final is not None:
        return None
    return seating(tournament, seed, last, table, status)
