"""Theocracy: a goofspiel of priest-kings bidding power cards for dice, with prophecies.

Data lives in data/theocracy/; this package builds the typed model (model.py),
cross-checks the data (checks.py), runs the reference engine (engine.py),
declares its players and set-ups to the balance study (balance.py) and offers
`pantheon theocracy ...` (cli.py).
"""

GAME_ID = "theocracy"
TITLE = "Theocracy"
