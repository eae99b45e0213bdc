"""The dealer's controls: key presses in, table events out; one small state
machine for every board.  Pure: no hardware imports.  The modes, the options
and the events it returns: docs/box.md, "The menu's modes".
"""

from .view import SETUP, chips, colour_changes

MAIN = "main"
AMOUNT = "amount"
SEATS = "seats"
SEAT = "seat"
RANK = "rank"
COLOUR = "colour"
# SETUP (from tcbox.view): the setup screen, whose lines the view fills in


class Menu:
    """The options on screen and what each key does with them.

    :param setup: offer "Box setup" at the end of the seat list (the box's
        App does; a bare Menu, as in the rules' tests, lists only seats).
    """

    def __init__(self, setup=False, roles=()):
        self.setup = setup
        self.roles = roles  # the board's key roles (tcbox/boards.py)
        self.info = {}  # host data: the pending instruction (tcbox/view.py)
        self.box = {}  # the box's facts: muted, buzzer
        self._instr = None  # the id (or text) of the instruction last seen
        self.mode = MAIN
        self.options = []  # [(label, event dict or a mode name)]
        self.i = 0
        self.amount = 0
        self.seat = None
        self.picked = []  # showdown: seats picked for the tier being chosen
        self.tiers = []  # showdown: tiers already chosen
        self.note = ""
        self._shown = None  # the mode whose options are on screen
        self._ctx = None  # (hand, street, actor) they were made for

    # -- options -------------------------------------------------------
    def refresh(self, st, info=None, box=None):
        """Rebuild the options for state *st*, keeping the highlight on the
        same label where it still exists.  *info* (host data) and *box* (the
        box's facts) replace the ones given before; None keeps them."""
        if info is not None:
            self.info = info
        if box is not None:
            self.box = box
        keep = self.options[self.i][0] if self.options and self.i < len(self.options) else None
        was = self._shown
        if st["street"] == "showdown":
            if self.mode != RANK:
                self.mode = RANK
                self.picked = []
                self.tiers = []
                self.i = 0
        elif self.mode == RANK:
            self.mode = MAIN
        if self.mode == AMOUNT and st["action"] is None:
            self.mode = MAIN
        if self.mode == COLOUR and not colour_due(st):
            self.mode = MAIN
        ins = self.info.get("instruction")
        iid = _instr_key(ins)
        fresh = iid is not None and iid != self._instr
        self._instr = iid
        if self.mode == MAIN:
            self.options = main_options(st, ins)
        elif self.mode == SEATS:
            self.options = [("Seat %s" % seat, SEAT)
                            for seat in sorted(int(x) for x in st["stacks"])]
            if self.setup:
                self.options.append(("Box setup", SETUP))
            self.options.append(("Back", MAIN))
        elif self.mode == SETUP:
            self.options = []
            if self.box.get("buzzer", True):
                muted = self.box.get("muted")
                self.options.append(("Buzzer: %s" % ("muted" if muted else "on"),
                                     {"box": "mute"}))
            self.options.append(("Back", SEATS))
        elif self.mode == COLOUR:
            self.options = colour_options(st)
        elif self.mode == SEAT:
            self.options = seat_options(st, self.seat)
        elif self.mode == RANK:
            self.options = self._rank_options(st)
        else:  # AMOUNT
            self.options = [("%s to %s" % (self._word(st), chips(self.amount)), None)]
        ctx = (st["hand"], st["street"], st["action"])
        if self.mode != was or ctx != self._ctx:  # a new list or a new turn: the top
            self.i = 0
        else:  # the same list: stay on the same option, or the same place
            at = min(self.i, len(self.options) - 1)
            for n in range(len(self.options)):
                if self.options[n][0] == keep:
                    at = n
                    break
            self.i = at
        if fresh and self.mode == MAIN and st["street"] is None:
            self.i = 0  # a new instruction between hands: Confirm, on top, is highlighted
        elif (self.mode == MAIN and ctx != self._ctx and st["action"] is not None
              and "call" in self.roles and len(self.options) > 1
              and self.options[1][1] != AMOUNT and self.options[1][0] != "Fold"):
            self.i = 1  # a Call key: the highlight (Hand) starts on the minimum raise
        self._shown = self.mode
        self._ctx = ctx

    def _word(self, st):
        return "Raise" if st["bets"] else "Bet"

    def _rank_options(self, st):
        done = []
        for tier in self.tiers:
            done += tier
        opts = []  # type: list
        for seat in st["in_hand"]:
            if seat not in done:
                mark = "* " if seat in self.picked else ""
                opts.append(("%sSeat %d" % (mark, seat), seat))
        opts.append(("Done", "done"))
        return opts

    # -- keys ----------------------------------------------------------
    def press(self, role, long, st):
        """Handle one key press.  Returns an event dict to apply, or None."""
        self.note = ""
        if self.mode == AMOUNT:
            return self._amount_key(role, long, st)
        direct = self._direct(role, long, st)
        if direct is not False:
            return direct
        if role in ("left",) or (role == "menu" and long):
            self.i = (self.i - 1) % len(self.options)
            return None
        if role in ("right", "menu"):
            self.i = (self.i + 1) % len(self.options)
            return None
        if role in ("ok", "hand"):
            return self._choose(st)
        if role == "fold" and self.mode != MAIN:
            return self._back(st)
        return None

    def _direct(self, role, long, st):
        """Shortcuts; False when the key has no shortcut here."""
        if long and role in ("left", "fold"):
            return {"do": "undo"}
        if long and role in ("right", "call"):
            return {"do": "clock"}
        if long and role == "ok":
            self.mode = SEATS if self.mode == MAIN else MAIN
            self.refresh(st)
            return None
        if self.mode != MAIN:
            return False
        if role == "call" and st["action"] is not None:
            return {"do": "call"}
        if role in ("fold", "left") and st["action"] is not None:
            return {"do": "fold"}  # compact: left folds during a hand (long left: undo)
        if role == "raise" and st["action"] is not None:
            if long:
                return {"do": "allin"}
            return self._open_amount(st)
        return False

    def _open_amount(self, st):
        least = st["min_raise_to"]
        if least is None:
            self.note = "No raise: call or fold"
            return None
        self.mode = AMOUNT
        self.amount = least if least < self._top(st) else self._top(st)
        self.refresh(st)
        return None

    def _top(self, st):
        actor = str(st["action"])
        return st["bets"].get(actor, 0) + st["stacks"][actor]

    def _amount_key(self, role, long, st):
        top = self._top(st)
        least = st["min_raise_to"] or top
        step = st["bb"] if long else st.get("chip", 1)
        if role in ("right", "raise"):
            self.amount = min(top, self.amount + step)
        elif role in ("left", "call"):
            self.amount = max(min(least, top), self.amount - step)
        elif role in ("ok", "hand") and not long:
            self.mode = MAIN
            to = self.amount
            self.refresh(st)
            return {"do": "raise", "to": to}
        else:  # long ok, fold: cancel
            self.mode = MAIN
        self.refresh(st)
        return None

    def _choose(self, st):
        label, what = self.options[self.i]
        if isinstance(what, dict):
            if self.mode in (SEAT, COLOUR):  # done with that seat, or coloured up
                self.mode = MAIN
            return dict(what)
        if what == AMOUNT:
            return self._open_amount(st)
        if self.mode == SEATS and what == SEAT:
            self.seat = int(label.split(" ")[1])
            self.mode = SEAT
        elif self.mode == RANK:
            return self._rank_choose(st, what)
        elif what in (MAIN, SEATS, SETUP, COLOUR):
            self.mode = what
        self.refresh(st)
        return None

    def _back(self, st):
        self.mode = SEATS if self.mode in (SEAT, SETUP) else MAIN
        self.refresh(st)
        return None

    def _rank_choose(self, st, what):
        if what != "done":
            if what in self.picked:
                self.picked.remove(what)
                self.refresh(st)
            else:
                self.picked.append(what)
                self.refresh(st)
                self.i = len(self.options) - 1  # Done next: one more press (or a split)
            return None
        if not self.picked:
            self.note = "Pick the best hand first"
            return None
        self.tiers.append(sorted(self.picked))
        self.picked = []
        rest = [seat for seat in st["in_hand"] if not any(seat in tier for tier in self.tiers)]
        if rest and undecided(st, self.tiers):
            self.note = "Best of the rest?"
            self._shown = None  # a new question: from the top
            self.refresh(st)
            return None
        ranking = [list(tier) for tier in self.tiers]
        if rest:
            ranking.append(rest)
        self.tiers = []
        return {"do": "showdown", "ranking": ranking}


def _instr_key(ins):
    """What tells instructions apart: the id, else the text."""
    if not ins:
        return None
    if isinstance(ins, dict):
        return ins.get("id") or ins.get("text") or ins.get("action")
    return ins


def _confirm(ins):
    return ("Confirm", {"box": "ack", "id": ins.get("id") if isinstance(ins, dict) else None})


def main_options(st, ins=None):
    """The options of the main screen for state *st*; *ins*: the pending
    instruction, if any."""
    opts = []  # type: list
    actor = st["action"]
    if st["street"] is None:
        if ins:
            opts.append(_confirm(ins))
        opts.append(("New hand", {"do": "hand"}))
        if colour_due(st):
            opts.append(("Colour up", COLOUR))
    elif actor is not None:
        owe = st["to_call"]
        stack = st["stacks"][str(actor)]
        if owe == 0:
            opts.append(("Check", {"do": "check"}))
        else:
            pay = owe if owe < stack else stack
            opts.append(("Call %s%s" % (chips(pay), " all-in" if pay == stack else ""),
                         {"do": "call"}))
        if st["min_raise_to"] is not None:
            word = "Raise" if st["bets"] else "Bet"
            top = st["bets"].get(str(actor), 0) + stack
            least = st["min_raise_to"]
            if least < top:  # the minimum at once; "more" opens the amount
                opts.append(("%s %s" % (word, chips(least)), {"do": "raise", "to": least}))
                opts.append(("All-in %s" % chips(top), {"do": "allin"}))
                opts.append(("%s more" % word, AMOUNT))
            else:
                opts.append(("All-in %s" % chips(top), {"do": "allin"}))
        opts.append(("Fold", {"do": "fold"}))
        if st["shot_clock"] is None and actor not in st.get("td_away", ()):
            opts.append(("Call the clock", {"do": "clock"}))
        opts.append(("Undo", {"do": "undo"}))
        if not st["substantial_action"]:
            opts.append(("Misdeal", {"do": "misdeal"}))
    if ins and st["street"] is not None:
        opts.append(_confirm(ins))
    opts.append(("Seats", SEATS))
    return opts


def colour_due(st):
    """Between hands, does a colour-up due now change some stack?"""
    return len(colour_changes(st)) > 0


def colour_options(st):
    """The colour-up: apply it, then each stack it changes (to read while
    changing the chips: the keys page through them), then Back."""
    opts = [("Colour up now", {"do": "colour_up"})]  # type: list
    for seat, now, after in colour_changes(st):
        opts.append(("S%d %s>%s" % (seat, chips(now), chips(after)), None))
    opts.append(("Back", MAIN))
    return opts


def seat_options(st, seat):
    """What the dealer can do for one seat."""
    key = str(seat)
    opts = []  # type: list
    if key in st["stacks"]:
        td = seat in st.get("td_away", ())
        if seat in st["away"] or td:
            opts.append(("Seat %d is back" % seat, {"do": "back", "seat": seat}))
        if seat not in st["away"]:
            opts.append(("Seat %d is away" % seat, {"do": "away", "seat": seat}))
        if not td:  # LPPL ¶6: the table waits for a TD away on TD business
            opts.append(("Seat %d: TD business" % seat, {"do": "td_business", "seat": seat}))
        if seat in st["in_hand"]:
            actor = st["action"]
            if actor is not None and actor != seat and key not in st.get("out_of_turn", ()):
                # LPPL ¶49, TDA 47: recorded now, carried out when the action gets there
                for word, act in (("folded", "fold"), ("checked or called", "call")):
                    opts.append(("Seat %d %s out of turn" % (seat, word),
                                 {"do": "oot", "seat": seat, "act": act}))
            opts.append(("Kill seat %d's hand" % seat, {"do": "kill", "seat": seat}))
        elif st["street"] is None:
            opts.append(("Seat %d is out" % seat, {"do": "bust", "seat": seat}))
        opts.append(("Warn seat %d" % seat, {"do": "warn", "seat": seat}))
    opts.append(("Back", SEATS))
    return opts


def undecided(st, tiers):
    """Is some pot still without a winner among the chosen *tiers*?"""
    chosen = []
    for tier in tiers:
        chosen += tier
    for pot in st["pots"]:
        if not any(seat in chosen for seat in pot["seats"]):
            return True
    return False
