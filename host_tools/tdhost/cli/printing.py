"""`tdhost print`: a printout of the night as a print-ready HTML file (the seat list and
seat cards, table sheets, results, the league table, the sign-in sheet), rendered by
tdhost.web.paper, the same pages the console prints.  docs/host.md §12.
"""

import os

import click

from tdhost.cli.options import league_options
from tdhost.cli.output import fail, say
from tdhost.league import store as _store
from tdhost.league.refusal import ActionRefused
from tdhost.league.times import now
from tdhost.live.night import Live
from tdhost.web import paper


@click.command("print")
@click.argument("part", type=click.Choice(list(paper.PARTS)))
@click.option("--out", "-o", "out", type=click.Path(dir_okay=False), default=None,
              help="The HTML file to write (default: tournament-N-PART.html here).")
@league_options
def print_(part: str, out: str | None, db: str, number: int | None) -> None:
    """Write a printout as an HTML page to print from any browser (its print dialog also
    saves a PDF): seats (the seat list by name and the seat cards), tables (a sheet a
    table), results, league (the league table) or signin (the sign-in sheet).  Only tables
    with players print; a finished tournament's seats and tables are refused (nothing to
    print)."""
    try:
        live = Live(db, number, clock=lambda: int(now().timestamp() * 1000))
    except (_store.StoreError, ActionRefused) as err:
        fail("print", str(err))
    try:
        snap = live.snapshot()
    finally:
        live.close()
    if part in ("seats", "tables") and paper.over(snap):  # a page with nothing to print
        fail("print", "tournament %d is over: there are no %s to print (`tdhost print "
             "results` prints the places)" % (snap["tournament"]["number"], part))
    path = out or "tournament-%d-%s.html" % (snap["tournament"]["number"], part)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(paper.render(part, snap))
    except OSError as err:
        fail("print", "%s cannot be written: %s" % (path, err.strerror or err))
    say("%s of tournament %d written to %s: open it in a browser and print it." % (
        paper.PARTS[part], snap["tournament"]["number"], os.path.abspath(path)))


COMMANDS = (print_,)
