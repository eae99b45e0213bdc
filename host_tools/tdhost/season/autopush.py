"""`tdhost serve`'s pushes to the league server: a daemon thread that pushes the league file
(tdhost.season.push) at the start and every ``EVERY_S`` seconds, each attempt given up after
``TIMEOUT_S`` seconds unreachable, and tells the console (tdhost.live.leaguepush).  It reads
the league file on its own connection and never takes the night's lock: the night never
waits for the league, and a venue offline is normal.  docs/league.md, "Pushing during the
night".
"""

import logging
import threading
import time

from tdhost.live.leaguepush import LeaguePush
from tdhost.season import push as _push
from tdhost.season.connection import SeasonError

log = logging.getLogger("tdhost.season.autopush")

EVERY_S = 60.0  # between pushes
TIMEOUT_S = 5  # before an unreachable league server is given up, each attempt


class AutoPush:
    """The pusher of one served league file; ``stop`` ends it (not waiting for a push under
    way: the thread is a daemon, and a push cut off is rolled back on the server)."""

    def __init__(self, db: str, conninfo: str, notes: LeaguePush, every_s: float = EVERY_S,
                 timeout_s: int = TIMEOUT_S) -> None:
        self.db, self.conninfo, self.notes = db, conninfo, notes
        self.every_s, self.timeout_s = every_s, timeout_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tdhost league push",
                                        daemon=True)

    def start(self) -> "AutoPush":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(0.5)

    def push_once(self) -> None:
        """One push, its outcome told to the console."""
        try:
            done = _push.push(self.db, self.conninfo, self.timeout_s)
        except SeasonError as err:
            self.notes.told(_now_ms(), False, str(err))
            return
        except Exception as err:  # noqa: BLE001 -- never let the pusher die for the night
            log.exception("league push failed")
            self.notes.told(_now_ms(), False, "The push failed (%s): it is tried again in a"
                            " minute." % err)
            return
        self.notes.told(_now_ms(), True, done.sentence, done.seq)
        self.notes.heard(done.notices)  # the console shows what the league tells the venue

    def _run(self) -> None:
        while not self._stop.is_set():
            self.push_once()
            self._stop.wait(self.every_s)


def _now_ms() -> int:
    return int(time.time() * 1000)
