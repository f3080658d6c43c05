"""Monotheism: a solitaire, in-hand deck-destruction game.

The player helps a small set of worshipers trick a pantheon of 29 deities into
consuming one another until only one god remains. This package holds the
typed model (``model``) and the cross-checks (``checks``) of the canonical
data in ``data/monotheism/``.
"""

GAME_ID = "monotheism"
TITLE = "Monotheism"
# The store's namespace for every solver result of this package (scenario findings, report figures, #21's tally).
SOLVER_NAMESPACE = "monotheism"
