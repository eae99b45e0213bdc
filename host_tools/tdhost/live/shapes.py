"""Names for the shapes the live night passes around (docs/live.md): instruction records,
events to append, box messages (the league's objects: tdhost.league)."""

from typing import Any, Dict, List, Optional, Protocol, Tuple

from tdhost.links.boxlink import BoxEventHandler, Feed, HostBook


class ServedLink(Protocol):
    """A box link as the live night uses it: tdhost.links.boxlink.BoxLink (over USB or
    MQTT), or anything with its interface (docs/live.md "Links")."""

    box: Optional[str]  # the box id, from its hello
    table: Optional[int]
    state: str  # unknown, configured, live, offline
    scope: Optional[str]
    feed: Optional[Feed]
    book: Optional[HostBook]
    on_event: Optional[BoxEventHandler]

    def send(self, msg: Any, to: Optional[str] = None, first: bool = False) -> None: ...

    def send_instructions(self, now: Optional[int] = None, every: bool = False) -> None: ...

    def poll(self, now: Optional[int] = None) -> None: ...

    def move_to(self, table: int, now: Optional[int] = None) -> bool: ...


Instr = Dict[str, Any]  # an instruction as the league keeps it (tdhost.live.instruction_log)
Payload = Dict[str, Any]  # an event's payload
Message = Dict[str, Any]  # a box's message (docs/protocol.md)
Event = Tuple[str, Payload, Optional[int]]  # (action, payload, undoes) to append
Batch = List[Event]
Seat = List[int]  # [table, seat]
Seating = Dict[int, Dict[int, str]]  # {table: {seat: name}}
Statuses = Dict[int, Dict[str, Any]]  # {table: the box's last status}
