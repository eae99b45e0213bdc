"""tdhost.live's snapshot() contract (every key, JSON, the states of a night) and the TD's
actions without boxes: instructions wait as `queued` and the TD confirms them by hand
(docs/host.md "The live night")."""

import json

from liveroom import T0_MS, Room

from tdhost.league.refusal import ActionRefused

KEYS = {"event", "tournament", "now_ms", "clock", "players", "tables", "pending", "moves",
        "broken", "final_table", "hand_for_hand", "hand_for_hand_waiting", "registration",
        "standby", "results", "leaderboard", "log", "hand_for_hand_text", "undo", "redo",
        "schedule", "money", "wifi", "league", "reentry", "league_notices", "rulings",
        "box_only"}
CLOCK = {"level_index", "level", "sb", "bb", "ante", "is_break", "ms_left", "paused", "next",
         "break_in_ms", "colour_up"}
TABLE = {"table", "box", "link", "last_contact_ms", "hand", "button", "sb", "bb", "broken",
         "seats", "in_hand"}
PENDING = {"id", "action", "table", "seat", "player", "to_table", "to_seat", "state",
           "reason", "text", "words", "why"}


def _check(snap):
    assert set(snap) == KEYS and set(snap["clock"]) == CLOCK
    assert all(set(t) == TABLE for t in snap["tables"])
    assert all(set(p) == PENDING for p in snap["pending"])
    assert all(set(w) == {"text", "at_ms", "times"} for w in snap["wifi"])
    assert snap["league"] is None  # no league server given (tests/league: with one)
    assert snap["league_notices"] == []  # nor a pull
    assert all(isinstance(line, str) for line in snap["rulings"])
    assert json.loads(json.dumps(snap)) == snap
    return snap


def test_the_snapshot_through_a_night_without_boxes(tmp_path):
    room = Room(tmp_path, n=9, boxes=False, start=False)
    live = room.live
    snap = _check(live.snapshot())
    assert snap["tournament"] == {"number": 1, "name": "Monday night at the Red Lion",
                                  "profile": "lppl", "state": "drawn"}
    assert snap["event"] == "LPPL Lincolnshire"
    assert snap["clock"]["paused"] is True and snap["clock"]["ms_left"] == 20 * 60000
    assert snap["clock"]["next"] == {"sb": 50, "bb": 100, "ante": 0, "is_break": False,
                                     "minutes": 20}
    assert snap["clock"]["break_in_ms"] == 5 * 20 * 60000  # five levels before the break
    # the schedule: level 1 now, then 2-5, the break, 6-8 (eight after the one playing)
    sched = snap["schedule"]["levels"]
    assert [(r["level"], r["is_break"], r["starts_in_ms"] // 60000) for r in sched] == [
        (1, False, 0), (2, False, 20), (3, False, 40), (4, False, 60), (5, False, 80),
        (None, True, 100), (6, False, 110), (7, False, 130), (8, False, 150)]
    assert [(c["after_level"], c["done"], c["now"]) for c in snap["schedule"]["chip_ups"]] == \
        [(5, False, False), (10, False, False)]
    assert snap["money"] is None  # LPPL: a free league
    assert [(t["table"], t["link"], len(t["seats"])) for t in snap["tables"]] == [
        (1, "none", 4), (2, "none", 5)]
    assert snap["players"] == {"entries": 9, "left": 9, "average_stack": None,
                               "chips_in_play": None}

    room.now = T0_MS
    v = live.version
    res = live.act("start", {"absent": ["Ann"]})
    assert res["ok"] and res["text"].startswith("Shuffle up and deal at ")
    assert live.version > v
    snap = _check(live.snapshot())
    assert snap["tournament"]["state"] == "running" and snap["clock"]["paused"] is False
    assert snap["players"] == {"entries": 9, "left": 9, "average_stack": 3000,
                               "chips_in_play": 27000}
    ann = [s for t in snap["tables"] for s in t["seats"].values() if s["name"] == "Ann"]
    assert ann == [{"name": "Ann", "stack": None, "away": True}]

    room.now = T0_MS + 10 * 60000
    res = live.act("arrive", {"name": "Ann"})
    # LPPL ¶14: 500 after 5 minutes
    assert res["text"].endswith("remove 500 chips from Ann's stack.")
    live.poll(room.now)
    pend = _check(live.snapshot())["pending"]
    assert [(p["action"], p["state"], p["player"]) for p in pend] == [
        ("deduct", "queued", "Ann")]  # protocol 1.2: the box takes the chips itself
    seat = live.tournament.get("Ann").seat
    assert live.tournament.instrs[pend[0]["id"]]["body"] == {
        "id": pend[0]["id"], "action": "deduct", "seat": seat[1], "chips": 500}
    assert pend[0]["seat"] == seat[1] and pend[0]["table"] == seat[0]
    live.act("confirm", {"id": pend[0]["id"]})
    assert live.snapshot()["pending"] == []

    res = live.act("bust", {"names": ["Bob", "Cat"], "chips": [1200, 800]})
    assert res["text"].startswith("Cat is out: 9th of 9. Bob is out: 8th of 9. Bob finishes "
                                  "above Cat: more chips at the start of the hand (1200 to 800)")
    live.poll(room.now)
    snap = _check(live.snapshot())
    # the TD's bust: each box takes the seat out (take_out, protocol 1.3); 7 players fit
    # one table: the final table
    assert snap["final_table"] is True and len(snap["broken"]) == 1
    acts = sorted(p["action"] for p in snap["pending"])
    assert acts == ["break_table", "redraw", "redraw", "take_out", "take_out"]
    outs = {p["player"]: (p["table"], p["seat"]) for p in snap["pending"]
            if p["action"] == "take_out"}
    assert outs == {n: tuple(live.tournament.get(n).seat) for n in ("Bob", "Cat")}
    assert {p["state"] for p in snap["pending"]} == {"queued"}
    assert [r["place"] for r in snap["results"]][-2:] == [8, 9]
    assert snap["log"][-1]["action"] == "instr" and all(
        set(x) == {"seq", "action", "text", "time", "who", "undone"} for x in snap["log"])
    assert len(snap["log"]) <= 50

    # the TD's last action is the bust, but the host drew the final table after it: the
    # bust is settled (only the latest change can be taken back), nothing changes
    v = live.version
    try:
        live.act("undo", {})
        raise AssertionError("the bust was undone after the final draw")
    except ActionRefused as err:
        assert str(err).startswith("Cat and Bob's bust (") and \
            "cannot be undone any more: final-table draw" in str(err)
    assert live.version == v and live.snapshot()["final_table"] is True
