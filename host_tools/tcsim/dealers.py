"""Dealers for a simulated room (tcsim/room.py): :class:`RoomNight` is a SessionBot at a box
whose table the host runs -- no host commands at the box, a busted seat stays empty, it waits
while the host has the clock paused, and in a room each press and tick waits for the room's
clock (the box's greenlet).  docs/simulator.md, "A room of boxes" (Dealers).
"""

from typing import Any

from .bots import SessionBot

WAIT_S = 5  # the dealer looks again after this long while the clock is paused


class RoomNight(SessionBot):
    """A SessionBot for a box in a room (module notes).

    :param box: a tcsim.room.Box.
    :param seed: the random seed.
    :param pace: think times are multiplied by this (1: a real table).
    """

    def __init__(self, box: Any, seed: int = 1, pace: float = 1.0,
                 let_clock_run: bool = True) -> None:
        super().__init__(box, seed=seed, period=100, host=False, let_clock_run=let_clock_run,
                         pace=pace)
        self.turns = 0

    def turn(self) -> Any:
        self.turns += 1
        st = self.state()
        if st["paused"]:  # the host paused the clock: its resume comes over the link
            self.idle(WAIT_S)
            return "paused"
        return super().turn()

    def misclick(self, what: str) -> None:
        try:
            super().misclick(what)
        finally:
            release = getattr(self.sim.screen, "release", None)
            if release is not None:
                release()

    def run(self) -> None:
        """Deal until stopped (a room runs this in the box's greenlet)."""
        while True:
            self.turn()
