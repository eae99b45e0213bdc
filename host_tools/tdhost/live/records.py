"""Names for the shapes the live night passes around (docs/live.md): instruction records,
events to append, box messages (the league's objects: tdhost.league)."""

from typing import Any, Dict, List, Optional, Tuple

Link = Any  # a box link: tdhost.usb.BoxLink or one with its interface
Instr = Dict[str, Any]  # an instruction as the league keeps it (tdhost.live.instructions)
Payload = Dict[str, Any]  # an event's payload
Message = Dict[str, Any]  # a box's message (docs/protocol.md)
Event = Tuple[str, Payload, Optional[int]]  # (action, payload, undoes) to append
Batch = List[Event]
Seat = List[int]  # [table, seat]
Seating = Dict[int, Dict[int, str]]  # {table: {seat: name}}
Statuses = Dict[int, Dict[str, Any]]  # {table: the box's last status}
