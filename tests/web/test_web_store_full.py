"""A league file that cannot be written in the middle of the night (issue 30; docs/host.md
§3.3): the TD's action over the console's API is answered with the CLI's sentence
(tdhost.league.store.unusable), not "the host failed"; nothing is written and nothing is
lost, and once there is room again the same action is taken.  A real SQLITE_FULL through
``PRAGMA max_page_count`` on the live night's own connection
(tests/host/test_league_file_access.py makes the others)."""

import json

from test_web_limits import BEARER, T0, TOKEN, TestClient, _league, _log

from tdhost.live.night import Live
from tdhost.web.app import make_app


def test_a_full_disk_mid_night_is_said_as_the_cli_says_it(tmp_path):
    db = _league(tmp_path)
    live = Live(db, clock=lambda: T0 + 60000)
    try:
        c = TestClient(make_app(live, TOKEN), base_url="http://testserver")
        pages = live.store.db.execute("PRAGMA page_count").fetchone()[0]
        live.store.db.execute("PRAGMA max_page_count = %d" % pages)  # SQLite's SQLITE_FULL
        added = 0
        for _ in range(200):  # the free room in the last pages used up, one minute at a time
            before, version = _log(db), live.version
            r = c.post("/api/act/adjust", content=json.dumps({"seconds": 60}), headers=BEARER)
            if r.status_code != 200:
                break
            added += 60
        assert r.status_code == 503, (r.status_code, r.text)
        said = r.json()["error"]
        assert said.startswith("%s cannot be written: the disk is full (" % db), said
        assert "Nothing was recorded and the file is unharmed: free at least" in said, said
        assert _log(db) == before and live.version == version  # nothing written
        assert c.get("/api/state", headers=BEARER).status_code == 200  # the night goes on
        live.store.db.execute("PRAGMA max_page_count = 1073741823")  # room again
        r = c.post("/api/act/adjust", content=json.dumps({"seconds": 60}), headers=BEARER)
        assert r.status_code == 200, r.text
        adjusts = [p for _, action, p in _log(db) if action == "clock"
                   and json.loads(p).get("op") == "adjust"]
        assert len(adjusts) == added // 60 + 1, adjusts  # nothing lost
    finally:
        live.close()
