"""Figure numbers as a reader meets them: a numbered chapter's are its own (Fig. 5.1, 5.2 …), and a page
outside the numbered chapters (the preface, Start here, the teacher's pages) counts its own from Fig. 1.
Sphinx numbered the latter on from page to page: the family map's only figure read "Fig. 2" (the preface
holds Fig. 1), and the class experiment's "Fig. 3" (_ext/rumino_book.py renumbers them).
"""

from __future__ import annotations

import re

import pytest

CAPTION_NUMBER = re.compile(r'<span class="caption-number">Fig\. ([\d.]+) </span>')


def figure_numbers(page_html: str) -> list[str]:
    """The figure numbers a page's captions show, in page order.

    >>> figure_numbers('<span class="caption-number">Fig. 2 </span>x<span class="caption-number">Fig. 5.1 </span>')
    ['2', '5.1']
    """
    return CAPTION_NUMBER.findall(page_html)


@pytest.mark.slow
def test_every_page_numbers_its_figures_from_one(book_html):
    seen = {}
    for page in sorted(book_html.glob("*.html")):
        numbers = figure_numbers(page.read_text(encoding="utf-8"))
        if not numbers:
            continue
        seen[page.stem] = numbers
        chapter = re.match(r"(\d\d)_", page.stem)
        if chapter and chapter.group(1) != "00":  # a numbered chapter: its number, then 1, 2, …
            c = int(chapter.group(1))
            assert numbers == [f"{c}.{i}" for i in range(1, len(numbers) + 1)], (page.name, numbers)
        else:
            assert numbers == [str(i) for i in range(1, len(numbers) + 1)], (page.name, numbers)
    # the pages this was found on, and a numbered chapter: the test read real figures
    assert {"00a_family_map", "00_preface", "05_drawing_to_a_hand"} <= set(seen), sorted(seen)
