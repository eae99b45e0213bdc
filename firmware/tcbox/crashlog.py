"""The last crash, kept in the spare end of ``microcontroller.nvm``.

The power-loss record (tableclock/record.py) uses nvm from 0 to ``LOG``; the
last 256 bytes hold one line: a counter of crashes in a row and the reason.
A crash is rare, so the cost of an nvm write (the whole 8 KiB is rewritten)
is paid only then; ``clear()`` is called once the box has run for a while.
"""

LOG = 8192 - 256  # where the log starts; the record store stops here


def _nvm():
    import microcontroller

    return microcontroller.nvm


def read():
    """(crashes in a row, last reason) from nvm."""
    raw = bytes(_nvm()[LOG:LOG + 256])
    if raw[:2] != b"CL":
        return 0, ""
    n = raw[2]
    text = raw[4:4 + raw[3]]
    return n, text.decode("utf-8", "replace") if hasattr(text, "decode") else str(text)


def repeats():
    return read()[0]


def note(reason):
    """Remember *reason* and count one more crash in a row."""
    _write(min(read()[0] + 1, 255), reason)


def _write(n, reason):
    text = reason.encode("utf-8")[:250]
    _nvm()[LOG:LOG + 4 + len(text)] = b"CL" + bytes((n, len(text))) + text


def keep(reason):
    """Remember *reason* without counting a crash (the box went on: a saved
    table that could not be restored, tcbox.startup.restore)."""
    _write(read()[0], reason)


def clear():
    """The box ran fine: the next crash is a first one again (the last
    reason stays readable)."""
    if read()[0]:
        _nvm()[LOG + 2:LOG + 3] = b"\x00"
