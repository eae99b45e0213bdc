"""The TD's actions, each declared once (docs/live.md "The TD's actions"): its name, its
arguments with their types and bounds (tdhost.league.limits), the ``decide_*`` that
decides it, where the TD gives it (a `tdhost` command, the live console, or both),
whether the console asks first (room-wide or hard to take back) and whether the console's
undo takes it back.  The checks of an action's arguments and the sentences both paths
say are here: Live.act (tdhost.live.night) and the web (tdhost.web.app) take their list
of actions and their argument checks from ``ACTIONS``; the CLI's commands check their
values with the same functions and say the same sentences; tests/host/test_actions.py
holds the CLI's commands and the console's handlers to this list."""

import datetime
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from tdhost.league.busts import decide_bust, decide_end
from tdhost.league.entries import (
    decide_arrive,
    decide_late,
    decide_reenter,
    decide_registers,
    decide_standby_add,
    decide_standby_pass,
    decide_standby_take,
    decide_unregister,
)
from tdhost.league.limits import SEAT_MAX, SEED_MAX, TABLE_MAX, WHOLE_MAX
from tdhost.league.money_decisions import decide_money
from tdhost.league.play import decide_level, decide_start
from tdhost.league.refusal import ActionRefused
from tdhost.league.rulings import decide_ruling
from tdhost.league.seats import decide_draw, decide_lock, decide_move, decide_unlock
from tdhost.league.text import seat_text
from tdhost.league.tournament import Payload, Tournament

Args = dict[str, Any]

KINDS = ("text", "names", "bool", "int", "seat", "counts", "list")
"""An argument's kind: ``text`` (not blank), ``names`` (a list of names), ``bool``, ``int``
(a whole number within ``low``..``high``), ``seat`` ("TABLE.SEAT", or [table, seat]),
``counts`` (whole numbers from 0, one per name of ``names``), ``list`` (checked by the
decision: the payouts' percentages)."""


@dataclass(frozen=True)
class Arg:
    """One argument of an action: ``name`` (the console's JSON key), ``kind`` (KINDS),
    ``required``, the bounds of an ``int``, ``null`` and ``option``: the CLI's option or argument
    that gives it (None: the console's only)."""

    name: str
    kind: str
    required: bool = False
    low: Optional[int] = None
    high: int = WHOLE_MAX
    option: Optional[str] = None
    null: bool = True  # JSON null is "not given" (False: refused, e.g. a seed)

    def wanted(self) -> str:
        """What a missing value should be, in the words of its refusal (", a whole number
        from 1 to 999"), or nothing for a kind the decision checks."""
        if self.kind == "int" and self.low is not None:
            return ", a whole number from %d%s" % (
                self.low, "" if self.high == WHOLE_MAX else " to %d" % self.high)
        if self.kind == "int":
            return ", a whole number"
        return {"text": " as text", "names": " as a list of names",
                "seat": " as TABLE.SEAT", "bool": ", true or false"}.get(self.kind, "")

    def check(self, args: Mapping[str, Any]) -> Any:
        """This argument's value in *args*, checked (its default when not given);
        ActionRefused with one sentence otherwise."""
        value = args.get(self.name)
        if value is None and (self.null or self.name not in args):
            if self.required:
                raise ActionRefused("give %s%s" % (self.name, self.wanted()))
            return False if self.kind == "bool" else [] if self.kind == "names" else None
        if self.kind == "text":
            if not isinstance(value, str) or not value.strip():
                raise ActionRefused("give %s as text" % self.name)
        elif self.kind == "names":
            if not isinstance(value, list) or (self.required and not value) or not all(
                    isinstance(x, str) and x.strip() for x in value):
                raise ActionRefused("give %s as a list of names" % self.name)
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise ActionRefused("%s must be true or false" % self.name)
        elif self.kind == "int":
            whole_number(self.name, value, self.low, self.high)
        elif self.kind == "seat":
            value = seat_of(value)
        elif self.kind == "counts":
            if not isinstance(value, list) or not all(
                    isinstance(count, int) and not isinstance(count, bool)
                    and 0 <= count <= WHOLE_MAX for count in value):
                raise ActionRefused("give %s as a list of whole numbers from 0 to %d, one per"
                                    " name, in the same order" % (self.name, WHOLE_MAX))
        elif self.kind == "list":
            if not isinstance(value, list):
                raise ActionRefused("give %s as a list" % self.name)
        return value


@dataclass(frozen=True)
class Action:
    """One TD action (module notes).  ``cli``: the `tdhost` command that does it (None: the
    console's only); ``console``: Live.act does it; ``why``: for an action on one path
    only, why the other has none.  ``decide``: the league's decision both paths call."""

    name: str
    args: tuple[Arg, ...] = ()
    decide: Optional[Callable[..., Any]] = None
    cli: Optional[str] = None
    console: bool = True
    asks_first: bool = False
    undoable: bool = False
    why: str = ""

    def check(self, args: Mapping[str, Any]) -> Args:
        """*args* (the console's JSON object) checked: every argument of the action with
        its value or default; ActionRefused with one sentence for a bad value or an
        argument the action does not take (nothing happens then)."""
        known = {arg.name for arg in self.args}
        unknown = sorted(str(key) for key in args if key not in known)
        if unknown:
            raise ActionRefused("%s takes no %s%s" % (
                self.name.replace("_", " "), ", ".join(unknown),
                " (it takes %s)" % ", ".join(sorted(known)) if known else ""))
        out = {arg.name: arg.check(args) for arg in self.args}
        counts = [arg.name for arg in self.args if arg.kind == "counts"]
        if counts and out[counts[0]] is not None and len(out[counts[0]]) != len(out["names"]):
            raise ActionRefused("give %s as a list of whole numbers from 0 to %d, one per name,"
                                " in the same order" % (counts[0], WHOLE_MAX))
        return out


def whole_number(what: str, value: Any, low: Optional[int] = None,
                 high: int = WHOLE_MAX) -> int:
    """*value* as a whole number from *low* (if given) up to *high* (and from -*high*);
    ActionRefused with one sentence otherwise."""
    whole = not isinstance(value, bool) and isinstance(value, int)
    if whole and (low is None or value >= low) and abs(value) <= high:
        return value
    if low is None:
        raise ActionRefused("%s must be a whole number%s" % (
            what, " up to %d" % high if whole else ""))
    raise ActionRefused("%s must be a whole number from %d%s" % (
        what, low, "" if high == WHOLE_MAX else " to %d" % high))


def seat_of(value: Any) -> list[int]:
    """A seat given as "TABLE.SEAT" (or T:S, T/S; or [table, seat]) as [table, seat];
    ActionRefused with one sentence when it is not one."""
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) for x in value):
        parts = [str(x) for x in value]
    elif isinstance(value, str):
        parts = value.replace(":", ".").replace("/", ".").split(".")
    else:
        parts = []
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise ActionRefused("%r is not a seat: give TABLE.SEAT, e.g. 2.5" % (value,))
    table, seat = int(parts[0]), int(parts[1])
    if not (1 <= table <= TABLE_MAX and 1 <= seat <= SEAT_MAX):
        raise ActionRefused("%r is not a seat: tables are 1 to %d, seats 1 to %d" % (
            value, TABLE_MAX, SEAT_MAX))
    return [table, seat]


# ------------------------------------------------------------------ the sentences
def draw_sentence(payload: Payload) -> str:
    """A recorded ``draw``: its mode, seed, players and tables."""
    tables = sorted({seat[0] for seat in payload["seats"].values()})
    return "%s draw, seed %s: %d players at %d tables" % (
        payload["mode"].capitalize(), payload["seed"], len(payload["seats"]), len(tables))


def start_sentences(tournament: Tournament, payload: Payload, notes: Sequence[str],
                    when: datetime.datetime) -> list[str]:
    """A recorded ``start`` (*tournament* as it is after it), with its notes."""
    return ["Shuffle up and deal at %s: %d players in, %d started on time" % (
        when.strftime("%H:%M:%S"), len(tournament.remaining()), payload["started_on_time"])
        ] + list(notes)


def late_sentence(payload: Payload, notes: Sequence[str] = ()) -> str:
    """A recorded ``late`` entry: where, and why with what (its reasons say the chips and
    the dead big blind); *notes*: what the TD must know about the seat."""
    return "%s joins at %s — %s%s" % (payload["name"], seat_text(payload["seat"]),
                                      "; ".join(payload["reasons"]),
                                      "".join("; " + line for line in notes))


def reenter_sentence(payload: Payload, notes: Sequence[str] = ()) -> str:
    """A recorded ``reenter``: the entry, the seat and the chips."""
    return "%s re-enters (entry %d) at %s with %d chips%s" % (
        payload["name"], payload["entry"], seat_text(payload["seat"]), payload["stack"],
        "".join("; " + line for line in notes))


def arrive_sentence(payload: Payload, seat: Sequence[int]) -> str:
    """A recorded ``arrive`` at *seat*: the reason, and the chips the dealer removes."""
    return "%s takes %s: %s%s" % (payload["name"], seat_text(seat), payload["reason"],
                                  "; remove %d chips from %s's stack" % (
                                      payload["deduction"], payload["name"])
                                  if payload["deduction"] else "")


def unregister_sentence(payload: Payload) -> str:
    """A recorded ``unregister``."""
    return "%s is no longer %s%s (undo takes it back)" % (
        payload["name"], "on the standby list" if payload["state"] == "standby"
        else "registered", "; %s is free" % seat_text(payload["seat"])
        if payload.get("seat") else "")


def standby_take_sentence(payload: Payload) -> str:
    """A recorded ``standby_take``."""
    return "%s takes %s with %d chips%s" % (
        payload["name"], seat_text(payload["seat"]), payload["stack"],
        " and posts a dead big blind to enter" if payload["dead_bb"] else "")


def standby_pass_sentence(payload: Payload) -> str:
    """A recorded ``standby_pass``."""
    return "%s is not available for %s" % (payload["name"], seat_text(payload["offer"]))


# ------------------------------------------------------------------ the registry
_SEED = Arg("seed", "int", low=0, high=SEED_MAX, option="--seed", null=False)
_NAME = Arg("name", "text", required=True, option="NAME")
_MEMBER = Arg("member", "bool", option="--member")
_MEMBER_NO = Arg("member_no", "text", option="--member-no")

ANOTHER_PLAYER = {"cli": "`--allow-duplicate %s` registers them as another player",
                  "console": "the console asks whether %s is another player"}
"""How a name that may be a player already in is registered all the same, on each path
(tdhost.league.entries.decide_registers)."""


def _declare(*actions: Action) -> dict[str, Action]:
    return {action.name: action for action in actions}


ACTIONS: dict[str, Action] = _declare(
    Action("register", (Arg("names", "names", True, option="NAMES"), _MEMBER,
                        _MEMBER_NO,
                        Arg("allow_duplicate", "names", option="--allow-duplicate")),
           decide_registers, cli="register", undoable=True),
    Action("unregister", (_NAME,), decide_unregister, cli="unregister", asks_first=True,
           undoable=True),
    Action("standby_add", (_NAME, _MEMBER), decide_standby_add, cli="standby",
           undoable=True),
    Action("standby_take", (_NAME, Arg("seat", "seat", option="--seat")), decide_standby_take,
           cli="standby", undoable=True),
    Action("standby_pass", (_NAME,), decide_standby_pass, cli="standby", undoable=True),
    Action("draw", (_SEED, Arg("ace8", "bool", option="--ace8"),
                    Arg("again", "bool", option="--again")),
           decide_draw, cli="draw", asks_first=True, undoable=True),
    Action("final_draw", (_SEED,), decide_draw, cli="draw", asks_first=True, undoable=True),
    Action("start", (Arg("absent", "names", option="--absent"),
                     Arg("away", "names", option="--away")),
           decide_start, cli="start", asks_first=True, undoable=True),
    Action("late", (_NAME, _MEMBER, Arg("seat", "seat", option="--seat"), _MEMBER_NO),
           decide_late,
           cli="late", undoable=True),
    Action("reenter", (_NAME, Arg("seat", "seat", option="--seat")), decide_reenter,
           cli="reenter", undoable=True),
    Action("arrive", (_NAME,), decide_arrive, cli="arrive", undoable=True),
    Action("bust", (Arg("names", "names", True, option="NAMES"),
                    Arg("chips", "counts", option="--chips-at-start")),
           decide_bust, cli="bust", asks_first=True, undoable=True),
    Action("pause", undoable=True, why="the CLI records what the room's clock did (level)"),
    Action("resume", undoable=True, why="the CLI records what the room's clock did (level)"),
    Action("level", (Arg("level", "int", True, low=1),), asks_first=True, undoable=True,
           why="the console's clock goes to a level now; `tdhost level` records when the "
               "room's clock started one (level_started)"),
    Action("adjust", (Arg("seconds", "int", True),), undoable=True,
           why="the CLI records what the room's clock did (level)"),
    Action("hand_for_hand", (Arg("on", "bool", True),), asks_first=True, undoable=True,
           why="hand for hand waits on the boxes' hands: the live host only"),
    Action("confirm", (Arg("id", "text", True), Arg("stack", "int", low=1)),
           why="instructions are the live host's, to the boxes"),
    Action("seat_at_box", (_NAME, Arg("stack", "int", low=1)),  # missing: its own sentence
           why="the seat check is the live host's, with the boxes"),
    Action("clear_seat", (Arg("seat", "seat", True),), asks_first=True,
           why="the seat check is the live host's, with the boxes"),
    Action("move_box", (Arg("box", "text", True, option="BOX"),
                        Arg("table", "int", True, low=1, high=TABLE_MAX, option="TABLE")),
           cli="move-box", asks_first=True),
    Action("undo", (Arg("n", "int", low=1),), cli="undo", asks_first=True,
           why="the console takes back the TD's own last action, in words; `tdhost undo` "
               "the tournament's last action in the league file"),
    Action("redo", (Arg("n", "int", low=1),), asks_first=True,
           why="the CLI's undo is an event in the league file: it has no redo"),
    Action("rebuy", (_NAME,), decide_money, cli="rebuy", undoable=True),
    Action("addon", (_NAME,), decide_money, cli="addon", undoable=True),
    Action("knockout", (_NAME, Arg("by", "text", True, option="--by")), decide_money,
           cli="knockout", undoable=True),
    Action("payouts", (Arg("places", "list", True, option="PERCENT..."),), decide_money,
           cli="payouts", undoable=True),
    Action("ruling", (_NAME, Arg("decision", "text", True, option="--decision"),
                      Arg("reasons", "text", option="--reasons")),
           decide_ruling, cli="ruling", undoable=True),
    Action("move", (_NAME, Arg("seat", "seat", True, option="T.S")), decide_move, cli="move",
           console=False, why="the live host moves players itself, with instructions"),
    Action("end", (Arg("chips", "counts", True, option="NAME=CHIPS"),), decide_end, cli="end",
           console=False, why="a time-limited end is recorded after the night"),
    Action("lock", (_NAME, Arg("table", "int", True, low=1, high=TABLE_MAX, option="--table"),
                    Arg("seat", "int", True, low=1, high=SEAT_MAX, option="--seat")),
           decide_lock, cli="lock", console=False,
           why="seat locks are set before the night, with the registrations"),
    Action("unlock", (_NAME,), decide_unlock, cli="unlock", console=False,
           why="seat locks are set before the night, with the registrations"),
    Action("level_started", (Arg("level", "int", True, low=1, option="LEVEL"),), decide_level,
           cli="level", console=False,
           why="without the live host the CLI records when the room's clock started a level"),
)
"""Every TD action, by name (module notes)."""

CLI_VIEWS = frozenset(("seats", "new", "plan"))
"""The night's `tdhost` commands that are not an action of ``ACTIONS``: ``seats`` shows,
``new`` sets a tournament up from its file, ``plan`` shows the balancing plan (``--apply``
records its moves: ``move`` each)."""


def console_action(name: Any) -> Action:
    """The console's action *name*; ActionRefused with one sentence when there is none."""
    action = ACTIONS.get(name) if isinstance(name, str) else None
    if action is None:
        raise ActionRefused("there is no action %r (actions: %s)" % (
            name, ", ".join(console_names())))
    if not action.console:
        raise ActionRefused("%s is done with `tdhost %s`: %s" % (
            name, action.cli, action.why))
    return action


def console_names() -> list[str]:
    """The names of the console's actions (Live.act), sorted."""
    return sorted(name for name, action in ACTIONS.items() if action.console)
