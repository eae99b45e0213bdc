"""Dealers for a simulated room (tcsim/room.py): tcsim.bots.Night at a box
whose table the host runs.

``RoomNight(box, seed)`` is a Night (random but legal betting through the
box's keys, showdowns and splits, players away and back, clocks called,
misclicks the box must refuse) with the host's part left to the host:

- no host commands at the box: a busted seat stays empty (the player is
  out; the host decides any new seating and sends it over the link), and
  the dealer never pauses or resumes the clock;
- while the host has the clock paused the dealer waits (a Night would
  resume it itself);
- once fewer than two players have chips the dealer only waits (the host
  breaks the table or moves players in).

A bust needs nothing from the dealer: a hand that leaves a player without
chips takes that seat out when it ends (tableclock.table ``end_hand``), and
the box's link reports the ``bust`` to the host (tcbox.linkparts
``events_between``, seen after the save of that change).

``run()`` plays forever; in a room it runs in the box's greenlet, and each
``press``/``tick`` waits for the room's clock (``Box.run_for``).  The
screen's labels are built for a refusal's check only and released again,
so a box with a lazy screen stays light.
"""

from .bots import Night

WAIT_S = 5  # the dealer looks again after this long while the clock is paused


class RoomNight(Night):
    """A Night for a box in a room (module notes).

    :param box: a tcsim.room.Box.
    :param seed: the random seed.
    :param pace: think times are multiplied by this (1: a real table).
    """

    def __init__(self, box, seed=1, pace=1.0, let_clock_run=True):
        super().__init__(box, seed=seed, period=100, host=False, let_clock_run=let_clock_run,
                         pace=pace)
        self.turns = 0

    def turn(self):
        self.turns += 1
        st = self.state()
        if st["paused"]:  # the host paused the clock: its resume comes over the link
            self.idle(WAIT_S)
            return "paused"
        return super().turn()

    def misclick(self, what):
        try:
            super().misclick(what)
        finally:
            release = getattr(self.sim.screen, "release", None)
            if release is not None:
                release()

    def run(self):
        """Deal until stopped (a room runs this in the box's greenlet)."""
        while True:
            self.turn()
