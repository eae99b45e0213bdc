"""HMAC-SHA256 (RFC 2104) for boards without an `hmac` module.

CircuitPython's hashlib offers only `hashlib.new("sha256")` with `update()` and
`digest()` (no `hashlib.sha256()`, `hexdigest()` or `copy()`); MicroPython has
`hashlib.sha256()` but no `hashlib.new`.  This module uses whichever exists and
nothing else, so it runs unchanged on CPython, MicroPython and CircuitPython.
"""

import hashlib

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any  # noqa: F401 (type comments)


BLOCK = 64  # SHA-256 block size in bytes
DIGEST = 32

_new = getattr(hashlib, "new", None)


def sha256():  # type: () -> Any
    """A fresh SHA-256 object (only `update()` and `digest()` may be used)."""
    if _new is not None:
        return _new("sha256")
    return hashlib.sha256()  # MicroPython: no hashlib.new


def _pad(key, byte):
    out = bytearray(BLOCK)
    for i in range(len(key)):
        out[i] = key[i] ^ byte
    for i in range(len(key), BLOCK):
        out[i] = byte
    return out


def hmac_sha256(key, msg):  # type: (bytes, Any) -> bytes
    """The 32-byte HMAC-SHA256 of *msg* under *key* (bytes).

    *msg* is bytes-like, or a list/tuple of bytes-like parts hashed one after
    the other (the MAC of their concatenation, without building it).
    """
    if len(key) > BLOCK:  # RFC 2104: long keys are hashed first
        h = sha256()
        h.update(key)
        key = h.digest()
    inner = sha256()
    inner.update(_pad(key, 0x36))
    if isinstance(msg, (list, tuple)):
        for part in msg:
            inner.update(part)
    else:
        inner.update(msg)
    outer = sha256()
    outer.update(_pad(key, 0x5C))
    outer.update(inner.digest())
    return outer.digest()


def same(a, b):  # type: (bytes, bytes) -> bool
    """True when the byte strings *a* and *b* are equal, in a time that does
    not depend on where they differ (for comparing MACs)."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0
