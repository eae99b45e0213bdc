"""The chaos drill's reduced run (tests/tools/chaos.py; docs/live.md "The chaos drill"): a
few seeds of the live host under random TD actions, CLI writes on the same league file,
refused restores, link delays, drops, duplicates and reordering, host kills and box power
cuts, each checked after every quiet period -- every box seats the league's players, chips
are conserved, no instruction is stuck, every box bust is in the league once, every
refusal says why.  `make chaos` runs fifty-six seeds, `make chaos SEEDS=1-399` all of them."""

import json

import pytest

import chaos
from chaos import chips_gone

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


def test_the_chip_ledger_counts_what_left_play_with_players_entered_out():
    """The drill's count of chips gone (seeds 7, 9, 14, 21, 30, 35, 36 failed on it): a
    take_out of a player the TD busted takes their chips out of play; so does a player
    busted on the way to another table (their receive is called off); a late entry of
    3,000 undone after posting a dead big blind of 50 leaves those 50 in play (2,950 taken
    off), and one redone after its first take_out had 3,000 chips the entries count once."""
    states = {"Ann": "out", "Zoe": "out", "Late 98-2": None, "Late 14-1": "in"}
    entered_at = {"Late 14-1": 60}
    undone = [(34, "Late 98-2", 3000), (20, "Late 14-1", 3000)]
    assert chips_gone([("Ann", (2950, 40))], states, entered_at, undone) == 2950
    assert chips_gone([("Zoe", (2975, 76))], states, entered_at, undone) == 2975
    assert chips_gone([("Late 98-2", (2950, 46))], states, entered_at, undone) == -50
    assert chips_gone([("Late 14-1", (3000, 46))], states, entered_at, undone) == 0
    assert chips_gone([("Ann", (2950, 40)), ("Zoe", (2975, 76)), ("Late 98-2", (2950, 46)),
                       ("Late 14-1", (3000, 46))], states, entered_at, undone) == 5875
