"""The live night: the host running a tournament with the boxes (docs/host.md §10;
docs/live.md lists the parts).  ``tdhost.live.night.Live`` owns the night's state; its
parts decide and return what Live applies (``tdhost.live.effects.Effects``)."""
