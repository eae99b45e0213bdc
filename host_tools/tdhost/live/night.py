"""The live night: the host running a tournament with the boxes (issue #5; docs/host.md,
"The live night (`tdhost serve`)").

    live = Live("league.sqlite", clock=None, key=key, key_id="ev1-k1", seed=1)
    live.add_link(box_link)      # tdhost.usb.BoxLink: USB, tdhost.pipe, or the MQTT hub's
    while True:
        live.poll()              # bounded, never blocks
    live.snapshot()              # what the web console shows; live.version counts changes
    live.act("pause", {})        # a TD action; ActionRefused when it is refused

Everything that matters is an event in the league file, appended through the same
``decide_*`` path as the CLI commands (``tdhost.league.transaction.append``): busts from the boxes,
the instructions sent and every answer, moves, the master clock's changes, hand for hand.
A move is sent in two steps (protocol 1.2, tdhost.live.moves): its ``move_out``, then -- in
the same write as the source box's ``done``, with the ``stack`` the player left with -- its
``receive``; an instruction called off is withdrawn from its box (a ``withdraw``, written
with the cancellation).
A host killed at any moment and started again on the same file (a new ``Live``) carries on:
pending instructions are sent again (a box never carries out an id twice), pending moves
complete, the clock reads the same.  What the boxes report about the moment -- hand
numbers, stacks, away seats, button and blinds -- is not logged: each box's ``status``
brings it again.

**Box events survive a crash** (docs/host.md §10.3).  A box forgets an event once the
link store (tdhost.usb.HostStore) has it, but Live may still hold it in memory (busts are
gathered per hand for up to 3 s).  So Live gives each link its ``scope`` (one per
tournament): the link store keeps the events as *pending*, Live applies them from there in
the box's order -- a new event first brings every earlier pending one of that box --
and marks each ``done`` only once its effect is in the league file (a bust: once its
hand's decision is written).  A host killed between any two writes finds the events it
had not finished pending again and applies them once its links know their boxes' tables;
an event whose (box, id) the league already has (``src``) is only marked done.  After a
restart Live also makes a plan (once the boxes' statuses are in, or after
``START_PLAN_WAIT_MS``), cancels the pending moves of players out already, and writes the
final table's instructions if the final draw is there without them.

The parts: the clock (tdhost.live.clock), the busts gathered per hand (tdhost.live.busts),
plans turned into instructions and moves recorded (tdhost.live.moves, tdhost.live.plan,
tdhost.rules.balance), the instructions' states (tdhost.live.instructions), hand for hand
(tdhost.rules.handforhand), the TD's actions (tdhost.live.acts) and the snapshot
(tdhost.live.snapshot).
Times are integer milliseconds: Unix ms on Live's clock.
"""

import datetime
import hashlib
import logging
import time

from tdhost import tfile, wifinotes as _wifinotes
from tdhost.league import (
    cache as _logcache,
    store as _store,
    times as _times,
    transaction,
)
from tdhost.league.refusal import ActionRefused
from tdhost.live import (
    acts as _acts,
    busts as _busts,
    clock as _clock,
    final as _final,
    instructions as _ins,
    moves as _moves,
    plan as _plan,
    redraw as _redraw,
    snapshot as _snap,
    undo as _undo,
)
from tdhost.rules import handforhand as _hfh

log = logging.getLogger("tdhost.live")

CONTACT_BUMP_MS = 5000  # a box's last contact moves the version at most this often
RESULTS = ("acknowledged", "done", "refused")
SEAT_EVENTS = ("away", "back", "clock_called")
LINK_ORDER = {"live": 0, "configured": 1, "unknown": 2, "offline": 3}
START_PLAN_WAIT_MS = 10000  # after a (re)start, the first plan waits this long at most for
#                             the boxes' statuses (their buttons and blinds)


def unix_ms():
    return int(time.time() * 1000)


def scope_of(lg, t):
    """The link stores' scope of tournament *t* of league *lg* (module notes): the same
    after every restart, another for every tournament."""
    return "t" + hashlib.sha256(("%s|%d|%s" % (lg.name, t.number, t.created)).encode(
        "utf-8")).hexdigest()[:16]


class TableView:
    """What the host knows of one table from its box at run time (not logged)."""

    def __init__(self):
        self.status = None  # the box's last status state
        self.hand = None  # the hand number it reported last
        self.ended = -1  # the last hand it reported ended
        self.contact = None  # Live's clock when its box was last heard (ms)
        self.statuses = 0  # statuses heard from its box (this run)
        self.redraw_at = None  # self.statuses when its box answered a redraw
        self.redraw_sent = None  # the redraw (US 2) whose seating its box was sent


class Live:
    """The running night (module notes; the contract is in docs/host.md).  Not
    thread-safe: callers in several threads hold one lock around every call (tdhost serve
    and tdhost.web share it)."""

    def __init__(self, db_path, number=None, clock=None, key=None, key_id=None, seed=1):
        self.store = _store.Store(db_path, threads=True)  # the web acts from its threads
        self.clock = clock or unix_ms
        self.key = key
        self.key_id = key_id
        self.seed = seed
        self.number = number
        self.links = []
        self.views = {}  # table -> TableView
        self.sent = {}  # instruction id -> the link it was given to
        self.busts = _busts.Collector()
        self.stores = []  # the link stores Live's box events are pending in (module notes)
        self.plan_due = True  # a plan at start: the league may be ahead of its last plan
        self._start_plan = True  # ... once the boxes' statuses are in (START_PLAN_WAIT_MS)
        self.plan_bust = False  # the plan follows a bust: refused moves are dropped
        self.final_since = None  # Live's clock when it first waited for the final table
        self._swept = None  # the league's last seq when receives were last looked for
        self._version = 0
        self.clock_version = 0
        self._seen_status = {}  # link -> the status object handled last
        self._seen_state = {}  # link -> (state, table, box)
        self._seen_rx = {}  # link -> last_rx
        self._bump_contact = 0
        self._failing = set()  # links whose poll raised (logged once)
        self.td_done = []  # the TD's own actions that can be undone (tdhost.live.undo)
        self.td_undone = []  # ... undone, that can be redone
        self.td_serial = 0
        self.now = self.clock()
        self._started = self.now
        self.wifi = _wifinotes.WifiNotes(clock=self.clock)  # refused logins, pair again
        self._wifi_rev = 0
        self.cache = _logcache.LeagueCache()
        try:
            self._reload()
        except ActionRefused:
            self.store.close()
            raise
        self._index = self.master().index
        self.scope = scope_of(self.lg, self.t)

    # ------------------------------------------------------------------ basics
    @property
    def version(self):
        return self._version

    def _touch(self):
        self._version += 1

    def close(self):
        self.store.close()

    def when(self):
        """Live's clock now as an aware datetime (the league's decisions take one)."""
        return datetime.datetime.fromtimestamp(self.now / 1000.0).astimezone()

    def master(self, now=None):
        """The master clock (tableclock.clock.LevelClock) at *now* (Unix ms)."""
        return self.t.clock_at(self.now if now is None else now)

    def view(self, table):
        v = self.views.get(table)
        if v is None:
            v = self.views[table] = TableView()
        return v

    def statuses(self):
        return {tb: v.status for tb, v in self.views.items() if v.status is not None}

    def _reload(self):
        """The league up to the last committed event: kept in memory, only the new events
        applied (tdhost.league.cache; the whole log after an undo), and the box events it has
        applied (``seen``: their ``src``)."""
        self.lg = self.cache.league(self.store)
        self.t = self.lg.current(self.number)
        self.number = self.t.number
        self.last_seq = self.cache.seq
        new = self.cache.new
        if new is None:
            self.seen = set()
            new = self.lg.events
        for ev in new:
            if ev.tournament == self.number:
                for src in ev.payload.get("src") or ():
                    self.seen.add(tuple(src))

    def _external(self):
        """Someone else (the CLI) wrote to the league file: read it again."""
        row = self.store.db.execute("SELECT max(seq) FROM events").fetchone()
        if (row[0] or 0) != self.last_seq:
            self._reload()
            self.plan_due = True
            self.send_clock()  # `tdhost level N` may have moved the clock

    def write(self, build):
        """One decision: in one transaction on the league file, *build(t, lg, seq)* returns
        ([(action, payload, undoes)], result) for tournament t; the events are appended
        together.  ActionRefused writes nothing and propagates.  Returns the result."""
        stamp = _times.iso(self.when())

        def decide(lg, seq):
            t = lg.current(self.number)
            evs, result = build(t, lg, seq)
            return [(t.number, a, p, u) for a, p, u in evs], result

        try:
            seqs, result = transaction.append(self.store, decide, stamp, self.cache)
        except BaseException:
            self._reload()  # the decision may have changed the kept league: the log again
            raise
        if seqs:
            self._reload()
            self._touch()
        return result

    def notice(self, text, src=None):
        """A line in the league's log (``notice``), at most once per box event *src*."""
        log.warning("%s", text)
        if src and all(tuple(s) in self.seen for s in src):
            return
        self.write(lambda t, lg, seq: ([("notice", {"text": text, "src": src or []}, None)],
                                       None))

    # ------------------------------------------------------------------ links
    def add_link(self, link):
        """Serve a box link: Live becomes its feed and hears its events.  A link is a
        tdhost.usb.BoxLink or anything with its interface: ``feed``, ``on_event``,
        ``poll()``, ``send(msg)``, ``instruct(body)``, ``box``, ``table``, ``state``
        (``live``, ``configured``, ``unknown``, ``offline``), ``status`` (the box's last
        state) and ``last_rx``; ``send_clock()`` when it has one."""
        link.feed = self
        link.on_event = lambda msg, lk=link: self._box_event(lk, msg)
        link.scope = self.scope  # its store keeps the events pending for Live (module notes)
        store = self._store_of(link)
        if store is not None and all(st is not store for st in self.stores):
            self.stores.append(store)
        self.links.append(link)
        self._touch()

    def remove_link(self, link):
        """Stop serving *link* (its port is gone, or a new link replaces it)."""
        if link in self.links:
            self.links.remove(link)
            self._touch()

    def link_for(self, table):
        """The best link to the box of *table* (live first), or None."""
        best = None
        for lk in self.links:
            if lk.table == table and lk.box is not None:
                if best is None or LINK_ORDER.get(lk.state, 9) < LINK_ORDER.get(best.state, 9):
                    best = lk
        return best

    def seating_msg(self, table):
        """The ``seating`` body for *table* (docs/protocol.md): names per seat from the
        league, stacks where known (chips at entry; the final table's from the boxes), the
        button of the draw."""
        t = self.t
        names, stacks = {}, {}
        final = t.final if t.final and t.final.get("table") == table else None
        if final is not None and "from" in final and not final.get("seated"):
            # no chips until every table has finished its hand (livefinal.final_seat)
            return dict({"names": {str(e.seat[1]): e.name for e in t.players.values()
                                   if e.seat and e.seat[0] == table and e.state == "in"}},
                        **self._button(table))
        redrawn = _redraw.seating_for(self, table)  # US 2: chips and button of its box
        if redrawn is not None:
            return redrawn
        for e in t.players.values():
            if e.seat and e.seat[0] == table and e.state in ("registered", "in"):
                k = str(e.seat[1])
                names[k] = e.name
                known = (final or {}).get("stacks", {}).get(e.name)
                if known:
                    stacks[k] = known
                elif e.stack:
                    stacks[k] = e.stack - e.deducted
        msg = {"names": names}
        if stacks:
            msg["stacks"] = stacks
        msg.update(self._button(table))
        return msg

    def send_names(self, tables):
        """The league's seating again to the boxes of *tables* in play after their seats
        changed (a move recorded, a player seated by a receive of their own): once play has
        begun a box keeps its own seats and chips and takes only the names
        (tcbox.linkhost.seating), so the names it was told stay the league's -- also when
        a seating it got earlier (say from a restarted host) was sent before the host heard
        of the change.  Not before a table's first hand (the box would build its table
        from the message's chips) nor once the final table is drawn (tdhost.live.final
        sends its seating)."""
        if self.t.final is None:
            self.send_seating([tb for tb in set(tables) if self.view(tb).hand])

    def _button(self, table):
        drawn = (self.t.final or self.t.draw or {}).get("tables", {}).get(str(table))
        return {"button": drawn["button"]} if drawn and drawn.get("button") else {}

    def clock_msg(self, now=None):
        now = self.clock() if now is None else now
        return dict(_clock.reading(self.master(now)), host_ms=now)

    def for_table(self, table, box):
        """The feed of a box at *table* (tdhost.usb.BoxLink): config, seating and clock."""
        config = tfile.box_config_of(self.t.setup)  # what `tdhost new` checked fits a frame
        return {"config": config, "seating": self.seating_msg(table),
                "clock": self.clock_msg()}

    def send_seating(self, tables=None):
        """Send the league's seating again to the boxes of *tables* (all when None); a box
        builds its table from it until its first hand."""
        for lk in self.links:
            if lk.box is not None and lk.table is not None and (tables is None
                                                                 or lk.table in tables):
                lk.send(dict(self.seating_msg(lk.table), kind="seating"))

    def send_clock(self):
        """The master clock changed: every box gets it now."""
        self.clock_version += 1
        self._touch()
        for lk in self.links:
            fn = getattr(lk, "send_clock", None)
            if fn is not None:
                fn()
            elif lk.box is not None and lk.table is not None:
                lk.send(dict(self.clock_msg(), kind="clock"))

    # ------------------------------------------------------------------ polling
    def poll(self, now=None):
        """One bounded step (module notes); never blocks, never raises for a box's sake."""
        self.now = self.clock() if now is None else now
        self._external()
        if self.wifi.rev != self._wifi_rev:  # the broker's thread told of a refusal
            self._wifi_rev = self.wifi.rev
            self._touch()
        for lk in list(self.links):
            try:
                lk.poll()
                self._failing.discard(lk)
            except Exception:  # noqa: BLE001 -- a vanished port must not stop the night
                if lk not in self._failing:
                    self._failing.add(lk)
                    log.exception("box link %s (table %s) failed", lk.box, lk.table)
            self._watch(lk)
        for g in self.busts.due(self.now):
            self._decide_busts(g)
        if self._swept != self.last_seq:  # the league changed: a move_out done without its
            self._swept = self.last_seq  # receive (a file an older host wrote) gets it
            _moves.receives(self)
        self._complete_moves()
        _final.final_seat(self)
        _redraw.step(self)
        if self.plan_due and not self.busts.open and self._plan_ready():
            self._plan()
        self._send_instructions()
        self._hand_for_hand()
        index = self.master().index
        if index != self._index:  # a level or break ended: the boxes hear it at once
            self._index = index
            self.send_clock()
            self.store.backup("level")  # a backup at every level change (docs/host.md §3.3)

    def _plan_ready(self):
        """After a (re)start, the first plan waits for a status from the box of every
        table that plays (their buttons and blinds), or START_PLAN_WAIT_MS."""
        if self._start_plan:
            waiting = [tb for tb in self.playing_tables() if self.view(tb).status is None]
            if waiting and self.now - self._started < START_PLAN_WAIT_MS:
                return False
            self._start_plan = False
            _moves.recover(self)
        return True

    def _watch(self, lk):
        key = lk
        now_state = (lk.state, lk.table, lk.box)
        if self._seen_state.get(key) != now_state:
            self._seen_state[key] = now_state
            self._touch()
            self._catch_up(lk)  # events that waited for the link to know its table
        if lk.table is None:
            return
        v = self.view(lk.table)
        rx = getattr(lk, "last_rx", None)
        if rx is not None and self._seen_rx.get(key) != rx:
            self._seen_rx[key] = rx
            v.contact = self.now
            if self.now - self._bump_contact >= CONTACT_BUMP_MS:
                self._bump_contact = self.now
                self._touch()
        st = getattr(lk, "status", None)
        if st is not None and self._seen_status.get(key) is not st:
            self._seen_status[key] = st
            if isinstance(st, dict):
                v.status = st
                v.statuses += 1
                if isinstance(st.get("hand"), int):
                    v.hand = st["hand"]
                    v.ended = _hfh.ended_hand(st)
                for g in self.busts.status(lk.box, st):
                    self._decide_busts(g)
                self._touch()

    # ------------------------------------------------------------------ box events
    def _store_of(self, lk):
        """The link store that keeps *lk*'s events pending for Live, or None (a link
        without one: its events are applied as they come)."""
        st = getattr(lk, "store", None)
        if getattr(lk, "scope", None) == self.scope and callable(getattr(st, "pending", None)):
            return st
        return None

    def _box_event(self, lk, msg):
        """A new box event from *lk* (module notes): applied with every event of that box
        still pending before it, in order; without a store, at once."""
        if self._store_of(lk) is None:
            self._apply(lk, msg)
        else:
            self._catch_up(lk)

    def _catch_up(self, lk):
        """Apply the events of *lk*'s box that are pending in its store, in the box's order
        (event ids ``<boot>-<n>``), each marked done once its effect is in the league file
        (a bust gathered for its hand: when the hand's decision is written).  Nothing while
        the link does not know its box's table (a box heard before its hello: a restarted
        host)."""
        store = self._store_of(lk)
        box = lk.box
        if store is None or box is None or lk.table is None:
            return
        pending = store.pending(box, self.scope)
        if all(_busts.event_order(m.get("id")) is not None for m in pending):
            pending.sort(key=lambda m: _busts.event_order(m["id"]))  # the box's order
        for msg in pending:
            eid = msg.get("id")
            if self.busts.holds(box, eid):
                continue  # gathered: done with its hand's decision
            self._apply(lk, msg)
            if not self.busts.holds(box, eid):
                store.done(box, [eid])

    def _apply(self, lk, msg):
        src = [[msg.get("from"), msg.get("id")]]
        try:
            self._event(lk, msg)
        except ActionRefused as err:  # a decision the league refused: said in the log
            self.notice("box %s: %s" % (msg.get("from"), err), src)
        except Exception:  # noqa: BLE001 -- a box's odd event must never stop the night
            log.exception("box event %r", msg)
            self.notice("box %s: event %s (%s) could not be applied" % (
                msg.get("from"), msg.get("id"), msg.get("what")), src)

    def _event(self, lk, msg):
        box, eid, what = msg.get("from"), msg.get("id"), msg.get("what")
        if (box, eid) in self.seen:
            return  # applied before (a resend, or this host before a restart)
        table = lk.table
        self._touch()
        if what != "bust":
            for g in self.busts.other_event(box, eid):
                self._decide_busts(g)
        if what == "instruction":
            self._instruction_result(box, eid, msg)
        elif what == "bust":
            for g in self.busts.add(box, table, msg, self.now):
                self._decide_busts(g)
        elif what in ("hand_started", "hand_ended") and table is not None:
            v = self.view(table)
            h = msg.get("hand")
            if isinstance(h, int):
                v.hand = h
                v.ended = h if what == "hand_ended" else h - 1
        elif what in SEAT_EVENTS:
            seat = msg.get("seat")
            if table is not None and table in _plan.broken_tables(self.t):
                pass  # a broken table's box: its seats no longer count (no log line each)
            elif table is not None and _busts.td_out(self.t, table, seat) is not None:
                pass  # the box seats the player the TD entered out until the take_out
            elif table is None or self.name_at(self.t, table, seat) is None:
                self.notice("box %s (table %s): %s at seat %s, where the league has nobody"
                            % (box, table, what, seat), [[box, eid]])
        elif what == "error":
            self.notice("box %s (table %s) reports: %s" % (box, table, msg.get("text")),
                        [[box, eid]])

    def name_at(self, t, table, seat):
        """Who sits at *table* *seat*: the league's seating -- unless that player has left
        it (their move_out done) -- else a player the box has seated there by a move's
        receive (done; not recorded yet).  Not a player whose receive the box has not
        carried out: a bust there is whoever the box still had (e.g. one the TD entered
        out, whose seat the dealer takes out only now).  From
        the final draw until the final table sits down (tdhost.live.final.final_seat) the
        boxes still play at the seats they had: the draw's ``from`` says who sits there."""
        f = t.final
        if f is not None and not f.get("seated") and "from" in f:
            for name, where in f["from"].items():
                if where == [table, seat]:
                    return name
            return None
        moving = _ins.moving_players(t)
        name = t.seating().get(table, {}).get(seat)
        if name is not None and not (name in moving and _ins.state(moving[name][0]) == "done"):
            return name
        for other, halves in moving.items():  # seated there by the box, not recorded yet
            if len(halves) > 1 and halves[0]["to"] == [table, seat] \
                    and _ins.state(halves[1]) == "done":
                return other
        return None

    def boxed(self, table):
        """Does *table* have a box (a link now, or a box answered its instructions)?
        Cancelled instructions are withdrawn only from a box (tdhost.live.instructions)."""
        if self.link_for(table) is not None:
            return True
        return any(r["table"] == table and _ins.results(r, "box")
                   for r in self.t.instrs.values())

    def _instruction_result(self, box, eid, msg):
        """A box's answer to an instruction, logged (``instr_result``); a move_out's
        ``done`` writes the move's receive in the same batch (tdhost.live.moves); a done
        for a move_out called off already is tdhost.live.moves.late_done."""
        iid, res = msg.get("instr"), msg.get("result")
        r = self.t.instrs.get(iid)
        if r is None or res not in RESULTS:
            log.info("box %s answered instruction %s (%s): not one of this tournament's",
                     box, iid, res)
            return
        if res in _ins.results(r, "box"):
            return  # nothing new (a box repeats its answer to a repeated instruction)
        out = r["action"] == "move_out" and res == "done"
        # a move_out's chips go with the player; a take_out's are the chips that left play
        stack = _ins.chips(msg.get("stack")) if res == "done" and r["action"] in (
            "move_out", "take_out") else None
        text = "table %s: %s %s%s%s" % (r["table"], r["text"], res,
                                        ", %d chips" % stack if stack else "",
                                        ": %s" % msg["reason"] if msg.get("reason") else "")
        if _ins.cancelled(r):
            if out and r.get("move"):
                _moves.late_done(self, r, stack, text + " after it was called off",
                                 [[box, eid]])
            elif r["action"] == "receive" and res == "done":
                _moves.seated_anyway(self, r, text + " after it was called off", [[box, eid]])
            return
        p = _ins.result(iid, res, "box", text, msg.get("reason"), [[box, eid]], stack)
        if res == "refused" and r["action"] == "receive":
            if r.get("move"):
                _moves.refused_in(self, r, p)
            else:
                _moves.refused_own(self, r, p)
            return

        def build(t, lg, seq):
            evs = [("instr_result", p, None)]
            r2 = t.instrs.get(iid)
            if out and r2.get("move") and not _ins.cancelled(r2):
                evs += _moves.receive_evs(lg, t, r2, stack)
            return evs, None

        self.write(build)
        if res == "done" and r["action"] == "receive" and not r.get("move"):
            self.plan_due = True  # a player seated: the plan skipped them until now
            self.send_names([r["table"]])
        f = self.t.final
        if r["action"] == "redraw":  # final_seat takes its chips from a later status
            self.view(r["table"]).redraw_at = self.view(r["table"]).statuses
        if r["action"] == "redraw" and f and r["table"] == f.get("table") and f.get("seated"):
            self.send_seating([r["table"]])  # it sat down before this box confirmed

    # ------------------------------------------------------------------ busts, plans
    def _decide_busts(self, g):
        """The decision of a complete group of busts (tdhost.live.busts.decide); then its
        box events are done in the link stores."""
        try:
            _busts.decide(self, g)
        except Exception:  # noqa: BLE001 -- a box's odd busts must never stop the night
            log.exception("busts %r", g.items)
            self.notice("table %s: the box's busts (%s) could not be recorded" % (
                g.table, ", ".join(str(s) for s in g.seats())), g.src())
        ids = [eid for _, _, eid in g.items]
        for st in self.stores:
            st.done(g.box, ids)

    def after_bust(self, names):
        _busts.after_bust(self, names)

    def message(self, table, text):
        """A ``message`` instruction to the box of *table*."""
        self.write(lambda t, lg, seq: ([("instr", _ins.instr(
            _ins.new_id(lg, t), "message", table, "message to table %d: %s" % (table, text),
            text=text), None)], None))

    def _complete_moves(self):
        _moves.complete(self)

    def _plan(self):
        _moves.plan(self)

    def final_table(self, seed, ace8=None):
        """The final table now (tdhost.live.final.final_table); ActionRefused when it cannot
        form."""
        return _final.final_table(self, seed, ace8)

    def _send_instructions(self):
        """Give every pending instruction to its table's box (a link resends it until the
        box answers; a new link -- a restarted host, another port -- gets it again)."""
        for iid, r in self.t.instrs.items():
            if _ins.complete(r) or _ins.state(r) in ("done", "refused"):
                continue
            lk = self.link_for(r["table"])
            if lk is None or self.sent.get(iid) is lk:
                continue
            lk.instruct(dict(r["body"]))
            self.sent[iid] = lk
            self._touch()

    # ------------------------------------------------------------------ hand for hand
    def playing_tables(self):
        return _hfh.playing_tables(self.t.seating(), _plan.broken_tables(self.t))

    def _hand_for_hand(self):
        h = self.t.hfh
        if h is None:
            return
        tables = self.playing_tables()
        ended = {tb: self.view(tb).ended for tb in tables}
        waited = [tb for tb in tables if str(tb) in h["wait"]]
        if not waited or _hfh.waiting_for(h["wait"], ended, tables):
            return
        wait = _hfh.next_wait(tables, ended)
        rnd = h["round"] + 1

        def build(t, lg, seq):
            evs = [("hfh_release", {"round": rnd, "wait": wait, "text": "hand for hand: "
                                    "every table has finished its hand; round %d deals now"
                                    % rnd}, None)]
            for k, tb in enumerate(tables):
                evs.append(("instr", _ins.instr(_ins.new_id(lg, t, k), "next_hand", tb,
                                                "hand for hand round %d: deal at table %d"
                                                % (rnd, tb)), None))
            return evs, None

        self.write(build)

    # ------------------------------------------------------------------ the contract
    def act(self, action, args=None):
        """A TD action (docs/host.md): {"ok": True, "text": sentence}; ActionRefused with a
        sentence when refused (nothing changed)."""
        self.now = self.clock()
        args = {} if args is None else args
        if not isinstance(args, dict):
            raise ActionRefused("the action's arguments must be an object")
        fn = _acts.ACTS.get(action) if isinstance(action, str) else None
        if fn is None:
            raise ActionRefused("there is no action %r (actions: %s)" % (
                action, ", ".join(sorted(_acts.ACTS))))
        if action in ("undo", "redo"):
            text = fn(self, args)
        else:
            ctx = _undo.before(self, action, args)
            first = self.lg.events[-1].seq if self.lg.events else 0
            text = fn(self, args)
            _undo.record(self, action, args, ctx, first)
        self._touch()
        return {"ok": True, "text": text}

    def snapshot(self):
        """The night as one JSON-ready dict (docs/host.md, "snapshot()")."""
        return _snap.snapshot(self, self.clock())
