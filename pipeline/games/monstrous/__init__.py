"""Monstrous: gods throw two-sided Monster cards at Location cards to win Faith.

Data lives in data/monstrous/; this package turns it into a typed model
(model.py), renders and checks the structured card powers (powers.py) and
cross-checks the rulebook's fixed facts (checks.py).
"""

GAME_ID = "monstrous"
TITLE = "Monstrous"
