"""The simulator's world: a virtual clock and what the hardware stubs record.

``now_ms`` is milliseconds since the virtual boot; it only moves when the
simulator calls ``advance(ms)``.  ``ticks_ms()`` is what the board's
``supervisor.ticks_ms()`` returns: it wraps at 2**29 and starts 65 s before
the first wrap, like CircuitPython does, so wrap bugs show early.
"""

WRAP = 1 << 29
START = WRAP - 65000  # CircuitPython's ticks start near the wrap on purpose

now_ms = 0
keys = []  # keypad.Keys instances, in creation order
pending = []  # scheduled key edges: [at_ms, pin name, pressed], sorted by time
pixels = []  # neopixel.NeoPixel instances
tones = []  # (ms, pin name, frequency, duty) each time a PWM output changes
nvm = bytearray(8192)
resets = 0


def ticks_ms():
    return (START + now_ms) & (WRAP - 1)


def advance(ms):
    """Move the virtual clock forward by *ms* (and deliver due key edges)."""
    global now_ms
    now_ms += ms
    deliver()


def deliver():
    """Hand scheduled key edges that are due to their keypad.Keys."""
    while pending and pending[0][0] <= now_ms:
        at, pin, pressed = pending.pop(0)
        for k in keys:
            n = k._index(pin)
            if n >= 0:
                k.events._put(n, pressed, (START + at) & (WRAP - 1))
                break


def schedule(pin, pressed, at_ms):
    """A key edge on *pin* (a name) at virtual time *at_ms*."""
    i = len(pending)
    while i > 0 and pending[i - 1][0] > at_ms:
        i -= 1
    pending.insert(i, [at_ms, pin, pressed])


def reset_world():
    """A fresh world (a new simulated power-up keeps nvm)."""
    global now_ms
    now_ms = 0
    del keys[:]
    del pending[:]
    del pixels[:]
    del tones[:]
