"""The box's end of the host link (docs/protocol.md, "On the box"): the Link itself
(``box_end``), its states and timings (``states``), the host's frames (``frames``), the box
events (``events``), the host's clock followed (``hostclock``), its part of the power-loss
record (``powerloss``), its wiring to the App (``wiring``).  Empty: importing one module
loads only what it imports (the box's heap).
"""
