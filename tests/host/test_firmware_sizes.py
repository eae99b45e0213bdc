"""The firmware laid out by concept (issue #14: "no module over ~600 lines"), measured as
tests/host/test_layout.py measures the host; a class's size is not capped (issue #34:
tests/host/test_cohesion.py checks that its methods share its state instead)."""

import os

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")
MAX_MODULE = 600


def test_no_firmware_module_over_600_lines():
    big = []
    for package in ("tableclock", "tcbox"):
        folder = os.path.join(FIRMWARE, package)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            if len(text.splitlines()) > MAX_MODULE:
                big.append("%s/%s: %d lines" % (package, name, len(text.splitlines())))
    assert big == []
