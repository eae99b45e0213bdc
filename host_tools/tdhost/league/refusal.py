"""A TD action the league refuses, with the one sentence that says why (docs/host.md §4)."""


class ActionRefused(Exception):
    """A TD action that is not allowed; str(err) is the sentence shown to the TD."""
