"""A venue's push killed at every statement (issue #33, "Bad input and faults"): the laptop's
process is killed (SIGKILL) right after its k-th statement to the league server, for k = 1,
2, ... until a push finishes without reaching k.  After each kill the league holds exactly
what it held before that push -- nothing of it, nothing twice -- and the next push sends it
whole."""

import os
import signal
import time

import psycopg
from test_season import organiser, set_up, snapshot
from venueutil import night, run

from tdhost.league.store import Store


def _killed_at(lion, login, k):
    """Push *lion* in a forked child killed after its *k*-th statement; True when killed."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 98
        try:
            count = [0]

            def counted(run_statement):
                def wrapper(self, *args, **kwargs):
                    out = run_statement(self, *args, **kwargs)
                    count[0] += 1
                    if count[0] == k:
                        os.kill(os.getpid(), signal.SIGKILL)
                    return out
                return wrapper
            psycopg.Cursor.execute = counted(psycopg.Cursor.execute)
            psycopg.Cursor.executemany = counted(psycopg.Cursor.executemany)
            from tdhost.season import push as _push
            _push.push(str(lion), login)
            code = 0
        except BaseException:  # noqa: BLE001 -- the exit code says it
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return True
    assert os.WEXITSTATUS(status) == 0
    return False


def _settled(league_db):
    """Wait until the server has rolled back the killed push's session."""
    with organiser(league_db) as db:
        for _ in range(200):
            if db.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                          "'tdhost push'").fetchone()[0] == 0:
                return
            time.sleep(0.02)
    raise AssertionError("the killed push's session stayed open")


def test_a_push_killed_at_every_statement_loses_and_doubles_nothing(league_db, tmp_path):
    logins = set_up(league_db)
    login = logins["Red Lion"]
    lion = tmp_path / "lion.sqlite"
    night(lion, tmp_path, "Red Lion Monday", "2025-03-03", ["Ann Lee", "Bob Hart"], ["Cal Diaz"])
    run(["season", "push"], db=lion, server=login)
    # the next week's night, with a ruling asked of the league: pushed under the knife
    night(lion, tmp_path, "Red Lion Monday 2", "2025-03-10", ["Bob Hart", "Dan Roe"],
          ["Cal Diaz"])
    run(["ruling", "Dan Roe", "--decision", "A string bet"], db=lion,
        when="2025-03-10T20:30:00+00:00")
    before = snapshot(league_db)
    k, kills = 1, 0
    while _killed_at(lion, login, k):
        kills += 1
        _settled(league_db)
        assert snapshot(league_db) == before, "killed after statement %d" % k
        k += 1
    assert kills >= 15  # every statement of a push: the version, the claim, the rows, ...
    after = snapshot(league_db)
    store = Store(str(lion), readonly=True)
    try:
        logged = len(store.events())
    finally:
        store.close()
    assert len(after["events"]) == logged  # the whole log once, the ruling with it
    assert [e for e in after["events"] if e[4] == "ruling"][0][5]["name"] == "Dan Roe"
    assert len(after["entrants"]) == 6
    out = run(["season", "push"], db=lion, server=login).output
    assert out.startswith("Nothing new to push: the league has all %d events" % logged)
    assert snapshot(league_db) == after
