"""The compiled Gin playout (rumino.variants.gin.playout) against the Python engine, position by position.

Positions: a seeded deal (the one seeding scheme, ``new_table``), advanced a random number of
actions by greedy or random choices, so they fall in the upcard offer (either seat), at ``turn``
(also after both passed), at ``discard`` (after a stock draw or a pickup) and near the wall; a
third of them under other rules knobs (knock limit, bonuses, the void count, the wall knock,
re-discarding the pickup), some in a later hand of the game. On every one the kernel's gains
must equal the engine's playout with two GreedyPlayers, and the game passed in must be unchanged.

``python tests/players/test_playout_gin.py 20000`` runs the long version (20,000 positions).
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest

import rumino.players  # noqa: F401 - registers greedy's Gin decisions (the table the kernel follows)
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer
from rumino.variants.gin.playout import (copy_game, playout, playout_ended, playouts, python_playout,
                                        python_playout_ended, sample_worlds, supported)
from rumino.playing.seeding import new_table
from rumino.variants.gin import GIN, PASS, GinGame, GinRules
from rumino.variants.oklahoma import OKLAHOMA, OklahomaRules
from rumino.variants.oklahoma import playout as oklahoma_playout

N_POSITIONS = 2000
N_FIRST = 300
N_OKLAHOMA = 600
SEED = 20261202
_GREEDY = GreedyPlayer()


def random_rules(rng: np.random.Generator) -> GinRules:
    """Gin rules with every knob the playout reads drawn at random."""
    return dataclasses.replace(
        GIN, knock_max_deadwood=int(rng.choice([0, 5, 10, 10, 15, 30])), gin_bonus=int(rng.choice([0, 20, 25])),
        undercut_bonus=int(rng.choice([10, 20, 25])), void_at_stock=int(rng.choice([0, 2, 2, 5])),
        wall_knock=bool(rng.random() < 0.6), may_rediscard_pickup=bool(rng.random() < 0.3))


def _choose(game: GinGame, rng: np.random.Generator, q: float):
    if rng.random() < q:
        legal = game.legal_actions()
        return legal[int(rng.integers(len(legal)))]
    return _GREEDY.choose(game.view(game.to_act))


def random_oklahoma_rules(rng: np.random.Generator) -> OklahomaRules:
    """Oklahoma's rules with the knobs the playout reads drawn at random (the highest limit, spades)."""
    return dataclasses.replace(
        OKLAHOMA, knock_max_deadwood=int(rng.choice([5, 10, 10])), spades_double=bool(rng.random() < 0.7),
        gin_bonus=int(rng.choice([0, 25])), void_at_stock=int(rng.choice([0, 2, 2])),
        wall_knock=bool(rng.random() < 0.5), may_rediscard_pickup=bool(rng.random() < 0.3))


def position(seed: int, i: int, variant: str = "gin") -> GinGame:
    """Position ``i`` of a run seeded ``seed``: a deal advanced by a seeded mix of greedy and random actions
    (``variant``: Gin, or Oklahoma Gin on the same kernel)."""
    rng = np.random.default_rng([seed, i])
    if variant == "gin":
        rules = random_rules(rng) if rng.random() < 1 / 3 else GIN
    else:
        rules = random_oklahoma_rules(rng) if rng.random() < 1 / 2 else OKLAHOMA
    game, _ = new_table(variant, ["greedy", "greedy"], seed, i, dealer=1, rules=rules)
    if rng.random() < 0.1:  # a later hand of the game (scores and boxes already moved)
        while not game.game_over and game.hand_number < 2 + int(rng.integers(2)):
            game.apply(_choose(game, rng, 0.0) if not game.hand_over else game.legal_actions()[0])
        if game.game_over or game.hand_over:
            game, _ = new_table(variant, ["greedy", "greedy"], seed, i, dealer=1, rules=rules)
    q = float(rng.choice([0.0, 0.2, 0.6, 1.0]))
    trial, steps, walls = copy_game(game), [], []
    while not trial.hand_over:  # how the hand would go on: the actions to choose from
        if trial.phase == "wall":
            walls.append(len(steps))
        a = _choose(trial, rng, q)
        steps.append(a)
        trial.apply_unchecked(a)
    u = rng.random()
    if walls and u < 0.5:  # at the wall (wall_knock), just before it, or just after taking its discard
        k = min(len(steps) - 1, max(0, walls[0] + 1 - int(rng.integers(4))))
    elif u < 0.15:  # the upcard offer (either seat), the forced stock draw, the first discard
        k = min(len(steps) - 1, int(rng.integers(3)))
    elif u < 0.45:  # near the end: the wall, a knock
        k = max(0, len(steps) - 1 - int(rng.integers(min(len(steps), 8))))
    else:
        k = int(rng.integers(len(steps)))
    for a in steps[:k]:
        game.apply(a)
    return game


def positions(n: int, seed: int = SEED):
    for i in range(n):
        yield position(seed, i)


def compare(n: int, seed: int = SEED) -> dict:
    """Kernel against engine on ``n`` positions: tallies by phase, and the positions that differ."""
    tally: dict = {"differ": [], "phases": {}, "unsupported": 0, "near_wall": 0}
    for i, game in enumerate(positions(n, seed)):
        before = game.snapshot()
        got = playout_ended(game)  # the gains and who ended the hand (the tie-break of equal gains)
        assert game.snapshot() == before, f"position {i}: playout changed the game"
        want = python_playout_ended(game)
        assert game.snapshot() == before, f"position {i}: the engine's playout changed the game"
        key = game.phase + ("+passed" if game.phase == "turn" and game.passed == 2 else "") \
            + ("+must_knock" if game.phase == "discard" and game.must_knock else "")
        tally["phases"][key] = tally["phases"].get(key, 0) + 1
        tally["unsupported"] += not supported(game)
        tally["near_wall"] += len(game.stock) <= game.rules.void_at_stock + 2
        if got != want:
            tally["differ"].append((i, got, want))
    return tally


def test_kernel_equals_engine_on_seeded_positions():
    t = compare(N_POSITIONS)
    assert t["differ"] == [], t["differ"][:10]
    assert t["unsupported"] == 0
    for phase in ("offer", "turn", "turn+passed", "discard", "wall"):
        assert t["phases"].get(phase, 0) >= 20, t["phases"]
    assert t["near_wall"] >= 100, t


def test_a_first_action_then_greedy_equals_the_engine():
    """``first``: every kind of legal action (draw, take, pass, discard, knock, gin) imposed, then greedy."""
    rng = np.random.default_rng(9)
    kinds: dict = {}
    for i in range(N_FIRST):
        game = position(SEED + 2, i)
        if game.hand_over:
            continue
        legal = game.legal_actions()
        knocks = [a for a in legal if type(a).__name__ in ("KnockWith", "Gin")]
        picks = [legal[int(j)] for j in rng.choice(len(legal), size=min(3, len(legal)), replace=False)]
        for a in picks + knocks[:1]:
            before = game.snapshot()
            assert playout(game, a) == python_playout(game, a), (i, str(a))
            assert game.snapshot() == before
            kinds[type(a).__name__] = kinds.get(type(a).__name__, 0) + 1
    g = _fixed("4h 5h 6h 8s 8c 8d Ks Kc Kd 2c", "2s 3s 4s 9h 9c Jd Qd 7c 7d Ah", "7h")
    g.apply(DRAW_DISCARD)  # 4h-7h: gin with the 2c, or a knock or a discard of another card
    for a in g.legal_actions():
        assert playout(g, a) == python_playout(g, a), str(a)
        kinds[type(a).__name__] = kinds.get(type(a).__name__, 0) + 1
    assert {"Draw", "Pass", "Discard", "KnockWith", "Gin"} <= set(kinds), kinds


def test_oklahoma_on_the_kernel_equals_the_engine():
    """Oklahoma Gin on Gin's kernel (:mod:`rumino.variants.oklahoma.playout`): the knock limit the upcard set
    (an ace: gin only) and a spade's doubling, position by position, alone and after each kind of first action;
    the gains and the seat that ended the hand must be the engine's."""
    rng = np.random.default_rng(11)
    limits, doubled, kinds, phases = set(), 0, {}, set()
    for i in range(N_OKLAHOMA):
        game = position(SEED + 3, i, "oklahoma")
        if game.hand_over:
            continue
        assert oklahoma_playout.supported(game), i
        limits.add(game.hand_limit)
        doubled += game.doubled
        phases.add(game.phase)
        legal = game.legal_actions()
        picks = [None] + [legal[int(j)] for j in rng.choice(len(legal), size=min(2, len(legal)), replace=False)]
        picks += [a for a in legal if type(a).__name__ in ("KnockWith", "Gin")][:1]
        for a in picks:
            before = game.snapshot()
            got = oklahoma_playout.playouts(game, np.array([game.stock]), None, first=a, ended_by=True)[0]
            assert game.snapshot() == before
            gains, by = python_playout_ended(game, a)
            assert (int(got[0]), int(got[1]), None if got[2] < 0 else int(got[2])) == (*gains, by), (i, str(a))
            kinds[type(a).__name__] = kinds.get(type(a).__name__, 0) + 1
    assert {0, 2, 5, 9, 10} <= limits and doubled >= 50, (limits, doubled)
    assert {"offer", "turn", "discard"} <= phases and {"Draw", "Pass", "Discard", "KnockWith", "Gin"} <= set(kinds)


def test_oklahoma_house_games_and_gin_go_to_the_engine():
    """The Oklahoma module's kernel path is Oklahoma's own class only: Gin itself, or a house game standing
    on Oklahoma, is played by the engine through it (the same gains as the engine's)."""
    game = position(SEED + 3, 5, "oklahoma")
    game.__class__ = type("HouseOklahoma", (type(game),), {})
    assert not oklahoma_playout.supported(game)
    gains, _ = python_playout_ended(game)
    assert tuple(oklahoma_playout.playouts(game, np.array([game.stock])).tolist()[0]) == gains
    assert not oklahoma_playout.supported(position(SEED, 5))


def test_an_illegal_first_action_is_refused():
    game, _ = new_table("gin", ["greedy", "greedy"], 3, 0, dealer=1)
    with pytest.raises(IllegalActionError):
        playout(game, DRAW_STOCK)  # the upcard is on offer: take it or pass


def test_batch_equals_one_by_one():
    """``playouts`` over shuffled worlds of one position equals ``playout`` on each world set up as a game."""
    rng = np.random.default_rng(5)
    for i in range(30):
        game = position(SEED + 1, i)
        if game.hand_over:
            continue
        hidden = list(game.stock) + list(game.hands[1 - game.to_act])
        worlds_h, worlds_s, want = [], [], []
        for _ in range(8):
            cards = [int(c) for c in rng.permutation(hidden)]
            opp, stock = cards[:len(game.hands[1 - game.to_act])], cards[len(game.hands[1 - game.to_act]):]
            hands = [None, None]
            hands[game.to_act], hands[1 - game.to_act] = list(game.hands[game.to_act]), opp
            g = copy_game(game)
            g.hands, g.stock = [list(h) for h in hands], list(stock)
            g._dw.clear()
            want.append(python_playout(g))
            worlds_h.append([h + [-1] * (11 - len(h)) for h in hands])
            worlds_s.append(stock)
        got = playouts(game, np.array(worlds_s), np.array(worlds_h))
        assert [tuple(r) for r in got.tolist()] == want, i
        a = game.legal_actions()[-1]  # a first action in every world: the other seat's hand varies
        want = []
        for h, st in zip(worlds_h, worlds_s):
            g = copy_game(game)
            g.hands, g.stock = [[c for c in x if c >= 0] for x in h], list(st)
            g._dw.clear()
            want.append(python_playout(g, a))
        got = playouts(game, np.array(worlds_s), np.array(worlds_h), first=a)
        assert [tuple(r) for r in got.tolist()] == want, (i, str(a))
        ended = playouts(game, np.array(worlds_s), np.array(worlds_h), first=a, ended_by=True)
        assert (ended[:, :2] == got).all() and set(ended[:, 2].tolist()) <= {-1, 0, 1}


def test_sampled_worlds_keep_what_the_player_sees():
    game = position(SEED, 3)
    me = game.to_act
    hands, stocks = sample_worlds(game, 50, np.random.default_rng(2), known=game.hands[1 - me][:2])
    assert (np.sort(hands[:, me, :len(game.hands[me])], axis=1) == sorted(game.hands[me])).all()
    assert (hands[:, 1 - me, :2] == game.hands[1 - me][:2]).all()
    assert len({tuple(s) for s in stocks.tolist()}) == 50  # the stock is dealt again in every world
    assert playouts(game, stocks, hands).shape == (50, 2)  # every card once: playouts accepts them


def test_batch_refuses_a_world_without_every_card():
    game, _ = new_table("gin", ["greedy", "greedy"], 3, 0, dealer=1)
    bad = np.array([game.stock])
    bad[0, 0] = game.hands[0][0]  # a card twice, another missing
    with pytest.raises(ValueError, match="every card"):
        playouts(game, bad)


def _fixed(text0: str, text1: str, upcard: str, rules: GinRules = GIN) -> GinGame:
    g = GinGame.new(rules, 2, seed=11, dealer=1)
    g.set_position(hands={0: text0, 1: text1}, discard=upcard)
    return g


def test_a_gin():
    g = _fixed("4h 5h 6h 8s 8c 8d Ks Kc Kd 2c", "2s 3s 4s 9h 9c Jd Qd 7c 7d Ah", "7h")
    # seat 0 takes the 7h (4h-7h), discards the 2c and goes gin: 25 + seat 1's deadwood 9+9+10+10+7+7+1 = 53
    assert playout(g) == python_playout(g) == (78, 0)


def test_an_undercut():
    g = _fixed("Ah 2h 3h 5s 5c 5d 9s 9c 4d Kc", "2c 3c 4c 7s 7h 7d 10d Jd Qd As", "9d")
    # seat 0 takes the 9d, sheds the Kc and knocks with 4 (the 4d); seat 1 holds 1 (the As): undercut
    assert playout(g) == python_playout(g) == (0, 4 - 1 + 25)


def test_the_defender_lays_off():
    g = _fixed("5h 6h 7h 2s 2c 2d Js Jc Jd Kc", "8h 9h Kd 3c 4s 4c 4d 10s Qs 2h", "Ac")
    # seat 0 takes the Ac, sheds the Kc, knocks with 1; seat 1 (52 deadwood) lays the 8h 9h off
    # onto 5h-7h and the 2h onto the 2s 2c 2d: 33 left, so seat 0 scores 33 - 1
    assert playout(g) == python_playout(g) == (32, 0)


def test_the_knocker_shows_the_melds_that_block_a_layoff():
    g = _fixed("5h 6h 7h 8h 8s 8c 8d As 2c Kd", "9h Ks Qs Qc 3s 3h 3c 4d 5d 6d", "Ac")
    # seat 0 knocks with 4 (As Ac 2c). Shown as 5h-8h and 8s 8c 8d, the 9h would lay off (30 left);
    # shown as 5h-7h and the four 8s it cannot, and the knocker shows that (G3): 39 - 4
    assert playout(g) == python_playout(g) == (35, 0)


def _at_the_wall(rules: GinRules) -> GinGame:
    """Seat 0 to draw from a stock of 3 (after both passed the upcard): its discard brings the stock to 2."""
    g = GinGame.new(rules, 2, seed=11, dealer=1)
    h0, h1 = "Ks Qh Js 9h 7s 5h 3s Ah Kc Qc", "2c 3c 4c 6d 7d 8d 9s 9d 9c Kd"
    stock_top = "Jc 10c 8c"
    used = set((h0 + " " + h1 + " " + stock_top).split())
    from rumino.cards import format_card, parse_hand
    pile = [c for c in range(52) if format_card(c) not in {format_card(x) for x in parse_hand(" ".join(used))}]
    g.apply(PASS)
    g.apply(PASS)
    g.set_position(hands={0: h0, 1: h1}, discard=pile, stock_top=stock_top)
    assert len(g.stock) == 3 and g.legal_actions() == [DRAW_STOCK]
    return g


def test_a_void_hand_at_the_wall():
    g = _at_the_wall(GIN)
    # seat 0 draws the Jc, sheds the Ks: two stock cards remain and the hand is void
    assert playout(g) == python_playout(g) == (0, 0)


def test_a_knock_at_the_wall():
    rules = dataclasses.replace(GIN, wall_knock=True)
    g = _at_the_wall(rules)
    got, want = playout(g), python_playout(g)
    assert got == want
    e = copy_game(g)
    from rumino.engine.protocol import play
    play(e, [GreedyPlayer(), GreedyPlayer()], checked=False, until=lambda x: x.hand_over)
    assert e.history[-2][1] == DRAW_DISCARD and e.results[-1].ending in ("knock", "gin"), e.results[-1].describe()
    while not g.must_knock:  # the position after the wall's discard is taken: knock (or gin) now
        g.apply(_GREEDY.choose(g.view(g.to_act)))
    assert g.phase == "discard" and g.legal_actions()
    assert playout(g) == python_playout(g) == want
    for a in g.legal_actions():
        assert playout(g, a) == python_playout(g, a), str(a)


def test_a_position_the_kernel_does_not_model_goes_to_the_engine():
    """A game of another class than Gin's own (a house game standing on Gin, as Oklahoma Gin would): the
    kernel does not model it, so the engine plays it, with the same decisions."""
    from rumino.variants.gin import GinGame
    game = position(SEED, 7)
    want = playout(game)
    game.__class__ = type("HouseGin", (GinGame,), {})
    assert not supported(game)
    assert playout(game) == python_playout(game) == want
    assert playouts(game, np.array([game.stock])).tolist() == [list(want)]


def test_a_finished_hand_gains_nothing():
    game, players = new_table("gin", ["greedy", "greedy"], 4, 0, dealer=1)
    from rumino.engine.protocol import play
    play(game, players, checked=False, until=lambda x: x.hand_over)
    assert playout(game) == (0, 0)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    t = compare(n)
    print(f"{n} positions (seed {SEED}); by phase {t['phases']}; near the wall {t['near_wall']}; "
          f"not compiled {t['unsupported']}; differ {len(t['differ'])}")
    for row in t["differ"][:20]:
        print(f"  position {row[0]}: kernel {row[1]}, engine {row[2]}")
    sys.exit(1 if t["differ"] else 0)
