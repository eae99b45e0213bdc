"""The blind schedule and the chip-up schedule as the big screen and the players' phones
show them: the level playing, the next levels and breaks with the time each starts in, and
every colour-up with the level it follows.  Integer milliseconds; docs/web.md §4.
"""

from collections.abc import Mapping, Sequence
from typing import Any

Level = Sequence[int]  # a box's parsed level: (sb, bb, ante, ms, number); number 0 = a break
ColourUp = Mapping[str, Any]  # {"after_level", "remove"?, "chip"?} (tableclock.profiles)

AHEAD = 8  # levels and breaks listed after the one playing


def _minutes(ms: int) -> int | float:
    minutes = ms / 60000
    return int(minutes) if minutes == int(minutes) else round(minutes, 2)


def _chips(values: Sequence[int]) -> str:
    texts = ["%d" % value for value in values]
    return texts[0] if len(texts) == 1 else "%s and %s" % (", ".join(texts[:-1]), texts[-1])


def chip_up_text(colour_up: ColourUp) -> str:
    """One sentence for a colour-up: "After level 5: the 25 and 50 chips go out; smallest
    chip 100."."""
    remove = colour_up.get("remove") or []
    chip = colour_up.get("chip")
    parts = []
    if remove:
        parts.append("the %s chips go out" % _chips(remove))
    if chip:
        parts.append("smallest chip %d" % chip)
    what = "; ".join(parts) or "colour-up"
    return "After level %d: %s." % (colour_up["after_level"], what)


def view(levels: Sequence[Level], colour_ups: Sequence[ColourUp] | None, index: int,
         ms_left: int) -> dict[str, list[dict[str, Any]]]:
    """The schedule from entry *index* (playing, *ms_left* to go) on (see the module)."""
    rows = []
    starts = 0
    for j in range(index, min(len(levels), index + 1 + AHEAD)):
        sb, bb, ante, ms, number = levels[j]
        rows.append({"index": j, "level": number or None, "is_break": number == 0,
                     "sb": sb if number else None, "bb": bb if number else None,
                     "ante": ante if number else None, "minutes": _minutes(ms),
                     "now": j == index, "starts_in_ms": 0 if j == index else starts})
        starts += ms_left if j == index else ms
    played = max([level[4] for level in levels[:index + 1] if level[4]] or [0])
    now_level = levels[index][4]
    chip_ups = []
    for colour_up in sorted(colour_ups or [], key=lambda up: up["after_level"]):
        after = colour_up["after_level"]
        chip_ups.append({"after_level": after, "remove": list(colour_up.get("remove") or []),
                         "chip": colour_up.get("chip"), "done": after < played,
                         "now": after == played and not now_level,
                         "text": chip_up_text(colour_up)})
    return {"levels": rows, "chip_ups": chip_ups}
