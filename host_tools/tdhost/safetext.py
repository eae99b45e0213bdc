"""Outside text made safe to show: what came from the network or a file (a refused login's
user name, a player's name in a league or CSV file) is printed, logged and written only
through these.  ``printable`` turns every character a terminal acts on into an escape
(ESC -> ``\\x1b``, a newline -> ``\\n``), so no text can clear the screen, move the cursor,
reorder what is shown or forge a line; ``EscapingFormatter`` does it for every log line;
``shortened`` also cuts a string from outside to a length a line can hold (an MQTT user
name may be 64 KB); ``csv_cell`` keeps a spreadsheet from taking a text cell for a
formula.  docs/host.md §1, docs/mqtt.md "Threats".
"""

import logging
import re

# C0 and C1 control characters and DEL (ESC, CSI, newline, carriage return, backspace...),
# the line and paragraph separators, the invisible marks that reorder text (bidi: "Trojan
# Source"), and lone surrogates (bytes a file name could not decode; they cannot even be
# written to a UTF-8 terminal).  Backslashes are kept: a Windows path stays readable.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

# the first characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a
# cell as a formula: OWASP's "CSV injection" list
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

MAX_SHOWN = 80  # characters of a string from outside shown or logged (``shortened``)


def _escape(match: "re.Match[str]") -> str:
    ch = match.group()
    return _SHORT.get(ch) or ("\\x%02x" % ord(ch) if ord(ch) < 0x100 else "\\u%04x" % ord(ch))


def printable(text: object) -> str:
    """*text* as one line a terminal shows as it is: each control character as an escape
    (``"Ann\\x1b[2J\\nTD token"`` -> ``Ann\\x1b[2J\\nTD token``, literally)."""
    s = str(text)
    return _UNSAFE.sub(_escape, s) if _UNSAFE.search(s) else s


def shortened(text: object, limit: int = MAX_SHOWN) -> str:
    """*text* from outside (a refused login's user name or client id) as ``printable``
    shows it, cut after its first *limit* characters with how many more it had:
    ``"aaa…(65455 more)"``.  Cut before escaping, so no escape is cut in two (a line holds
    at most 6 x *limit* characters of it: ``\\u202e``)."""
    s = str(text)
    if len(s) <= limit:
        return printable(s)
    return "%s\u2026(%d more)" % (printable(s[:limit]), len(s) - limit)


def is_printable(text: str) -> bool:
    """True when ``printable`` leaves *text* as it is (a name may be stored)."""
    return _UNSAFE.search(text) is None


def csv_cell(value: object) -> object:
    """A CSV cell no spreadsheet takes for a formula: a text cell starting with one of
    FORMULA_START gets a single quote in front (OWASP's rule: ``+cmd`` -> ``'+cmd``).
    Numbers the host writes stay numbers (a negative chip count is a number, not text)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class EscapingFormatter(logging.Formatter):
    """Log lines with ``printable``'s escapes: the message is one line whatever its
    arguments hold; a traceback keeps its own line breaks, every other control character
    in it escaped."""

    def format(self, record: logging.LogRecord) -> str:
        saved = record.msg, record.args
        record.msg, record.args = printable(record.getMessage()), None
        try:
            text = super().format(record)
        finally:
            record.msg, record.args = saved
        head, _, tail = text.partition("\n")
        return head if not tail else head + "\n" + "\n".join(
            printable(line) for line in tail.split("\n"))
