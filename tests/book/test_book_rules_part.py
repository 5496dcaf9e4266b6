"""The book's part "The rules in full" (``book/rules/``) and the links to it.

* every section number cited anywhere (engine messages, widgets, chapters, glossary, transcripts)
  has a labelled section or numbered rule in ``book/rules/``, and every label is a real number;
* each game's house-rule table is the one the engine's knobs give (labels, words, defaults);
* the numbers the pages state (pack sizes, hand sizes, limits, worked checks) are the engine's;
* the book's extension turns ``rules §N`` (and the old ``RULES §N``) into links, in prose, in a
  cell's output and in raw HTML, and fails the build on a cited number with no section;
* no message, help text or docstring of ``rumino/`` or ``widgets/`` still says ``RULES §``.

The knob tables are written into the pages by ``python tests/book/test_book_rules_part.py --write``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from rumino.cards import parse_hand
from rumino.hand.arrange import max_opening, min_deadwood
from rumino.variants import VARIANTS, find_variant
from rumino.engine.knobs import knob_table, value_words

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
RULES = BOOK / "rules"
PAGES = {"conventions": "§0", "rumino": "§1", "rummoli": "§2", "romme": "§3", "robber": "§4",
         "wiener": "§5", "gin": "§6", "decisions": "§7"}
CITED = re.compile(r"§ ?(\d+(?:\.\d+)*)")
LABEL = re.compile(r"^\(rules-([0-9-]+)\)=$", re.MULTILINE)
# the variant whose house rules each page's table shows: <!-- knobs: KEY --> … <!-- /knobs -->
TABLE = re.compile(r"<!-- knobs: ([a-z-]+) -->\n(.*?)<!-- /knobs -->", re.DOTALL)


def page(name: str) -> str:
    return (RULES / f"{name}.md").read_text(encoding="utf-8")


def flat(name: str) -> str:
    """A page's text with every run of spaces and line breaks as one space (for phrases)."""
    return " ".join(page(name).split())


def anchors() -> dict[str, str]:
    """Every rules label in book/rules/: ``{"3.4.5": "romme"}``."""
    found = {}
    for path in sorted(RULES.glob("*.md")):
        for label in LABEL.findall(path.read_text(encoding="utf-8")):
            number = label.replace("-", ".")
            assert number not in found, f"rules-{label} is labelled twice ({found[number]}, {path.stem})"
            found[number] = path.stem
    return found


def cited_numbers() -> dict[str, str]:
    """Every § number cited in rumino/, widgets/, book/ (notebooks and Markdown) and docs/, with one place."""
    found = {}
    files = [*ROOT.glob("rumino/**/*.py"), *ROOT.glob("widgets/**/*.py"), *ROOT.glob("widgets/**/*.ipynb"),
             *BOOK.glob("*.ipynb"), *BOOK.glob("*.md"), *RULES.glob("*.md"), *ROOT.glob("docs/**/*.txt")]
    for path in files:
        for number in CITED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(number, str(path.relative_to(ROOT)))
    return found


# ------------------------------------------------------------------------ anchors for every citation


def test_every_cited_section_has_an_anchor_in_the_rules_part():
    have = anchors()
    cited = cited_numbers()
    assert len(cited) > 60  # the grep reaches the engine, the widgets and the chapters
    missing = {n: where for n, where in cited.items() if n not in have}
    assert not missing, f"cited but not in book/rules/: {missing}"


def test_the_engine_s_sub_numbers_are_numbered_rules_on_their_pages():
    have = anchors()
    # the sub-numbers the engine and the chapters cite (rules facts and the numbered steps of a section)
    for number in ("2.5.2", "2.5.7", "3.4.1", "3.4.5", "3.4.7", "3.7.1", "3.7.9", "4.5.1", "4.5.5",
                   "1.7.11", "5.9.2", "2.8.3"):
        text = page(have[number])
        label = f"(rules-{number.replace('.', '-')})="
        # the label stands right before the visible number, so the link lands on the rule
        assert f"{label}\n**{number}" in text, number
    for number, name in have.items():  # every label is a visible section heading or numbered rule
        label = f"(rules-{number.replace('.', '-')})=\n"
        after = page(name).split(label, 1)[1].splitlines()[0]
        assert after.startswith((f"# §{number} ", f"## §{number} ", f"**{number}")), (number, after)


def test_each_game_page_starts_with_its_section_and_every_section_of_a_game_is_there():
    have = anchors()
    for name, section in PAGES.items():
        assert page(name).startswith(f"(rules-{section[1:]})=\n# {section} "), name
    # the sections of each game as the engine's variants know them: §1 to §6, §5.8 for Knock Rummy
    for v in VARIANTS.values():
        assert v.section[1:] in have, v.key
    for number, subs in {"0": 5, "1": 7, "2": 8, "3": 7, "4": 5, "5": 9}.items():
        for i in range(1, subs + 1):
            assert f"{number}.{i}" in have, f"§{number}.{i}"


def test_cited_numbers_picks_up_a_new_citation(tmp_path):
    # the grep the first test relies on reads both forms and numbers of every depth
    assert CITED.findall("(rules §3.4.5) and RULES §1.7.11, bare §6.") == ["3.4.5", "1.7.11", "6"]


# ----------------------------------------------------------------------------- knob tables


def knob_rows_md(key: str) -> str:
    """A variant's house rules as a Markdown list, from the engine's knobs (label, doc, words, range).

    One item a knob: "- **Knock limit**: you may knock … *The book plays* 7; *other choices:* any number
    from 0 to 70. (`knock_max_deadwood`, rules §1.3)".
    """
    def words(row, value):
        text = value_words(row, value)
        if text.lstrip("-").isdigit():
            text = f"{int(text):,}"  # 1,000,000 as the engine's refusals write it, not 1000000
        return "−" + text[1:] if text[:1] == "-" and text[1:2].isdigit() else text  # a minus, not a hyphen

    v = find_variant(key)
    lines = []
    for row in knob_table(v.rules_class):
        default = getattr(v.rules, row["name"])
        if row["choices"] is not None:
            others = [words(row, c) for c in row["choices"] if c != default or type(c) is not type(default)]
            if row["allow_none"] and None not in row["choices"] and default is not None:
                others.append(words(row, None))
            others_text = "; ".join(others)
        else:
            span = f"any number from {words(row, row['low'])} to {words(row, row['high'])}"
            others_text = span + (", or unlimited" if row["allow_none"] and default is not None else "")
        choices = f"; *other choices:* {others_text}" if others_text else " (no other choice)"
        lines.append(f"- **{row['label']}**: {row['doc']}. *The book plays* {words(row, default)}{choices}. "
                     f"(`{row['name']}`, rules {row['section']})")
    return "\n".join(lines) + "\n"


def write_tables() -> list[str]:
    """Rewrite every knob table between its markers; return the pages changed."""
    changed = []
    for path in sorted(RULES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        new = TABLE.sub(lambda m: f"<!-- knobs: {m.group(1)} -->\n{knob_rows_md(m.group(1))}<!-- /knobs -->", text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path.name)
    return changed


def test_every_game_s_house_rules_table_is_the_engine_s():
    tables = {}
    for path in sorted(RULES.glob("*.md")):
        for key, body in TABLE.findall(path.read_text(encoding="utf-8")):
            tables[key] = (path.stem, body)
    assert set(tables) == set(VARIANTS)  # every variant, Knock Rummy included, has its table
    for key, (name, body) in tables.items():
        assert body == knob_rows_md(key), f"{name}.md: run python tests/book/test_book_rules_part.py --write"
        assert body.count("\n- **") + body.startswith("- **") == len(knob_table(find_variant(key).rules_class))


def test_the_knob_table_says_a_rule_in_a_player_s_words():
    body = knob_rows_md("rumino")
    assert ("- **Longest meld**: the most cards one meld may hold; unlimited: runs of any length and sets of up "
            "to 8. *The book plays* 3 or 4 cards; *other choices:* unlimited. (`max_lay_size`, rules §1.2)") in body
    assert "- **Knock limit**: " in body and "*other choices:* any number from 0 to 70." in body
    assert "*The book plays* −10; *other choices:* any number from −100 to 0." in body  # the gin bonus


def test_every_house_rule_named_in_the_prose_is_a_knob_of_its_game():
    knobs = {key: {r["name"] for r in knob_table(v.rules_class)} for key, v in VARIANTS.items()}
    labels = {key: {r["name"]: r["label"] for r in knob_table(v.rules_class)} for key, v in VARIANTS.items()}
    decisions = page("decisions")
    sections = {"Rumino": "rumino", "Rummoli": "rummoli", "German Rommé": "romme", "Robber Rummy": "robber",
                "Wiener Rummy": "wiener"}
    for part in decisions.split("\n## ")[1:]:
        title = part.split(" (§", 1)[0]
        if title not in sections:
            continue
        for item in (" ".join(chunk.split()) for chunk in re.split(r"\n(?=- \*\*)", part) if chunk.startswith("- **")):
            rule = item.rsplit("*Why:*", 1)[1]
            assert rule.endswith(("No house rule changes it.", ".")), item
            for name in re.findall(r"`([a-z_0-9]+)`", rule.rsplit(". ", 1)[-1]):
                assert name in knobs[sections[title]], (title, name)
                # named in a player's words first, as the rules forms say it, the short name after
                assert f"*{labels[sections[title]][name]}* (`{name}`)" in rule, (title, name)
            if "(`" in rule.rsplit(". ", 1)[-1]:
                assert ("House rules:" in item) == (rule.count("(`") > 1), item
    # the jokers of Rumino's and Wiener's packs are a house rule (R1, W1)
    for row in ("R1", "W1"):
        item = next(" ".join(c.split()) for c in re.split(r"\n(?=- \*\*)", decisions) if c.startswith(f"- **{row} "))
        assert "(`n_jokers`)" in item and "No house rule" not in item, item
    rows = sum(1 for line in decisions.splitlines() if re.match(r"- \*\*(R|M|G|RR|W)\d+ · ", line))
    assert rows == 17 + 13 + 15 + 6 + 9


# ------------------------------------------------------------------ the numbers the pages state


def test_the_packs_players_and_hands_the_pages_state_are_the_engine_s():
    from rumino.variants import rummoli as rm

    games = {key: VARIANTS[key].game for key in VARIANTS}
    rumino, romme, robber, wiener, gin = (flat(n) for n in ("rumino", "romme", "robber", "wiener", "gin"))
    g = games["rumino"]
    assert g.PACK.size == 108 and "four jokers: 108 cards" in rumino
    assert (g.MIN_PLAYERS, g.MAX_SEATS, g.HAND_SIZE) == (2, 6, 7)
    assert "From 2 to 6." in rumino and "Each player gets 7 cards" in rumino
    stock = {n: g.PACK.size - n * g.HAND_SIZE - 1 for n in (6, 2)}  # the deal and one upcard
    assert f"{stock[6]} cards are left in the stock with six players and {stock[2]} with two" in rumino
    r = VARIANTS["rumino"].rules
    assert r.knock_max_deadwood == 7 and "is 7 or less" in rumino and "8 or more" in rumino
    assert r.gin_bonus == -10 and "takes 10 off his running score" in rumino and "scores −10" in rumino
    assert r.elimination_at == 101 and "101 or more, is out" in rumino and r.rebuy_requires_others == 2
    assert VARIANTS["rumino"].meld_rules().joker_value == 10 and "and a joker 10." in rumino

    g = games["romme"]
    assert g.PACK.size == 110 and g.PACK.jokers == 6 and "110 cards, six of them jokers" in romme
    assert (g.MIN_PLAYERS, g.MAX_SEATS, g.HAND_SIZE) == (2, 6, 13) and "From 2 to 6" in romme
    stock = {n: g.PACK.size - n * g.HAND_SIZE - 1 for n in (6, 2)}  # the dealer's fourteenth card
    assert f"After the deal, {stock[6]} cards are left in the stock with six players and {stock[2]}" in romme
    ro = VARIANTS["romme"].rules
    assert (ro.opening_min, ro.joker_penalty, ro.ace_penalty, ro.hand_romme_multiplier) == (40, 20, 11, 2)
    assert "at least 40 points" in romme and "| joker | the card it stands for | 20 |" in romme
    m = VARIANTS["romme"].meld_rules()
    assert (m.max_set, m.max_run, m.min_naturals, m.adjacent_jokers_min_run) == (4, 13, 2, 4)
    assert "at most 13 cards" in romme and "run of four or more" in romme

    g = games["robber"]
    assert g.PACK.size == 110 and g.HAND_SIZE == 13 and "13 cards each" in robber
    assert VARIANTS["robber"].rules.opening_min == 40 and "opening of 40 points" in robber

    g, w = games["wiener"], VARIANTS["wiener"].rules
    assert g.PACK.size == 106 and g.PACK.jokers == 2 and "106 cards, two of them jokers" in wiener
    assert g.HAND_SIZE == 10 and w.deal_mode == "dealer11" and "Ten cards each and an eleventh" in wiener
    assert g.PACK.size - 6 * g.HAND_SIZE - 1 == 45 and "With six players, 45 cards" in wiener
    assert (w.knock_max_deadwood, w.entry_chips, w.buyback_chips, w.buyback_low, w.elimination_at) == (5, 5, 5, 81,
                                                                                                       101)
    assert "deadwood is 5 or less" in wiener and "puts 5 chips into the pot" in wiener
    assert "a player with 81 to 100 points may pay 5 more chips" in wiener
    assert VARIANTS["wiener"].meld_rules().joker_value == 20 and w.ace_value == 11
    k = VARIANTS["knock-rummy"]
    assert (k.rules.rummy_bonus, k.rules.knock_penalty, k.rules.knock_max_deadwood) == (25, 10, None)
    assert games["knock-rummy"].MAX_SEATS == 5 and "and 25 more for a knock" in wiener

    g, gr = games["gin"], VARIANTS["gin"].rules
    assert (g.MIN_PLAYERS, g.MAX_SEATS, g.HAND_SIZE, g.PACK.size) == (2, 2, 10, 52)
    assert (gr.knock_max_deadwood, gr.gin_bonus, gr.undercut_bonus, gr.void_at_stock) == (10, 25, 25, 2)
    assert (gr.game_to, gr.game_bonus, gr.box_bonus) == (100, 100, 25)
    for phrase in ("10 or less may knock", "a gin bonus of 25", "undercut bonus of 25", "only two cards are left",
                   "goes to 100 points", "game bonus of 100", "adds 25 for each hand"):
        assert phrase in gin, phrase

    rummoli = flat("rummoli")
    g = games["rummoli"]
    assert (g.MIN_PLAYERS, g.MAX_SEATS, g.PACK.size) == (2, 8, 52) and "From 2 to 8." in rummoli
    assert len(rm.SECTIONS) == 9 and VARIANTS["rummoli"].rules.initial_chips == 100
    for n in range(2, 9):  # the table of hand sizes, widow last
        assert f"| {n} | {', '.join(map(str, rm.hand_sizes(n)))} |" in rummoli, n
        assert sum(rm.hand_sizes(n)) == 52
    assert min(rm.hand_sizes(8)) == 5 and 5 * len(rm.SECTIONS) == 45 and "45 with five players" in rummoli


ROMINO_DEADWOOD = [  # (hand as the page writes it, house rules) — the page states the engine's figure
    ("5♥ 5♥ 5♠ 2♣ 3♣ 4♣ K♦", {}), ("Q♠ K♠ A♠ 2♦ 3♦ 4♦ 7♣", {}), ("2♣ 3♣ 4♣ 9♦ 9♥ 9♠ 7♦", {}),
    ("2♣ 3♣ 4♣ 9♦ 9♥ 9♠ 8♦", {}), ("3♥ 4♥ 5♥ 6♥ 7♥ K♣ K♦", {}), ("★ ★ 5♥ 9♣ 9♦ 9♠ 2♣", {}),
    ("★ 4♠ 6♠ 8♦ 8♦ 8♣ A♥", {}),
]


def test_the_worked_deadwood_figures_are_the_engine_s():
    text = flat("rumino")
    r = VARIANTS["rumino"].rules
    for hand, _ in ROMINO_DEADWOOD:
        d = min_deadwood(parse_hand(hand), r.meld_rules)
        assert f"`{hand}` has deadwood {d}" in text, (hand, d)
    # the same hands under a house rule: the page names the second figure after the first
    distinct = replace(r, set_suits="distinct").meld_rules
    unlimited = replace(r, max_lay_size=None).meld_rules
    for hand, rules, words in (("5♥ 5♥ 5♠ 2♣ 3♣ 4♣ K♦", distinct, "and {} when sets must have different suits"),
                               ("★ 4♠ 6♠ 8♦ 8♦ 8♣ A♥", distinct, "and {} when sets must have different suits"),
                               ("3♥ 4♥ 5♥ 6♥ 7♥ K♣ K♦", unlimited, "and {} when runs may be any length")):
        assert words.format(min_deadwood(parse_hand(hand), rules)) in text, hand
    assert min_deadwood(parse_hand("2♣ 3♣ 4♣ 9♦ 9♥ 9♠ 7♦"), r.meld_rules) <= r.knock_max_deadwood
    assert min_deadwood(parse_hand("2♣ 3♣ 4♣ 9♦ 9♥ 9♠ 8♦"), r.meld_rules) > r.knock_max_deadwood

    wiener = flat("wiener")
    w = VARIANTS["wiener"].rules
    for hand in ("2♣ 3♣ 4♣ 7♦ 7♥ 7♠ J♠ Q♠ K♠ 5♥", "2♣ 3♣ 4♣ 7♦ 7♥ 7♠ J♠ Q♠ K♠ A♥"):
        assert f"`{hand}` has deadwood {min_deadwood(parse_hand(hand), w.meld_rules)}" in wiener, hand


def test_the_worked_opening_and_penalty_figures_are_the_engine_s():
    text = flat("romme")
    m = VARIANTS["romme"].meld_rules()
    values = {hand: max_opening(parse_hand(hand), m).value for hand in
              ("Q♣ K♣ A♣", "A♥ 2♥ 3♥", "A♠ A♥ A♦", "7♥ ★ 9♥", "10♠ J♠ Q♠ 3♦ 3♥ 3♣", "10♠ J♠ Q♠ K♠")}
    assert values["10♠ J♠ Q♠ 3♦ 3♥ 3♣"] < VARIANTS["romme"].rules.opening_min <= values["10♠ J♠ Q♠ K♠"]
    for hand, value in values.items():
        assert re.search(rf"`{re.escape(hand)}` (is worth )?{value}\b", text), (hand, value)
    penalty = min_deadwood(parse_hand("A♠ ★ K♦ 5♣"), m)  # nothing melds: the whole hand's penalty
    multiplier = VARIANTS["romme"].rules.hand_romme_multiplier
    assert f"`A♠ ★ K♦ 5♣` left in a hand costs {penalty}" in text
    assert f"and {penalty * multiplier} when another player" in text


def test_the_refusal_quoted_on_the_front_page_is_the_engine_s():
    from rumino.engine.actions import Discard, Draw
    from rumino.errors import IllegalActionError
    from rumino.variants.rumino import RuminoGame

    g = RuminoGame.new(n_players=2, seed=1)
    top = g.discard[-1]
    g.apply(Draw(source="discard"))
    with pytest.raises(IllegalActionError) as err:
        g.apply(Discard(card=top))
    assert f"\n> {err.value}\n" in page("index")  # quoted, so it wraps and its citation links
    with pytest.raises(Exception) as bad:
        find_variant("rumino").with_rules(knock_max_deadwood=71)
    # in quotes, not as code: its citation becomes a link, and a link inside code reads below AA contrast
    said = str(bad.value).split(": ", 1)[1].rstrip(".")
    assert f'"{said}"' in page("index")


# ----------------------------------------------------------------------- citations in code


def test_no_message_help_or_docstring_still_says_RULES():
    for path in [*ROOT.glob("rumino/**/*.py"), *ROOT.glob("widgets/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        for old in ("RULES §", "RULES.md", "(RULES {", "RULES section"):
            assert old not in text, f"{path.relative_to(ROOT)} still says {old!r}"


def test_the_command_line_says_where_a_cited_section_is(capsys):
    from rumino.cli import build_parser

    assert "'The rules in full'" in build_parser().format_help() and "book/rules/" in build_parser().format_help()
    args = build_parser().parse_args(["play", "--variant", "rumino", "--rules", "knock_max_deadwood=5"])
    assert args.rules == ["knock_max_deadwood=5"]  # the command the front page shows


# ---------------------------------------------------------------------- the links, built by Sphinx


def _tiny_project(tmp_path: Path, *, extra_cite: str = "") -> Path:
    """A three-page Sphinx project: a rules page, a prose page and a notebook with outputs."""
    src = tmp_path / "src"
    (src / "rules").mkdir(parents=True)
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(BOOK / '_ext')!r})\n"
        "extensions = ['myst_nb', 'rumino_book']\nnb_execution_mode = 'off'\nexclude_patterns = ['_build']\n"
        "suppress_warnings = ['mystnb.unknown_mime_type']\n")
    (src / "index.md").write_text("# Home\n\n```{toctree}\nrules/romme\nprose\nnb\n```\n")
    (src / "rules" / "romme.md").write_text(
        "(rules-3)=\n# §3 German Rommé\n\n(rules-3-4)=\n## §3.4 A turn\n\n"
        "(rules-3-4-5)=\n**3.4.5 Exchanging a joker.** Back to §3.4.\n")
    (src / "prose.md").write_text(
        f"# Prose\n\nA joker (rules §3.4.5, then RULES §3.4){extra_cite}.\n\n"
        "```python\nrefuse(rule='rules §3.4.5')\n```\n")
    cells = [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# A notebook\n"},
             {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 1,
              "source": "print('source (rules §3.4)')",
              "outputs": [{"output_type": "stream", "name": "stdout",
                           "text": "cannot exchange: not yet opened (player 1, rules §3.4.5).\n"},
                          {"output_type": "display_data", "metadata": {},
                           "data": {"text/plain": "x", "text/html": "<p aria-label='rules §3.4'>see <b>rules §3.4</b></p>"}}]}]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    (src / "nb.ipynb").write_text(json.dumps(nb))
    return src


def _build(src: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(src), str(out)],
                          check=False, capture_output=True, text=True, timeout=300)


LINK = re.compile(r'<a class="[^"]*rumino-rules-cite[^"]*" href="([^"]+)">([^<]+)</a>')


@pytest.mark.timeout(300)
def test_citations_link_in_prose_outputs_and_raw_html(tmp_path):
    src = _tiny_project(tmp_path)
    proc = _build(src, tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    html = {name: (tmp_path / "out" / f"{name}.html").read_text(encoding="utf-8") for name in ("prose", "nb")}
    html["rules"] = (tmp_path / "out" / "rules" / "romme.html").read_text(encoding="utf-8")
    assert LINK.findall(html["prose"]) == [("rules/romme.html#rules-3-4-5", "rules §3.4.5"),
                                           ("rules/romme.html#rules-3-4", "RULES §3.4")]
    assert "refuse" in html["prose"] and html["prose"].count("rumino-rules-cite") == 2  # code stays code
    # the stream output and the HTML output link; the code cell's source and the attribute do not
    assert LINK.findall(html["nb"]) == [("rules/romme.html#rules-3-4-5", "rules §3.4.5"),
                                        ("rules/romme.html#rules-3-4", "rules §3.4")]
    assert "aria-label='rules §3.4'" in html["nb"]
    assert LINK.findall(html["rules"]) == [("#rules-3-4", "§3.4")]  # on its own page: the anchor only
    assert 'id="rules-3-4-5"' in html["rules"]  # the anchor the links land on


@pytest.mark.timeout(300)
def test_a_citation_with_no_section_fails_the_build(tmp_path):
    src = _tiny_project(tmp_path, extra_cite=" and rules §3.4.9")
    proc = _build(src, tmp_path / "out")
    assert proc.returncode != 0
    assert "rules §3.4.9 is cited" in proc.stderr and "prose.md" in proc.stderr
    assert "§3.4.9 (prose)" in proc.stderr


if __name__ == "__main__":  # python tests/book/test_book_rules_part.py --write
    if sys.argv[1:] == ["--write"]:
        print("rewrote:", ", ".join(write_tables()) or "nothing")
