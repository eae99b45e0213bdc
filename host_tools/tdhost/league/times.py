"""Times in the league: the host's clock (TDHOST_NOW overrides it), the log's ISO 8601
texts, the TD's `--at`, Unix milliseconds for the clocks (docs/host.md §3)."""

import datetime
import os
import re

from tdhost.league.refusal import ActionRefused


def now() -> datetime.datetime:
    """The current time (aware, whole seconds); TDHOST_NOW (ISO 8601) overrides it."""
    value = os.environ.get("TDHOST_NOW")
    if value:
        when = datetime.datetime.fromisoformat(value)
        return when if when.tzinfo else when.astimezone()
    return datetime.datetime.now().astimezone().replace(microsecond=0)


def parse_when(text: str, ref: datetime.datetime) -> datetime.datetime:
    """--at: "HH:MM", "HH:MM:SS" (on *ref*'s day) or an ISO 8601 date and time."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", text.strip())
    try:
        if m:
            return ref.replace(hour=int(m.group(1)), minute=int(m.group(2)),
                               second=int(m.group(3) or 0), microsecond=0)
        when = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ActionRefused("%r is not a time: give HH:MM, HH:MM:SS or 2025-03-03T20:15"
                            % text)
    return when if when.tzinfo else when.replace(tzinfo=ref.tzinfo)


def iso(when: datetime.datetime) -> str:
    """*when* as the log writes it (ISO 8601, whole seconds)."""
    return when.isoformat(timespec="seconds")


def from_iso(text: str) -> datetime.datetime:
    """A time the log wrote."""
    return datetime.datetime.fromisoformat(text)


def clock_time(text: str) -> str:
    """A time the log wrote, as HH:MM:SS."""
    return from_iso(text).strftime("%H:%M:%S")


def to_unix_ms(when: datetime.datetime) -> int:
    """A datetime as Unix milliseconds."""
    return int(round(when.timestamp() * 1000))


def mmss(minutes: float) -> str:
    """Minutes as M:SS."""
    s = int(round(minutes * 60))
    return "%d:%02d" % (s // 60, s % 60)
