"""tdhost.links.pipe: the in-memory cable joins a real box Link and a host BoxLink."""

from tableclock.table import Table
from tcbox.link.box_end import Link
from tcbox.link.frames import setup_of
from tcbox.link.states import LIVE
from tdhost.links.boxlink import BoxLink, StaticFeed
from tdhost.links.hoststore import HostStore
from tdhost.links.pipe import Cable

KEY = bytes(range(32))
LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]
SETUP = {"profile": "lppl", "seats": 6, "players": {"1": 3000, "2": 3000, "3": 3000},
         "button": 1, "levels": LEVELS}


def test_a_box_goes_live_over_the_cable_and_a_cut_loses_nothing(tmp_path):
    cable = Cable(capacity=512)
    table = Table(SETUP)
    box = Link(cable.a, "tc-01", table, key=KEY, key_id="ev1")
    box.restore(None)
    box.table_no = 4  # as pairing leaves it
    feed = StaticFeed({4: {"config": setup_of(SETUP),
                           "seating": {"names": {"1": "Ann", "2": "Bo", "3": "Cy"}},
                           "clock": {"level_index": 0, "ms_left": 600000, "paused": False}}})
    host = BoxLink(cable.b, KEY, "ev1", HostStore(str(tmp_path / "h.sqlite")), feed=feed)
    now = 1000
    for _ in range(200):
        box.poll(now)
        host.poll(now)
        now += 10
    assert box.state == LIVE and host.state == "live" and host.box == "tc-01"
    assert cable.b.writes > 0 and cable.a.writes > 0
    cable.cut()
    assert not cable.a.connected and cable.a.write(b"x") == 0
    cable.mend()
    assert cable.a.write(b"x" * 600) == 512  # the capacity bounds what waits
