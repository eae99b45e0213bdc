"""The TD's undo list survives a host restart (docs/live.md "The TD's actions and undo",
docs/web.md "Undo and redo"): a host killed and started again on the same league file
offers the same Undo and Redo, in the same words, and they do what they did before; an
entry that cannot be read is dropped with one sentence and the host starts; a new
tournament's list starts empty.

LPPL, 20 players at three boxes (seed 7).  Table 1 plays one hand first, everyone
folding to the big blind: the small blind has 2,975 chips, the big blind 3,025."""

import os
import sqlite3

import pytest
from hostutil import EXAMPLES, at, run
from liveroom import after_one_hand, allin

import crashpoints
from tdhost.league.refusal import ActionRefused
from tdhost.live import instruction_log as _ins
from tdhost.live.night import Live


class Killed(BaseException):
    """The host process dies here (raised by the crash hook, as in test_live_crash)."""


def _listed(live):
    """The undo list and the redo list as the console offers them, every entry's words."""
    return ([(e["n"], e["time"], e["what"], e["then"]) for e in live.journal.done],
            [(e["n"], e["time"], e["what"], e["then"]) for e in live.journal.undone],
            live.snapshot()["undo"], live.snapshot()["redo"])


def _state(room):
    lg = room.live.lg
    return len(lg.events), sorted(lg.undone), room.live.journal.view()


def test_the_undo_list_is_the_same_after_a_restart(tmp_path):
    room, big, name = after_one_hand(tmp_path)
    live = room.live
    live.act("bust", {"names": [name]})
    room.run(2000)
    room.now += 60000
    live.act("pause", {})
    live.act("adjust", {"seconds": 60})
    live.act("undo", {})  # the minute: Redo offers it
    before = _listed(live)
    assert before[2]["text"] == ("Undo: clock paused at 18:55 of level 1 (20:01) — the clock "
                                 "runs on as if it had not been paused")
    assert before[3]["text"] == "Redo: 1 min added to level 1 (undone; first done at 20:01)"
    assert before[0][-2][2:] == ("%s's bust" % name, "%s returns to table 1 seat %d with "
                                 "3,025 chips" % (name, big))
    room.restart()
    room.run(2000)
    assert _listed(room.live) == before
    assert [x for x in room.live.snapshot()["log"] if x["action"] == "notice"] == []


def test_a_bust_undone_after_a_restart_returns_the_player_with_their_chips(tmp_path):
    room, big, name = after_one_hand(tmp_path)
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    assert room.live.tournament.get(name).state == "out"
    room.restart()
    room.run(2000)
    res = room.live.act("undo", {"n": room.live.snapshot()["undo"]["n"]})
    assert res["text"] == "Undone: %s's bust (20:00) — %s returns to table 1 seat %d with " \
        "3,025 chips." % (name, name, big)
    room.run(2000)
    player = room.live.tournament.get(name)
    assert player.state == "in" and player.seat == [1, big]
    assert room.boxes[1].table.stacks[big] == 3025  # the take_out is called off at the box
    take = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"]
    assert [_ins.state(r) for r in take] == ["cancelled"]
    assert room.live.snapshot()["undo"]["text"].startswith("Undo: shuffle up and deal (20:00)")
    assert room.live.snapshot()["redo"]["text"].startswith("Redo: %s's bust (undone" % name)


def test_after_a_restart_an_undo_is_checked_as_before(tmp_path):
    """Table 1's box reports a bust after the TD's (the restarted host applies it): the
    TD's bust cannot be taken back without it; refused in one sentence, nothing changes."""
    room, big, name = after_one_hand(tmp_path)
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    room.restart()
    room.run(2000)
    b2 = room.boxes[2]
    seats = sorted(b2.table.stacks)
    allin(b2, [seats[0]], seats[1])
    room.run(6000)
    assert [ev.payload.get("by") for ev in room.live.lg.events if ev.action == "bust"] == [
        "td", "box"]
    before = _state(room)
    with pytest.raises(ActionRefused) as err:
        room.live.act("undo", {})
    assert str(err.value).startswith("%s's bust (20:00) cannot be undone any more: " % name)
    assert _state(room) == before and room.live.tournament.get(name).state == "out"


def test_a_redo_after_a_restart_busts_the_player_again(tmp_path):
    room, big, name = after_one_hand(tmp_path)
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    room.restart()
    room.run(2000)
    redo = room.live.snapshot()["redo"]
    assert redo["text"] == "Redo: %s's bust (undone; first done at 20:00)" % name
    res = room.live.act("redo", {"n": redo["n"]})
    assert res["text"].startswith("Done again: %s is out: 20th of 20." % name)
    assert room.live.tournament.get(name).state == "out"
    assert room.live.snapshot()["redo"] is None
    assert room.live.snapshot()["undo"]["text"] == (
        "Undo: %s's bust (20:00) — %s returns to table 1 seat %d with 3,025 chips"
        % (name, name, big))
    room.restart()  # and the redone bust is kept as well
    assert room.live.snapshot()["undo"]["text"].startswith("Undo: %s's bust (20:00)" % name)


def test_an_entry_that_cannot_be_read_is_dropped_with_a_sentence(tmp_path):
    room, big, name = after_one_hand(tmp_path)
    live = room.live
    live.act("bust", {"names": [name]})
    live.act("pause", {})
    live.act("resume", {})
    live.close()
    db = sqlite3.connect(room.db)
    rows = db.execute("SELECT n, entry FROM undo_journal ORDER BY n").fetchall()[-3:]
    assert [r[1].count("clock") for r in rows] == [0, 2, 2]  # the bust, pause, resume
    with db:
        db.execute("UPDATE undo_journal SET entry = ? WHERE n = ?",
                   (rows[1][1].replace('"v": 1', '"v": 0'), rows[1][0]))  # an older format
        db.execute("UPDATE undo_journal SET entry = ? WHERE n = ?", ('{"v": 1, "act', rows[2][0]))
    db.close()
    room.restart()
    room.run(1000)
    notices = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert notices == ["2 actions kept for Undo from before the restart could not be read "
                       "(damaged or written in an older format) and were dropped: they can no "
                       "longer be undone from the console."]
    assert room.live.snapshot()["undo"]["text"].startswith("Undo: %s's bust (20:00)" % name)
    room.live.act("undo", {})
    assert room.live.tournament.get(name).state == "in"
    room.restart()  # dropped once: no second notice
    assert len([x for x in room.live.snapshot()["log"] if x["action"] == "notice"]) == 1


def test_an_undo_list_that_cannot_be_read_is_dropped_and_the_host_starts(tmp_path):
    room, _, name = after_one_hand(tmp_path)
    room.live.act("bust", {"names": [name]})
    room.live.close()
    db = sqlite3.connect(room.db)
    with db:
        db.execute("DROP TABLE undo_journal")
        db.execute("CREATE TABLE undo_journal (tournament INTEGER, what TEXT)")
    db.close()
    room.restart()
    notices = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert notices == ["The Undo list kept from before the restart could not be read (no such "
                       "column: n) and was dropped: Undo offers what is done from now on."]
    assert room.live.snapshot()["undo"] is None
    room.live.act("pause", {})
    assert room.live.snapshot()["undo"]["text"].startswith("Undo: clock paused")
    room.restart()
    assert room.live.snapshot()["undo"]["text"].startswith("Undo: clock paused")


def test_a_new_tournament_does_not_offer_the_last_ones_actions(tmp_path):
    room, _, name = after_one_hand(tmp_path)
    room.live.act("bust", {"names": [name]})
    room.live.close()
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", room.db], now=at(24 * 60))
    live = Live(room.db, clock=room.clock)
    try:
        assert live.tournament.number == 2
        assert live.snapshot()["undo"] is None and live.snapshot()["redo"] is None
    finally:
        live.close()
    live = Live(room.db, number=1, clock=room.clock)  # the last night's list is its own
    try:
        assert live.snapshot()["undo"]["text"].startswith("Undo: %s's bust (20:00)" % name)
    finally:
        live.close()


def _killed_at(room, k, action, args):
    """The TD's *action* (*args*) on *room*'s host, which dies after its *k*-th write to
    the league file (the kernel then closes the file: its transaction rolls back) and
    starts again.  False when the action made fewer than *k* writes (nothing restarted)."""
    killed = []

    def hook(n):
        if n == k and not killed:
            killed.append(n)
            raise Killed()
    crashpoints.reset()
    crashpoints.hook(hook)
    try:
        room.live.act(action, args)
    except Killed:
        pass
    finally:
        crashpoints.hook(None)
    if not killed:
        return False
    room.live.store.db.close()
    room.restart()
    return True


def test_a_host_killed_at_any_write_of_a_bust_keeps_it_and_its_undo_together(tmp_path):
    """The host dies after each write of the TD's bust in turn: after the restart the bust
    is in the league exactly when Undo offers it."""
    k = 0
    while True:
        k += 1
        room, _, name = after_one_hand(tmp_path / ("k%d" % k))
        if not _killed_at(room, k, "bust", {"names": [name]}):
            break
        out = room.live.tournament.get(name).state == "out"
        undo = room.live.snapshot()["undo"]
        assert (undo is not None and undo["text"].startswith("Undo: %s's bust" % name)) == out, \
            "host killed after write %d" % k
        if out:
            room.live.act("undo", {})
            assert room.live.tournament.get(name).state == "in"
    assert k > 3


def test_a_host_killed_at_any_write_of_an_undo_keeps_it_and_its_redo_together(tmp_path):
    """The host dies after each write of the TD's undo of a bust in turn: after the restart
    the player is back exactly when Redo (not Undo) offers the bust."""
    k = 0
    while True:
        k += 1
        room, _, name = after_one_hand(tmp_path / ("k%d" % k))
        room.live.act("bust", {"names": [name]})
        room.run(2000)
        if not _killed_at(room, k, "undo", {}):
            break
        back = room.live.tournament.get(name).state == "in"
        undo, redo = room.live.snapshot()["undo"], room.live.snapshot()["redo"]
        bust = "%s's bust" % name
        assert (redo is not None and bust in redo["text"]) == back, "killed after write %d" % k
        assert (undo is not None and bust in undo["text"]) == (not back)
        room.live.act("redo" if back else "undo", {})  # either way it goes on from there
        assert room.live.tournament.get(name).state == ("out" if back else "in")
    assert k > 3
