"""Live.check (tdhost.live.checks; docs/web.md §4): before the console asks "Are you
sure?", the host says whom the typed names mean and whether it would take the bust or the
level jump, deciding as the action does and writing nothing."""

import os

import pytest
from hostutil import EXAMPLES, at, players, run

from tdhost.league.refusal import ActionRefused
from tdhost.league.times import to_unix_ms
from tdhost.live.night import Live


@pytest.fixture
def live(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", "Dev Patel", "Devon Smith", *players(7), "--db", db], now=at(-50))
    run(["draw", "--seed", "7", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    lv = Live(db, clock=lambda: to_unix_ms(at(5)))
    yield lv
    lv.close()


def refused(live, action, args):
    with pytest.raises(ActionRefused) as err:
        live.check(action, args)
    return str(err.value)


def test_a_check_resolves_names_and_refuses_what_the_action_would(live):
    events, version = len(live.lg.events), live.version
    # "Dev" is a whole word of one name: Dev Patel, as `tdhost bust Dev` takes it
    assert live.check("bust", {"names": ["dev"]}) == {"ok": True, "names": ["Dev Patel"]}
    assert refused(live, "bust", {"names": ["De"]}) == \
        "De could be Dev Patel and Devon Smith: type more of the name"
    assert refused(live, "bust", {"names": ["Zed"]}) == "nobody called Zed is playing"
    # LPPL has levels 1 to 16 (docs/examples/lppl.toml)
    assert refused(live, "level", {"level": 99}).startswith("there is no level 99")
    assert live.check("level", {"level": 2}) == {"ok": True}
    assert (len(live.lg.events), live.version) == (events, version)  # nothing written
    live.act("bust", {"names": ["Dev Patel"]})
    assert refused(live, "bust", {"names": ["Dev Patel"]}) == "nobody called Dev Patel is playing"
