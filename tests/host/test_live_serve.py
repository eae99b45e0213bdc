"""`tdhost serve` (tdhost.cli.serving): options, what it prints, clean stops, a transport that
fails does not stop the night (docs/host.md "The live night")."""

import os
import signal
import time

import pytest
from hostutil import EXAMPLES, at, players, run

from tdhost.cli import serving as _serve
from tdhost.live.night import Live


def _league(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(9), "--db", db], now=at(-50))
    return db


def test_serve_prints_what_it_serves_and_stops(tmp_path):
    db = _league(tmp_path)
    key = tmp_path / "event.key"
    key.write_text("00" * 32 + "\n")
    res = run(["serve", "--db", db, "--key-file", str(key), "--usb", "loop://", "--no-web",
               "--poll-ms", "1", "--seed", "5", "--polls", "3"])
    assert res.output.splitlines() == [
        "Serving tournament 1, Monday night at the Red Lion (lppl), from %s; draws without a "
        "seed use seed 5." % db,
        "Boxes on USB: loop://.",
        "Ctrl-C stops.",
        "Stopped after 3 polls."]
    assert os.path.exists(str(tmp_path / "league-links.sqlite"))


def test_serve_of_a_night_finished_at_the_command_line_says_who_won(tmp_path):
    """Issue #31: nine players busted to a winner with the CLI, then served: the terminal
    says the night is over and who won, before the boxes' line."""
    db = _league(tmp_path)
    run(["draw", "--seed", "7", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    for i, name in enumerate(players(9)[:8]):
        run(["bust", name, "--db", db, "--yes"], now=at(10 + i))
    winner = players(9)[8]
    seats = run(["seats", "--db", db], now=at(30)).output.splitlines()
    assert seats[0] == "Tournament 1: Monday night at the Red Lion (lppl), finished: %s won" \
        % winner  # no level of a clock that means nothing any more, no "1 players in"
    res = run(["serve", "--db", db, "--no-web", "--seed", "5", "--polls", "1"], now=at(30))
    assert res.output.splitlines()[1:3] == [
        "Tournament 1 is over: %s won; the big screen, the console and the players' page show "
        "the results (`tdhost new FILE` sets up the next one)." % winner,
        "No boxes: give --usb DEV or --mqtt URL to serve them."]


def test_serve_refuses_with_one_sentence(tmp_path):
    db = _league(tmp_path)
    res = run(["serve", "--db", db, "--usb", "loop://", "--no-web", "--polls", "1"], expect=2)
    assert res.stderr == ("tdhost serve: --usb, --mqtt and --wifi need --key-file: the event"
                          " key the "
                          "boxes were paired with.\n")
    res = run(["serve", "--db", str(tmp_path / "none.sqlite"), "--no-web"], expect=2)
    assert res.stderr.startswith("tdhost serve: ") and "does not exist" in res.stderr
    key = tmp_path / "event.key"
    key.write_text("00" * 32 + "\n")
    res = run(["serve", "--db", db, "--key-file", str(key), "--usb", str(tmp_path / "nope"),
               "--no-web", "--polls", "1"], expect=2)
    assert res.stderr.startswith("tdhost serve: cannot open %s: " % (tmp_path / "nope"))


class _Broken:
    def __init__(self):
        self.polls = 0

    def poll(self, now):
        self.polls += 1
        raise OSError("the broker went away")


def test_a_failing_transport_never_stops_the_loop(tmp_path):
    import threading

    live = Live(_league(tmp_path), clock=lambda: 1741032000000)
    tr = _Broken()
    slept = []
    n = _serve.run(live, [tr], 50, threading.RLock(), polls=4, sleep=slept.append)
    assert n == 4 and tr.polls == 4 and slept == [0.05] * 4

    def interrupted(_):
        raise KeyboardInterrupt
    assert _serve.run(live, [], 50, threading.RLock(), sleep=interrupted) == 1
    live.close()


class _Wrapping:
    """A transport whose library turns an interrupt into an error of its own."""

    def __init__(self):
        self.polls = 0

    def poll(self, now):
        self.polls += 1
        try:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C lands inside the library ...
            time.sleep(0.05)
        except BaseException as e:  # noqa: BLE001
            raise OSError("connection lost (%r)" % e) from e  # ... which says something else


def test_ctrl_c_stops_the_loop_after_the_poll_under_way_whatever_a_library_does(tmp_path):
    """Stop takes Ctrl-C (and SIGTERM) as a request the loop sees between polls: the poll
    under way ends whole (no write cut in half) and a transport that wraps an interrupt in
    its own error cannot swallow it.  A second Ctrl-C interrupts at once."""
    import threading

    live = Live(_league(tmp_path), clock=lambda: 1741032000000)
    tr = _Wrapping()
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with _serve.Stop() as stop:
        assert _serve.run(live, [tr], 1, threading.RLock(), polls=50, stop=stop) == 1
        assert tr.polls == 1 and stop.asked
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    live.close()


def test_the_web_may_act_from_its_own_threads(tmp_path):
    """tdhost.web runs act() and snapshot() in worker threads under the serve loop's lock:
    the league file's connection allows that."""
    import threading

    live = Live(_league(tmp_path), clock=lambda: 1741032000000)
    out = []
    th = threading.Thread(target=lambda: out.append(live.act("draw", {"seed": 3})))
    th.start()
    th.join(10)
    assert out and out[0]["text"] == "Random draw, seed 3: 9 players at 2 tables."
    assert live.snapshot()["tournament"]["state"] == "drawn"
    live.close()


def test_a_draw_given_a_null_seed_is_refused_and_nothing_is_drawn(tmp_path):
    """A seed sent as JSON null (the console's number field gives null for what is not a
    number) is refused in one sentence; it never draws with no seed."""
    from tdhost.league.refusal import ActionRefused

    live = Live(_league(tmp_path), clock=lambda: 1741032000000, seed=5)
    before = live.snapshot()
    with pytest.raises(ActionRefused,
                       match="^seed must be a whole number from 0 to 999999999999999$"):
        live.act("draw", {"seed": None})
    assert live.snapshot() == before
    assert live.act("draw", {})["text"] == "Random draw, seed 5: 9 players at 2 tables."
    live.close()
