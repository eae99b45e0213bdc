"""What the host knows of each table at run time (not logged: each box's ``status``
brings it again), who sits where at the boxes, and the ``seating`` a box is sent
(docs/host.md §10; docs/protocol.md ``seating``)."""

from typing import Any, Dict, Optional

from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins
from tdhost.live.shapes import Message, Statuses


class TableView:
    """One table as its box last told the host (not logged)."""

    def __init__(self) -> None:
        self.status: Optional[Dict[str, Any]] = None  # the box's last status state
        self.hand: Optional[int] = None  # the hand number it reported last
        self.ended = -1  # the last hand it reported ended
        self.contact: Optional[int] = None  # Live's clock when its box was last heard (ms)
        self.statuses = 0  # statuses heard from its box (this run)
        self.redraw_at: Optional[int] = None  # self.statuses when its box answered a redraw
        self.redraw_sent: Optional[str] = None  # the redraw whose seating its box was sent

    def heard(self, now: int) -> None:
        self.contact = now

    def took_status(self, status: Dict[str, Any], ended: int) -> None:
        """A new status from the box (*ended*: the last hand it says ended)."""
        self.status = status
        self.statuses += 1
        if isinstance(status.get("hand"), int):
            self.hand = status["hand"]
            self.ended = ended

    def hand_event(self, what: str, hand: int) -> None:
        """A ``hand_started`` or ``hand_ended`` event."""
        self.hand = hand
        self.ended = hand if what == "hand_ended" else hand - 1

    def redraw_answered(self) -> None:
        """Its box answered a redraw: the chips come from a later status (liveredraw)."""
        self.redraw_at = self.statuses

    def status_since_redraw(self) -> bool:
        """Has a status come since its box answered the redraw (or none was answered)?"""
        return self.redraw_at is None or self.statuses > self.redraw_at

    def takes_redraw(self, instr_id: str) -> bool:
        """Is the box between hands, with a status since it answered redraw *instr_id*,
        and not sent that redraw's seating yet?  Then it is marked sent (tdhost.live.redraw)."""
        if not self.status_since_redraw() or not isinstance(self.status, dict) \
                or self.status.get("street") is not None or self.redraw_sent == instr_id:
            return False
        self.redraw_sent = instr_id
        return True


class BoxesNow:
    """The boxes as the host knows them at one moment, as values a part decides from
    (``Live.boxes_now``): that moment (*now*, Live's clock), each table's box's last status,
    the hand its box is at, and the state of the best link to it (tables with a linked box
    only)."""

    def __init__(self, now: int, statuses: Statuses, hands: Dict[int, Optional[int]],
                 linked: Dict[int, str]) -> None:
        self.now = now
        self.statuses = statuses
        self.hands = hands
        self.linked = linked

    def fresh(self, table: int) -> bool:
        """Is *table*'s box live and before its first hand (it builds its table from a new
        seating then, docs/protocol.md)?"""
        return self.linked.get(table) == "live" and self.hands.get(table) == 0

    def boxed(self, tournament: Tournament, table: int) -> bool:
        """Does *table* have a box (a link now, or a box answered its instructions)?"""
        return table in self.linked or answered(tournament, table)


def answered(tournament: Tournament, table: int) -> bool:
    """Has a box answered an instruction to *table*?"""
    return any(instr["table"] == table and _ins.results(instr, "box")
               for instr in tournament.instrs.values())


def button_report(tournament: Tournament, table: int,
                  status: Any) -> Optional[Dict[str, Any]]:
    """The ``button`` event for the status *status* of *table*'s box: between hands (no
    street), after its first hand, when its button or blinds are not those the league last
    recorded for the table; else None.  `tdhost plan` takes the boxes' last buttons from
    these events (docs/live.md "Buttons")."""
    if not isinstance(status, dict) or status.get("street") or not tournament.started \
            or tournament.ended:
        return None
    button, hand = status.get("button"), status.get("hand")
    if not isinstance(button, int) or not isinstance(hand, int) or isinstance(button, bool) \
            or hand < 1:
        return None
    now = {"table": table, "button": button, "sb_seat": status.get("sb_seat"),
           "bb_seat": status.get("bb_seat")}
    last = tournament.buttons.get(str(table))
    if last is not None and all(last.get(key) == value for key, value in now.items()):
        return None
    return dict(now, hand=hand, by="box", text="table %d: the button at seat %d after hand %d"
                % (table, button, hand))


def name_at(tournament: Tournament, table: int, seat: Any) -> Optional[str]:
    """Who sits at *table* *seat*: the league's seating -- unless that player has left it
    (their move_out done) or is not there yet (a move the TD recorded by hand whose receive
    is not done) -- else a player the box has seated there by a move's receive (done; not
    recorded yet), or the player of a move recorded by hand who has not left this seat.
    From the final draw until the final table sits down (tdhost.live.final) the draw's
    ``from`` says who sits there (docs/live.md)."""
    final = tournament.final
    if final is not None and not final.get("seated") and "from" in final:
        for name, where in final["from"].items():
            if where == [table, seat]:
                return name
        return None
    moving = _ins.moving_players(tournament)
    name = tournament.seating().get(table, {}).get(seat)
    if name is not None and not (name in moving and _ins.state(moving[name][0]) == "done") \
            and not (name in moving and moving[name][0].get("recorded")):
        return name
    for other, halves in moving.items():
        if len(halves) > 1 and halves[0]["to"] == [table, seat] \
                and _ins.state(halves[1]) == "done":
            return other  # seated there by the box, not recorded yet
        if halves[0].get("recorded") and halves[0]["from"] == [table, seat] \
                and _ins.state(halves[0]) != "done":
            return other  # recorded by hand elsewhere: the box seats them here until they leave
    return None


def button(tournament: Tournament, table: int) -> Dict[str, int]:
    """{"button": seat} of the draw at *table*, or {}."""
    drawn = (tournament.final or tournament.draw or {}).get("tables", {}).get(str(table))
    return {"button": drawn["button"]} if drawn and drawn.get("button") else {}


def seats_now(tournament: Tournament) -> Dict[str, Any]:
    """{player: [table, seat]} as the boxes seat them, the seatings' rule: a player whose own
    receive is not carried out is seated by that receive, never by a seating (a box
    building its table from one would have them twice); the player of a move under way
    (recorded by hand or not) sits at their old seat until they left it, and at the new
    one once its receive is carried out; a player the TD entered out stays until the box
    carried out their take_out."""
    arriving = _ins.arriving(tournament)
    taking = {record["player"]: [record["table"], record["body"].get("seat")]
              for record in _ins.take_outs(tournament) if record.get("player")}
    where: Dict[str, Any] = {}
    for halves in _ins.moving_players(tournament).values():
        # a move under way, recorded by hand or not: the player sits at the old seat until
        # they left it, at the new one once its receive is carried out (name_at's view)
        left = _ins.state(halves[0]) == "done"
        sat = len(halves) > 1 and _ins.state(halves[1]) == "done"
        where[halves[0]["player"]] = halves[0]["to"] if sat else (
            None if left else halves[0]["from"])
    out: Dict[str, Any] = {}
    for entry in tournament.players.values():
        seat_now = where.get(entry.name, entry.seat) if entry.name not in arriving else None
        if entry.state == "out":
            seat_now = taking.get(entry.name)
        elif entry.state not in ("registered", "in"):
            seat_now = None
        if seat_now:
            out[entry.name] = seat_now
    return out


def names_by_table(tournament: Tournament) -> Dict[int, Dict[str, str]]:
    """{table: {seat (text): name}} of every table as the boxes seat them (``seats_now``):
    what the tables' seating versions number (tdhost.live.seating_versions)."""
    out: Dict[int, Dict[str, str]] = {}
    for name, seat in seats_now(tournament).items():
        out.setdefault(seat[0], {})[str(seat[1])] = name
    return out


def seating_msg(tournament: Tournament, table: int,
                redrawn: Optional[Message]) -> Message:
    """The ``seating`` body for *table* (docs/protocol.md): names per seat from the league,
    stacks where known (chips at entry, or those of the receive that seated the player
    there; the final table's from the boxes), the button of the draw; *redrawn*: the
    seating after a US 2 re-draw (tdhost.live.redraw), if any."""
    names, stacks, history = {}, {}, {}
    final = tournament.final if tournament.final and tournament.final.get(
        "table") == table else None
    if final is not None and "from" in final and not final.get("seated"):
        # no chips until every table has finished its hand (tdhost.live.final)
        return dict({"names": {str(player.seat[1]): player.name
                               for player in tournament.players.values()
                               if player.seat and player.seat[0] == table
                               and player.state == "in"}}, **button(tournament, table))
    if redrawn is not None:
        return redrawn
    at = seats_now(tournament)
    # the chips a player sat down with at their seat: the newest receive carried out
    received = {record["player"]: (list(record.get("to") or ()), record["body"].get("stack"))
                for record in tournament.instrs.values()
                if record["action"] == "receive" and record.get("player")
                and _ins.state(record) == "done"}
    for entry in tournament.players.values():
        seat_now = at.get(entry.name)
        if seat_now and seat_now[0] == table:
            key = str(seat_now[1])
            names[key] = entry.name
            known = (final or {}).get("stacks", {}).get(entry.name)
            came = received.get(entry.name)
            if known:
                stacks[key] = known
            elif came and came[0] == list(seat_now) and _ins.chips(came[1]):
                stacks[key] = came[1]  # moved here (or sat down again) with these
            elif entry.stack:
                stacks[key] = entry.stack - entry.deducted
            record = (final or {}).get("records", {}).get(entry.name)
            if record:  # what the finalist brings from their table (docs/rules.md §14)
                history[key] = dict(record)
    msg: Message = {"names": names}
    if stacks:
        msg["stacks"] = stacks
    if history:
        msg["history"] = history
    msg.update(button(tournament, table))
    return msg
