"""`pantheon diff`: what changed between two versions of the data, card by card.

``sources`` turns a git revision or a folder into a data root (a revision's
data/ is extracted with ``git archive``, never checked out); ``records``
compares two loaded games record by record; ``compare`` adds the cards the
game prints and the engine consequences its spec asks for; ``report`` prints
the result as text or JSON; ``proof`` draws the proof PDF (old and new faces,
a reprint sheet, a changelog).
"""
