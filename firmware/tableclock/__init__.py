"""Table Clock rules core: pure Python shared by the box, the host and the simulator."""


def drop(name):  # type: (str) -> None
    """Forget the module *name* ("tableclock.config"), so that the heap its code
    holds is freed once nothing else refers to it: code a box needs only at
    boot or at a new setup is not held while the table runs (issue #20)."""
    import sys

    sys.modules.pop(name, None)
    parts = name.split(".")
    try:
        delattr(sys.modules[parts[0]], parts[1])
    except Exception:  # noqa: BLE001 -- a port that keeps no such attribute
        pass
