"""The TD's money decisions (docs/host.md §11): a re-buy, an add-on, a knockout for the
bounties and tonight's payout row, each a ``money`` event's payload or ActionRefused, and the
tally of those events.  `tdhost rebuy`/`addon`/`knockout`/`payouts` and the console's
actions (tdhost.live.money) call the same ``decide_money``.  A free tournament (no
``[money]`` in its file) refuses them all."""

import datetime
from typing import Any, Dict, Mapping, Optional

from tdhost.league.refusal import ActionRefused
from tdhost.league.text import player_key
from tdhost.league.times import iso, to_unix_ms
from tdhost.league.tournament import Payload, Tournament
from tdhost.rules import money as _money

KINDS = ("rebuy", "addon", "knockout", "payouts")


def config(tournament: Tournament) -> Optional[Dict[str, Any]]:
    """The tournament's ``[money]`` (None: a free tournament)."""
    return tournament.setup.get("money")


def _need(tournament: Tournament) -> Dict[str, Any]:
    cfg = config(tournament)
    if cfg is None:
        raise ActionRefused("%s is a free tournament: no money is taken or paid"
                            % tournament.setup["name"])
    return cfg


def tally(tournament: Tournament) -> Dict[str, Any]:
    """What the money events add up to: {"rebuys": {key: n}, "addons": set of keys,
    "knockouts": [(victim, by)], "places": TD's payout row or None}."""
    out: Dict[str, Any] = {"rebuys": {}, "addons": set(), "knockouts": [], "places": None}
    for payload in tournament.money:
        k = payload["kind"]
        if k == "rebuy":
            key = player_key(payload["name"])
            out["rebuys"][key] = out["rebuys"].get(key, 0) + 1
        elif k == "addon":
            out["addons"].add(player_key(payload["name"]))
        elif k == "knockout":
            out["knockouts"].append((payload["name"], payload["by"]))
        elif k == "payouts":
            out["places"] = payload["places"]
    return out


def _name(args: Mapping[str, Any], key: str = "name") -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ActionRefused("give %s as a player's name" % key)
    return value


def _in_play(tournament: Tournament, name: str) -> Any:
    entry = tournament.get(name)
    if entry is None or entry.state != "in":
        raise ActionRefused("%s is not playing in this tournament" % name)
    return entry


def _window(tournament: Tournament, when: datetime.datetime, window: Dict[str, Any],
            what: str) -> int:
    if tournament.started is None or tournament.ended:
        raise ActionRefused("%s are taken while the tournament is playing" % what)
    level = tournament.clock_at(to_unix_ms(when)).started_level()
    lo = window.get("from_level", 1)
    if not lo <= max(level, 1) <= window["until_level"]:
        span = "level %d and the break after it" % lo if lo == window["until_level"] else \
            "levels %d to %d" % (lo, window["until_level"])
        raise ActionRefused("%s are taken in %s; this is level %d" % (what, span, level))
    return level


def decide_money(tournament: Tournament, kind: str, args: Mapping[str, Any],
                 when: datetime.datetime) -> Payload:
    """The ``money`` payload of the TD's *kind* (KINDS) with *args* ({"name"}, {"name",
    "by"}, {"places"}) at *when*; ActionRefused with one sentence (nothing is written)."""
    cfg = _need(tournament)
    cur = cfg["currency"]
    bought = tally(tournament)
    at = iso(when)
    if kind == "rebuy":
        window = cfg["rebuy"]
        if not window:
            raise ActionRefused("this tournament has no re-buys")
        entry = _in_play(tournament, _name(args))
        _window(tournament, when, window, "re-buys")
        had = bought["rebuys"].get(player_key(entry.name), 0)
        if window["max"] is not None and had >= window["max"]:
            raise ActionRefused("%s has had the re-buys allowed (%d a player)"
                                % (entry.name, window["max"]))
        return {"kind": kind, "name": entry.name, "time": at,
                "text": "re-buy %s: %s for %d chips" % (
                    entry.name, _money.fmt(window["price"], cur), window["chips"])}
    if kind == "addon":
        window = cfg["addon"]
        if not window:
            raise ActionRefused("this tournament has no add-on")
        entry = _in_play(tournament, _name(args))
        _window(tournament, when, window, "add-ons")
        if player_key(entry.name) in bought["addons"]:
            raise ActionRefused("%s has taken the add-on already" % entry.name)
        return {"kind": kind, "name": entry.name, "time": at,
                "text": "add-on %s: %s for %d chips" % (
                    entry.name, _money.fmt(window["price"], cur), window["chips"])}
    if kind == "knockout":
        if not cfg["bounty"]:
            raise ActionRefused("this tournament has no bounties")
        victim, by = tournament.get(_name(args)), tournament.get(_name(args, "by"))
        if victim is None or victim.state != "out":
            raise ActionRefused("%s is not out of the tournament: enter the bust first"
                                % args["name"])
        if by is None or by.state not in ("in", "out") or by is victim:
            raise ActionRefused("%s did not play in this tournament" % args["by"])
        if any(victim_name == victim.name for victim_name, _ in bought["knockouts"]):
            raise ActionRefused("%s's bounty has been paid already" % victim.name)
        return {"kind": kind, "name": victim.name, "by": by.name, "time": at,
                "text": "bounty: %s knocked out %s" % (by.name, victim.name)}
    if kind == "payouts":
        places: Any = args.get("places")
        why = _money.check_places(places)
        if why:
            raise ActionRefused(why)
        return {"kind": kind, "places": list(places), "time": at,
                "text": "payouts set to %s%%" % ", ".join("%g" % x for x in places)}
    raise ActionRefused("there is no money action %r" % kind)


def money_sentence(payload: Payload) -> str:
    """A recorded ``money`` event, as both paths say it."""
    text: str = payload["text"]
    return text[:1].upper() + text[1:]
