"""Write a reproducible 200-hand session as replay-contract JSON lines.

    python bench/gen_session.py [OUT] [--hands N] [--seed S]

The session is played by random but legal dealer presses chosen from the
engine's own state (CPython), with away/back, ticks through the levels and
breaks, calls of the clock, showdowns and busts; busted seats are refilled so
the table keeps running.  It is the workload for the MicroPython heap and
allocation figures in bench/run.py.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "firmware"))

from tableclock.table import Table  # noqa: E402

LEVELS = []
for i, (sb, bb) in enumerate([(25, 50), (50, 100), (75, 150), (100, 200), (150, 300),
                              (200, 400), (300, 600), (400, 800), (500, 1000), (600, 1200)]):
    LEVELS.append({"sb": sb, "bb": bb, "ante": 0 if i < 4 else bb // 4, "minutes": 20})
    if i in (4, 8):
        LEVELS.append({"break": 10})


def session(hands=200, seed=1, seats=9):
    rng = random.Random(seed)
    setup = {"profile": "lppl", "seats": seats, "button": 1, "chip": 25,
             "players": {str(s): 5000 for s in range(1, seats + 1)}, "levels": LEVELS}
    t = Table(setup)
    events = []

    def do(ev):
        st = t.apply(ev)
        assert st["error"] is None, (ev, st["error"])
        events.append(ev)
        return st

    st = t.state()
    played = 0
    while played < hands:
        if st["on_break"]:
            st = do({"do": "tick", "s": st["seconds_left"]})
            continue
        for s in range(1, seats + 1):  # refill busted seats
            if str(s) not in st["stacks"] and rng.random() < 0.5:
                st = do({"do": "sit", "seat": s, "stack": 3000})
        if len(st["stacks"]) < 2:
            continue
        if rng.random() < 0.1:
            seat = int(rng.choice(sorted(st["stacks"])))
            st = do({"do": "back" if seat in st["away"] else "away", "seat": seat})
        st = do({"do": "hand"})
        played += 1
        while st["street"] is not None:
            if st["street"] == "showdown":
                live = list(st["in_hand"])
                rng.shuffle(live)
                tiers = [[s] for s in live]
                if len(tiers) > 2 and rng.random() < 0.2:
                    tiers[0].append(tiers.pop(1)[0])  # a split pot now and then
                st = do({"do": "showdown", "ranking": tiers})
                break
            if rng.random() < 0.05 and st["shot_clock"] is None:
                st = do({"do": "clock"})
            r = rng.random()
            owe = st["to_call"]
            if st["min_raise_to"] is not None and r < 0.15:
                stack = st["stacks"][str(st["action"])]
                top = st["bets"].get(str(st["action"]), 0) + stack
                lo = st["min_raise_to"]
                to = top if lo >= top else rng.randint(lo, min(top, lo * 3))
                st = do({"do": "raise", "to": to})
            elif r < 0.2 and (st["min_raise_to"] is not None
                              or st["stacks"][str(st["action"])] <= owe):
                st = do({"do": "allin"})
            elif owe and r < 0.55:
                st = do({"do": "fold"})
            else:
                st = do({"do": "call" if owe else "check"})
        st = do({"do": "tick", "s": rng.randint(60, 150)})
    return setup, events


def main(argv):
    out = os.path.join(HERE, "session200.jsonl")
    hands, seed = 200, 1
    i = 0
    while i < len(argv):
        if argv[i] == "--hands":
            hands = int(argv[i + 1])
            i += 2
        elif argv[i] == "--seed":
            seed = int(argv[i + 1])
            i += 2
        else:
            out = argv[i]
            i += 1
    setup, events = session(hands, seed)
    with open(out, "w") as f:
        f.write(json.dumps(setup) + "\n")
        for ev in events:
            f.write(json.dumps(ev) + "\n")
    print("wrote %s: %d hands, %d events" % (out, hands, len(events)))


if __name__ == "__main__":
    main(sys.argv[1:])
