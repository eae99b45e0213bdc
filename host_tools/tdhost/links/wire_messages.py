"""The messages the host and a box exchange, as typed records for the host's side (the
fields of docs/protocol.md "Messages"; tableclock.protocol checks them on both ends).
A decoded message is its body's fields plus the envelope's ``kind v from to boot seq``.
"""

from typing import Any, TypedDict

# The envelope's fields every decoded message carries ("from" is a keyword: the
# functional form of TypedDict).
Envelope = TypedDict("Envelope", {"kind": str, "v": str, "from": str, "to": str, "boot": int,
                                  "seq": int}, total=False)


# ---------------------------------------------------------------- host -> box
class TableConfig(Envelope, total=False):
    """A table's set-up, sent in reply to a hello (with its nonce)."""

    table: int
    profile: str
    seats: int
    levels: list[dict[str, Any]]
    key_id: str
    event: str
    chip: int
    shot_clock: dict[str, Any]
    colour_ups: list[dict[str, Any]]
    late_entry_until_level: int | None
    nonce: str


class Clock(Envelope, total=False):
    """The tournament clock as of ``host_ms`` (the host's Unix ms)."""

    level_index: int
    ms_left: int
    paused: bool
    host_ms: int


class Seating(Envelope, total=False):
    """Who sits where (seat numbers as strings), their chips, the first button; ``keep``:
    a re-draw's, the box keeps its own players and chips (docs/protocol.md)."""

    names: dict[str, str]
    stacks: dict[str, int]
    button: int | None
    keep: bool
    history: dict[str, dict[str, Any]]


class Instruction(Envelope, total=False):
    """Something the dealer must do (``action`` and its fields), until the box answers."""

    id: str
    action: str
    seat: int
    to_table: int
    to_seat: int
    name: str
    stack: int
    from_table: int
    away_used: bool
    warnings: int
    slow_play: int
    penalties: int
    chips: int
    instr: str
    text: str


class Ping(Envelope, total=False):
    """Either side's "are you there": ``t`` is the sender's tick; a host's pong adds
    ``host_ms``."""

    t: int
    host_ms: int


class Pair(Envelope, total=False):
    """Over USB only: the key, table and Wi-Fi settings a box is paired with."""

    key: str
    key_id: str
    table: int
    event: str
    settings: dict[str, Any]
    keys: str


class TablePlan(TypedDict, total=False):
    """What a feed gives a box for its table (bodies without kind): the link sends
    config, seating and clock from it."""

    config: TableConfig
    seating: Seating | None
    clock: Clock | None


# ---------------------------------------------------------------- box -> host
class Hello(Envelope, total=False):
    """A box says who it is: firmware, its table, its key id and a fresh nonce."""

    fw: str
    table: int | None
    key_id: str
    nonce: str


class BoxState(TypedDict, total=False):
    """A status message's ``state``: the replay contract (docs/replay.md), the main fields."""

    profile: str
    level: int
    sb: int
    bb: int
    ante: int
    seconds_left: int
    paused: bool
    hand: int
    stacks: dict[str, int]
    error: str | None


class BoxEvent(Envelope, total=False):
    """Something that happened at a table, once (``id`` "<boot>-<n>", ``what`` its kind).
    An answer to an instruction is ``what`` "instruction" with ``instr``, ``result``
    (acknowledged, done, refused), ``reason`` and ``stack``."""

    id: str
    what: str
    hand: int
    button: int | None
    winners: dict[str, int]
    seat: int
    chips_start: int
    instr: str
    result: str
    reason: str
    stack: int
    text: str


# ---------------------------------------------------------------- the host's own
# A frame's envelope read without verifying it (diagnostics only: any JSON values).
Peek = TypedDict("Peek", {"from": Any, "kind": Any, "key_id": Any, "table": Any, "fw": Any})


class Candidate(TypedDict):
    """A serial port that may be a box's (by its USB vendor)."""

    device: str
    vid: int
    pid: int
    maker: str
    serial_number: str | None
    description: str
    interface: str
    data: bool


class Login(TypedDict):
    """A Wi-Fi box's broker login, kept next to the event key (tdhost.links.logins)."""

    table: int
    password: str
    host: str
    port: int


class Note(TypedDict):
    """One line of the console's Wi-Fi card (tdhost.links.wifinotes)."""

    text: str
    at_ms: int
    times: int
