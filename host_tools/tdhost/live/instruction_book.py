"""The host's instruction book (docs/live.md "Instructions"; docs/protocol.md "Box facts and
the instruction books"): per instruction id, the league's record (``instr`` and its
``instr_result`` answers: tdhost.live.instruction_log), the link it was handed to, when that
link last sent it and whether its box answered there.  The league file owns the truth: the
book follows the league's records (``follow``, after every reload) and a restarted host
builds it again from them, with nothing handed yet.  The links are its transports: a link
asks it what to send its box now (``due``: an instruction handed to it, again every
``RESEND_MS`` until its box answers, everything unanswered at once after a hello) and tells it
the box's answers (``heard``); Live hands each open instruction to its table's best link
(``to_hand``, ``hand``)."""

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from tdhost.league.tournament import Tournament
from tdhost.links.wire_messages import Instruction
from tdhost.live import instruction_log as _ins
from tdhost.live.shapes import Instr

RESEND_MS = 5000  # an instruction its box has not answered goes again this often


@dataclass
class Handed:
    """An instruction given to a link: the frame as it goes (with the seating version and
    the instruction it waits for, fixed when handed), when the link last sent it (None: not
    yet) and its box's answer on that link (any result ends the resends)."""

    link: Any
    frame: Instruction
    sent_ms: Optional[int] = None
    result: Optional[str] = None


class InstructionBook:
    """The host's one book of instructions (module notes).  Not thread-safe: Live's lock."""

    def __init__(self) -> None:
        self.records: Mapping[str, Instr] = {}  # id -> the league's record (read only)
        self.handed: Dict[str, Handed] = {}  # id -> the link it went to, in handing order
        # link -> its entries its box has not answered (a link's poll reads only its own)
        self.unanswered: Dict[Any, Dict[str, Handed]] = {}

    # -- the league's side ------------------------------------------------
    def follow(self, tournament: Tournament) -> None:
        """Read the league's records of *tournament* (after every reload of the league)."""
        self.records = tournament.instrs

    def open(self, table: Optional[int] = None) -> List[Instr]:
        """The instructions a box must still be given, in the order written (of *table*
        only, when given): pending in the league (tdhost.live.instruction_log.complete) and
        not answered ``done`` or ``refused``."""
        return [record for record in self.records.values()
                if (table is None or record["table"] == table) and not _ins.complete(record)
                and _ins.state(record) not in _ins.FINAL]

    def to_hand(self, link_for: Callable[[int], Any]) -> List[Tuple[Instr, Any]]:
        """(record, link) of each open instruction whose table's link now (*link_for(table)*,
        None: no box) is not the one it was handed to: a new instruction, a restarted host,
        a box on another port."""
        out = []
        for record in self.open():
            link = link_for(record["table"])
            if link is not None and self.handed_to(record["id"]) is not link:
                out.append((record, link))
        return out

    # -- the links' side --------------------------------------------------
    def hand(self, link: Any, body: Instruction) -> None:
        """Give instruction *body* (``{"id", "action", ...}``) to *link*: it goes with the
        link's next ``due`` and again until its box answers there (an earlier link of
        the same id sends it no more)."""
        iid = body["id"]
        earlier = self.handed.get(iid)
        if earlier is not None:
            self._answered(earlier.link, iid)
        entry = self.handed[iid] = Handed(link, {**body, "kind": "instruction"})
        self.unanswered.setdefault(link, {})[iid] = entry

    def handed_to(self, iid: str) -> Any:
        """The link instruction *iid* was last handed to, or None (queued)."""
        entry = self.handed.get(iid)
        return entry.link if entry is not None else None

    def due(self, link: Any, now: int, every: bool = False) -> List[Instruction]:
        """The frames *link* should send its box now (*now* on the link's clock): those
        handed to it that its box has not answered, never sent or last sent ``RESEND_MS``
        ago (*every*: all of them: a hello, a reconnect), each marked sent at *now*."""
        out = []
        for entry in self.unanswered.get(link, {}).values():
            if every or entry.sent_ms is None or now - entry.sent_ms >= RESEND_MS:
                entry.sent_ms = now
                out.append(entry.frame)
        return out

    def heard(self, link: Any, iid: str, result: str) -> None:
        """*link*'s box answered instruction *iid* with *result*: the link sends it no more
        (an answer on a link it is no longer handed to changes nothing)."""
        entry = self.handed.get(iid)
        if entry is not None and entry.link is link:
            entry.result = result
            self._answered(link, iid)

    def _answered(self, link: Any, iid: str) -> None:
        """*link* sends *iid* no more (answered, or handed to another link)."""
        waiting = self.unanswered.get(link)
        if waiting is not None:
            waiting.pop(iid, None)
            if not waiting:
                del self.unanswered[link]

    def answered(self, iid: str) -> bool:
        """Has the box of the link *iid* was handed to answered it there?"""
        return self.result(iid) is not None

    def result(self, iid: str) -> Optional[str]:
        """The answer the box of *iid*'s link gave (acknowledged, done, refused), or None."""
        entry = self.handed.get(iid)
        return entry.result if entry is not None else None
