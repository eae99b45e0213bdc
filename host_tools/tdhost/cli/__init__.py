"""The `tdhost` command line (Click): `tdhost.cli.app` is the group and its entry point, one
module per concept of the TD's night (registration, night, plan, results, audit, boxes,
serve).  No imports here: `python3 -m tdhost.cli.deploy` (make deploy) needs none of Click.
docs/architecture.md ("The host"), docs/host.md.
"""
