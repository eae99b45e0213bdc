"""The box's end of the host link (docs/protocol.md, "On the box"): the Link itself
(``box_end``), its states and timings (``states``), the host's set-up, seating, clock and
instructions (``frames``), the box events (``events``), the host's clock followed
(``hostclock``), which link a pairing asks for (``pairing``); the instructions it
remembers are the box's book (tcbox/instructions/book.py).  The Link is a part of
tcbox.app.App (its hooks: docs/box.md, "The App and its parts").  Empty: importing one
module loads only what it imports (the box's heap).
"""
