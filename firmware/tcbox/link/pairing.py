"""The link's wiring to tcbox.app.App (``attach``, then ``tick`` each loop), and which link
a pairing's settings ask for (Wi-Fi and MQTT, or the USB cable).  No hardware imports.
"""

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
        app.on_result = link.instruction_done  # what became of it (tcbox/instructions/at_table.py)
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
