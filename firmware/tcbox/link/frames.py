"""What the box does with the host's frames (``frame``): config, seating,
clock, instructions, acks, pairing; and its clock sync (docs/protocol.md,
"Clock sync on the box"); the setup a config carries.  Functions of
tcbox/link/box_end.py's Link (their first argument).  Pure: no hardware imports.
"""

import json
from binascii import unhexlify

from tableclock.canonjson import ProtocolError, parse
from tableclock.fields import SetupError
from tableclock.floor import history_of
from tableclock.hand import REDRAW
from tableclock.protocol import HOST, Stale, decode
from tableclock.table import Table, drop_setup_code

from ..presses import ticks_diff
from .events import instruction_event
from .hostclock import clock_toward, slew_of
from .states import CONFIGURED, HELLO_FAST, LIVE

INSTR_MAX = 32  # instruction ids remembered with their latest result
PARKED_MAX = 8  # seat instructions waiting for the seating they were written against
PARK_MS = 30000  # ... at most this long: then shown anyway (its name checked as it stands)
# config fields that are the table's setup (docs/replay.md); players and
# button come with seating
SETUP_KEYS = ("profile", "seats", "levels", "chip", "shot_clock", "colour_ups",
              "late_entry_until_level")
_NONE = object()
_ENVELOPE = ("kind", "v", "from", "to", "boot", "seq")
PAIR_MAX = 448  # bytes of JSON: the pairing (key, table, event, settings) in the record
_MASK = (1 << 29) - 1  # box ticks wrap at 2**29

# clock sync (docs/protocol.md "Clock sync on the box"), all in ms
PING_FAST_MS = 1000  # after each config: a ping a second ...
PING_FAST = 4  # ... until this many pongs came ...
PING_FAST_MAX = 6  # ... or this many pings went
PING_MS = 8000  # then one every 8 s
PING_DEAF = 6  # unanswered pings in a row: a 1.0 host (it does not answer a box) ...
PING_DEAF_MS = 60000  # ... is asked only once a minute
PONG_MAX_MS = 4000  # a pong this long after its ping is no sample (a stray or a stall)
READING_AHEAD_MS = 10000  # a clock read this far after "now" (host time) ...
READING_AGE_MS = 6 * 3600 * 1000  # ... or this long before it: another clock; taken as of now


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


def fresh_config(link, line):
    """A Stale frame that is a config echoing this hello's nonce is
    fresh anyway (the host lost its boot counter): start its window
    again.  Anything else stays refused."""
    if link.nonce is None or line.find(b'"kind":"config"', 0, 40) < 0:
        return None
    link.ops += 1
    try:
        msg = decode(line, link.key, link.box_id)
    except ProtocolError:
        return None
    if msg["kind"] != "config" or link.nonce is None or msg.get("nonce") != link.nonce:
        return None
    link.rx.forget(HOST)
    link.rx.stale -= 1
    return link.rx.accept(line)


def config(link, msg, now):
    link.rx.pin(HOST, msg["boot"], msg["seq"])
    setup = setup_of(msg)
    table = link.table
    if table is not None and same_setup(setup, table.setup):
        link.pending_setup = None
    else:
        probe = dict(setup)  # the config's own fields, checked by the rules
        probe["players"] = {"1": 1, "2": 1}
        probe["button"] = 1
        try:
            Table(probe)
        except (SetupError, ValueError, TypeError, KeyError) as e:
            link.error("config refused: %s" % e)
            return
        link.pending_setup = setup
    link.host_boot = msg["boot"]
    link.table_no = msg["table"]
    link.state = CONFIGURED
    link.since = now
    link.last_rx = now
    link.got_seating = link.got_clock = False
    link.sv = None  # a new session (maybe another table): the host's next seating counts
    link.parked = []  # (the host sends its instructions again)
    link.pending_players = None
    link.pending_clock = None
    link.ping_at = now  # sync again at once, fast (the estimator keeps its samples)
    link.pings = link.pongs = link.unanswered = 0
    for entry in link.outbox:  # resend at once after a reconnect
        entry[1] = None


def seating(link, msg):
    """The host's seating: the names; before the table's first hand, or after
    a confirmed ``redraw`` (the table's hold REDRAW, tcbox/instructions/at_table.py), a new
    table from its stacks and button, built by ``apply_pending`` once no hand
    runs.  Otherwise play has begun: the table's own seats and chips count.
    A seating older than the one applied (its ``sv``, the table's seating
    version) came late, overtaken: refused, counted in ``stale_seatings``."""
    sv = msg.get("sv")
    if sv is not None and link.sv is not None and sv < link.sv:
        link.stale_seatings += 1
        return
    link.got_seating = True
    link.names = msg["names"]
    if sv is not None and sv != link.sv:
        link.sv = sv  # the next status says it (the host sends a newer one when behind)
        link.status_due = True
    stacks = msg.get("stacks")
    table = link.table
    button = msg.get("button")
    if msg.get("keep") is True and table is not None and (
            link.pending_setup is None or same_setup(link.pending_setup, table.setup)):
        # US 2's re-draw: the table's own players and chips, the host's button
        # (its stacks are a status that may predate a player sitting down:
        # the scale drill lost a mover's chips that way; docs/protocol.md).
        # A box without a table (a spare) builds one from the stacks below.
        if table.hold == REDRAW and button is not None:
            link.pending_setup = setup_of(table.setup)
            link.pending_players = (None, button, None)
        return
    history = msg.get("history")  # what the players bring from other tables
    if link.pending_setup is not None:
        link.pending_players = (stacks, button, history)
        return
    if table is None or not stacks:
        return
    redraw = table.hold == REDRAW
    if not redraw and (table.hands or table.hand is not None):
        return  # play has begun: the table's own chips count
    want = {}
    try:
        for k in stacks:
            want[int(k)] = stacks[k]
    except ValueError:
        return
    if redraw and len(want) < 2:
        return  # no final table to build: wait for one
    if redraw or want != table.stacks or (button is not None and button != table.first_button):
        link.pending_setup = setup_of(table.setup)
        link.pending_players = (stacks, button, history)


def apply_pending(link, now):
    """Build the new table once the setup and the seating are both
    here and no hand is running.  With the same setup the new table's
    clock goes on from the old one's (level, ms left, paused) until the
    host's next ``clock``."""
    if link.pending_setup is None or link.pending_players is None:
        return
    table = link.table
    if table is not None and (table.hand is not None or table.moves):
        return  # (changes waiting for the hand's end go first)
    stacks, button, history = link.pending_players
    setup = dict(link.pending_setup)
    if stacks and len(stacks) >= 2:
        setup["players"] = stacks
        if isinstance(history, dict):
            setup["history"] = history
    elif table is not None:
        if stacks is None and len(table.stacks) < 2:
            return  # a re-draw (``keep``) waits for two players
        setup["players"] = players_of(table.stacks)
        # its own players again: each keeps their warnings, penalties and LPPL ¶72's
        # allowance (docs/rules.md §14)
        setup["history"] = history_of(table)
        if button is not None and button not in table.stacks:
            button = None  # the drawn button's player has left: the first seat
    players = setup.get("players")
    if button is None and isinstance(players, dict) and players:
        if table is not None and str(table.first_button) in players:
            button = table.first_button
        else:
            for k in players:
                seat = int(k) if k.isdigit() else 0
                if seat and (button is None or seat < button):
                    button = seat
    setup["button"] = button
    link.pending_setup = link.pending_players = None
    try:
        new = Table(setup)
    except (SetupError, ValueError, TypeError, KeyError, AttributeError) as e:
        link.error("seating refused: %s" % e)
        return
    finally:
        drop_setup_code()  # not held while the table runs: tableclock/table.py
    if link.pending_clock is not None:
        msg, at = link.pending_clock
        link.pending_clock = None
        left = msg["ms_left"]
        if not msg["paused"]:
            left = max(0, left - ticks_diff(now, at))
        clock_toward(new.clock, msg["level_index"], left, msg["paused"])
    elif table is not None and same_setup(setup, table.setup):
        clock = table.clock  # the table's clock goes on
        clock_toward(new.clock, clock.index, clock.left_ms, clock.paused, 0)
    if table is not None and same_setup(setup, table.setup):
        # the same night at the same table (a re-draw): the chips that left play here
        # before it still did (the scale drill's chip count lost them on every re-draw)
        new.removed = table.removed
    link.table = new
    link.last_state = None
    if link.on_table is not None:
        link.on_table(new)
    link.save_due = True
    seat = getattr(link, "slew", None)
    if seat is not None:
        seat.pending = 0  # a correction for the old table's clock
    changed(link)


def clock(link, msg, now):
    link.got_clock = True
    at = reading_at(link, msg["host_ms"], now)
    if link.pending_setup is not None:
        link.pending_clock = (msg, at)
        return
    if link.table is not None and clock_toward(link.table.clock, msg["level_index"],
                                               msg["ms_left"], msg["paused"],
                                               slew=slew_of(link), now=now, at=at):
        changed(link)


def reading_at(link, host_ms, now):
    """The box tick at which the host read its clock at *host_ms* (its Unix
    ms), from the offset estimate; *now* (as of its arrival) while there is
    no estimate or when *host_ms* is implausible (more than 10 s ahead of
    the host's time now, or more than 6 h behind it: counted in
    ``link.odd_clocks``)."""
    est = link.sync
    host_now = est.host_at(now)
    if host_now is None:
        return now
    age = host_now - host_ms
    if age < -READING_AHEAD_MS or age > READING_AGE_MS:
        link.odd_clocks += 1
        return now
    return (now - age) & _MASK


def ping(link, now):
    """The box's ``ping`` message when one is due (CONFIGURED or LIVE), else
    None: at once after a config, then every second until PING_FAST pongs
    came (at most PING_FAST_MAX pings), then every 8 s; once a minute after
    PING_DEAF unanswered in a row.  ``t`` is the box tick *now*."""
    if link.state < CONFIGURED or ticks_diff(now, link.ping_at) < 0:
        return None
    link.pings += 1
    link.unanswered += 1
    if link.unanswered > PING_DEAF:
        wait = PING_DEAF_MS
    elif link.pongs < PING_FAST and link.pings < PING_FAST_MAX:
        wait = PING_FAST_MS
    else:
        wait = PING_MS
    link.ping_at = (now + wait) & _MASK
    return {"kind": "ping", "t": now}


def pong(link, msg, now):
    """A ``pong`` from the host (1.1: with host_ms): one round-trip sample
    for the offset estimator.  Ignored before a config (a replay from an
    earlier boot could carry any time), without ``t``/``host_ms``, or more
    than PONG_MAX_MS after its ping."""
    t = msg.get("t")
    host_ms = msg.get("host_ms")
    if link.state < CONFIGURED or t is None or host_ms is None:
        return
    rtt = ticks_diff(now, t)
    if rtt < 0 or rtt > PONG_MAX_MS:
        link.sync.refused += 1
        return
    link.pongs += 1
    link.unanswered = 0
    link.sync.add(t, host_ms, now)


def changed(link):
    if link.on_change is not None:
        link.on_change()

# -- instructions ----------------------------------------------------


def instr(link, iid):
    for r in link.instrs:
        if r[0] == iid:
            return r
    return None


def remember(link, iid, body):
    if len(link.instrs) >= INSTR_MAX:
        gone = link.instrs[0]
        for r in link.instrs:
            if r[1] in ("done", "refused"):
                gone = r
                break
        link.instrs.remove(gone)
    r = [iid, None, None, body]
    link.instrs.append(r)
    return r


def instruction(link, msg, parked=False):
    """An instruction from the host: handed to the app once per id; a
    repeat is answered again (the same result, reason and stack).  A
    ``withdraw`` the record can answer is answered here (``withdrawn``).
    A seat instruction that came early is parked (``Link.early_for``);
    *parked*: one the link hands on from there."""
    iid = msg["id"]
    r = instr(link, iid)
    if r is None and not parked and link.early_for(msg):
        # written against a seating this box has not got (overtaken, or lost), or after
        # a seat change for the same seat that has not come yet: parked until it comes;
        # the status shows the box behind, and the host sends that seating (and this
        # instruction) again (docs/protocol.md "Ordered seatings")
        for m in link.parked:
            if m[0]["id"] == iid:
                return
        if len(link.parked) >= PARKED_MAX:
            link.parked.pop(0)  # the host resends it
        link.parked.append([msg, link.last_rx])  # (when it came: PARK_MS at most)
        link.early += 1
        link.status_due = True
        return
    if r is not None:  # a repeat: never carried out twice
        if r[1] is not None:
            for e in link.outbox:
                ev = e[0]
                if ev[1] == "instruction" and ev[2] == iid and ev[3] == r[1]:
                    return  # its answer is on its way
            stack = r[3] if r[1] == "done" and isinstance(r[3], int) else None
            link.event(instruction_event(iid, r[1], r[2], stack))
        return
    body = {}
    for k in msg:
        if k not in _ENVELOPE:
            body[k] = msg[k]
    body["kind"] = "instruction"
    remember(link, iid, body)
    link.save_due = True
    if link.on_instruction is None:
        link.instruction_done(iid, "refused", "this box cannot show instructions")
    elif body.get("action") != "withdraw" or not withdrawn(link, iid, body.get("instr")):
        link.on_instruction(body)


def withdrawn(link, wid, x):
    """Withdraw *wid* of instruction *x*, answered from the link's record
    when it can be (True): *x* unknown (remembered as refused, so the
    original arriving late is a repeat and never shown: the withdraw
    ``done``), already answered (``done``: the withdraw ``refused``
    "already carried out"; ``refused``: nothing to call off, ``done``) or
    restored after a power cut but not handed to the app yet (taken back,
    ``refused`` "withdrawn by the host").  False: the app has it (on
    screen, waiting, or in the table's ``moves``): tcbox/app.py
    ``withdraw``."""
    from ..instructions.at_table import CARRIED_OUT, WITHDRAWN  # loaded at the first (pending.py)

    r = instr(link, x)
    if r is None:
        r = remember(link, x, None)
        r[1] = "refused"
        r[2] = WITHDRAWN
        link.instruction_done(wid, "done")
        return True
    if r[1] == "done":
        link.instruction_done(wid, "refused", CARRIED_OUT)
        return True
    if r[1] == "refused":
        link.instruction_done(wid, "done")
        return True
    if r[1] is None and r[3] in link.rehand:
        link.rehand.remove(r[3])
        link.instruction_done(x, "refused", WITHDRAWN)
        link.instruction_done(wid, "done")
        return True
    return False

# -- pairing ---------------------------------------------------------


def pair(link, line, now):
    """A pair frame: signed with the key it carries (the USB cable is
    the trust); the box takes the key, the table and the settings."""
    link.ops += 1
    try:
        env = parse(line)
        hexkey = env["body"]["key"]
        key = unhexlify(hexkey)
        msg = decode(line, key, link.box_id)
    except (ProtocolError, ValueError, TypeError, KeyError):
        link.refused_pairs += 1
        return
    if msg["kind"] != "pair" or not 16 <= len(key) <= 64:
        link.refused_pairs += 1
        return
    pairing = {"key": hexkey, "key_id": msg["key_id"], "table": msg["table"]}
    for k in ("event", "settings", "keys"):
        if k in msg:
            pairing[k] = msg[k]
    if len(json.dumps(pairing)) > PAIR_MAX:  # it must fit the power-loss record
        link.refused_pairs += 1
        return
    link.frames_in += 1
    link.pairing = pairing
    link._set_key(key, msg["key_id"])
    link.rx.pin(HOST, msg["boot"], msg["seq"])
    link.table_no = msg["table"]
    link.host_boot = None
    link.save_due = True
    link._hello_again(now)  # the host sees the pairing in a hello with the new key


def frame(link, line, now):
    """One line from the host: checked, then handled by its kind."""
    if not line:
        return
    if line[:6] != b'{"v":"':
        link.garbage += 1
        return
    if line.find(b'"kind":"pair"', 0, 40) > 0:
        pair(link, line, now)
        return
    link.ops += 1
    try:
        msg = link.rx.accept(line)
    except Stale:
        msg = fresh_config(link, line)
    except ProtocolError:
        return
    if msg is None:
        return
    link.frames_in += 1
    kind = msg["kind"]
    if not link.paired and kind != "ping":
        return  # the unpaired key authenticates nothing
    if kind == "config":
        if msg.get("nonce") == link.nonce and link.nonce is not None:
            config(link, msg, now)
        return
    if link.state >= CONFIGURED:
        if link.host_boot is not None and msg["boot"] > link.host_boot:
            link._hello_again(now)  # the host restarted: it must know us again
        else:
            link.last_rx = now
    elif link.hello_tries >= HELLO_FAST:  # slow hellos, yet a host is there: at once
        link.hello_at = now
    if kind == "ping":
        link.pong = msg.get("t", -1)
        return
    if kind == "pong":
        pong(link, msg, now)
        return
    if kind == "ack":  # safe in any state: ids the host really has
        ack(link, msg["ids"])
        return
    if link.state < CONFIGURED:
        return  # older than this hello, maybe: only config, ping and ack count
    if kind == "seating":
        seating(link, msg)
    elif kind == "clock":
        clock(link, msg, now)
    elif kind == "instruction" and link.state == LIVE:
        instruction(link, msg)
    if link.state == CONFIGURED and link.got_seating and link.got_clock:
        link.state = LIVE
        link.since = now
        link.status_due = True
        link.status_at = None


def ack(link, ids):
    """The host has the events *ids*: out of the outbox."""
    i = 0
    while i < len(link.outbox):
        if link.outbox[i][0][0] in ids:
            link.outbox.pop(i)
        else:
            i += 1
