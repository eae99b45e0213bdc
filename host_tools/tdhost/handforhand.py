"""Hand for hand (TDA RP-8) on the live night (docs/host.md, "The live night", "Hand for
hand", which quotes what each house text says -- which is nothing about hand for hand; the
choices below are ours and documented there).

- ``hand_for_hand`` on: ``hand_for_hand_start`` to every table that plays (two players or
  more, not broken).  Each of them finishes the hand it is playing; a table between hands
  has finished.  The host waits for hand ``wait[table]`` to have ended at every such table:
  the hand it was playing (the number in its box's status), later the hand after each
  release.
- When every waited table has ended its hand (``hand_ended``, or a status between hands
  with that hand number), ``next_hand`` goes to all of them at once and the wait moves on
  by one hand each (an ``hfh_release`` event: a restarted host knows what it waits for).
- ``hand_for_hand`` off: ``hand_for_hand_stop`` to the same tables.

A table without a box (or whose box never sent a status) cannot say it has finished: it
holds the release until its box reports, or the TD turns hand for hand off.

**The clock** (``CLOCK``, per profile): none of the three house texts says anything about
hand for hand or the clock during it, so the clock **runs** under every profile.  A
stopped clock with a fixed deduction per hand (a common TDA-room practice) cannot be shown
on the boxes: a box refuses to deal while its clock is paused ("The clock is paused:
resume it to deal", tableclock.table) and its shot clock stops with it.  A running clock
charges each round the time it really took.
"""

CLOCK = {"lppl": "runs", "us_free": "runs", "wph": "runs"}


def playing_tables(seating, broken):
    """Tables with two players or more that are not broken, sorted."""
    return sorted(tb for tb, seats in seating.items() if len(seats) >= 2 and tb not in broken)


def ended_hand(status):
    """The last hand a box's status says has ended (-1 without a status)."""
    if not isinstance(status, dict) or not isinstance(status.get("hand"), int):
        return -1
    return status["hand"] if status.get("street") is None else status["hand"] - 1


def start_wait(tables, hands):
    """{table (text): the hand it must finish}: its current (or last) hand number, 0 for a
    table without a status."""
    return {str(tb): max(0, hands.get(tb, 0)) for tb in tables}


def waiting_for(wait, ended, tables):
    """The tables still playing the hand the release waits for (of those in *tables*)."""
    return [tb for tb in tables if str(tb) in wait and ended.get(tb, -1) < wait[str(tb)]]


def next_wait(tables, ended):
    """After a release: each table must end the hand after its last ended one."""
    return {str(tb): max(0, ended.get(tb, -1)) + 1 for tb in tables}
