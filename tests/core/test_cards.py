"""rumino.cards: parsing and formatting round trips, errors, packs, count vectors, dealing."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from rumino.cards import (JOKER, RANKS, ROMME_PACK, RUMINO_PACK, STANDARD_PACK, SUIT_SYMBOLS, SUITS, WIENER_PACK,
                          Pack, card, deal, format_card, format_hand, from_counts, parse_card, parse_hand, rank_of,
                          sample_hands, shuffled, sort_cards, suit_of, to_counts)
from rumino.errors import InvalidCardError, RuleConfigError

FIXED = settings(derandomize=True, database=None, deadline=None, max_examples=300,
                 suppress_health_check=[HealthCheck.too_slow])

# Every way people write a rank and a suit (DESIGN.md "Cards": 7h 7H 10h Th 7♥; JK * ★ for a joker).
RANK_SPELLINGS = {r: {RANKS[r], RANKS[r].lower()} for r in range(13)}
RANK_SPELLINGS[9] |= {"T", "t"}
SUIT_SPELLINGS = {0: "sS♠♤", 1: "cC♣♧", 2: "dD♦♢", 3: "hH♥♡"}
JOKER_SPELLINGS = ["JK", "jk", "Jk", "*", "★", "☆", "joker", "JOKER", "jo", "🃏"]

card_ids = st.integers(0, 52)
naturals = st.integers(0, 51)


@st.composite
def spelled_card(draw):
    """(a spelling of a card, its id)."""
    c = draw(card_ids)
    if c == JOKER:
        text = draw(st.sampled_from(JOKER_SPELLINGS))
    else:
        text = draw(st.sampled_from(sorted(RANK_SPELLINGS[c % 13]))) + draw(st.sampled_from(SUIT_SPELLINGS[c // 13]))
    pad = draw(st.sampled_from(["", " ", "\t", "  "]))
    return pad + text + pad, c


# ------------------------------------------------------------------ ids


def test_card_ids_follow_the_documented_order():
    """Suits ♠ ♣ ♦ ♥ (s c d h), rank 0 = ace … 12 = king: OpenSpiel's gin rummy ids."""
    assert SUITS == "scdh" and SUIT_SYMBOLS == "♠♣♦♥"
    assert card(0, 0) == 0 == parse_card("As") and card(12, 3) == 51 == parse_card("Kh")
    assert parse_card("2c") == 14 and parse_card("10d") == 35 and JOKER == 52
    assert all(card(rank_of(c), suit_of(c)) == c for c in range(52))
    with pytest.raises(InvalidCardError, match="rank 13 and suit 0"):
        card(13, 0)


# ------------------------------------------------------------------ parse and format


@FIXED
@given(card_ids, st.booleans())
def test_format_then_parse_is_the_identity(c, uni):
    assert parse_card(format_card(c, unicode=uni)) == c


@FIXED
@given(spelled_card())
def test_every_accepted_spelling_parses(pair):
    text, c = pair
    assert parse_card(text) == c
    assert format_card(parse_card(text)) == format_card(c)  # one canonical form


def test_accepted_spellings_examples():
    assert {parse_card(t) for t in ("7h", "7H", "7♥", "7♡", " 7h ", "7♥\ufe0f", "7♥\ufe0e")} == {45}  # emoji style too
    assert parse_card("★\ufe0f") == JOKER
    assert {parse_card(t) for t in ("10h", "Th", "th", "10♥", "T♥")} == {48}
    assert {parse_card(t) for t in JOKER_SPELLINGS} == {JOKER}
    assert format_card(48) == "10h" and format_card(48, unicode=True) == "10♥"
    assert format_card(JOKER) == "JK" and format_card(JOKER, unicode=True) == "★"
    assert format_card(0) == "As" and format_card(51, unicode=True) == "K♥"


@FIXED
@given(st.lists(card_ids, max_size=20), st.booleans(), st.sampled_from([" ", ", ", ",", ";", "  ", " ; "]))
def test_hand_round_trip(hand, uni, sep):
    text = format_hand(hand, unicode=uni)
    assert parse_hand(text) == tuple(hand)
    assert parse_hand(sep.join(format_card(c, unicode=uni) for c in hand)) == tuple(hand)
    assert parse_hand(hand) == tuple(hand)  # ids pass through
    assert parse_hand([format_card(c) if i % 2 else c for i, c in enumerate(hand)]) == tuple(hand)


@FIXED
@given(st.text(max_size=6))
def test_any_text_is_a_card_or_an_invalid_card_error(text):
    """Parsing never fails with anything but InvalidCardError, and never returns a non-card."""
    try:
        c = parse_card(text)
    except InvalidCardError as err:
        assert repr(text.strip()) in str(err)
    else:
        assert 0 <= c <= 52


@pytest.mark.parametrize("token, reason", [
    ("7x", "the suit 'x' is not one of s c d h"),
    ("11h", "the rank '11' is not one of A 2 3 4 5 6 7 8 9 10 J Q K"),
    ("Xs", "the rank 'X' is not one of"),
    ("1h", "write the ace as 'A' (for example 'Ah')"),
    ("7", "write a rank and a suit"),
    ("", "write a rank and a suit"),
    ("h7", "the suit '7' is not one of"),
])
def test_parse_errors_name_the_token_and_the_reason(token, reason):
    with pytest.raises(InvalidCardError) as err:
        parse_card(token)
    assert repr(token) in str(err.value) and reason in str(err.value)
    assert isinstance(err.value, ValueError)


def test_parse_hand_names_the_bad_token():
    with pytest.raises(InvalidCardError, match="'5x' is not a card: the suit 'x'"):
        parse_hand("7h 8h 5x 9h")


@pytest.mark.parametrize("bad, shown", [(53, "53"), (-1, "-1"), (True, "True"), (np.int64(60), r"(np\.int64\()?60\)?")])
def test_bad_ids_are_refused(bad, shown):
    for use in (lambda: parse_hand([bad]), lambda: format_card(bad), lambda: to_counts([bad])):
        with pytest.raises(InvalidCardError, match=f"^{shown} is not a card"):  # a bool is not an id
            use()
    with pytest.raises(InvalidCardError, match="ids are 0–51 for naturals and 52 for a joker"):
        format_card(bad)


@pytest.mark.parametrize("bad", [2.0, None, b"7h"])
def test_tokens_that_are_not_text_are_refused(bad):
    with pytest.raises(InvalidCardError, match="is not a card: expected text such as '7h' or 'JK'"):
        parse_card(bad)


# ------------------------------------------------------------------ packs


def test_pack_sizes_and_copies():
    """rules §1.1 (108), §3.1 (110), §5.1 (106), §6 (52)."""
    assert (RUMINO_PACK.size, ROMME_PACK.size, WIENER_PACK.size, STANDARD_PACK.size) == (108, 110, 106, 52)
    for pack, jokers in ((RUMINO_PACK, 4), (ROMME_PACK, 6), (WIENER_PACK, 2), (STANDARD_PACK, 0)):
        cards = pack.cards()
        assert len(cards) == pack.size and Counter(cards)[JOKER] == jokers == pack.copies(JOKER)
        assert all(Counter(cards)[c] == pack.decks for c in range(52))
        assert pack.counts().tolist() == [pack.decks] * 52 + [jokers]
    assert RUMINO_PACK.describe() == "2 decks and 4 jokers" and STANDARD_PACK.describe() == "1 deck and no jokers"


@pytest.mark.parametrize("kwargs, field", [({"decks": 0}, "decks"), ({"decks": 9}, "decks"), ({"decks": "2"}, "decks"),
                                           ({"jokers": -1}, "jokers"), ({"jokers": 17}, "jokers")])
def test_pack_validation_names_the_field(kwargs, field):
    with pytest.raises(RuleConfigError, match=f"Pack.{field} is {list(kwargs.values())[0]!r}"):
        Pack(**kwargs)


def test_check_hand_names_the_card_and_the_pack():
    """A third 7♥ in a two-deck pack, a second 7♥ in one deck, a fifth joker, a joker in a jokerless pack."""
    with pytest.raises(InvalidCardError) as err:
        RUMINO_PACK.check_hand(parse_hand("7h 7♥ 7H 8h"))
    assert str(err.value) == "the hand holds 3 copies of 7h, but a pack of 2 decks and 4 jokers has only 2."
    with pytest.raises(InvalidCardError, match="2 copies of 7h, but a pack of 1 deck and no jokers has only 1"):
        STANDARD_PACK.check_hand(parse_hand("7h 7h"))
    with pytest.raises(InvalidCardError, match="the stock holds 5 jokers, but a pack of 2 decks and 4 jokers"):
        RUMINO_PACK.check_hand(parse_hand("JK * ★ jk JK"), name="stock")
    with pytest.raises(InvalidCardError, match="1 jokers, but a pack of 1 deck and no jokers has only 0"):
        STANDARD_PACK.check_hand([JOKER])
    RUMINO_PACK.check_hand(parse_hand("7h 7h JK JK JK JK"))  # exactly what the pack holds: fine
    RUMINO_PACK.check_hand(RUMINO_PACK.cards())


# ------------------------------------------------------------------ count vectors


@FIXED
@given(st.lists(card_ids, max_size=30))
def test_counts_round_trip(hand):
    counts = to_counts(hand)
    assert counts.shape == (53,) and int(counts.sum()) == len(hand)
    assert all(counts[c] == n for c, n in Counter(hand).items())
    assert from_counts(counts) == tuple(sorted(hand)) == sort_cards(hand)
    assert from_counts(counts.tolist()) == tuple(sorted(hand))


def test_count_vector_grid_and_errors():
    counts = to_counts(parse_hand("5s 5h 5h 6h 7h JK"))
    grid = counts[:52].reshape(4, 13)
    assert grid[:, 4].tolist() == [1, 0, 0, 2]  # a column is a rank: ♠ ♣ ♦ ♥
    assert grid[3, 4:7].tolist() == [2, 1, 1] and counts[JOKER] == 1  # a row is a suit
    with pytest.raises(InvalidCardError, match="53 non-negative entries; got shape"):
        from_counts([1, 2, 3])
    with pytest.raises(InvalidCardError, match="non-negative"):
        from_counts([-1] + [0] * 52)
    with pytest.raises(InvalidCardError, match="not a card id"):
        to_counts([60])


# ------------------------------------------------------------------ shuffling and dealing


def test_shuffled_is_a_seeded_permutation_of_the_pack():
    a = shuffled(ROMME_PACK, np.random.default_rng(7))
    assert a == shuffled(ROMME_PACK, np.random.default_rng(7))
    assert a != shuffled(ROMME_PACK, np.random.default_rng(8))
    assert sorted(a) == list(ROMME_PACK.cards())


@pytest.mark.parametrize("pack, sizes", [(RUMINO_PACK, [7] * 6), (ROMME_PACK, [14, 13]), (WIENER_PACK, [11] + [10] * 5),
                                         (STANDARD_PACK, [10, 10]), (STANDARD_PACK, [18, 17, 17])])
def test_deal_is_seeded_round_the_table_and_conserves_cards(pack, sizes):
    hands, stock = deal(pack, sizes, np.random.default_rng(3))
    again, stock2 = deal(pack, sizes, np.random.default_rng(3))
    assert hands == again and stock == stock2
    assert [len(h) for h in hands] == sizes and len(stock) == pack.size - sum(sizes)
    assert Counter(c for h in hands for c in h) + Counter(stock) == Counter(pack.cards())
    # one card at a time: the k-th card of hand i is card k*n + i of the shuffled pack (all hands full so far)
    order = shuffled(pack, np.random.default_rng(3))
    n = len(sizes)
    assert all(hands[i][k] == order[k * n + i] for i in range(n) for k in range(min(sizes)))
    assert stock == order[sum(sizes):]


def test_rules_stock_sizes_after_the_deal():
    """rules §1.7.1 (65 / 93 after the upcard), §3.7.1 (31 / 83), §5.1 (45 with 6 players)."""
    rng = np.random.default_rng(0)
    assert len(deal(RUMINO_PACK, [7] * 6, rng)[1]) - 1 == 65 and len(deal(RUMINO_PACK, [7] * 2, rng)[1]) - 1 == 93
    assert len(deal(ROMME_PACK, [14] + [13] * 5, rng)[1]) == 31 and len(deal(ROMME_PACK, [14, 13], rng)[1]) == 83
    assert len(deal(WIENER_PACK, [11] + [10] * 5, rng)[1]) == 45


def test_deal_refuses_impossible_sizes():
    with pytest.raises(InvalidCardError, match=r"cannot deal hands of \[30, 30\] from a pack of 52 cards"):
        deal(STANDARD_PACK, [30, 30], np.random.default_rng(0))
    with pytest.raises(InvalidCardError, match="cannot deal"):
        deal(STANDARD_PACK, [-1, 5], np.random.default_rng(0))
    with pytest.raises(InvalidCardError, match="a hand of 53 cards cannot come from a pack of 52"):
        sample_hands(STANDARD_PACK, 53, 10, np.random.default_rng(0))


def test_sample_hands_shape_caps_and_seed():
    h = sample_hands(ROMME_PACK, 13, 500, np.random.default_rng(11))
    assert h.shape == (500, 53) and (h.sum(axis=1) == 13).all()
    assert (h[:, :52] <= 2).all() and (h[:, 52] <= 6).all() and (h >= 0).all()
    assert (h == sample_hands(ROMME_PACK, 13, 500, np.random.default_rng(11))).all()
    full = sample_hands(STANDARD_PACK, 52, 3, np.random.default_rng(0))
    assert (full == 1).sum() == 3 * 52
    assert sample_hands(STANDARD_PACK, 0, 4, np.random.default_rng(0)).sum() == 0


def test_sample_hands_is_uniform():
    """Seed 2024, n = 20,000 hands of 7 from 108 cards. Each card id appears in proportion to its
    copies (chi-square, 52 df), and the number of jokers in a hand is hypergeometric(108, 4, 7).
    The thresholds are generous (p > 1e-4): with a fixed seed the test is deterministic, and a
    sampler that favours the four aces by 10% gets p ≈ 1e-13."""
    n, k = 20_000, 7
    h = sample_hands(RUMINO_PACK, k, n, np.random.default_rng(2024))
    observed = h.sum(axis=0)
    expected = n * k * RUMINO_PACK.counts().astype(float) / RUMINO_PACK.size
    assert stats.chisquare(observed, expected).pvalue > 1e-4
    jokers = np.bincount(h[:, JOKER], minlength=5)
    pmf = stats.hypergeom(RUMINO_PACK.size, 4, k).pmf(np.arange(5))
    exp_j = n * pmf
    # pool the rare 3- and 4-joker hands so every expected count is large
    obs_pooled = [jokers[0], jokers[1], jokers[2:].sum()]
    exp_pooled = [exp_j[0], exp_j[1], exp_j[2:].sum()]
    assert stats.chisquare(obs_pooled, exp_pooled).pvalue > 1e-4
    # the same statistic rejects a sampler that over-weights the aces by 10%
    biased = observed.astype(float).copy()
    biased[[0, 13, 26, 39]] *= 1.10
    assert stats.chisquare(biased, biased.sum() * expected / expected.sum()).pvalue < 1e-4
