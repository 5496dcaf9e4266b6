"""Whole-game ``rumino play`` transcripts, one per game, as readable examples (docs/transcripts/).

Each transcript is a real session: a *typist* sits in the human's chair and types what a
new player would, in the prompt's short forms (``s``, ``t``, ``7h``, ``k 7h``, Robber's
``new``/``lay``/``move``, Rummoli's ``b 3`` and Enter for a forced card), choosing as the
game's own bot would, and it also asks for help (``?``), looks again (``v``) and types
something the rules refuse, so each transcript shows a refusal and the state unchanged.
The typed lines are echoed after ``> `` (input is piped), so a transcript holds its own
script: ``tests/cli/test_terminal_transcripts.py`` regenerates each one and compares, and
replays the typed lines through ``rumino play`` to the end of the game.

    python tests/terminal_transcripts.py            # compare with docs/transcripts/
    python tests/terminal_transcripts.py --write    # rewrite them
"""

from __future__ import annotations

import io
import pathlib
import sys
from collections import Counter
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "transcripts"
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from rumino.cards import JOKER, format_card  # noqa: E402
from rumino.cli.play import make_session, run_session  # noqa: E402
from rumino.cli.simulate import parse_rules, playable  # noqa: E402
from rumino.errors import IllegalActionError  # noqa: E402
from rumino.players import make_player, parse_human_action  # noqa: E402


@dataclass(frozen=True)
class Case:
    """One transcript: the game, the seats (the human first), the seed, the house rules, and the lines
    typed at given prompts before the typist's own choice (prompt number → lines)."""

    name: str
    variant: str
    players: tuple[str, ...]
    seed: int
    rules: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)

    @property
    def argv(self) -> list[str]:
        out = ["play", "--variant", self.variant, "--players", ",".join(self.players), "--seed", str(self.seed)]
        return out + (["--rules", *self.rules] if self.rules else [])

    @property
    def path(self) -> pathlib.Path:
        return DOCS / f"{self.name}.txt"


CASES = [
    Case("rumino", "rumino", ("human", "greedy"), 0, ("knock_max_deadwood=15",), {1: ["?", "zz"], 2: ["k 7h"], 4: ["v"]}),
    Case("gin", "gin", ("human", "greedy"), 2, ("game_to=50",), {1: ["?"], 2: ["s"], 3: ["k"]}),
    Case("knock", "knock-rummy", ("human", "greedy"), 2, ("game_to=60",), {1: ["?"], 2: ["k 2c"], 3: ["s"]}),
    Case("wiener", "wiener", ("human", "greedy"), 8, ("knock_max_deadwood=20",),
         {1: ["?"], 2: ["layoff 7h"], 3: ["s"]}),
    Case("romme", "romme", ("human", "greedy"), 0, ("game_end=rotations:1",), {1: ["?"], 2: ["lay 2c 3c 4c"]}),
    Case("robber", "robber", ("human", "greedy"), 5, (), {1: ["?"], 3: ["new As Ks Qs"], 5: ["lay 7c on 9"]}),
    Case("rummoli", "rummoli", ("human", "default", "default"), 2, (), {1: ["?", "b 500"], 3: ["zz"]}),
    Case("oklahoma", "oklahoma", ("human", "greedy"), 6, ("game_to=30",), {1: ["?"], 3: ["k 2c"]}),
]


class Typist:
    """Types at the human's prompt: the extra lines of its case, then the game bot's choice, written as a
    new player would write it; a forced Rummoli card is taken with Enter, and ``auto`` from the third."""

    def __init__(self, session, case: Case):
        self.session, self.case, self.game = session, case, session.game
        self.bot = make_player(playable(case.variant).bot, seed=case.seed)
        self.queue: list[str] = []
        self.queued_at = None
        self.prompts = 0
        self.forced = 0
        self.last_history = -1

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        g = self.game
        if self.queue and self.moment() == self.queued_at:  # the lines typed at this prompt, in turn
            return self.queue.pop(0) + "\n"
        if g.game_over:  # pragma: no cover - the session stops asking at the end
            return ""
        view = g.view(g.to_act)
        self.prompts += 1
        lines = list(self.case.extra.get(self.prompts, ()))
        lines.append(self.choice(view))
        self.queue, self.queued_at = lines[1:], self.moment()
        return lines[0] + "\n"

    def moment(self) -> tuple:
        """Where the game is: a line typed earlier that was taken as an action leaves its queue stale."""
        g = self.game
        return g.to_act, g.phase, len(g.history)

    def choice(self, view) -> str:
        narrator_forced = self.session.forced(view) if self.session.forced is not None else None
        if narrator_forced is not None:
            self.forced += 1
            return "auto" if self.forced == 3 else ""
        action = self.bot.choose(view)
        for text in self.texts(action, view):
            try:
                typed = self.session.translate(text, view) or parse_human_action(text, view)
                self.game.check(typed)
            except IllegalActionError:
                continue
            if typed == action or action.word == "place":
                return text
        return str(action)  # pragma: no cover - the book notation always reads back

    def texts(self, action, view) -> list[str]:
        """What a person would type for ``action``, the shortest first."""
        card = format_card
        word = action.word
        menu = self.session.choices
        legal = list(menu(view) if menu is not None else view.legal_actions)  # the prompt's numbered list
        out = []
        if self.prompts % 6 == 4 and action in legal and len(legal) > 1:
            out.append(str(legal.index(action) + 1))  # now and then, a number from the list
        if word == "draw":
            out.append("s" if action.source == "stock" else "t")
        elif word == "discard":
            out.append(card(action.card))
        elif word in ("knock", "gin", "rummy") and hasattr(action, "card"):
            out.append(f"{word[0]} {card(action.card)}")
        elif word == "knock":
            out.append("k")
        elif word == "rumino":
            out.append("r")
        elif word in ("rebuy", "buyback"):
            out.append("y")
        elif word == "decline":
            out.append("n")
        elif word == "play" and hasattr(action, "card"):
            out.append(card(action.card))
        elif word == "play":
            out.append(str(action).removeprefix("play "))  # Rommé's steps, without 'play'

        elif word == "bid":
            out.append(f"b {action.amount}")
        elif word == "pass":
            out.append("p")
        elif word == "place":
            out.extend(robber_moves(view, action))
        out.append(str(action))
        return out


def robber_moves(view, action) -> list[str]:
    """A Robber placement as moves (``new``, ``lay … on``, ``move … from … to``), or nothing when the
    typist cannot write it so (then the whole table is typed)."""
    from rumino.table.melds import meld_tokens

    real = lambda cards: Counter(c for c in cards if c < JOKER)  # noqa: E731
    old = [list(meld_tokens(m)) for m in view.table]
    target = [list(m) for m in action.table]
    new_left = list(range(len(target)))
    pairs = {}
    for i, m in enumerate(old):  # the melds kept as they were, then the closest
        j = next((j for j in new_left if target[j] == m), None)
        if j is not None:
            pairs[j] = i
            new_left.remove(j)
    scores = sorted(((sum((real(old[i]) & real(target[j])).values()), j, i) for j in new_left
                     for i in range(len(old)) if i not in pairs.values()), key=lambda t: (-t[0], t[1], t[2]))
    for overlap, j, i in scores:
        if overlap and j not in pairs and i not in pairs.values():
            pairs[j] = i
    raw = lambda t: JOKER if t >= JOKER else t  # noqa: E731
    left = {i: Counter(raw(t) for t in m) for i, m in enumerate(old)}
    for j, i in pairs.items():
        left[i] -= Counter(raw(t) for t in target[j])
    hand = Counter(view.hand)
    steps, number = [], len(old)
    tok = lambda t: format_card(t) if t < JOKER else "JK"  # noqa: E731
    for j, m in enumerate(target):
        need = Counter(raw(t) for t in m)
        if j in pairs:
            need -= Counter(raw(t) for t in old[pairs[j]])
            where = str(pairs[j])
        else:
            where = None
        laid, moved = [], []
        for c in sorted(need.elements()):
            if hand[c] > 0:
                hand[c] -= 1
                laid.append(c)
            else:
                src = next((i for i in left if left[i][c] > 0), None)
                if src is None:
                    return []
                left[src][c] -= 1
                moved.append((c, src))
        for c, src in moved:
            if where is None:
                steps.append(f"move {tok(c)} from {src} to new")
                where, number = str(number), number + 1
            else:
                steps.append(f"move {tok(c)} from {src} to {where}")
        if laid:
            if where is None:
                steps.append("new " + " ".join(tok(c) for c in laid))
                where, number = str(number), number + 1
            else:
                steps.append(f"lay {' '.join(tok(c) for c in laid)} on {where}")
    return ["; ".join(steps)] if steps else []


def transcript(case: Case) -> str:
    """The whole session of ``case``, as ``rumino play`` prints it."""
    variant = playable(case.variant)
    rules = parse_rules(variant, list(case.rules))
    out = io.StringIO()
    session, narrator, seed = make_session(list(case.players), seed=case.seed, rules=rules, stdin=None,
                                           stdout=out, variant=variant.key)
    session.stdin = Typist(session, case)
    run_session(session, narrator, seed)
    return header(case) + out.getvalue()


def header(case: Case) -> str:
    return (f"# rumino {' '.join(case.argv)}\n"
            f"# A whole game typed at the prompt (the lines after '> '). Regenerate: "
            f"python tests/terminal_transcripts.py --write\n")


def typed_lines(text: str) -> list[str]:
    """The lines typed in a transcript (after ``> ``), to replay it through ``rumino play``."""
    return [line[2:] if line.startswith("> ") else "" for line in text.splitlines() if line.startswith(">")]


def main(argv: list[str]) -> int:
    write = "--write" in argv
    names = [a for a in argv if not a.startswith("-")]
    bad = 0
    for case in CASES:
        if names and case.name not in names:
            continue
        text = transcript(case)
        if write:
            DOCS.mkdir(parents=True, exist_ok=True)
            case.path.write_text(text, encoding="utf-8")
            print(f"wrote {case.path.relative_to(ROOT)} ({len(text.splitlines())} lines)")
        elif not case.path.exists() or case.path.read_text(encoding="utf-8") != text:
            print(f"{case.path.relative_to(ROOT)} differs: python tests/terminal_transcripts.py --write")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
