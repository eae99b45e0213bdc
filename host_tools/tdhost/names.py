"""Which player a TD means by a name typed short or misspelt (docs/host.md, "Names").

    match("Yan", ["Yan Irons", "Bob Hart"])   -> ("prefix", ["Yan Irons"])
    match("Yan Iorns", [...])                 -> ("close", ["Yan Irons"])

The exact name (any case, any spacing) wins; else the names with what was typed as a
whole word ("Yan", "Irons"); else the names that start with it, or one of whose words
does ("Ya"); else close spellings (difflib).  The CLI
accepts a single candidate after asking and lists several.
"""

import difflib

from tdhost.league.text import player_key

CLOSE = 0.75  # difflib's ratio for a close spelling


def match(typed, names):
    """(how, [candidates]) for *typed* among *names*: how is "exact", "prefix", "close"
    or None (no candidate)."""
    key = player_key(typed)
    if not key:
        return None, []
    keys = {player_key(n): n for n in names}
    if key in keys:
        return "exact", [keys[key]]
    words = [n for k, n in keys.items() if key in k.split() or k.startswith(key + " ")]
    if words:  # whole words first: "Yan" is Yan Irons, not Yanis Petrov
        return "prefix", sorted(words)
    pre = [n for k, n in keys.items()
           if k.startswith(key) or any(w.startswith(key) for w in k.split())]
    if pre:
        return "prefix", sorted(pre)
    close = difflib.get_close_matches(key, list(keys), n=5, cutoff=CLOSE)
    if close:
        return "close", [keys[k] for k in close]
    return None, []
