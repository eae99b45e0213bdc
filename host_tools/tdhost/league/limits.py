"""The bounds of the numbers a TD may enter, the CLI and the console alike: each fits the
protocol and the boxes' engine, so a value written can always go to a box (docs/host.md,
"What the TD may enter").  A value outside is refused with a sentence before anything is
written."""

from tableclock.canonjson import MAX_INT

WHOLE_MAX = MAX_INT - 1  # chips, a stack: the protocol's whole numbers have fewer than 17 digits
SEED_MAX = 10 ** 15 - 1  # a draw's seed: at most 15 digits
TABLE_MAX = 999  # a table number (`tdhost pair --table`)
SEAT_MAX = 99  # a seat number
