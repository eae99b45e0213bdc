"""tableclock/refusals.py: every numbered refusal (``raise Refused(5, seat)``) names its
sentence in a comment, on its line or the line above, and that comment is the catalogue's
sentence; every sentence of the catalogue is raised somewhere; and a numbered refusal reads
as the sentence did before the catalogue (issue #20)."""

import re
from pathlib import Path

from tableclock.fields import Refused
from tableclock.refusals import TEXT
from tableclock.table import Table

CORE = Path(__file__).resolve().parents[2] / "firmware" / "tableclock"
RAISE = re.compile(r"\bRefused\((\d+)[,)]")


def numbered_raises():
    """(file, line number, sentence number, comment) for each numbered raise."""
    out = []
    for path in sorted(CORE.glob("*.py")):
        if path.name == "refusals.py":  # its docstring's example
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = RAISE.search(line)
            if m is None:
                continue
            if "  # " in line[m.end():]:
                comment = line[m.end():].split("  # ", 1)[1]
            else:
                above = lines[i - 1].strip()
                comment = above[2:] if above.startswith("# ") else None
            out.append((path.name, i + 1, int(m.group(1)), comment))
    return out


def test_each_numbered_refusal_names_its_sentence():
    found = numbered_raises()
    assert len(found) >= 40  # table, hand, clock, floor, actions, fields
    for name, line, n, comment in found:
        assert n < len(TEXT), "%s:%d: no sentence %d" % (name, line, n)
        assert comment == TEXT[n], "%s:%d: %r is not sentence %d, %r" % (
            name, line, comment, n, TEXT[n])
    assert {n for _, _, n, _ in found} == set(range(len(TEXT)))  # none left unused


def test_a_numbered_refusal_reads_as_its_sentence():
    assert str(Refused(5, 4)) == "Seat 4 is empty"
    assert str(Refused(4, 11, 9)) == "There is no seat 11 at this 9-seat table"
    assert str(Refused(7)) == "No hand is running: press New hand first"
    assert str(Refused("Seat 3 is already playing")) == "Seat 3 is already playing"
    t = Table({"profile": "lppl", "seats": 9, "button": 1, "players": {"1": 5000, "2": 5000},
               "levels": [{"sb": 25, "bb": 50, "minutes": 20}]})
    assert t.handle({"do": "call"}) == "No hand is running: press New hand first"
    assert t.handle({"do": "leave", "seat": 7}) == "Seat 7 is empty"
    assert t.handle({"do": "sit", "seat": 2, "stack": 100}) == "Seat 2 is taken"
