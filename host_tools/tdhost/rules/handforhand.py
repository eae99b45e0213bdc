"""Hand for hand (TDA RP-8) on the live night: which tables take part, which hand each must
finish before the release, and what each must finish after it.  No house text says anything
about hand for hand; the procedure and ``CLOCK`` (the clock runs under every profile) are
ours, told in docs/host.md §10.8.
"""

from collections.abc import Collection, Mapping
from typing import Any

CLOCK: dict[str, str] = {"lppl": "runs", "us_free": "runs", "wph": "runs"}


def playing_tables(seating: Mapping[int, Collection[Any]], broken: Collection[int]) -> list[int]:
    """Tables with two players or more that are not broken, sorted."""
    return sorted(num for num, seats in seating.items() if len(seats) >= 2 and num not in broken)


def ended_hand(status: object) -> int:
    """The last hand a box's status says has ended (-1 without a status)."""
    if not isinstance(status, dict) or not isinstance(status.get("hand"), int):
        return -1
    hand: int = status["hand"]
    return hand if status.get("street") is None else hand - 1


def start_wait(tables: Collection[int], hands: Mapping[int, int]) -> dict[str, int]:
    """{table (text): the hand it must finish}: its current (or last) hand number, 0 for a
    table without a status."""
    return {str(num): max(0, hands.get(num, 0)) for num in tables}


def waiting_for(wait: Mapping[str, int], ended: Mapping[int, int],
                tables: Collection[int]) -> list[int]:
    """The tables still playing the hand the release waits for (of those in *tables*)."""
    return [num for num in tables if str(num) in wait and ended.get(num, -1) < wait[str(num)]]


def next_wait(tables: Collection[int], ended: Mapping[int, int]) -> dict[str, int]:
    """After a release: each table must end the hand after its last ended one."""
    return {str(num): max(0, ended.get(num, -1)) + 1 for num in tables}
