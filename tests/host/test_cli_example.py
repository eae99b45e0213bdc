"""`tdhost example`: the tournament files a TD starts from, listed and written into the
current folder, never over a file that is there (tdhost.cli.example)."""

import os

from hostutil import run

from tdhost.cli.example import examples


def test_the_list_names_every_profile_and_what_each_file_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run(["example"]).output
    assert "lppl            LivePubPokerLeague weekly game (profile lppl)" in out
    assert "us_free         A U.S. \"free\" poker league night (profile us_free)" in out
    assert "wph             A WPH home league game on the Poker TDA 2022 rules (profile wph)" in out
    assert sorted(examples()) == ["home_money", "lppl", "lppl_deepstack", "us_free", "wph"]
    assert os.listdir(tmp_path) == []  # the list writes nothing


def test_an_example_is_written_here_and_starts_a_league(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run(["example", "us_free"]).output
    assert out == ("Wrote us_free.toml: A U.S. \"free\" poker league night (profile us_free). "
                   "Set its date, name and levels, then `tdhost new us_free.toml`.\n")
    text = (tmp_path / "us_free.toml").read_text()
    assert "`tdhost new us_free.toml --db us.sqlite`" in text  # its own name, not docs/...
    out = run(["new", "us_free.toml", "--db", str(tmp_path / "us.sqlite")]).output
    assert "profile us_free)." in out


def test_an_example_never_overwrites_and_an_unknown_name_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lppl.toml").write_text("mine")
    res = run(["example", "lppl"], expect=2)
    assert res.stderr == ("tdhost example: lppl.toml already exists: it is kept as it is "
                          "(give another name with --out FILE).\n")
    assert (tmp_path / "lppl.toml").read_text() == "mine"
    run(["example", "lppl", "--out", "monday.toml"])
    assert (tmp_path / "monday.toml").read_text().startswith("# LivePubPokerLeague")
    res = run(["example", "lpl"], expect=2)
    assert res.stderr == ("tdhost example: there is no example named lpl; the examples are "
                          "home_money, lppl, lppl_deepstack, us_free, wph.\n")
