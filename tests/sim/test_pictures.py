"""The committed pictures are what the firmware draws now (issue #18):
docs/screens/{compact,table}-*.png pixel for pixel as `make sim-shots`
renders them, and docs/box-buttons-*.png carrying the fingerprint of the
screen and key map hardware/buttons.py finds on the firmware today.  A
failure says which picture is stale: run `make sim-shots` and commit."""

import glob
import importlib.util
import json
import os

from PIL import Image, ImageChops

from tcsim.cli import read_script, run
from tcsim.sim import board_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "host_tools", "tcsim", "scenes")
SCREENS = os.path.join(ROOT, "docs", "screens")


def _differs(a, b):
    """None when the PNGs *a* and *b* show the same pixels, else why not."""
    ia = Image.open(a).convert("RGB")
    ib = Image.open(b).convert("RGB")
    if ia.size != ib.size:
        return "size %s, the firmware draws %s" % (ia.size, ib.size)
    box = ImageChops.difference(ia, ib).getbbox()
    return None if box is None else "pixels differ in %s" % (box,)


def test_every_committed_screen_is_what_the_firmware_draws(tmp_path):
    lines = read_script(os.path.join(SCENES, "shots.jsonl"))
    with open(os.path.join(SCENES, "shots.setup.json")) as f:
        setup = json.load(f)
    for board in board_names():
        run(board, setup, lines, shots=str(tmp_path))
    from tcsim.selftest_bench import leave, shots, world

    saved = world.current()
    try:
        shots(str(tmp_path))  # the self-test's screens (BOARD-selftest*.png)
    finally:
        leave(saved)
    drawn = sorted(os.path.basename(p) for p in glob.glob(str(tmp_path / "*.png")))
    committed = sorted(os.path.basename(p) for b in board_names()
                       for p in glob.glob(os.path.join(SCREENS, "%s-*.png" % b)))
    assert committed == drawn, "run make sim-shots: the screens committed are not the scenes'"
    stale = {}
    for name in drawn:
        why = _differs(os.path.join(SCREENS, name), str(tmp_path / name))
        if why:
            stale[name] = why
    assert not stale, "stale pictures (run make sim-shots): %s" % stale


def _buttons():
    spec = importlib.util.spec_from_file_location(
        "buttons", os.path.join(ROOT, "hardware", "buttons.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_button_maps_are_drawn_from_the_firmware_of_today():
    buttons = _buttons()
    for board in board_names():
        path = os.path.join(ROOT, "docs", "box-buttons-%s.png" % board)
        said = Image.open(path).info.get("Description", "")
        fp, img, km, leds = buttons.fingerprint(board)
        assert said == "tcsim fingerprint %s" % fp, (
            "%s is stale: run make sim-shots" % os.path.relpath(path, ROOT))
        # what the picture says each key does is the menu's own answer
        if board == "compact":
            assert km["left"]["hand"] == ("fold", "undo")
            assert km["ok"]["hand"][0] == "check / call"
            assert km["ok"]["between"][0] == "new hand"
        else:
            assert km["fold"]["hand"] == ("fold", "undo")
            assert km["call"]["hand"] == ("check / call", "call the clock")
            assert km["raise"]["hand"] == ("amount entry", "all-in")
            assert km["hand"]["hand"][0] == "raise to the minimum"
            assert km["hand"]["between"][0] == "new hand"
