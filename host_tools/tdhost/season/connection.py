"""The connection to the league server and what its failures say: psycopg's errors become
one sentence each (refused login, server unreachable, connection lost mid-push, a write
refused by the league's rules).  docs/league.md, "Faults"."""

from typing import Any

import psycopg
from psycopg import errors as _errors

CONNECT_TIMEOUT = 10  # seconds before an unreachable league server is given up


class SeasonError(Exception):
    """A league-server command that did nothing; str(err) is the sentence for the TD."""


def connect(conninfo: str, doing: str, timeout: int = CONNECT_TIMEOUT
            ) -> psycopg.Connection[Any]:
    """A connection to the league server at *conninfo* (a postgresql:// URL or key=value
    string) in autocommit: each command makes its own ``transaction()``.  SeasonError with
    one sentence when it cannot be had.  *doing*: what the command was about to do;
    *timeout*: seconds before an unreachable server is given up."""
    if not conninfo:
        raise SeasonError("No league server given: pass --server with the venue's connection "
                          "string (from `tdhost season add-venue`) or set TDHOST_SEASON.")
    try:
        # no JIT: compiling a standings query costs more than running it (docs/league.md,
        # "Figures")
        return psycopg.connect(conninfo, connect_timeout=timeout, options="-c jit=off",
                               autocommit=True, application_name="tdhost " + doing)
    except psycopg.ProgrammingError as err:  # a malformed connection string
        raise SeasonError("The league server's connection string cannot be read (%s)."
                          % _short(err))
    except psycopg.OperationalError as err:
        raise SeasonError(_connect_failed(err, doing))


def _connect_failed(err: Exception, doing: str) -> str:
    text = str(err)
    if "password authentication failed" in text or "not permitted to log in" in text \
            or "does not exist" in text and "role" in text:
        return ("The league server refused this venue's login (its credentials were revoked"
                " or mistyped): nothing was %s; ask the league's organiser for new ones."
                % _done(doing))
    return ("The league server cannot be reached (%s): nothing was %s; the venue goes on "
            "offline, %s again later." % (_short(err), _done(doing), doing))


def failed(err: Exception, doing: str) -> str:
    """The sentence for *err* raised while *doing* on an open connection (rolled back)."""
    if isinstance(err, _errors.InsufficientPrivilege):
        return ("The league server refused the %s (%s): nothing was %s; this venue may write"
                " only its own tournaments." % (doing, _short(err), _done(doing)))
    if isinstance(err, (_errors.AdminShutdown, _errors.CrashShutdown,
                        _errors.CannotConnectNow)) or isinstance(err, psycopg.OperationalError):
        return ("The connection to the league server was lost during the %s (%s): nothing "
                "was %s; %s again." % (doing, _short(err), _done(doing), doing))
    return "The league server could not finish the %s (%s): nothing was %s." % (
        doing, _short(err), _done(doing))


def _done(doing: str) -> str:
    return {"push": "sent", "pull": "changed", "answer": "recorded"}.get(doing, "changed")


def _short(err: object) -> str:
    """An error as one short phrase (its first line)."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    text = lines[0] if lines else type(err).__name__
    text = text.removeprefix("FATAL:").removeprefix("ERROR:").strip()
    return text if len(text) <= 100 else text[:97] + "..."
