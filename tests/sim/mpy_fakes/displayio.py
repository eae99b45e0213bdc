"""Minimal displayio for running tcbox/screen.py under the MicroPython unix
port (tests/sim/test_sim.py): groups and palettes that only hold values."""


class Group:
    def __init__(self, scale=1, x=0, y=0):
        self.scale = scale
        self.x = x
        self.y = y
        self.hidden = False
        self._items = []

    def append(self, item):
        self._items.append(item)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]


class Palette:
    def __init__(self, n):
        self._c = [0] * n

    def __setitem__(self, i, c):
        self._c[i] = c
