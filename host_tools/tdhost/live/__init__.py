"""The live night: the host running a tournament with the boxes (docs/host.md §10).
``tdhost.live.night.Live`` is the night; the other modules are its parts."""
