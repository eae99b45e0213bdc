"""`tdhost serve --demo`'s night, from the box simulator: the class the ``tdhost.demo`` entry
point names (tcsim.serve_demo.Demo, pyproject.toml), so that no tdhost module imports tcsim
(docs/architecture.md).
"""

from importlib.metadata import entry_points
from typing import Any

GROUP = "tdhost.demo"


class NoSimulator(Exception):
    """The simulator is not installed; the text is one sentence for the TD."""


def night_class() -> Any:
    """The demo night's class (``Demo.build(workdir, seed=..., speed=...)``)."""
    for entry_point in entry_points(group=GROUP):
        try:
            return entry_point.load()
        except ImportError as err:
            raise NoSimulator("--demo needs the box simulator, and %s is not installed:"
                              " pip install 'tableclock-host[sim]' adds it"
                              % (err.name or "a package it uses"))
    raise NoSimulator("--demo needs the box simulator (tableclock-sim), and it is not "
                      "installed: pip install 'tableclock-host[sim]' gives both")
