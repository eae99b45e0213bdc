"""The `tdhost` group: its commands in the order of a night, its --help with an example
night, and the console-script entry point (``main``) that turns every usage error into
one line and exit code 2.  docs/host.md §1.
"""

import sys

import click

from tdhost import __version__
from tdhost.cli import (
    audit,
    boxes,
    csvimport,
    example,
    money_commands,
    night,
    plan,
    printing,
    registration,
    results,
    season,
    serve,
)
from tdhost.cli.output import say

# `tdhost --help` lists the commands in the order of a night, not alphabetically
NIGHT_ORDER = ("example", "new", "import", "register", "unregister", "standby", "lock",
               "unlock", "draw", "start", "seats", "level", "late", "arrive", "bust", "reenter",
               "rebuy", "addon", "knockout", "payouts", "ruling", "plan", "move", "undo", "end",
               "print", "results", "league", "log", "backup", "restore", "serve", "boxes",
               "pair", "move-box", "deploy", "season")

EXAMPLE = """A night, in order (LPPL Monday; `tdhost COMMAND --help` for each):

\b
  export TDHOST_DB=monday.sqlite
  tdhost example lppl                         # a tournament file to edit: lppl.toml
  tdhost new lppl.toml                        # the tournament from its file
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

    def list_commands(self, ctx: click.Context) -> list[str]:
        rank = {name: i for i, name in enumerate(NIGHT_ORDER)}
        return sorted(self.commands, key=lambda name: (rank.get(name, len(rank)), name))


@click.group(cls=NightGroup, epilog=EXAMPLE,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tdhost")
def cli() -> None:
    """Table Clock TD host: a poker league's tournaments, from registration to the league
    table, with or without the table boxes."""


for _module in (example, registration, csvimport, night, money_commands, plan, printing, results,
                audit, boxes, serve, season):
    for _command in _module.COMMANDS:
        cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (`tdhost = "tdhost.cli.app:main"`).  Click's usage errors
    (a bad option or argument) become one line too: "tdhost CMD: what is wrong."."""
    try:
        code = cli.main(args=argv, prog_name="tdhost", standalone_mode=False)
    except click.UsageError as err:
        where = err.ctx.command_path if err.ctx is not None else "tdhost"
        msg = " ".join(err.format_message().split()).rstrip(".")
        say("%s: %s (see `%s --help`)." % (where, msg, where), err=True)
        sys.exit(2)
    except click.Abort:
        say("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as err:
        say("tdhost: %s." % err.format_message().rstrip("."), err=True)
        sys.exit(err.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
