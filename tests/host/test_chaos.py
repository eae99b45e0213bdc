"""The chaos drill's reduced run (tests/tools/chaos.py; docs/live.md "The chaos drill"): a
few seeds of the live host under random TD actions, CLI writes on the same league file,
refused restores, link delays, drops, duplicates and reordering, host kills and box power
cuts, each checked after every quiet period -- every box seats the league's players, chips
are conserved, no instruction is stuck, every box bust is in the league once, every
refusal says why.  `make chaos` runs thirteen seeds, `make chaos SEEDS=1-40` forty."""

import json

import pytest

import chaos

SEEDS = (2, 8)  # of the default set (the Makefile's CHAOS_SEEDS)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_chaos_seed_keeps_host_and_boxes_agreeing(seed, tmp_path):
    said = []
    ok, recipe = chaos.run_seed(seed, out=str(tmp_path), echo=said.append)
    assert ok, "\n".join(said)


def test_a_failing_run_writes_a_recipe_that_replays_it(tmp_path, monkeypatch):
    """A run whose checks fail writes a recipe: the seed, the steps as run (here one
    refused ``restore``), what came of each and the problems; and says how to replay it."""
    rounds = [[[1000, "restore", 1]]]
    monkeypatch.setattr(chaos, "check", lambda room: ["a check that cannot pass"])
    said = []
    ok, path = chaos.run_seed(3, rounds, out=str(tmp_path), echo=said.append)
    assert not ok and path is not None
    assert said[-1].endswith("(or make chaos SEEDS=3)")
    with open(path, encoding="utf-8") as f:
        recipe = json.load(f)
    assert recipe["seed"] == 3 and recipe["rounds"] == rounds
    assert recipe["problems"] == ["round 1: a check that cannot pass"]
    assert recipe["done"] == [[[1000, "restore", 1], "refused"]]
