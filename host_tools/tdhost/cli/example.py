"""`tdhost example`: the tournament files a TD starts from (one per house-rule profile, and
a money game), listed or written into the current folder.  They travel in the wheel as
tdhost/examples (docs/examples in the tree).  docs/host.md §2.
"""

import os

import click

from tdhost.cli.output import fail, say

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tdhost package
_TREE = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "docs", "examples")


def examples_dir() -> str:
    """The folder of the example tournament files: installed beside tdhost, else the tree's."""
    installed = os.path.join(_HERE, "examples")
    return installed if os.path.isdir(installed) else _TREE


def examples() -> dict[str, str]:
    """{name: what it is} of every example tournament file (its first comment line)."""
    out = {}
    folder = examples_dir()
    for file in sorted(os.listdir(folder)):
        if file.endswith(".toml"):
            with open(os.path.join(folder, file), encoding="utf-8") as f:
                first = f.readline().lstrip("# ").split("`")[0].split(":")[0]
            out[file[:-len(".toml")]] = first.strip().rstrip(".")
    return out


@click.command("example")
@click.argument("name", required=False)
@click.option("--out", "out", metavar="FILE", type=click.Path(dir_okay=False),
              help="Where to write it (default: NAME.toml in this folder; never overwritten).")
def example(name: str | None, out: str | None) -> None:
    """A tournament file to start from: without NAME, the list; with NAME, the file
    written to NAME.toml here, to edit (date, name, levels) and give to `tdhost new`."""
    known = examples()
    if name is None:
        say("Tournament files to start from (`tdhost example NAME` writes NAME.toml):")
        width = max(len(n) for n in known)
        for n, what in known.items():
            say("  %s  %s" % (n.ljust(width), what))
        return
    if name.endswith(".toml"):
        name = name[:-len(".toml")]
    if name not in known:
        fail("example", "there is no example named %s; the examples are %s"
             % (name, ", ".join(known)))
    target = out or name + ".toml"
    if os.path.exists(target):
        fail("example", "%s already exists: it is kept as it is (give another name with "
             "--out FILE)" % target)
    with open(os.path.join(examples_dir(), name + ".toml"), encoding="utf-8") as f:
        text = f.read().replace("docs/examples/%s.toml" % name, target)
    try:
        with open(target, "x", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        fail("example", "%s cannot be written: %s" % (target, err.strerror or err))
    say("Wrote %s: %s. Set its date, name and levels, then `tdhost new %s`."
        % (target, known[name], target))


COMMANDS = (example,)
