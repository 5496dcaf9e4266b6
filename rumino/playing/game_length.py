"""How long a game lasts: hands a game, turns a hand and a game, decisions a turn, and minutes at the table.

Seeded games of a game's default rules are played by its baseline bots (each game's own
default bot: greedy; Rummoli's default), and every action is watched. From the counts each
game leaves (:class:`GameCount`), :class:`GameLength` reads

* **hands a game**, **turns a game** and **turns a hand** (a *turn* is one player's unbroken run
  of actions within a hand: a draw and a discard, a draw, melds and a discard, a placement on
  the table, a stop played, a bid);
* **decisions a turn** (the actions a player chose among two or more legal ones) and **options
  a decision** (how many legal actions such a choice had; in Robber Rummy the engine lists the
  placements it finds, so there it is a lower bound);
* **minutes a game** at a stated pace (:class:`TablePace`): each turn's seconds by what it held,
  and each hand's shuffle, deal and count.

Every figure is an :class:`~rumino.stats.Estimate` with its 95% interval over the games (a mean
over games, or a ratio of totals with its delta-method interval, the game being the independent
unit). The counts are kept game by game, so the minutes can be read again at another pace
without playing again, and two measurements on the same seeds (a house rule against the
default: game ``i`` is dealt the same cards) compare game by game
(:func:`length_difference`, paired).

Game ``i`` of a measurement seeded ``s`` is the one seeding scheme's
(:func:`rumino.playing.seeding.new_table`), so any game can be replayed alone.

>>> m = measure_length("gin", 2, games=3, seed=1)
>>> m.games, m.players, m.bots
(3, 2, ('greedy', 'greedy'))
>>> m.rows[0].hands == measure_length("gin", 2, games=1, seed=1).rows[0].hands
True
>>> abs(m.minutes_per_game().value - sum(PACE.seconds(r) for r in m.rows) / 60 / 3) < 1e-9
True
"""

from __future__ import annotations

import dataclasses
import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rumino.errors import RuleConfigError
from rumino.playing.seeding import new_table
from rumino.stats import Z95, Comparison, Estimate, mean_estimate, mean_difference, paired_mean_difference
from rumino.variants import Variant, find_variant

if TYPE_CHECKING:
    from rumino.engine.protocol import Game

CHUNK = 10  # games a job plays (a process pool or a Dask cluster runs the jobs; the figures do not change)
MAX_GAME_ACTIONS = 2_000_000  # a guard: no game of the baseline bots comes near it


# --------------------------------------------------------------------------- the pace


def riffles_for(pack_size: int) -> int:
    """Riffle shuffles that mix a pack: 7 for one deck of 52 (Bayer and Diaconis 1992, "Trailing the
    dovetail shuffle to its lair"), and, since their cut-off grows like (3/2)·log₂ n, that many more for a
    larger pack: 9 for two decks.

    >>> riffles_for(52), riffles_for(104), riffles_for(110)
    (7, 9, 9)
    """
    if pack_size <= 54:  # one deck with its jokers
        return 7
    return 7 + math.ceil(1.5 * math.log2(pack_size / 52))


@dataclass(frozen=True, kw_only=True)
class TablePace:
    """The seconds the things a table does take: the book's pace, a relaxed home table (estimates).

    * ``turn`` (8 s): a turn that draws or discards: look at the upcard, draw, sort the card in,
      choose and throw a discard. Timed by hand at an unhurried table: five to ten seconds.
    * ``short_turn`` (2 s): a turn that neither draws nor discards: a stop played in Rummoli, a bid, a
      pass, a claim (the cards played are counted on top, by ``card_laid``).
    * ``card_laid`` (2 s): each card laid from the hand on the table (a meld, a lay-off, a placement,
      a stop).
    * ``card_moved`` (4 s): each card of the table moved to another meld (Robber Rummy's
      rearrangements, a joker exchanged): the slow part of a Robber turn. Rummikub, Robber Rummy's
      tile cousin, gives a player one minute a turn by its official rules: a bound, not a pace.
    * ``riffle`` (4 s): one riffle shuffle, squared up; a hand needs :func:`riffles_for` of them.
    * ``card_dealt`` (1 s): each card dealt (the widow and an upcard included).
    * ``count`` (15 s): each player's hand laid out, counted and written down at the end of a hand.

    Every parameter is a keyword: ``TablePace(turn=12)`` is a slower table. The minutes scale with
    them, so a table twice as slow in every respect takes twice the minutes.

    >>> TablePace().hand_seconds(pack_size=52, dealt=21, players=2)
    79.0
    """

    turn: float = 8.0
    short_turn: float = 2.0
    card_laid: float = 2.0
    card_moved: float = 4.0
    riffle: float = 4.0
    card_dealt: float = 1.0
    count: float = 15.0

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 3600:
                raise RuleConfigError(f"the pace's {f.name} is {value!r}: it must be a number of seconds from 0 "
                                      f"to 3600.")

    def hand_seconds(self, *, pack_size: int, dealt: int, players: int) -> float:
        """A hand's shuffle, deal and count (its turns are counted apart)."""
        return riffles_for(pack_size) * self.riffle + dealt * self.card_dealt + players * self.count

    def seconds(self, row: "GameCount") -> float:
        """A whole game's seconds at this pace."""
        return (row.full_turns * self.turn + (row.turns - row.full_turns) * self.short_turn
                + row.cards_laid * self.card_laid + row.cards_moved * self.card_moved
                + row.riffles * self.riffle + row.cards_dealt * self.card_dealt + row.player_hands * self.count)

    def as_json(self) -> dict:
        return dataclasses.asdict(self)

    def words(self) -> str:
        """The pace in a sentence."""
        return (f"{self.turn:g} s a turn that draws or discards, {self.short_turn:g} s one that does neither "
                f"(a stop, a bid), {self.card_laid:g} s a card laid on the table, {self.card_moved:g} s a table "
                f"card moved, {self.riffle:g} s a riffle (7 for one deck, 9 for two), {self.card_dealt:g} s a card "
                f"dealt and {self.count:g} s a player's count at the end of a hand")


PACE = TablePace()
"""The book's pace (see :class:`TablePace`)."""


# --------------------------------------------------------------------------- one game's counts


@dataclass(frozen=True)
class GameCount:
    """What one game of a measurement counted (all whole numbers)."""

    hands: int
    turns: int
    full_turns: int  # turns that drew or discarded
    cards_laid: int
    cards_moved: int
    cards_dealt: int
    riffles: int
    player_hands: int  # a hand's players, summed over the hands (each counts at the end)
    decisions: int  # actions chosen among two or more legal ones
    options: int  # the legal actions of those decisions, summed

    COLUMNS = ("hands", "turns", "full_turns", "cards_laid", "cards_moved", "cards_dealt", "riffles",
               "player_hands", "decisions", "options")

    def as_row(self) -> list[int]:
        return [getattr(self, c) for c in self.COLUMNS]


def _cards_of(melds) -> list[tuple]:
    return [tuple(sorted(m.cards)) for m in melds]


def _moved(before: list[tuple], after: list[tuple]) -> int:
    """Cards of the table that left their meld: those of every meld before the turn that no meld after
    it contains whole (a meld laid off to still holds its cards; a meld split or robbed does not)."""
    if before == after:
        return 0
    from collections import Counter

    whole = [Counter(m) for m in after]
    moved = 0
    for meld in before:
        need = Counter(meld)
        if not any(all(w[c] >= k for c, k in need.items()) for w in whole):
            moved += len(meld)
    return moved


def _pack_size(game) -> int:
    return sum(len(h) for h in game.hands) + sum(len(c) for c in game.cards_outside_hands())


def _dealt(game) -> int:
    """Cards dealt to start this hand: the pack less the stock left (a game without a stock deals all)."""
    stock = getattr(game, "stock", None)
    return _pack_size(game) - (len(stock) if stock is not None else 0)


def play_counted(game: Game, players: Sequence) -> GameCount:
    """Play ``game`` to its end with ``players`` (by seat), counting what :class:`GameCount` holds.

    The loop is the one game loop's (:func:`rumino.engine.protocol.play`), written out to read the
    legal actions the players themselves were offered (each bot's view, computed once)."""
    hands = turns = full = laid = moved = dealt = riffles = player_hands = decisions = options = 0
    apply, view = game.apply_unchecked, game.view
    has_table = hasattr(game, "table")
    actions = 0
    while not game.game_over:
        # a hand: from its deal to its end
        hands += 1
        pack = _pack_size(game)
        dealt += _dealt(game)
        riffles += riffles_for(pack)
        player_hands += sum(1 for h in game.hands if h) or len(game.hands)
        run_seat, run = None, None

        def close(run):
            nonlocal turns, full, laid, moved
            if run is None:
                return
            turns += 1
            full += run["full"]
            laid += run["laid"]
            if has_table:
                moved += _moved(run["table"], _cards_of(game.table))

        while not game.hand_over:
            seat = game.to_act
            if seat != run_seat:
                close(run)
                run_seat = seat
                run = {"full": False, "laid": 0, "table": _cards_of(game.table) if has_table else None}
            v = view(seat)
            action = players[seat].choose(v)
            legal = v.legal_actions
            # a move the engine's list does not hold (a Robber rearrangement the player found) is a
            # choice too: one more option than the list
            n_legal = len(legal) if action in legal else len(legal) + 1
            if n_legal >= 2:
                decisions += 1
                options += n_legal
            size = len(game.hands[seat])
            apply(action)
            actions += 1
            grew = len(game.hands[seat]) - size
            discards = bool(getattr(action, "discards_card", False))
            if grew > 0 or discards:
                run["full"] = True
            run["laid"] += max(0, -grew - (1 if discards else 0))
            if actions > MAX_GAME_ACTIONS:
                raise RuntimeError(f"a game did not end within {MAX_GAME_ACTIONS:,} actions.")
        close(run)
        # between hands: the deal of the next hand, rebuys, buy-backs (no turns of a hand)
        while game.hand_over and not game.game_over:
            seat = game.to_act
            apply(players[seat].choose(view(seat)))
            actions += 1
    return GameCount(hands, turns, full, laid, moved, dealt, riffles, player_hands, decisions, options)


# --------------------------------------------------------------------------- a measurement


def ratio_estimate(numerators: Sequence[float], denominators: Sequence[float], seed: int | None = None) -> Estimate:
    """``Σ numerators / Σ denominators`` (turns a hand: all turns over all hands) with the delta-method
    interval over the units (the games): ``se² = Σ (y − R·x)² / (n (n − 1) x̄²)``.

    >>> e = ratio_estimate([10, 20, 30], [1, 2, 3])
    >>> e.value, e.lo, e.hi
    (10.0, 10.0, 10.0)
    """
    ys, xs = [float(v) for v in numerators], [float(v) for v in denominators]
    n = len(xs)
    if n == 0 or sum(xs) <= 0:
        raise ValueError("a ratio needs at least one unit with a positive denominator.")
    r = math.fsum(ys) / math.fsum(xs)
    if n == 1:
        return Estimate(r, r, r, 1, seed, "ratio", se=0.0)
    xbar = math.fsum(xs) / n
    se = math.sqrt(math.fsum((y - r * x) ** 2 for y, x in zip(ys, xs)) / (n * (n - 1)) / (xbar * xbar))
    return Estimate(r, r - Z95 * se, r + Z95 * se, n, seed, "ratio", se=se)


@dataclass
class GameLength:
    """The counts of ``games`` seeded games of ``variant`` at ``players`` seats, and what they say."""

    variant: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    rules: dict  # the house rules that differ from the game's defaults
    rows: list[GameCount] = field(default_factory=list)
    pace: TablePace = PACE

    def _col(self, name: str) -> list[int]:
        return [getattr(r, name) for r in self.rows]

    def hands_per_game(self) -> Estimate:
        return mean_estimate(self._col("hands"), seed=self.seed)

    def turns_per_game(self) -> Estimate:
        return mean_estimate(self._col("turns"), seed=self.seed)

    def turns_per_hand(self) -> Estimate:
        return ratio_estimate(self._col("turns"), self._col("hands"), seed=self.seed)

    def decisions_per_turn(self) -> Estimate:
        return ratio_estimate(self._col("decisions"), self._col("turns"), seed=self.seed)

    def options_per_decision(self) -> Estimate:
        return ratio_estimate(self._col("options"), self._col("decisions"), seed=self.seed)

    def minutes(self, pace: TablePace | None = None) -> list[float]:
        """Each game's minutes at ``pace`` (default: this measurement's)."""
        p = pace or self.pace
        return [p.seconds(r) / 60 for r in self.rows]

    def minutes_per_game(self, pace: TablePace | None = None) -> Estimate:
        """Minutes a game at ``pace``, with the interval of the games' spread (the pace itself is taken
        as given: a slower table scales every minute)."""
        return mean_estimate(self.minutes(pace), seed=self.seed)

    def figures(self, pace: TablePace | None = None) -> dict[str, Estimate]:
        """Every figure by name."""
        return {"hands_per_game": self.hands_per_game(), "turns_per_hand": self.turns_per_hand(),
                "turns_per_game": self.turns_per_game(), "minutes_per_game": self.minutes_per_game(pace),
                "decisions_per_turn": self.decisions_per_turn(), "options_per_decision": self.options_per_decision()}

    def as_json(self) -> dict:
        return {"variant": self.variant, "players": self.players, "bots": list(self.bots), "games": self.games,
                "seed": self.seed, "rules": self.rules, "pace": self.pace.as_json(),
                "figures": {k: e.as_json() for k, e in self.figures().items()},
                "columns": list(GameCount.COLUMNS), "rows": [r.as_row() for r in self.rows]}

    @classmethod
    def from_json(cls, d: dict) -> "GameLength":
        """A measurement :meth:`as_json` wrote (the book's results file), its figures read again."""
        cols = d["columns"]
        rows = [GameCount(**dict(zip(cols, r))) for r in d["rows"]]
        return cls(d["variant"], d["players"], tuple(d["bots"]), d["games"], d["seed"], dict(d["rules"]), rows,
                   TablePace(**d["pace"]))


FIGURE_WORDS = {
    "hands_per_game": "hands a game",
    "turns_per_hand": "turns a hand",
    "turns_per_game": "turns a game",
    "minutes_per_game": "minutes a game",
    "decisions_per_turn": "decisions a turn",
    "options_per_decision": "choices a decision",
}
"""Each figure of :meth:`GameLength.figures` in a card player's words."""


def baseline_bots(variant: str | Variant, players: int) -> tuple[str, ...]:
    """The game's own default bot in every seat (greedy; Rummoli's default).

    >>> baseline_bots("rummoli", 3), baseline_bots("gin", 2)
    (('default', 'default', 'default'), ('greedy', 'greedy'))
    """
    return (find_variant(variant).bot,) * players


def player_counts(variant: str | Variant, wanted: Sequence[int] = (2, 3, 4)) -> list[int]:
    """The table sizes of ``wanted`` the game allows.

    >>> player_counts("gin"), player_counts("robber")
    ([2], [2, 3, 4])
    """
    v = find_variant(variant)
    lo, hi = v.players
    return [n for n in wanted if lo <= n <= hi]


def _chunk(job) -> list[list[int]]:
    key, rules, bots, seed, start, size = job
    out = []
    for i in range(start, start + size):
        game, players = new_table(key, list(bots), seed, i, rules=rules)
        out.append(play_counted(game, players).as_row())
    return out


def measure_length(variant: str | Variant, players: int = 2, *, games: int = 200, seed: int = 0, rules: Any = None,
                   bots: Sequence[str] | None = None, pace: TablePace = PACE, executor: Executor | None = None,
                   progress: Callable[[int, int], None] | None = None) -> GameLength:
    """Play ``games`` seeded games of ``variant`` at ``players`` seats (the baseline bots unless ``bots``)
    and count them (see the module docstring). ``rules``: house rules (default: the game's defaults).
    ``executor`` runs the chunks elsewhere (a process pool, a Dask client's executor): the counts do not
    change. ``progress(done, total)`` after each chunk of games.
    """
    v = find_variant(variant)
    if v.game is None:
        raise RuleConfigError(f"{v.title} has no playable engine: its length cannot be measured.")
    if isinstance(players, bool) or not isinstance(players, int) or players not in range(v.players[0], v.players[1] + 1):
        raise RuleConfigError(f"players is {players!r}: {v.title} is for {v.players[0]} to {v.players[1]} players.")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RuleConfigError(f"games is {games!r}: it must be a whole number of at least 1.")
    specs = tuple(bots) if bots is not None else baseline_bots(v, players)
    if len(specs) != players:
        raise RuleConfigError(f"{len(specs)} bots for {players} seats: give one bot a seat.")
    rules = v.rules if rules is None else rules
    changed = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
               if getattr(rules, f.name) != getattr(v.rules, f.name)}
    starts = list(range(0, games, CHUNK))
    jobs = [(v.key, rules, specs, seed, s, min(CHUNK, games - s)) for s in starts]
    results: list = [None] * len(jobs)
    if executor is None:
        for k, job in enumerate(jobs):
            results[k] = _chunk(job)
            if progress is not None:
                progress(k + 1, len(jobs))
    else:
        futures = {executor.submit(_chunk, job): k for k, job in enumerate(jobs)}
        from concurrent.futures import as_completed

        for done, fut in enumerate(as_completed(futures), start=1):
            results[futures[fut]] = fut.result()
            if progress is not None:
                progress(done, len(jobs))
    rows = [GameCount(*r) for chunk in results for r in chunk]
    return GameLength(v.key, players, specs, games, int(seed), changed, rows, pace)


def length_difference(a: GameLength, b: GameLength, figure: str = "minutes_per_game",
                      pace: TablePace | None = None) -> Comparison:
    """``a − b`` of one figure (``"minutes_per_game"``, ``"hands_per_game"`` or ``"turns_per_game"``):
    game by game when both measured the same seeded games at the same table (a house rule against the
    default on the same deals: :func:`~rumino.stats.paired_mean_difference`), otherwise as two
    independent means (:func:`~rumino.stats.mean_difference`).

    >>> d = length_difference(measure_length("gin", games=4, seed=2), measure_length("gin", games=4, seed=2))
    >>> d.estimate, d.paired
    (0.0, True)
    """
    per_game = {"minutes_per_game": lambda m: m.minutes(pace), "hands_per_game": lambda m: m._col("hands"),
                "turns_per_game": lambda m: m._col("turns")}
    if figure not in per_game:
        raise RuleConfigError(f"figure is {figure!r}: the figures a game-by-game difference is made of are "
                              f"{', '.join(per_game)}.")
    xa, xb = per_game[figure](a), per_game[figure](b)
    same = (a.variant == b.variant and a.seed == b.seed and a.games == b.games and a.players == b.players)
    if same and len(xa) >= 2:
        return paired_mean_difference([x - y for x, y in zip(xa, xb)])
    return mean_difference(mean_estimate(xa), mean_estimate(xb))


def measure_family(*, games: int = 200, seed: int = 0, variants: Sequence[str] | None = None,
                   players: Sequence[int] = (2, 3, 4), costly_games: int | None = None, pace: TablePace = PACE,
                   executor: Executor | None = None, progress: Callable[[str, int, int], None] | None = None,
                   done: dict | None = None, save: Callable[[dict], None] | None = None) -> dict:
    """Every playable game's length at each table size of ``players`` it allows: ``{key: {"n": the
    GameLength's JSON}}``. A costly engine (``PLAY_COST`` > 1: Robber's solver bot) plays ``costly_games``
    (default ``games``). ``done`` (what this function returned before) keeps every table already measured
    with the same games and seed, so an interrupted run resumes; ``save(result)`` is called after each
    table (a results file written as it goes); ``progress(label, done, total)`` after each chunk.

    >>> sorted(measure_family(games=1, seed=1, variants=["gin", "knock-rummy"], players=(2, 3))["knock-rummy"])
    ['2', '3']
    """
    from rumino.variants import playable_variants

    keys = [find_variant(k).key for k in variants] if variants else list(playable_variants())
    out: dict = {k: dict(v) for k, v in (done or {}).items()}
    for key in keys:
        v = find_variant(key)
        n_games = costly_games if (costly_games is not None and getattr(v.game, "PLAY_COST", 1) > 1) else games
        for n in player_counts(v, players):
            old = out.get(v.key, {}).get(str(n))
            if old is not None and old["games"] == n_games and old["seed"] == seed and old["pace"] == pace.as_json():
                continue
            tick = (lambda d, t, label=f"{v.key} at {n}": progress(label, d, t)) if progress else None
            m = measure_length(v, n, games=n_games, seed=seed, pace=pace, executor=executor, progress=tick)
            out.setdefault(v.key, {})[str(n)] = m.as_json()
            if save is not None:
                save(out)
    return out


__all__ = ["CHUNK", "FIGURE_WORDS", "GameCount", "GameLength", "PACE", "TablePace", "baseline_bots",
           "length_difference", "measure_family", "measure_length", "play_counted", "player_counts",
           "ratio_estimate", "riffles_for"]
