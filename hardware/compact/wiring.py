"""Wiring diagram of the compact box -> wiring.png beside this file.

Everything is on the Adafruit ESP32-S3 Reverse TFT Feather itself: the
diagram shows what the firmware relies on (tcbox/boards.py "compact"), so a
builder knows there is nothing to solder and which pins are taken.

Run: .venv/bin/python hardware/compact/wiring.py   (or `make hardware-diagrams`)
"""

import os

import matplotlib

matplotlib.use("Agg")

import schemdraw  # noqa: E402
import schemdraw.elements as elm  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "wiring.png")

# schemdraw lists left/right pins from the bottom up: give them top-down here.
RIGHT = (("D0", "D0 / BOOT  (GPIO0)"), ("D1", "D1  (GPIO1)"), ("D2", "D2  (GPIO2)"))
LEFT = (
    ("SPI", "SCK 36, MOSI 35"),
    ("CS", "TFT_CS  (GPIO42)"),
    ("DC", "TFT_DC  (GPIO40)"),
    ("RST", "TFT_RESET  (GPIO41)"),
    ("BL", "TFT_BACKLIGHT  (GPIO45)"),
)
KEYS = (  # pin anchor, role, rail the key closes to
    ("D0", "left", "GND"),
    ("D1", "ok", "3V3"),
    ("D2", "right", "3V3"),
)


def main():
    schemdraw.config(fontsize=13, lw=1.6, unit=2.5, margin=0.6)
    with schemdraw.Drawing(file=OUT, show=False, dpi=140) as d:
        pins = [elm.IcPin(name=t, side="right", anchorname=a) for a, t in reversed(RIGHT)]
        pins += [elm.IcPin(name=t, side="left", anchorname=a) for a, t in reversed(LEFT)]
        pins.append(elm.IcPin(name="USB-C", side="bottom", anchorname="USB"))
        mcu = d.add(
            elm.Ic(pins=pins, pinspacing=1.6, edgepadH=1.0, size=(15, 9.6)).label(
                "ESP32-S3 Reverse TFT Feather\nAdafruit 5691", loc="center", fontsize=15
            )
        )
        # The three front keys, as the board wires them.
        for anchor, role, rail in KEYS:
            d.add(elm.Line().right(1.2).at(getattr(mcu, anchor)))
            d.add(elm.Button().right().label("key '%s'" % role, loc="top"))
            d.add(elm.Line().right(0.6))
            d.add(elm.Dot(open=True).label(rail, loc="right"))
        x_note = mcu.D2[0] + 1.2
        d.add(
            elm.Label().at((x_note, mcu.D2[1] - 1.3)).label(
                "D0 (= BOOT): pull-up, pressed = LOW\n"
                "D1, D2: pull-down, pressed = HIGH\n"
                "(internal pulls, set by the firmware)   ",
                fontsize=11, halign="left", valign="top",
            )
        )
        # The built-in display on the left.
        x_lcd = mcu.CS[0] - 7.0
        lcd_pins = [elm.IcPin(name=a, side="right", anchorname=a) for a, _ in reversed(LEFT)]
        lcd = d.add(
            elm.Ic(pins=lcd_pins, pinspacing=1.6, edgepadH=1.0, size=(5.2, 9.6))
            .label("ST7789\n1.14in TFT\n240 x 135\n\nboard.DISPLAY\nSPI 40 MHz", loc="center",
                   fontsize=12)
            .anchor("CS")
            .at((x_lcd, mcu.CS[1]))
        )
        for a, _ in LEFT:
            d.add(elm.Wire("-").at(getattr(lcd, a)).to(getattr(mcu, a)))
        # USB to the host or a USB power supply.
        d.add(elm.Line().down(1.0).at(mcu.USB))
        d.add(
            elm.Label().label(
                "USB-C cable: power, CIRCUITPY drive, console and\n"
                "the usb_cdc data port to the host",
                loc="bottom", fontsize=11,
            )
        )
        top = mcu.SPI[1] + 2.6
        d.add(
            elm.Label().at((x_lcd - 5.2, top)).label(
                "Compact box: every part is on the board, nothing to wire "
                "(tcbox/boards.py 'compact')",
                fontsize=15, halign="left",
            )
        )


if __name__ == "__main__":
    main()
