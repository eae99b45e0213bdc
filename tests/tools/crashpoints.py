"""The crash tests' write counter, kept out of the product: ``install()`` makes every SQLite
connection opened afterwards (the league file, its checkpoints, the box links' store: all
through ``sqlite3.connect``) count its writes -- each BEGIN, INSERT, CREATE, UPDATE, DELETE,
COMMIT (statement or ``commit()``) and the switch to WAL, counted once it has run -- and call
the hook set with ``hook(fn)`` with the count after each.  A hook that raises stops the
command there, as a kill would (the in-process tests); ``kill_at(k)`` kills the process with
SIGKILL after its k-th write (the forked and subprocess tests).

Run as a script it is the crash tests' wrapper of the `tdhost` command:
``python tests/tools/crashpoints.py K ARGS...`` runs ``tdhost ARGS...`` killed after its
K-th write (K = 0: never).  docs/host.md §3.2.
"""

import os
import signal
import sqlite3
import sys
from typing import Any, Callable, Optional

WRITES = ("BEGIN", "INSERT", "CREATE", "UPDATE", "DELETE", "COMMIT", "REPLACE", "DROP",
          "ALTER")

_count = [0]
_hook: list[Optional[Callable[[int], None]]] = [None]
_connect = sqlite3.connect


def _is_write(sql: str) -> bool:
    words = sql.lstrip().split(None, 1)
    head = words[0].upper() if words else ""
    if head == "PRAGMA":
        return "=" in sql and "journal_mode" in sql.lower()
    return head in WRITES


def _wrote() -> None:
    _count[0] += 1
    hook = _hook[0]
    if hook is not None:
        hook(_count[0])


class CountingConnection(sqlite3.Connection):
    """A connection that counts its writes (module notes)."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        cur = super().execute(sql, *args)
        if _is_write(sql):
            _wrote()
        return cur

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        cur = super().executemany(sql, *args)
        if _is_write(sql):
            _wrote()
        return cur

    def commit(self) -> None:
        in_transaction = self.in_transaction
        super().commit()
        if in_transaction:
            _wrote()


def _counting_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    if "factory" not in kwargs:
        kwargs["factory"] = CountingConnection
    return _connect(*args, **kwargs)


def install() -> None:
    """Count the writes of every connection opened from now on (the hook unset: nothing
    else happens)."""
    sqlite3.connect = _counting_connect  # type: ignore[assignment]


def reset() -> None:
    """The count back to 0."""
    _count[0] = 0


def writes() -> int:
    """The writes counted since the last ``reset``."""
    return _count[0]


def hook(fn: Optional[Callable[[int], None]]) -> None:
    """Call *fn* with the count after each write (None: no more)."""
    _hook[0] = fn


def kill_at(k: Optional[int]) -> None:
    """Kill this process (SIGKILL) right after its *k*-th write from now (None: never)."""
    reset()
    if not k:
        hook(None)
        return

    def kill(n: int) -> None:
        if n == k:
            os.kill(os.getpid(), signal.SIGKILL)
    hook(kill)


def main(argv: list[str]) -> int:
    install()
    kill_at(int(argv[0]))
    from tdhost.cli.app import cli
    try:
        cli.main(args=argv[1:], prog_name="tdhost")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
