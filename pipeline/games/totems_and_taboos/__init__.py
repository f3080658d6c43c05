"""Totems + Taboos: six colours of religion, towers of totem blocks, 162 commandments.

Data lives in ``data/totems-and-taboos/``; ``model.build`` turns it into typed
records, ``effects`` holds the op vocabulary of card effects and the phrase
table that prints them, and ``checks.cross_checks`` compares the data with the
rulebook's fixed facts and with itself.
"""

GAME_ID = "totems-and-taboos"
TITLE = "Totems + Taboos"
