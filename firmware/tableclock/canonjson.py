"""Canonical JSON for the protocol's frames: ``canonical(v)`` writes it (keys
sorted, no spaces, ASCII only, whole numbers; MicroPython's dicts are
unordered), ``parse(b)`` reads it strictly.  Every refusal is a
ProtocolError whose text is a sentence (docs/protocol.md, "Frames").
"""

MAX_DEPTH = 8  # nesting of lists/objects, the envelope object counting as 1
MAX_DIGITS = 16  # integers are whole numbers below 10**16 in size
MAX_INT = 10**16


class ProtocolError(ValueError):
    """A frame or message that cannot be sent or accepted; the text says why."""


class _TooLarge(ProtocolError):
    pass


def _q(v):
    """A short printable quote of *v* for error messages."""
    if isinstance(v, str):
        v = v[:40]
    try:
        return canonical(v).decode()
    except ProtocolError:
        return "(a %s)" % type(v).__name__


# ---------------------------------------------------------------------------
# Canonical JSON


_SHORT = {0x22: b'\\"', 0x5C: b"\\\\", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t",
          0x08: b"\\b", 0x0C: b"\\f"}


def _plain(s):
    for ch in s:
        o = ord(ch)
        if o < 0x20 or o > 0x7E or o == 0x22 or o == 0x5C:
            return False
    return True


def _enc_str(s, out):
    out.append(0x22)
    if _plain(s):
        out += s.encode()
    else:
        for ch in s:
            o = ord(ch)
            if 0x20 <= o <= 0x7E and o != 0x22 and o != 0x5C:
                out.append(o)
            elif o in _SHORT:
                out += _SHORT[o]
            elif o < 0x10000:
                if 0xD800 <= o <= 0xDFFF:
                    raise ProtocolError("text contains a lone surrogate (not valid Unicode)")
                out += ("\\u%04x" % o).encode()
            else:
                o -= 0x10000
                out += ("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF))).encode()
    out.append(0x22)


def _enc(v, out, depth, limit):
    """Append the canonical JSON of *v* to the bytearray *out*; refuse to grow
    it beyond *limit* bytes (so an oversize message never builds in memory)."""
    if len(out) > limit:
        raise _TooLarge("the message is too large (the limit is %d bytes)" % limit)
    if v is None:
        out += b"null"
    elif v is True:
        out += b"true"
    elif v is False:
        out += b"false"
    elif isinstance(v, int):
        if not -MAX_INT < v < MAX_INT:
            raise ProtocolError("the number %d is too large (the limit is 16 digits)" % v)
        out += str(v).encode()
    elif isinstance(v, str):
        _enc_str(v, out)
    elif isinstance(v, (list, tuple, dict)):
        if depth > MAX_DEPTH:
            raise ProtocolError("the message is nested too deeply (more than %d levels)"
                                % MAX_DEPTH)
        if isinstance(v, dict):
            keys = list(v)
            for k in keys:
                if not isinstance(k, str):
                    raise ProtocolError("object keys must be text, not %s" % _q(k))
            keys.sort()
            out.append(0x7B)  # {
            first = True
            for k in keys:
                if not first:
                    out.append(0x2C)  # ,
                first = False
                _enc_str(k, out)
                out.append(0x3A)  # :
                _enc(v[k], out, depth + 1, limit)
            out.append(0x7D)  # }
        else:
            out.append(0x5B)  # [
            first = True
            for x in v:
                if not first:
                    out.append(0x2C)
                first = False
                _enc(x, out, depth + 1, limit)
            out.append(0x5D)  # ]
    elif isinstance(v, float):
        raise ProtocolError("numbers must be whole: %r cannot be sent (use milliseconds"
                            " or chips)" % v)
    else:
        raise ProtocolError("a %s cannot be sent (only text, whole numbers, true/false,"
                            " null, lists and objects)" % type(v).__name__)


def canonical(v, depth=1, limit=1 << 30):
    """The canonical JSON bytes of *v*: keys sorted, no spaces, ASCII only."""
    out = bytearray()
    _enc(v, out, depth, limit)
    return bytes(out)


# ---------------------------------------------------------------------------
# Parsing (bytes in, only what canonical() can produce plus JSON's other
# escapes and spaces between tokens)


def _bad(i, why):
    raise ProtocolError("malformed frame at byte %d: %s" % (i, why))


def _ws(b, i, n):
    while i < n and b[i] == 0x20:
        i += 1
    return i


def _hex4(b, i, n):
    if i + 4 > n:
        _bad(i, "a \\u escape needs 4 hex digits")
    v = 0
    for j in range(i, i + 4):
        c = b[j]
        if 0x30 <= c <= 0x39:
            d = c - 0x30
        elif 0x61 <= c <= 0x66:
            d = c - 0x57
        elif 0x41 <= c <= 0x46:
            d = c - 0x37
        else:
            _bad(j, "a \\u escape needs 4 hex digits")
        v = v * 16 + d
    return v


_ESC = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n", 0x72: "\r",
        0x74: "\t"}


def _string(b, i, n):
    """The text starting after the opening quote at *i*; returns (str, end)."""
    parts = None
    start = i
    while True:
        if i >= n:
            _bad(i, "unterminated text")
        c = b[i]
        if c == 0x22:
            s = str(b[start:i], "ascii")
            if parts is None:
                return s, i + 1
            parts.append(s)
            return "".join(parts), i + 1
        if c == 0x5C:
            if parts is None:
                parts = []
            parts.append(str(b[start:i], "ascii"))
            if i + 1 >= n:
                _bad(i, "unterminated text")
            e = b[i + 1]
            if e == 0x75:  # \uXXXX
                u = _hex4(b, i + 2, n)
                i += 6
                if 0xDC00 <= u <= 0xDFFF:
                    _bad(i - 6, "lone low surrogate")
                if 0xD800 <= u <= 0xDBFF:
                    if i + 6 > n or b[i] != 0x5C or b[i + 1] != 0x75:
                        _bad(i, "lone high surrogate")
                    lo = _hex4(b, i + 2, n)
                    if not 0xDC00 <= lo <= 0xDFFF:
                        _bad(i, "lone high surrogate")
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                    i += 6
                parts.append(chr(u))
            elif e in _ESC:
                parts.append(_ESC[e])
                i += 2
            else:
                _bad(i, "unknown escape")
            start = i
            continue
        if c < 0x20 or c > 0x7E:
            _bad(i, "text may only hold printable ASCII (others as \\u escapes)")
        i += 1


def _number(b, i, n):
    start = i
    if b[i] == 0x2D:  # -
        i += 1
    d = i
    while i < n and 0x30 <= b[i] <= 0x39:
        i += 1
    if i == d:
        _bad(start, "expected a value")
    if b[d] == 0x30 and i - d > 1:
        _bad(start, "numbers cannot have leading zeros")
    if i - d > MAX_DIGITS:
        _bad(start, "number too large (the limit is 16 digits)")
    if i < n and (b[i] == 0x2E or b[i] == 0x65 or b[i] == 0x45):  # . e E
        _bad(start, "numbers must be whole (no fractions or exponents)")
    return int(str(b[start:i], "ascii")), i


def _value(b, i, n, depth):
    if i >= n:
        _bad(i, "expected a value")
    c = b[i]
    if c == 0x22:
        return _string(b, i + 1, n)
    if c == 0x7B or c == 0x5B:  # { [
        if depth > MAX_DEPTH:
            _bad(i, "nested too deeply (more than %d levels)" % MAX_DEPTH)
        if c == 0x7B:
            return _object(b, i, n, depth)
        return _list(b, i, n, depth)
    if c == 0x74 and b[i:i + 4] == b"true":
        return True, i + 4
    if c == 0x66 and b[i:i + 5] == b"false":
        return False, i + 5
    if c == 0x6E and b[i:i + 4] == b"null":
        return None, i + 4
    if c == 0x2D or 0x30 <= c <= 0x39:
        return _number(b, i, n)
    _bad(i, "expected a value")


def _object(b, i, n, depth):
    d = {}  # type: dict
    i = _ws(b, i + 1, n)
    if i < n and b[i] == 0x7D:
        return d, i + 1
    while True:
        if i >= n or b[i] != 0x22:
            _bad(i, "expected a quoted field name")
        at = i
        k, i = _string(b, i + 1, n)
        if k in d:
            _bad(at, "the field %s appears twice" % _q(k))
        i = _ws(b, i, n)
        if i >= n or b[i] != 0x3A:
            _bad(i, "expected ':'")
        v, i = _value(b, _ws(b, i + 1, n), n, depth + 1)
        d[k] = v
        i = _ws(b, i, n)
        if i < n and b[i] == 0x2C:
            i = _ws(b, i + 1, n)
            continue
        if i < n and b[i] == 0x7D:
            return d, i + 1
        _bad(i, "expected ',' or '}'")


def _list(b, i, n, depth):
    out = []  # type: list
    i = _ws(b, i + 1, n)
    if i < n and b[i] == 0x5D:
        return out, i + 1
    while True:
        v, i = _value(b, i, n, depth + 1)
        out.append(v)
        i = _ws(b, i, n)
        if i < n and b[i] == 0x2C:
            i = _ws(b, i + 1, n)
            continue
        if i < n and b[i] == 0x5D:
            return out, i + 1
        _bad(i, "expected ',' or ']'")


def parse(b, n=None):
    """The JSON value in the bytes b[:n] (integers only; see the module notes)."""
    if n is None:
        n = len(b)
    v, i = _value(b, _ws(b, 0, n), n, 1)
    i = _ws(b, i, n)
    if i != n:
        _bad(i, "unexpected data after the end")
    return v
