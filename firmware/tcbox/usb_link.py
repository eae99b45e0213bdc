"""The hardware side of the USB serial link: the port, the box id.

``boot.py`` enables ``usb_cdc.data`` (a second, binary serial port); without
it (the rescue key held at power-up, a board that refused) the link falls
back to the console port, where the box's prints are counted as garbage by
the host.  Both default to blocking reads and writes: here they become
non-blocking (``timeout=0``) with a 10 ms write timeout, so a computer that
stops reading costs the loop at most that per poll.

    from tcbox import usb_link
    link = usb_link.make(table, extra)   # None when the board has no USB serial

tcbox/link/box_end.py does all the rest and never imports hardware.
"""

from binascii import hexlify

from .link.box_end import Link

WRITE_TIMEOUT = 0.01  # float: usb_cdc write_timeout, in seconds


def port():
    """usb_cdc.data, else usb_cdc.console, made non-blocking; None when
    neither exists."""
    import usb_cdc

    port = usb_cdc.data
    if port is None:
        port = usb_cdc.console
    if port is None:
        return None
    port.timeout = 0
    port.write_timeout = WRITE_TIMEOUT
    return port


def box_id():
    """``tc-`` and the last 12 hex digits of the chip's unique id."""
    import microcontroller

    uid = str(hexlify(bytes(microcontroller.cpu.uid)), "ascii")
    return "tc-" + uid[-12:]


def make(table, extra=None):
    """The box's Link on its USB port, restored from the record's *extra*
    (then save: the boot counter moved on), or None without a port."""
    usb_port = port()
    if usb_port is None:
        return None
    link = Link(usb_port, box_id(), table)
    link.restore(extra)
    return link
