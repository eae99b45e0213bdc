"""The money rules (docs/host.md §11) as properties: the prize pool is buy-ins + re-buys +
add-ons - fees; the payouts add up to the pool exactly, never rise down the table, are
whole steps of the smallest chip of money (1st takes what rounding leaves over); players
tied over several places share those places' payouts to one step; and the payout tables
for 9, 27 and 48 entries, in pounds, from docs/examples/home_money.toml and from the
default table."""

import os
import tomllib

from hypothesis import given, strategies as st

from tdhost.rules import money

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _fail(path, msg):
    raise ValueError("%s: %s" % (path, msg))


def home():
    with open(os.path.join(ROOT, "docs", "examples", "home_money.toml"), "rb") as f:
        return money.parse(tomllib.load(f)["money"], _fail)


def default(buy_in, fee, unit):
    return money.parse({"buy_in": buy_in, "fee": fee, "unit": unit}, _fail)


pounds = st.integers(1, 500)


@given(buy_in=pounds, fee_pct=st.integers(0, 40), rebuy=pounds, rebuy_fee=st.integers(0, 5),
       addon=pounds, entries=st.integers(0, 400), rebuys=st.integers(0, 300),
       addons=st.integers(0, 400))
def test_the_pool_is_buy_ins_rebuys_addons_less_fees(buy_in, fee_pct, rebuy, rebuy_fee, addon,
                                                     entries, rebuys, addons):
    fee = buy_in * fee_pct // 100
    rebuy_fee = min(rebuy_fee, rebuy - 1)
    cfg = money.parse({"buy_in": buy_in, "fee": fee,
                       "rebuy": {"price": rebuy, "fee": rebuy_fee, "chips": 1000,
                                 "until_level": 4},
                       "addon": {"price": addon, "chips": 1000, "until_level": 4}}, _fail)
    buy_ins = entries * buy_in + rebuys * rebuy + addons * addon
    fees = entries * fee + rebuys * rebuy_fee
    assert money.pool(cfg, entries, rebuys, addons) == (buy_ins - fees) * 100


@st.composite
def tables(draw):
    """A payout row: percentages, largest first, adding up to 100 (in hundredths)."""
    n = draw(st.integers(1, 15))
    cuts = sorted(draw(st.lists(st.integers(1, 9999), min_size=n - 1, max_size=n - 1,
                                unique=True)))
    parts = [b - a for a, b in zip([0] + cuts, cuts + [10000])]
    return [p / 100 for p in sorted(parts, reverse=True)]


@given(pool=st.integers(0, 10**8), places=tables(),
       unit=st.sampled_from([1, 50, 100, 500, 1000, 2000]))
def test_payouts_add_up_to_the_pool_in_whole_steps(pool, places, unit):
    out = money.split(pool, places, unit)
    assert len(out) == len(places)
    assert sum(out) == pool
    assert all(a >= b for a, b in zip(out, out[1:]))
    assert all(x >= 0 for x in out)
    assert all(x % unit == 0 for x in out[1:])
    assert out[0] % unit == pool % unit


@given(entries=st.integers(1, 300), buy_in=pounds, unit=st.sampled_from([1, 5, 10]))
def test_no_more_places_paid_than_entries(entries, buy_in, unit):
    cfg = default(buy_in, 0, unit)
    pool = money.pool(cfg, entries, 0, 0)
    out = money.payouts(cfg, pool, entries)
    assert 1 <= len(out) <= entries and sum(out) == pool


def test_the_payout_tables_for_9_27_and_48_entries():
    cfg = home()  # £20 with a £2 fee: £18 a player into the pool, £5 steps
    expect = {
        # 9 x 18 = £162 at 50/30/20: 81 -> 80, 48.60 -> 45, 32.40 -> 30; 1st + £7
        9: (16200, [8700, 4500, 3000]),
        # 27 x 18 = £486 at 40/25/15/12/8: 190, 120, 70, 55, 35; 1st + £16
        27: (48600, [20600, 12000, 7000, 5500, 3500]),
        # 48 x 18 = £864 at 32/20/14/10/8/6/5/5: 275, 170, 120, 85, 65, 50, 40, 40; 1st + £19
        48: (86400, [29400, 17000, 12000, 8500, 6500, 5000, 4000, 4000]),
    }
    for entries, (pool, pays) in expect.items():
        assert money.pool(cfg, entries, 0, 0) == pool
        assert money.payouts(cfg, pool, entries) == pays, entries
    # the default table, £10 buy-ins, no fee, £1 steps
    cfg = default(10, 0, 1)
    assert money.payouts(cfg, 9000, 9) == [4500, 2700, 1800]
    # 27 x £10 = £270 at 35/22/15/11/9/8: 94 (94.50), 59 (59.40), 40 (40.50), 29 (29.70),
    # 24 (24.30), 21 (21.60); 1st + £3
    assert money.payouts(cfg, 27000, 27) == [9700, 5900, 4000, 2900, 2400, 2100]
    # 48 x £10 = £480 at 30/20/14/10/8/7/6/5: 144, 96, 67 (67.20), 48, 38 (38.40),
    # 33 (33.60), 28 (28.80), 24; 1st + £2
    assert money.payouts(cfg, 48000, 48) == [14600, 9600, 6700, 4800, 3800, 3300, 2800, 2400]


@st.composite
def finishes(draw):
    """Payouts from a random table and the places of a field split into tiers: (names,
    first, last), a tier of several being players tied over its places."""
    unit = draw(st.sampled_from([1, 50, 100, 500]))
    amounts = money.split(draw(st.integers(0, 10**7)), draw(tables()), unit)
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=12))
    tiers, pos = [], 0
    for n in sizes:
        tiers.append((["p%d" % (pos + i) for i in range(n)], pos + 1, pos + n))
        pos += n
    return amounts, tiers, unit


@given(finishes())
def test_tied_players_share_their_places_payouts_equally(case):
    amounts, tiers, unit = case
    won = money.shares(amounts, tiers, unit)
    for names, first, last in tiers:
        got = [won[n] for n in names]
        assert sum(got) == sum(amounts[first - 1:last])  # the tier's places, no more
        assert max(got) - min(got) <= unit  # equal to one smallest chip of money
        assert got == sorted(got, reverse=True)  # what is left goes to the first named
    placed = tiers[-1][2]
    assert sum(won.values()) == sum(amounts[:placed])
    if placed >= len(amounts):  # every paid place decided: the whole pool is paid out
        assert sum(won.values()) == sum(amounts)


def test_two_players_tied_over_the_last_places_paid():
    # the home game's 27 entries pay £206, 120, 70, 55, 35 (£5 steps)
    pays = [20600, 12000, 7000, 5500, 3500]
    # 4th= and 5th=: £55 + £35 = £90, £45 each
    assert money.shares(pays, [(["Ann", "Bob"], 4, 5)], 500) == {"Ann": 4500, "Bob": 4500}
    # 5th= and 6th=: £35 + nothing: £15 each, the £5 left over to the first named
    assert money.shares(pays, [(["Cat", "Dan"], 5, 6)], 500) == {"Cat": 2000, "Dan": 1500}
    # 1st= three ways (a time-limited end): £396 in three, £130 each in £5 steps; of the
    # £6 left, a £5 step to the first named and the odd £1 to the second; 4th alone
    assert money.shares(pays, [(["Eve", "Fay", "Gus"], 1, 3), (["Hal"], 4, 4)], 500) == {
        "Eve": 13500, "Fay": 13100, "Gus": 13000, "Hal": 5500}
    # 1st= two ways: £206 + £120 = £326, £160 each, £5 more to the first, £1 to the second
    assert money.shares(pays, [(["Ivy", "Jon"], 1, 2)], 500) == {"Ivy": 16500, "Jon": 16100}


def test_amounts_in_words():
    assert money.fmt(123450, "£") == "£1,234.50"
    assert money.fmt(500, "$") == "$5"
    assert money.cents(12.5) == 1250 and money.cents(0.001) is None
