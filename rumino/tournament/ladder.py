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
['gin', 'knock-rummy', 'oklahoma', 'robber', 'romme', 'rumino', 'rummoli', 'wiener']
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path
from typing import Callable, Sequence

from rumino.errors import RuleConfigError, RuminoError
from rumino.stats import Comparison, pairwise_fisher
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
               progress: Callable[[str, int, int], None] | None = None, replace: bool = False) -> dict:
    """Play every game's ladder (``variants``: some of them, default all) and rank the games.

    ``out``: the results file, written after each game; an existing one written with the same ``deals``
    and ``seed`` keeps its games whose players are unchanged (the ranking resumes) and its house-rule
    columns. Any other file there is refused (:func:`read_results`) unless ``replace``. ``progress(game,
    done, total)`` is called after each chunk of a game's matches.
    """
    keys = [find_variant(v).key for v in variants] if variants else list(LADDERS)
    unknown = [k for k in keys if k not in LADDERS]
    if unknown:
        raise RuleConfigError(f"{unknown[0]} has no ladder: the ladders are {', '.join(LADDERS)}.")
    data = _start(read_results(out, deals=deals, seed=seed, replace=replace), deals, seed, "games")
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


def hands_against_best(game: dict, player: str = "random") -> tuple[int, int, int] | None:
    """``(won, tied, lost)``: the hands ``player`` played against the best player of a game's ladder, from
    the results file's hands (None where ``player`` is the best or is not in the ladder).

    >>> hands_against_best({"tournament": {"luck": {"best": "greedy"}}, "players": ["random", "greedy"],
    ...                     "hands": {"random|greedy": {"scores": [[0.0, 0.5], [1.0, 0.0]]}}})
    (1, 1, 2)
    """
    best = game["tournament"]["luck"]["best"]
    if player == best or player not in game["players"]:
        return None
    hands = game["hands"]
    if f"{player}|{best}" in hands:
        scores = [x for pair in hands[f"{player}|{best}"]["scores"] for x in pair]
    else:
        scores = [1.0 - x for pair in hands[f"{best}|{player}"]["scores"] for x in pair]
    won = sum(1 for x in scores if x == 1.0)
    tied = sum(1 for x in scores if x == 0.5)
    return won, tied, len(scores) - won - tied


def luck_tests(data: dict, player: str = "random") -> list[dict]:
    """Every pair of games compared on the chance that ``player`` (random: a newcomer's luck) wins a hand
    against the game's best player: Fisher's exact test on the hands it won and lost (tied hands left out),
    with Newcombe's interval on the difference of the two shares; the p-values Holm-adjusted over all the
    pairs, since a ranking makes every comparison at once. Two hands of one deal are not independent, but
    their results pull opposite ways (the cards go to each player in turn), so counting them as independent
    hands errs towards caution.

    Each entry: ``{"a", "b", "comparison" (a − b, as JSON), "p_holm", "shown", "more_luck"}``, where
    ``more_luck`` is the game in which the weaker player wins more (None: not shown).

    >>> luck_tests({"games": {}})
    []
    """
    counts = {}
    for key, game in data["games"].items():
        got = hands_against_best(game, player)
        if got is not None:
            won, _tied, lost = got
            counts[key] = (won, won + lost)
    # the comparison as JSON: the ladder's results are read back from its file
    return [{**t, "comparison": t["comparison"].as_json()} for t in pairwise_fisher(counts)]


def spread_tests(data: dict) -> list[dict]:
    """Every pair of games whose random player won a hand against the best (so both rating spreads are
    measured, not only bounded) compared on the spread: the bootstrap resamples of each game's deals, drawn
    apart (the games are independent), give the difference's 95% percentile interval; shown when it leaves
    out 0. Each entry: ``{"a", "b", "comparison" (a − b, Elo), "shown", "more_luck"}`` (the smaller spread is
    the game of more luck).

    >>> spread_tests({"games": {}})
    []
    """
    import numpy as np

    boots = {}
    for key, game in data["games"].items():
        luck = game["tournament"]["luck"]
        if any(w == luck["best"] and l == luck["weakest"] for w, l, _ in luck.get("separated", [])):
            continue  # random never won a hand against the best: the spread is only bounded
        t = Tournament.from_hands(key, game["players"], game["tournament"]["deals"], game["tournament"]["seed"],
                                  game["hands"])
        boots[key] = (float(luck["spread_elo"][0]), t.spread_resamples())
    keys = list(boots)
    out = []
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            diff = boots[a][1] - boots[b][1]
            lo, hi = (float(x) for x in np.percentile(diff, [2.5, 97.5]))
            c = Comparison(boots[a][0] - boots[b][0], lo, hi, (len(boots[a][1]), len(boots[b][1])),
                           "bootstrap percentile interval of the difference (the deals of each game resampled "
                           "apart)", kind="mean")
            out.append({"a": a, "b": b, "comparison": c.as_json(), "shown": c.shown,
                        "more_luck": (b if c.estimate > 0 else a) if c.shown else None})
    return out


def deal_share_tests(data: dict) -> list[dict]:
    """Every pair of games compared on the deal's share of a hand's variance between each game's best
    player and its baseline (the pair :func:`ranking` reports): the bootstrap resamples of each game's deals,
    drawn apart, give the difference's 95% percentile interval. A game without points (Robber Rummy:
    every margin 0) has no share and is left out. Each entry: ``{"a", "b", "comparison" (a − b), "shown",
    "more_luck"}`` (the larger share: the deal decides more).

    >>> deal_share_tests({"games": {}})
    []
    """
    import math

    import numpy as np

    boots = {}
    for row in ranking(data):
        key, base = row["game"], row["baseline"]
        share = row["deal_share"]
        if base is None or share is None or math.isnan(share[0]):
            continue
        game = data["games"][key]
        t = Tournament.from_hands(key, game["players"], game["tournament"]["deals"], game["tournament"]["seed"],
                                  game["hands"])
        i, j = t.players.index(row["best"]), t.players.index(base)
        boots[key] = (share[0], t.deal_share_resamples(i, j))
    keys = list(boots)
    out = []
    for n, a in enumerate(keys):
        for b in keys[n + 1:]:
            diff = boots[a][1] - boots[b][1]
            lo, hi = (float(x) for x in np.nanpercentile(diff, [2.5, 97.5]))
            c = Comparison(boots[a][0] - boots[b][0], lo, hi, (len(boots[a][1]), len(boots[b][1])),
                           "bootstrap percentile interval of the difference (the deals of each game resampled "
                           "apart)", kind="proportion")
            out.append({"a": a, "b": b, "comparison": c.as_json(), "shown": c.shown,
                        "more_luck": (a if c.estimate > 0 else b) if c.shown else None})
    return out


def luck_groups(tests: list[dict], keys: list[str]) -> list[list[str]] | None:
    """The games in groups, the luckiest first, when the tests split them cleanly: every game of a group
    shown to be more luck than every game of each later group, and no difference shown within a group.
    None when the tests do not order the games that way (then say pair by pair what they show).

    >>> t = [{"a": "x", "b": "y", "shown": False, "more_luck": None},
    ...      {"a": "x", "b": "z", "shown": True, "more_luck": "x"},
    ...      {"a": "y", "b": "z", "shown": True, "more_luck": "y"}]
    >>> luck_groups(t, ["x", "y", "z"])
    [['x', 'y'], ['z']]
    """
    beats = {k: set() for k in keys}
    for t in tests:
        if t["shown"]:
            loser = t["b"] if t["more_luck"] == t["a"] else t["a"]
            beats[t["more_luck"]].add(loser)
    groups: list[list[str]] = []
    left = list(keys)
    while left:
        # the next group: the games nobody left beats
        top = [k for k in left if not any(k in beats[o] for o in left if o != k)]
        if not top:
            return None
        rest = [k for k in left if k not in top]
        if any(beats[a] & set(top) for a in top) or any(set(rest) - beats[a] for a in top):
            return None
        groups.append(top)
        left = rest
    return groups


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
                    progress: Callable[[str, int, int], None] | None = None, replace: bool = False) -> dict:
    """Play each house-rule column (``columns``: some of :data:`HOUSE_RULE_COLUMNS`, default all): its
    players' round robin once per value of its knob, on the same seeded deals.

    ``out`` is written after every value and resumes as :func:`run_ladder`'s does (a ladder's games in
    the same file are kept). ``progress(label,
    done, total)``, the label naming the column and the value.

    >>> HOUSE_RULE_COLUMNS["romme-opening"][1:3]  # the knob and its values
    ('opening_min', (30, 40, 50))
    """
    names = list(columns) if columns else list(HOUSE_RULE_COLUMNS)
    for name in names:
        if name not in HOUSE_RULE_COLUMNS:
            raise RuleConfigError(f"{name} is not a house-rule column: the columns are "
                                  f"{', '.join(HOUSE_RULE_COLUMNS)}.")
    data = _start(read_results(out, deals=deals, seed=seed, replace=replace), deals, seed, "columns")
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


class ResultsFileError(RuminoError, ValueError):
    """A results file that a run may not resume or write over (it names the file and what to do)."""


def read_results(out: Path | str | None, *, deals: int, seed: int, replace: bool = False) -> dict:
    """What a results file written before keeps for a run of ``deals`` deals and ``seed``: its whole
    contents (the ladder's games and the house-rule columns), or nothing when there is no file or
    ``replace`` is given. A file that is not one of these results, or holds other deals or another
    seed, is refused: nothing is lost without ``replace``.

    >>> read_results(None, deals=2, seed=1)
    {}
    """
    if out is None or replace or not Path(out).exists():
        return {}
    path = Path(out)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:  # ValueError: not JSON, or not UTF-8
        why = err.strerror if isinstance(err, OSError) and err.strerror else "it is not JSON"
        raise ResultsFileError(f"{path} cannot be read as the results of rumino ladder ({why}): give another "
                               f"--out, or --replace to write over it.") from None
    why = not_results(data)
    if why:
        raise ResultsFileError(f"{path} is not a results file of rumino ladder ({why}): give another --out, "
                               f"or --replace to write over it.")
    if data["deals"] != deals or data["seed"] != seed:
        raise ResultsFileError(f"{path} holds results of {data['deals']} deal{'s' if data['deals'] != 1 else ''} "
                               f"with seed {data['seed']}, and this run asks for {deals} with seed {seed}: give "
                               f"the same --games and --seed to resume it, another --out, or --replace to start "
                               f"it afresh.")
    return data


def _start(old: dict, deals: int, seed: int, part: str) -> dict:
    data = dict(old) if old else {"deals": deals, "seed": seed}
    data[part] = dict(data.get(part) or {})
    return data


def _is_int(x, low: int = 0) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= low


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _tournament_problem(t) -> str | None:
    """What a stored tournament lacks of what the ranking and its report read, or None."""
    if not isinstance(t, dict):
        return "a game's tournament is not an object"
    for key, kind in (("variant", str), ("players", list), ("deals", int), ("seed", int), ("table", int),
                      ("model", str), ("ratings_elo", dict), ("luck", dict)):
        if not isinstance(t.get(key), kind):
            return f"a tournament has no valid {key!r}"
    if not isinstance(t.get("win_rate", t.get("hand_wins")), dict):
        return "a tournament has no hands won"
    luck = t["luck"]
    if not (isinstance(luck.get("best"), str) and isinstance(luck.get("weakest"), str)
            and isinstance(luck.get("spread_elo"), list) and len(luck["spread_elo"]) == 3
            and all(_is_number(v) for v in luck["spread_elo"]) and isinstance(luck.get("against_best", {}), dict)
            and isinstance(luck.get("separated", []), list)):
        return "a tournament's luck figures are incomplete"
    return None


def _played_problem(entry, where: str) -> str | None:
    if not isinstance(entry, dict):
        return f"{where} is not an object"
    players = entry.get("players")
    if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)):
        return f"{where} has no list of players"
    if not (isinstance(entry.get("hands"), dict) and _is_number(entry.get("cpu_seconds"))
            and _is_number(entry.get("wall_seconds"))):
        return f"{where} lacks its hands or its times"
    why = _tournament_problem(entry.get("tournament"))
    return f"{where}: {why}" if why else None


def not_results(data: object) -> str | None:
    """Why ``data`` (a parsed JSON file) is not what :func:`run_ladder` or :func:`run_house_rules`
    writes, or None.

    >>> not_results([]), not_results({"deals": 2, "seed": 1, "games": {}})
    ('it holds a list, not the results object', None)
    """
    if not isinstance(data, dict):
        kind = {list: "a list", str: "a text", type(None): "null", bool: "true or false"}.get(type(data), "a number")
        return f"it holds {kind}, not the results object"
    if not _is_int(data.get("deals"), 1) or not _is_int(data.get("seed")):
        return "it has no whole numbers 'deals' and 'seed'"
    if "games" not in data and "columns" not in data:
        return "it has neither games nor house-rule columns"
    games = data.get("games", {})
    if not isinstance(games, dict):
        return "its 'games' is not an object"
    for key, entry in games.items():
        if key not in LADDERS:
            return f"its game {key!r} has no ladder"
        if not isinstance(entry, dict) or not isinstance(entry.get("left_out", {}), dict):
            return f"its game {key!r} is not an object"
        why = _played_problem(entry, f"its game {key!r}")
        if why:
            return why
    columns = data.get("columns", {})
    if not isinstance(columns, dict):
        return "its 'columns' is not an object"
    for name, column in columns.items():
        if name not in HOUSE_RULE_COLUMNS:
            return f"its column {name!r} is not a house-rule column"
        if not (isinstance(column, dict) and isinstance(column.get("variant"), str) and "default" in column
                and isinstance(column.get("knob"), str) and isinstance(column.get("values"), dict)):
            return f"its column {name!r} lacks its game, knob, default or values"
        for value, entry in column["values"].items():
            why = _played_problem(entry, f"its column {name!r} at {value}")
            if why:
                return why
    return None


def _write(path: Path, data: dict) -> None:
    part = path.with_name(path.name + ".part")
    try:
        part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(part, path)  # a ranking stopped mid-write leaves the last whole file
    except OSError as err:
        part.unlink(missing_ok=True)
        raise ResultsFileError(f"the results file {path} cannot be written ({err.strerror or err}).") from None


__all__ = ["HOUSE_RULE_COLUMNS", "LADDERS", "ResultsFileError", "deal_share_tests", "hands_against_best", "hands_json",
           "ladder_players", "luck_groups", "luck_tests", "not_results", "ranking", "read_results", "run_house_rules",
           "run_ladder", "spread_tests"]
