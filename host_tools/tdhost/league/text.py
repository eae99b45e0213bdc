"""The league's words: player names and their keys, places, seats, numbers, and the one
line `tdhost log` shows for each event (docs/host.md §3)."""

import difflib
import unicodedata
from typing import Iterable, Sequence

from tdhost.league.refusal import ActionRefused
from tdhost.league.store import LoggedEvent
from tdhost.league.times import clock_time
from tdhost.safetext import is_printable

MAX_NAME = 40


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 11th..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def place_text(first: int, last: int) -> str:
    """A finishing place; shared places (first < last) end in "=": "3rd="."""
    return ordinal(first) if first == last else "%s=" % ordinal(first)


def names_text(names: Iterable[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    names = list(names)
    return names[0] if len(names) == 1 else "%s and %s" % (", ".join(names[:-1]), names[-1])


def player_key(name: str) -> str:
    """The key a player is known by: whitespace tidied, case folded."""
    return " ".join(name.split()).casefold()


def plain_key(name: str) -> str:
    """A name's key without accents: "Carla Núñez" and "carla nunez" are the same."""
    text = unicodedata.normalize("NFKD", player_key(name))
    return "".join(c for c in text if not unicodedata.combining(c))


SAME_PERSON = 0.85  # difflib's ratio of two names' plain keys that may be one person


def same_person(a: str, b: str) -> str | None:
    """Why names *a* and *b* may be one person ("the same name but for accents", "a close
    spelling"), or None; the same key (case, spacing) is not asked here."""
    ka, kb = plain_key(a), plain_key(b)
    if ka == kb:
        return "the same name but for accents"
    if [c for c in ka if c.isdigit()] != [c for c in kb if c.isdigit()]:
        return None  # "Player 1" and "Player 2" are two players
    if difflib.SequenceMatcher(None, ka, kb).ratio() >= SAME_PERSON:
        return "a close spelling"
    return None


def clean_name(name: object) -> str:
    """The player's name as typed, whitespace tidied; ActionRefused if unusable."""
    text = " ".join(str(name).split())
    if not text:
        raise ActionRefused("a player needs a name")
    if len(text) > MAX_NAME:
        raise ActionRefused("%r is longer than %d characters" % (text, MAX_NAME))
    if not is_printable(text) or "=" in text:
        raise ActionRefused("%r: a name may not contain '=' or control characters" % text)
    return text


def seat_text(seat: Iterable[int]) -> str:
    """[2, 4] as "table 2 seat 4"."""
    return "table %d seat %d" % tuple(seat)


def quote_name(name: str) -> str:
    """A name as typed on the command line (quoted when it has a space)."""
    return '"%s"' % name if " " in name else name


def summary(event: LoggedEvent) -> str:
    """One line for the log."""
    payload = event.payload
    action = event.action
    dead_bb = ", dead big blind" if payload.get("dead_bb") else ""
    if action == "new":
        setup = payload["setup"]
        return "tournament %d: %s (%s, %s)" % (event.tournament, setup["name"],
                                               setup["profile"], payload.get("file", "?"))
    if action == "register":
        return "%s %s%s%s" % ("standby" if payload["standby"] else "register", payload["name"],
                              " (member %s)" % payload["member_no"] if payload.get("member_no")
                              else " (member)" if payload["member"] else "",
                              ", " + seat_text(payload["seat"]) if payload.get("seat") else "")
    if action == "unregister":
        return "unregister %s%s" % (payload["name"], " (was at %s)" % seat_text(payload["seat"])
                                    if payload.get("seat") else "")
    if action == "lock":
        return "lock %s to table %d seat %d (%s)" % (payload["name"], payload["table"],
                                                     payload["seat"], payload["reason"])
    if action == "unlock":
        return "unlock %s (was table %d seat %d)" % (payload["name"], payload["table"],
                                                     payload["seat"])
    if action == "draw":
        return "%sdraw, %s, seed %s: %d players" % (
            "final-table " if payload["final"] else "", payload["mode"], payload["seed"],
            len(payload["seats"]))
    if action == "start":
        extra = []
        if payload["replaced"]:
            extra.append("replaced: " + ", ".join("%s by %s" % tuple(pair)
                                                  for pair in payload["replaced"]))
        if payload["awol"]:
            extra.append("not seated: " + ", ".join(payload["awol"]))
        if payload["away"]:
            extra.append("away: " + ", ".join(payload["away"]))
        return "shuffle up and deal at %s%s" % (clock_time(payload["time"]),
                                                "; " + "; ".join(extra) if extra else "")
    if action == "level":
        return "level %d started at %s" % (payload["level"], clock_time(payload["time"]))
    if action == "late":
        return "latecomer %s at %s: %d chips%s, %s" % (
            payload["name"], clock_time(payload["time"]), payload["stack"], dead_bb,
            seat_text(payload["seat"]))
    if action == "reenter":
        return "%s re-enters at %s: entry %d, %d chips, %s" % (
            payload["name"], clock_time(payload["time"]), payload["entry"], payload["stack"],
            seat_text(payload["seat"]))
    if action == "arrive":
        return "%s arrives at %s: %d chips removed%s" % (
            payload["name"], clock_time(payload["time"]), payload["deduction"], dead_bb)
    if action == "standby_take":
        return "standby %s takes %s: %d chips%s" % (
            payload["name"], seat_text(payload["seat"]), payload["stack"], dead_bb)
    if action == "standby_pass":
        return "standby %s passes on %s" % (payload["name"], seat_text(payload["offer"]))
    if action == "move":
        return "move %s to %s" % (payload["name"], seat_text(payload["seat"]))
    if action == "bust":
        out = " / ".join(", ".join(tier) for tier in reversed(payload["tiers"]))
        return "bust %s at %s%s" % (out, clock_time(payload["time"]),
                                    " (same hand)" if sum(map(len, payload["tiers"])) > 1 else "")
    if action == "end":
        return "time-limited end at %s: %s" % (clock_time(payload["time"]), ", ".join(
            "%s %d" % (name, chips)
            for name, chips in sorted(payload["chips"].items(), key=lambda x: -x[1])))
    if action == "money":
        return str(payload["text"])
    if action == "undo":
        return "undo #%s (%s)" % (event.undoes, payload["summary"])
    if action in ("clock", "notice", "instr", "instr_result", "hand_for_hand", "hfh_release",
                  "final_seated", "button"):
        return str(payload.get("text") or action)
    return str(action)


CLOSE = 0.75  # difflib's ratio for a close spelling


def match(typed: str, names: Sequence[str]) -> tuple[str | None, list[str]]:
    """Which player a TD means by a name typed short or misspelt: (how, [candidates]) for
    *typed* among *names*: how is "exact", "prefix", "close"
    or None (no candidate).  The exact name (any case, any spacing) wins; else the names
    with what was typed as a whole word ("Yan", "Irons"); else the names that start with
    it, or one of whose words does ("Ya"); else close spellings (difflib)."""
    key = player_key(typed)
    if not key:
        return None, []
    keys = {player_key(name): name for name in names}
    if key in keys:
        return "exact", [keys[key]]
    words = [name for k, name in keys.items() if key in k.split() or k.startswith(key + " ")]
    if words:  # whole words first: "Yan" is Yan Irons, not Yanis Petrov
        return "prefix", sorted(words)
    starts = [name for k, name in keys.items()
              if k.startswith(key) or any(word.startswith(key) for word in k.split())]
    if starts:
        return "prefix", sorted(starts)
    close = difflib.get_close_matches(key, list(keys), n=5, cutoff=CLOSE)
    if close:
        return "close", [keys[k] for k in close]
    return None, []
