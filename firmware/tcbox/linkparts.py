"""The pure parts of the box's link (tcbox/link.py uses them):
the link states and timings, the box events between two table states, the
host's clock and config applied to the table, the link's part of the
power-loss record, and the wiring of a Link to tcbox.app.App.  No hardware
imports (docs/protocol.md, "On the box").
"""

import json
from binascii import unhexlify

from tableclock.clocksync import Slew
from tableclock.protocol import MAX_COUNTER

# link states (docs/protocol.md, "Link states")
DISCONNECTED = 0
HELLO_SENT = 1
CONFIGURED = 2
LIVE = 3
STATES = ("disconnected", "hello sent", "configured", "live")
HELLO_MS = 3000  # hello again while no config comes ...
HELLO_FAST = 5  # ... this many times, then every
HELLO_SLOW_MS = 30000

INSTR_KEEP = 8  # answered instructions (the newest) kept in the power-loss record
# the power-loss record holds the table (2.5 KB mid-hand at 10 seats) and this
# link's part in a 3968-byte slot: pairing (~250 B), INSTR_KEEP answered
# instruction ids, pending instructions and the newest events, each bounded
EXTRA_EVENTS_MAX = 512  # bytes of JSON for the events kept in the power-loss record
INSTR_PENDING_MAX = 256  # bytes of JSON for the unconfirmed instructions kept there

INSTR_MAX = 32  # instruction ids remembered with their latest result
CLOCK_SLACK_MS = 500  # the box's clock follows the host's beyond this difference

# box event: its fields after "what", in the order of the outbox's compact lists
EVENT_FIELDS = {
    "hand_started": ("hand", "button"),
    "hand_ended": ("hand", "winners"),
    "bust": ("seat", "chips_start", "hand"),
    "away": ("seat",),
    "back": ("seat",),
    "clock_called": ("seat",),
    "instruction": ("instr", "result", "reason", "stack"),  # stack: 1.2
    "error": ("text",),
}
# config fields that are the table's setup (docs/replay.md); players and
# button come with seating
SETUP_KEYS = ("profile", "seats", "levels", "chip", "shot_clock", "colour_ups",
              "late_entry_until_level")
_NONE = object()


# ----------------------------------------------------------------- events
def _get(d, seat):
    """``d[seat]`` for int- or str-keyed seat maps, else None."""
    if not d:
        return None
    v = d.get(seat)
    if v is None:
        v = d.get(str(seat))
    return v


def events_between(old, new, start=None):
    """The box events between two table states (docs/replay.md's state),
    as compact lists ``[what, field, ...]`` in ``EVENT_FIELDS`` order.

    :param start: the chips at the start of the running (or just ended)
        hand, by seat (``Hand.start``): a bust's ``chips_start``.  Without
        it, the chips before the change.
    """
    out = []
    o_in = old["street"] is not None
    n_in = new["street"] is not None
    oh = old["hand"]
    nh = new["hand"]
    if o_in and (not n_in or nh != oh):
        won = new["winners"] if not n_in and new["winners"] else None
        out.append(["hand_ended", oh, won])
    ob = old["busted"]
    nb = new["busted"]
    for i in range(len(nb)):
        seat = nb[i]
        k = str(seat)
        # a seat out before (the list is the last hand's) whose new player
        # leaves it is no bust: only a seat newly on the list is (once)
        if k in old["stacks"] and k not in new["stacks"] and nb.count(seat) > ob.count(seat) \
                and seat not in nb[:i]:
            chips = _get(start, seat) if o_in else None
            if chips is None:
                chips = old["stacks"][k]
            out.append(["bust", seat, chips, oh if o_in else None])
    if n_in and nh != oh:
        out.append(["hand_started", nh, new["button"]])
    oa = old["away"]
    na = new["away"]
    for seat in na:
        if seat not in oa:
            out.append(["away", seat])
    for seat in oa:
        if seat not in na and str(seat) in new["stacks"]:
            out.append(["back", seat])
    actor = new["action"]
    if new["shot_clock"] is not None and actor is not None and (
            old["shot_clock"] is None or old["action"] != actor):
        out.append(["clock_called", actor])
    return out


def instruction_event(iid, result, reason, stack=None):
    """The outbox list of an ``instruction`` box event: ``stack`` (1.2) only
    when there is one, so the record's events are as short as before."""
    ev = ["instruction", iid, result, reason]
    if stack is not None:
        ev.append(stack)
    return ev


def event_message(ev):
    """The ``event`` message of an outbox entry ``[id, what, field, ...]``."""
    msg = {"kind": "event", "id": ev[0], "what": ev[1]}
    names = EVENT_FIELDS[ev[1]]
    for i in range(len(names)):
        if i + 2 < len(ev) and ev[i + 2] is not None:
            msg[names[i]] = ev[i + 2]
    return msg


# ------------------------------------------------------------------ clock
def clock_toward(clock, index, ms_left, paused, slack=CLOCK_SLACK_MS, slew=None, now=None,
                 at=None):
    """Bring a LevelClock to the host's reading (level index, ms left,
    paused).  Without *slew*, differences up to *slack* ms are left alone
    (no jitter on screen) and larger ones are set at once.  With a
    tableclock.clocksync.Slew and the box tick *now*, the reading (as of
    box tick *at*, default *now*: it is aged by the ms between) is followed:
    a level change, a pause/resume or a large error is set at once and a
    small one is spread over the next seconds (``slew.step`` in ``tick``).
    Returns True when the clock changed on screen; False also for an index
    this clock does not have."""
    if not 0 <= index < len(clock.levels):
        return False
    if slew is not None and now is not None:
        return slew.toward(clock, index, ms_left, paused, now if at is None else at, now)
    changed = False
    if clock.paused != paused:
        clock.paused = paused
        changed = True
    if clock.index != index:
        clock.index = index
        clock.left_ms = ms_left
        return True
    d = clock.left_ms - ms_left
    if d > slack or -d > slack:
        clock.left_ms = ms_left
        changed = True
    return changed


def slew_of(link):
    """The link's Slew (made on first use)."""
    slew = getattr(link, "slew", None)
    if slew is None:
        slew = link.slew = Slew()
    return slew


# ------------------------------------------------------------------- setup
def setup_of(config):
    """The table setup fields of a ``config`` message."""
    out = {}
    for k in SETUP_KEYS:
        if k in config:
            out[k] = config[k]
    return out


def same_setup(a, b):
    for k in SETUP_KEYS:
        if a.get(k, _NONE) != b.get(k, _NONE):
            return False
    return True


def players_of(stacks):
    """A table's stacks as a setup's players map (seat numbers as text)."""
    out = {}
    for seat in stacks:
        out[str(seat)] = stacks[seat]
    return out


# ------------------------------------------------------------ wiring to App
class SavesExtra:
    """tcbox.app.App's saver with the link's part of the record: before each
    save the link sees the table's state (so the box events of a change go
    into the same write as the change), then ``extra()`` goes with the table."""

    def __init__(self, saver, link):
        self.saver = saver
        self.link = link
        self.seen = None  # the fingerprint of the table last observed

    def offer(self, table, extra=None):
        # The table's state (4 KB of dicts) only when the table changed, not for
        # the clock's saves every 30 s: the record's fingerprint without the
        # clocks' times tells (issue #20: an idle offer allocated 6.6 KB)
        fp = self.saver.fingerprint(table)
        if fp != self.seen:
            self.seen = fp
            self.link.observe(table.state())
        return self.saver.offer(table, self.link.extra())

    def saved(self, table, extra=None):
        return self.saver.saved(table, extra)


def attach(app, link):
    """Wire *link* to a tcbox.app.App without changing it: the app's saver
    keeps the link's record part, a new table from the host replaces the
    app's, a clock change redraws, instructions go to ``app.instruct`` and
    the dealer's Confirm (``app.on_ack``) becomes an ``acknowledged``
    instruction event, and what the box made of it (``app.on_result(id,
    result, reason, stack)``: done, refused with a reason, acknowledged
    until the hand ends; the stack of a player moved out) the instruction
    event with that result; each redraw's state goes to ``link.observe``
    (``app.on_state``).  Then call ``tick(app, link, now)`` after each
    ``app.step(now)``."""
    if app.saver is not None and not isinstance(app.saver, SavesExtra):
        app.saver = SavesExtra(app.saver, link)

    def new_table(table):
        app.table = table
        app.state = None
        app.level_key = None
        app.dirty = True
        app.save()

    def changed():
        app.dirty = True

    def confirmed(iid):
        link.instruction_done(iid, "acknowledged")

    link.on_table = new_table
    link.on_change = changed
    if getattr(app, "instruct", None) is not None:
        link.on_instruction = app.instruct
    if hasattr(app, "on_ack"):
        app.on_ack = confirmed  # the dealer's Confirm: the instruction event
    if hasattr(app, "on_result"):
        app.on_result = link.instruction_done  # what became of it (tcbox/instructions/effects.py)
    if hasattr(app, "on_state"):
        app.on_state = link.observe  # each redraw's state, as tick would after the step
    return link


def tick(app, link, now):
    """The link's share of one loop iteration (after ``app.step(now)``)."""
    link.poll(now)
    slew = getattr(link, "slew", None)
    if slew is not None and link.table is not None:
        slew.step(link.table.clock, now)  # a small error worked off: up to 10% fast or slow
    st = app.state
    if st is not None and st is not link.last_state:
        link.observe(st)  # events of changes no save followed
    text = link.info_text()
    if app.info.get("link") != text or app.info.get("table") != link.table_no:
        app.info["link"] = text
        app.info["table"] = link.table_no
        app.dirty = True
    if link.save_due:
        link.save_due = False
        app.save()


# ------------------------------------------------------- Wi-Fi settings
def settings_of(pairing):
    """(settings, event topic name) of a pairing (``Link.pairing``, the
    record's ``extra["p"]``): the event is ``settings["mqtt_event"]``, else
    the key id.  (None, None) without settings."""
    if not isinstance(pairing, dict):
        return None, None
    settings = pairing.get("settings")
    if not isinstance(settings, dict):
        return None, None
    return settings, settings.get("mqtt_event") or pairing.get("key_id")


def wants_mqtt(settings):
    """True when *settings* name a Wi-Fi network and an MQTT broker."""
    return (isinstance(settings, dict) and isinstance(settings.get("wifi_ssid"), str)
            and isinstance(settings.get("mqtt_host"), str) and bool(settings["wifi_ssid"])
            and bool(settings["mqtt_host"]))


# ------------------------------------------------- the power-loss record
def _stack(r):
    """The stack kept in an answered instruction record *r*: an int for a
    ``done``, else None."""
    v = r[3]
    if r[1] == "done" and isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    return None


def record_of(link):
    """*link*'s part of the power-loss record (JSON-ready, no times:
    it changes only when something worth a write changed)."""
    keep = []
    room = EXTRA_EVENTS_MAX
    for i in range(len(link.outbox) - 1, -1, -1):
        e = link.outbox[i]
        room -= e[2]
        if room < 0:
            break
        keep.append(e[0])
    keep.reverse()
    instrs = []
    finals = 0
    room = INSTR_PENDING_MAX
    for i in range(len(link.instrs) - 1, -1, -1):
        r = link.instrs[i]
        if r[1] is None:  # not confirmed yet: shown again after a restart
            if r[3] is None:
                continue
            room -= len(json.dumps(r[3]))
            if room < 0:
                continue  # the host resends it until it is acknowledged
        else:
            finals += 1
            if finals > INSTR_KEEP:
                continue
            r = [r[0], r[1], None, _stack(r)]  # the stack answered again after a cut
        instrs.append(r)
    instrs.reverse()
    d = {"b": link.boot, "o": keep, "i": instrs}
    if link.pairing is not None:
        d["p"] = link.pairing
    if link.table_no is not None:
        d["t"] = link.table_no
    return d


def restore_record(link, extra):
    """Start *link* from the record's *extra* (None: a new box): the boot
    counter moves on by one (so save at once: ``extra()`` changed), and
    unsent events, pending instructions and the pairing come back.  A
    damaged part is ignored."""
    boot = 0
    if isinstance(extra, dict):
        b = extra.get("b")
        if isinstance(b, int) and not isinstance(b, bool) and 0 <= b < MAX_COUNTER:
            boot = b + 1
        for part in ("p", "t", "o", "i"):
            try:
                _restore_part(link, part, extra.get(part))
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                pass
    link.boot = boot
    link.tx.boot = boot
    link.tx.seq = 0
    link.n = 0
    link.save_due = True


def _restore_part(link, part, v):
    if part == "p" and isinstance(v, dict):
        key = unhexlify(v["key"])
        if len(key) >= 16:
            link._set_key(key, v["key_id"])
            link.pairing = v
    elif part == "t" and isinstance(v, int):
        link.table_no = v
    elif part == "o" and isinstance(v, list):
        for ev in v:
            if isinstance(ev, list) and len(ev) >= 2 and ev[1] in EVENT_FIELDS:
                link._keep(ev)
    elif part == "i" and isinstance(v, list):
        for r in v:
            if not isinstance(r, list) or len(r) != 4:
                continue
            if r[1] is None:
                if not isinstance(r[3], dict):
                    continue  # a resend from the host will bring it
                link.rehand.append(r[3])
            else:
                r[3] = _stack(r)  # answered: a done move_out's stack or nothing
            link.instrs.append(r)
