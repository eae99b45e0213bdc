"""terminalio.FONT stand-in (6x12 cells) for tests/sim under MicroPython."""

FONT = object()
