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
:mod:`rumino.tournament.openspiel_gin` (:func:`play_openspiel_match`) and kept here by
:func:`match_from_openspiel`.

A match is resumable (:class:`Journal`): while it is played, each chunk of deals is appended, one deal
a line, to a journal beside the file (:func:`journal_path`: ``<file>.unfinished/<game>-<a>-<b>-seed<seed>-
<deals>deals.jsonl``), whose first line holds the match's settings (:func:`match_settings`: the game,
its house rules, the players and their settings, the deals, the seed). A match cut short is resumed from
it (:func:`open_journal`): the deals kept are not played again, and since a deal's hands depend only on
the players, the rules, the seed and its number, the figures are those of an uninterrupted run, on any
number of workers. A journal of other settings is refused, not used; its first deal is played again
before it is trusted (:func:`check_journal`); a last line cut short is dropped and its deal replayed.

>>> m = play_match("gin", "greedy", "random", deals=2, seed=1)
>>> m.hands, m.share[0], [round(x, 1) for x in m.points][:1], m.scores
(4, 1.0, [67.0], [[1, 1], [1, 1]])
>>> m == match_from_json(m.as_json())
True
>>> replay_deal(m, 0) == (m.margins[0], m.scores[0])
True

The same match with a journal; opened again, it keeps both deals, and the match resumed from it plays
none of them again:

>>> import tempfile
>>> path = journal_path(tempfile.mkdtemp() + "/strength.json", "gin", "greedy", "random", 1, 2)
>>> settings = match_settings("gin", "greedy", "random", deals=2, seed=1)
>>> j = open_journal(path, settings).begin()
>>> play_match("gin", "greedy", "random", deals=2, seed=1, journal=j).scores == m.scores
True
>>> j.close()
>>> again = open_journal(path, settings).begin()
>>> sorted(again.kept), play_match("gin", "greedy", "random", deals=2, seed=1, journal=again).margins == m.margins
([0, 1], True)
>>> again.finish()
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import time
from concurrent.futures import as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from rumino.console import worker_pool
from rumino.engine.protocol import play
from rumino.engine.scoring import hand_ender, rank_seats
from rumino.errors import RuminoError
from rumino.players import make_player
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


def _play_chunk(job) -> list[dict]:
    """The deals ``indices`` played by ``deal(*args, index, **kwargs)``, each with the CPU seconds it took
    (``cpu``: both players and the engine, in the process that played it)."""
    deal, args, kwargs, indices = job
    records = []
    for i in indices:
        t = time.process_time()
        record = deal(*args, i, **kwargs)
        record["cpu"] = round(time.process_time() - t, 4)
        records.append(record)
    return records


def _play_deals(deal: Callable, args: tuple, kwargs: dict, deals: int, *, workers: int,
                journal: "Journal | None", progress: Callable[[int, int], None] | None) -> list[dict]:
    """Every deal of a match not kept in ``journal``, in chunks of :data:`CHUNK`, each chunk added to the
    journal as it finishes; returns the records of all ``deals`` (the kept ones and the new)."""
    kept = dict(journal.kept) if journal is not None else {}
    missing = [i for i in range(deals) if i not in kept]
    jobs = [(deal, args, kwargs, missing[k:k + CHUNK]) for k in range(0, len(missing), CHUNK)]
    records = list(kept.values())
    if progress and kept:
        progress(len(records), deals)  # the bar starts at the deals already played

    def finished(chunk: list[dict]) -> None:
        if journal is not None:
            journal.add(chunk)
        records.extend(chunk)
        if progress:
            progress(len(records), deals)

    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            finished(_play_chunk(job))
    else:
        with worker_pool(workers) as pool:  # a Ctrl-C stops the workers quietly; the journal keeps what finished
            for f in as_completed([pool.submit(_play_chunk, job) for job in jobs]):
                finished(f.result())
    return records


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


def _check_deals(deals) -> None:
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals is {deals!r}: a match needs at least one deal.")


def play_match(game: str, a: str, b: str, *, deals: int, seed: int, workers: int = 1, rules: Any = None,
               command: str = "", progress: Callable[[int, int], None] | None = None,
               journal: "Journal | None" = None) -> Match:
    """``a`` against ``b`` on ``deals`` seeded deals, each twice with the seats swapped (module docstring).
    ``progress(done, deals)`` after each chunk of deals; the figures do not depend on ``workers``.

    With a ``journal`` (:func:`open_journal`, :meth:`Journal.begin` called), the deals it keeps are not
    played again and every chunk played is added to it as it finishes: a match cut short resumes.
    """
    v = find_variant(game)
    _check_deals(deals)
    records = _play_deals(play_deal, (v.key, a, b, seed), {"rules": rules}, deals, workers=workers,
                          journal=journal, progress=progress)
    return match_from_deals(v.key, a, b, seed, records, command or f"rumino strength --variant {v.key} "
                            f"--a {a} --b {b} --deals {deals} --seed {seed}")


def _openspiel_deals(records: Sequence[dict]) -> list[dict]:
    """The hand records of :func:`rumino.tournament.openspiel_gin.play_deal` as deal records."""
    by_deal: dict[int, dict] = {}
    for r in records:
        d = by_deal.setdefault(r["index"], {"index": r["index"], "margins": [0, 0], "scores": [0, 0],
                                            "seconds": 0.0, "decisions": 0})
        d["margins"][r["seat"]] = r["points"]
        d["scores"][r["seat"]] = r["outcome"]
        d["seconds"] += r["our_seconds"]
        d["decisions"] += r["our_decisions"]
    return list(by_deal.values())


OPENSPIEL_RULES = "Gin, rules §6, with OpenSpiel's wall (wall_knock=True)"
"""The ``rules`` a match against an OpenSpiel bot keeps (:mod:`rumino.tournament.openspiel_gin`)."""


def match_from_openspiel(records: Sequence[dict], *, a: str, b: str, seed: int, command: str,
                         cpu_seconds: float | None = None, note: str = "") -> Match:
    """The match of a Gin match against an OpenSpiel bot (the hand records of
    :func:`rumino.tournament.openspiel_gin.play_deal`), ``b`` naming the bot (with "openspiel" in it)."""
    return match_from_deals("gin", a, b, seed, _openspiel_deals(records), command, rules=OPENSPIEL_RULES,
                            note=note, cpu_seconds=cpu_seconds)


def openspiel_deal(a: str, their: str, seed: int, index: int) -> dict:
    """Deal ``index`` of a Gin match of ``a`` against OpenSpiel's bot ``their`` (``"simple"``): its deal
    record, as :func:`play_deal` gives one (OpenSpiel needed)."""
    from rumino.tournament.openspiel_gin import play_deal as openspiel_hands

    return _openspiel_deals(openspiel_hands(a, their, seed, index))[0]


def play_openspiel_match(a: str, their: str, name: str, *, deals: int, seed: int, workers: int = 1,
                         command: str = "", progress: Callable[[int, int], None] | None = None,
                         journal: "Journal | None" = None) -> Match:
    """``a`` against OpenSpiel's bot ``their`` (``"simple"``), named ``name`` in the file, on ``deals``
    seeded Gin deals, each twice with the seats swapped; resumable from a ``journal`` as
    :func:`play_match` is."""
    _check_deals(deals)
    records = _play_deals(openspiel_deal, (a, their, seed), {}, deals, workers=workers, journal=journal,
                          progress=progress)
    return match_from_deals("gin", a, name, seed, records, command, rules=OPENSPIEL_RULES)


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


# --------------------------------------------------------------------------- a match in progress

JOURNAL_FOLDER_SUFFIX = ".unfinished"
JOURNAL_MARK = "rumino strength: the deals of a match in progress, one a line after this one"


class JournalError(RuminoError, ValueError):
    """A journal that a match may not resume from or write over (the message names the file, what is
    wrong and what to do)."""


def journal_path(out: str | os.PathLike, game: str, a: str, b: str, seed: int, deals: int) -> Path:
    """Where the deals of a match in progress are kept: a folder beside the strength file ``out``, one
    file a match (its game, players, seed and deals in its name).

    >>> journal_path("book/data/family_strength.json", "gin", "search:5000", "greedy", 7, 1000).as_posix()
    'book/data/family_strength.json.unfinished/gin-search_5000-greedy-seed7-1000deals.jsonl'
    """
    def safe(text) -> str:
        return re.sub(r"[^A-Za-z0-9.-]+", "_", str(text)).strip("._") or "_"

    return (Path(str(out) + JOURNAL_FOLDER_SUFFIX)
            / f"{safe(find_variant(game).key)}-{safe(a)}-{safe(b)}-seed{seed}-{deals}deals.jsonl")


def _plain(value):
    """``value`` as JSON reads it back (tuples as lists, anything else JSON lacks as its text)."""
    return json.loads(json.dumps(value, default=str))


def player_settings(spec: str, game: str) -> dict:
    """What decides how the player ``spec`` plays ``game``, besides its seed: its kind, its settings and,
    for a search, its rollouts a decision. A journal keeps them, so that a player changed since (a new
    budget, a new opponent model) is not mixed into a match it began.

    >>> player_settings("search:200", "gin")["budget"], player_settings("greedy", "gin")["kind"]
    (200, 'GreedyPlayer')
    """
    player = make_player(spec, seed=0)
    out: dict[str, Any] = {"kind": type(player).__name__}
    for key, value in sorted(vars(player).items()):
        if key.startswith("_") or key in ("name", "decisions", "spent", "last"):  # its name and its counters
            continue
        if value is None or isinstance(value, (bool, int, float, str)):
            out[key] = value
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            out[key] = _plain(asdict(value))
    budget = getattr(player, "budget_for", None)
    if callable(budget):
        out["budget"] = budget(find_variant(game).game)
    return out


def house_rules(rules: Any) -> dict:
    """Every house rule of ``rules`` (a game's rules, or a mapping of them) by its name, as JSON keeps it."""
    if dataclasses.is_dataclass(rules) and not isinstance(rules, type):
        return {f.name: _plain(getattr(rules, f.name)) for f in dataclasses.fields(rules)}
    return {str(k): _plain(v) for k, v in dict(rules).items()}


def match_settings(game: str, a: str, b: str, *, deals: int, seed: int, rules: Any = None, label: str = "",
                   b_settings: dict | None = None) -> dict:
    """What a match's deals depend on, as its journal keeps them: the game, its house rules (``rules``, or
    the game's own) and ``label`` (the file's ``rules``), the players and their settings, the deals and
    the seed. ``b_settings``: the opponent's, where it is not one of ours (OpenSpiel's bot)."""
    v = find_variant(game)
    return {"game": v.key, "a": a, "b": b, "deals": deals, "seed": seed, "rules": label,
            "house_rules": house_rules(v.rules if rules is None else rules),
            "players": {"a": player_settings(a, v.key),
                        "b": b_settings if b_settings is not None else player_settings(b, v.key)}}


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _deal_problem(record, deals: int) -> str | None:
    """Why a journal's line is not a deal record of a match of ``deals`` deals, or None."""
    def number(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    if not isinstance(record, dict):
        return "it is not a deal"
    i = record.get("index")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < deals:
        return f"it names no deal from 1 to {deals:,}"
    margins, scores = record.get("margins"), record.get("scores")
    if not (isinstance(margins, list) and len(margins) == 2 and all(number(m) for m in margins)):
        return "its points are not two numbers"
    if not (isinstance(scores, list) and len(scores) == 2 and all(number(x) and x in (0, 0.5, 1) for x in scores)):
        return "its hands won are not two of 0, ½ and 1"
    if not (number(record.get("seconds")) and record["seconds"] >= 0 and number(record.get("cpu", 0))
            and not isinstance(record.get("decisions"), bool) and isinstance(record.get("decisions"), int)
            and record["decisions"] >= 0):
        return "its times or decisions are not counts"
    return None


def _settings_differ(old: dict, new: dict) -> str | None:
    """What a journal's settings ``old`` have that this match's ``new`` have not, in a player's words."""
    match_keys = ("game", "a", "b", "deals", "seed")
    if any(old.get(k) != new[k] for k in match_keys):
        try:
            title = find_variant(str(old.get("game"))).title
        except RuminoError:
            title = str(old.get("game"))
        return (f"it holds the deals of another match ({title}, {old.get('a')} against {old.get('b')}, "
                f"{old.get('deals')} deals, seed {old.get('seed')})")
    if old.get("rules") != new["rules"] or old.get("house_rules") != new["house_rules"]:
        theirs, ours = old.get("house_rules") or {}, new["house_rules"]
        changed = sorted(k for k in set(theirs) | set(ours) if theirs.get(k) != ours.get(k))
        words = []
        try:
            from rumino.compare.matrix import house_rule_words

            v = find_variant(new["game"])
            for k in changed[:3]:
                then = house_rule_words(v, k, theirs[k]) if k in theirs else "no such rule"
                words.append(f"{then} then, {house_rule_words(v, k, ours[k]) if k in ours else 'no such rule'} now")
        except (LookupError, ValueError, TypeError, StopIteration, RuminoError):
            words = []  # a rule this version cannot put in words (one it no longer has): say only that they differ
        return "it was played with other house rules" + (f" ({'; '.join(words)})" if words else "")
    for seat in ("a", "b"):
        if (old.get("players") or {}).get(seat) != new["players"][seat]:
            return f"it was played by another version of {new[seat]} (the player has changed since)"
    return None


@dataclass
class Journal:
    """The deals of a match in progress, kept in a file: a first line of the match's settings
    (:func:`match_settings`), then one deal a line (:func:`play_deal`'s record and its CPU seconds),
    appended as each chunk of deals finishes. Made by :func:`open_journal`; :meth:`begin` before the
    match, :meth:`add` as it goes (:func:`play_match` does both), :meth:`finish` once the match is in
    the strength file."""

    path: Path
    settings: dict
    kept: dict = field(default_factory=dict)  # {deal index: its record}, the deals already played
    command: str = ""
    end: int = 0  # bytes of the file that are kept (whole lines): a torn last line beyond is cut off
    fresh: bool = True  # no journal yet (or one discarded): the settings line is written first
    torn: bool = False  # a last line cut short was dropped (its deal is played again)
    _fd: int | None = field(default=None, repr=False)

    @property
    def cpu_seconds(self) -> float:
        """The CPU seconds the kept deals took when they were played."""
        return math.fsum(r.get("cpu", 0.0) for r in self.kept.values())

    def begin(self) -> "Journal":
        """Open the file for the deals to come (its folder made, a torn last line cut off, the settings
        written first in a new one); raises OSError where nothing can be written."""
        self.path.parent.mkdir(exist_ok=True)
        if self.fresh:
            head = {"journal": JOURNAL_MARK, "settings": self.settings, "command": self.command}
            self.path.write_text(json.dumps(head, ensure_ascii=False) + "\n", encoding="utf-8")
            self.fresh = False
        elif self.path.stat().st_size > self.end:
            os.truncate(self.path, self.end)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        return self

    def add(self, records: Sequence[dict]) -> None:
        """Append one line a deal, in one write (a killed process leaves whole lines, or one torn last)."""
        text = "".join(json.dumps(r, separators=(",", ":"), default=_number_of) + "\n" for r in records)
        if self._fd is None:
            raise RuntimeError("the journal is not begun (Journal.begin)")
        os.write(self._fd, text.encode("utf-8"))
        os.fsync(self._fd)
        for r in records:
            self.kept[r["index"]] = r

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def finish(self) -> None:
        """The match is in the strength file: the journal is removed (its folder too, when empty)."""
        self.close()
        self.path.unlink(missing_ok=True)
        try:
            self.path.parent.rmdir()
        except OSError:  # other matches in progress are kept there
            pass


def _number_of(x):
    """A numpy number as JSON writes a Python one."""
    if hasattr(x, "item"):
        return x.item()
    raise TypeError(f"{type(x).__name__} is not a number")


def open_journal(path: str | os.PathLike, settings: dict, *, command: str = "", restart: bool = False) -> Journal:
    """The journal of a match at ``path``, read (nothing is written): the deals it keeps, or none for a new
    one. ``restart`` discards a journal there (at :meth:`Journal.begin`), unread.

    Refused (:class:`JournalError`, naming the file, what differs and what to do): a journal of other
    settings (another match, other house rules, a player changed since), a file that is no journal, a
    damaged line before the last. A last line cut short (the process killed while writing it) is
    dropped and its deal played again.

    >>> import tempfile
    >>> path = journal_path(tempfile.mkdtemp() + "/s.json", "gin", "greedy", "random", 1, 3)
    >>> j = open_journal(path, match_settings("gin", "greedy", "random", deals=3, seed=1))
    >>> j.fresh, j.kept
    (True, {})
    """
    p = Path(path)
    j = Journal(p, settings, command=command)
    if p.exists() and not p.is_file():
        raise JournalError(f"{p} is a folder or a device, not the deals of a match in progress: move it away.")
    if restart or not p.exists():
        return j
    redo = "--restart discards it and plays the match afresh, or move it away to keep it"
    try:
        data = p.read_bytes()
    except OSError as err:
        raise JournalError(f"{p} cannot be read ({(err.strerror or type(err).__name__).lower()}): {redo}.") from None
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" after a whole last line; else a line cut short
    j.torn = bool(tail)
    if not lines:  # at most a settings line cut short
        if data and not data.startswith(b'{"journal"'):
            raise JournalError(f"{p} is not the deals of a match in progress of rumino strength: {redo}.")
        return j
    try:
        head = json.loads(lines[0])
    except ValueError:
        head = None
    if not (isinstance(head, dict) and head.get("journal") == JOURNAL_MARK and isinstance(head.get("settings"), dict)):
        raise JournalError(f"{p} is not the deals of a match in progress of rumino strength: {redo}.")
    why = _settings_differ(head["settings"], settings)
    if why:
        raise JournalError(f"{p}: {why}; {redo}.")
    j.fresh, j.command = False, str(head.get("command") or command)
    offset = len(lines[0]) + 1
    for n, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        why = _deal_problem(record, settings["deals"]) if record is not None else "it is not JSON"
        if why is None and record["index"] in j.kept:
            old = j.kept[record["index"]]
            if (old["margins"], old["scores"]) != (record["margins"], record["scores"]):
                why = f"it gives deal {record['index'] + 1} other hands than line {old['_line']} does"
        if why is not None:
            if n == len(lines) and not j.torn:  # the last line: cut short, not damaged
                j.torn = True
                break
            raise JournalError(f"{p}: line {n} is damaged ({why}); {redo}.")
        record["_line"] = n
        j.kept.setdefault(record["index"], record)
        offset += len(line) + 1
    j.end = offset
    for record in j.kept.values():
        del record["_line"]
    return j


def check_journal(journal: Journal, deal: Callable[[int], dict]) -> int | None:
    """Play the first deal the journal keeps again (``deal(index)`` gives its record) and refuse the
    journal (:class:`JournalError`) if its hands are not the ones kept: the players or the rules have
    changed in a way its settings do not show. Returns the index played again, or None (no deal kept)."""
    if not journal.kept:
        return None
    i = min(journal.kept)
    kept, again = journal.kept[i], deal(i)
    if ([_number(x) for x in kept["margins"]], [_number(x) for x in kept["scores"]]) != \
            ([_number(x) for x in again["margins"]], [_number(x) for x in again["scores"]]):
        raise JournalError(f"{journal.path}: its deal {i + 1}, played again, gives other hands than it keeps (the "
                           f"players or the rules have changed since it was written); --restart discards it and "
                           f"plays the match afresh, or move it away to keep it.")
    return i


def unfinished_matches(out: str | os.PathLike) -> list[tuple[Path, dict | None, int]]:
    """The journals beside the strength file ``out``: ``(path, settings line or None if unreadable,
    deals kept)``, for ``rumino strength --list``."""
    folder = Path(str(out) + JOURNAL_FOLDER_SUFFIX)
    found = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        try:
            lines = path.read_bytes().split(b"\n")
            head = json.loads(lines[0])
        except (OSError, ValueError):
            head, lines = None, []
        settings = head.get("settings") if isinstance(head, dict) and head.get("journal") == JOURNAL_MARK else None
        if not (isinstance(settings, dict) and all(k in settings for k in ("game", "a", "b", "deals", "seed"))):
            head = None
        kept = set()
        for line in lines[1:]:
            try:
                kept.add(json.loads(line)["index"])
            except (ValueError, KeyError, TypeError):
                pass
        found.append((path, head, len(kept)))
    return found


__all__ = ["Match", "StrengthFileError", "play_match", "play_deal", "match_from_deals", "match_from_openspiel",
           "play_openspiel_match", "openspiel_deal", "match_from_json", "figures_from_hands", "replay_deal",
           "read_matches", "write_match", "find_match", "Journal", "JournalError", "journal_path",
           "match_settings", "player_settings", "open_journal", "check_journal", "unfinished_matches"]
