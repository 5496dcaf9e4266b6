"""Pictures and tables for the book's "at a glance" pages: the layouts of :mod:`rumino.render`
(cards, melds, hands) put together with the rules' own words for the house rules
(:mod:`rumino.variants`), which is why these live a layer above both.

>>> from rumino.pages import glance_knock, glance_melded
>>> callable(glance_knock.picture), callable(glance_melded.table_html)
(True, True)
"""
