"""Board profiles: each box's hardware described as data, nothing else.

The box code picks one entry of BOARDS (by the running board's
``board.board_id``, or by name from settings) and builds its keys, display,
seat ring and buzzer from it.  Adding a third board means adding one entry
here (and its folder under hardware/); no other module names pins.

No hardware imports and no functions: this file runs on CircuitPython, on
MicroPython (tests/core/test_boards.py) and on CPython (docs, diagrams).
Pins are the *names* of attributes of CircuitPython's ``board`` module
("D0", "A1", "TFT_CS"); the hardware layer resolves them with
``getattr(board, name)``.

Fields of a profile:
  name        human name of the build
  parts       the main parts with their vendor product numbers
  board_id    CircuitPython board id: equals ``board.board_id`` on the device
              and is the argument of ``circuitpython_setboard`` for mypy
  usb_vid, usb_pid   the USB ids CircuitPython reports (ports/espressif/boards)
  display     dict:
      driver      "builtin" (the board makes ``board.DISPLAY`` itself) or the
                  CircuitPython driver class to construct ("HX8357")
      chip        the controller chip (documentation)
      width, height   pixels after rotation (landscape)
      rotation    degrees passed to the driver (0, 90, 180, 270)
      spi_baud    SPI clock in Hz (for "builtin": what the board uses)
      cs, dc, reset, backlight   pin names, or None where not wired
  keys        tuple of dicts, one per physical key:
      role        what the key means to tcbox/menu.py; unique per board
      pin         board pin name; unique per board
      active_low  True: the pin reads low (False) while pressed
      pull        "up", "down" or None (None: an external resistor pulls it)
              keypad.Keys takes one value_when_pressed and one pull for all
              its pins, so the box groups keys by (active_low, pull) and makes
              one keypad.Keys per group (the compact board needs two).
  ring        None, or dict: pin, pixels (one per seat, seat 1 = pixel 0,
              clockwise), order ("GRB" for WS2812B/SK6812), brightness
              (0..1, a current limit: 10 px at full white draw ~0.6 A)
  buzzer      None, or dict: pin (PWM capable), freq (Hz of the default beep)
  selftest    the role of the key that, held at power-up, runs the self-test
              (tcbox/selftest.py) instead of the table: never the rescue key
              of boot.py (ok / hand) nor the BOOT pin
  status_pixel  the board's own NeoPixel: pin and power pin names
  reserved    pins in use by the board or an add-on that keys, ring and
              buzzer must not take (tests/core/test_boards.py checks it)

Where each pin choice comes from: hardware/<name>/pinmap.md.
"""

BOARDS = {  # type: dict
    # Adafruit ESP32-S3 Reverse TFT Feather (4 MB flash, 2 MB PSRAM): the
    # display and three buttons face the dealer, nothing to wire.
    "compact": {
        "name": "Compact: Adafruit ESP32-S3 Reverse TFT Feather",
        "parts": (("Adafruit ESP32-S3 Reverse TFT Feather", "Adafruit 5691"),),
        "board_id": "adafruit_feather_esp32s3_reverse_tft",
        "usb_vid": 0x239A,
        "usb_pid": 0x8124,
        "display": {
            "driver": "builtin",
            "chip": "ST7789",
            "width": 240,
            "height": 135,
            "rotation": 0,
            "spi_baud": 40000000,
            "cs": "TFT_CS",
            "dc": "TFT_DC",
            "reset": "TFT_RESET",
            "backlight": "TFT_BACKLIGHT",
        },
        "keys": (
            # D0 is also BOOT: held while the board resets it enters the ROM
            # bootloader, so it gets a key nobody holds through a power cut.
            {"role": "left", "pin": "D0", "active_low": True, "pull": "up"},
            {"role": "ok", "pin": "D1", "active_low": False, "pull": "down"},
            {"role": "right", "pin": "D2", "active_low": False, "pull": "down"},
        ),
        "ring": None,
        "buzzer": None,
        "selftest": "right",
        "status_pixel": {"pin": "NEOPIXEL", "power": "NEOPIXEL_POWER"},
        "reserved": (
            "TFT_CS",
            "TFT_DC",
            "TFT_RESET",
            "TFT_BACKLIGHT",
            "TFT_I2C_POWER",
            "SCK",
            "MOSI",
            "MISO",
            "SDA",
            "SCL",
            "NEOPIXEL",
            "NEOPIXEL_POWER",
        ),
    },
    # Adafruit ESP32-S3 Feather (4 MB flash, 2 MB PSRAM) plugged into the
    # 3.5" 480x320 TFT FeatherWing, five arcade buttons, a ten-pixel seat
    # ring and a piezo buzzer.
    "table": {
        "name": "Table build: Adafruit ESP32-S3 Feather + 3.5in TFT FeatherWing",
        "parts": (
            ("Adafruit ESP32-S3 Feather 4MB Flash 2MB PSRAM", "Adafruit 5477"),
            ("Adafruit TFT FeatherWing 3.5in 480x320", "Adafruit 3651"),
        ),
        "board_id": "adafruit_feather_esp32s3_4mbflash_2mbpsram",
        "usb_vid": 0x239A,
        "usb_pid": 0x811C,
        "display": {
            "driver": "HX8357",
            "chip": "HX8357D",
            "width": 480,
            "height": 320,
            "rotation": 0,
            "spi_baud": 24000000,
            "cs": "D9",
            "dc": "D10",
            "reset": None,
            "backlight": None,
        },
        "keys": (
            # Arcade buttons between the pin and GND, internal pull-ups:
            # A0..A4 are one run of header pins, free of SPI, I2C, the wing's
            # chip selects (D5, D6, D9, D10) and the strapping pins.
            {"role": "hand", "pin": "A0", "active_low": True, "pull": "up"},
            {"role": "call", "pin": "A1", "active_low": True, "pull": "up"},
            {"role": "raise", "pin": "A2", "active_low": True, "pull": "up"},
            {"role": "fold", "pin": "A3", "active_low": True, "pull": "up"},
            {"role": "menu", "pin": "A4", "active_low": True, "pull": "up"},
        ),
        "ring": {"pin": "D11", "pixels": 10, "order": "GRB", "brightness": 0.2},  # float: pixels
        "buzzer": {"pin": "D12", "freq": 2000},
        "selftest": "menu",
        "status_pixel": {"pin": "NEOPIXEL", "power": "NEOPIXEL_POWER"},
        "reserved": (
            "SCK",
            "MOSI",
            "MISO",
            "D9",
            "D10",
            "D6",
            "D5",
            "SDA",
            "SCL",
            "D13",
            "D0",
            "NEOPIXEL",
            "NEOPIXEL_POWER",
            "I2C_POWER",
        ),
    },
}
