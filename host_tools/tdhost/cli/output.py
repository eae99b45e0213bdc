"""What the commands print and write: the one-line refusal with exit code 2 (``fail``),
sentences (``say``), tables (rich, or plain text), CSV and JSON files, JSON read from a
file, and the log's lines on standard error (``log_to_stderr``).  Everything printed goes
through tdhost.safetext: no name or message from a file or the network can move the
cursor, clear the screen or forge a line.  docs/host.md §1.
"""

import csv
import json
import logging
import sys
from typing import IO, Any, Iterable, NoReturn, Sequence

import click

from tdhost.safetext import EscapingFormatter, csv_cell, printable

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
    say("tdhost %s: %s" % (command, msg), err=True)
    click.get_current_context().exit(2)


def say(line: str = "", err: bool = False) -> None:
    """One line on standard output (standard error: *err*), control characters escaped
    (tdhost.safetext.printable): every line a command prints goes through here."""
    click.echo(printable(line), err=err)


def echo_lines(lines: Iterable[str]) -> None:
    """Each line as a sentence (a full stop added when it has none; empty lines kept)."""
    for line in lines:
        say(line if line.endswith((".", ":", "?")) or not line else line + ".")


class _ToStderr(logging.StreamHandler):
    """The log on whatever standard error is when a line is logged."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def log_to_stderr() -> None:
    """Warnings and errors of every logger (tdhost's, the broker's) on standard error, one
    escaped line each (tdhost.safetext.EscapingFormatter); called once by the console
    script.  Without it Python's last-resort handler printed them raw."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _ToStderr)]:
        root.removeHandler(old)
    handler = _ToStderr()
    handler.setLevel(logging.WARNING)
    handler.setFormatter(EscapingFormatter("%(message)s"))
    root.addHandler(handler)


def show_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], plain: bool,
               title: str | None = None) -> None:
    """A table, with rich when available and wanted, else aligned plain text."""
    cells = [["" if value is None else printable(value) for value in row] for row in rows]
    title = printable(title) if title else title
    if HAVE_RICH and not plain:
        # markup and emoji codes off: a name like "[/]" or ":x:" is shown as it is
        table = _Table(title=title, box=_rich_box.SIMPLE_HEAD, title_justify="left")
        for head in headers:
            table.add_column(head)
        for row in cells:
            table.add_row(*row)
        _Console(highlight=False, soft_wrap=True, markup=False, emoji=False).print(table)
        return
    if title:
        say(title)
    widths = [max([len(head)] + [len(row[i]) for row in cells])
              for i, head in enumerate(headers)]
    say("  ".join(head.ljust(w) for head, w in zip(headers, widths)).rstrip())
    say("  ".join("-" * w for w in widths))
    for row in cells:
        say("  ".join(value.ljust(w) for value, w in zip(row, widths)).rstrip())


def write_csv(command: str, path: str, fields: Sequence[str],
              rows: Iterable[Sequence[Any]]) -> None:
    """`--csv FILE`: a header line and the rows, every text cell that a spreadsheet would
    take for a formula made safe (tdhost.safetext.csv_cell; numbers stay numbers); UTF-8
    with a byte-order mark, so Excel opens "Núñez" as it is written."""
    try:
        with open(path, "w", newline="", encoding="utf-8-sig") as f:
            writer = csv.writer(f)
            writer.writerow([csv_cell(field) for field in fields])
            writer.writerows([csv_cell(value) for value in row] for row in rows)
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
    say("Written to %s." % path)


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
