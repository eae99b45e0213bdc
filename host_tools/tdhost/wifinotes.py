"""What the TD must see of the Wi-Fi boxes' logins, in plain words: refused logins and
boxes to pair again (docs/mqtt.md, "Threats"; the console's Wi-Fi card, docs/web.md §4).

    notes = WifiNotes(tables={"tc-3f2a9c01abcd": 4})   # box id -> table (the logins file)
    notes.refused("password", "tc-3f2a9c01abcd", "tc-3f2a9c01abcd", "192.168.1.23")
    notes.pair_again("tc-05", 2)
    notes.view()   # [{"text", "at_ms", "times"}], newest first, at most SHOWN

The broker's thread (refusals) and the host's (boxes to pair again) both add: a lock
guards the notes; ``rev`` counts changes (Live's version follows it).  The same words
twice make one note, counted, moved to the top.
"""

import threading
import time

SHOWN = 5  # notes in the snapshot (the newest)
KEPT = 50  # notes kept (the oldest go)


def _unix_ms():
    return int(time.time() * 1000)


class WifiNotes:
    """The night's Wi-Fi notes (module notes)."""

    def __init__(self, tables=None, clock=None):
        self.tables = dict(tables or {})  # box id -> table, to say "table 4's box"
        self.clock = clock or _unix_ms
        self.rev = 0
        self._lock = threading.Lock()
        self._notes = {}  # text -> [at_ms, times], oldest first

    def who(self, user):
        """A login's owner in words: "table 4's box", "the host", "box tc-09"."""
        if user == "host" or (user or "").startswith("tdhost-"):
            return "the host"
        table = self.tables.get(user)
        return "table %s's box" % table if table else "box %s" % user

    def refused(self, why, user=None, client_id=None, address=None):
        """A login the broker refused.  *why*: ``anonymous`` (no user name), ``unknown``
        (a user no paired box has), ``password``, ``client_id`` (a login claiming
        another's id) or ``login`` (Mosquitto: one of the first three)."""
        at = " from %s" % address if address else ""
        if why == "anonymous":
            text = "Refused: a login without a name%s (only paired boxes may log in)" % at
        elif why == "unknown":
            text = ("Refused: a login as an unknown box%s (a box paired before each box had"
                    " its own login must be paired again: tdhost pair)" % at)
        elif why == "password":
            text = "Refused: a login for %s with a wrong password%s" % (self.who(user), at)
        elif why == "client_id":
            text = "Refused: %s's login%s posing as %s" % (
                self.who(user), at, self.who(client_id))
        else:
            text = ("Refused: a login%s without a name, as an unknown box or with a wrong"
                    " password" % at)
        self.add(text)

    def pair_again(self, box, table=None):
        """A box paired before each box had its own key: it must be paired again."""
        table = table or self.tables.get(box)
        who = ("Table %s's box" % table) if table else "Box %s" % box
        self.add("%s was paired before each box had its own key: pair it again (tdhost pair"
                 " PORT --table %s --key-file ... --wifi-ssid ...)" % (who, table or "N"))

    def add(self, text):
        """One note (the same text again: counted and moved to the top)."""
        with self._lock:
            old = self._notes.pop(text, None)
            if old is None and len(self._notes) >= KEPT:
                self._notes.pop(next(iter(self._notes)))
            self._notes[text] = [self.clock(), (old[1] if old else 0) + 1]
            self.rev += 1

    def view(self, n=SHOWN):
        """[{"text", "at_ms", "times"}]: the newest *n*, newest first."""
        with self._lock:
            items = list(self._notes.items())[-n:] if n else []
        return [{"text": t, "at_ms": v[0], "times": v[1]} for t, v in reversed(items)]
