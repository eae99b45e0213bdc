"""The table each box serves, as the TD gave it: ``tdhost pair`` records the table a box was
paired for, ``tdhost move-box BOX TABLE`` and the console's "Move box" move it.  Kept in
a file next to the event key (event.key -> event-tables.json, readable by its owner only);
the host refuses a box's hello for any other table (docs/protocol.md, "A box speaks only for
its own table").  Boxes paired for Wi-Fi before this file existed count with the table of
their broker login (tdhost.links.logins)."""

import json
import logging
import os

from tdhost.league.limits import TABLE_MAX
from tdhost.links import logins

log = logging.getLogger("tdhost.links")



def path_of(key_file: str) -> str:
    """The tables file of an event key file: event.key -> event-tables.json."""
    return os.path.splitext(key_file)[0] + "-tables.json"


def check_table(table: object) -> int:
    """*table* as a table number; ValueError with a sentence otherwise."""
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= TABLE_MAX:
        raise ValueError("a table is a whole number from 1 to %d, not %r" % (TABLE_MAX, table))
    return table


class BoxTables:
    """{box id: table}, kept next to the event key *key_file* (None: in memory only, e.g.
    the demo).  ValueError with a sentence for a file that is not one of ours."""

    def __init__(self, key_file: str | None = None) -> None:
        self.path = path_of(key_file) if key_file is not None else None
        self.tables: dict[str, int] = {}
        self.older: dict[str, int] = {}  # Wi-Fi logins' tables, for boxes the file lacks
        self._stamp: tuple[int, int, int] | None = None
        if key_file is None:
            return
        try:
            for box, login in logins.load(logins.path_of(key_file)).items():
                if isinstance(login.get("table"), int):
                    self.older[box] = login["table"]
        except ValueError:
            pass
        self.tables = dict(self.older)
        self._read()

    def _read(self) -> None:
        """The file again when it changed (``tdhost move-box`` while serve runs)."""
        if self.path is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError("%s cannot be read as the boxes' tables (%s)" % (self.path, e))
        boxes = data.get("boxes") if isinstance(data, dict) else None
        if not isinstance(boxes, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in boxes.values()):
            raise ValueError("%s does not hold the boxes' tables" % self.path)
        self._stamp = stamp
        self.tables = dict(self.older, **boxes)

    def table_of(self, box: str) -> int | None:
        """The table *box* serves, or None when the TD never gave it one."""
        self._fresh()
        return self.tables.get(box)

    def assign(self, box: str, table: int) -> None:
        """*box* serves *table* from now on: kept (written atomically, owner only)."""
        check_table(table)
        self._read()
        tables = dict(self.tables, **{box: table})
        if self.path is not None:
            tmp = self.path + ".tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"boxes": tables}, f, indent=1, sort_keys=True)
                f.write("\n")
            os.replace(tmp, self.path)
        self.tables = tables

    def refusal(self, box: str, table: object) -> str | None:
        """Why *box* may not serve *table* (one sentence), or None when it may: a box the
        TD never gave a table serves the one it claims."""
        self._fresh()
        want = self.tables.get(box)
        if want is None or table == want:
            return None
        return ("Box %s said hello as table %s but serves table %d: refused (to move it:"
                " tdhost move-box %s %s, or Move box in the console)"
                % (box, table if table else "none", want, box, table if table else "N"))

    def _fresh(self) -> None:
        """``_read``; a file damaged under serve keeps the tables read before (said once)."""
        try:
            self._read()
        except ValueError as err:
            if self._stamp != (0, 0, 0):
                log.warning("%s; the tables read before stand.", err)
            self._stamp = (0, 0, 0)
