"""Board profiles (tcbox/boards.py): complete, consistent, no pin used twice."""

from tcbox.boards import BOARDS

TOP = ("name", "parts", "board_id", "usb_vid", "usb_pid", "display", "keys", "ring",
       "buzzer", "selftest", "status_pixel", "reserved")
DISPLAY = ("driver", "chip", "width", "height", "rotation", "spi_baud", "cs", "dc", "reset",
           "backlight")
KEY = ("role", "pin", "active_low", "pull")


def _used_pins(p):
    """Every pin the profile's own parts take: keys, ring, buzzer."""
    pins = [k["pin"] for k in p["keys"]]
    if p["ring"]:
        pins.append(p["ring"]["pin"])
    if p["buzzer"]:
        pins.append(p["buzzer"]["pin"])
    return pins


def test_both_builds_exist():
    assert "compact" in BOARDS
    assert "table" in BOARDS


def test_every_profile_has_the_fields():
    for name in BOARDS:
        p = BOARDS[name]
        for f in TOP:
            assert f in p, (name, f)
        for f in DISPLAY:
            assert f in p["display"], (name, "display", f)
        assert p["display"]["rotation"] in (0, 90, 180, 270), name
        assert p["display"]["width"] > 0 and p["display"]["height"] > 0, name
        assert p["display"]["spi_baud"] > 0, name
        assert isinstance(p["board_id"], str) and p["board_id"], name
        assert p["usb_vid"] == 0x239A, name  # Adafruit
        assert len(p["keys"]) >= 3, name
        for k in p["keys"]:
            for f in KEY:
                assert f in k, (name, k, f)
            assert k["active_low"] in (True, False), (name, k)
            assert k["pull"] in ("up", "down", None), (name, k)
            assert isinstance(k["pin"], str) and k["pin"], (name, k)
        if p["ring"] is not None:
            assert p["ring"]["pixels"] > 0, name
            assert 0 < p["ring"]["brightness"] <= 1, name
        if p["buzzer"] is not None:
            assert p["buzzer"]["freq"] > 0, name


def test_pull_matches_the_active_level():
    # An internal pull must hold the key at its *released* level.
    for name in BOARDS:
        for k in BOARDS[name]["keys"]:
            if k["pull"] == "up":
                assert k["active_low"], (name, k)
            if k["pull"] == "down":
                assert not k["active_low"], (name, k)


def test_roles_unique_per_board():
    for name in BOARDS:
        roles = [k["role"] for k in BOARDS[name]["keys"]]
        assert len(set(roles)) == len(roles), (name, roles)


def test_pins_unique_and_not_reserved():
    for name in BOARDS:
        p = BOARDS[name]
        pins = _used_pins(p)
        assert len(set(pins)) == len(pins), (name, pins)
        for pin in pins:
            assert pin not in p["reserved"], (name, pin)


def test_compact_has_left_ok_right():
    roles = [k["role"] for k in BOARDS["compact"]["keys"]]
    assert sorted(roles) == ["left", "ok", "right"], roles
    assert BOARDS["compact"]["display"]["driver"] == "builtin"
    assert (BOARDS["compact"]["display"]["width"], BOARDS["compact"]["display"]["height"]) == (
        240, 135)


def test_table_has_the_five_roles_and_a_ring_per_seat():
    p = BOARDS["table"]
    roles = [k["role"] for k in p["keys"]]
    assert sorted(roles) == ["call", "fold", "hand", "menu", "raise"], roles
    assert p["ring"]["pixels"] == 10
    assert p["buzzer"] is not None
    # Wired to GND with internal pull-ups: all one keypad.Keys group.
    for k in p["keys"]:
        assert k["active_low"] and k["pull"] == "up", k


def test_the_selftest_key_is_neither_rescue_nor_boot():
    """Held at power-up it must not also undo boot.py's USB set-up (the rescue key: ok on
    the compact box, hand on the table build) nor start the ROM bootloader (D0)."""
    for name in BOARDS:
        p = BOARDS[name]
        keys = {}
        for k in p["keys"]:
            keys[k["role"]] = k["pin"]
        assert p["selftest"] in keys, name
        assert p["selftest"] not in ("ok", "hand"), name
        assert keys[p["selftest"]] != "D0", name
    assert BOARDS["compact"]["selftest"] == "right"
    assert BOARDS["table"]["selftest"] == "menu"
