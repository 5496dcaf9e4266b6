"""The house-rule atlas: what each house rule of each game changes, measured against the game's default.

Every knob of a game is set, one at a time, to each of its other values (:func:`values_for`), and the
game is played on the same seeded deals as its default rules. Deal ``i`` of an atlas seeded ``s`` is
played, under each set of rules,

* as a whole game with the game's baseline bot (greedy; Rummoli's default bot) in both seats: **hands a
  game**, **turns a hand** and **minutes a game** at the book's pace
  (:data:`~rumino.playing.game_length.PACE`);
* as one hand with the baseline in both seats: the **first seat's share** of the hand (won 1, tied ½:
  above ½ the player who plays first has the edge) and the **points or chips a hand** (the gap between
  the two seats' gains: what a hand is worth);
* as one hand of the baseline against the random player, twice, the seats swapped (duplicate play): the
  **baseline's share** of those hands (its edge over a player who chooses at random) and the **deal's
  share** of the variance of its margin (:mod:`rumino.tournament.duplicate`: how much the cards decide).

Every game is played heads-up (two seats: the seats can be swapped, and every game allows two), so a
rule that acts only at a larger table (a rebuy, a newcomer, the cards each with 5 or 6 players, two
claims for one discard) plays exactly as the default does, and its differences are 0 on every deal.

Two figures of one deal share its seed, so every difference from the default is *paired* on the deals:
the t interval of the per-deal differences (hands, minutes, shares, points), the delta method on the
paired deals for turns a hand (a ratio of totals), and a bootstrap of the deals, drawn once for the
whole atlas, for the deal's share. Each difference is ``{"estimate", "ci95", "shown", ...}``
(:class:`~rumino.stats.Comparison`); shown means its interval leaves out 0 and its test agrees.

The baseline against itself is played once a deal: with the same bot in both seats, swapping them deals
each bot the same cards again. "Shown" is each comparison's own test at the 95% level; an atlas makes
over a thousand of them, so a reader's summary should adjust for that (Holm, within a game) or say it.

Not measured, each with its reason in the file: a knob whose rules allow one value only (Rumino's ace and
longest meld, Wiener's out-at), a value the game's rules refuse beside its other defaults, and a value
under which the baseline's game does not end (:class:`EndlessGame`: Knock Rummy with a knock limit of 0).

A value whose every deal counted exactly as the default's is marked ``"same_play": true``: nothing these
figures measure changed on any deal (a game bonus scores the end of a game, not its length or its hands;
a rebuy never comes into play at two seats).

Every deal's counts are kept in the results file (``"rows"``, :data:`ROW`), so the figures are read
again from them, a run resumes value by value (:func:`run_atlas`), and a test replays the first deals.

>>> values_for(knob_row("gin", "knock_max_deadwood"))  # the low end, half and twice the default
[0, 5, 20]
>>> values_for(knob_row("gin", "undercut_bonus"))  # a knob with choices: every other choice
[10, 20]
>>> atlas = run_atlas(games=["gin"], knobs={"gin": {"wall_knock": [True]}}, deals=2, seed=1)
>>> value = atlas["games"]["gin"]["knobs"]["wall_knock"]["values"]["True"]
>>> value["deals"], sorted(value["differences"]) == sorted(FIGURES)
(2, True)
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from rumino.engine.knobs import knob_table
from rumino.errors import RuleConfigError, RuminoError
from rumino.playing.game_length import PACE, GameCount, play_counted, ratio_estimate
from rumino.playing.seeding import new_table
from rumino.stats import ALPHA, Comparison, Estimate, mean_estimate, paired_mean_difference, proportion_estimate
from rumino.tournament.hands import play_hand
from rumino.tournament.run import _score
from rumino.variants import VARIANTS, Variant, find_variant, playable_variants

FORMAT = 1  # the results file's layout; a file of another layout is refused, not read wrongly
CHUNK = 10  # deals a job plays (the figures do not depend on it, nor on the workers)
BOOTSTRAP = 1000  # resamples of the deals behind the deal's share's difference
AGAINST = "random"  # the baseline's opponent for its edge and the deal's share
MIN_DEALS = 2  # a paired interval needs two deals

ROW = GameCount.COLUMNS + ("first_score2", "first_margin", "margin_seat0", "margin_seat1", "score2_seat0",
                           "score2_seat1")
"""One deal's counts, in a results file's ``"rows"``: the whole game's :class:`GameCount`; the baseline
against itself over one hand: the first seat's score doubled (0 lost, 1 tied, 2 won) and its gain less
the other seat's; the baseline against random over one hand in each seating: the baseline's gain less
random's and its score doubled, with the baseline in seat 0 and in seat 1."""

FIGURES = {
    "hands_a_game": "hands a game",
    "turns_a_hand": "turns a hand",
    "minutes_a_game": "minutes a game",
    "deal_share": "the deal's share",
    "first_seat_share": "first player's hands",
    "baseline_share": "the baseline's hands against random",
    "points_a_hand": "points or chips a hand",
}
"""Each figure of the atlas, in a card player's words (the baseline is named on screen)."""

PROPORTIONS = ("deal_share", "first_seat_share", "baseline_share")  # shown as percentages

VALUES_RULE = ("a knob with choices: each choice other than the default; a numeric knob: the low end of its "
               "range, half the default and twice the default, rounded and kept in the range (a default of 0 "
               "or unlimited: the low end, a tenth and a quarter of the range's top), the default left out")
"""How the atlas chooses a knob's values (:func:`values_for`), in words."""


# --------------------------------------------------------------------------- the knobs and their values


def knob_row(game: str | Variant, name: str) -> dict:
    """The knob ``name`` of ``game`` as :func:`~rumino.engine.knobs.knob_table` gives it.

    >>> knob_row("gin", "game_to")["label"]
    'Game to'
    """
    v = find_variant(game)
    for row in knob_table(v.rules_class):
        if row["name"] == name:
            return row
    raise RuleConfigError(f"{v.title} has no rule {name!r}.")


def values_for(row: dict) -> list:
    """The values the atlas measures a knob at, besides its default (:data:`VALUES_RULE`).

    >>> values_for(knob_row("knock-rummy", "knock_max_deadwood"))  # unlimited by default
    [0, 10, 25]
    >>> values_for(knob_row("rumino", "gin_bonus")), values_for(knob_row("rumino", "max_lay_size"))
    ([-100, -5, -20], [])
    """
    default = row["default"]
    if row["choices"] is not None:
        return [c for c in row["choices"] if not (c == default and type(c) is type(default))]
    lo, hi = row["low"], row["high"]
    if default is None or default == 0:
        top = hi if hi is not None else 100
        wanted = [lo, round(top / 10), round(top / 4)]
    else:
        wanted = [lo, int(default / 2), 2 * default]  # int(): half of -5 is -2, toward the default
    out = []
    for x in wanted:
        if x is None:
            continue
        x = max(lo, x) if lo is not None else x
        x = min(hi, x) if hi is not None else x
        if x != default and x not in out:
            out.append(x)
    return out


def value_key(value: Any) -> str:
    """A value as the results file keys it (and as ``--knobs KNOB=VALUE`` reads it back).

    >>> value_key(None), value_key(True), value_key(20), value_key("void_hand")
    ('none', 'True', '20', 'void_hand')
    """
    return "none" if value is None else str(value)


# --------------------------------------------------------------------------- playing the deals


def play_deal(key: str, rules: Any, bot: str, seed: int, index: int) -> list:
    """Deal ``index`` of an atlas seeded ``seed`` under ``rules``, as :data:`ROW` counts it.

    >>> row = play_deal("gin", find_variant("gin").rules, "greedy", 1, 0)
    >>> len(row) == len(ROW), row[ROW.index("first_score2")] in (0, 1, 2)
    (True, True)
    """
    try:
        game, players = new_table(key, [bot, bot], seed, index, rules=rules)
        count = play_counted(game, players).as_row()
        first = play_hand(key, [bot, bot], seed, index, rules=rules)
        a = play_hand(key, [bot, AGAINST], seed, index, rules=rules)
        b = play_hand(key, [AGAINST, bot], seed, index, rules=rules)
    except RuntimeError as err:  # the engine's guard against a game that goes on for ever
        if "did not end within" not in str(err):
            raise
        raise EndlessGame(f"a game of the {bot} bot under it did not end: deal {index} of seed {seed} went past "
                          f"{str(err).split('within ', 1)[1].rstrip('.')}, so nothing is measured") from None
    return count + [int(2 * _score(first, 0)), first.gains[0] - first.gains[1],
                    a.gains[0] - a.gains[1], b.gains[1] - b.gains[0],
                    int(2 * _score(a, 0)), int(2 * _score(b, 1))]


class EndlessGame(RuminoError):
    """A deal whose game (or hand) under some rules did not end: the baseline bots can play it for ever
    (Knock Rummy with a knock limit of 0, the discards reshuffled: nobody goes rummy)."""


def _chunk(job) -> tuple[list | None, float, str | None]:
    """A job: some deals of one set of rules; returns their rows (None if a game did not end), the CPU
    seconds they took, and why a game did not end."""
    key, rules, bot, seed, start, size = job
    cpu = time.process_time()
    try:
        rows = [play_deal(key, rules, bot, seed, i) for i in range(start, start + size)]
    except EndlessGame as err:
        return None, time.process_time() - cpu, str(err)
    return rows, time.process_time() - cpu, None


# --------------------------------------------------------------------------- the figures


def _columns(rows: list) -> dict[str, np.ndarray]:
    a = np.asarray(rows, dtype=float)
    return {name: a[:, k] for k, name in enumerate(ROW)}


def _minutes(rows: list) -> list[float]:
    return [PACE.seconds(GameCount(*r[:len(GameCount.COLUMNS)])) / 60 for r in rows]


def _per_deal(rows: list) -> dict[str, np.ndarray]:
    """Each figure that is a mean over deals, deal by deal."""
    c = _columns(rows)
    return {"hands_a_game": c["hands"], "minutes_a_game": np.asarray(_minutes(rows)),
            "first_seat_share": c["first_score2"] / 2,
            "baseline_share": (c["score2_seat0"] + c["score2_seat1"]) / 4,
            "points_a_hand": np.abs(c["first_margin"])}


def _share(y1: np.ndarray, y2: np.ndarray) -> np.ndarray:
    """The deal's share ``Var d / (Var s + Var d)`` along the last axis (NaN where nothing varies)."""
    d, s = (y1 - y2) / 2, (y1 + y2) / 2
    vd, vs = d.var(axis=-1), s.var(axis=-1)
    total = vd + vs
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, vd / np.where(total > 0, total, 1), np.nan)


def _resamples(seed: int, deals: int) -> np.ndarray:
    """The bootstrap's resamples of the deals: drawn once from the atlas's seed, the same for every
    knob, so a difference does not depend on the order the values were played in."""
    return np.random.default_rng([int(seed), 36]).integers(0, deals, (BOOTSTRAP, deals))


def figures(rows: list, seed: int) -> dict:
    """The figures of one set of rules' deals, each an estimate with its 95% interval (JSON).

    >>> f = figures([play_deal("gin", find_variant("gin").rules, "greedy", 1, i) for i in range(2)], 1)
    >>> sorted(f) == sorted(FIGURES), f["hands_a_game"]["n"]
    (True, 2)
    """
    c = _columns(rows)
    n = len(rows)
    per = _per_deal(rows)
    out: dict[str, Any] = {
        "hands_a_game": mean_estimate(per["hands_a_game"], seed=seed),
        "turns_a_hand": ratio_estimate(c["turns"], c["hands"], seed=seed),
        "minutes_a_game": mean_estimate(per["minutes_a_game"], seed=seed),
        "first_seat_share": proportion_estimate(float(per["first_seat_share"].sum()), n, seed=seed),
        "baseline_share": proportion_estimate(float((c["score2_seat0"] + c["score2_seat1"]).sum() / 2), 2 * n,
                                              seed=seed),
        "points_a_hand": mean_estimate(per["points_a_hand"], seed=seed)}
    out = {k: e.as_json() for k, e in out.items()}
    y1, y2 = c["margin_seat0"], c["margin_seat1"]
    share = float(_share(y1, y2))
    if math.isnan(share):
        out["deal_share"] = None  # no margin varies (Robber Rummy without scoring: no points change hands)
    else:
        boots = _share(y1[_resamples(seed, n)], y2[_resamples(seed, n)])
        lo, hi = _percentiles(boots, (0.0, 1.0))
        out["deal_share"] = Estimate(share, lo, hi, n, seed, "bootstrap").as_json()
    return {k: out[k] for k in FIGURES}


def _percentiles(boots: np.ndarray, widest: tuple[float, float]) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap values; ``widest`` (nothing learned) where no resample had
    any variance (a handful of deals that all drew the same one).

    >>> _percentiles(np.array([np.nan, np.nan]), (0.0, 1.0))
    (0.0, 1.0)
    """
    kept = boots[~np.isnan(boots)]
    if kept.size == 0:
        return widest
    lo, hi = np.percentile(kept, [2.5, 97.5])
    return float(lo), float(hi)


def _difference_json(c: Comparison) -> dict:
    out = c.as_json()
    out["shown"] = c.shown
    return out


def differences(rows: list, default_rows: list, seed: int) -> dict:
    """Each figure of ``rows`` less the default's, paired on the same deals (see the module docstring);
    ``None`` where the figure is not measured (the deal's share of a game in which no margin varies).

    >>> base = [play_deal("gin", find_variant("gin").rules, "greedy", 1, i) for i in range(3)]
    >>> d = differences(base, base, 1)
    >>> d["hands_a_game"]["estimate"], d["hands_a_game"]["ci95"], d["hands_a_game"]["shown"]
    (0.0, [0.0, 0.0], False)
    """
    from scipy.stats import t as student

    if len(rows) != len(default_rows):
        raise RuminoError(f"a difference needs the same deals: {len(rows)} against {len(default_rows)}.")
    n = len(rows)
    a, b = _per_deal(rows), _per_deal(default_rows)
    out: dict[str, Any] = {}
    for name in ("hands_a_game", "minutes_a_game", "first_seat_share", "baseline_share", "points_a_hand"):
        c = dataclasses.replace(paired_mean_difference((a[name] - b[name]).tolist()),
                                kind="proportion" if name in PROPORTIONS else "mean")
        if c.lo == c.hi and c.estimate != 0:  # every deal moved by the same amount: the t-test says p = 0 at
            # any n; the exact sign test says how unlikely n deals all on one side are (4 deals: p = 1/8)
            c = dataclasses.replace(c, p_value=min(1.0, 2.0 ** (1 - n)),
                                    test="exact sign test (every deal gave the same difference)")
        out[name] = _difference_json(c)
    # turns a hand, a ratio of totals: the delta method on each deal's pair of influences
    ca, cb = _columns(rows), _columns(default_rows)
    ra, rb = ca["turns"].sum() / ca["hands"].sum(), cb["turns"].sum() / cb["hands"].sum()
    u = (ca["turns"] - ra * ca["hands"]) / ca["hands"].mean() - (cb["turns"] - rb * cb["hands"]) / cb["hands"].mean()
    se = float(u.std(ddof=1) / math.sqrt(n))
    est = float(ra - rb)
    method = "delta-method t interval on the paired deals (a ratio of totals)"
    if se == 0:
        c = Comparison(est, est, est, n, method, p_value=1.0 if est == 0 else 0.0, test="paired t-test",
                       kind="mean", paired=True)
    else:
        q = float(student.ppf(1 - ALPHA / 2, n - 1))
        c = Comparison(est, est - q * se, est + q * se, n, method,
                       p_value=float(2 * student.sf(abs(est) / se, n - 1)), test="paired t-test", kind="mean",
                       paired=True)
    out["turns_a_hand"] = _difference_json(c)
    # the deal's share: the same bootstrap resamples of the deals for both sets of rules
    sa, sb = float(_share(ca["margin_seat0"], ca["margin_seat1"])), float(_share(cb["margin_seat0"],
                                                                                  cb["margin_seat1"]))
    if math.isnan(sa) or math.isnan(sb):
        out["deal_share"] = None
    else:
        idx = _resamples(seed, n)
        boots = (_share(ca["margin_seat0"][idx], ca["margin_seat1"][idx])
                 - _share(cb["margin_seat0"][idx], cb["margin_seat1"][idx]))
        lo, hi = _percentiles(boots, (-1.0, 1.0))
        out["deal_share"] = _difference_json(Comparison(
            sa - sb, lo, hi, n, "paired bootstrap percentile interval (the deals resampled together)",
            kind="proportion", paired=True))
    return {k: out[k] for k in FIGURES}


# --------------------------------------------------------------------------- the plan and the run


@dataclasses.dataclass(frozen=True)
class Task:
    """One set of rules to play: a game's default (``knob`` None) or one knob at one value."""

    game: str
    knob: str | None
    value: Any = None

    @property
    def label(self) -> str:
        return self.game if self.knob is None else f"{self.game} {self.knob}={value_key(self.value)}"


def settings(deals: int, seed: int) -> dict:
    """What a results file must share with a run to be resumed by it."""
    return {"deals": deals, "seed": seed, "baseline": {k: v.bot for k, v in playable_variants().items()},
            "against": AGAINST, "seats": 2, "pace": PACE.as_json(), "values_rule": VALUES_RULE}


def plan(games: Sequence[str] | None = None, knobs: dict[str, dict[str, list | None]] | None = None) -> dict:
    """What to measure: ``{game: {knob: [values] or {"skipped": why}}}``.

    ``knobs``: for each game, the knobs to measure and their values (None: :func:`values_for`'s);
    without it every knob of every game in ``games`` (default: every playable game). A knob with one
    allowed value is skipped with the reason; a value the game's rules refuse beside the other defaults
    is left out (:func:`run_atlas` records why).

    >>> plan(["gin"])["gin"]["wall_knock"], plan(["rumino"])["rumino"]["ace"]
    ([True], {'skipped': 'the rules allow this one value only (low only): there is nothing else to set it to'})
    """
    keys = [find_variant(g).key for g in games] if games else list(playable_variants())
    out: dict = {}
    for key in keys:
        v = find_variant(key)
        wanted = (knobs or {}).get(key) if knobs is not None else None
        if knobs is not None and wanted is None:
            continue
        rows = {r["name"]: r for r in knob_table(v.rules_class)}
        out[key] = {}
        for name, row in rows.items():
            if wanted is not None and name not in wanted:
                continue
            given = wanted.get(name) if wanted is not None else None
            values = list(given) if given is not None else values_for(row)
            if not values and row["choices"] is not None and len(row["choices"]) == 1:
                from rumino.engine.knobs import value_words

                out[key][name] = {"skipped": f"the rules allow this one value only ({value_words(row, row['default'])}): "
                                                      f"there is nothing else to set it to"}
            elif not values:
                out[key][name] = {"skipped": "no value other than the default was given"}
            else:
                out[key][name] = values
    return out


class AtlasFileError(RuminoError, ValueError):
    """A results file the atlas may not resume or write over (it names the file and what to do)."""


def not_atlas(data: object) -> str | None:
    """Why ``data`` (a parsed JSON file) is not a results file of the atlas, or None.

    >>> not_atlas([]), not_atlas({"atlas": 1, "settings": {"deals": 2}, "games": {}})
    ('it holds a list, not the atlas object', None)
    """
    if not isinstance(data, dict):
        return f"it holds {'a list' if isinstance(data, list) else 'no object'}, not the atlas object"
    if data.get("atlas") != FORMAT:
        return "it has no atlas layout mark" if "atlas" not in data else f"its layout is {data['atlas']!r}, not {FORMAT}"
    if not isinstance(data.get("settings"), dict) or not isinstance(data.get("games"), dict):
        return "it has no settings or no games"
    deals = data["settings"].get("deals")
    for key, game in data["games"].items():
        if key not in playable_variants() or not isinstance(game, dict) or not isinstance(game.get("knobs"), dict) \
                or not isinstance(game.get("baseline"), str):
            return f"its game {key!r} is not one the atlas measures"
        names = {r["name"] for r in knob_table(find_variant(key).rules_class)}
        entries = [game.get("default")]
        for name, knob in game["knobs"].items():
            if name not in names or not isinstance(knob, dict) or not isinstance(knob.get("values", {}), dict):
                return f"its game {key!r} holds {name!r}, which is not one of its rules"
            for entry in knob.get("values", {}).values():
                if not (isinstance(entry, dict) and "value" in entry):
                    return f"its rule {name!r} of {key!r} holds a value without its setting"
                entries.append(entry)
        for entry in entries:
            if entry is None:
                continue
            if not isinstance(entry, dict) or isinstance(entry.get("cpu_seconds", 0.0), bool) \
                    or not isinstance(entry.get("cpu_seconds", 0.0), (int, float)):
                return f"its game {key!r} holds a set of rules without its CPU seconds"
            if isinstance(entry.get("skipped"), str):
                continue
            if not (isinstance(entry, dict) and isinstance(entry.get("rows"), list) and len(entry["rows"]) == deals
                    and all(isinstance(r, list) and len(r) == len(ROW)
                            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in r)
                            for r in entry["rows"])):
                return f"its game {key!r} holds a set of rules without its deals' counts"
    return None


def read_atlas(path: Path | None, deals: int, seed: int) -> dict | None:
    """The results file at ``path`` to resume, None if there is none; refused (:class:`AtlasFileError`)
    if it is not the atlas's or was written with other settings."""
    if path is None or not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else "it is not JSON"
        raise AtlasFileError(f"{path} cannot be read as a house-rule atlas ({why}): move it away or give "
                             f"another --out.") from None
    why = not_atlas(data)
    if why:
        raise AtlasFileError(f"{path} is not a results file of rumino atlas ({why}): move it away or give "
                             f"another --out.")
    mine = settings(deals, seed)
    other = [k for k in mine if data["settings"].get(k) != mine[k]]
    if other:
        said = {"deals": f"{data['settings'].get('deals')} deals", "seed": f"seed {data['settings'].get('seed')}",
                "baseline": "other baseline players", "against": "another opponent", "seats": "another table",
                "pace": "another pace", "values_rule": "another choice of values"}
        words = ", ".join(said[k] for k in other)
        raise AtlasFileError(f"{path} holds an atlas of {words}, and this run asks for {deals} deals with seed "
                             f"{seed}: give its settings to resume it, or another --out.")
    return data


def _in_order(data: dict) -> None:
    """The games in the registry's order and each game's knobs in its rules' order, whatever order they
    were played or resumed in (a reader of the file finds them as the book lists them)."""
    games = data["games"]
    data["games"] = {k: games[k] for k in VARIANTS if k in games}
    for key, game in data["games"].items():
        order = [r["name"] for r in knob_table(find_variant(key).rules_class)]
        game["knobs"] = {n: game["knobs"][n] for n in order if n in game["knobs"]}


def _write(path: Path, data: dict) -> None:
    _in_order(data)
    part = path.with_name(path.name + ".part")
    try:
        part.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(part, path)  # a run stopped mid-write leaves the last whole file
    except OSError as err:
        part.unlink(missing_ok=True)
        raise AtlasFileError(f"the atlas {path} cannot be written ({err.strerror or err}).") from None


def _forget_figures(game: dict) -> None:
    values = [v for k in game["knobs"].values() for v in (k.get("values") or {}).values()]
    for entry in [game.get("default") or {}] + values:
        for derived in ("figures", "differences", "same_play"):
            entry.pop(derived, None)


def refigure(data: dict) -> None:
    """Read every figure and difference of an atlas again from its deals' rows (what a resumed results file
    holds was computed by the version that wrote it; a second or two for a whole atlas)."""
    for game in data["games"].values():
        _forget_figures(game)
        _summarise(game, data["settings"]["seed"])


def _summarise(game: dict, seed: int) -> None:
    """Fill in the figures and differences of every value whose deals are in and whose default's are."""
    base = game.get("default")
    if base is not None and "figures" not in base:
        base["figures"] = figures(base["rows"], seed)
    for knob in game["knobs"].values():
        for entry in (knob.get("values") or {}).values():
            if "rows" in entry and "figures" not in entry:
                entry["figures"] = figures(entry["rows"], seed)
            if "rows" in entry and "differences" not in entry and base is not None:
                entry["differences"] = differences(entry["rows"], base["rows"], seed)
                # every deal counted alike: nothing measured here changed (see the module docstring)
                entry["same_play"] = entry["rows"] == base["rows"]


def run_atlas(*, games: Sequence[str] | None = None, knobs: dict | None = None, deals: int = 200, seed: int = 1,
              out: Path | None = None, executor: Executor | None = None,
              progress: Callable[[int, int], None] | None = None, command: str = "") -> dict:
    """Measure the knobs of :func:`plan` ``(games, knobs)`` against each game's default on ``deals`` seeded
    deals, and return the atlas (the results file's JSON).

    ``out``: the results file, written whenever a value's deals are all in; an atlas there with the same
    settings is resumed (only what it lacks is played; the figures are those of one uninterrupted run),
    any other file is refused before any play (:func:`read_atlas`). ``executor``: a process pool or a Dask
    client's executor (None: this process). ``progress(done, total)`` after each chunk of deals.
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < MIN_DEALS:
        raise RuleConfigError(f"deals is {deals!r}: a paired difference needs at least {MIN_DEALS} deals.")
    todo = plan(games, knobs)
    out = Path(out) if out is not None else None
    data = read_atlas(out, deals, seed) or {"atlas": FORMAT, "settings": settings(deals, seed), "run": {},
                                            "games": {}}
    run = data.setdefault("run", {})
    if command:
        run["command"] = command
    tasks: list[tuple[Task, Any]] = []
    for key, knob_values in todo.items():
        v = find_variant(key)
        game = data["games"].setdefault(key, {"title": v.title, "baseline": v.bot, "default": None, "knobs": {}})
        if game.get("default") is None:
            tasks.append((Task(key, None), v.rules))
        for name, values in knob_values.items():
            row = knob_row(v, name)
            entry = game["knobs"].setdefault(name, {"label": row["label"], "section": row["section"],
                                                    "default": row["default"], "values": {}})
            if isinstance(values, dict):  # skipped, with its reason
                entry.update(values)
                entry.pop("values", None)
                continue
            entry.pop("skipped", None)
            entry.setdefault("values", {})
            for value in values:
                done = entry["values"].get(value_key(value))
                if done is not None and ("rows" in done or "skipped" in done):
                    continue
                try:
                    rules = v.with_rules(**{name: value})
                except RuleConfigError as err:  # refused beside the other defaults: say why, play nothing
                    entry["values"][value_key(value)] = {"value": value, "skipped": str(err).splitlines()[0]}
                    continue
                tasks.append((Task(key, name, value), rules))
    refigure(data)  # a resumed file's figures are this version's
    starts = list(range(0, deals, CHUNK))
    jobs = [(k, (t.game, rules, find_variant(t.game).bot, seed, s, min(CHUNK, deals - s)))
            for k, (t, rules) in enumerate(tasks) for s in starts]
    pieces: dict[int, dict[int, tuple]] = {k: {} for k in range(len(tasks))}
    total = len(jobs)

    def landed(k: int, start: int, got: tuple) -> None:
        pieces[k][start] = got
        if len(pieces[k]) < len(starts):
            return
        task = tasks[k][0]
        cpu = round(sum(pieces[k][s][1] for s in starts), 3)
        endless = next((pieces[k][s][2] for s in starts if pieces[k][s][0] is None), None)
        game = data["games"][task.game]
        if endless is not None and task.knob is None:
            raise RuminoError(f"{find_variant(task.game).title}'s default rules: {endless}.")
        if endless is not None:
            game["knobs"][task.knob]["values"][value_key(task.value)] = {"value": task.value, "deals": deals,
                                                                        "cpu_seconds": cpu, "skipped": endless}
        else:
            rows = [r for s in starts for r in pieces[k][s][0]]
            if task.knob is None:
                game["default"] = {"deals": deals, "cpu_seconds": cpu, "rows": rows}
            else:
                game["knobs"][task.knob]["values"][value_key(task.value)] = {"value": task.value, "deals": deals,
                                                                            "cpu_seconds": cpu, "rows": rows}
        _summarise(game, seed)
        run["cpu_seconds"] = round(_cpu_total(data), 1)
        if out is not None:
            _write(out, data)
        del pieces[k]

    if executor is None:
        for done, (k, job) in enumerate(jobs, start=1):
            landed(k, job[4], _chunk(job))
            if progress is not None:
                progress(done, total)
    else:
        from concurrent.futures import as_completed

        futures = {executor.submit(_chunk, job): (k, job[4]) for k, job in jobs}
        for done, fut in enumerate(as_completed(futures), start=1):
            k, start = futures[fut]
            landed(k, start, fut.result())
            if progress is not None:
                progress(done, total)
    for key in todo:
        _summarise(data["games"][key], seed)
    run["cpu_seconds"] = round(_cpu_total(data), 1)
    if out is not None:
        _write(out, data)
    return data


def _cpu_total(data: dict) -> float:
    """The CPU seconds of every set of rules played (in this run or the ones it resumed)."""
    total = 0.0
    for game in data["games"].values():
        total += (game.get("default") or {}).get("cpu_seconds", 0.0)
        for knob in game["knobs"].values():
            total += sum(v.get("cpu_seconds", 0.0) for v in (knob.get("values") or {}).values())
    return total


__all__ = ["AGAINST", "AtlasFileError", "EndlessGame", "FIGURES", "ROW", "Task", "VALUES_RULE", "differences", "figures", "knob_row",
           "not_atlas", "play_deal", "plan", "read_atlas", "refigure", "run_atlas", "settings", "value_key", "values_for"]
