"""What the box does with the host's set-up and seating frames (config,
seating, the new table built from them) and its instructions;
the setup a config carries.  The Link's ``_frame`` checks each frame and
hands these here; acks, pairing and withdraws it answers itself.  The clock
sync's pings and pongs: hostclock.py (docs/protocol.md, "Clock sync on the box").
Functions of tcbox/link/box_end.py's Link (their first argument; issue #34: to
become a class of the set-up they own).  Pure: no hardware imports.
"""


from tableclock.fields import SetupError
from tableclock.floor import history_of
from tableclock.hand import REDRAW
from tableclock.protocol import HOST
from tableclock.table import Table, drop_setup_code

from ..presses import ticks_diff
from .events import instruction_event
from .hostclock import clock_toward
from .states import CONFIGURED

# config fields that are the table's setup (docs/replay.md); players and
# button come with seating
SETUP_KEYS = ("profile", "seats", "levels", "chip", "shot_clock", "colour_ups",
              "late_entry_until_level")
_NONE = object()
_ENVELOPE = ("kind", "v", "from", "to", "boot", "seq")


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
    if link.host_boot != msg["boot"] or link.table_no != msg["table"]:
        link.acted_sv = None  # another host run numbers afresh (or another table)
    link.host_boot = msg["boot"]
    link.table_no = msg["table"]
    link.state = CONFIGURED
    link.since = now
    link.last_rx = now
    link.got_seating = link.got_clock = False
    link.sv = None  # a new session (maybe another table): the host's next seating counts
    link.answers.parked = []  # (the host sends its instructions again)
    link.pending_players = None
    link.pending_clock = None
    link.hostclock.again(now)  # sync again at once, fast (the estimator keeps its samples)
    for entry in link.outbox:  # resend at once after a reconnect
        entry[1] = None


def seating(link, msg):
    """The host's seating: the names; before the table's first hand, or after
    a confirmed ``redraw`` (the table's hold REDRAW, tcbox/instructions/at_table.py), a new
    table from its stacks and button, built by ``apply_pending`` once no hand
    runs.  Otherwise play has begun: the table's own seats and chips count.
    A seating older than the one applied (its ``sv``, the table's seating
    version), or not newer than the one a seat instruction carried out here was
    written against (``acted_sv``), came late, overtaken: refused, counted in
    ``stale_seatings``."""
    sv = msg.get("sv")
    if sv is not None and (link.sv is not None and sv < link.sv or link.acted_sv is not None
                           and sv <= link.acted_sv):
        link.stale_seatings += 1  # older than the one applied, or than a seat change carried
        return  # out here (a late copy would rebuild the table as it was before it)
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
    if link.app is not None:
        link.app.take_table(new)
    link.save_due = True
    if link.slew is not None:
        link.slew.pending = 0  # a correction for the old table's clock
    if link.app is not None:
        link.app.changed()


# -- instructions ----------------------------------------------------


def instruction(link, msg, parked=False):
    """An instruction from the host: handed to the app once per id; a
    repeat is answered again (the same result, reason and stack).  A
    ``withdraw`` the record can answer is answered here (``withdrawn``).
    A seat instruction that came before what it was written after is parked
    (``Answers.early``); *parked*: one the link hands on from there."""
    iid = msg["id"]
    r = link.answers.find(iid)
    if r is None and not parked and link.answers.early(msg, link.sv):
        # written against a seating this box has not got (overtaken, or lost), or after
        # a seat change for the same seat that has not come yet: parked until it comes;
        # the status shows the box behind, and the host sends that seating (and this
        # instruction) again (docs/protocol.md "Ordered seatings")
        link.answers.park(msg, link.last_rx)
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
    link.answers.remember(iid, body)
    link.save_due = True
    if link.app is None:
        link.instruction_done(iid, "refused", "this box cannot show instructions")
    elif body.get("action") != "withdraw" or not link.withdrawn(iid, body.get("instr")):
        link.app.instruct(body)
