"""Strength matches: one player against another on seeded deals, kept in one file the book reads.

A *strength match* is a heads-up match of one game between a player ``a`` (the stronger, the
best player of the game) and a player ``b`` (greedy, a game's default bot, OpenSpiel's simple
bot at Gin): every seeded deal played twice with the seats swapped, exactly as
``rumino tournament`` plays a pair (the one seeding scheme, :func:`rumino.playing.seeding.new_table`),
so the same players and seed give the same hands. What it keeps, for ``a``:

* ``share``: the share of hands won, a tie counting half, with its Wilson 95% interval;
* ``points``: the mean points a hand (``a``'s gain minus ``b``'s, in the game's units), with a
  normal 95% interval over the deals (a deal's two hands are one duplicate pair, the independent unit);
* ``seconds_per_decision``: ``a``'s CPU seconds a decision (a decision with one legal action counts);
  ``cpu_seconds``: the match's (both players, every worker; ``a``'s alone where the command did not measure it);
* every hand: ``margins`` and ``scores``, one pair a deal (``a`` in seat 0, then in seat 1), from which
  the figures above are read again (:func:`figures_from_hands`) and the first deals replayed
  (:func:`replay_deal`) — so a change to a game or a player that would move the figures is caught.

The file (``book/data/family_strength.json``) is a JSON list of matches, read by :func:`read_matches`
and written by :func:`write_match` (a match replaces one with the same game, players, deals and seed).
``rumino strength`` is the command; a match against OpenSpiel's ``SimpleGinRummyBot`` is played by
:mod:`rumino.tournament.openspiel_gin` and kept here by :func:`match_from_openspiel`.

>>> m = play_match("gin", "greedy", "random", deals=2, seed=1)
>>> m.hands, m.share[0], [round(x, 1) for x in m.points][:1], m.scores
(4, 1.0, [67.0], [[1, 1], [1, 1]])
>>> m == match_from_json(m.as_json())
True
>>> replay_deal(m, 0) == (m.margins[0], m.scores[0])
True
"""

from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from rumino.engine.protocol import play
from rumino.engine.scoring import hand_ender, rank_seats
from rumino.errors import RuminoError
from rumino.playing.seeding import new_table
from rumino.stats import proportion_estimate
from rumino.tournament.hands import MAX_HAND_ACTIONS
from rumino.variants import find_variant

CHUNK = 5  # deals a job plays: small, so two workers share a slow game's deals evenly
Z95 = 1.959963984540054


class StrengthFileError(RuminoError, ValueError):
    """A strength file that cannot be read as a list of matches (the message names the file and why)."""


@dataclass(frozen=True)
class Match:
    """One strength match (see the module docstring); ``share`` and ``points`` are ``[estimate, low, high]``
    for ``a``, ``margins``/``scores`` one ``[a in seat 0, a in seat 1]`` pair a deal."""

    game: str
    a: str
    b: str
    deals: int
    hands: int
    share: list
    points: list
    seconds_per_decision: float
    seed: int
    command: str
    decisions: int = 0
    cpu_seconds: float = 0.0
    ties: int = 0
    rules: str = ""
    note: str = ""
    margins: list = field(default_factory=list, repr=False)
    scores: list = field(default_factory=list, repr=False)

    def as_json(self) -> dict:
        return asdict(self)

    def describe(self) -> str:
        """One line in words, as the command prints it.

        >>> Match("gin", "best", "greedy", 2, 4, [0.75, 0.3, 0.95], [3.5, -1.0, 8.0], 0.05, 1, "").describe()
        'Gin Rummy: best against greedy, 2 deals (4 hands, seed 1): best wins 75.0% [30.0, 95.0] of the hands, +3.50 points a hand [-1.00, +8.00], 0.050 s a decision'

        A game that scores the winner only (Robber Rummy by default) has no points to average, and a
        decision quicker than a millisecond is said so rather than printed as 0.000 s:

        >>> Match("robber", "greedy", "random", 2, 4, [1.0, 0.5, 1.0], [0.0, 0.0, 0.0], 0.0004, 1, "",
        ...       margins=[[0, 0], [0, 0]]).describe()
        'Robber Rummy: greedy against random, 2 deals (4 hands, seed 1): greedy wins 100.0% [50.0, 100.0] of the hands, no points are scored (the winner only), under a millisecond a decision'
        """
        s, lo, hi = self.share
        p, plo, phi = self.points
        if self.margins and all(x == 0 for pair in self.margins for x in pair):
            points = "no points are scored (the winner only)"
        else:
            points = f"{p:+.2f} points a hand [{plo:+.2f}, {phi:+.2f}]"
        pace = (f"{self.seconds_per_decision:.3f} s a decision" if self.seconds_per_decision >= 0.001
                else "under a millisecond a decision")
        return (f"{find_variant(self.game).title}: {self.a} against {self.b}, {self.deals:,} deals ({self.hands:,} hands, seed {self.seed}): "
                f"{self.a} wins {100 * s:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of the hands, {points}, {pace}")


def figures_from_hands(margins: Sequence[Sequence[float]], scores: Sequence[Sequence[float]]) -> tuple[list, list, int]:
    """``(share, points, ties)`` of ``a`` from its hands: the share of hands won (a tie ½) with its Wilson
    95% interval, the mean points a hand with a normal 95% interval over the deals, and the tied hands.

    >>> share, points, ties = figures_from_hands([[10, -4], [2, 0]], [[1, 0], [1, 0.5]])
    >>> [round(x, 3) for x in share], [round(x, 2) for x in points], ties
    ([0.625, 0.219, 0.908], [2.0, 0.04, 3.96], 1)
    """
    flat = [float(s) for pair in scores for s in pair]
    won = proportion_estimate(sum(flat), len(flat))
    per_deal = [(float(m1) + float(m2)) / 2 for m1, m2 in margins]
    n = len(per_deal)
    mean = math.fsum(per_deal) / n
    se = math.sqrt(math.fsum((x - mean) ** 2 for x in per_deal) / (n - 1) / n) if n > 1 else 0.0
    return ([won.value, won.lo, won.hi], [mean, mean - Z95 * se, mean + Z95 * se],
            sum(1 for s in flat if s == 0.5))


class _Timed:
    """A player whose decisions are counted and timed in CPU seconds (the match's ``a``)."""

    def __init__(self, player):
        self.player, self.seconds, self.decisions = player, 0.0, 0

    def choose(self, view):
        t = time.process_time()
        action = self.player.choose(view)
        self.seconds += time.process_time() - t
        self.decisions += 1
        return action


def _hand(game_key: str, specs: list[str], seed: int, index: int, timed_seat: int, rules: Any):
    """One hand of a tournament (as :func:`rumino.tournament.hands.play_hand` plays it) with one seat timed:
    ``(gains, ranking, seconds, decisions)``."""
    v = find_variant(game_key)
    game, players = new_table(v, specs, seed, index, rules=rules, dealer=len(specs) - 1)
    timed = _Timed(players[timed_seat])
    players[timed_seat] = timed
    before = list(game.scores)
    play(game, players, checked=False, until=lambda g: g.hand_over, max_actions=MAX_HAND_ACTIONS)
    sense = 1 if v.game.HIGHER_SCORE_WINS else -1
    gains = tuple(sense * (x - y) for x, y in zip(game.scores, before))
    return gains, rank_seats(gains, hand_ender(game.results[-1])), timed.seconds, timed.decisions


def _score(ranking, seat: int) -> float:
    if len(ranking) == 1:
        return 0.5
    return 1.0 if seat in ranking[0] else 0.0


def play_deal(game: str, a: str, b: str, seed: int, index: int, rules: Any = None) -> dict:
    """Deal ``index`` played twice, ``a`` in seat 0 and then in seat 1: ``a``'s margins and scores (the
    pair the file keeps), its CPU seconds and its decisions."""
    g1, r1, t1, d1 = _hand(game, [a, b], seed, index, 0, rules)
    g2, r2, t2, d2 = _hand(game, [b, a], seed, index, 1, rules)
    return {"index": index, "margins": [g1[0] - g1[1], g2[1] - g2[0]], "scores": [_score(r1, 0), _score(r2, 1)],
            "seconds": t1 + t2, "decisions": d1 + d2}


def _chunk(job) -> list[dict]:
    game, a, b, seed, start, stop, rules = job
    return [play_deal(game, a, b, seed, i, rules) for i in range(start, stop)]


def _number(x: float):
    """An int where the value is whole (the file stays short and exact)."""
    return int(x) if float(x).is_integer() else float(x)


def match_from_deals(game: str, a: str, b: str, seed: int, deals: Sequence[dict], command: str, *,
                     rules: str = "", note: str = "", cpu_seconds: float | None = None) -> Match:
    """The match of per-deal records (``margins``, ``scores``, ``seconds``, ``decisions``, ``index``), in
    any order."""
    recs = sorted(deals, key=lambda r: r["index"])
    margins = [[_number(m) for m in r["margins"]] for r in recs]
    scores = [[_number(s) for s in r["scores"]] for r in recs]
    share, points, ties = figures_from_hands(margins, scores)
    seconds = math.fsum(r["seconds"] for r in recs)
    decisions = sum(r["decisions"] for r in recs)
    return Match(game=find_variant(game).key, a=a, b=b, deals=len(recs), hands=2 * len(recs), share=share,
                 points=points, seconds_per_decision=seconds / decisions if decisions else 0.0, seed=int(seed),
                 command=command, decisions=decisions, cpu_seconds=seconds if cpu_seconds is None else cpu_seconds,
                 ties=ties, rules=rules, note=note, margins=margins, scores=scores)


def play_match(game: str, a: str, b: str, *, deals: int, seed: int, workers: int = 1, rules: Any = None,
               command: str = "", progress: Callable[[int, int], None] | None = None) -> Match:
    """``a`` against ``b`` on ``deals`` seeded deals, each twice with the seats swapped (module docstring).
    ``progress(done, deals)`` after each chunk of deals; the figures do not depend on ``workers``."""
    v = find_variant(game)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals is {deals!r}: a match needs at least one deal.")
    jobs = [(v.key, a, b, seed, s, min(s + CHUNK, deals), rules) for s in range(0, deals, CHUNK)]
    records: list[dict] = []
    done = 0
    if workers <= 1:
        for job in jobs:
            records += _chunk(job)
            done += job[5] - job[4]
            if progress:
                progress(done, deals)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_chunk, job): job[5] - job[4] for job in jobs}
            for f in as_completed(futures):
                records += f.result()
                done += futures[f]
                if progress:
                    progress(done, deals)
    return match_from_deals(v.key, a, b, seed, records, command or f"rumino strength --variant {v.key} "
                            f"--a {a} --b {b} --deals {deals} --seed {seed}")


def match_from_openspiel(records: Sequence[dict], *, a: str, b: str, seed: int, command: str,
                         cpu_seconds: float | None = None, note: str = "") -> Match:
    """The match of a Gin match against an OpenSpiel bot (the hand records of
    :func:`rumino.tournament.openspiel_gin.play_deal`), ``b`` naming the bot (with "openspiel" in it)."""
    by_deal: dict[int, dict] = {}
    for r in records:
        d = by_deal.setdefault(r["index"], {"index": r["index"], "margins": [0, 0], "scores": [0, 0],
                                            "seconds": 0.0, "decisions": 0})
        d["margins"][r["seat"]] = r["points"]
        d["scores"][r["seat"]] = r["outcome"]
        d["seconds"] += r["our_seconds"]
        d["decisions"] += r["our_decisions"]
    return match_from_deals("gin", a, b, seed, list(by_deal.values()), command,
                            rules="Gin, rules §6, with OpenSpiel's wall (wall_knock=True)", note=note,
                            cpu_seconds=cpu_seconds)


def replay_deal(match: Match, index: int) -> tuple[list, list]:
    """Deal ``index`` of ``match`` played again: ``(margins, scores)``, to compare with the file's."""
    if "openspiel" in match.b:
        from rumino.tournament.openspiel_gin import play_deal as openspiel_deal

        their = match.b.split("openspiel-", 1)[-1] if "openspiel-" in match.b else "simple"
        m = match_from_openspiel(openspiel_deal(match.a, their, match.seed, index), a=match.a, b=match.b,
                                 seed=match.seed, command="")
    else:
        m = match_from_deals(match.game, match.a, match.b, match.seed,
                             [play_deal(match.game, match.a, match.b, match.seed, index)], "")
    return m.margins[0], m.scores[0]


# --------------------------------------------------------------------------- the file

FIELDS = ("game", "a", "b", "deals", "hands", "share", "points", "seconds_per_decision", "seed", "command")


def match_from_json(data: dict) -> Match:
    """A match from its JSON object; a missing field or a figure that is not its hands' is refused."""
    missing = [k for k in FIELDS if k not in data]
    if missing:
        raise StrengthFileError(f"a match lacks {', '.join(missing)}: every match names " + ", ".join(FIELDS) + ".")
    known = {k: data[k] for k in Match.__dataclass_fields__ if k in data}
    m = Match(**known)
    if m.margins and (len(m.margins) != m.deals or len(m.scores) != m.deals or m.hands != 2 * m.deals):
        raise StrengthFileError(f"the match {m.game} {m.a} against {m.b} keeps {len(m.margins)} deals' hands "
                                f"but says {m.deals} deals and {m.hands} hands.")
    return m


def read_matches(path: str | os.PathLike) -> list[Match]:
    """Every match of a strength file (an empty list for a file not written yet)."""
    p = Path(path)
    if not p.exists():
        return []
    if not p.is_file():
        raise StrengthFileError(f"{p} is a folder or a device, not a strength file (a JSON list of matches).")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise StrengthFileError(f"{p} is not JSON: {err.msg} at line {err.lineno}.") from None
    except UnicodeDecodeError:
        raise StrengthFileError(f"{p} is not text: a strength file is JSON.") from None
    except OSError as err:
        raise StrengthFileError(f"{p} cannot be read ({(err.strerror or type(err).__name__).lower()}).") from None
    if not isinstance(data, list):
        raise StrengthFileError(f"{p} holds a {type(data).__name__}, not a list of matches.")
    return [match_from_json(item) for item in data]


def _same(m: Match, other: Match) -> bool:
    return (m.game, m.a, m.b, m.deals, m.seed, m.rules) == (other.game, other.a, other.b, other.deals,
                                                            other.seed, other.rules)


def write_match(path: str | os.PathLike, match: Match) -> list[Match]:
    """Add ``match`` to the file (replacing a match of the same game, players, deals, seed and rules),
    keeping the others in their order; returns the file's matches. The file is written whole, in one
    replace, so a reader never sees half of it."""
    p = Path(path)
    matches = read_matches(p)
    for i, m in enumerate(matches):
        if _same(m, match):
            matches[i] = match
            break
    else:
        matches.append(match)
    text = "[\n" + ",\n".join(_dump(m) for m in matches) + "\n]\n"
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)
    return matches


def _dump(m: Match) -> str:
    """One match as JSON: the figures first, one line each, then the hands one deal a line would be long;
    the hands go on two lines of their own."""
    data = m.as_json()
    head = {k: v for k, v in data.items() if k not in ("margins", "scores")}
    return ("  {" + json.dumps(head, ensure_ascii=False)[1:-1] + ",\n   \"margins\": "
            + json.dumps(data["margins"], separators=(",", ":")) + ",\n   \"scores\": "
            + json.dumps(data["scores"], separators=(",", ":")) + "}")


def find_match(matches: Sequence[Match], game: str, a: str | None = None, b: str | None = None) -> Match | None:
    """The last match of ``game`` (a variant name or key) with those players, or None."""
    key = find_variant(game).key
    hits = [m for m in matches if m.game == key and (a is None or m.a == a) and (b is None or m.b == b)]
    return hits[-1] if hits else None


__all__ = ["Match", "StrengthFileError", "play_match", "play_deal", "match_from_deals", "match_from_openspiel",
           "match_from_json", "figures_from_hands", "replay_deal", "read_matches", "write_match", "find_match"]
