"""Hand for hand on the live night (docs/host.md §10.8; the rules in tdhost.rules.handforhand):
once every waited-for table has finished its hand, the next round deals."""

from typing import Dict, Optional, Tuple

from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins
from tdhost.live.effects import Write
from tdhost.live.shapes import Batch
from tdhost.rules import handforhand as _hfh


def release(tournament: Tournament, ended: Dict[int, int]) -> Optional[Write]:
    """The next round (``hfh_release`` and a ``next_hand`` per table), a decision for
    Live.write, once every table hand for hand waits for has finished its hand; else None.
    *ended*: the last hand each playing table's box ended."""
    state = tournament.hfh
    if state is None:
        return None
    tables = sorted(ended)
    waited = [tb for tb in tables if str(tb) in state["wait"]]
    if not waited or _hfh.waiting_for(state["wait"], ended, tables):
        return None
    wait = _hfh.next_wait(tables, ended)
    rnd = state["round"] + 1

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        evs: Batch = [("hfh_release", {"round": rnd, "wait": wait, "text": "hand for "
                                           "hand: every table has finished its hand; round "
                                           "%d deals now" % rnd}, None)]
        for k, tb in enumerate(tables):
            evs.append(("instr", _ins.instr(_ins.new_id(lg, tournament, k), "next_hand", tb,
                                            "hand for hand round %d: deal at table %d"
                                            % (rnd, tb)), None))
        return evs, None
    return build
