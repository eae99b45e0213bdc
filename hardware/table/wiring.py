"""Wiring diagram of the table box -> wiring.png beside this file.

Adafruit ESP32-S3 Feather (5477) plugged into the 3.5in TFT FeatherWing
(3651), five arcade buttons to GND, ten NeoPixels (one per seat) behind a
74AHCT125 buffer, a PS1240 piezo.  Pins follow tcbox/boards.py "table";
hardware/table/pinmap.md says why each pin was chosen.

Run: .venv/bin/python hardware/table/wiring.py   (or `make hardware-diagrams`)
"""

import os

import matplotlib

matplotlib.use("Agg")

import schemdraw  # noqa: E402
import schemdraw.elements as elm  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "wiring.png")

# Top-down order (schemdraw lists left/right pins from the bottom up).
WING = (  # anchor, Feather pin label, FeatherWing pin label
    ("SCK", "SCK  (GPIO36)", "SCK"),
    ("MOSI", "MOSI  (GPIO35)", "MOSI"),
    ("MISO", "MISO  (GPIO37)", "MISO"),
    ("D9", "D9  (GPIO9)", "TFT_CS"),
    ("D10", "D10  (GPIO10)", "TFT_DC"),
    ("D6", "D6  (GPIO6)", "RT (touch CS, unused)"),
    ("D5", "D5  (GPIO5)", "SD_CS (unused)"),
    ("V3", "3V", "3V"),
    ("GNDL", "GND", "GND"),
)
RIGHT = (
    ("A0", "A0  (GPIO18)"),
    ("A1", "A1  (GPIO17)"),
    ("A2", "A2  (GPIO16)"),
    ("A3", "A3  (GPIO15)"),
    ("A4", "A4  (GPIO14)"),
    ("D11", "D11  (GPIO11)"),
    ("D12", "D12  (GPIO12)"),
    ("USB", "USB  (5 V from USB-C)"),
    ("GNDR", "GND"),
)
KEYS = (  # anchor, role, suggested button
    ("A0", "hand", "blue 30 mm, Adafruit 3490"),
    ("A1", "call", "green 30 mm, Adafruit 3487"),
    ("A2", "raise", "yellow 30 mm, Adafruit 3488"),
    ("A3", "fold", "red 30 mm, Adafruit 3489"),
    ("A4", "menu", "clear 30 mm, Adafruit 3491"),
)
SP = 1.8  # pin spacing


def main():
    schemdraw.config(fontsize=13, lw=1.6, unit=2.5, margin=0.8)
    with schemdraw.Drawing(file=OUT, show=False, dpi=130) as d:
        pins = [elm.IcPin(name=t, side="right", anchorname=a) for a, t in reversed(RIGHT)]
        pins += [elm.IcPin(name=t, side="left", anchorname=a) for a, t, _ in reversed(WING)]
        pins.append(elm.IcPin(name="USB-C", side="bottom", anchorname="USBC"))
        mcu = d.add(
            elm.Ic(pins=pins, pinspacing=SP, edgepadH=1.0, size=(12, 9 * SP + 1.0)).label(
                "ESP32-S3 Feather\n4MB Flash 2MB PSRAM\nAdafruit 5477\n\n"
                "CircuitPython board id\nadafruit_feather_esp32s3_4mbflash_2mbpsram",
                loc="center", fontsize=13,
            )
        )

        # -- the FeatherWing: plugs onto the headers, no wires -----------
        x_wing = mcu.SCK[0] - 7.5
        wpins = [elm.IcPin(name=w, side="right", anchorname=a) for a, _, w in reversed(WING)]
        wing = d.add(
            elm.Ic(pins=wpins, pinspacing=SP, edgepadH=1.0, size=(7.5, 9 * SP + 1.0))
            .label("3.5in TFT FeatherWing\nAdafruit 3651\nHX8357D, 480 x 320\nSPI 24 MHz\n\n"
                   "(the Feather plugs into\nits socket: no wires)", loc="center", fontsize=12)
            .anchor("SCK")
            .at((x_wing, mcu.SCK[1]))
        )
        for a, _, _ in WING:
            d.add(elm.Wire("-").at(getattr(wing, a)).to(getattr(mcu, a)))

        # -- five arcade buttons, each between its pin and GND -----------
        for anchor, role, part in KEYS:
            d.add(elm.Line().right(1.0).at(getattr(mcu, anchor)))
            d.add(elm.Button().right().label("'%s'" % role, loc="top"))
            d.add(elm.Line().right(0.4))
            d.add(elm.Dot(open=True).label("GND   %s" % part, loc="right", fontsize=11))

        # -- seat ring: D11 -> 74AHCT125 -> 470 ohm -> 10 NeoPixels ------
        x0 = mcu.D11[0]
        d.add(elm.Line().right(1.0).at(mcu.D11))
        buf = d.add(
            elm.Ic(
                pins=[
                    elm.IcPin(name="1A", side="left", anchorname="A"),
                    elm.IcPin(name="1Y", side="right", anchorname="Y"),
                ],
                size=(2.2, 1.2),
            )
            .label("74AHCT125 (Adafruit 1787)", loc="top", fontsize=10)
            .anchor("A")
        )
        d.add(elm.Resistor().right(3.0).at(buf.Y).label("470 Ω", loc="top"))
        x_ring = x0 + 15.0
        d.add(elm.Line().to((x_ring, mcu.D11[1])))
        ring = d.add(
            elm.Ic(
                pins=[
                    elm.IcPin(name="DIN", side="left", anchorname="DIN"),
                    elm.IcPin(name="5V", side="bottom", anchorname="V5"),
                    elm.IcPin(name="GND", side="bottom", anchorname="G"),
                ],
                pinspacing=2.0,
                size=(5.0, 3.0),
            )
            .label("10 NeoPixels\nseat 1 .. seat 10\n(Mini PCB, 2 x 1612)", loc="center",
                   fontsize=11)
            .anchor("DIN")
            .at((x_ring, mcu.D11[1]))
        )
        d.add(
            elm.Label().at((buf.A[0], buf.A[1] - 0.8)).label(
                "VCC = 5 V, 1OE = GND", fontsize=10, halign="left", valign="top"
            )
        )

        # -- buzzer on D12 --------------------------------------------------
        x_bz = x0 + 9.0
        d.add(elm.Line().at(mcu.D12).to((x_bz, mcu.D12[1])))
        bz = d.add(
            elm.Ic(
                pins=[
                    elm.IcPin(name="+", side="left", anchorname="P"),
                    elm.IcPin(name="-", side="bottom", anchorname="N"),
                ],
                size=(3.8, 1.8),
            )
            .label("piezo PS1240\n(Adafruit 160)", loc="center", fontsize=11, ofst=(0.2, 0.25))
            .anchor("P")
            .at((x_bz, mcu.D12[1]))
        )

        # -- 5 V from USB to the ring, 1000 uF across it; GND to all --------
        y5, yg = mcu.USB[1], mcu.GNDR[1]
        x_cap = x0 + 2.0
        d.add(elm.Line().at(mcu.USB).to((x_cap, y5)))
        d.add(elm.Dot())
        d.add(elm.Line().to((ring.V5[0], y5)))
        d.add(elm.Line().to(ring.V5))
        d.add(elm.Capacitor(polar=True).at((x_cap, y5)).to((x_cap, yg))
              .label("1000 µF", loc="bottom"))
        d.add(elm.Line().at(mcu.GNDR).to((x_cap, yg)))
        d.add(elm.Dot())
        d.add(elm.Line().to((bz.N[0], yg)))
        d.add(elm.Dot())
        d.add(elm.Line().to((ring.G[0], yg)))
        d.add(elm.Line().to(ring.G))
        d.add(elm.Line().at(bz.N).to((bz.N[0], yg)))
        d.add(elm.Label().at((x_cap + 0.3, y5 + 0.35)).label("+5 V", fontsize=11, halign="left"))
        d.add(elm.Label().at((x_cap + 0.3, yg - 0.4)).label(
            "GND (buttons, buffer, buzzer, ring)", fontsize=11, halign="left"))

        # -- USB-C and the title ---------------------------------------------
        d.add(elm.Line().down(1.0).at(mcu.USBC))
        d.add(elm.Label().label("USB-C: 5 V power + data to the host", loc="bottom",
                                fontsize=11))
        d.add(
            elm.Label().at((x_wing - 7.5, mcu.SCK[1] + 2.4)).label(
                "Table box wiring (tcbox/boards.py 'table'): buttons to GND with internal "
                "pull-ups, ring data through a 3.3 V -> 5 V buffer",
                fontsize=15, halign="left",
            )
        )


if __name__ == "__main__":
    main()
