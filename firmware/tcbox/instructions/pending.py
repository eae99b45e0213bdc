"""The host's instructions on the box: shown until the dealer's Confirm,
then carried out (tcbox/instructions/at_table.py) and answered; a ``withdraw`` acts at once
(docs/protocol.md "withdraw"; docs/box.md "Instructions from the host").
at_table.py and words.py are imported at the first
instruction, not at boot (issue #20: about 11 KB of heap on a night without one,
.mpy).
"""

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401

ACKS_KEPT = 32  # confirmed instruction ids remembered (docs/protocol.md: the last 32)


class HostInstructions:
    """App's share that holds the host's instructions (a base class of
    tcbox.app.App, on its ``info``, ``menu``, ``table`` and ``save``):
    ``instruct`` (a service to its parts: the link hands each instruction
    here), ``withdraw``, ``ack`` (the dealer's Confirm), ``settle``;
    ``acks``, ``waiting``, ``withdrawn``; each result goes to the parts'
    ``on_result`` hook (tcbox/app.py HOOKS)."""

    if TYPE_CHECKING:  # the attributes and methods of the class this is a base of
        acks = None  # type: Any
        hooked = None  # type: Any
        withdrawn = None  # type: Any
        info = None  # type: Any
        waiting = None  # type: Any
        table = None  # type: Any
        menu = None  # type: Any
        dirty = None  # type: Any

        def save(self):
            pass

    def instruct(self, ins):
        """Show instruction *ins* (tcbox/view.py: a dict with ``id`` and
        ``action``, or a plain message string) until the dealer confirms it."""
        iid = ins.get("id") if isinstance(ins, dict) else None
        if iid is not None:
            if iid in self.acks:  # the host did not get the confirmation: again
                self.report(iid, "acknowledged")
                return
            if iid in self.withdrawn:  # called off before it came: never shown
                from .at_table import WITHDRAWN

                self.report(iid, "refused", WITHDRAWN)
                return
            shown = [self.info.get("instruction")] + self.waiting
            for n in range(len(shown)):
                if isinstance(shown[n], dict) and shown[n].get("id") == iid:
                    return  # a resend of one already here
        if isinstance(ins, dict) and ins.get("action") == "withdraw":
            self.withdraw(ins)  # at once: never on screen
            return
        if self.info.get("instruction"):
            self.waiting.append(ins)
        else:
            self.info["instruction"] = ins
        self.info["queued"] = len(self.waiting)
        self.dirty = True

    def withdraw(self, ins):
        """The host called off instruction ``ins["instr"]`` (a ``withdraw``,
        id ``ins["id"]``): at once, no Confirm (docs/protocol.md "withdraw")."""
        from . import at_table
        from .words import called_off, instruction_text, move_text

        wid = ins.get("id")
        x = ins.get("instr")
        text = None
        if x is not None:
            shown = self.info.get("instruction")
            if isinstance(shown, dict) and shown.get("id") == x:
                text = instruction_text(shown)
                self.info["instruction"] = self.waiting.pop(0) if self.waiting else None
            else:
                for w in self.waiting:
                    if isinstance(w, dict) and w.get("id") == x:
                        text = instruction_text(w)
                        self.waiting.remove(w)
                        break
            if text is None:
                m = at_table.withdraw(self.table, x)  # confirmed during the hand: waiting
                if m is not None:
                    text = move_text(m)
        result, reason = "done", None
        if text is not None:
            self.menu.note = called_off(text)
            self.report(x, "refused", at_table.WITHDRAWN)
        elif x in self.acks:
            result, reason = "refused", at_table.CARRIED_OUT
        if x is not None and result == "done":
            _keep(self.withdrawn, x)  # a resend, or the original arriving late: not shown
        _keep(self.acks, wid)
        self.info["queued"] = len(self.waiting)
        self.dirty = True
        self.report(wid, result, reason)
        self.save()

    def awaiting(self):
        """Is an instruction on screen waiting for the dealer's Confirm?"""
        return bool(self.info.get("instruction"))

    def ack(self):
        """The dealer confirmed the instruction on screen: carry it out
        (tcbox/instructions/at_table.py), remember its id, tell the host what became of it,
        show the next one waiting, save."""
        ins = self.info.get("instruction")
        if not ins:
            return
        iid = ins.get("id") if isinstance(ins, dict) else None
        from . import at_table
        from .words import done_text

        table = self.table
        table.error = None  # an older refusal is not this one's
        names = table_no = None  # the host's seating at this box (the link's)
        for part in self.hooked["seating"]:
            names, table_no = part.seating(self)
        result, reason, stack = at_table.carry_out(table, ins, names, table_no)
        _keep(self.acks, iid)
        self.info["instruction"] = self.waiting.pop(0) if self.waiting else None
        self.info["queued"] = len(self.waiting)
        if result == at_table.LATER:
            self.menu.note = done_text(ins, later=True)
            result = "acknowledged"  # done once the hand is over
        elif result == at_table.REFUSED:
            table.error = reason  # the status line shows why, white on red
            self.menu.note = ""
        else:
            self.menu.note = done_text(ins)  # what was done: "Seat 3 moved to ..."
        self.dirty = True
        self.report(iid, result, reason, stack)
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
        ``on_result`` (the link's ``instruction_done``).  *stack*: the chips a
        player moved out with (a ``move_out`` done), else None."""
        if iid is None:
            return
        for part in self.hooked["on_result"]:
            part.on_result(self, iid, result, reason, stack)


def _keep(ids, iid):
    """Append *iid* (not None) to the list *ids*, keeping the last ACKS_KEPT."""
    if iid is not None:
        ids.append(iid)
        if len(ids) > ACKS_KEPT:
            ids.pop(0)
