"""Money on the live night (docs/host.md §11): the TD's re-buys, add-ons, knockouts for the
bounties and payout edits as ``money`` events in the league's log (undone like any action),
and the snapshot's ``money`` view.  A free tournament (no ``[money]`` in its file) refuses
them all and its snapshot's ``money`` is None.  Amounts are integer cents.
"""

from tdhost.league.refusal import ActionRefused
from tdhost.league.text import player_key
from tdhost.league.times import iso
from tdhost.rules import money as _money


def config(t):
    return t.setup.get("money")


def _need(t):
    cfg = config(t)
    if cfg is None:
        raise ActionRefused("%s is a free tournament: no money is taken or paid"
                            % t.setup["name"])
    return cfg


def tally(t):
    """What the money events add up to: {"rebuys": {key: n}, "addons": set of keys,
    "knockouts": [(victim, by)], "places": TD's payout row or None}."""
    out = {"rebuys": {}, "addons": set(), "knockouts": [], "places": None}
    for p in t.money:
        k = p["kind"]
        if k == "rebuy":
            key = player_key(p["name"])
            out["rebuys"][key] = out["rebuys"].get(key, 0) + 1
        elif k == "addon":
            out["addons"].add(player_key(p["name"]))
        elif k == "knockout":
            out["knockouts"].append((p["name"], p["by"]))
        elif k == "payouts":
            out["places"] = p["places"]
    return out


def chips_added(t):
    """Chips bought with re-buys and add-ons (they count in the average stack)."""
    cfg = config(t)
    if not cfg:
        return 0
    n = tally(t)
    return (sum(n["rebuys"].values()) * (cfg["rebuy"] or {}).get("chips", 0)
            + len(n["addons"]) * (cfg["addon"] or {}).get("chips", 0))


def bounties(cfg, t, knockouts):
    """{name: cents won from bounties}, {name: bounty on their head now}."""
    won, heads = {}, {}
    b = cfg["bounty"]
    for e in t.entrants():
        heads[e.name] = b
    for victim, by in knockouts:
        head = heads.pop(victim, b)
        if cfg["bounty_kind"] == "progressive":
            cash = head // 2  # half in cash (to the cent), the rest on the winner's head
            heads[by] = heads.get(by, b) + head - cash
        else:
            cash = head
        won[by] = won.get(by, 0) + cash
    if t.ended:
        w = t.ended["tiers"][0][0]
        won[w] = won.get(w, 0) + heads.pop(w, 0)  # the winner's own bounty
    return won, heads


def view(t, now_ms):
    """The snapshot's ``money`` at *now_ms*: None for a free tournament."""
    cfg = config(t)
    if cfg is None:
        return None
    cur = cfg["currency"]
    n = tally(t)
    entries = len(t.entrants()) if t.started else len(t.entries("registered"))
    rebuys, addons = sum(n["rebuys"].values()), len(n["addons"])
    pool_c = _money.pool(cfg, entries, rebuys, addons)
    amounts = _money.payouts(cfg, pool_c, entries, n["places"])
    payouts = [{"place": i + 1, "amount_c": a, "text": _money.fmt(a, cur), "name": None,
                "tied": False} for i, a in enumerate(amounts)]
    tiers = [x for x in t.ranking() if x[1]] if t.started else []  # placed: (names, 1st, last)
    won = _money.shares(amounts, tiers, cfg["unit"])  # tied players share their places' pay
    for names, first, last in tiers:
        for i, name in enumerate(names if first <= len(amounts) else ()):
            row = {"place": first, "amount_c": won[name], "text": _money.fmt(won[name], cur),
                   "name": name, "tied": first != last}
            if first + i <= len(payouts):
                payouts[first + i - 1] = row
            elif won[name]:  # a tie across the last place paid: a row for each share
                payouts.append(row)
    out = {"currency": cur, "buy_in": _money.fmt(cfg["buy_in"], cur),
           "fee": _money.fmt(cfg["fee"], cur), "entries": entries, "rebuys": rebuys,
           "addons": addons, "pool_c": pool_c, "pool": _money.fmt(pool_c, cur),
           "payouts": payouts, "edited": n["places"] is not None, "bounty": None,
           "rebuy": None, "addon": None}
    level = t.clock_at(now_ms).started_level() if t.started else 0
    for key in ("rebuy", "addon"):
        w = cfg[key]
        if w:
            lo = w.get("from_level", 1)
            out[key] = {"price": _money.fmt(w["price"], cur), "chips": w["chips"],
                        "from_level": lo, "until_level": w["until_level"],
                        "open": bool(t.started) and not t.ended
                        and lo <= max(level, 1) <= w["until_level"]}
    if cfg["bounty"]:
        won, heads = bounties(cfg, t, n["knockouts"])
        out["bounty"] = {"amount": _money.fmt(cfg["bounty"], cur), "kind": cfg["bounty_kind"],
                         "won": [{"name": k, "amount_c": v, "text": _money.fmt(v, cur)}
                                 for k, v in sorted(won.items(), key=lambda x: -x[1])],
                         "knockouts": len(n["knockouts"])}
    return out


def prizes(t, now_ms, v=None):
    """{name: money text} each player has won so far (their place's payout, shared when
    tied, and their bounties), for the results; {} for a free tournament.  *v*: the
    ``view`` at *now_ms* when the caller has it."""
    v = view(t, now_ms) if v is None else v
    if v is None:
        return {}
    cents = {}
    for p in v["payouts"]:
        if p["name"]:
            cents[p["name"]] = cents.get(p["name"], 0) + p["amount_c"]
    for b in (v["bounty"] or {}).get("won", []):
        cents[b["name"]] = cents.get(b["name"], 0) + b["amount_c"]
    return {k: _money.fmt(c, v["currency"]) for k, c in cents.items() if c}


# ------------------------------------------------------------------ the TD's actions

def _name(a, key="name"):
    v = a.get(key)
    if not isinstance(v, str) or not v.strip():
        raise ActionRefused("give %s as a player's name" % key)
    return v


def _in_play(t, name):
    e = t.get(name)
    if e is None or e.state != "in":
        raise ActionRefused("%s is not playing in this tournament" % name)
    return e


def _window(t, live, w, what):
    if t.started is None or t.ended:
        raise ActionRefused("%s are taken while the tournament is playing" % what)
    level = t.clock_at(live.now).started_level()
    lo = w.get("from_level", 1)
    if not lo <= max(level, 1) <= w["until_level"]:
        when = "level %d and the break after it" % lo if lo == w["until_level"] else \
            "levels %d to %d" % (lo, w["until_level"])
        raise ActionRefused("%s are taken in %s; this is level %d" % (what, when, level))
    return level


def _act(kind):
    def act(live, a):
        when = iso(live.when())

        def build(t, lg, seq):
            cfg = _need(t)
            cur = cfg["currency"]
            n = tally(t)
            if kind == "rebuy":
                w = cfg["rebuy"]
                if not w:
                    raise ActionRefused("this tournament has no re-buys")
                e = _in_play(t, _name(a))
                _window(t, live, w, "re-buys")
                had = n["rebuys"].get(player_key(e.name), 0)
                if w["max"] is not None and had >= w["max"]:
                    raise ActionRefused("%s has had the re-buys allowed (%d a player)"
                                        % (e.name, w["max"]))
                p = {"kind": kind, "name": e.name, "time": when,
                     "text": "re-buy %s: %s for %d chips" % (
                         e.name, _money.fmt(w["price"], cur), w["chips"])}
            elif kind == "addon":
                w = cfg["addon"]
                if not w:
                    raise ActionRefused("this tournament has no add-on")
                e = _in_play(t, _name(a))
                _window(t, live, w, "add-ons")
                if player_key(e.name) in n["addons"]:
                    raise ActionRefused("%s has taken the add-on already" % e.name)
                p = {"kind": kind, "name": e.name, "time": when,
                     "text": "add-on %s: %s for %d chips" % (
                         e.name, _money.fmt(w["price"], cur), w["chips"])}
            elif kind == "knockout":
                if not cfg["bounty"]:
                    raise ActionRefused("this tournament has no bounties")
                victim, by = t.get(_name(a)), t.get(_name(a, "by"))
                if victim is None or victim.state != "out":
                    raise ActionRefused("%s is not out of the tournament: enter the bust first"
                                        % a["name"])
                if by is None or by.state not in ("in", "out") or by is victim:
                    raise ActionRefused("%s did not play in this tournament" % a["by"])
                if any(v == victim.name for v, _ in n["knockouts"]):
                    raise ActionRefused("%s's bounty has been paid already" % victim.name)
                p = {"kind": kind, "name": victim.name, "by": by.name, "time": when,
                     "text": "bounty: %s knocked out %s" % (by.name, victim.name)}
            elif kind == "payouts":
                places = a.get("places")
                why = _money.check_places(places)
                if why:
                    raise ActionRefused(why)
                p = {"kind": kind, "places": list(places), "time": when,
                     "text": "payouts set to %s%%" % ", ".join("%g" % x for x in places)}
            return [("money", p, None)], p
        p = live.write(build)
        return p["text"][:1].upper() + p["text"][1:] + "."
    return act


ACTS = {"rebuy": _act("rebuy"), "addon": _act("addon"), "knockout": _act("knockout"),
        "payouts": _act("payouts")}
