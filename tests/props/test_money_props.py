"""The money rules (docs/host.md §11) as properties: the prize pool is buy-ins + re-buys +
add-ons - fees; the payouts add up to the pool exactly, never rise down the table, are
whole steps of the smallest chip of money (1st takes what rounding leaves over); and the
payout tables for 9, 27 and 48 entries, in pounds, from docs/examples/home_money.toml and
from the default table."""

import os
import tomllib

from hypothesis import given, strategies as st

from tdhost import money

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


def test_amounts_in_words():
    assert money.fmt(123450, "£") == "£1,234.50"
    assert money.fmt(500, "$") == "$5"
    assert money.cents(12.5) == 1250 and money.cents(0.001) is None
