"""Money on the live night (docs/host.md §11): the TD's re-buys, add-ons, knockouts for the
bounties and payout edits as ``money`` events in the league's log (undone like any action),
and the snapshot's ``money`` view.  A free tournament (no ``[money]`` in its file) refuses
them all and its snapshot's ``money`` is None.  Amounts are integer cents."""

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, TypedDict

from tdhost.league.money_decisions import config, decide_money, money_sentence, tally
from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live.effects import Effects, Steps
from tdhost.live.shapes import Batch
from tdhost.rules import money as _money

if TYPE_CHECKING:
    from tdhost.live.console_actions import Desk

Args = Dict[str, Any]


class PayoutRow(TypedDict):
    """One row of the snapshot's ``money.payouts``: a place and who won it."""
    place: int
    amount_c: int
    text: str
    name: Optional[str]
    tied: bool


def chips_added(tournament: Tournament) -> int:
    """Chips bought with re-buys and add-ons (they count in the average stack)."""
    cfg = config(tournament)
    if not cfg:
        return 0
    bought = tally(tournament)
    return (sum(bought["rebuys"].values()) * (cfg["rebuy"] or {}).get("chips", 0)
            + len(bought["addons"]) * (cfg["addon"] or {}).get("chips", 0))


def bounties(cfg: Dict[str, Any], tournament: Tournament,
             knockouts: List[Tuple[str, str]]) -> Tuple[Dict[str, int], Dict[str, int]]:
    """{name: cents won from bounties}, {name: bounty on their head now}."""
    won: Dict[str, int] = {}
    heads: Dict[str, int] = {}
    bounty = cfg["bounty"]
    for entry in tournament.entrants():
        heads[entry.name] = bounty
    for victim, by in knockouts:
        head = heads.pop(victim, bounty)
        if cfg["bounty_kind"] == "progressive":
            cash = head // 2  # half in cash (to the cent), the rest on the winner's head
            heads[by] = heads.get(by, bounty) + head - cash
        else:
            cash = head
        won[by] = won.get(by, 0) + cash
    if tournament.ended:
        window = tournament.ended["tiers"][0][0]
        won[window] = won.get(window, 0) + heads.pop(window, 0)  # the winner's own bounty
    return won, heads


def view(tournament: Tournament, now_ms: int) -> Optional[Dict[str, Any]]:
    """The snapshot's ``money`` at *now_ms*: None for a free tournament."""
    cfg = config(tournament)
    if cfg is None:
        return None
    cur = cfg["currency"]
    bought = tally(tournament)
    entries = tournament.entry_count() if tournament.started \
        else len(tournament.entries("registered"))
    rebuys, addons = sum(bought["rebuys"].values()), len(bought["addons"])
    pool_c = _money.pool(cfg, entries, rebuys, addons)
    amounts = _money.payouts(cfg, pool_c, entries, bought["places"])
    payouts: List[PayoutRow] = [{"place": i + 1, "amount_c": amount,
                                 "text": _money.fmt(amount, cur), "name": None, "tied": False}
                                for i, amount in enumerate(amounts)]
    # placed: (names, 1st, last)
    tiers = [(names, first, last) for names, first, last in tournament.ranking()
             if first and last] if tournament.started else []
    won = _money.shares(amounts, tiers, cfg["unit"])  # tied players share their places' pay
    for names, first, last in tiers:
        for i, name in enumerate(names if first <= len(amounts) else ()):
            row: PayoutRow = {"place": first, "amount_c": won[name],
                              "text": _money.fmt(won[name], cur), "name": name,
                              "tied": first != last}
            if first + i <= len(payouts):
                payouts[first + i - 1] = row
            elif won[name]:  # a tie across the last place paid: a row for each share
                payouts.append(row)
    out: Dict[str, Any] = {"currency": cur, "buy_in": _money.fmt(cfg["buy_in"], cur),
           "fee": _money.fmt(cfg["fee"], cur), "entries": entries, "rebuys": rebuys,
           "addons": addons, "pool_c": pool_c, "pool": _money.fmt(pool_c, cur),
           "payouts": payouts, "edited": bought["places"] is not None, "bounty": None,
           "rebuy": None, "addon": None}
    level = tournament.clock_at(now_ms).started_level() if tournament.started else 0
    for key in ("rebuy", "addon"):
        window = cfg[key]
        if window:
            lo = window.get("from_level", 1)
            out[key] = {"price": _money.fmt(window["price"], cur), "chips": window["chips"],
                        "from_level": lo, "until_level": window["until_level"],
                        "open": bool(tournament.started) and not tournament.ended
                        and lo <= max(level, 1) <= window["until_level"]}
    if cfg["bounty"]:
        won, heads = bounties(cfg, tournament, bought["knockouts"])
        out["bounty"] = {"amount": _money.fmt(cfg["bounty"], cur), "kind": cfg["bounty_kind"],
                         "won": [{"name": k, "amount_c": amount, "text": _money.fmt(amount, cur)}
                                 for k, amount in sorted(won.items(), key=lambda x: -x[1])],
                         "knockouts": len(bought["knockouts"])}
    return out


def prizes(tournament: Tournament, now_ms: int,
           shown: Optional[Dict[str, Any]] = None) -> Dict[str, str]:
    """{name: money text} each player has won so far (their place's payout, shared when
    tied, and their bounties), for the results; {} for a free tournament.  *v*: the
    ``view`` at *now_ms* when the caller has it."""
    shown = view(tournament, now_ms) if shown is None else shown
    if shown is None:
        return {}
    cents: Dict[str, int] = {}
    for payload in shown["payouts"]:
        if payload["name"]:
            cents[payload["name"]] = cents.get(payload["name"], 0) + payload["amount_c"]
    for bounty in (shown["bounty"] or {}).get("won", []):
        cents[bounty["name"]] = cents.get(bounty["name"], 0) + bounty["amount_c"]
    return {k: _money.fmt(cash_won, shown["currency"]) for k, cash_won in cents.items() if cash_won}


# ------------------------------------------------------------------ the TD's actions
def _act(kind: str) -> Callable[["Desk", Args], Steps]:
    """The console's money action *kind*: decided by tdhost.league.money_decisions, as the
    CLI's."""
    def act(desk: "Desk", args: Args) -> Steps:
        when = desk.when

        def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Dict[str, Any]]:
            payload = decide_money(tournament, kind, args, when)
            return [("money", payload, None)], payload
        payload, _ = yield build
        return money_sentence(payload) + ".", Effects()
    return act


ACTS = {"rebuy": _act("rebuy"), "addon": _act("addon"), "knockout": _act("knockout"),
        "payouts": _act("payouts")}
