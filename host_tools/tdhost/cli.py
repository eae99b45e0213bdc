"""The `tdhost` command line (Click).

    tdhost plan [--apply]  the balancing/breaking moves for the league's seating, in words
    tdhost plan FILE       the plan for a room in a JSON file (or - for stdin), as JSON

Every command is a function on the `cli` group below (the tournament commands come from
tdhost.commands, the boxes' from tdhost.usb_cli and tdhost.serve); `--help` lists them in
a night's order with an example night.  Bad input exits
with code 2 and one sentence on stderr saying what is wrong (Click's own usage errors
exit 2 too).
"""

import json
import sys

import click

from tdhost import __version__, commands, importcsv, serve, usb_cli
from tdhost.rules import balance


def _fail(command, msg):
    click.echo("tdhost %s: %s" % (command, msg), err=True)
    click.get_current_context().exit(2)


def _no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise ValueError("the key %r appears twice in one object" % k)
        seen[k] = v
    return seen


def load_json(command, file):
    """Parse *file* as JSON (duplicate keys refused) or exit 2 with a sentence."""
    name = "standard input" if file.name == "<stdin>" else file.name
    try:
        text = file.read()
    except UnicodeDecodeError:
        _fail(command, "%s is not UTF-8 text." % name)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except RecursionError:
        _fail(command, "%s is nested too deeply to be a room." % name)
    except json.JSONDecodeError as err:
        _fail(command, "%s is not valid JSON: %s at line %d column %d."
              % (name, err.msg, err.lineno, err.colno))
    except ValueError as err:
        _fail(command, "%s: %s." % (name, err))


# `tdhost --help` lists the commands in the order of a night, not alphabetically
NIGHT_ORDER = ("new", "import", "register", "standby", "lock", "unlock", "draw", "start", "seats",
               "level", "late", "arrive", "bust", "plan", "move", "undo", "end", "results",
               "league", "log", "backup", "restore", "serve", "boxes", "pair", "deploy")

EXAMPLE = """A night, in order (LPPL Monday; `tdhost COMMAND --help` for each):

\b
  export TDHOST_DB=monday.sqlite
  tdhost new docs/examples/lppl.toml          # the tournament from its file
  tdhost register "Ann Lee" "Bob Hart" ...    # past the cap: the standby list
  tdhost lock "Bob Hart" --table 1 --seat 1   # before the draw (unlock takes it back)
  tdhost draw                                 # random seats, the seed printed and logged
  tdhost start                                # shuffle up and deal
  tdhost late "Cal Diaz"                      # a latecomer: chips and seat
  tdhost bust Ann                             # a unique start of a name does (asks first)
  tdhost plan                                 # the balancing moves in words
  tdhost plan --apply                         # ... recorded in one step (asks first)
  tdhost draw --final                         # the final table
  tdhost bust Bob                             # ... until one player is left
  tdhost results && tdhost league             # the night's points and the league table

With the boxes, `tdhost serve` runs the night and the TD console instead
(`tdhost serve --demo` tries it with simulated boxes)."""


class NightGroup(click.Group):
    """A Click group whose --help lists the commands in NIGHT_ORDER."""

    def list_commands(self, ctx):
        rank = {n: i for i, n in enumerate(NIGHT_ORDER)}
        return sorted(self.commands, key=lambda n: (rank.get(n, len(rank)), n))


@click.group(cls=NightGroup, epilog=EXAMPLE,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tdhost")
def cli():
    """Table Clock TD host: a poker league's tournaments, from registration to the league
    table, with or without the table boxes."""


@cli.command("plan")
@click.argument("file", type=click.File("r", encoding="utf-8"), required=False)
@click.option("--json", "as_json", is_flag=True,
              help="Print the plan as JSON (the file contract's output; FILE always does).")
@click.option("--compact", is_flag=True, help="With JSON: on one line.")
@click.option("--apply", is_flag=True, help="Record the moves in one step (asks first).")
@click.option("--button", "buttons", multiple=True, metavar="T.S",
              help="Where the button is now at table T (repeatable; default: the draw's): "
                   "who moves is the player due the big blind next.")
@commands.yes_option
@commands.db_option
@commands.tournament_option
def plan_cmd(file, as_json, compact, apply, buttons, yes, db, number):
    """The balancing and table-breaking moves for the league's seating now, in words.

    \b
      Table 4 breaks.
      Move Ann Lee: table 2 seat 4 \u2192 table 3 seat 7.

    With FILE (JSON; - for stdin) it plans that room instead and prints JSON, with no
    side effects: {"profile", "seats_per_table", "seed", "tables": [{"table", "seats":
    {"seat": "player"}, "button", "sb", "bb"}]} gives {"moves": [{"player", "from":
    {"table", "seat"}, "to": {"table", "seat"}}], "broken": [tables], "final_table":
    bool}.  See docs/balancing.md.
    """
    if file is None:
        commands.cmd_plan(as_json, compact, apply, yes, buttons, db, number)
        return
    if apply or buttons:
        _fail("plan", "--apply and --button go with the league's seating, not with FILE.")
    room = load_json("plan", file)
    try:
        result = balance.plan(room)
    except balance.PlanError as err:
        _fail("plan", str(err))
    click.echo(json.dumps(result) if compact else format_plan(result))


format_plan = commands.format_plan


# The tournament commands (new, register, standby, draw, start, late, bust, undo, log,
# results, league, ...): host_tools/tdhost/commands.py, docs/host.md.
commands.register(cli, _fail)

# Players from a CSV file: `tdhost import FILE.csv` (host_tools/tdhost/importcsv.py).
importcsv.register(cli)

# The boxes on USB: `tdhost boxes`, `tdhost pair PORT`, `tdhost deploy DRIVE`
# (host_tools/tdhost/usb_cli.py).
usb_cli.register(cli, _fail)

# The live night with the boxes: `tdhost serve` (host_tools/tdhost/serve.py).
serve.register(cli, _fail)


def main(argv=None):
    """Console-script entry point (`tdhost = "tdhost.cli:main"`).  Click's usage errors
    (a bad option or argument) become one line too: "tdhost CMD: what is wrong."."""
    try:
        code = cli.main(args=argv, prog_name="tdhost", standalone_mode=False)
    except click.UsageError as err:
        where = err.ctx.command_path if err.ctx is not None else "tdhost"
        msg = " ".join(err.format_message().split()).rstrip(".")
        click.echo("%s: %s (see `%s --help`)." % (where, msg, where), err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as err:
        click.echo("tdhost: %s." % err.format_message().rstrip("."), err=True)
        sys.exit(err.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
