"""The family ranked: every game's ladder of players in one round robin each, and the luck figures side by side.

A game's *ladder* is its players from the weakest up: the random player, greedy,
the book's other bots that play it, the solitaire-optimal bot at Rumino (when its
tables are built), and the search player at two budgets. Each ladder plays a
heads-up round robin on the same seeded deals (each deal twice, the seats
swapped: :func:`~rumino.tournament.tournament`), so every figure has its 95%
interval. The games are then ranked by the *rating spread* from the random
player to the best one (the measure of Duersch, Lambrecht and Oechssler: the
more a game rewards skill, the farther apart the best and the worst players'
ratings), with greedy's chance of winning a hand against the best beside it.

:func:`run_ladder` writes its results file after every game and, run again with
the same deals and seed, keeps the games already done (a long ranking resumes
where it stopped); ``rumino ladder`` is the command.

>>> ladder_players("robber")
(['random', 'greedy', 'search:8'], {})
>>> sorted(LADDERS)
['gin', 'knock-rummy', 'robber', 'romme', 'rumino', 'rummoli', 'wiener']
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path
from typing import Callable, Sequence

from rumino.errors import RuleConfigError, RuminoError
from rumino.tournament.run import Tournament, tournament
from rumino.variants import VARIANTS, find_variant

LADDERS: dict[str, tuple[str, ...]] = {k: v.ladder for k, v in VARIANTS.items() if v.ladder}
"""Each game's ladder, the weakest first (what ``rumino ladder`` plays), read from its row of the registry
(``Variant.ladder``): the search player at two budgets, a small one and the tournament budget of at most
0.1 s a decision (issue 23's strength matches; bench/bench_search.py times them)."""


def ladder_players(variant: str) -> tuple[list[str], dict[str, str]]:
    """The players of ``variant``'s ladder that can play here, and those left out with the reason
    (the solitaire bot without its optimal tables)."""
    key = find_variant(variant).key
    players, left_out = [], {}
    for spec in LADDERS[key]:
        if spec.startswith("solitaire"):
            from rumino.odds.optimal import BUILD_COMMAND, TableMissingError
            from rumino.players import make_player

            try:
                make_player(spec)
            except TableMissingError:
                left_out[spec] = f"its optimal tables are not built ({BUILD_COMMAND} builds them)"
                continue
        players.append(spec)
    return players, left_out


def _cpu_seconds() -> float:
    """This process's CPU time and its finished children's (the worker processes of a pool)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_ladder(*, deals: int = 200, seed: int = 1, variants: Sequence[str] | None = None, out: Path | None = None,
               workers: int = 1, dask: str | None = None,
               progress: Callable[[str, int, int], None] | None = None) -> dict:
    """Play every game's ladder (``variants``: some of them, default all) and rank the games.

    ``out``: the results file, written after each game; an existing file with the same ``deals`` and
    ``seed`` keeps its games whose players are unchanged (the ranking resumes). ``progress(game, done,
    total)`` is called after each chunk of a game's matches.
    """
    keys = [find_variant(v).key for v in variants] if variants else list(LADDERS)
    unknown = [k for k in keys if k not in LADDERS]
    if unknown:
        raise RuleConfigError(f"{unknown[0]} has no ladder: the ladders are {', '.join(LADDERS)}.")
    data = {"deals": deals, "seed": seed, "games": _resumed(out, deals, seed, "games")}
    for key in keys:
        players, left_out = ladder_players(key)
        done = data["games"].get(key)
        if done is not None and done.get("players") == players:
            continue
        start_wall, start_cpu = time.perf_counter(), _cpu_seconds()
        tick = (lambda d, t, key=key: progress(key, d, t)) if progress is not None else None
        t = tournament(key, players, deals=deals, seed=seed, workers=workers, dask=dask, progress=tick)
        data["games"][key] = {"players": players, "left_out": left_out, "tournament": t.as_json(),
                              "hands": hands_json(t),
                              "wall_seconds": round(time.perf_counter() - start_wall, 3),
                              "cpu_seconds": round(_cpu_seconds() - start_cpu, 3)}
        data["ranking"] = ranking(data)
        if out is not None:
            _write(Path(out), data)
    data["ranking"] = ranking(data)
    if out is not None:
        _write(Path(out), data)
    return data


def hands_json(t: Tournament) -> dict:
    """Every heads-up hand of tournament ``t``, pair by pair (``"a|b"``: ``a``'s players index first):
    per deal, ``a``'s margin over ``b`` and ``a``'s score (1 won, ½ tied, 0 lost) with ``a`` in seat 0
    and in seat 1. The book reads the duplicate pairs from here; a test replays the first deals.

    >>> from rumino.tournament import tournament
    >>> hands_json(tournament("knock-rummy", ["greedy", "random"], deals=1, seed=1))["greedy|random"]["scores"]
    [[1.0, 0.0]]
    """
    if not t.heads_up:
        return {}
    return {f"{t.players[a]}|{t.players[b]}": {"margins": t.margins[(a, b)].tolist(),
                                               "scores": t.scores[(a, b)].tolist()}
            for (a, b) in t.margins}


def ranking(data: dict) -> list[dict]:
    """The games from the most luck to the most skill: by the rating spread from random to the best
    player (Elo, with its 95% interval), greedy's and random's chances of winning a hand against the
    best, and the deal's share of the variance between the best and greedy. Where
    random never won a hand against the best, ``spread_at_least`` is the 95% lower bound on that gap,
    and the game is ranked by it.

    >>> ranking({"games": {}})
    []
    """
    rows = []
    for key, game in data["games"].items():
        luck = game["tournament"]["luck"]
        # the baseline: the game's own bot (greedy, Rummoli's default), or random where that bot is the best
        greedy = next((p for p in ("greedy", "default", "random") if p in game["players"] and p != luck["best"]),
                      None)
        against = luck.get("against_best", {}).get(greedy) if greedy else None
        # random never won a hand against the best: the fitted spread is set by the prior alone, so the
        # 95% lower bound on the gap (Tournament.separated, Clopper–Pearson) is what the hands can say
        # (clamped at 0: with a handful of hands the bound falls below 0, and a gap won on every hand
        # is not negative)
        at_least = next((max(0.0, gap) for winner, loser, gap in luck.get("separated", [])
                         if winner == luck["best"] and loser == luck["weakest"]), None)
        vs_random = luck.get("against_best", {}).get("random") if luck["best"] != "random" else None
        rows.append({"game": key, "best": luck["best"], "spread_elo": luck["spread_elo"],
                     "spread_at_least": at_least,
                     "baseline": greedy, "baseline_wins_a_hand": against["weaker_wins_a_hand"] if against else None,
                     # the luck a newcomer meets: random's chance of a hand against the best
                     "random_wins_a_hand": vs_random["weaker_wins_a_hand"] if vs_random else None,
                     # the deal's share of a hand's variance between the best and its baseline
                     "deal_share": against["deal_share"] if against else None})
    return sorted(rows, key=_skill_measure)


def _skill_measure(row: dict) -> tuple[float, float]:
    """What a game is ranked by: its rating spread, or its lower bound where random never won a hand
    against the best (then the fitted spread only breaks ties)."""
    spread = row["spread_elo"][0]
    return (row["spread_at_least"] if row.get("spread_at_least") is not None else spread, spread)


# What a house rule does to the luck: a game's ladder played again with one knob set to each value (each
# game's row names its columns, ``Variant.house_rule_columns``: Rumino's knock limit, rules §1.3, and Rommé's
# opening minimum, §3.4, the two knobs issue 23 names); the players are the ones whose gap the knob could move
# (random and search against greedy) at the small search budget, so a column costs minutes, not hours.
HOUSE_RULE_COLUMNS: dict[str, tuple[str, str, tuple[int, ...], tuple[str, ...]]] = {
    name: (k, *column) for k, v in VARIANTS.items() for name, column in v.house_rule_columns.items()}
"""Each house-rule column: its game, the knob, the knob's values (the default among them) and the players."""


def run_house_rules(*, deals: int = 100, seed: int = 1, columns: Sequence[str] | None = None,
                    out: Path | None = None, workers: int = 1, dask: str | None = None,
                    progress: Callable[[str, int, int], None] | None = None) -> dict:
    """Play each house-rule column (``columns``: some of :data:`HOUSE_RULE_COLUMNS`, default all): its
    players' round robin once per value of its knob, on the same seeded deals.

    ``out`` is written after every value and resumes as :func:`run_ladder`'s does. ``progress(label,
    done, total)``, the label naming the column and the value.

    >>> HOUSE_RULE_COLUMNS["romme-opening"][1:3]  # the knob and its values
    ('opening_min', (30, 40, 50))
    """
    names = list(columns) if columns else list(HOUSE_RULE_COLUMNS)
    for name in names:
        if name not in HOUSE_RULE_COLUMNS:
            raise RuleConfigError(f"{name} is not a house-rule column: the columns are "
                                  f"{', '.join(HOUSE_RULE_COLUMNS)}.")
    data = {"deals": deals, "seed": seed, "columns": _resumed(out, deals, seed, "columns")}
    for name in names:
        key, knob_name, values, players = HOUSE_RULE_COLUMNS[name]
        v = find_variant(key)
        column = data["columns"].setdefault(name, {"variant": key, "knob": knob_name,
                                                   "default": getattr(v.rules, knob_name), "values": {}})
        for value in values:
            done = column["values"].get(str(value))
            if done is not None and done.get("players") == list(players):
                continue
            start_wall, start_cpu = time.perf_counter(), _cpu_seconds()
            label = f"{name}={value}"
            tick = (lambda d, t, label=label: progress(label, d, t)) if progress is not None else None
            t = tournament(key, list(players), deals=deals, seed=seed, rules=v.with_rules(**{knob_name: value}),
                           workers=workers, dask=dask, progress=tick)
            column["values"][str(value)] = {"players": list(players), "tournament": t.as_json(),
                                            "hands": hands_json(t),
                                            "wall_seconds": round(time.perf_counter() - start_wall, 3),
                                            "cpu_seconds": round(_cpu_seconds() - start_cpu, 3)}
            if out is not None:
                _write(Path(out), data)
    return data


def _resumed(out: Path | None, deals: int, seed: int, part: str) -> dict:
    """What a results file written before keeps for a run on the same deals and seed (its ``part``:
    the games or the columns), else nothing."""
    if out is None or not Path(out).exists():
        return {}
    old = _read(Path(out))
    same = old.get("deals") == deals and old.get("seed") == seed and isinstance(old.get(part), dict)
    return old[part] if same else {}


def _read(path: Path) -> dict:
    """A results file written before, or a clear error."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise RuminoError(f"the results file {path} cannot be read ({err}): move it away or choose "
                          f"another --out.") from None


def _write(path: Path, data: dict) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(part, path)  # a ranking stopped mid-write leaves the last whole file


__all__ = ["HOUSE_RULE_COLUMNS", "LADDERS", "hands_json", "ladder_players", "ranking", "run_house_rules", "run_ladder"]
