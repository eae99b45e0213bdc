"""The host's instructions on the box: shown until the dealer's Confirm,
then carried out (tcbox/instructions/at_table.py) and answered; a ``withdraw`` acts at once
(docs/protocol.md "withdraw"; docs/box.md "Instructions from the host").  Each one's state
is in the box's book (tcbox/instructions/book.py), which the link holds and hands the App
(``use_book``); the App's ``info`` shows its entry on screen and how many wait.
at_table.py and words.py are imported at the first
instruction, not at boot (issue #20: about 11 KB of heap on a night without one,
.mpy).
"""

from .book import DONE, LATER, PARKED, REFUSED, SHOWN, WAITING, Book

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401


class HostInstructions:
    """App's share that holds the host's instructions (a base class of
    tcbox.app.App, on its ``info``, ``menu``, ``table`` and ``save``):
    ``instruct`` (a service to its parts: the link hands each instruction
    here), ``use_book`` (a service: the link's book is the App's),
    ``withdraw``, ``ack`` (the dealer's Confirm), ``settle``; ``book``;
    each result goes to the parts' ``on_result`` hook (tcbox/app.py HOOKS)."""

    if TYPE_CHECKING:  # the attributes and methods of the class this is a base of
        hooked = None  # type: Any
        info = None  # type: Any
        table = None  # type: Any
        menu = None  # type: Any
        dirty = None  # type: Any

        def save(self):
            pass

    book = None  # type: Any
    broke = None  # the id of the break_table the dealer carried out last (``withdraw``)

    def use_book(self, book):
        """A part's service: *book* (the link's, tcbox/instructions/book.py) holds the
        App's instructions from now on; what it shows (after a power cut too) is on screen."""
        self.book = book
        self.on_screen()

    def on_screen(self):
        """The screen's share of the book (a new one when the App has none): the
        instruction shown, how many wait behind it.  Returns the book."""
        book = self.book
        if book is None:
            book = self.book = Book()
        e = book.shown()
        self.info["instruction"] = e[3] if e is not None else None
        self.info["queued"] = book.waiting
        self.dirty = True
        return book

    def instruct(self, ins):
        """Show instruction *ins* (tcbox/view.py: a dict with ``id`` and
        ``action``, or a plain message string) until the dealer confirms it.
        One the book has answered is answered again, the same way."""
        iid = ins.get("id") if isinstance(ins, dict) else None
        book = self.on_screen()
        e = book.find(iid)
        if e is not None and e[1] != PARKED:
            if e[1] != SHOWN and e[1] != WAITING:  # the host did not get the answer: again
                self.report(iid, e[1], e[2], e[3] if e[1] == DONE else None)
            return  # (else in the book already: the link put it there, or a resend)
        if isinstance(ins, dict) and ins.get("action") == "withdraw":
            self.withdraw(ins)  # at once: never on screen
            return
        book.hand(iid, ins)
        self.on_screen()

    def withdraw(self, ins):
        """The host called off instruction ``ins["instr"]`` (a ``withdraw``,
        id ``ins["id"]``): at once, no Confirm (docs/protocol.md "withdraw"),
        as its entry in the book says."""
        from . import at_table
        from .words import called_off, instruction_text, move_text

        book = self.on_screen()
        wid = ins.get("id")
        x = ins.get("instr")
        e = book.find(x)
        st = e[1] if e is not None else None
        text = None
        result, reason = DONE, None
        if st == SHOWN or st == WAITING:
            text = instruction_text(e[3])
        elif st == LATER:  # confirmed during the hand: its change waits
            m = at_table.withdraw(self.table, x)
            if m is not None:
                text = move_text(m)
            else:
                result, reason = REFUSED, at_table.CARRIED_OUT
        elif st == DONE and x == self.broke and self.table is not None \
                and self.table.hold == at_table.BROKEN:
            # a break the dealer confirmed before the host called it off: nobody has moved
            # by it (the moves out are instructions of their own), so the table plays on
            # (docs/protocol.md "withdraw")
            self.table.hold = None
            self.broke = None
            self.menu.note = called_off(instruction_text({"action": "break_table"}))
        elif st == DONE:
            result, reason = REFUSED, at_table.CARRIED_OUT
        elif st == PARKED:  # came before its seating or predecessor: never shown
            self.report(x, REFUSED, at_table.WITHDRAWN)
        elif st is None and x is not None:
            # never seen (the withdraw overtook it): the original, arriving late, is a
            # repeat, answered refused, never shown
            book.answer(x, REFUSED, at_table.WITHDRAWN)
        if text is not None:
            self.menu.note = called_off(text)
            self.report(x, REFUSED, at_table.WITHDRAWN)
        self.report(wid, result, reason)
        self.on_screen()
        self.save()

    def awaiting(self):
        """Is an instruction on screen waiting for the dealer's Confirm?"""
        return bool(self.info.get("instruction"))

    def ack(self):
        """The dealer confirmed the instruction on screen: carry it out
        (tcbox/instructions/at_table.py), tell the host what became of it
        (the book shows the next one waiting), save."""
        e = self.on_screen().shown()
        if e is None:
            return
        ins = e[3]
        from . import at_table
        from .words import done_text

        table = self.table
        table.error = None  # an older refusal is not this one's
        names = table_no = None  # the host's seating at this box (the link's)
        for part in self.hooked["seating"]:
            names, table_no = part.seating(self)
        result, reason, stack = at_table.carry_out(table, ins, names, table_no)
        if result == at_table.LATER:
            self.menu.note = done_text(ins, later=True)
            result = LATER  # done once the hand is over
        elif result == at_table.REFUSED:
            table.error = reason  # the status line shows why, white on red
            self.menu.note = ""
        else:
            self.menu.note = done_text(ins)  # what was done: "Seat 3 moved to ..."
            if isinstance(ins, dict) and ins.get("action") == "break_table":
                self.broke = e[0]  # a withdraw may still open it again
        if e[0] is None:
            self.book.answered(e, result)  # a plain message: off the screen
        self.report(e[0], result, reason, stack)
        self.on_screen()
        self.save()

    def settle(self):
        """No hand is running: carry out the seat changes confirmed during
        the hand (tcbox/instructions/at_table.py), tell the host, save."""
        from . import at_table

        # saved first: the link sees the hand's end and its busts before a
        # waiting player takes a busted seat (seen in one change, the scale
        # drill's host never heard of that bust; docs/box.md)
        self.save()
        for iid, result, reason, stack in at_table.settle(self.table):
            self.report(iid, result, reason, stack)
        self.dirty = True
        self.save()

    def report(self, iid, result, reason=None, stack=None):
        """What became of instruction *iid* (nothing for None), to each part's
        ``on_result`` (the link's ``instruction_done``), then into the book.
        *stack*: the chips a player moved out with (a ``move_out`` done), else None."""
        if iid is None:
            return
        book = self.on_screen()
        for part in self.hooked["on_result"]:
            part.on_result(self, iid, result, reason, stack)
        book.answer(iid, result, reason, stack)
        self.on_screen()
