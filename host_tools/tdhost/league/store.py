"""The league file: one SQLite database per league holding the append-only log of TD
actions (triggers refuse UPDATE and DELETE), its backups and their restore.  Every TD
command is one ``write`` transaction: read, decide, append (crash-safe in WAL mode:
the crash tests kill the process after every write, tests/tools/crashpoints.py).
docs/host.md §3.1 (schema), §3.2 (transactions, crashes), §3.3 (backups).
"""

import datetime
import errno
import fcntl
import json
import logging
import os
import shutil
import sqlite3
import urllib.parse
from typing import Any, Callable, Optional

SCHEMA_VERSION = 1
KEEP_BACKUPS = 30  # the newest backups kept next to the league file
BACKUP_AFTER = ("new", "start", "level", "bust")  # a backup after each of these commits
NEAR_FULL = 10**6  # bytes free under which a disk I/O error is taken for a full disk

SCHEMA = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament INTEGER NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        undoes INTEGER REFERENCES events(seq),
        batch INTEGER REFERENCES events(seq))""",
    "CREATE INDEX events_tournament ON events (tournament, seq)",
    """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END""",
    """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END""",
]


class StoreError(Exception):
    """The league file cannot be used; str(err) is a sentence."""


# ------------------------------------------------------------------ backups
def backup_dir(path: str) -> str:
    """Where the backups of the league file *path* live: FILE.backups/ next to it."""
    return path + ".backups"


def backups(path: str) -> list[str]:
    """The backup files of the league file *path*, newest first."""
    d = backup_dir(path)
    try:
        names = [n for n in os.listdir(d) if n.endswith(".sqlite") and ".part" not in n]
    except OSError:
        return []
    out = []
    for n in names:
        p = os.path.join(d, n)
        try:
            out.append((os.stat(p).st_mtime_ns, n, p))
        except OSError:  # removed meanwhile
            pass
    return [p for _, _, p in sorted(out, reverse=True)]  # the newest written first


def check_file(path: str) -> Optional[str]:
    """None when *path* is a readable league file, else the reason (a phrase)."""
    try:
        if os.path.getsize(path) == 0:
            return "it is empty (0 bytes)"
        db = sqlite3.connect(_uri(path, "mode=ro"), uri=True)
    except (OSError, sqlite3.Error) as err:
        return "it cannot be opened (%s)" % why(err)
    try:
        ok = db.execute("PRAGMA quick_check").fetchone()[0]
        if ok != "ok":
            return "it is damaged (%s)" % why(ok)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = "
                                           "'table'")}
        if "events" not in tables:
            return "it holds no league"
        for (p,) in db.execute("SELECT payload FROM events"):
            json.loads(p)
        return None
    except (sqlite3.Error, ValueError) as err:
        return "it is damaged (%s)" % why(err)
    finally:
        db.close()


def newest_good_backup(path: str) -> Optional[str]:
    """The newest backup of *path* that is a readable league file, or None."""
    for b in backups(path):
        if check_file(b) is None:
            return b
    return None


def why(err: object) -> str:
    """An SQLite error as a short phrase on one line."""
    text = " ".join(str(err).replace("*** in database main ***", "").split())
    return text if len(text) <= 80 else text[:77] + "..."


def _uri(path: str, query: str) -> str:
    """An SQLite URI for *path* (``mode=ro``, ``immutable=1``), any character in it quoted."""
    return "file:%s?%s" % (urllib.parse.quote(os.path.abspath(path)), query)


def _megabytes(n: int) -> str:
    """A size in words: "0 KB", "1.2 MB", "350 MB"."""
    if n < 10**6:
        return "%d KB" % (n // 1000)
    return "%.1f MB" % (n / 10**6) if n < 10**8 else "%d MB" % (n // 10**6)


def _free_space(path: str) -> Optional[int]:
    """Bytes free for this user on the disk of *path*, or None when unknown."""
    try:
        return shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    except OSError:
        return None


def unusable(path: str, err: BaseException) -> str:
    """The sentence for an SQLite error on the league file *path*: read-only (how to make it
    writable), the disk full (the space to free), locked by another program, the disk
    failing -- the file is not at fault, and nothing was recorded -- or else damaged
    (``damaged``: only a file that fails SQLite's checks is called that)."""
    name = str(getattr(err, "sqlite_errorname", "") or "")
    kept = "Nothing was recorded and the file is unharmed"
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")) or (
            isinstance(err, OSError) and err.errno in (errno.EROFS, errno.EACCES,
                                                       errno.EPERM)):
        return ("%s cannot be written: it or its folder is read-only (%s). %s: make both"
                " writable (`chmod u+w`; on a read-only drive or share, copy the file to a"
                " writable one and give that with --db), then run the command again."
                % (path, why(err), kept))
    free = _free_space(path)
    if name.startswith("SQLITE_FULL") or (isinstance(err, OSError) and err.errno == errno.ENOSPC) \
            or (name.startswith("SQLITE_IOERR") and free is not None and free < NEAR_FULL):
        # a full disk fails WAL's shared-memory file first: "disk I/O error" (IOERR_SHMSIZE)
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        need = size + 10**6  # a backup of the file, and room for the log to grow
        return ("%s cannot be written: the disk is full (%s free). %s: free at least %s on"
                " that disk, then run the command again."
                % (path, _megabytes(free or 0), kept, _megabytes(need)))
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return ("%s is locked by another program (%s). %s: close the other program using"
                " it (another `tdhost serve`, a database viewer), then run the command"
                " again." % (path, why(err), kept))
    if name.startswith("SQLITE_IOERR") or isinstance(err, OSError):
        return ("%s cannot be read or written: the disk reported an error (%s). Check the"
                " drive (a USB stick pulled out, a network share gone), then run the command"
                " again." % (path, why(err)))
    if name.startswith("SQLITE_NOMEM"):
        return "%s cannot be read: the computer is out of memory." % path
    return damaged(path, "it is damaged (%s)" % why(err))


def damaged(path: str, what: str) -> str:
    """The sentence for a league file that cannot be read: which file, what is wrong,
    what to do (restore the newest good backup when there is one)."""
    good = newest_good_backup(path)
    if good is not None:
        return ("%s cannot be used: %s. Restore the newest good backup with `tdhost "
                "restore --db %s %s` (the damaged file is kept)." % (path, what, path, good))
    return ("%s cannot be used: %s, and it has no good backup in %s. Keep the file; a "
            "copy from another machine or `sqlite3 %s .recover` may save its log."
            % (path, what, backup_dir(path), path))


def _stamp() -> str:
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


def make_backup(db: sqlite3.Connection, path: str, seq: int, reason: str,
                keep: int = KEEP_BACKUPS) -> Optional[str]:
    """Copy the open connection *db* of league file *path* with SQLite's online backup
    into FILE.backups/NAME-TIME-#SEQ-WHY.sqlite (written aside, then renamed: a kill
    leaves no half backup), and drop all but the newest *keep*.  Returns its path, or
    None when it could not be written (the night goes on; the reason is logged).  The copy
    is checked in full; a damaged one is not kept: StoreError (the file is damaged)."""
    d = backup_dir(path)
    name = "%s-%s-%07d-%s.sqlite" % (os.path.basename(path), _stamp(), seq, reason)
    final = os.path.join(d, name)
    part = final[:-len(".sqlite")] + ".part"
    try:
        os.makedirs(d, exist_ok=True)
        dst = sqlite3.connect(part)
        try:
            db.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            # the copy is checked in full: the one check of the whole league file between
            # the night's start and its end (a command checks only the pages it reads)
            ok = dst.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            dst.close()
        if ok != "ok":
            raise sqlite3.DatabaseError(ok)
        os.replace(part, final)
    except sqlite3.DatabaseError as err:
        if type(err) is not sqlite3.DatabaseError:  # not SQLITE_CORRUPT: e.g. the disk is full
            _not_written(path, part, err)
            return None
        _remove(part)
        raise StoreError(damaged(path, "it is damaged (%s)" % why(err)))
    except (OSError, sqlite3.Error) as err:
        _not_written(path, part, err)
        return None
    for old in [b for b in backups(path) if not b.endswith("-replaced.sqlite")][keep:]:
        _remove(old)
    return final


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:  # removed meanwhile, or never written
        pass


def _not_written(path: str, part: str, err: Exception) -> None:
    """A backup that could not be written (the night goes on; the reason is logged)."""
    logging.getLogger("tdhost.league.store").warning("backup of %s not written: %s", path, err)
    _remove(part)


class ServeLock:
    """The league file's one writer for the night: ``tdhost serve`` holds it from start to
    stop, ``restore`` while it replaces the file.  An advisory lock (flock) on FILE.lock:
    the kernel drops it when its process ends, however it ends, so it never goes stale
    (docs/host.md, "One writer at a time").  StoreError with a sentence when it is held."""

    def __init__(self, path: str, who: str) -> None:
        self.fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise StoreError("%s is open in a running `tdhost serve`: %s." % (path, who))

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing drops the lock
            self.fd = -1


def identity(path: str) -> Optional[tuple[int, int]]:
    """Which file *path* is (device, inode), or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def restore(path: str, source: str) -> tuple[Optional[str], int]:
    """Replace the league file *path* by the backup *source* (checked first).  The file it
    replaces (with its -wal) is kept in FILE.backups/ as NAME-TIME-replaced.sqlite.
    Returns (the kept file or None, events in the restored file).  StoreError when
    *source* is not a good league file, or while `tdhost serve` has *path* open."""
    lock = ServeLock(path, "stop it (Ctrl-C) first, then restore, and start serve again")
    try:
        return _restore(path, source)
    finally:
        lock.release()


def _restore(path: str, source: str) -> tuple[Optional[str], int]:
    wrong = check_file(source) if os.path.exists(source) else "it does not exist"
    if wrong is not None:
        raise StoreError("%s cannot be restored: %s." % (source, wrong))
    d = backup_dir(path)
    os.makedirs(d, exist_ok=True)
    kept = None
    part = path + ".restoring"
    src = sqlite3.connect(_uri(source, "mode=ro"), uri=True)
    try:
        dst = sqlite3.connect(part)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = WAL")
            n = dst.execute("SELECT count(*) FROM events").fetchone()[0]
        finally:
            dst.close()
    finally:
        src.close()
    # the league file is never missing: the old one is kept by a second name (a hard link,
    # its -wal copied), its -wal and -shm go (never replayed onto the restored file), then
    # the restored file takes its place in one rename.  A kill in between leaves the old
    # file, perhaps without its last -wal commits, and the kept copy whole: restore again.
    stamp = _stamp()
    if os.path.exists(path):
        kept = os.path.join(d, "%s-%s-replaced.sqlite" % (os.path.basename(path), stamp))
        again = 1
        while os.path.exists(kept):
            again += 1
            kept = os.path.join(d, "%s-%s-%d-replaced.sqlite" % (os.path.basename(path),
                                                                 stamp, again))
        os.link(path, kept)
        for tail in ("-wal", "-shm"):
            if os.path.exists(path + tail):
                shutil.copyfile(path + tail, kept + tail)
    for tail in ("-shm", "-wal"):
        if os.path.exists(path + tail):
            os.remove(path + tail)
    os.replace(part, path)
    for tail in ("-wal", "-shm"):
        if os.path.exists(part + tail):
            os.remove(part + tail)
    return kept, n


class LoggedEvent:
    """One event of the log: what a TD action (or the live night) recorded."""

    __slots__ = ("seq", "tournament", "at", "action", "payload", "undoes", "batch")

    def __init__(self, seq: int, tournament: int, at: str, action: str,
                 payload: dict[str, Any], undoes: Optional[int],
                 batch: Optional[int] = None) -> None:
        self.seq, self.tournament, self.at = seq, tournament, at
        self.action, self.payload, self.undoes = action, payload, undoes
        self.batch = batch if batch is not None else seq  # the TD action it belongs to

    def __repr__(self) -> str:
        return "LoggedEvent(%d, t%d, %s, %s)" % (self.seq, self.tournament, self.action,
                                                 self.payload)


class Store:
    """An open league file."""

    def __init__(self, path: str, create: bool = False, threads: bool = False,
                 check: bool = False, readonly: bool = False) -> None:
        """*threads*: the connection may be used from several threads, one at a time (the
        caller serialises: tdhost serve's lock around the live night and the web).
        *readonly*: opened only to read (``mode=ro``), so a read-only file or folder
        still shows the league (``_connect``)."""
        self.path = path
        self.damage: Optional[str] = None  # what a backup found wrong with the whole file
        self.identity: Optional[tuple[int, int]] = None  # the file opened (``replaced``)
        exists = os.path.exists(path)
        if not exists and not create:
            raise StoreError("%s does not exist: name the league file with --db FILE or "
                             "`export TDHOST_DB=FILE`, or start a league with "
                             "`tdhost new FILE.toml --db %s`." % (path, path))
        if os.path.isdir(path):
            raise StoreError("%s is a folder, not a league file." % path)
        if exists and os.path.getsize(path) == 0 and not os.path.exists(path + "-wal") and (
                not create or backups(path)):
            # an empty file: never invite the TD to start over on top of a lost league
            raise StoreError(damaged(path, "it is empty (0 bytes)"))
        try:
            self.db = self._connect(path, readonly, threads)
        except sqlite3.Error as err:
            raise StoreError(unusable(path, err))
        try:
            self.db.execute("PRAGMA busy_timeout = 10000")
            if self.db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal" and (
                    not readonly):
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA cell_size_check = ON")  # every page read is checked
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and check:
                ok = self.db.execute("PRAGMA quick_check").fetchone()[0]
                if ok != "ok":
                    raise sqlite3.DatabaseError(ok)
        except sqlite3.DatabaseError as err:
            self.db.close()
            if exists and os.path.getsize(path) >= 16:
                with open(path, "rb") as f:
                    head = f.read(16)
                if head != b"SQLite format 3\x00" and not backups(path):
                    raise StoreError("%s is not a tdhost league file (not SQLite)." % path)
            raise StoreError(unusable(path, err))
        if "events" not in tables:
            if tables - {"sqlite_sequence"}:
                self.db.close()
                raise StoreError("%s is an SQLite file of another program (tables: %s)."
                                 % (path, ", ".join(sorted(tables))))
            if not create:
                self.db.close()
                raise StoreError("%s holds no league yet: start one with `tdhost new "
                                 "FILE.toml --db %s`." % (path, path))
            self._create()
        else:
            try:
                v = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            except sqlite3.DatabaseError as err:
                self.db.close()
                raise StoreError(unusable(path, err))
            if v is None or str(v[0]) != str(SCHEMA_VERSION):
                self.db.close()
                raise StoreError("%s has schema version %s; this tdhost reads version %d."
                                 % (path, v[0] if v else "?", SCHEMA_VERSION))
        self.identity = identity(path)

    @staticmethod
    def _connect(path: str, readonly: bool, threads: bool) -> sqlite3.Connection:
        """The connection; read-only: ``mode=ro``, and where SQLite cannot even create the
        -shm file it needs to read a WAL file (a read-only folder, a full disk),
        ``immutable=1`` -- but only with no -wal file holding commits it would not see."""
        if not readonly:
            return sqlite3.connect(path, isolation_level=None, timeout=10,
                                   check_same_thread=not threads)
        db = sqlite3.connect(_uri(path, "mode=ro"), uri=True, isolation_level=None,
                             timeout=10, check_same_thread=not threads)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError as err:
            db.close()
            wal = path + "-wal"
            name = str(getattr(err, "sqlite_errorname", ""))
            if not name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR_SHM")) or (
                    os.path.exists(wal) and os.path.getsize(wal) > 0):
                raise
        return sqlite3.connect(_uri(path, "immutable=1"), uri=True, isolation_level=None,
                               check_same_thread=not threads)

    def _create(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "events" not in tables:  # another process may have created it meanwhile
                for stmt in SCHEMA:
                    self.db.execute(stmt)
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.db.close()

    # --------------------------------------------------------------------- reading
    def events(self, after: int = 0) -> list[LoggedEvent]:
        """The log's events, in order; only those after seq *after*.
        StoreError (the damaged-file sentence) when the log cannot be read."""
        try:
            rows = self.db.execute("SELECT seq, tournament, at, action, payload, undoes, "
                                   "batch FROM events WHERE seq > ? ORDER BY seq", (after,))
            out = [LoggedEvent(seq, number, at, action, json.loads(payload), undoes, batch)
                   for seq, number, at, action, payload, undoes, batch in rows]
        except sqlite3.DatabaseError as err:
            raise StoreError(unusable(self.path, err))
        except (ValueError, TypeError) as err:
            raise StoreError(damaged(self.path, "its log cannot be read (%s)" % why(err)))
        for ev in out:
            if not (isinstance(ev.seq, int) and isinstance(ev.tournament, int)
                    and isinstance(ev.action, str) and isinstance(ev.payload, dict)
                    and isinstance(ev.at, str)):
                raise StoreError(damaged(self.path, "event #%s of its log is damaged"
                                         % (ev.seq,)))
        return out

    def backup(self, reason: str) -> Optional[str]:
        """A backup of this league file now (make_backup); its path or None."""
        try:
            seq = self.db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]
        except sqlite3.Error as err:  # the file went bad under us: the next read says so
            logging.getLogger("tdhost.league.store").warning("no backup of %s: %s", self.path, err)
            return None
        try:
            return make_backup(self.db, self.path, seq, reason)
        except StoreError as err:  # the copy is damaged: so is the file (the caller warns)
            self.damage = str(err)
            logging.getLogger("tdhost.league.store").warning("%s", err)
            return None

    # --------------------------------------------------------------------- writing
    def replaced(self) -> Optional[str]:
        """A sentence when the file at ``path`` is no longer the one opened (restored or
        moved under this process: what it would write would go to the old file), else
        None."""
        if self.identity is None or identity(self.path) == self.identity:
            return None
        return ("%s was replaced while this tdhost had it open (tdhost restore?): nothing"
                " more is written to it; stop tdhost serve and start it again" % self.path)

    def write(self, decide: Callable[[Optional[list[LoggedEvent]]], tuple[list[Any], Any]],
              read: bool = True,
              after: Optional[Callable[[list[LoggedEvent]], None]] = None
              ) -> tuple[list[int], Any]:
        """One TD command: BEGIN IMMEDIATE, ``decide(events)`` returns the events to
        append [(tournament, at, action, payload, undoes)] and a result; they are appended
        and committed together (one batch).  An exception from *decide* writes nothing.
        *read* False: *decide* gets None and reads what it needs itself (inside the
        transaction: tdhost.league.cache).  *after(events appended)* writes what goes
        with them in the same transaction (the TD's undo list: tdhost.live.undo).
        StoreError (nothing written) when the file was ``replaced``."""
        gone = self.replaced()
        if gone is not None:
            raise StoreError(gone + ".")
        self.db.execute("BEGIN IMMEDIATE")
        try:
            new, result = decide(self.events() if read else None)
            seqs: list[int] = []
            for tournament, at, action, payload, undoes in new:
                cur = self.db.execute(
                    "INSERT INTO events (tournament, at, action, payload, undoes, batch) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (tournament, at, action, json.dumps(payload, sort_keys=True), undoes,
                     seqs[0] if seqs else None))
                assert cur.lastrowid is not None, "an INSERT gives its row"
                seqs.append(cur.lastrowid)
            if after is not None and new:
                after([LoggedEvent(seq, tournament, at, action,
                                   json.loads(json.dumps(payload, sort_keys=True)), undoes,
                                   seqs[0])
                       for seq, (tournament, at, action, payload, undoes) in zip(seqs, new)])
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        for _, _, action, _, _ in new:
            if action in BACKUP_AFTER:  # the night's milestones (docs/host.md "Backups")
                self.backup(action)
                break
        return seqs, result
