"""The league: its event log (store), the state derived by replaying it (replay,
tournament, reducers), the TD's decisions (entries, seats, play, busts), checkpoints and
the live host's cache of it, and the words it is told in (text, times).
docs/architecture.md "The league"; docs/host.md §3 (data model) and §4 (the rules).
"""
