"""Money on the live night (docs/host.md §11): a free tournament has none; a home game's
buy-ins, fee, re-buy and add-on windows, progressive bounties and payouts, each a `money`
event in the league's log that `undo` takes back; the results CLI shows the prizes.

The home game is docs/examples/home_money.toml: £20 buy-in with a £2 fee, one £20 re-buy a
player until level 4, a £10 add-on in level 4, £5 progressive bounties, payouts in £5 steps.
"""

import re

import pytest
from hostutil import run
from liveroom import Room

from tdhost.league.refusal import ActionRefused

MIN = 60000


def refused(live, action, args):
    with pytest.raises(ActionRefused) as err:
        live.act(action, args)
    return str(err.value)


def test_a_free_tournament_shows_and_takes_no_money(tmp_path):
    room = Room(tmp_path, boxes=False)  # the LPPL Monday: free
    live = room.live
    assert live.snapshot()["money"] is None
    version = live.version
    for action, args in (("rebuy", {"name": "Ann"}), ("addon", {"name": "Ann"}),
                         ("knockout", {"name": "Ann", "by": "Bob"}),
                         ("payouts", {"places": [60, 40]})):
        assert refused(live, action, args) == (
            "Monday night at the Red Lion is a free tournament: no money is taken or paid")
    assert live.version == version
    out = run(["results", "--db", room.db, "--plain"]).output
    assert "prize" not in out and "£" not in out


def test_buy_ins_rebuys_addons_and_undo(tmp_path):
    room = Room(tmp_path, example="home_money", boxes=False)  # 20 players
    live = room.live
    m = live.snapshot()["money"]
    # 20 x (£20 - £2 fee) = £360; 20 entries: 40/25/15/12/8 %, each down to £5, the rest
    # to 1st: 144 -> 140, 90, 54 -> 50, 43.20 -> 40, 28.80 -> 25; 1st gets 140 + 15
    assert (m["entries"], m["pool"], m["buy_in"], m["fee"]) == (20, "£360", "£20", "£2")
    assert [p["text"] for p in m["payouts"]] == ["£155", "£90", "£50", "£40", "£25"]
    assert m["rebuy"]["open"] and not m["addon"]["open"]

    assert live.act("rebuy", {"name": "ann"})["text"] == "Re-buy Ann: £20 for 10000 chips."
    snap = live.snapshot()
    assert (snap["money"]["rebuys"], snap["money"]["pool"]) == (1, "£380")
    assert snap["players"]["average_stack"] == (20 * 10000 + 10000) // 20
    assert refused(live, "rebuy", {"name": "Ann"}) == (
        "Ann has had the re-buys allowed (1 a player)")
    assert refused(live, "addon", {"name": "Bob"}) == (
        "add-ons are taken in level 4 and the break after it; this is level 1")
    assert refused(live, "rebuy", {"name": "Nobody"}) == (
        "Nobody is not playing in this tournament")
    assert refused(live, "payouts", {"places": [50, 30]}) == (
        "the percentages add up to 80, not 100")
    assert refused(live, "payouts", {"places": [30, 70]}) == (
        "each place must pay no more than the place above it")

    assert live.snapshot()["undo"]["text"].startswith("Undo: re-buy Ann: £20 for 10000 chips")
    assert live.snapshot()["undo"]["text"].endswith("the re-buy comes off the pool")
    live.act("payouts", {"places": [60, 40]})  # the TD's own table for tonight
    assert [p["text"] for p in live.snapshot()["money"]["payouts"]] == ["£230", "£150"]
    log = [e["text"] for e in live.snapshot()["log"]]
    assert log[-2:] == ["re-buy Ann: £20 for 10000 chips", "payouts set to 60, 40%"]
    live.act("undo", {})  # the payout edit, then the re-buy
    live.act("undo", {})
    m = live.snapshot()["money"]
    assert (m["rebuys"], m["pool"], m["edited"]) == (0, "£360", False)

    room.wait(3 * 20 * MIN)  # level 4: re-buys closed, the add-on open
    assert live.snapshot()["clock"]["level"] == 4
    live.act("rebuy", {"name": "Ann"})  # the undone re-buy does not count
    live.act("addon", {"name": "Bob"})
    assert refused(live, "addon", {"name": "Bob"}) == "Bob has taken the add-on already"
    room.wait(20 * MIN)  # the break after level 4: still in both windows
    assert live.snapshot()["clock"]["is_break"]
    live.act("addon", {"name": "Cat"})
    assert live.snapshot()["money"]["pool"] == "£400"  # 360 + 20 + 2 x 10
    room.wait(15 * MIN)  # level 5: both closed
    assert live.snapshot()["clock"]["level"] == 5
    assert refused(live, "rebuy", {"name": "Dan"}) == (
        "re-buys are taken in levels 1 to 4; this is level 5")
    assert not live.snapshot()["money"]["addon"]["open"]


def test_progressive_bounties_and_prizes_in_the_results(tmp_path):
    room = Room(tmp_path, example="home_money", boxes=False)
    live = room.live
    assert refused(live, "knockout", {"name": "Ann", "by": "Bob"}) == (
        "Ann is not out of the tournament: enter the bust first")
    live.act("bust", {"names": ["Ann"]})
    # Ann's £5: half (£2.50) to Bob in cash, half on Bob's head (now £7.50)
    assert live.act("knockout", {"name": "Ann", "by": "Bob"})["text"] == (
        "Bounty: Bob knocked out Ann.")
    assert refused(live, "knockout", {"name": "Ann", "by": "Cat"}) == (
        "Ann's bounty has been paid already")
    live.act("bust", {"names": ["Bob"]})
    live.act("knockout", {"name": "Bob", "by": "Cat"})  # £7.50: £3.75 cash, £3.75 on Cat
    won = {w["name"]: w["text"] for w in live.snapshot()["money"]["bounty"]["won"]}
    assert won == {"Bob": "£2.50", "Cat": "£3.75"}
    out = run(["results", "--db", room.db, "--plain"]).output
    assert re.search(r"Bob .*£2\.50", out) and re.search(r"Cat .*£3\.75", out)
    assert "prize" in out


def test_the_money_table_in_the_tournament_file():
    from hostutil import EXAMPLES

    from tdhost import tournamentfile
    with open(EXAMPLES + "/home_money.toml", encoding="utf-8") as f:
        text = f.read()
    s = tournamentfile.parse(text, "home.toml")["money"]
    assert (s["buy_in"], s["fee"], s["unit"], s["bounty"]) == (2000, 200, 500, 500)
    assert s["rebuy"] == {"price": 2000, "fee": 0, "chips": 10000, "until_level": 4, "max": 1}
    for old, new, why in (
            ("buy_in = 20 ", "buy_in = \"twenty\" ",
             "home.toml:20: money.buy_in: must be an amount of money like 20 or 12.50, "
             "not 'twenty'."),
            ("fee = 2 ", "fee = 25 ", "home.toml:21: money.fee: must be less than the buy-in."),
            ("places = [50, 30, 20]", "places = [50, 30]",
             "home.toml:40: money.payouts[0].places: the percentages add up to 80, not 100."),
            ("bounty_kind = \"progressive\"", "bounty_kind = \"pko\"",
             "home.toml:24: money.bounty_kind: must be \"fixed\" or \"progressive\", "
             "not 'pko'.")):
        assert old in text
        with pytest.raises(tournamentfile.FileError) as err:
            tournamentfile.parse(text.replace(old, new, 1), "home.toml")
        assert str(err.value) == why
    for name in ("lppl", "us_free"):  # the free leagues: no [money]
        with open("%s/%s.toml" % (EXAMPLES, name), encoding="utf-8") as f:
            assert tournamentfile.parse(f.read(), name)["money"] is None
    with pytest.raises(tournamentfile.FileError) as err:
        tournamentfile.parse(text.replace("chips = 15000", "chips = 0", 1), "home.toml")
    assert str(err.value) == ("home.toml:34: money.addon.chips: must be the whole number of "
                              "chips it buys.")


def test_tied_players_share_the_payouts_of_their_places(tmp_path):
    """Players out in one hand with equal chips tie (WPH: chips only) and share the sum of
    their places' payouts, each in £5 steps, the step left over to the first named."""
    room = Room(tmp_path, example="home_money", boxes=False)  # 20 players: £360
    live = room.live
    names = [r["name"] for r in live.snapshot()["registration"]]
    for n in names[:14]:  # 20th to 7th
        live.act("bust", {"names": [n]})
    a, b, c, d, e, f = names[14:]
    live.act("bust", {"names": [a, b], "chips": [4000, 4000]})  # 5th=: £25 + nothing
    m = live.snapshot()["money"]
    assert [(p["place"], p["name"], p["text"], p["tied"]) for p in m["payouts"]][4:] == [
        (5, a, "£15", True), (5, b, "£10", True)]
    live.act("bust", {"names": [c, d], "chips": [9000, 9000]})  # 3rd=: £50 + £40
    live.act("bust", {"names": [e]})  # 2nd: £90; f wins £155
    m = live.snapshot()["money"]
    assert [(p["place"], p["name"], p["text"]) for p in m["payouts"]] == [
        (1, f, "£155"), (2, e, "£90"), (3, c, "£45"), (3, d, "£45"), (5, a, "£15"),
        (5, b, "£10")]
    assert sum(p["amount_c"] for p in m["payouts"]) == m["pool_c"] == 36000
    res = {r["name"]: (r["place"], r["tied"], r["prize"]) for r in live.snapshot()["results"]}
    assert res[c] == res[d] == (3, True, "£45")
    assert (res[a], res[b], res[names[0]]) == ((5, True, "£15"), (5, True, "£10"),
                                               (20, False, None))
    out = run(["results", "--db", room.db, "--plain"]).output
    assert re.search(r"3rd= +%s .*£45" % c, out) and re.search(r"3rd= +%s .*£45" % d, out)
    assert re.search(r"5th= +%s .*£15" % a, out) and re.search(r"5th= +%s .*£10" % b, out)
