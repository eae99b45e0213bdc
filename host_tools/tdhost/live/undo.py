"""The TD's own undo and redo on the live night (docs/web.md, "Undo and redo";
docs/live.md "Undo"): the ``Journal`` of the TD's actions that can be taken back, with
in words what each undo will do; a restarted host starts with an empty one."""

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from tdhost.league import replay as _replay, text as _text
from tdhost.league.refusal import ActionRefused
from tdhost.live import instructions as _ins, plan as _plan
from tdhost.live.effects import Effects
from tdhost.live.wording import chips, log_line as _words_of, seat, tables

if TYPE_CHECKING:
    from tdhost.live.night import Live

Entry = Dict[str, Any]  # one action kept: n, action, args, seqs, time, what, then

UNDOABLE = frozenset(("register", "standby_add", "standby_take", "standby_pass", "draw",
                      "start", "late", "arrive", "bust", "pause", "resume", "level", "adjust",
                      "hand_for_hand", "final_draw")) | frozenset((
                      "rebuy", "addon", "knockout", "payouts"))  # money (tdhost.live.money)
# the events an undo takes back itself; instructions are called off after it (_cancel_orphans)
KEEP = frozenset(("instr", "instr_result", "notice", "undo", "hfh_release", "final_seated"))
KEPT = 20  # entries kept for undo (the newest)
CLOCK_ACTS = frozenset(("pause", "resume", "level", "adjust"))


def _left(clock: Any) -> str:
    seconds = (clock.left_ms + 999) // 1000
    number = clock.levels[clock.index][4]
    return "%d:%02d of %s" % (seconds // 60, seconds % 60,
                              "level %d" % number if number else "the break")


def before(live: "Live", action: str, args: Dict[str, Any]) -> Dict[str, Any]:
    """What the undo's words need from before *action* (where a player sits, the clock)."""
    tournament = live.tournament
    ctx: Dict[str, Any] = {"clock": None, "seats": {}}
    if tournament.started is not None and not tournament.ended:
        clock = tournament.clock_at(live.now)
        ctx["clock"] = {"left": _left(clock), "paused": clock.paused,
                        "level": clock.levels[clock.index][4]}
    if action == "bust" and isinstance(args.get("names"), list):
        statuses = live.statuses()
        for name in args["names"]:
            player = tournament.get(name) if isinstance(name, str) else None
            if player is not None and player.seat:
                ctx["seats"][player.name] = (list(player.seat), _plan.stack_at(statuses,
                                                                               *player.seat))
    if action == "hand_for_hand":
        ctx["tables"] = live.playing_tables()
    return ctx


def _words(action: str, args: Dict[str, Any], ctx: Dict[str, Any],
           evs: List[Any]) -> Tuple[str, str]:
    """(what the action was, what its undo does) in words."""
    logged = {}
    for ev in evs:
        if ev.action not in KEEP:
            logged = ev.payload
            break
    clock = ctx.get("clock") or {}
    if action == "bust":
        names = [name for tier in reversed(logged.get("tiers") or []) for name in tier]
        back = []
        for name in names:
            where, stack = ctx["seats"].get(name, (None, None))
            back.append("%s returns to %s%s" % (name, seat(where) if where else "the game",
                                                " with %s" % chips(stack) if stack else ""))
        return ("%s's bust" % " and ".join(names), "; ".join(back) or "they play on")
    if action == "pause":
        return ("clock paused at %s" % clock.get("left", "?"),
                "the clock runs on as if it had not been paused")
    if action == "resume":
        return ("clock resumed at %s" % clock.get("left", "?"),
                "the clock stands paused again at %s" % clock.get("left", "?"))
    if action == "level":
        return ("jump to level %s" % args.get("level"),
                "back to %s, the time running on as if there had been no jump"
                % (clock.get("left", "?").split(" of ", 1)[-1]))
    if action == "adjust":
        seconds = args.get("seconds") or 0
        amount = "%d min" % (abs(seconds) // 60) if seconds and seconds % 60 == 0 \
            else "%d s" % abs(seconds)
        return ("%s %s %s" % (amount, "added to" if seconds > 0 else "taken off", clock.get(
            "left", "?").split(" of ", 1)[-1]),
            "the %s %s again" % (amount, "comes off" if seconds > 0 else "goes back on"))
    if action == "hand_for_hand":
        if args.get("on"):
            return ("hand for hand on", "hand for hand stops: every table plays on")
        return ("hand for hand off", "hand for hand starts again at %s" % tables(
            ctx.get("tables") or []))
    if action == "register":
        names = [ev.payload["name"] for ev in evs if ev.action == "register"]
        return ("registration of %s" % ", ".join(names),
                "%s %s no longer registered" % (", ".join(names),
                                                "is" if len(names) == 1 else "are"))
    if action == "standby_add":
        return ("%s on the standby list" % logged.get("name"),
                "%s leaves the standby list" % logged.get("name"))
    if action == "standby_take":
        return ("%s takes %s" % (logged.get("name"), seat(logged.get("seat"))),
                "%s leaves %s and waits on the standby list again" % (
                    logged.get("name"), seat(logged.get("seat"))))
    if action == "standby_pass":
        return ("%s passes on %s" % (logged.get("name"), seat(logged.get("offer"))),
                "%s is offered %s again" % (logged.get("name"), seat(logged.get("offer"))))
    if action == "late":
        return ("late entry of %s" % logged.get("name"),
                "%s leaves %s and is no longer entered" % (logged.get("name"),
                                                           seat(logged.get("seat"))))
    if action == "arrive":
        return ("%s arrived" % logged.get("name"), "%s is marked absent again" % logged.get("name"))
    if action == "draw":
        return ("the seat draw (seed %s)" % logged.get("seed"), "nobody has a seat until the next "
                "draw")
    if action == "final_draw":
        return ("the final-table draw", "the tables play on as before the draw; its "
                "instructions are called off")
    if action == "start":
        return ("shuffle up and deal", "the tournament is not started: the clock stops at "
                "level 1")
    if action in ("rebuy", "addon", "knockout", "payouts"):  # a `money` event says itself
        return (logged.get("text") or action, {
            "rebuy": "the re-buy comes off the pool", "addon": "the add-on comes off the pool",
            "knockout": "the bounty is not logged", "payouts": "the payouts go back to the "
            "table before"}[action])
    return (action.replace("_", " "), "it is taken back")


class Journal:
    """The TD's actions that can be undone (the newest ``KEPT``), and those undone that can
    be redone."""

    def __init__(self) -> None:
        self.done: List[Entry] = []
        self.undone: List[Entry] = []
        self.serial = 0

    def record(self, live: "Live", action: str, args: Dict[str, Any], ctx: Dict[str, Any],
               first_seq: int, redoing: bool = False) -> None:
        """After *action* succeeded: keep it for undo (when it can be undone) and forget
        what could be redone (a new action of the TD's own; not when *redoing*)."""
        if not redoing:
            self.undone[:] = []
        if action not in UNDOABLE:
            return
        evs = []
        for ev in reversed(live.lg.events):  # the newest only: a long night's log is long
            if ev.seq <= first_seq:
                break
            if ev.tournament == live.tournament.number:
                evs.append(ev)
        evs.reverse()
        if not [ev for ev in evs if ev.action not in KEEP]:
            return
        what, then = _words(action, args, ctx, evs)
        self.serial += 1
        self.done.append({"n": self.serial, "action": action, "args": dict(args),
                          "seqs": [ev.seq for ev in evs],
                          "time": live.when().strftime("%H:%M"), "what": what, "then": then})
        del self.done[:-KEPT]

    def last(self, undone: bool = False) -> Optional[Entry]:
        """The action to undo (or, *undone*, to redo), or None."""
        entries = self.undone if undone else self.done
        return entries[-1] if entries else None

    def undid(self) -> None:
        """The last action was undone: it can be redone."""
        self.undone.append(self.done.pop())

    def forget(self) -> None:
        """The last action was undone some other way: nothing to undo."""
        self.done.pop()

    def redid(self) -> None:
        """The last undone action was done again (and recorded anew)."""
        self.undone.pop()

    def view(self) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
        """The snapshot's ``undo`` and ``redo``: {"n", "text"} or None."""
        last, back = self.last(), self.last(undone=True)
        return (
            {"n": last["n"], "text": "Undo: %s (%s) — %s" % (last["what"], last["time"],
                                                          last["then"])}
            if last else None,
            {"n": back["n"], "text": "Redo: %s (undone; first done at %s)" % (
                back["what"], back["time"])} if back else None)


def _targets(live: "Live", entry: Entry) -> List[Any]:
    return [ev for ev in live.lg.events if ev.seq in entry["seqs"]
            and ev.seq not in live.lg.undone and ev.action not in KEEP]


def _check_later(live: "Live", entry: Entry) -> None:
    """ActionRefused when a change to the league came after *entry* (a box's bust, a move, the
    final draw...): only the latest change can be taken back without undoing those."""
    clockish = entry["action"] in CLOCK_ACTS
    last = max(entry["seqs"])
    for ev in live.lg.events:
        if ev.seq <= last or ev.tournament != live.tournament.number or ev.seq in live.lg.undone \
                or ev.action in KEEP or (ev.action == "clock" and not clockish):
            continue
        line = _words_of(ev, live.lg)
        raise ActionRefused("%s (%s) cannot be undone any more: %s since (%s, %s)" % (
            entry["what"], entry["time"], line["text"], line["who"], line["time"]))


def _check_replay(live: "Live", evs: List[Any]) -> None:
    """ActionRefused when the log without *evs* does not replay (later events need them)."""
    from tdhost.league.store import LoggedEvent
    top = live.lg.events[-1].seq if live.lg.events else 0
    fake = [LoggedEvent(top + i + 1, ev.tournament, ev.at, "undo",
                        {"action": ev.action, "summary": ""}, ev.seq)
            for i, ev in enumerate(evs)]
    try:
        _replay.replay(list(live.lg.events) + fake)
    except Exception as err:  # noqa: BLE001 -- any failure means: not safely undoable
        raise ActionRefused("that cannot be undone any more: what happened since depends on it "
                      "(%s)" % (str(err) or type(err).__name__))


def _cancel_own(live: "Live", entry: Entry) -> None:
    """The instructions the undone action wrote that are still pending are called off."""
    ids = {ev.payload.get("id") for ev in live.lg.events
           if ev.seq in entry["seqs"] and ev.action == "instr"}
    instrs = [instr for instr in _ins.pending(live.tournament)
              if instr["id"] in ids and instr["action"] != "withdraw"]
    if instrs:
        why = "the TD undid %s" % entry["what"]
        live.write(lambda tournament, lg, seq: (_ins.cancel_all(lg, tournament, instrs, why,
                                                                live.boxed), None))


def undo(live: "Live", args: Dict[str, Any]) -> Tuple[str, Effects]:
    """Takes back the TD's own last action (``args["n"]``, when given, must be the one the
    console showed)."""
    from tdhost.live import acts as _acts
    entry = live.journal.last()
    if entry is None:
        raise ActionRefused("there is nothing of yours to undo")
    n = args.get("n")
    if n is not None and n != entry["n"]:
        raise ActionRefused("your last action is now %s (%s): look at Undo again" % (
            entry["what"], entry["time"]))
    effects = Effects()
    if entry["action"] == "hand_for_hand":
        _, effects = _acts.hand_for_hand(live, {"on": not entry["args"].get("on")})
    else:
        evs = _targets(live, entry)
        if not evs:
            live.journal.forget()
            raise ActionRefused("%s (%s) was undone already" % (entry["what"], entry["time"]))
        _check_later(live, entry)
        _check_replay(live, evs)
        live.write(lambda tournament, lg, seq: ([("undo", {"action": ev.action,
                                                  "summary": _text.summary(ev)}, ev.seq)
                                        for ev in reversed(evs)], None))
        _acts.cancel_orphans(live)
        _cancel_own(live, entry)
        live.send_seating()
        live.send_clock()
        effects = Effects(plan=True)
    live.journal.undid()
    return "Undone: %s (%s) — %s." % (entry["what"], entry["time"], entry["then"]), effects


def redo(live: "Live", args: Dict[str, Any]) -> Tuple[str, Effects]:
    """Does the last undone action again (``args["n"]``, when given, must be the one
    shown)."""
    from tdhost.live import acts as _acts
    entry = live.journal.last(undone=True)
    if entry is None:
        raise ActionRefused("there is nothing to redo")
    n = args.get("n")
    if n is not None and n != entry["n"]:
        raise ActionRefused("the action to redo is now %s (%s): look at Redo again" % (
            entry["what"], entry["time"]))
    ctx = before(live, entry["action"], entry["args"])
    first = live.lg.events[-1].seq if live.lg.events else 0
    text, effects = _acts.ACTS[entry["action"]](live, dict(entry["args"]))
    live.journal.redid()
    live.journal.record(live, entry["action"], entry["args"], ctx, first, redoing=True)
    return "Done again: %s" % text, effects
