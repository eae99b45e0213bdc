"""Busts reported by the boxes, gathered into same-hand decisions (docs/host.md, "The live
night", "Busts from the boxes"; LPPL ¶46, US 14).

A box reports each player out as a ``bust`` event (seat, chips at the start of the hand,
the hand's number).  Players out in the same hand at one table are **one** decision (the
league's ``decide_bust`` orders them: more chips at the start of the hand finishes higher;
LPPL then the better hand, then the leaderboard), so the events of one hand are gathered
first.  A box writes a hand's events in one go (tcbox.linkparts.events_between:
``hand_ended`` first, then the busts worst finisher first) and sends them in that order,
so a group is complete when

- the box's ``status`` for that hand lists in ``busted`` no seat the group lacks (with
  ``bust_ties``: the players the box could not order by the showdown), or
- a later event of that box follows (the busts of one hand are never interleaved), or
- ``BUST_WAIT_MS`` passed since the group's last bust.

"Later" is the box's own order: event ids are ``<boot>-<n>`` (``event_order``), and a box
resends what was not acknowledged, so after a lost ack or a host restart an older event can
come after a newer one (the ``hand_ended`` that went to a host that died, after the busts
that followed it): it does not close the group, and the group keeps its busts in the box's
order whatever order they came in.

A bust without a hand number (the TD took a player out between hands on the box) is a
decision of its own at once.

``decide(live, group)`` turns a complete group into the league's ``bust`` event (the box's
event ids in ``src``: never applied twice); ``after_bust`` takes the players' pending moves
(and other instructions) off, withdraws them from the boxes and asks for a new plan.

The groups live in memory only: their events stay *pending* in the box links' store until
the decision is written (tdhost.live marks them done then), so a host killed while a hand's
busts are being gathered gathers them again after its restart (docs/host.md §10.3).
"""

from tdhost.league.busts import decide_bust
from tdhost.league.refusal import ActionRefused
from tdhost.live import instructions as _ins
from tdhost.rules import finishing as _finishing

BUST_WAIT_MS = 3000


def event_order(eid):
    """A box event id ``<boot>-<n>`` as (boot, n), the box's order; None for another form."""
    parts = eid.split("-") if isinstance(eid, str) else ()
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1])


class Group:
    """The busts of one hand at one table, in the box's order (worst finisher first)."""

    def __init__(self, box, table, hand, now):
        self.box = box
        self.table = table
        self.hand = hand
        self.items = []  # (seat, chips_start, event id)
        self.last = now
        self.ties = None  # the box's bust_ties (lists of seats) once its status came

    def seats(self):
        return [s for s, _, _ in self.items]

    def src(self):
        return [[self.box, eid] for _, _, eid in self.items]


class Collector:
    """Open groups, one per box at most."""

    def __init__(self):
        self.open = {}  # box -> Group

    def add(self, box, table, msg, now):
        """A bust event; returns the groups it closes (in order)."""
        hand = msg.get("hand")
        closed = []
        g = self.open.get(box)
        if g is not None and (hand is None or g.hand != hand or g.table != table):
            closed.append(self.open.pop(box))
            g = None
        if g is None:
            g = Group(box, table, hand, now)
        if msg["id"] not in [e for _, _, e in g.items]:
            g.items.append((msg.get("seat"), msg.get("chips_start"), msg["id"]))
            if all(event_order(e) is not None for _, _, e in g.items):
                g.items.sort(key=lambda it: event_order(it[2]))  # the box's order
        g.last = now
        if hand is None:
            closed.append(g)
        else:
            self.open[box] = g
        return closed

    def holds(self, box, eid):
        """Is event *eid* of *box* in its open group (gathered, not decided yet)?"""
        g = self.open.get(box)
        return g is not None and any(e == eid for _, _, e in g.items)

    def other_event(self, box, eid=None):
        """Another event of *box* came (id *eid*): its open group is complete unless the
        event is older than the group's busts (a resend: module notes)."""
        g = self.open.get(box)
        if g is None:
            return []
        new = event_order(eid)
        if new is not None and any(event_order(e) is not None and event_order(e) > new
                                   for _, _, e in g.items):
            return []
        return [self.open.pop(box)]

    def status(self, box, st):
        """The box's status: closes its group when it is of the group's hand and
        ``busted`` lists no seat the group lacks."""
        g = self.open.get(box)
        if g is None or not isinstance(st, dict) or st.get("hand") != g.hand:
            return []
        busted = st.get("busted") or []
        if all(s in g.seats() for s in busted):
            g.ties = [list(x) for x in st.get("bust_ties") or [] if isinstance(x, list)]
            return [self.open.pop(box)]
        return []

    def due(self, now):
        """Groups waiting for longer than BUST_WAIT_MS."""
        out = [g for g in self.open.values() if now - g.last >= BUST_WAIT_MS]
        for g in out:
            del self.open[g.box]
        return out


def _seats_text(seats):
    return "seat%s %s" % ("s" if len(seats) > 1 else "", ", ".join(str(s) for s in seats))


def td_out(t, table, seat):
    """The ``take_out`` of *table*, *seat* (the TD entered that seat's player out by hand:
    tdhost.live.acts.bust) whose player the box may still report out, or None: one not
    cancelled, not ``reported`` yet (below) and written since the final table's draw,
    carried out or not (the box answers first, then reports the seat out: ``done`` with
    the chips it took out, or without chips when the hand busted them) -- unless a
    ``receive`` into that seat written after it is done: the seat is someone else's then
    (a take-out is reported before the seat is filled again, or not at all).  Until then a
    bust the box reports at that seat is that player's -- the dealer carrying the take_out
    out, or the hand busting them -- whoever the league has seated there since: expected,
    not news for the TD, and nobody else's bust."""
    rs = list(t.instrs.values())
    start = t.final.get("instrs_before", 0) if t.final else 0
    for i in range(len(rs) - 1, start - 1, -1):
        r = rs[i]
        if r["action"] != "take_out" or r["table"] != table or r["body"].get("seat") != seat:
            continue
        res = _ins.results(r)
        if _ins.cancelled(r) or "reported" in res:
            return None
        if any(x["action"] == "receive" and x["table"] == table
               and x["body"].get("seat") == seat and _ins.state(x) == "done"
               for x in rs[i + 1:]):
            return None
        return r
    return None


def decide(live, g):
    """One same-hand decision from the busts of group *g* (a ``bust`` event, and a
    ``notice`` for seats where the league has nobody still in -- but a seat whose player
    the TD entered out: ``td_out``, a ``reported`` result of that take_out)."""
    src = g.src()
    if all(tuple(s) in live.seen for s in src):
        return
    if g.table is None:
        live.notice("box %s without a table reports busts: ignored" % g.box, src)
        return
    when = live.when()

    def build(t, lg, seq):
        names, chips, lost = {}, {}, []
        taken = []  # the take_outs whose seats this group reports out (td_out)
        for seat, c, _ in g.items:
            r = td_out(t, g.table, seat)
            if r is not None:  # logged as the take_out's: it is reported once
                taken.append(("instr_result", _ins.result(
                    r["id"], "reported", "box", "table %d: seat %d reported out (%s)" % (
                        g.table, seat, r["text"]), None, src), None))
                continue
            name = live.name_at(t, g.table, seat)
            if name is None or t.get(name) is None or t.get(name).state != "in":
                lost.append(seat)
                continue
            names[seat] = name
            if isinstance(c, int) and not isinstance(c, bool) and c >= 1:
                chips[name] = c
        evs = list(taken)
        if lost:
            evs.append(("notice", {"text": "table %d: the box reports %s out, where the "
                                   "league has nobody still in" % (g.table, _seats_text(lost)),
                                   "src": src}, None))
        if not names:
            return evs, []
        seats = [s for s in g.seats() if s in names]
        order = _finishing.showdown_tiers(names, seats, g.ties)
        best_first = [n for tier in order for n in tier]
        p = decide_bust(t, best_first, chips if len(best_first) > 1 else {}, None, None, when,
                        lg, order)
        p.update({"src": src, "table": g.table, "hand": g.hand, "by": "box",
                  "seats": {names[s]: s for s in seats}})
        return [("bust", p, None)] + evs, best_first

    try:
        out = live.write(build)
    except ActionRefused as err:
        live.notice("table %d: the box's bust of %s was not recorded: %s" % (
            g.table, _seats_text(g.seats()), err), src)
        return
    if out:
        after_bust(live, out)


def after_bust(live, names):
    """Players are out: their pending moves and other instructions are off, each withdrawn
    from the box that may still show it (a ``withdraw``: tdhost.live.instructions.cancel_all, in
    one batch with the cancellations); a new plan is due."""
    out = set(names)
    keep = ("withdraw", "take_out")  # a take_out is the TD's bust itself, at the box
    if any(r.get("player") in out and r["action"] not in keep
           for r in _ins.pending(live.t)):
        def build(t, lg, seq):
            rs = [r for r in _ins.pending(t)
                  if r.get("player") in out and r["action"] not in keep]
            return _ins.cancel_all(lg, t, rs, lambda r: "%s is out" % r["player"],
                                   live.boxed), None
        live.write(build)
    live.plan_due = True
    live.plan_bust = True
