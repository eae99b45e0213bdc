"""What the boxes tell Live: their links polled and watched (state, contact, status), and
their events applied in each box's order from the link stores, each marked done once its
effect is in the league file (docs/host.md §10.3; docs/live.md "Box events")."""

import logging
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.store import StoreError
from tdhost.league.tournament import Tournament
from tdhost.live import (
    bust_collector as _busts,
    instruction_log as _ins,
    moves as _moves,
    reactions as _reactions,
    room_plan as _plan,
    tables as _tables,
)
from tdhost.live.effects import Effects
from tdhost.live.shapes import Batch, Message, ServedLink
from tdhost.live.tables import name_at
from tdhost.rules import handforhand as _hfh

if TYPE_CHECKING:
    from tdhost.live.night import Live

log = logging.getLogger("tdhost.live")

CONTACT_BUMP_MS = 5000  # a box's last contact moves the version at most this often
RESULTS = ("acknowledged", "done", "refused")
SEAT_EVENTS = ("away", "back", "clock_called")
CARRIED_OUT = "already carried out"  # a withdraw's refusal (tcbox.instructions.at_table)


class BoxEvents:
    """The links' side of the night: what Live has seen of each link, and the events."""

    def __init__(self, live: "Live") -> None:
        self.live = live
        self.stores: List[Any] = []  # the link stores Live's box events are pending in
        self._seen_status: Dict[ServedLink, Any] = {}  # link -> the status object handled last
        self._seen_state: Dict[ServedLink, Tuple[Any, Any, Any]] = {}  # link -> (state, table, box)
        self._seen_rx: Dict[ServedLink, Any] = {}  # link -> last_rx
        self._bump_contact = 0
        self._failing: Set[ServedLink] = set()  # links whose poll raised (logged once)

    def serve(self, link: ServedLink) -> None:
        """Hear *link*'s events; its store keeps them pending for Live (docs/live.md)."""
        link.on_event = lambda msg, box_link=link: self.on_event(box_link, msg)
        link.scope = self.live.scope
        store = self.store_of(link)
        if store is not None and all(known is not store for known in self.stores):
            self.stores.append(store)

    def poll(self) -> None:
        """Poll every link (a failing one is logged once) and watch what changed."""
        for link in list(self.live.links):
            try:
                link.poll()
                self._failing.discard(link)
            except Exception:  # noqa: BLE001 -- a vanished port must not stop the night
                if link not in self._failing:
                    self._failing.add(link)
                    log.exception("box link %s (table %s) failed", link.box, link.table)
            self._watch(link)

    def _watch(self, link: ServedLink) -> None:
        live = self.live
        now_state = (link.state, link.table, link.box)
        if self._seen_state.get(link) != now_state:
            self._seen_state[link] = now_state
            live.touch()
            self.catch_up(link)  # events that waited for the link to know its table
        if link.table is None:
            return
        view = live.view(link.table)
        rx = getattr(link, "last_rx", None)
        if rx is not None and self._seen_rx.get(link) != rx:
            self._seen_rx[link] = rx
            view.heard(live.now)
            if live.now - self._bump_contact >= CONTACT_BUMP_MS:
                self._bump_contact = live.now
                live.touch()
        status = getattr(link, "status", None)
        if status is not None and self._seen_status.get(link) is not status:
            self._seen_status[link] = status
            if isinstance(status, dict):
                view.took_status(status, _hfh.ended_hand(status)
                                 if isinstance(status.get("hand"), int) else view.ended)
                self.record_button(link.table, status)
                for group in live.busts.status(link.box, status):
                    self.decide_busts(group)
                live.touch()

    def record_button(self, table: int, status: Dict[str, Any]) -> None:
        """The box's button between hands, in the league when it changed
        (tdhost.live.tables.button_report): `tdhost plan` then knows it."""
        payload = _tables.button_report(self.live.tournament, table, status)
        if payload is None:
            return
        try:
            self.live.write(lambda tournament, lg, seq: ([("button", payload, None)], None))
        except (ActionRefused, StoreError) as err:  # the next status tries again
            log.warning("table %d's button not recorded: %s", table, err)

    def store_of(self, link: ServedLink) -> Any:
        """The link store that keeps *link*'s events pending for Live, or None (a link
        without one: its events are applied as they come)."""
        store = getattr(link, "store", None)
        if getattr(link, "scope", None) == self.live.scope \
                and callable(getattr(store, "pending", None)):
            return store
        return None

    def on_event(self, link: ServedLink, msg: Message) -> None:
        """A new box event from *link*: applied with every event of that box still pending
        before it, in order; without a store, at once."""
        if self.store_of(link) is None:
            self._apply(link, msg)
        else:
            self.catch_up(link)

    def catch_up(self, link: ServedLink) -> None:
        """Apply the events of *link*'s box pending in its store, in the box's order, each
        marked done once its effect is in the league file (a gathered bust: with its hand's
        decision).  Nothing while the link does not know its box's table."""
        store = self.store_of(link)
        box = link.box
        if store is None or box is None or link.table is None:
            return
        pending = store.pending(box, self.live.scope)
        if all(_busts.event_order(event.get("id")) is not None for event in pending):
            pending.sort(key=lambda event: _busts.event_order(event["id"]))  # the box's order
        for msg in pending:
            eid = msg.get("id")
            if self.live.busts.holds(box, eid):
                continue  # gathered: done with its hand's decision
            self._apply(link, msg)
            if not self.live.busts.holds(box, eid):
                store.done(box, [eid])

    def _apply(self, link: ServedLink, msg: Message) -> None:
        src = [[msg.get("from"), msg.get("id")]]
        try:
            self._event(link, msg)
        except ActionRefused as err:  # a decision the league refused: said in the log
            self.live.notice("box %s: %s" % (msg.get("from"), err), src)
        except Exception:  # noqa: BLE001 -- a box's odd event must never stop the night
            log.exception("box event %r", msg)
            self.live.notice("box %s: event %s (%s) could not be applied" % (
                msg.get("from"), msg.get("id"), msg.get("what")), src)

    def _event(self, link: ServedLink, msg: Message) -> None:
        live = self.live
        box, eid, what = msg.get("from"), msg.get("id"), msg.get("what")
        if (box, eid) in live.seen:
            return  # applied before (a resend, or this host before a restart)
        table = link.table
        live.touch()
        if what != "bust":
            for group in live.busts.other_event(box, eid):
                self.decide_busts(group)
        if what == "instruction":
            self._instruction_result(box, eid, msg)
        elif what == "bust":
            for group in live.busts.add(box, table, msg, live.now):
                self.decide_busts(group)
        elif what in ("hand_started", "hand_ended") and table is not None:
            if isinstance(msg.get("hand"), int):
                live.view(table).hand_event(what, msg["hand"])
        elif what in SEAT_EVENTS:
            seat = msg.get("seat")
            if table is not None and table in _plan.broken_tables(live.tournament):
                pass  # a broken table's box: its seats no longer count (no log line each)
            elif table is not None and _busts.td_out(live.tournament, table, seat) is not None:
                pass  # the box seats the player the TD entered out until the take_out
            elif table is None or name_at(live.tournament, table, seat) is None:
                live.notice("box %s (table %s): %s at seat %s, where the league has nobody"
                            % (box, table, what, seat), [[box, eid]])
        elif what == "error":
            live.notice("box %s (table %s) reports: %s" % (box, table, msg.get("text")),
                        [[box, eid]])

    def _instruction_result(self, box: Optional[str], eid: Any, msg: Message) -> None:
        """A box's answer to an instruction, logged (``instr_result``); a move_out's
        ``done`` writes the move's receive in the same batch (tdhost.live.moves); a done
        for a move_out called off already is tdhost.live.moves.late_done."""
        live = self.live
        iid, res = msg.get("instr"), msg.get("result")
        instr = live.tournament.instrs.get(iid)
        if iid is None or instr is None or res not in RESULTS:
            log.info("box %s answered instruction %s (%s): not one of this tournament's",
                     box, iid, res)
            return
        if res in _ins.results(instr, "box"):
            return  # nothing new (a box repeats its answer to a repeated instruction)
        out = instr["action"] == "move_out" and res == "done"
        # a move_out's chips go with the player; a take_out's are the chips that left play
        stack = _ins.chips(msg.get("stack")) if res == "done" and instr["action"] in (
            "move_out", "take_out") else None
        text = "table %s: %s %s%s%s" % (instr["table"], instr["text"], res,
                                        ", %d chips" % stack if stack else "",
                                        ": %s" % msg["reason"] if msg.get("reason") else "")
        src = [[box, eid]]
        if _ins.cancelled(instr):
            if out and instr.get("move"):
                live.apply(_moves.late_done(instr, stack, text + " after it was called off",
                                            src, live.boxes_now()))
            elif instr["action"] == "receive" and res == "done":
                live.apply(_moves.seated_anyway(instr, text + " after it was called off", src,
                                                live.boxes_now()))
            elif instr["action"] == "take_out" and res == "done":
                live.write(_reactions.taken_anyway(instr, _ins.result(
                    iid, res, "box", text + " after it was called off", None, src, stack),
                    live.boxes_now()))
            return
        answer = _ins.result(iid, res, "box", text, msg.get("reason"), src, stack)
        if res == "refused" and instr["action"] == "move_out" and instr.get("move"):
            live.apply(_moves.refused_out(instr, answer, live.boxes_now()))
            return
        if res == "refused" and instr["action"] == "take_out":
            live.apply(_reactions.refused_take(instr, answer, live.boxes_now()))
            return
        if res == "refused" and instr["action"] == "receive":
            if instr.get("move"):
                live.apply(_moves.refused_in(instr, answer, live.boxes_now()))
            else:
                live.apply(_moves.refused_own(instr, answer, live.boxes_now()))
            return

        broke = live.tournament.instrs.get(instr["body"].get("instr") or "") \
            if instr["action"] == "withdraw" and res == "refused" \
            and msg.get("reason") == CARRIED_OUT else None
        if broke is not None and broke["action"] == "break_table":
            # the dealer broke the table before the withdraw came, and the box could not
            # open it again (docs/protocol.md "withdraw")
            live.write(lambda tournament, lg, seq: ([("instr_result", answer, None)], None))
            live.apply(_moves.broken_anyway(broke, "table %s: %s done before it was called "
                                            "off" % (broke["table"], broke["text"]), src))
            return

        def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
            evs: Batch = [("instr_result", answer, None)]
            latest = tournament.instrs.get(iid)
            if out and latest is not None and latest.get("move") and not _ins.cancelled(latest):
                evs += _moves.receive_evs(lg, tournament, latest, stack)
            return evs, None

        live.write(build)
        if res == "done" and instr["action"] == "take_out" and live.write(
                lambda tournament, lg, seq: _moves.seat_waiting(tournament, lg, instr)):
            live.follow(Effects(plan=True))  # a player waited for the seat it frees
        opened = live.tournament.instrs.get(instr["body"].get("instr") or "") \
            if instr["action"] == "withdraw" and res == "done" else None
        if opened is not None and opened["action"] == "break_table" \
                and "done" in _ins.results(opened, "box"):
            live.follow(Effects(plan=True))  # its box opened the table again: plan with it
        if res == "done" and instr["action"] == "receive" and not instr.get("move"):
            # a player seated: the plan skipped them until now
            live.follow(Effects(plan=True, names=[instr["table"]]))
        elif res == "done" and instr["action"] == "receive" and instr.get("recorded"):
            # a move recorded by hand sat down: the league has it already (no ``move`` to
            # write, whose effects would send the names), so the box gets its names now
            live.follow(Effects(names=[instr["table"]]))
        final = live.tournament.final
        if instr["action"] == "redraw":  # final_seat takes its chips from a later status
            live.view(instr["table"]).redraw_answered()
        if instr["action"] == "redraw" and final and instr["table"] == final.get("table") \
                and final.get("seated"):
            live.send_seating([instr["table"]])  # it sat down before this box confirmed

    def decide_busts(self, group: _busts.Group) -> None:
        """The decision of a complete group of busts (tdhost.live.bust_collector.decide); then its
        box events are done in the link stores."""
        live = self.live
        src = group.src()
        try:
            why = _busts.ignored(group)
            if all(tuple(item) in live.seen for item in src):
                pass  # decided before (the league has its events)
            elif why is not None:
                live.notice(why, src)
            else:
                try:
                    live.write(_busts.decide(group, live.when()))
                except ActionRefused as err:
                    live.notice(_busts.unrecorded(group, err), src)
        except Exception:  # noqa: BLE001 -- a box's odd busts must never stop the night
            log.exception("busts %r", group.items)
            live.notice("table %s: the box's busts (%s) could not be recorded" % (
                group.table, ", ".join(str(seat) for seat in group.seats())), group.src())
        ids = [eid for _, _, eid in group.items]
        for store in self.stores:
            store.done(group.box, ids)
