"""Each box's seats held against the league's (docs/live.md "The seat check"): a seat the
league fills that its box shows empty, or a seat the box fills where the league seats
nobody, told to the TD once as a notice when it lasts while nothing is under way at that
table (no instruction open, no box event waiting, no hand running)."""

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins, room_plan as _plan
from tdhost.live.wording import chips

if TYPE_CHECKING:
    from tdhost.live.tables import TableView

# how long a difference must last, nothing being under way, before the TD is told (ms):
# two of a box's 30 s heartbeats, so a difference a status or an event about to come will
# end is never told
SETTLE_MS = 60000

Key = Tuple[int, int, Optional[str]]  # (table, seat, the league's player there or None)


class SeatCheck:
    """The differences seen at each table since when (host clock, ms), and those told."""

    def __init__(self) -> None:
        self._checked: Dict[int, int] = {}  # table -> its view's statuses when checked
        self._since: Dict[Key, int] = {}
        self._told: Set[Key] = set()

    def step(self, views: Mapping[int, "TableView"], tournament: Tournament, now: int,
             settled: Callable[[int], bool], notice: Callable[[str], None]) -> None:
        """Check each table whose box sent a status since the last step (*views*: each
        table's view, at *now*); a difference is held against a table only while nothing
        is under way there (``busy_tables``, *settled*), and told with *notice*."""
        fresh = [tb for tb, view in views.items()
                 if view.status is not None and self._checked.get(tb) != view.statuses]
        if not fresh:
            return
        final = tournament.final
        quiet = tournament.started is not None and not tournament.ended and (
            final is None or final.get("seated"))
        seating = tournament.seating() if quiet else {}
        broken = _plan.broken_tables(tournament) if quiet else set()
        busy: Optional[Set[int]] = None  # the tables with an instruction open (once a step)
        for tb in fresh:
            view = views[tb]
            self._checked[tb] = view.statuses
            found: Dict[Key, str] = {}
            if quiet and tb not in broken:
                found = differences(tb, view.status, seating.get(tb, {}))
                if found:
                    busy = busy_tables(tournament) if busy is None else busy
                    if tb in busy or not settled(tb):
                        found = {}
            for key in [key for key in self._since if key[0] == tb and key not in found]:
                del self._since[key]
                self._told.discard(key)  # told again if it comes back
            for key, text in sorted(found.items(), key=lambda item: item[0][1]):
                first = self._since.setdefault(key, now)
                if now - first >= SETTLE_MS and key not in self._told:
                    self._told.add(key)
                    notice(text)

    def told(self) -> List[Key]:
        """The differences told and not ended since."""
        return sorted(self._told, key=lambda key: (key[0], key[1]))


def differences(table: int, status: Any, league: Dict[int, str]) -> Dict[Key, str]:
    """{key: the TD's sentence} of the seats where *status* (a box's last state, between
    hands) and *league* ({seat: name} at *table*) disagree; {} during a hand, for a
    status without stacks, and at a table where the league seats nobody (a spare box: the
    table it shows is its own stand-in until the host gives it one)."""
    if not league or not isinstance(status, dict) or status.get("street") is not None:
        return {}
    stacks = status.get("stacks")
    if not isinstance(stacks, dict):
        return {}
    box: Dict[int, Any] = {}
    for key, value in stacks.items():
        if isinstance(key, str) and key.isdigit():
            box[int(key)] = value
    out: Dict[Key, str] = {}
    for seat, name in league.items():
        if seat not in box:
            out[(table, seat, name)] = (
                "table %d seat %d: the league has %s there, but the box shows the seat empty. "
                "At the table: if %s is out, bust them here; if they are playing, their chips "
                "are not on the box: seat them at the box again (their row's \"Seat at the "
                "box\")" % (table, seat, name, name))
    for seat in sorted(box):
        if seat not in league:
            stack = box[seat]
            out[(table, seat, None)] = (
                "table %d seat %d: the box shows a player there%s, but the league seats "
                "nobody there. At the table: ask the dealer who sits in seat %d; if nobody "
                "the league knows, clear the seat at the box (\"Clear seat %d at the box\" in "
                "the instructions)" % (
                    table, seat, " with %s chips" % chips(stack)
                    if isinstance(stack, int) and not isinstance(stack, bool) else "", seat,
                    seat))
    return out


def busy_tables(tournament: Tournament) -> Set[int]:
    """The tables an open instruction is to or from: a move's two halves until the move is
    recorded, a take_out until done, anything else until acknowledged (the rest of what is
    under way at a table: ``Live.settled``)."""
    out: Set[int] = set()
    for record in _ins.pending(tournament) + _ins.take_outs(tournament):
        for table in (record["table"], _at(record.get("to")), _at(record.get("from"))):
            if table is not None:
                out.add(table)
    return out


def _at(where: Any) -> Optional[int]:
    return where[0] if isinstance(where, (list, tuple)) and where else None
