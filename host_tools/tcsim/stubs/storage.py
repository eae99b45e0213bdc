"""storage: remount() and the USB drive switches (recorded, nothing more)."""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

readonly = True
usb_drive = True


def remount(mount_path: Any, readonly: bool = False, *,
            disable_concurrent_write_protection: bool = False) -> None:
    globals()["readonly"] = readonly


def disable_usb_drive() -> None:
    globals()["usb_drive"] = False


def enable_usb_drive() -> None:
    globals()["usb_drive"] = True


def getmount(mount_path: Any) -> None:
    return None
