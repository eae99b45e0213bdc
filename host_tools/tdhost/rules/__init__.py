"""The host-side rules: each profile's house rules (house), seat order at a table (seats),
the balancing plan (balance), the seat draw (draw), finishing order (finishing), points,
money, hand for hand, the schedule shown, and cards typed by the TD (hands).
docs/architecture.md tells where they sit; docs/balancing.md and docs/host.md the rules.
"""
