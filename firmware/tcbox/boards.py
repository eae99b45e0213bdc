"""Board profiles: each box's hardware described as data, nothing else; the
only place that names pins.  No hardware imports and no functions.  The
fields of a profile: docs/box.md, "Board profiles"; where each pin comes
from: hardware/<name>/pinmap.md.
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
