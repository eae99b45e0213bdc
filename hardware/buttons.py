"""The front of each box with its keys labelled by role -> docs/box-buttons-*.png.

Roles and pins come from firmware/tcbox/boards.py (so the pictures cannot
drift from the profiles); what a press does is the dealer's menu
(firmware/tcbox/menu.py).  Schematic, not to scale.

Run: .venv/bin/python hardware/buttons.py   (or `make hardware-diagrams`)
"""

import math
import os
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch, Rectangle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from tcbox.boards import BOARDS  # noqa: E402

DOCS = os.path.join(ROOT, "docs")

# What each role does (short press / long press), as in tcbox/menu.py.
DOES = {
    "left": ("previous option", "long: undo"),
    "ok": ("choose", "long: seats menu"),
    "right": ("next option", "long: call the clock"),
    "hand": ("new hand / choose", ""),
    "call": ("check / call", "long: call the clock"),
    "raise": ("bet / raise", "long: all-in"),
    "fold": ("fold / back", "long: undo"),
    "menu": ("next option", "long: previous option"),
}
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


def _keys(name):
    return {k["role"]: k for k in BOARDS[name]["keys"]}


def _screen(ax, x, y, w, h, lines, size):
    ax.add_patch(Rectangle((x, y), w, h, facecolor="#101418", edgecolor="#444", lw=2))
    n = len(lines)
    for i, (text, colour, scale) in enumerate(lines):
        ax.text(x + w / 2, y + h * (n - i - 0.5) / n, text, color=colour,
                ha="center", va="center", fontsize=size * scale, family="DejaVu Sans Mono",
                weight="bold")


def compact():
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
    _screen(ax, 12, 24, 46, 24,
            [("L3  25/50", "#ffffff", 1.0), ("12:05", "#f0e442", 1.6),
             ("> Call 50", "#56b4e9", 0.9)], 13)
    ax.text(35, 21.2, "%s %dx%d" % (disp["chip"], disp["width"], disp["height"]),
            ha="center", va="bottom", fontsize=9, color="#bbbbbb")
    # The three keys in a column beside the screen, D0 at the top.
    order = ("left", "ok", "right")
    ys = (44, 36, 28)
    for role, y in zip(order, ys):
        k = keys[role]
        ax.add_patch(Circle((68, y), 2.6, facecolor="#d8d8d8", edgecolor="black", lw=1.5))
        ax.text(72, y, k["pin"], va="center", fontsize=10, color="white")
        short, long = DOES[role]
        ax.annotate("", xy=(75.5, y), xytext=(84, y),
                    arrowprops={"arrowstyle": "-", "color": "#555", "lw": 1.2})
        ax.text(85, y + 1.1, "'%s': %s" % (role, short), va="center", fontsize=13,
                weight="bold")
        level = "pressed = LOW" if k["active_low"] else "pressed = HIGH"
        ax.text(85, y - 2.0, "%s   (%s, pull-%s)" % (long, level, k["pull"]), va="center",
                fontsize=10, color="#444")
    ax.text(8, 12, "D0 is also BOOT: held while the board resets, it starts the ROM "
            "bootloader (so it is not the 'ok' key).", fontsize=10.5, color="#333")
    ax.text(8, 7, "Schematic, not to scale; check the key order against the board's "
            "silkscreen on the first box (bring-up).", fontsize=10.5, color="#333")
    out = os.path.join(DOCS, "box-buttons-compact.png")
    fig.savefig(out, bbox_inches="tight", facecolor="white")
    plt.close(fig)
    return out


def table():
    keys = _keys("table")
    p = BOARDS["table"]
    disp = p["display"]
    fig, ax = plt.subplots(figsize=(13, 10), dpi=120)
    ax.set_xlim(0, 130)
    ax.set_ylim(-6, 100)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Table box (ESP32-S3 Feather + 3.5in TFT): the front, dealer's view",
                 fontsize=15, weight="bold")
    # Sloped front panel.
    ax.add_patch(FancyBboxPatch((6, 0.5), 118, 91, boxstyle="round,pad=0,rounding_size=4",
                                facecolor="#2b2b2b", edgecolor="black", lw=2))
    # Seat ring: ten pixels round a table-shaped oval, seat 1 at the dealer's left.
    cx, cy, rx, ry = 65, 76, 32, 8
    ax.add_patch(Ellipse((cx, cy), 2 * rx, 2 * ry, facecolor="#1f5130", edgecolor="#0d2616",
                         lw=2))
    n = p["ring"]["pixels"]
    for i in range(n):
        # Clockwise seen from above from the dealer's left (bottom left),
        # leaving a gap at the bottom for the dealer.
        t = math.radians(240 - i * 300.0 / (n - 1))
        x, y = cx + (rx + 4) * math.cos(t), cy + (ry + 4) * math.sin(t)
        ax.add_patch(Circle((x, y), 1.6, facecolor="#f0e442" if i == 4 else "#bbbbbb",
                            edgecolor="black", lw=1))
        ax.text(x + 3.4 * math.cos(t), y + 3.0 * math.sin(t), str(i + 1), ha="center",
                va="center", fontsize=10, color="white", weight="bold")
    ax.text(cx, cy, "seat ring: %d NeoPixels\n(yellow = to act)" % n, ha="center",
            va="center", fontsize=10, color="white")
    ax.text(cx, cy - ry - 4.5, "dealer", ha="center", va="center", fontsize=9,
            color="#cccccc", style="italic")
    # The screen.
    _screen(ax, 27, 29, 76, 25,
            [("LEVEL 7   200/400  ante 400", "#ffffff", 0.9), ("14:32", "#f0e442", 2.2),
             ("Seat 5 to act: call 800", "#56b4e9", 0.9)], 13)
    ax.text(65, 27.8, "%s %dx%d (3.5in FeatherWing)" % (disp["chip"], disp["width"],
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
        short, long = DOES[role]
        ax.text(x, 8.8, short, ha="center", va="center", fontsize=10.5, color="white",
                weight="bold")
        ax.text(x, 6.0, long, ha="center", va="center", fontsize=9, color="#dddddd")
        ax.text(x, 3.4, "%s, %s" % (k["pin"], cname), ha="center", va="center", fontsize=9,
                color="#aaaaaa")
    ax.text(6, -4, "Buttons wire to GND (internal pull-ups). Schematic, not to scale; the "
            "buzzer sits inside, behind a grille.", fontsize=10.5, color="#333")
    out = os.path.join(DOCS, "box-buttons-table.png")
    fig.savefig(out, bbox_inches="tight", facecolor="white")
    plt.close(fig)
    return out


def main():
    os.makedirs(DOCS, exist_ok=True)
    for path in (compact(), table()):
        print("wrote", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
