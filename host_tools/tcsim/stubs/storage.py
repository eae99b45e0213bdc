"""storage: remount() and the USB drive switches (recorded, nothing more)."""

readonly = True
usb_drive = True


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    globals()["readonly"] = readonly


def disable_usb_drive():
    globals()["usb_drive"] = False


def enable_usb_drive():
    globals()["usb_drive"] = True


def getmount(mount_path):
    return None
