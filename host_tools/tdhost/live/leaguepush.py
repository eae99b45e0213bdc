"""What the TD console shows of the venue's pushes to the league server (docs/league.md,
"Pushing during the night"): the last attempt, its sentence, and how many events of the
league file wait for the next push.  The pusher's thread (tdhost.season.autopush) tells it;
the night (tdhost.live.night) reads it under its lock; ``rev`` moves with each telling.
"""

import threading
from typing import Any, Dict, List, Optional


class LeaguePush:
    """The latest push's outcome, shared between the pusher's thread and the night."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.rev = 0
        self._at_ms: Optional[int] = None
        self._ok = False
        self._text = "Not pushed yet this night."
        self._pushed_seq: Optional[int] = None  # the venue's last event the league holds
        self._notices: Optional[List[str]] = None  # what the league told the venue (None: not
        # heard this night)

    def told(self, at_ms: int, ok: bool, text: str, pushed_seq: Optional[int] = None) -> None:
        """A push attempt ended at *at_ms*: sent (*ok*, the league now holding events up to
        *pushed_seq*) or not, with the sentence *text*."""
        with self._lock:
            self._at_ms, self._ok, self._text = at_ms, ok, text
            if pushed_seq is not None:
                self._pushed_seq = pushed_seq
            self.rev += 1

    def heard(self, notices: List[str]) -> None:
        """The league server's notices to this venue (a member at two venues on one night,
        a member number given to two names: tdhost.season.notices), read after a push."""
        with self._lock:
            if notices != self._notices:
                self._notices = list(notices)
                self.rev += 1

    def notices(self) -> Optional[List[str]]:
        """The notices last heard from the league server, or None before any."""
        with self._lock:
            return None if self._notices is None else list(self._notices)

    def view(self, last_seq: int) -> Dict[str, Any]:
        """{"text", "ok", "at_ms", "waiting"} with the league file at event *last_seq*
        (waiting: None while the league's mark is not known yet)."""
        with self._lock:
            waiting = None if self._pushed_seq is None else max(0, last_seq - self._pushed_seq)
            return {"text": self._text, "ok": self._ok, "at_ms": self._at_ms,
                    "waiting": waiting}
