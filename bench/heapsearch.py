"""The smallest heap a MicroPython run fits in, found by bisection (bench/README.md, "The
box's heap"): the bench's night and power-up rows ask it of their own runs."""

from __future__ import annotations

from typing import Callable


def smallest(runs: Callable[[int], bool], lo: int, hi: int, step: int) -> int:
    """The smallest multiple of *step* KiB in (*lo*, *hi*] at which *runs* (KiB -> did the
    run fit) holds, given that it holds at *hi*; a size whose next step up fails is passed
    over (a heap that fragments fits or not non-monotonically: the size above must run too)."""
    a, b = lo // step, hi // step  # runs(b * step); a: not known to run
    while b - a > 1:
        m = (a + b) // 2
        if runs(m * step):
            b = m
        else:
            a = m
    k = b * step
    while k + step <= hi and not runs(k + step):  # the size above must run too
        k += 2 * step
    return k
