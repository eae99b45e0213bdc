"""watchdog: the mode constants and the timeout exception; the watchdog
itself is ``microcontroller.watchdog`` (checked against the virtual clock)."""


class WatchDogMode:
    RAISE = "raise"
    RESET = "reset"


class WatchDogTimeout(Exception):
    pass
