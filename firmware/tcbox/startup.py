"""What the box does once, at boot (tcbox.hardware.build): the App and its
adapters from the board's profile, the table restored from the power-loss
record or the default one.  tcbox.hardware drops this module once the box is
built (issue #20: its code is not held while the table runs).
"""


UNREADABLE = "Saved table unreadable: started afresh"


def restore(slots, record):
    """``(table, extra, lost)`` from the newest saved record: (None, None,
    False) on a new box; a record that does not rebuild -- any exception at
    all, a RecursionError or MemoryError included -- starts afresh with
    ``lost`` True, its reason kept in the crash log (tcbox.crashlog)."""
    try:
        rec = slots.load()
        if rec is None:
            if slots.seq is None:  # no record at all: a new box
                return None, None, False
            raise ValueError("Bad record: not JSON")
        table, extra = record.load(rec)
        return table, extra, False
    except Exception as e:  # noqa: BLE001 -- the box must boot, whatever nvm holds
        reason = "%s: %s" % (UNREADABLE, e)
        print(reason)
        try:
            from .crashlog import keep

            keep(reason)
        except Exception:  # noqa: BLE001 -- no nvm log (a test's store)
            pass
        return None, None, True


def build(name, link):
    """The App and its adapters (tcbox.hardware.build, which drops this module after)."""
    import microcontroller

    from tableclock import record
    from tableclock.store import NvmStore
    from tableclock.table import Table, drop_setup_code

    from . import hardware
    from .app import App
    from .crashlog import LOG
    from .defaults import SETUP
    from .screen import Screen

    board = hardware.profile(name)
    d = board["display"]
    screen = Screen(hardware.display(d), d["width"], d["height"])
    ring = hardware.Ring(board["ring"]) if board["ring"] else None
    buzzer = hardware.Buzzer(board["buzzer"]) if board["buzzer"] else None
    slots = record.Slots(NvmStore(microcontroller.nvm, 0, LOG))
    # the App offers the record at each SAVE_EVERY_S mark of the clock; with a
    # slack of a second every such offer writes, so a cut costs at most that
    # much clock (two nvm writes a minute while nothing else happens)
    saver = record.Saver(slots, slack_ms=1000)
    table, extra, lost = restore(slots, record)
    record.drop_loader()
    if table is None:
        table = Table(SETUP)
    drop_setup_code()  # not held while the table runs: tableclock/table.py
    saver.saved(table, extra)
    app = App(table, [k["role"] for k in board["keys"]], screen,
              hardware.KeyScanner(board["keys"]),
              ring=ring, buzzer=buzzer, saver=saver,
              seats_in_ring=board["ring"]["pixels"] if ring else 0, board=board["name"])
    if lost:
        app.menu.note = UNREADABLE
    if link:  # the host (docs/protocol.md): unsent events come back from extra
        from .link.pairing import settings_of, wants_mqtt
        from .usb_link import make as over_usb

        # Wi-Fi/MQTT when the pairing's settings name a network and a broker
        # (docs/mqtt.md), else the USB serial port; a USB box never imports
        # mqtt_link (about 30 KB of heap on the board)
        board = extra.get("p") if isinstance(extra, dict) else None
        part = None
        if wants_mqtt(settings_of(board)[0]):
            from .mqtt_link import make as over_wifi

            part = over_wifi(table, extra)
        if part is None:
            part = over_usb(table, extra)
        if part is not None:
            app.add(part)  # a part of the App (tcbox/app.py HOOKS)
    return app
