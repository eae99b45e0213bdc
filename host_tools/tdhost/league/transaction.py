"""One TD action as one transaction on the league file: ``append`` loads the league, asks a
decision for its events and writes them; ``load`` reads the league back from its checkpoint,
``replay`` replays the whole log as a check.  The CLI commands, the live night (tdhost.live)
and the simulator's nights write through it.  docs/host.md §3.2.
"""

import sqlite3
from typing import Any, Callable

from tdhost.league import checkpoint as _checkpoint, replay as _replay, store as _store
from tdhost.league.replay import League
from tdhost.league.tournament import Payload

NewEvent = tuple[int, str, Payload, int | None]  # (tournament, action, payload, undoes)
# what a decision returns: ([(tournament, action, payload, undoes)], result)
Decision = tuple[list[NewEvent], Any]
Decide = Callable[[League, int], Decision]


def append(store: _store.Store, decide: Decide, stamp: str, cache: Any = None,
           after: Any = None) -> tuple[list[int], Any]:
    """One TD action on an open league file: in one transaction, replay the log and run
    *decide(league, seq)* -> ([(tournament, action, payload, undoes)], result), then append
    those events stamped *stamp* (ISO time).  ActionRefused (from *decide*) writes nothing and
    propagates.  Returns (seqs written, result).
    *cache* (tdhost.league.cache.LeagueCache): the league kept in memory instead of a replay,
    brought up to date inside the transaction.
    *after* (Store.write): what goes with the events in the same transaction."""
    if cache is None:
        def inner(_: Any) -> Any:
            lg = load(store)
            # taken before deciding (a decision may change lg), written if it is not refused
            taken = _checkpoint.take(lg) if _checkpoint.due(lg) else None
            events, result = decide(lg, lg.count + 1)
            if taken:
                _checkpoint.put(store, taken)
            return [(number, stamp, action, payload, undoes)
                    for number, action, payload, undoes in events], result
        return store.write(inner, read=False, after=after)

    def cached(_: Any) -> Any:
        lg = cache.league(store)
        taken = None
        if cache.seq - cache.checkpointed(store) > _checkpoint.EVERY:
            taken = cache.take()  # for the CLI's commands meanwhile
        events, result = decide(lg, lg.count + 1)
        if taken:
            _checkpoint.put(store, taken)
            cache.put(taken)
        if any(action == "register" for _, action, _, _ in events):
            cache.drop()  # the decision applied them to lg already (tdhost.league.cache)
        return [(number, stamp, action, payload, undoes)
                for number, action, payload, undoes in events], result
    try:
        return store.write(cached, read=False, after=after)
    except BaseException:
        cache.drop()  # the decision may have changed the league before it refused
        raise


def replay(store: _store.Store) -> League:
    """The league of an open league file, its whole log replayed (a check of every event:
    `tdhost backup`, `tdhost serve`); StoreError (one sentence naming the newest good
    backup) when its log cannot be read or replayed -- a damaged file, never a traceback."""
    events = store.events()
    try:
        return _replay.replay(events)
    except Exception as err:  # noqa: BLE001 -- a damaged log may hold anything
        raise _store.StoreError(_store.damaged(store.path, "its log cannot be replayed (%s)"
                                               % (_store.why(err) or type(err).__name__)))


def load(store: _store.Store) -> League:
    """The league of an open league file from its checkpoint and the events after it
    (tdhost.league.checkpoint: a command's cost does not grow with the season); StoreError as
    ``replay``'s when what it reads cannot be read or applied."""
    try:
        return _checkpoint.load(store)
    except (_store.StoreError, sqlite3.DatabaseError):
        raise
    except Exception as err:  # noqa: BLE001 -- a damaged log may hold anything
        raise _store.StoreError(_store.damaged(store.path, "its log cannot be replayed (%s)"
                                               % (_store.why(err) or type(err).__name__)))
