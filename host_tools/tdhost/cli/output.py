"""What the commands print and write: the one-line refusal with exit code 2 (``fail``),
sentences, tables (rich, or plain text), CSV and JSON files, and JSON read from a file.
docs/host.md §1.
"""

import csv
import json
from typing import IO, Any, Iterable, NoReturn, Sequence

import click

try:  # rich tables when installed (a runtime dependency); plain text otherwise
    from rich import box as _rich_box
    from rich.console import Console as _Console
    from rich.table import Table as _Table
    HAVE_RICH = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_RICH = False


def fail(command: str, msg: str) -> NoReturn:
    """Bad input: "tdhost COMMAND: one sentence." on stderr, exit code 2."""
    msg = msg if msg.endswith((".", "?", "!")) else msg + "."
    click.echo("tdhost %s: %s" % (command, msg), err=True)
    click.get_current_context().exit(2)


def echo_lines(lines: Iterable[str]) -> None:
    """Each line as a sentence (a full stop added when it has none; empty lines kept)."""
    for line in lines:
        click.echo(line if line.endswith((".", ":", "?")) or not line else line + ".")


def show_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], plain: bool,
               title: str | None = None) -> None:
    """A table, with rich when available and wanted, else aligned plain text."""
    cells = [["" if value is None else str(value) for value in row] for row in rows]
    if HAVE_RICH and not plain:
        table = _Table(title=title, box=_rich_box.SIMPLE_HEAD, title_justify="left")
        for head in headers:
            table.add_column(head)
        for row in cells:
            table.add_row(*row)
        _Console(highlight=False, soft_wrap=True).print(table)
        return
    if title:
        click.echo(title)
    widths = [max([len(head)] + [len(row[i]) for row in cells])
              for i, head in enumerate(headers)]
    click.echo("  ".join(head.ljust(w) for head, w in zip(headers, widths)).rstrip())
    click.echo("  ".join("-" * w for w in widths))
    for row in cells:
        click.echo("  ".join(value.ljust(w) for value, w in zip(row, widths)).rstrip())


def write_csv(command: str, path: str, fields: Sequence[str],
              rows: Iterable[Sequence[Any]]) -> None:
    """`--csv FILE`: a header line and the rows."""
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(fields)
            writer.writerows(rows)
    except OSError as err:
        fail(command, "%s cannot be written (%s)" % (path, err.strerror or err))


def write_json(command: str, path: str, obj: Any) -> None:
    """*obj* as a JSON file (UTF-8, indented): `--json FILE` of results and league."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(obj, f, ensure_ascii=False, indent=2)
            f.write("\n")
    except OSError as err:
        fail(command, "%s cannot be written (%s)" % (path, err.strerror or err))
    click.echo("Written to %s." % path)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError("the key %r appears twice in one object" % key)
        seen[key] = value
    return seen


def load_json(command: str, file: IO[str]) -> Any:
    """Parse *file* as JSON (duplicate keys refused) or exit 2 with a sentence."""
    name = "standard input" if file.name == "<stdin>" else file.name
    try:
        text = file.read()
    except UnicodeDecodeError:
        fail(command, "%s is not UTF-8 text." % name)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except RecursionError:
        fail(command, "%s is nested too deeply to be a room." % name)
    except json.JSONDecodeError as err:
        fail(command, "%s is not valid JSON: %s at line %d column %d."
             % (name, err.msg, err.lineno, err.colno))
    except ValueError as err:
        fail(command, "%s: %s." % (name, err))
