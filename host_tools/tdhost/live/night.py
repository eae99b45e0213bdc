"""The running night: ``Live`` on a league file with its box links (docs/host.md §10 is
the contract; docs/live.md the parts).  Everything that matters is an event in the league
file, appended through the ``decide_*`` path the CLI uses; a host killed at any moment and
started again on the same file carries on.  Times are integer Unix milliseconds."""

import datetime
import hashlib
import logging
import sqlite3
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple, cast

from tdhost import actions as _actions, tournamentfile
from tdhost.league import (
    cache as _logcache,
    pulled as _pulled,
    store as _store,
    times as _times,
    transaction,
)
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.links import boxtables as _boxtables, wifinotes as _wifinotes
from tdhost.links.wire_messages import Instruction, TablePlan
from tdhost.live import (
    boxevents as _boxevents,
    bust_collector as _busts,
    checks as _checks,
    console_actions as _acts,
    final as _final,
    handforhand_release as _livehfh,
    instruction_book as _book,
    instruction_log as _ins,
    master_clock as _clock,
    moves as _moves,
    plans as _plans,
    reactions as _reactions,
    redraw as _redraw,
    room_plan as _plan,
    seatcheck as _seatcheck,
    seating_versions as _sv,
    snapshot as _snap,
    stranded as _stranded,
    tables as _tables,
    undo as _undo,
)
from tdhost.live.effects import Effects, Steps, Write, carry_out, notice
from tdhost.live.leaguepush import LeaguePush
from tdhost.live.shapes import Batch, Message, ServedLink, Statuses
from tdhost.rules import handforhand as _hfh

log = logging.getLogger("tdhost.live")

LINK_ORDER = {"live": 0, "configured": 1, "unknown": 2, "offline": 3}
START_PLAN_WAIT_MS = 10000  # after a (re)start, the first plan waits for statuses this long


def scope_of(lg: League, tournament: Tournament) -> str:
    """The link stores' scope of *tournament* of league *lg*: the same after every
    restart, another for every tournament (docs/live.md "Box events")."""
    return "t" + hashlib.sha256(("%s|%d|%s" % (lg.name, tournament.number,
                                                tournament.created)).encode(
        "utf-8")).hexdigest()[:16]


class Live:
    """The running night (docs/host.md §10).  Not thread-safe: callers in several threads
    hold one lock around every call (tdhost serve and tdhost.web share it)."""

    def __init__(self, db_path: str, number: Optional[int] = None,
                 clock: Optional[Callable[[], int]] = None, key: Optional[bytes] = None,
                 key_id: Optional[str] = None, seed: int = 1) -> None:
        self.store = _store.Store(db_path, threads=True)  # the web acts from its threads
        self.clock = clock or _clock.live_clock()  # TDHOST_NOW: the CLI's time
        self.key = key
        self.key_id = key_id
        self.seed = seed
        self.number = number
        self.links: List[ServedLink] = []
        self.views: Dict[int, _tables.TableView] = {}
        self.book = _book.InstructionBook()  # the instructions: to which link, answered
        self.busts = _busts.Collector()
        self.events = _boxevents.BoxEvents(self)
        self.journal = _undo.Journal(self.store)  # the TD's own actions, for undo and redo
        self.final_seat = _final.FinalSeat()
        self.seat_check = _seatcheck.SeatCheck()  # each box's seats against the league's
        self.seatings = _sv.SeatingVersions()  # each table's seating version, each box's resends
        self._plan_due = True  # a plan at start: the league may be ahead of its last plan
        self._start_plan = True  # ... once the boxes' statuses are in (START_PLAN_WAIT_MS)
        self._plan_bust = False  # the plan follows a bust: refused moves are dropped
        self.lone_seats = _stranded.LoneSeats()  # players waiting alone at a spare box
        self._swept: Optional[int] = None  # the league's last seq when receives were swept
        self._version = 0
        self.clock_version = 0
        self.now = self.clock()
        self._started = self.now
        self.wifi = _wifinotes.WifiNotes(clock=self.clock)  # refused logins, pair again
        self._wifi_rev = 0
        self.league_push: Optional[LeaguePush] = None  # serve with a league server
        self._league_rev = 0
        # what the league server told this venue at its last pull (docs/league.md, "Clashes")
        self._pulled_notices = _pulled.notices(db_path)
        self._said_replaced: Set[str] = set()
        self.box_tables = _boxtables.BoxTables()  # serve: the event key's (tdhost pair)
        self.cache = _logcache.LeagueCache()
        self.seen: Set[Tuple[Any, Any]] = set()
        try:
            self._reload()
        except ActionRefused:
            self.store.close()
            raise
        # what follows from the events written from now on, whoever wrote them
        self.reactions = _reactions.Reactions(self.last_seq)
        self._index = self.master().index
        self.scope = scope_of(self.lg, self.tournament)
        # the TD's undo list as the league file keeps it
        self.journal.start(self.tournament.number, self.notice)
        # a TD's bust no host reacted to (the CLI wrote it just before the host was killed):
        # its take_outs now, before any box is sent a seating without those players
        missed = _reactions.missed_busts(self.lg, self.tournament)
        if missed:
            self.follow(self.carry_out(_reactions.react(self.lg, missed, self.boxes_now())))

    # ------------------------------------------------------------------ basics
    @property
    def version(self) -> int:
        return self._version

    def touch(self) -> None:
        """Something the snapshot shows changed."""
        self._version += 1

    def close(self) -> None:
        self.store.close()

    def when(self) -> datetime.datetime:
        """Live's clock now as an aware datetime (the league's decisions take one)."""
        return datetime.datetime.fromtimestamp(self.now / 1000.0).astimezone()

    def master(self, now: Optional[int] = None) -> Any:
        """The master clock (tableclock.clock.LevelClock) at *now* (Unix ms)."""
        return self.tournament.clock_at(self.now if now is None else now)

    def view(self, table: int) -> _tables.TableView:
        if table not in self.views:
            self.views[table] = _tables.TableView()
        return self.views[table]

    def statuses(self) -> Statuses:
        return {tb: view.status for tb, view in self.views.items() if view.status is not None}

    def _reload(self) -> None:
        """The league up to the last committed event (tdhost.league.cache: only the new events
        applied; the whole log after an undo) and the box events it has applied (``src``)."""
        self.lg = self.cache.league(self.store)
        self.tournament = self.lg.current(self.number)
        self.book.follow(self.tournament)
        self.number = self.tournament.number
        self.last_seq = self.cache.seq
        new = self.cache.new
        if new is None:
            self.seen = set()
            new = self.lg.events
        for ev in new:
            if ev.tournament == self.number:
                for src in ev.payload.get("src") or ():
                    self.seen.add(tuple(src))

    def _external(self) -> None:
        """Someone else (the CLI) wrote to the league file: read it again, and react to
        its events as to Live's own (tdhost.live.reactions)."""
        row = self.store.db.execute("SELECT max(seq) FROM events").fetchone()
        if (row[0] or 0) != self.last_seq:
            self._reload()
            self._plan_due = True
            self.send_clock()  # `tdhost level N` may have moved the clock
            self.reactions.step(self)

    def write(self, build: Callable[[Tournament, League, int], Tuple[Batch, Any]]) -> Any:
        """One decision: in one transaction on the league file, *build(t, lg, seq)* returns
        ([(action, payload, undoes)], result) for tournament t; the events are appended
        together, with the change of the TD's undo list they carry (undo.Journal.wrote),
        then Live reacts to them (tdhost.live.reactions).  ActionRefused writes nothing and
        propagates; a league file that cannot be written now (read-only, the disk full,
        locked) writes nothing and raises StoreError with the CLI's sentence
        (tdhost.league.store.unusable).  Returns the result."""
        stamp = _times.iso(self.when())

        def decide(lg: League, seq: int) -> Tuple[List[Any], Any]:
            tournament = lg.current(self.number)
            evs, result = build(tournament, lg, seq)
            return [(tournament.number, action, payload, undoes)
                    for action, payload, undoes in evs], result

        mark, after = self.journal.for_write(self.when())  # the undo list's change, if any
        try:
            seqs, result = transaction.append(self.store, decide, stamp, self.cache, after)
        except BaseException as err:
            self.journal.restore(mark)
            self._reload()  # the decision may have changed the kept league: the log again
            if isinstance(err, sqlite3.DatabaseError):
                raise _store.StoreError(_store.unusable(self.store.path, err)) from err
            raise
        if seqs:
            self._reload()
            self.touch()
            self.reactions.step(self)
        return result

    def write_if(self, decision: Optional[Write]) -> None:
        """Write a part's *decision*, if it has one (``write``)."""
        if decision is not None:
            self.write(decision)

    def notice(self, text: str, src: Optional[List[Any]] = None) -> None:
        """A line in the league's log (``notice``), at most once per box event *src*."""
        log.warning("%s", text)
        if src and all(tuple(item) in self.seen for item in src):
            return
        self.write(notice(text, src))

    def follow(self, effects: Optional[Effects]) -> None:
        """Apply what a part's decision asks of Live (tdhost.live.effects)."""
        if effects is None:
            return
        if effects.plan:
            self._plan_due = True
        if effects.after_bust:
            self._plan_bust = True
        if effects.everyone:
            self.send_seating()
        if effects.seating:
            self.send_seating(effects.seating)
        if effects.names:
            self.send_names(effects.names)
        if effects.clock:
            self.send_clock()

    def apply(self, decision: Write) -> None:
        """Write a part's *decision* whose result is what Live does next, and do it."""
        self.follow(self.write(decision))

    def carry_out(self, steps: Steps) -> Any:
        """Write each decision a part's *steps* yield, in turn, sending back its result and
        the tournament after it (None: the tournament now; tdhost.live.effects)."""
        return carry_out(steps, lambda decision: (
            None if decision is None else self.write(decision), self.tournament))

    # ------------------------------------------------------------------ links
    def add_link(self, link: ServedLink) -> None:
        """Serve a box link (tdhost.usb.BoxLink or anything with its interface: docs/live.md
        "Links"): Live becomes its feed and hears its events, its instructions come from
        Live's book."""
        link.feed = self
        link.book = self.book
        self.events.serve(link)
        self.links.append(link)
        self.touch()

    def remove_link(self, link: ServedLink) -> None:
        """Stop serving *link* (its port is gone, or a new link replaces it)."""
        if link in self.links:
            self.links.remove(link)
            self.touch()

    def link_for(self, table: int) -> Optional[ServedLink]:
        """The best link to the box of *table* (live first), or None."""
        best = None
        for link in self.links:
            if link.table == table and link.box is not None:
                if best is None or LINK_ORDER.get(link.state, 9) < LINK_ORDER.get(best.state, 9):
                    best = link
        return best

    def boxed(self, table: int) -> bool:
        """Does *table* have a box (a link now, or a box answered its instructions)?"""
        return self.link_for(table) is not None or _tables.answered(self.tournament, table)

    def best_links(self) -> Dict[int, ServedLink]:
        """{table: the best link to its box} (``link_for`` of every table with one)."""
        best: Dict[int, ServedLink] = {}
        for link in self.links:
            if link.table is not None and link.box is not None:
                now = best.get(link.table)
                if now is None or LINK_ORDER.get(link.state, 9) < LINK_ORDER.get(now.state, 9):
                    best[link.table] = link
        return best

    def boxes_now(self) -> _tables.BoxesNow:
        """The boxes as values for a part to decide from (tdhost.live.tables.BoxesNow)."""
        return _tables.BoxesNow(self.now, self.statuses(),
                                {tb: view.hand for tb, view in self.views.items()},
                                {tb: link.state for tb, link in self.best_links().items()})

    def settled(self, table: int) -> bool:
        """Is nothing under way at *table* but its instructions (tdhost.live.seatcheck
        .busy_tables): no busts gathered and no box event waiting from its box, no re-draw's
        seating awaited?"""
        link = self.link_for(table)
        box = getattr(link, "box", None)
        if link is None or box is None:
            return False
        if self.busts.open.get(box) is not None:
            return False
        if not self.view(table).status_since_redraw():
            return False
        store = self.events.store_of(link)
        return store is None or not store.pending(box, self.scope)

    def seating_msg(self, table: int) -> Message:
        """The ``seating`` body for *table* (tdhost.live.tables.seating_msg) with its
        seating version ``sv`` (tdhost.live.seating_versions)."""
        return dict(_tables.seating_msg(self.tournament, table, _redraw.seating_for(
            self.tournament, self.seed, table, self.statuses().get(table))),
            sv=self.seating_version(table))

    def seating_version(self, table: int) -> int:
        """The seating version of *table* now (every table's numbered again, in one pass,
        when the league changed since)."""
        if not self.seatings.fresh(self.last_seq):
            self.seatings.number(_tables.names_by_table(self.tournament), self.last_seq)
        return self.seatings.version(table)

    def send_names(self, tables: Iterable[int]) -> None:
        """The league's seating again to the boxes of *tables* after their seats changed:
        in play they take only the names; before a table's first hand it says ``keep`` (the
        box keeps its seats and chips, it would build its table from the seating's chips
        otherwise); nothing once the final table is drawn (docs/live.md "Seating")."""
        if self.tournament.final is None:
            wanted = set(tables)
            self.send_seating([tb for tb in wanted if self.view(tb).hand])
            self.send_seating([tb for tb in wanted if not self.view(tb).hand], keep=True)

    def clock_msg(self, now: Optional[int] = None) -> Message:
        now = self.clock() if now is None else now
        return dict(_clock.reading(self.master(now)), host_ms=now)

    def for_table(self, table: int, box: Optional[str]) -> TablePlan:
        """The feed of a box at *table* (tdhost.links.boxlink.BoxLink): config, seating and
        clock."""
        # what `tdhost new` checked fits a frame
        config = tournamentfile.box_config_of(self.tournament.setup)
        return cast(TablePlan, {"config": config, "seating": self.seating_msg(table),
                                "clock": self.clock_msg()})

    def refusal(self, box: str, table: Optional[int]) -> Optional[str]:
        """Why *box* may not serve *table* (tdhost.links.boxlink.Feed): not the table it
        was paired or moved to; the sentence also goes to the console's notes."""
        why = self.box_tables.refusal(box, table)
        if why is not None:
            self.wifi.add(why)
        return why

    def send_seating(self, tables: Optional[Iterable[int]] = None, keep: bool = False) -> None:
        """Send the league's seating again to the boxes of *tables* (all when None); *keep*:
        the names only, the box keeps its own seats and chips (docs/protocol.md)."""
        wanted = None if tables is None else set(tables)
        for link in self.links:
            if link.box is not None and link.table is not None and (
                    wanted is None or link.table in wanted):
                self._seat(link, keep)

    def _seat(self, link: ServedLink, keep: bool) -> None:
        assert link.table is not None and link.box is not None
        msg = dict(self.seating_msg(link.table), kind="seating")
        if keep and self.seatings.owes_whole(link.box, getattr(link, "sv", None)):
            keep = False  # a whole seating it has not taken: whole again
        if keep:
            msg["keep"] = True
        link.send(msg)
        self.seatings.went(link.box, msg["sv"], self.now, whole=not keep)

    def _names_for(self, link: ServedLink) -> None:
        """The table's seating to *link*'s box as ``send_names`` would send it (``keep``
        before the table's first hand), or as final.py does once the final table is
        drawn."""
        assert link.table is not None
        self._seat(link, keep=self.tournament.final is None and not self.view(link.table).hand)

    def _heal_seatings(self) -> None:
        """A box whose status says it holds an older seating version than its table's (a
        seating lost on the way) gets the seating again, as ``send_names`` sends it
        (docs/protocol.md "Ordered seatings"; ``_names_for``)."""
        for link in self.links:
            held = getattr(link, "sv", None)
            if held is None or link.box is None or link.table is None or link.state != "live":
                continue
            self.seating_version(link.table)  # (numbered again when the league changed)
            if self.seatings.due(link.box, held, link.table, self.now):
                self._names_for(link)

    def send_clock(self) -> None:
        """The master clock changed: every box gets it now."""
        self.clock_version += 1
        self.touch()
        for link in self.links:
            send = getattr(link, "send_clock", None)
            if send is not None:
                send()
            elif link.box is not None and link.table is not None:
                link.send(dict(self.clock_msg(), kind="clock"))

    def message(self, table: int, text: str) -> None:
        """A ``message`` instruction to the box of *table*."""
        self.write(_ins.message(table, text))

    # ------------------------------------------------------------------ polling
    def league_notices(self) -> List[str]:
        """What the league tells this venue (a member at two venues on one night, a member
        number given to two names): as the pusher last heard it from the league server, else
        as the last pull left it in the league file."""
        heard = self.league_push.notices() if self.league_push is not None else None
        return list(heard if heard is not None else self._pulled_notices)

    def replaced(self) -> Optional[str]:
        """The sentence when the league file was replaced under this Live (``tdhost
        restore``): it then writes nothing more and its polls do nothing (said once on
        the terminal and in the console's notes), else None."""
        gone = self.store.replaced()
        if gone is not None and gone not in self._said_replaced:
            self._said_replaced.add(gone)
            log.error("%s.", gone[:1].upper() + gone[1:])
            self.wifi.add(gone[:1].upper() + gone[1:])
        return gone

    def poll(self, now: Optional[int] = None) -> None:
        """One bounded step (docs/live.md "Poll"); never blocks, never raises for a box."""
        self.now = self.clock() if now is None else now
        if self.replaced() is not None:
            return  # the boxes keep their events; a serve on the new file hears them
        self._external()
        if self.wifi.rev != self._wifi_rev:  # the broker's thread told of a refusal
            self._wifi_rev = self.wifi.rev
            self.touch()
        if self.league_push is not None and self.league_push.rev != self._league_rev:
            self._league_rev = self.league_push.rev  # the pusher's thread told of a push
            self.touch()
        self.events.poll()
        for group in self.busts.due(self.now):
            self.events.decide_busts(group)
        if self._swept != self.last_seq:  # the league changed: a move_out done without its
            self._swept = self.last_seq  # receive (a file an older host wrote) gets it
            for decision in _moves.receives(self.tournament):
                self.write(decision)
        self._complete_moves()
        self.lone_seats.step(self)
        if self.tournament.final is not None:  # the final table sits down, once it can
            final_table = self.tournament.final["table"]
            seated = self.final_seat.step(self.tournament, self.boxes_now(), self.views,
                                          bool(self.busts.open))
            if seated is not None:
                self.write(seated)
                self.send_seating([final_table])
        self._redraw()
        if self._plan_due and not self.busts.open and self._plan_ready():
            after_bust, self._plan_due, self._plan_bust = self._plan_bust, False, False
            self.carry_out(_plans.plan(self.tournament, self.boxes_now(), self.seed, after_bust,
                                       self.final_seat))
        self._send_instructions()
        self._heal_seatings()
        if self.tournament.hfh is not None:  # hand for hand: the next round, once due
            self.write_if(_livehfh.release(self.tournament, {
                tb: self.view(tb).ended for tb in self.playing_tables()}))
        self.seat_check.step(self.views, self.tournament, self.now, self.settled, self.notice)
        index = self.master().index
        if index != self._index:  # a level or break ended: the boxes hear it at once
            self._index = index
            self.send_clock()
            self.store.backup("level")  # a backup at every level change (docs/host.md §3.3)

    def _complete_moves(self) -> None:
        """Record every move whose two halves are done (a ``move`` event each:
        tdhost.live.moves.record), following each one's effects as it is written: the names
        go out before the next move is recorded."""
        for _ in range(8):  # a move into a seat freed by another completes after it
            progress = False
            for halves in _moves.carried_out(self.tournament):
                try:
                    effects = self.write(_moves.record(halves, self.now))
                except ActionRefused as err:
                    log.warning("move of %s not recorded yet: %s", halves[0]["player"], err)
                    continue
                if effects is not None:
                    self.follow(effects)
                    progress = True
            if not progress:
                return

    def _redraw(self) -> None:
        """US 2's re-draws (tdhost.live.redraw): the ``redraw`` of each group whose moves are
        over, and the seating to a table whose dealer confirmed one (once, between hands)."""
        self.write_if(_redraw.due(self.tournament))
        for table, record in _redraw.confirmed(self.tournament):
            if self.view(table).takes_redraw(record["id"]):
                self.send_seating([table])

    def _plan_ready(self) -> bool:
        """After a (re)start, the first plan waits for a status from the box of every
        table that plays (their buttons and blinds), or START_PLAN_WAIT_MS."""
        if self._start_plan:
            waiting = [tb for tb in self.playing_tables() if self.view(tb).status is None]
            if waiting and self.now - self._started < START_PLAN_WAIT_MS:
                return False
            self._start_plan = False
            self.follow(self.carry_out(_moves.recover(self.tournament, self.boxes_now())))
        return True

    def _send_instructions(self) -> None:
        """Hand every open instruction to its table's box link (tdhost.live.instruction_book:
        the link sends it until the box answers; a new link -- a restarted host, another
        port -- is handed it again)."""
        for instr, link in self.book.to_hand(self.link_for):
            body = dict(instr["body"])
            if body.get("action") in _ins.SEAT_ACTIONS and link.box is not None:
                body["sv"] = self.seating_version(instr["table"])  # the seating it is written
                if self.seatings.unsent(link.box, instr["table"]):  # against goes first
                    self._names_for(link)
                first = _ins.after(self.tournament, instr)  # a change of the same seat first
                if first is not None:
                    body["after"] = first
            self.book.hand(link, cast(Instruction, body))
            link.send_instructions()
            self.touch()

    def playing_tables(self) -> List[int]:
        return _hfh.playing_tables(self.tournament.seating(), _plan.broken_tables(self.tournament))

    # ------------------------------------------------------------------ the contract
    def act(self, action: str, args: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """A TD action of the console (tdhost.actions.ACTIONS; docs/host.md): {"ok": True,
        "text": sentence}; ActionRefused with a sentence when refused (nothing changed)."""
        self.now = self.clock()
        gone = self.replaced()
        if gone is not None:
            raise ActionRefused(gone)
        declared = _actions.console_action(action)  # one of the TD's actions (tdhost.actions)
        args = {} if args is None else args
        if not isinstance(args, dict):
            raise ActionRefused("the action's arguments must be an object")
        text = self._perform(declared.name, declared.check(args))
        self.touch()
        return {"ok": True, "text": text}

    def desk(self) -> _acts.Desk:
        """The night as a TD action finds it (tdhost.live.console_actions.Desk)."""
        return _acts.Desk(self.lg, self.tournament, self.now, self.when(), self.seed,
                          self.store.path, self.boxes_now(), self.links, self.box_tables,
                          self.journal, self.final_seat)

    def _perform(self, name: str, args: Dict[str, Any]) -> str:
        """The console's action *name* with its checked *args* (tdhost.actions), kept for
        undo when it can be undone (undo and redo keep themselves), then what it asks of
        Live.  Whole or nothing: once its events are in the league file it has happened, so
        a failure after them is logged and its sentence says so (a plan follows); any other
        error propagates with nothing written."""
        desk = self.desk()
        written = self.last_seq

        def handler() -> Any:
            return self.carry_out(_acts.ACTS[name](desk, args))
        try:
            if name in ("undo", "redo"):
                text, effects = handler()
            else:
                text, effects = self.journal.run(name, args, _undo.before(desk, name, args),
                                                 handler)
            self.follow(effects)
            return text
        except Exception as err:
            if self.last_seq == written:
                raise  # refused, or failed before anything was written
            log.exception("after the TD's %s %r was written", name, args)
            why = str(err) if isinstance(err, ActionRefused) else "see its log"
            self.follow(Effects(plan=True))
            return "Done: the %s is in the league file, but the host failed on what follows " \
                   "it (%s)." % (name.replace("_", " "), why)

    def check(self, action: str, args: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Whether act(*action*, *args*) would be taken now (bust, level, register), deciding as it
        would and writing nothing: {"ok": True, ...}; ActionRefused otherwise
        (tdhost.live.checks)."""
        self.now = self.clock()
        return _checks.check(self.lg, self.tournament, self.now, self.when(), action,
                             args if isinstance(args, dict) else {}, self.store.path)

    def snapshot(self) -> Dict[str, Any]:
        """The night as one JSON-ready dict (docs/host.md, "snapshot()")."""
        now = self.clock()
        links = {link.table: self.link_for(link.table) for link in self.links
                 if link.table is not None}
        ended = {tb: self.view(tb).ended for tb in self.playing_tables()}
        told = self.seat_check.told()  # docs/live.md "The seat check"
        undo, redo = self.journal.view()
        return dict(_snap.night(self.lg, self.tournament, now, self.views, links, self.book.handed,
                                ended, told), undo=undo, redo=redo, wifi=self.wifi.view(),
                    league=(self.league_push.view(self.last_seq)
                            if self.league_push is not None else None),
                    league_notices=self.league_notices())

