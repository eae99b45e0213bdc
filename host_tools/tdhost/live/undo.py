"""The TD's own undo and redo on the live night (docs/live.md "The TD's actions and
undo"; docs/web.md §4): the ``Journal`` of the TD's actions that can be taken back, with in
words what each undo will do, kept per tournament in the league file (each change in the
transaction of its events) so that a restarted host offers the same."""

import contextlib
import datetime
import json
import logging
import sqlite3
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

from tdhost.actions import ACTIONS
from tdhost.league import replay as _replay, store as _store, text as _text
from tdhost.league.refusal import ActionRefused
from tdhost.live import instruction_log as _ins, room_plan as _plan
from tdhost.live.effects import Effects, Steps
from tdhost.live.wording import chips, log_line as _words_of, seat, tables

if TYPE_CHECKING:
    from tdhost.league.store import Store
    from tdhost.league.tournament import Tournament
    from tdhost.live.console_actions import Desk

log = logging.getLogger("tdhost.live")

Entry = Dict[str, Any]  # one action kept: n, action, args, seqs, time, what, then
ROW = ("action", "args", "seqs", "time", "what", "then")  # an entry's row (and v, n, state)
FORMAT = 1  # of a kept row: a row of another format is dropped with a sentence
TABLE = ("CREATE TABLE IF NOT EXISTS undo_journal (tournament INTEGER NOT NULL, "
         "n INTEGER NOT NULL, state TEXT NOT NULL, pos INTEGER NOT NULL, entry TEXT NOT NULL, "
         "PRIMARY KEY (tournament, n))")  # state done|undone; pos: n, or its place in redo

UNDOABLE = frozenset(name for name, action in ACTIONS.items() if action.undoable)
# the events an undo takes back itself; instructions are called off after it
# (tdhost.live.reactions: those left without a reason; _cancel_own: the action's own)
KEEP = frozenset(("instr", "instr_result", "notice", "undo", "hfh_release", "final_seated",
                  "button"))
KEPT = 20  # entries kept for undo (the newest)
CLOCK_ACTS = frozenset(("pause", "resume", "level", "adjust"))


def _left(clock: Any) -> str:
    seconds = (clock.left_ms + 999) // 1000
    number = clock.levels[clock.index][4]
    return "%d:%02d of %s" % (seconds // 60, seconds % 60,
                              "level %d" % number if number else "the break")


def before(desk: "Desk", action: str, args: Dict[str, Any]) -> Dict[str, Any]:
    """What the undo's words need from before *action* (where a player sits, the clock)."""
    tournament = desk.tournament
    ctx: Dict[str, Any] = {"clock": None, "seats": {}}
    if tournament.started is not None and not tournament.ended:
        clock = tournament.clock_at(desk.now)
        ctx["clock"] = {"left": _left(clock), "paused": clock.paused,
                        "level": clock.levels[clock.index][4]}
    if action == "bust" and isinstance(args.get("names"), list):
        statuses = desk.boxes.statuses
        for name in args["names"]:
            player = tournament.get(name) if isinstance(name, str) else None
            if player is not None and player.seat:
                ctx["seats"][player.name] = (list(player.seat), _plan.stack_at(statuses,
                                                                               *player.seat))
    if action == "hand_for_hand":
        ctx["tables"] = desk.playing()
    return ctx


def _words(action: str, args: Dict[str, Any], ctx: Dict[str, Any],
           evs: List[Any]) -> Tuple[str, str]:
    """(what the action was, what its undo does) in words."""
    logged = {}
    for ev in evs:
        if ev.action not in KEEP:
            logged = ev.payload
            break
    clock = ctx.get("clock") or {}
    if action == "bust":
        names = [name for tier in reversed(logged.get("tiers") or []) for name in tier]
        back = []
        for name in names:
            where, stack = ctx["seats"].get(name, (None, None))
            back.append("%s returns to %s%s" % (name, seat(where) if where else "the game",
                                                " with %s chips" % chips(stack) if stack else ""))
        return ("%s's bust" % " and ".join(names), "; ".join(back) or "they play on")
    if action == "pause":
        return ("clock paused at %s" % clock.get("left", "?"),
                "the clock runs on as if it had not been paused")
    if action == "resume":
        return ("clock resumed at %s" % clock.get("left", "?"),
                "the clock stands paused again at %s" % clock.get("left", "?"))
    if action == "level":
        return ("jump to level %s" % args.get("level"),
                "back to %s, the time running on as if there had been no jump"
                % (clock.get("left", "?").split(" of ", 1)[-1]))
    if action == "adjust":
        seconds = args.get("seconds") or 0
        amount = "%d min" % (abs(seconds) // 60) if seconds and seconds % 60 == 0 \
            else "%d s" % abs(seconds)
        return ("%s %s %s" % (amount, "added to" if seconds > 0 else "taken off", clock.get(
            "left", "?").split(" of ", 1)[-1]),
            "the %s %s again" % (amount, "comes off" if seconds > 0 else "goes back on"))
    if action == "hand_for_hand":
        if args.get("on"):
            return ("hand for hand on", "hand for hand stops: every table plays on")
        return ("hand for hand off", "hand for hand starts again at %s" % tables(
            ctx.get("tables") or []))
    if action == "register":
        names = [ev.payload["name"] for ev in evs if ev.action == "register"]
        return ("registration of %s" % ", ".join(names),
                "%s %s no longer registered" % (", ".join(names),
                                                "is" if len(names) == 1 else "are"))
    if action == "unregister":
        return ("%s unregistered" % logged.get("name"),
                "%s is %s again" % (logged.get("name"), "on the standby list"
                                    if logged.get("state") == "standby" else "registered"))
    if action == "standby_add":
        return ("%s on the standby list" % logged.get("name"),
                "%s leaves the standby list" % logged.get("name"))
    if action == "standby_take":
        return ("%s takes %s" % (logged.get("name"), seat(logged.get("seat"))),
                "%s leaves %s and waits on the standby list again" % (
                    logged.get("name"), seat(logged.get("seat"))))
    if action == "standby_pass":
        return ("%s passes on %s" % (logged.get("name"), seat(logged.get("offer"))),
                "%s is offered %s again" % (logged.get("name"), seat(logged.get("offer"))))
    if action == "late":
        return ("late entry of %s" % logged.get("name"),
                "%s leaves %s and is no longer entered" % (logged.get("name"),
                                                           seat(logged.get("seat"))))
    if action == "arrive":
        return ("%s arrived" % logged.get("name"), "%s is marked absent again" % logged.get("name"))
    if action == "ruling":
        return ("%s's request for the league's ruling" % logged.get("name"),
                "the request is no longer recorded")
    if action == "draw":
        return ("the seat draw (seed %s)" % logged.get("seed"), "nobody has a seat until the next "
                "draw")
    if action == "final_draw":
        return ("the final-table draw", "the tables play on as before the draw; its "
                "instructions are called off")
    if action == "start":
        return ("shuffle up and deal", "the tournament is not started: the clock stops at "
                "level 1")
    if action in ("rebuy", "addon", "knockout", "payouts"):  # a `money` event says itself
        return (logged.get("text") or action, {
            "rebuy": "the re-buy comes off the pool", "addon": "the add-on comes off the pool",
            "knockout": "the bounty is not logged", "payouts": "the payouts go back to the "
            "table before"}[action])
    return (action.replace("_", " "), "it is taken back")


class Journal:
    """The TD's actions that can be undone (the newest ``KEPT``), and those undone that can
    be redone, of tournament ``number``; kept in the league file (``TABLE``), each change
    written in the transaction of the events it goes with (``wrote``)."""

    def __init__(self, store: "Store", number: int = 0) -> None:
        self.store = store
        self.number = number
        self.done: List[Entry] = []
        self.undone: List[Entry] = []
        self.serial = 0
        self._act: Optional[Dict[str, Any]] = None  # the TD's action under way (begin/end)
        self._undoing: Optional[Entry] = None  # taken off the list by the next write
        self._dropping: List[int] = []  # rows that could not be read, deleted at the next write
        self._reset = False  # the table could not be read: a new one at the next write

    # ------------------------------------------------------------------ the league file
    def load(self, number: int) -> Optional[str]:
        """Tournament *number*'s journal as the league file keeps it.  A row that cannot
        be read (another format, damaged) is dropped (at the next write): the sentence that
        says so, else None."""
        self.number, self.done, self.undone, self.serial = number, [], [], 0
        store = self.store
        try:
            if not store.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                    "name = 'undo_journal'").fetchone():
                return None
            rows = store.db.execute("SELECT n, state, pos, entry FROM undo_journal WHERE "
                                    "tournament = ? ORDER BY state, pos", (number,)).fetchall()
            bad: List[Tuple[Any, str]] = []
            for n, state, _, text in rows:
                entry, why = _read(store, number, n, state, text)
                if entry is None:
                    bad.append((n, why))
                else:
                    (self.done if state == "done" else self.undone).append(entry)
                    self.serial = max(self.serial, n)
        except sqlite3.Error as err:  # not the table this host writes: a new one
            self.done, self.undone, self._reset = [], [], True
            return ("The Undo list kept from before the restart could not be read (%s) and "
                    "was dropped: Undo offers what is done from now on." % _store.why(err))
        self.serial = max([self.serial] + [n for n, _ in bad if isinstance(n, int)])
        self._dropping = [n for n, _ in bad]
        if not bad:
            return None
        return ("%s kept for Undo from before the restart could not be read (%s) and %s "
                "dropped: %s can no longer be undone from the console." % (
                    "One action" if len(bad) == 1 else "%d actions" % len(bad),
                    " or ".join(sorted({why for _, why in bad})),
                    "was" if len(bad) == 1 else "were", "it" if len(bad) == 1 else "they"))

    def busy(self) -> bool:
        """Does the next write carry a change of the journal (``wrote``)?"""
        return self._act is not None or self._undoing is not None or bool(self._dropping) \
            or self._reset

    def own_seqs(self) -> Set[int]:
        """The seqs the TD's action under way has written so far (none without one)."""
        act = self._act
        return {ev.seq for ev in act["evs"]} if act is not None else set()

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """Writes inside are not the action under way's: the host's reactions to events the
        action did not write (another writer's, the CLI's, read again with it) are no part
        of it, and its undo must not call them off (chaos seed 390: undoing a pause called
        off the take_out of a bust the CLI entered just before)."""
        act, self._act = self._act, None
        try:
            yield
        finally:
            self._act = act

    def mark(self) -> Any:
        """The journal as it is before a write (``restore`` when the write fails): ``wrote``
        changes the lists, the action under way and its entry (no other entry)."""
        act = self._act
        entry = act["entry"] if act is not None else None
        return (list(self.done), list(self.undone), self.serial,
                dict(act, evs=list(act["evs"])) if act is not None else None,
                entry, dict(entry) if entry is not None else None, self._undoing,
                list(self._dropping), self._reset)

    def start(self, number: int, notice: Callable[[str], None]) -> None:
        """At the host's start: tournament *number*'s journal from the league file
        (``load``); rows that could not be read are dropped with a *notice*, and the night
        starts even when that notice cannot be written."""
        dropped = self.load(number)
        if dropped:  # the rows that could not be read go with the notice's write
            try:
                notice(dropped)
            except (_store.StoreError, sqlite3.Error) as err:
                log.warning("%s (not written: %s)", dropped, _store.why(err))

    def for_write(self, when: datetime.datetime
                  ) -> Tuple[Any, Optional[Callable[[List[Any]], None]]]:
        """(mark, after) for Live.write at *when*: the journal before the write (``restore``
        it when the write fails) and the hook that writes its change with the events
        (``wrote``); (None, None) when the write carries no change of the journal."""
        if not self.busy():
            return None, None
        return self.mark(), lambda evs: self.wrote(evs, when)

    def run(self, action: str, args: Dict[str, Any], ctx: Dict[str, Any],
            handler: Callable[[], Any]) -> Any:
        """The TD's *action* done by *handler*, its writes kept for undo (``begin``,
        ``end``; *ctx*: ``before``); returns what *handler* returns."""
        self.begin(action, args, ctx)
        try:
            reply = handler()
        except BaseException:
            self.end(ok=False)
            raise
        self.end(ok=True)
        return reply

    def restore(self, mark: Any) -> None:
        if mark is None:  # (for_write: the write carried no change)
            return
        (self.done, self.undone, self.serial, self._act, entry, fields, self._undoing,
         self._dropping, self._reset) = mark
        if entry is not None:
            entry.clear()
            entry.update(fields)

    def wrote(self, evs: List[Any], when: datetime.datetime) -> None:
        """Inside the transaction of a write (Live.write) at *when*: the journal's change
        that goes with the events *evs* (seqs given) -- the action under way kept for undo,
        an undone action moved to redo -- written with them: a crash keeps both or
        neither."""
        db = self.store.db
        self._table(db)
        if self._undoing is not None:
            entry, self._undoing = self._undoing, None
            self.done[:] = [kept for kept in self.done if kept["n"] != entry["n"]]
            self.undone.append(entry)
            db.execute("UPDATE undo_journal SET state = 'undone', pos = ? WHERE tournament = ? "
                       "AND n = ?", (len(self.undone), self.number, entry["n"]))
            return  # an undo's own writes are no action to undo
        act = self._act
        if act is None:
            return
        if not act["wrote"]:  # the action's first write
            act["wrote"] = True
            self._forget_redo(db, act["redoing"])
        if act["action"] not in UNDOABLE:
            return
        act["evs"].extend(ev for ev in evs if ev.tournament == self.number)
        if not [ev for ev in act["evs"] if ev.action not in KEEP]:
            return
        what, then = _words(act["action"], act["args"], act["ctx"], act["evs"])
        entry = act["entry"]
        if entry is None:
            self.serial += 1
            entry = act["entry"] = {"n": self.serial, "action": act["action"],
                                    "args": dict(act["args"]), "seqs": [],
                                    "time": when.strftime("%H:%M")}
            self.done.append(entry)
            del self.done[:-KEPT]
        entry.update(seqs=[ev.seq for ev in act["evs"]], what=what, then=then)
        db.execute("INSERT OR REPLACE INTO undo_journal (tournament, n, state, pos, entry) "
                   "VALUES (?, ?, 'done', ?, ?)", (self.number, entry["n"], entry["n"],
                                                   _row(entry)))
        db.execute("DELETE FROM undo_journal WHERE tournament = ? AND state = 'done' AND n "
                   "NOT IN (SELECT n FROM undo_journal WHERE tournament = ? AND state = "
                   "'done' ORDER BY n DESC LIMIT ?)", (self.number, self.number, KEPT))

    def _table(self, db: Any) -> None:
        """The table there, without the rows ``load`` could not read."""
        if self._reset:
            db.execute("DROP TABLE IF EXISTS undo_journal")
            self._reset = False
        db.execute(TABLE)
        for n in self._dropping:
            db.execute("DELETE FROM undo_journal WHERE tournament = ? AND n = ?",
                       (self.number, n))
        self._dropping = []

    def _forget_redo(self, db: Any, redoing: Optional[Entry]) -> None:
        """A new action of the TD's own: nothing to redo; redoing: that one is done again."""
        if redoing is not None:
            self.undone[:] = [kept for kept in self.undone if kept["n"] != redoing["n"]]
            db.execute("DELETE FROM undo_journal WHERE tournament = ? AND n = ?",
                       (self.number, redoing["n"]))
        elif self.undone:
            self.undone[:] = []
            db.execute("DELETE FROM undo_journal WHERE tournament = ? AND state = 'undone'",
                       (self.number,))

    def _alone(self, change: Callable[[Any], None]) -> None:
        """A change of the journal that goes with no event: a transaction of its own."""
        db, mark = self.store.db, self.mark()
        db.execute("BEGIN IMMEDIATE")
        try:
            self._table(db)
            change(db)
            db.execute("COMMIT")
        except BaseException:
            self.restore(mark)
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------------ the TD's actions
    def begin(self, action: str, args: Dict[str, Any], ctx: Dict[str, Any],
              redoing: Optional[Entry] = None) -> None:
        """The TD's *action* starts (*ctx*: ``before``): its writes are kept for undo (when
        it can be undone), and what could be redone is forgotten (not when *redoing* that
        entry, which is done again instead)."""
        self._act = {"action": action, "args": dict(args), "ctx": ctx, "redoing": redoing,
                     "wrote": False, "evs": [], "entry": None}

    def end(self, ok: bool) -> None:
        """The action begun is over (*ok*: it succeeded)."""
        act, self._act = self._act, None
        if act is None or act["wrote"] or not ok:
            return
        if act["redoing"] is not None or self.undone:  # it wrote nothing: no transaction
            self._alone(lambda db: self._forget_redo(db, act["redoing"]))

    def last(self, undone: bool = False) -> Optional[Entry]:
        """The action to undo (or, *undone*, to redo), or None."""
        entries = self.undone if undone else self.done
        return entries[-1] if entries else None

    def undoing(self, entry: Optional[Entry]) -> None:
        """The next write undoes *entry*: it moves to redo with it (None: it did not)."""
        self._undoing = entry

    def forget(self) -> None:
        """The last action was undone some other way: nothing to undo."""
        def change(db: Any) -> None:
            entry = self.done.pop()
            db.execute("DELETE FROM undo_journal WHERE tournament = ? AND n = ?",
                       (self.number, entry["n"]))
        self._alone(change)

    def view(self) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
        """The snapshot's ``undo`` and ``redo``: {"n", "text"} or None."""
        last, back = self.last(), self.last(undone=True)
        return (
            {"n": last["n"], "text": "Undo: %s (%s) — %s" % (last["what"], last["time"],
                                                          last["then"])}
            if last else None,
            {"n": back["n"], "text": "Redo: %s (undone; first done at %s)" % (
                back["what"], back["time"])} if back else None)


def _row(entry: Entry) -> str:
    """An entry as the league file keeps it (its number and state are columns)."""
    return json.dumps(dict({k: entry[k] for k in ROW}, v=FORMAT), sort_keys=True)


def _read(store: "Store", number: int, n: Any, state: Any, text: Any
          ) -> Tuple[Optional[Entry], str]:
    """(the entry of a kept row, "") or (None, why it cannot be read)."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        return None, "damaged"
    if not isinstance(data, dict) or not isinstance(data.get("v"), int):
        return None, "damaged"
    if data["v"] != FORMAT:
        return None, "written in %s format" % ("an older" if data["v"] < FORMAT else "a newer")
    seqs = data.get("seqs")
    if not (isinstance(n, int) and state in ("done", "undone")
            and data.get("action") in UNDOABLE and isinstance(data.get("args"), dict)
            and all(isinstance(data.get(k), str) for k in ("time", "what", "then"))
            and isinstance(seqs, list) and seqs
            and all(isinstance(seq, int) and not isinstance(seq, bool) for seq in seqs)):
        return None, "damaged"
    found = store.db.execute("SELECT count(*) FROM events WHERE tournament = ? AND seq IN "
                             "(%s)" % ",".join("?" * len(set(seqs))),
                             [number] + sorted(set(seqs))).fetchone()[0]
    if found != len(set(seqs)):
        return None, "damaged"
    return dict({k: data[k] for k in ROW}, n=n), ""


def _targets(lg: _replay.League, entry: Entry) -> List[Any]:
    return [ev for ev in lg.events if ev.seq in entry["seqs"]
            and ev.seq not in lg.undone and ev.action not in KEEP]


def _check_later(lg: _replay.League, number: int, entry: Entry) -> None:
    """ActionRefused when a change to tournament *number* came after *entry* (a box's bust, a
    move, the final draw...): only the latest change can be taken back without undoing
    those."""
    clockish = entry["action"] in CLOCK_ACTS
    last = max(entry["seqs"])
    for ev in lg.events:
        if ev.seq <= last or ev.tournament != number or ev.seq in lg.undone \
                or ev.action in KEEP or (ev.action == "clock" and not clockish):
            continue
        line = _words_of(ev, lg)
        raise ActionRefused("%s (%s) cannot be undone any more: %s since (%s, %s)" % (
            entry["what"], entry["time"], line["text"], line["who"], line["time"]))


def _check_replay(lg: _replay.League, evs: List[Any]) -> None:
    """ActionRefused when the log without *evs* does not replay (later events need them)."""
    from tdhost.league.store import LoggedEvent
    top = lg.events[-1].seq if lg.events else 0
    fake = [LoggedEvent(top + i + 1, ev.tournament, ev.at, "undo",
                        {"action": ev.action, "summary": ""}, ev.seq)
            for i, ev in enumerate(evs)]
    try:
        _replay.replay(list(lg.events) + fake)
    except Exception as err:  # noqa: BLE001 -- any failure means: not safely undoable
        raise ActionRefused("that cannot be undone any more: what happened since depends on it "
                      "(%s)" % (str(err) or type(err).__name__))


def _cancel_own(desk: "Desk", entry: Entry, tournament: "Tournament") -> Steps:
    """The instructions the undone action wrote that are still pending (in *tournament*,
    after the undo) are called off."""
    ids = {ev.payload.get("id") for ev in desk.lg.events
           if ev.seq in entry["seqs"] and ev.action == "instr"}
    instrs = [instr for instr in _ins.pending(tournament)
              if instr["id"] in ids and instr["action"] != "withdraw"]
    if instrs:
        why = "the TD undid %s" % entry["what"]
        yield lambda now, lg, seq: (_ins.cancel_all(
            lg, now, instrs, why, lambda tb: desk.boxes.boxed(tournament, tb)), None)


def undo(desk: "Desk", args: Dict[str, Any]) -> Steps:
    """Takes back the TD's own last action (``args["n"]``, when given, must be the one the
    console showed)."""
    from tdhost.live import console_actions as _acts
    journal, lg = desk.journal, desk.lg
    entry = journal.last()
    if entry is None:
        raise ActionRefused("there is nothing of yours to undo")
    n = args.get("n")
    if n is not None and n != entry["n"]:
        raise ActionRefused("your last action is now %s (%s): look at Undo again" % (
            entry["what"], entry["time"]))
    effects = Effects()
    if entry["action"] == "hand_for_hand":
        journal.undoing(entry)  # hand for hand's opposite takes it off the list
        try:
            _, effects = yield from _acts.hand_for_hand(desk, {"on": not entry["args"].get("on")})
        finally:
            journal.undoing(None)
    else:
        evs = _targets(lg, entry)
        if not evs:
            journal.forget()
            raise ActionRefused("%s (%s) was undone already" % (entry["what"], entry["time"]))
        _check_later(lg, desk.tournament.number, entry)
        _check_replay(lg, evs)
        journal.undoing(entry)  # moves to redo in the transaction of the undo events
        try:
            _, after = yield lambda tournament, lg, seq: (
                [("undo", {"action": ev.action, "summary": _text.summary(ev)}, ev.seq)
                 for ev in reversed(evs)], None)
        finally:
            journal.undoing(None)
        # Live reacted to the undo events (tdhost.live.reactions)
        yield from _cancel_own(desk, entry, after)
    return "Undone: %s (%s) — %s." % (entry["what"], entry["time"], entry["then"]), effects


def redo(desk: "Desk", args: Dict[str, Any]) -> Steps:
    """Does the last undone action again (``args["n"]``, when given, must be the one
    shown)."""
    from tdhost.live import console_actions as _acts
    journal = desk.journal
    entry = journal.last(undone=True)
    if entry is None:
        raise ActionRefused("there is nothing to redo")
    n = args.get("n")
    if n is not None and n != entry["n"]:
        raise ActionRefused("the action to redo is now %s (%s): look at Redo again" % (
            entry["what"], entry["time"]))
    journal.begin(entry["action"], entry["args"], before(desk, entry["action"], entry["args"]),
                  redoing=entry)
    try:
        text, effects = yield from _acts.ACTS[entry["action"]](
            desk, ACTIONS[entry["action"]].check(entry["args"]))
    except BaseException:
        journal.end(ok=False)
        raise
    journal.end(ok=True)
    return "Done again: %s" % text, effects
