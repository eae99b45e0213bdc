"""The `tdhost` command line (Click).

    tdhost plan FILE      print the balancing/breaking plan for a room (FILE or - for stdin)

Every command is a function on the `cli` group below, so later commands (register,
draw, bust, serve, ...) slot in as further `@cli.command()` functions.  Bad input exits
with code 2 and one sentence on stderr saying what is wrong (Click's own usage errors
exit 2 too).
"""

import json

import click

from tdhost import __version__, balance, commands, serve, usb_cli


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
    except json.JSONDecodeError as err:
        _fail(command, "%s is not valid JSON: %s at line %d column %d."
              % (name, err.msg, err.lineno, err.colno))
    except ValueError as err:
        _fail(command, "%s: %s." % (name, err))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tdhost")
def cli():
    """Table Clock TD host: plans and instructions for the table boxes."""


@cli.command("plan")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--compact", is_flag=True, help="Print the JSON on one line.")
def plan_cmd(file, compact):
    """Print the balancing/breaking plan for the room in FILE (JSON; - for stdin).

    FILE: {"profile", "seats_per_table", "seed", "tables": [{"table", "seats":
    {"seat": "player"}, "button", "sb", "bb"}]}.  Output: {"moves": [{"player",
    "from": {"table", "seat"}, "to": {"table", "seat"}}], "broken": [tables],
    "final_table": bool}.  No side effects; see docs/balancing.md.
    """
    room = load_json("plan", file)
    try:
        result = balance.plan(room)
    except balance.PlanError as err:
        _fail("plan", str(err))
    click.echo(json.dumps(result) if compact else format_plan(result))


def format_plan(result):
    """The plan as JSON with one move per line (valid JSON, easy to read and diff)."""
    moves = ",\n".join("    " + json.dumps(m) for m in result["moves"])
    return "\n".join([
        "{",
        '  "moves": [\n%s\n  ],' % moves if moves else '  "moves": [],',
        '  "broken": %s,' % json.dumps(result["broken"]),
        '  "final_table": %s' % json.dumps(result["final_table"]),
        "}",
    ])


# The tournament commands (new, register, standby, draw, start, late, bust, undo, log,
# results, league, ...): host_tools/tdhost/commands.py, docs/host.md.
commands.register(cli, _fail)

# The boxes on USB: `tdhost boxes`, `tdhost pair PORT` (host_tools/tdhost/usb_cli.py).
usb_cli.register(cli, _fail)

# The live night with the boxes: `tdhost serve` (host_tools/tdhost/serve.py).
serve.register(cli, _fail)


def main(argv=None):
    """Console-script entry point (`tdhost = "tdhost.cli:main"`)."""
    cli.main(args=argv, prog_name="tdhost")


if __name__ == "__main__":
    main()
