"""Who's Your Heavenly Father?: gods, moral dilemmas, philosophers and their rules.

Players guess which of ten gods is the One True God and collect the Virtues it
rewards before Judgment Day. This package turns the game's validated YAML into
a typed model (``model``), renders printed wording from structured data
(``text``) and cross-checks the data against the rulebook's facts (``checks``).
"""

GAME_ID = "heavenly-father"
TITLE = "Who's Your Heavenly Father?"
