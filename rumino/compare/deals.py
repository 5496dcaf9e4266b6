"""Exact deal distributions that take too long to enumerate on every call, stored once.

Gin's 10 cards of 52 are 671,225,412 suit classes: an exact enumeration takes
minutes (``rumino odds deal --variant gin --exact --full --workers 2``), too long
for ``rumino compare`` to run each time. Its result is stored in
``rumino/compare/data/exact_deals.json``, keyed by everything the distribution
depends on: the meld rules (pack, meld sizes, ace, joker limits, card values;
not their name), the hand size and the rumino flags. So Knock Rummy heads-up
(10 cards, Gin's melds under another name) reads the same entry, and a house
rule that changes a card value (which changes deadwood) finds no entry and is
enumerated or simulated instead.

The stored counts are checked when read: they must add up to ``C(pack, hand)``
and P(dealt gin) must equal the count of hands that are unions of disjoint melds
(:func:`rumino.odds.exact.p_dealt_gin`, a route that shares nothing with the
enumeration); the tests check this too.

Rebuild an entry (minutes)::

    python -m rumino.compare.deals gin --workers 2

>>> from rumino.variants import find_variant
>>> d = stored_distribution(find_variant("gin").rules.meld_rules, 10, None)
>>> d.deals() == 15820024220, d.classes
(True, 671225412)
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from math import comb
from pathlib import Path

from rumino.melds import MeldRules
from rumino.odds.enumerate import DealDistribution
from rumino.compare.figures import dealt_hand_size, executor_for, rumino_flags
from rumino.compare.matrix import Column
from rumino.odds.exact import exact_deal_distribution
from rumino.variants import find_variant

# enumerations up to this many suit classes run on the spot (Rumino's 7 of 108: 15 M, seconds);
# bigger ones are read from the store or simulated (the limit `rumino odds deal` uses without --full)
EXACT_CLASS_LIMIT = 50_000_000
STORE = Path(__file__).with_name("data") / "exact_deals.json"


def signature(meld_rules: MeldRules, hand_size: int, rumino_flags: tuple[bool, bool] | None) -> str:
    """What an exact deal distribution depends on, as a canonical JSON string."""
    d = dataclasses.asdict(meld_rules)
    d.pop("name", None)
    return json.dumps({"melds": d, "hand_size": int(hand_size),
                       "rumino": None if rumino_flags is None else [bool(x) for x in rumino_flags]},
                      sort_keys=True)


@lru_cache(maxsize=None)
def _store() -> dict:
    if not STORE.exists():
        return {}
    return {e["signature"]: e for e in json.loads(STORE.read_text())["entries"]}


def stored_distribution(meld_rules: MeldRules, hand_size: int, rumino_flags: tuple[bool, bool] | None) -> DealDistribution | None:
    """The stored exact distribution for these rules, or None if none is stored."""
    entry = _store().get(signature(meld_rules, hand_size, rumino_flags))
    if entry is None:
        return None
    pack = meld_rules.pack
    dist = DealDistribution(hand_size, pack.size,
                            deadwood={int(j): {int(d): int(c) for d, c in h.items()}
                                      for j, h in entry["deadwood"].items()},
                            rumino={int(j): int(c) for j, c in entry.get("rumino", {}).items()},
                            classes=int(entry["classes"]))
    if dist.deals() != comb(pack.size, hand_size):
        raise ValueError(f"the stored deal distribution {entry['name']!r} does not add up to C({pack.size}, "
                         f"{hand_size}): the store {STORE} is damaged; rebuild it (python -m rumino.compare.deals).")
    return dist


def build(variant_name: str, *, workers: int = 1, progress: bool = True) -> dict:
    """Enumerate a variant's deal exactly and write it to the store (replacing an entry with the same key)."""
    import time


    col = Column.parse(variant_name)
    mr = col.rules.meld_rules
    k = dealt_hand_size(col)
    flags = rumino_flags(col)
    t0 = time.perf_counter()
    with executor_for(workers) as ex:
        dist = exact_deal_distribution(mr, k, rumino=flags is not None, rumino_distinct=bool(flags and flags[0]),
                                       rumino_natural_only=bool(flags and flags[1]), executor=ex, progress=progress)
    seconds = time.perf_counter() - t0
    entry = {"name": f"{find_variant(col.variant.key).title}, {k} cards of {mr.pack.size}",
             "signature": signature(mr, k, flags), "classes": dist.classes, "total": dist.deals(),
             "deadwood": {str(j): {str(d): c for d, c in sorted(h.items())} for j, h in sorted(dist.deadwood.items())},
             "rumino": {str(j): c for j, c in sorted(dist.rumino.items())},
             "built_with": f"python -m rumino.compare.deals {variant_name} --workers {workers}",
             "wall_seconds": round(seconds, 1)}
    entries = [e for e in (json.loads(STORE.read_text())["entries"] if STORE.exists() else [])
               if e["signature"] != entry["signature"]]
    entries.append(entry)
    STORE.parent.mkdir(parents=True, exist_ok=True)
    STORE.write_text(json.dumps({"about": "exact deal distributions too slow to enumerate per call "
                                          "(rumino.compare.deals)", "entries": entries}, indent=1) + "\n")
    _store.cache_clear()
    return entry


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m rumino.compare.deals",
                                description="enumerate a deal exactly and store it for rumino compare")
    p.add_argument("column", help="a variant with optional house rules, e.g. gin")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    entry = build(args.column, workers=args.workers)
    print(f"{entry['name']}: {entry['classes']:,} classes, {entry['total']:,} deals, "
          f"{entry['wall_seconds']} s wall; stored in {STORE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

__all__ = ["EXACT_CLASS_LIMIT", "STORE", "signature", "stored_distribution", "build"]
