"""Runs once at power-up, before code.py: USB for the data link.

The ESP32-S3 has five USB IN endpoints and CircuitPython's defaults (the
serial console, the CIRCUITPY drive, HID and MIDI) use them all, so the
second serial port the host talks to (``usb_cdc.data``) costs something: we
give up HID and MIDI, which a table box never uses, and keep the console
(logs, the REPL for a technician) and the drive (firmware updates by copying
files).  The table state is kept in ``microcontroller.nvm`` (tcbox/hardware.py),
so the drive stays writable by the computer and nothing is remounted.

Rescue: hold the box's confirm key (compact: the middle key "ok", D1; table
build: "hand", A0) while plugging in, and boot.py changes nothing -- the
factory USB set-up returns, whatever a bad configuration did.  A box with no
profile for its board also changes nothing.
"""

import board
import digitalio

from tcbox.boards import BOARDS


def rescue_held():
    """Is the profile's confirm key held down now?"""
    for profile in BOARDS.values():
        if profile["board_id"] != board.board_id:
            continue
        for k in profile["keys"]:
            if k["role"] in ("ok", "hand"):
                pin = digitalio.DigitalInOut(getattr(board, k["pin"]))
                pin.switch_to_input(digitalio.Pull.UP if k["pull"] == "up" else digitalio.Pull.DOWN)
                down = pin.value is not k["active_low"]
                pin.deinit()
                return down
    return True  # unknown board: leave USB alone


if not rescue_held():
    import usb_cdc
    import usb_hid
    import usb_midi

    usb_hid.disable()
    usb_midi.disable()
    usb_cdc.enable(console=True, data=True)
