"""Oklahoma Gin (rules §6.1): the differential test against OpenSpiel's ``gin_rummy`` with ``oklahoma=True``, the
upcard's knock limit, the spade doubling, its bots, the terminal's words and its records.

Differential test. OpenSpiel's Oklahoma sets the knock card from the upcard (its value, a picture card 10, an ace
0: gin only) and never doubles, so our side plays ``spades_double=False`` (and ``wall_knock=True``, OpenSpiel's
wall, as the Gin test does: tests/games/gin/test_gin_game.py, whose driver this reuses). On seeded deals, the
same cards in both engines and one common action at a time (mostly greedy's, else uniform), we check: the same
knock limit from the upcard; at every discard the same knocking discards (OpenSpiel's offer minus the card just
taken, which rules §0.5 bars; where OpenSpiel offers no knock, its 11-card deadwood is above its knock card, the
known gap, counted); the same final deadwood and the same score (a tie is an undercut under rules §6, 0 in
OpenSpiel). Then the same actions are replayed with the doubling on: a spade upcard's hand scores exactly twice.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from rumino.cards import parse_card, suit_of
from rumino.engine import play
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, Discard, Gin, KnockWith
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer, ThresholdKnocker, make_players
from rumino.playing.records import dumps_record, loads_record, replay
from rumino.variants import bots_of, find_variant, variant_of
from rumino.variants.gin import GIN, PASS, Pass
from rumino.variants.oklahoma import OKLAHOMA, OklahomaGame, upcard_limit
from tests.games.gin.test_gin_game import OpenSpielGin, finish_knock

N_DIFFERENTIAL = 120


class OpenSpielOklahoma(OpenSpielGin):
    """OpenSpiel's Oklahoma deal in step with one of our hands (the Gin driver, ``oklahoma=True``)."""

    def __init__(self, pyspiel, game: OklahomaGame):
        self.sp, self.ours, self.nd = pyspiel, game, 1 - game.dealer
        self.U = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.state = pyspiel.load_game("gin_rummy", {"oklahoma": True, "gin_bonus": 25,
                                                     "undercut_bonus": 25}).new_initial_state()
        for card in game.hands[self.nd] + game.hands[game.dealer] + [game.discard[-1]]:
            self.state.apply_action(card)


def common_actions(os: OpenSpielOklahoma, g: OklahomaGame, upcard_draws: int) -> list:
    """Our legal actions that OpenSpiel allows in the same position (mapped by meaning)."""
    legal, sp, out = os.legal(), os.sp.gin_rummy, []
    for a in g.legal_actions():
        if g.phase in ("offer", "wall"):
            take = sp.DRAW_UPCARD_ACTION if g.phase == "offer" else sp.KNOCK_ACTION
            if (isinstance(a, Pass) and sp.PASS_ACTION in legal) or (a == DRAW_DISCARD and take in legal):
                out.append(a)
        elif g.phase == "turn":
            if (a == DRAW_STOCK and sp.DRAW_STOCK_ACTION in legal) or \
                    (a == DRAW_DISCARD and sp.DRAW_UPCARD_ACTION in legal and upcard_draws < 49):
                out.append(a)
        elif isinstance(a, Discard):
            if not g.must_knock and a.card in legal:
                out.append(a)
        elif g.must_knock:  # OpenSpiel is already in its knock phase after the wall knock
            if a.card in legal:
                out.append(a)
        elif sp.KNOCK_ACTION in legal and a.card in knocking_discards(os, g):
            out.append(a)
    return out


def knocking_discards(os: OpenSpielOklahoma, g: OklahomaGame) -> set:
    """The cards OpenSpiel would let the player to act knock with now (none if it offers no knock)."""
    if os.sp.gin_rummy.KNOCK_ACTION not in os.legal():
        return set()
    return set(os.U.legal_discards(os.state.hands()[os.os_player(g.turn)], os.state.knock_card()))


def play_differential(pyspiel, seed: int, tally: Counter) -> None:
    rules = dataclasses.replace(OKLAHOMA, spades_double=False, wall_knock=True)
    rng = np.random.default_rng([seed, 7])
    g = OklahomaGame.new(rules, 2, seed=[seed, 1])
    os = OpenSpielOklahoma(pyspiel, g)
    sp = pyspiel.gin_rummy
    limit = g.view(g.to_act).knock_limit
    assert os.state.knock_card() == limit == upcard_limit(g.upcard), seed  # the upcard's limit, in both
    tally[f"limit {limit}"] += 1
    bot = ThresholdKnocker(int(rng.choice([0, 0, 1, 2, 3, 5, 10])))
    upcard_draws = 0
    while not g.hand_over:
        if g.phase == "discard" and not g.must_knock:
            ours = {a.card for a in g.legal_actions() if isinstance(a, (KnockWith, Gin))}
            theirs = knocking_discards(os, g)
            if theirs:  # the same knocks, but the card just taken (rules §0.5)
                assert ours == theirs - {g.forbidden()}, (seed, ours, theirs)
                tally["same knocks"] += 1
            elif ours:  # OpenSpiel's 11-card deadwood is above its knock card (the known gap, ANCHORS.md)
                assert os.U.min_deadwood(os.state.hands()[os.os_player(g.turn)]) > limit
                tally["ours only"] += 1
        common = common_actions(os, g, upcard_draws)
        assert common, f"seed {seed}: no common action in phase {g.phase}"
        pick = bot.choose(g.view(g.to_act))
        if pick not in common or rng.random() < 0.3:
            pick = common[int(rng.integers(len(common)))]
        phase, wall_knock = g.phase, g.must_knock
        g.apply(pick)
        if phase in ("offer", "wall"):
            took = sp.DRAW_UPCARD_ACTION if phase == "offer" else sp.KNOCK_ACTION
            os.act(took if pick == DRAW_DISCARD else sp.PASS_ACTION)
        elif phase == "turn":
            os.act(sp.DRAW_STOCK_ACTION if pick == DRAW_STOCK else sp.DRAW_UPCARD_ACTION)
            if pick == DRAW_STOCK:
                os.act(g.drawn)  # the chance node deals the card our stock gave
            upcard_draws += pick != DRAW_STOCK
        elif isinstance(pick, Discard):
            os.act(pick.card)
        else:
            finish_knock(os, g, pick.card, wall=wall_knock)
        if not g.hand_over:
            os.check_same()
    if not os.state.is_terminal() and os.state.current_phase() == sp.Phase.WALL:  # a void hand at the wall
        os.act(sp.PASS_ACTION)
    assert os.state.is_terminal(), str(os.state)
    r = g.results[-1]
    tally[r.ending] += 1
    ours, theirs = r.deltas[os.nd] - r.deltas[g.dealer], os.state.returns()[0]
    if r.ending == "knock" and r.deadwood[r.by] == r.deadwood[1 - r.by]:  # rules §6: a tie is an undercut
        assert theirs == 0 and r.points == GIN.undercut_bonus
        tally["tie"] += 1
    else:
        if r.ending != "void":
            assert tuple(os.state.deadwood()) == (r.deadwood[os.nd], r.deadwood[g.dealer]), seed
        assert ours == theirs, f"seed {seed}: {r.describe()}: ours {ours}, OpenSpiel {theirs}"
        tally["same score"] += 1
    # the same actions with the spades doubling on: the hand scores exactly twice under a spade upcard
    doubled = OklahomaGame.new(dataclasses.replace(rules, spades_double=True), 2, seed=[seed, 1])
    for _, action in g.history:
        doubled.apply(action)
    k = 2 if suit_of(g.upcard) == 0 and r.winner is not None else 1
    assert doubled.results[-1].deltas == tuple(k * d for d in r.deltas) and doubled.results[-1].doubled == (k == 2)
    tally["doubled"] += k == 2


def test_differential_against_openspiel_oklahoma(pyspiel):
    """Seeded deals: the same knock limit, the same knocks and the same scores as OpenSpiel's Oklahoma."""
    tally = Counter()
    for seed in range(N_DIFFERENTIAL):
        play_differential(pyspiel, seed, tally)
    assert tally["same score"] + tally["tie"] == N_DIFFERENTIAL
    # every limit the upcard sets, gin-only hands included, and every ending was compared
    assert {f"limit {n}" for n in range(11) if n != 1} <= set(tally), tally
    assert tally["knock"] >= 20 and tally["gin"] >= 5 and tally["void"] >= 5 and tally["same knocks"] >= 50, tally
    assert tally["doubled"] >= 10, tally
    print(dict(tally))


# --------------------------------------------------------------------------- the rules of §6.1, one fact each


def test_the_upcard_sets_the_limit_a_picture_card_ten_and_an_ace_gin_only():
    assert [upcard_limit(parse_card(c)) for c in ("Ah", "2c", "5d", "9s", "10h", "Jc", "Qd", "Ks")] == \
        [0, 2, 5, 9, 10, 10, 10, 10]
    assert upcard_limit(parse_card("9s"), highest=6) == 6  # the house rule caps it


def test_an_ace_upcard_refuses_every_knock_but_allows_gin():
    g = OklahomaGame.new(OKLAHOMA, 2, seed=1, dealer=1)
    g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, discard="Ad")  # the offer: a new upcard
    assert g.view(0).knock_limit == 0 and not g.doubled
    g.apply(DRAW_DISCARD)  # 1 deadwood (Ad) after discarding 2c: a knock at 1 in Gin, none here
    assert not any(isinstance(a, (KnockWith, Gin)) for a in g.legal_actions())
    with pytest.raises(IllegalActionError, match=r"the limit is 0 .*rules §6\.1"):
        g.apply(KnockWith(parse_card("2c")))
    g = OklahomaGame.new(OKLAHOMA, 2, seed=1, dealer=1)
    g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, discard="Ah")
    g.apply(PASS), g.apply(PASS)
    g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, stock_top="7h")
    g.apply(DRAW_STOCK)
    assert [str(a) for a in g.legal_actions()][:1] == ["gin 2c"]  # gin is always allowed
    g.apply(Gin(parse_card("2c")))
    assert g.results[-1].ending == "gin" and g.results[-1].knock_limit == 0


def test_the_limit_holds_for_the_whole_hand_whoever_took_the_upcard():
    g = OklahomaGame.new(OKLAHOMA, 2, seed=8)  # a 3♣ upcard
    assert g.view(g.to_act).knock_limit == 3
    g.apply(DRAW_DISCARD)
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Discard)))
    assert g.discard[-1] != parse_card("3c") and g.view(0).knock_limit == g.view(1).knock_limit == 3
    assert g.view(0).upcard == parse_card("3c")


def test_a_spade_upcard_doubles_points_and_bonuses_but_not_the_boxes():
    for spades in (True, False):  # the house rule decides whether a spade upcard doubles
        g = OklahomaGame.new(dataclasses.replace(OKLAHOMA, spades_double=spades), 2, seed=1, dealer=1)
        g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c"}, discard="7s")
        assert g.view(1).knock_limit == 7 and g.doubled == spades and g.view(0).doubled == spades
    # a gin under a spade upcard: (defender's deadwood + 25) twice, one box
    g = OklahomaGame.new(OKLAHOMA, 2, seed=1, dealer=1)
    g.set_position(hands={0: "4h 5h 6h 8s 8c 8d Ks Kc Kd 2c", 1: "Qh Qc Jd 9c 7d 5c 3d 2d 10h 6s"}, discard="7h")
    g.apply(DRAW_DISCARD)
    g.apply(Gin(parse_card("2c")))
    r = g.results[-1]
    defender = 10 + 10 + 10 + 9 + 7 + 5 + 3 + 2 + 10 + 6
    assert g.doubled is False and r.points == defender + 25  # 7h is a heart: no doubling
    g = OklahomaGame.new(OKLAHOMA, 2, seed=1, dealer=1)
    g.set_position(hands={0: "4s 5s 6s 8s 8c 8d Ks Kc Kd 2c", 1: "Qh Qc Jd 9c 7d 5c 3d 2d 10h 6h"}, discard="7s")
    g.apply(DRAW_DISCARD)
    g.apply(Gin(parse_card("2c")))
    r = g.results[-1]
    assert r.doubled and r.points == 2 * (defender + 25) and g.scores[0] == r.points and g.boxes == [1, 0]
    assert "doubled by the spade upcard 7s" in r.describe()
    g.check_invariants()


# --------------------------------------------------------------------------- the registry, bots, records, words


def test_the_registry_finds_it_and_its_bots_are_gins():
    v = find_variant("Oklahoma Gin")
    assert v.key == "oklahoma" and variant_of(OklahomaGame) is v and v.section == "§6.1"
    assert bots_of(OklahomaGame).decide is bots_of(find_variant("gin").game).decide
    assert v.rules.game_to == 150 and v.rules.spades_double and v.knock_limit() == 10


def test_greedy_threshold_and_search_play_it_and_the_record_replays():
    from rumino.players import SearchPlayer

    rules = dataclasses.replace(OKLAHOMA, game_to=40)
    for specs in (["greedy", "threshold:2"], ["random", "greedy"]):
        g = play(OklahomaGame.new(rules, 2, seed=3), make_players(specs, seed=1))
        assert g.game_over and max(g.scores) >= 40
        again = replay(loads_record(dumps_record(g, specs)))
        assert again.snapshot() == g.snapshot() and loads_record(dumps_record(g, specs)).variant == "oklahoma"
    g = OklahomaGame.new(OKLAHOMA, 2, seed=4)
    s = SearchPlayer(24, seed=1)
    g = play(g, [s, GreedyPlayer()], until=lambda x: x.hand_over)
    assert s.decisions > 0 and s.last.simulations <= 24 and g.results


def test_the_terminal_says_the_upcard_s_limit_and_the_doubling():
    from rumino.engine.words import DrawNarrator

    v = find_variant("oklahoma")
    g = OklahomaGame.new(OKLAHOMA, 2, seed=10)  # a 3♠ upcard
    n = v.narrator(g, ["you", "greedy"], humans=[0])
    text = n.describe(g.view(g.to_act))
    assert "this hand's upcard 3♠: knock with 3 or less; a spade: the hand counts double (rules §6.1)" in text
    assert issubclass(v.narrator, DrawNarrator) and any("§6.1" in line for line in v.narrator.HELP)
    g = OklahomaGame.new(OKLAHOMA, 2, seed=2)  # an ace: gin only
    assert "this hand's upcard A♣: gin only (rules §6.1)" in n.describe(g.view(g.to_act))


# --------------------------------------------------------------------------- its golden playthrough
#
# tests/golden/oklahoma_*.json and .playthrough.txt (the case in tests/golden_trace.py, the shared checker in
# tests/golden_replay.py): replayed through the checked apply it writes the same text, and the same bots choose
# the same actions.

from golden_replay import cases_of, check_bots_choose_the_same_actions, check_playthrough, load  # noqa: E402

GOLDEN_CASES = cases_of("oklahoma")


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=lambda c: c["name"])
def test_oklahoma_golden_playthrough_replays_identically(case):
    check_playthrough(case)


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=lambda c: c["name"])
def test_oklahoma_golden_bots_choose_the_same_actions(case):
    check_bots_choose_the_same_actions(case)


def test_the_golden_game_meets_gin_only_and_doubled_hands():
    game = replay(loads_record(load("oklahoma_greedy_vs_threshold")["record"]))
    limits = {r.knock_limit for r in game.results}
    assert 0 in limits and len(limits) >= 4 and any(r.doubled for r in game.results)
    assert {r.ending for r in game.results} >= {"knock", "gin"} and game.game_over
