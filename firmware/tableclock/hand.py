"""The course of one hand: posting, whose action, closing streets, showdown.

Rules (docs/rules.md):
- antes, then the small and big blind; away players' blinds per profile
  (away.py); in ``wph`` an away player's hand is dead at the deal (TDA 26);
- before the flop the first to act is the first seat after the big blind;
  after it, the first live seat after the button (heads-up the button/SB
  acts first before the flop: TDA 28);
- a street closes when every live player with chips has acted and matched
  the highest bet; an uncalled bet goes back; when at most one live player
  has chips left, the board runs out to the showdown;
- the last player with chips faces only what the live all-ins put in (LPPL
  ¶19); a killed hand's bet is no live bet;
- the table acts for an absent player whose turn it is (LPPL: check when
  free, else fold; US 8: mucked), and carries out a declaration made out of
  turn when it binds (outofturn.py);
- showdown order: LPPL all-ins first, least chips first; then the last
  aggressor of the final street, else the first seat left of the button
  (TDA 14-A).
"""

from . import outofturn
from .betting import Street
from .button import clockwise_from

STREETS = ("preflop", "flop", "turn", "river", "showdown")
SHOWDOWN = 4
NOBODY = []  # type: list  # an empty seat list shared by every deal: never appended to


class Hand:
    """One hand at *table*, created by the dealer's New hand press.

    :param level: ``(level, sb, bb, ante)`` fixed for the whole hand.
    :param dealt: seats dealt in (ascending).
    """

    def __init__(self, table, number, level, dealt):
        self.t = table
        self.start = {}  # {seat: chips at the start of the hand}
        self.contrib = {}  # {seat: chips put in this hand, dead money included}
        self.live = []  # seats with live cards, ascending
        self.posts = []  # [seat, amount, kind]
        self.spare_posts = []  # rows of an earlier hand's posts, to be filled again
        self.show_order = []
        self.penalised = []  # seats killed at the deal for a penalty (deal() sets it)
        self.oot = {}  # seat -> [act, to, highest bet, street]: declared out of turn
        # what happened in turn, for the dealer's undo: (op, seat, amount, mark)
        # op 0 put, 1 check, 2 fold, 3 kill; mark None for what the table did
        # by itself, the declaration for what it did for one made out of turn
        # (a list), else the shot clock's ms left on the seat (-1: none)
        self.log = []
        self.bet = Street(level[2], table.profile["min_raise"], level[2])
        self.reset(number, level, dealt)

    def reset(self, number, level, dealt):
        """Make this object a new hand: the table deals into the last hand's
        object (Table._deal) and its dicts and lists are emptied in
        place (issue #20: a new Hand, its Street and its containers were
        about 1.5 KB of each New hand press; its posts' rows 1 KB more)."""
        t = self.t
        self.number = number
        self.level = level
        self.dealt = dealt
        self.start.clear()
        self.contrib.clear()
        for s in dealt:
            self.start[s] = t.stacks[s]
            self.contrib[s] = 0
        self.live.clear()
        spare = self.spare_posts
        while self.posts:
            spare.append(self.posts.pop())
        self.street = 0  # index into STREETS
        self.bet.reset(level[2], level[2])
        self.actor = None
        self.show_order.clear()
        self.oot.clear()
        self.log.clear()
        self.mark = None  # the mark of the next action: set by the table
        self.actions = 0  # actions in turn, and those that put chips in (TDA 30)
        self.paid = 0

    def substantial(self):
        """Substantial action (TDA 30): two actions in turn of which one put
        chips in, or any three; posted blinds do not count."""
        return self.actions >= 3 or (self.actions >= 2 and self.paid >= 1)

    # -- posting -----------------------------------------------------
    def deal(self, sb_seat, bb_seat, entering, penalised=None):
        """Post antes and blinds (away seats per profile; *entering* seats
        post a dead big blind to enter), then find the first player to act.
        Seats on penalty are dealt in, post, and are killed at the deal
        (TDA 64-C)."""
        t = self.t
        _, sb, bb, ante = self.level
        dead_deal = t.profile["away"] == "dead_deal"
        if penalised is None:  # a re-deal keeps the first deal's (TDA 61)
            penalised = [s for s in self.dealt if t.floor.on_penalty(s)]
        self.penalised = penalised
        for s in self.dealt:  # filled in place (reset)
            if not ((dead_deal and t.away.is_away(s)) or s in penalised):
                self.live.append(s)
        every = NOBODY  # a list of its own only when somebody posts every hand (issue #20)
        for s in self.dealt:
            if t.away.every_hand(s):
                if not every:
                    every = []
                every.append(s)
        if ante:
            for s in self.dealt:
                self.post(s, ante, "ante", False)
        if sb_seat is not None:
            self.post(sb_seat, sb, "sb", True)
            if sb_seat in every:  # a BB every hand: the SB part is live
                self.post(sb_seat, bb - sb, "dead", False)
        self.post(bb_seat, bb, "bb", True)
        for s in every:
            if s != sb_seat and s != bb_seat:
                self.post(s, bb, "dead_bb", False)
            t.away.reached_stage(s)
        if sb_seat is not None and sb_seat not in every:  # (no tuple of the two)
            t.away.blind_in_turn(sb_seat)
        if bb_seat is not None and bb_seat not in every:
            t.away.blind_in_turn(bb_seat)
        for s in entering:  # LPPL: "post a dead big blind to enter"
            if s in self.contrib:
                self.post(s, bb, "dead_bb", False)
        self.run(bb_seat)

    def post(self, s, amount, kind, live):
        stacks = self.t.stacks
        amt = amount if amount < stacks[s] else stacks[s]
        if amt <= 0:
            return
        stacks[s] -= amt
        self.contrib[s] += amt
        if live:
            self.bet.post(s, amt)
        spare = self.spare_posts
        if spare:  # a row of an earlier hand, filled in place (reset)
            row = spare.pop()
            row[0] = s
            row[1] = amt
            row[2] = kind
        else:
            row = [s, amt, kind]
        self.posts.append(row)

    # -- actions (legality checked by the table) ----------------------
    def _log(self, op, s, amount):
        if s in self.oot:  # a declaration waiting for this seat is spent (a check's limit)
            del self.oot[s]
        if not self.t.replaying:
            self.log.append((op, s, amount, self.mark))
        self.mark = None

    def put(self, s, total):
        self._log(0, s, total)
        add = total - self.bet.bet_of(s)
        self.t.stacks[s] -= add
        self.contrib[s] += add
        self.bet.put(s, total)
        self.t.shot.stop()
        self.actions += 1
        self.paid += 1

    def check(self, s):
        self._log(1, s, 0)
        self.bet.check(s)
        self.t.shot.stop()
        self.actions += 1

    def fold(self, s):
        self._log(2, s, 0)
        self.live.remove(s)
        self.t.shot.stop()
        self.actions += 1

    def kill(self, s):
        """Kill a live hand out of turn (a penalty, a phone at the table);
        not an action in turn.  Its bet on this street is no live bet: the
        street goes on as if it had never bet, and its chips stay in the pot
        as dead money, or, where the profile returns an uncalled bet
        (``killed_bet``), the part nobody called goes back."""
        self._log(3, s, 0)
        self.live.remove(s)
        if self.t.shot.seat == s:
            self.t.shot.stop()
        if s in self.show_order:
            self.show_order.remove(s)
        b = self.bet
        if self.street == SHOWDOWN or s not in b.bets:
            return
        mine = b.bets[s]
        blinds = [[p[0], p[1]] for p in self.posts if p[2] == "sb" or p[2] == "bb"] \
            if self.street == 0 else []
        called = 0  # the most anyone else, or the seat's own blind, put in
        for o in b.bets:
            if o != s and b.bets[o] > called:
                called = b.bets[o]
        for p in blinds:
            if p[0] == s and p[1] > called:
                called = p[1]
        back = mine - called
        if back > 0 and self.t.profile["killed_bet"] == "returned":
            self.t.stacks[s] += back
            self.contrib[s] -= back
        self.bet = b.without(s, self.level[2] if self.street == 0 else 0, blinds)

    def replay(self, e):
        """Do logged entry *e* again (the dealer's undo re-plays the hand)."""
        op, s, amount = e[0], e[1], e[2]
        if op == 0:
            self.put(s, amount)
        elif op == 1:
            self.check(s)
        elif op == 2:
            self.fold(s)
        else:
            self.kill(s)
            self.after_kill(s)
            return
        self.run(s)

    def to_call(self, s):
        """What *s* must add to stay in: the highest bet, except that the
        last player with chips faces only what the live all-ins put in (a
        short all-in big blind: LPPL ¶19 "action on whatever amount of chips
        he has remaining"); a killed hand's bet is no live bet (kill)."""
        b = self.bet
        owe = b.to_call(s)
        if owe and not self.others_can_call(s):
            need = 0
            for o in self.live:
                if o != s and b.bet_of(o) > need:
                    need = b.bet_of(o)
            mine = b.bet_of(s)
            owe = need - mine if need > mine else 0
        return owe

    def after_kill(self, s):
        """Move on after *s*'s hand was killed out of turn, if that ended the
        hand or left the player to act with nothing to do."""
        if len(self.live) == 1:
            self.run(s)
        elif self.actor is not None and not self.needs_action(self.actor):
            self.run(self.actor)

    def call_amount(self, s):
        owe = self.to_call(s)
        stack = self.t.stacks[s]
        return owe if owe < stack else stack

    def can_raise(self, s):
        """May seat *s* bet or raise now (chips beyond the call, betting
        reopened for it, somebody left who could call)?"""
        return (self.t.stacks[s] > self.to_call(s) and self.bet.reopened_for(s)
                and self.raise_callable(s) and s not in self.oot)

    def raise_callable(self, s):
        """Could anyone else put in more than the current highest bet?  If
        not, a raise by *s* could never be called."""
        stacks = self.t.stacks
        b = self.bet
        for o in self.live:
            if o != s and b.bet_of(o) + stacks[o] > b.highest:
                return True
        return False

    def others_can_call(self, s):
        """Has any other live player chips behind?"""
        stacks = self.t.stacks
        for o in self.live:
            if o != s and stacks[o] > 0:
                return True
        return False

    def timed_out(self, s):
        """The shot clock expired on *s* (TDA 25): dead facing a bet, else
        checked."""
        if self.to_call(s):
            self.fold(s)
            return "folds"
        self.check(s)
        return "checks"

    def auto_act(self, s):
        """The table acts for an absent player whose turn it is."""
        if self.t.profile["away_auto"] == "fold" or self.to_call(s):
            self.fold(s)
            return "folded"
        self.check(s)
        return "checked"

    # -- moving on ---------------------------------------------------
    def needs_action(self, s):
        b = self.bet
        if s not in self.live or self.t.stacks[s] == 0 or b.done(s):
            return False
        if not self.others_can_call(s) and not self.to_call(s):
            return False  # nobody left to bet against, nothing to call
        return True

    def run(self, frm):
        """Move on from seat *frm* until a present player must act, the
        betting is over (showdown) or one player is left (hand over)."""
        t = self.t
        n = t.n
        self.actor = None
        while True:
            if len(self.live) == 1:
                t.end_hand({self.live[0]: self.pot()}, None)
                return
            s = frm
            nxt = None
            for _ in range(n):
                s = s % n + 1
                if self.needs_action(s):
                    nxt = s
                    break
            if nxt is None:
                if not self.close_street():
                    return
                frm = t.btn
                continue
            if t.away.is_away(nxt) and not t.replaying:
                self.auto_act(nxt)
                frm = nxt
                continue
            if nxt in self.oot and not t.replaying:
                said = outofturn.take(self, nxt)
                if said is not None:
                    t.last = "%s; seat %d %s (out of turn)" % (t.last, nxt, said)
                    frm = nxt
                    continue
            self.actor = nxt
            return

    def close_street(self):
        """Return an uncalled bet, then deal the next street or stop for the
        showdown.  Returns True when betting goes on."""
        b = self.bet
        stacks = self.t.stacks
        top = None
        high = second = 0
        for s in b.bets:
            v = b.bets[s]
            if v > high:
                second, high, top = high, v, s
            elif v > second:
                second = v
        if top is not None and high > second and top in self.live:
            back = high - second
            stacks[top] += back
            self.contrib[top] -= back
            b.bets[top] = second
        if len(self.live) == 1:
            return True  # run() ends the hand
        with_chips = 0
        for s in self.live:
            if stacks[s] > 0:
                with_chips += 1
        if with_chips <= 1 or self.street == 3:
            self.street = SHOWDOWN
            self.show_order = self.showdown_order()
            return False
        self.street += 1
        self.bet.reset(self.level[2], 0)  # the same object, emptied (betting.py)
        return True

    def showdown_order(self):
        t = self.t
        start = self.bet.aggressor if self.bet.aggressor in self.live else None
        if start is None:
            order = clockwise_from(t.btn, t.n, self.live)
        else:
            order = [start] + [s for s in clockwise_from(start, t.n, self.live) if s != start]
        if t.profile["allins_show_first"]:
            allin = [s for s in order if t.stacks[s] == 0]
            # least chips first; ties keep table order (MicroPython's sort is not stable)
            allin.sort(key=lambda s: (self.contrib[s], order.index(s)))
            order = allin + [s for s in order if s not in allin]
        return order

    def pot(self):
        total = 0
        for s in self.contrib:
            total += self.contrib[s]
        return total
