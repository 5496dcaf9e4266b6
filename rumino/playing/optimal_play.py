"""Playing the optimal table: discard policies, and what they do in play (issue 14, items 3, 4 and 6).

The optimal tables (:mod:`rumino.odds.optimal`) value every 7-card class. This
module turns them into *play*:

* :class:`TableValues` — the cost of 7-card hands from a table (expected draws to
  knock or gin, lower is better; or minus the chance within ``n`` draws), and
  :class:`DirectValues`, the same question computed on the spot for ``n ≤ 2``
  draws (no table); :func:`choose_discard` picks the best discard of an 8-card
  hand from either (ties: the least deadwood, then the greedy bot's order);
* :func:`simulate_policy` — deals hands and plays a discard policy against the
  stock, either in the **model** of the tables (each draw from the pack minus the
  hand: discards shuffled back in) or at a **real** table (a shuffled stock that
  runs down; the discards go to a pile that is reshuffled only when the stock is
  empty, rules §0.4's default). It records, per hand, the draws until the kept 7
  cards may knock, are gin and are a rumino. In the model, the optimal policy's
  simulated draws must match the table's values (the check of item 6); at a real
  table the gap says how far the model is from play;
* :func:`policy_figures` and :func:`game_figures` — the figures of the book's
  section, written into ``book/data/optimal_figures.json`` by
  ``rumino optimal play`` (needs the full tables).

Tie-break (the rules say nothing; a careful player's choice): among discards of equal
table value, keep the least deadwood, then shed as the greedy bot does (keep
jokers, throw the highest card).

>>> from rumino.odds.enumerate import PackShape
>>> from rumino.odds.optimal import SolitaireModel
>>> small = PackShape(suits=2, ranks=6, copies=1, jokers=2)
>>> v = TableValues(SolitaireModel(small).solve(horizon=2, tol=1e-6), "knock")
>>> r = simulate_policy(optimal_policy(v), small, hands=20, seed=1, goals=("knock",))
>>> r["draws"]["knock"].shape
(20,)
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from rumino.cards import JOKER, from_counts
from rumino.errors import RuleConfigError
from rumino.stats import mean_estimate, proportion_estimate
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal_policy import (TableValues, greedy_policy,
                                        load_table, optimal_policy, shed_key)
from rumino.odds.optimal import GOALS, MAX_HORIZON, TIMED_GOALS, OptimalTable, default_table_dir
from rumino.players.chaser import rumino_target
from rumino.playing.simulation import play_games
from rumino.playing.progress import progress_bar
from rumino.variants import find_variant

RUMINO_VARIANT = find_variant("rumino")  # the game the optimal tables are of (rules §1), read from its row
RUMINO, RuminoRules = RUMINO_VARIANT.rules, RUMINO_VARIANT.rules_class
HAND_SIZE = RUMINO_VARIANT.hand_size  # 7 (rules §1.1)


def chaser_policy(rules: RuminoRules = RUMINO, min_progress: int = 5) -> Callable:
    """The chaser bot's discard (:class:`rumino.players.RuminoChaser`): greedy, but once ``min_progress``
    cards of a rumino are held it keeps them and throws the least-deadwood card outside."""
    from collections import Counter


    ev = RUMINO_VARIANT.evaluator(rules)

    def policy(cnt8, left):
        hand = from_counts(cnt8)
        value, best = ev.after_draw(hand)
        progress, keep = rumino_target(hand, rules)
        if value == 0 or progress < min_progress:
            return max(best, key=shed_key)
        outside = list(Counter(hand) - Counter(keep))
        if not outside:
            return max(best, key=shed_key)
        scored = {}
        for c in outside:
            kept = list(hand)
            kept.remove(c)
            scored[c] = ev.deadwood(kept)
        low = min(scored.values())
        return max((c for c, v in scored.items() if v == low), key=shed_key)
    policy.finite = False
    return policy


def _caps(shape: PackShape) -> np.ndarray:
    caps = np.zeros(53, np.int64)
    for c in shape.card_ids():
        caps[c] = shape.copies
    caps[JOKER] = shape.jokers
    return caps


def simulate_policy(policy: Callable, shape: PackShape, hands: int, seed: int, *, stock: str = "model",
                    goals: Sequence[str] = GOALS, horizon: int = MAX_HORIZON, max_draws: int = 400,
                    rules: RuminoRules = RUMINO, values: TableValues | None = None,
                    progress: Callable[[int, int], None] | None = None) -> dict:
    """Deal ``hands`` hands (hand ``i`` from ``default_rng([seed, i])``) and play ``policy`` against the stock.

    ``stock="model"``: each draw from the pack minus the hand; ``"real"``: a shuffled stock that runs down,
    discards to a pile reshuffled when the stock is empty. Returns ``draws[goal]`` (per hand, the draws
    until the kept cards first meet the goal; 0 if dealt there; ``max_draws + 1`` if never — the rumino
    goal is followed for ``horizon`` draws only) and, with ``values``, the table's value of each dealt hand.
    A finite-horizon policy plays ``horizon`` draws only. ``progress(done, hands)`` is called after each hand.
    """
    if stock not in ("model", "real"):
        raise RuleConfigError(f"stock is {stock!r}: it must be 'model' (discards shuffled back in) or 'real'.")
    ev = RUMINO_VARIANT.evaluator(rules)
    caps = _caps(shape)
    pack = np.repeat(np.arange(53), caps)
    U = len(pack) - HAND_SIZE
    limit = rules.knock_max_deadwood
    finite = getattr(policy, "finite", False)
    last = horizon if finite else max_draws
    out = {g: np.full(hands, max_draws + 1, np.int64) for g in goals}
    dealt_values = np.zeros(hands) if values is not None else None
    for i in range(hands):
        rng = np.random.default_rng([seed, i])
        order = rng.permutation(pack)
        cnt = np.bincount(order[:HAND_SIZE], minlength=53).astype(np.int64)
        stock_cards, pile = list(order[HAND_SIZE:][::-1]), []
        if values is not None:
            dealt_values[i] = values.cost(cnt[None, :], horizon if finite else None)[0]
        todo = set(goals)
        t = 0
        while True:
            hand = from_counts(cnt)
            dw = ev.deadwood(hand) if todo & {"knock", "gin"} else None
            for g in list(todo):
                hit = (dw <= limit if g == "knock" else dw == 0 if g == "gin" else rules.is_rumino(hand))
                if hit:
                    out[g][i] = t
                    todo.discard(g)
            if "rumino" in todo and t >= horizon:
                todo.discard("rumino")
            if not todo or t >= last:
                break
            if stock == "model":
                r = int(rng.integers(U))
                c = int(np.searchsorted(np.cumsum(caps - cnt), r, side="right"))
            else:
                if not stock_cards:
                    stock_cards = list(rng.permutation(np.array(pile, dtype=np.int64)))
                    pile = []
                c = int(stock_cards.pop())
            cnt[c] += 1
            t += 1
            d = policy(cnt, horizon - t + 1 if finite else None)
            cnt[d] -= 1
            pile.append(d)
        if progress is not None:
            progress(i + 1, hands)
    return {"draws": out, "table": dealt_values, "hands": hands, "seed": seed, "stock": stock,
            "horizon": horizon, "max_draws": max_draws}


# =========================================================================== the figures


def _est(e) -> dict:
    d = e.as_json()
    d["se"] = e.se
    return d


def _optimal_check(table: OptimalTable, stock: str, hands: int, seed: int, horizon: int, tick=None) -> dict:
    """The optimal policies played ``hands`` times: simulated vs the table's values of the same dealt hands."""
    out = {}
    for goal in GOALS:
        row = {}
        if goal in TIMED_GOALS:
            v = TableValues(table, goal)
            r = simulate_policy(optimal_policy(v), table.shape, hands, seed, stock=stock, goals=(goal,), values=v,
                                rules=table.rules, progress=tick)
            T = r["draws"][goal].astype(np.float64)
            gap = mean_estimate(T - r["table"], seed=seed)
            row["expected_draws"] = {"simulated": _est(mean_estimate(T, seed=seed)),
                                     "table": float(r["table"].mean()), "gap": _est(gap),
                                     "z": gap.value / gap.se if gap.se else 0.0,
                                     "censored": int((T > r["max_draws"]).sum())}
        v = TableValues(table, goal, draws=horizon)
        r = simulate_policy(optimal_policy(v), table.shape, hands, seed, stock=stock, goals=(goal,), values=v,
                            horizon=horizon, rules=table.rules, progress=tick)
        hit = (r["draws"][goal] <= horizon).astype(np.float64)
        p_table = -r["table"]
        gap = mean_estimate(hit - p_table, seed=seed)
        row[f"within_{horizon}"] = {"simulated": _est(proportion_estimate(int(hit.sum()), hands, seed=seed)),
                                    "table": float(p_table.mean()), "gap": _est(gap),
                                    "z": gap.value / gap.se if gap.se else 0.0}
        out[goal] = row
    return out


def _bot_losses(table: OptimalTable, hands: int, seed: int, horizon: int, tick=None) -> dict:
    """Greedy and chaser discards in the model, against the optimum on the same dealt hands."""
    vals = {g: TableValues(table, g) for g in TIMED_GOALS}
    fin = {g: TableValues(table, g, draws=horizon) for g in GOALS}
    out = {}
    for name, policy in (("greedy", greedy_policy(table.rules)), ("chaser", chaser_policy(table.rules))):
        r = simulate_policy(policy, table.shape, hands, seed, goals=GOALS, horizon=horizon, rules=table.rules,
                            progress=tick)
        counts = np.zeros((hands, 53), np.int64)  # the dealt hands again (same seeds), for their table values
        caps = _caps(table.shape)
        pack = np.repeat(np.arange(53), caps)
        for i in range(hands):
            order = np.random.default_rng([seed, i]).permutation(pack)
            counts[i] = np.bincount(order[:HAND_SIZE], minlength=53)
        row = {}
        for g in GOALS:
            T = r["draws"][g].astype(np.float64)
            hit = (T <= horizon).astype(np.float64)
            p_opt = -fin[g].cost(counts, horizon)
            loss_p = mean_estimate(p_opt - hit, seed=seed)
            row[g] = {f"within_{horizon}": _est(proportion_estimate(int(hit.sum()), hands, seed=seed)),
                      f"optimal_within_{horizon}": float(p_opt.mean()), f"loss_within_{horizon}": _est(loss_p)}
            if g in TIMED_GOALS:
                e_opt = vals[g].cost(counts)
                loss_e = mean_estimate(T - e_opt, seed=seed)
                row[g].update(expected_draws=_est(mean_estimate(T, seed=seed)), optimal_expected_draws=float(e_opt.mean()),
                              loss_draws=_est(loss_e), censored=int((T > r["max_draws"]).sum()))
        out[name] = row
    return out


# the simulations of policy_figures, each of `hands` hands: greedy and chaser, then for each stock the
# optimal policy for each goal within the horizon and, for knock and gin, to the goal
POLICY_RUNS = 2 + 2 * (len(GOALS) + len(TIMED_GOALS))


def _counter(progress: Callable[[int, int], None] | None, total: int):
    """A ``progress(done, n)`` for each run that adds up the runs' steps: ``progress(done, total)``."""
    if progress is None:
        return None
    done = [0]

    def tick(_done, _n):
        done[0] += 1
        progress(done[0], total)

    return tick


def policy_figures(table: OptimalTable, hands: int = 4000, seed: int = 14, horizon: int = MAX_HORIZON,
                   progress: Callable[[int, int], None] | None = None) -> dict:
    """Item 3 and 6's figures: the bots' losses against optimal (model), the optimal policy simulated in
    the model (must match the table) and at a real table (the model's gap). ``progress(done, total)`` is
    called after each hand played, ``total`` being :data:`POLICY_RUNS` × ``hands``."""
    t0 = time.perf_counter()
    tick = _counter(progress, POLICY_RUNS * hands)
    res = {"hands": hands, "seed": seed, "horizon": horizon,
           "bots": _bot_losses(table, hands, seed, horizon, tick),
           "optimal_model": _optimal_check(table, "model", hands, seed, horizon, tick),
           "optimal_real": _optimal_check(table, "real", hands, seed, horizon, tick)}
    res["seconds"] = time.perf_counter() - t0
    return res


MATCHES = (("heads_up", ["solitaire", "greedy"]), ("four_seats", ["solitaire", "greedy", "greedy", "greedy"]))


def game_figures(games: int = 1000, seed: int = 14, directory=None,
                 progress: Callable[[int, int], None] | None = None, matches=MATCHES) -> dict:
    """The ``solitaire`` bot's win rate against greedy: heads-up and at four seats (it and 3 greedy), or in
    the ``matches`` given as ``(key, players)``. ``progress(done, total)`` is called after each game, ``total``
    being ``games`` times the number of matches."""

    out = {"games": games, "seed": seed}
    tick = _counter(progress, len(matches) * games)
    for key, players in matches:
        t0 = time.perf_counter()
        s = play_games(None, players, games, seed, progress=tick)
        out[key] = {"players": players, "win_rate": _est(s.win_rate(0)), "fair_share": 1 / len(players),
                    "hands": s.hands, "endings": s.endings, "seconds": time.perf_counter() - t0}
    return out


def write_play_figures(directory=None, out="book/data/optimal_figures.json", *, hands: int = 4000,
                       games: int = 1000, seed: int = 14, only: str | None = None, progress: bool = False) -> Path:
    """Play the optimal table and write its figures (keys ``policies`` and ``games``) into ``out``
    (what ``rumino optimal play`` runs; needs the full tables). ``progress`` draws a bar on stderr for the
    hands of :func:`policy_figures` and one for the games of :func:`game_figures`."""
    table = load_table(directory)  # first: a missing table leaves the environment as it was
    if directory:
        os.environ["RUMINO_OPTIMAL_DIR"] = str(directory)  # the solitaire bots of the games load from here
    path = Path(out)
    new = {}
    if only in (None, "policies"):
        bar, tick = progress_bar(progress, "policies", "hands")
        try:
            new["policies"] = policy_figures(table, hands, seed, progress=tick)
        finally:
            if bar is not None:
                bar.close()
        print(f"policies: {new['policies']['seconds']:.0f} s")
    if only in (None, "games"):
        bar, tick = progress_bar(progress, "games", "games")
        try:
            new["games"] = game_figures(games, seed, progress=tick)
        finally:
            if bar is not None:
                bar.close()
        print("games: " + ", ".join(f"{k} {v['win_rate']['estimate']:.3f}" for k, v in new["games"].items()
                                    if isinstance(v, dict)))
    res = json.loads(path.read_text()) if path.exists() else {}  # read last: the two parts may run side by side
    res.update(new)
    path.write_text(json.dumps(res, indent=1) + "\n")
    return path
