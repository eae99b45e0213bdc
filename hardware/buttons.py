"""The front of each box with its keys labelled by role -> docs/box-buttons-*.png.

Drawn from the real firmware: the screen is what the simulator
(host_tools/tcsim: the box's own tcbox.screen on Blinka displayio) shows
during a hand, and what each key does, short and long, during a hand and
between hands, is found by pressing it on the box's own menu
(firmware/tcbox/menu.py) in those states.  Roles and pins come from
firmware/tcbox/boards.py.  Each picture carries a fingerprint of that screen
and key map (``fingerprint``); tests/sim/test_pictures.py fails when the
firmware no longer draws what a committed picture shows.  Schematic, not to
scale.

Run: .venv/bin/python hardware/buttons.py   (`make sim-shots` or `make hardware-diagrams`)
"""

import copy
import hashlib
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch, Rectangle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host_tools"))
sys.path.append(os.path.join(ROOT, "firmware"))

from tcbox.boards import BOARDS  # noqa: E402

DOCS = os.path.join(ROOT, "docs")
SCENES = os.path.join(ROOT, "host_tools", "tcsim", "scenes")
INFO = {"players": 47, "average": 3063, "link": "Wi-Fi", "table": 4}

# Arcade button colours of the table build (hardware/table/bom.md).
CAP = {
    "hand": ("#1f5fbf", "blue"),
    "call": ("#2e9d4a", "green"),
    "raise": ("#e8c619", "yellow"),
    "fold": ("#cc2b2b", "red"),
    "menu": ("#e6e6e6", "clear"),
}
# Left-to-right order of the arcade buttons on the front, dealer's view.
TABLE_ORDER = ("menu", "fold", "call", "raise", "hand")


def _said(ev, before, after, st):
    """What a press did, in the dealer's words: *ev* the event the menu
    handed over (or None), *before*/*after* the menu around the press."""
    if ev is not None:
        if "box" in ev:
            return "confirm" if ev["box"] == "ack" else ev["box"]
        what = ev["do"]
        if what == "raise":
            return "raise to %s" % ("the minimum" if ev.get("to") == st["min_raise_to"]
                                    else ev.get("to"))
        return {"call": "check / call", "hand": "new hand", "clock": "call the clock",
                "allin": "all-in"}.get(what, what)
    if after.mode != before.mode:
        return {"amount": "amount entry", "seats": "seats menu",
                "main": "back"}.get(after.mode, after.mode)
    if after.i != before.i:
        n = len(after.options)  # (padded: key_map)
        return "next option" if after.i == (before.i + 1) % n else "previous option"
    return "-"


def key_map(sim):
    """{role: {"hand": (short, long), "between": (short, long)}}: what each
    key does on the box's own menu during a hand (the sim's state now) and
    between hands (the same box before its hand)."""
    out = {}
    states = [("hand", sim.menu, sim.box.state)]
    states.append(("between", sim.between[0], sim.between[1]))
    for when, menu, st in states:
        for role in sim.roles:
            said = []
            for long in (False, True):
                m = copy.deepcopy(menu)
                # more options than shown, so that next and previous differ
                m.options = list(m.options) + [("", None)] * 3
                ev = m.press(role, long, st)
                if ev is None and m.mode != menu.mode:
                    m.refresh(st)
                said.append(_said(ev, menu, m, st))
            out.setdefault(role, {})[when] = tuple(said)
    return out


def scene(board):
    """The simulator mid-hand on *board* (the shots' setup, seat 5 to act
    after a call): the dealer's detail on screen; ``sim.between`` keeps the
    menu and state from before the hand."""
    from tcsim.driver import Dealer
    from tcsim.sim import Sim

    with open(os.path.join(SCENES, "shots.setup.json")) as f:
        setup = json.load(f)
    sim = Sim(board, setup, info=INFO)
    sim.tick(1)
    sim.between = (copy.deepcopy(sim.menu), sim.box.state)
    dealer = Dealer(sim)
    dealer.do({"do": "hand"})
    dealer.do({"do": "call"})
    return sim


def fingerprint(board):
    """sha256 of the screen's pixels and the key map the picture draws."""
    sim = scene(board)
    img = sim.image()
    km = key_map(sim)
    leds = sim.leds()
    h = hashlib.sha256(img.tobytes())
    h.update(json.dumps([km, leds], sort_keys=True).encode())
    return h.hexdigest(), img, km, leds


def _does(km, role):
    """Two texts for *role*: the short press (during a hand, and between
    hands where that differs), the long one (where it differs)."""
    hs, hl = km[role]["hand"]
    bs, bl = km[role]["between"]
    short = hs
    if bs != hs and bs != "-":
        short += "\n(between hands: %s)" % bs
    long = ""
    if hl != hs and hl != "-":
        long = "long: %s" % hl
        if bl != hl and bl != "-":
            long += "\n(between hands: %s)" % bl
    return short, long


def _led(c):
    """A ring pixel's colour as drawn: the firmware's, brightened (a dim
    pixel is lit, up to four times); dark grey when off."""
    if not c or max(c) == 0:
        return "#444444"
    k = min(255.0 / max(c), 4.0)
    return "#%02x%02x%02x" % tuple(int(v * k) for v in c)


def _screen(ax, x, y, w, h, img):
    ax.add_patch(Rectangle((x - 0.6, y - 0.6), w + 1.2, h + 1.2, facecolor="#101418",
                           edgecolor="#444", lw=2))
    ax.imshow(img, extent=(x, x + w, y, y + h), interpolation="nearest", zorder=3)


def _save(fig, out, fp):
    fig.savefig(out, bbox_inches="tight", facecolor="white",
                metadata={"Description": "tcsim fingerprint %s" % fp, "Software": None})
    plt.close(fig)


def _keys(name):
    return {k["role"]: k for k in BOARDS[name]["keys"]}


def compact():
    fp, img, km, leds = fingerprint("compact")
    keys = _keys("compact")
    disp = BOARDS["compact"]["display"]
    fig, ax = plt.subplots(figsize=(12, 6.4), dpi=120)
    ax.set_xlim(0, 120)
    ax.set_ylim(0, 64)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Compact box (ESP32-S3 Reverse TFT Feather): the front, dealer's view",
                 fontsize=15, weight="bold")
    # The board (Feather outline, 51 x 23 mm drawn x1.4) and its screen.
    ax.add_patch(FancyBboxPatch((8, 20), 71, 32, boxstyle="round,pad=0,rounding_size=3",
                                facecolor="#1c1c1c", edgecolor="black", lw=2))
    _screen(ax, 11, 23.6, 48, 27, img)
    ax.text(35, 21.2, "%s %dx%d" % (disp["chip"], disp["width"], disp["height"]),
            ha="center", va="bottom", fontsize=9, color="#bbbbbb")
    # The three keys in a column beside the screen, D0 at the top.
    order = ("left", "ok", "right")
    ys = (44, 36, 28)
    for role, y in zip(order, ys):
        k = keys[role]
        ax.add_patch(Circle((68, y), 2.6, facecolor="#d8d8d8", edgecolor="black", lw=1.5))
        ax.text(72, y, k["pin"], va="center", fontsize=10, color="white")
        short, long = _does(km, role)
        ax.annotate("", xy=(75.5, y), xytext=(84, y),
                    arrowprops={"arrowstyle": "-", "color": "#555", "lw": 1.2})
        ax.text(85, y + 1.1, "'%s': %s" % (role, short), va="center", fontsize=12,
                weight="bold", linespacing=0.95)
        level = "pressed = LOW" if k["active_low"] else "pressed = HIGH"
        ax.text(85, y - 2.0, "%s   (%s, pull-%s)" % (long, level, k["pull"]), va="center",
                fontsize=10, color="#444")
    ax.text(8, 16.5, "The screen: the firmware's own, during a hand (make sim-shots). "
            "A few seconds without a press: the players' view.", fontsize=10.5, color="#333")
    ax.text(8, 12, "D0 is also BOOT: held while the board resets, it starts the ROM "
            "bootloader (so it is not the 'ok' key).", fontsize=10.5, color="#333")
    ax.text(8, 7, "Schematic, not to scale; check the key order against the board's "
            "silkscreen on the first box (bring-up).", fontsize=10.5, color="#333")
    out = os.path.join(DOCS, "box-buttons-compact.png")
    _save(fig, out, fp)
    return out


def table():
    fp, img, km, leds = fingerprint("table")
    keys = _keys("table")
    p = BOARDS["table"]
    disp = p["display"]
    fig, ax = plt.subplots(figsize=(13, 10), dpi=120)
    ax.set_xlim(0, 130)
    ax.set_ylim(-6, 104)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Table box (ESP32-S3 Feather + 3.5in TFT): the front, dealer's view",
                 fontsize=15, weight="bold")
    # Sloped front panel.
    ax.add_patch(FancyBboxPatch((6, -1.5), 118, 97, boxstyle="round,pad=0,rounding_size=4",
                                facecolor="#2b2b2b", edgecolor="black", lw=2))
    # Seat ring: ten pixels round a table-shaped oval, seat 1 at the dealer's left.
    cx, cy, rx, ry = 65, 78, 32, 7
    ax.add_patch(Ellipse((cx, cy), 2 * rx, 2 * ry, facecolor="#1f5130", edgecolor="#0d2616",
                         lw=2))
    n = p["ring"]["pixels"]
    for i in range(n):
        # Clockwise seen from above from the dealer's left (bottom left),
        # leaving a gap at the bottom for the dealer.
        t = math.radians(240 - i * 300.0 / (n - 1))
        x, y = cx + (rx + 4) * math.cos(t), cy + (ry + 4) * math.sin(t)
        ax.add_patch(Circle((x, y), 1.6, facecolor=_led(leds[i] if i < len(leds) else None),
                            edgecolor="black", lw=1))
        ax.text(x + 3.4 * math.cos(t), y + 3.0 * math.sin(t), str(i + 1), ha="center",
                va="center", fontsize=10, color="white", weight="bold")
    ax.text(cx, cy, "seat ring: %d NeoPixels, as the firmware lights them\n(yellow: to act; "
            "white: button; blue: blinds)" % n, ha="center",
            va="center", fontsize=10, color="white")
    ax.text(cx, cy - ry - 4.5, "dealer", ha="center", va="center", fontsize=9,
            color="#cccccc", style="italic")
    # The screen.
    _screen(ax, 39, 26.5, 52, 34.7, img)
    ax.text(65, 25.9, "%s %dx%d (3.5in FeatherWing)" % (disp["chip"], disp["width"],
                                                       disp["height"]),
            ha="center", va="top", fontsize=9, color="#bbbbbb")
    # Five arcade buttons in a row toward the dealer.
    xs = (19, 42, 65, 88, 111)
    for role, x in zip(TABLE_ORDER, xs):
        colour, cname = CAP[role]
        k = keys[role]
        ax.add_patch(Circle((x, 17), 6.0, facecolor=colour, edgecolor="black", lw=2))
        ax.text(x, 17, role.upper(), ha="center", va="center", fontsize=11, weight="bold",
                color="black" if role in ("raise", "menu") else "white")
        short, long = _does(km, role)
        ax.text(min(x, 107), 8.6, short, ha="center", va="center", fontsize=9, color="white",
                weight="bold")
        ax.text(x, 3.6, long, ha="center", va="center", fontsize=8.5, color="#dddddd")
        ax.text(x, 0.6, "%s, %s" % (k["pin"], cname), ha="center", va="center", fontsize=9,
                color="#aaaaaa")
    ax.text(6, -5, "Buttons wire to GND (internal pull-ups). Schematic, not to scale; the "
            "buzzer sits inside, behind a grille.", fontsize=10.5, color="#333")
    out = os.path.join(DOCS, "box-buttons-table.png")
    _save(fig, out, fp)
    return out


def main():
    os.makedirs(DOCS, exist_ok=True)
    for path in (compact(), table()):
        print("wrote", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
