"""The kinds of data file every game shares (``data/<game>/<kind>.yaml``), named once for every layer.

Each has the common shape of ``data/schemas/common.schema.json``; a game's own
kinds (scenarios, towers ...) are named in its model.
"""
from __future__ import annotations

RULES_KIND = "rules"
GLOSSARY_KIND = "glossary"  # also the kind of the combined glossary document made from every game's
COMPONENTS_KIND = "components"
RULINGS_KIND = "rulings"  # where a game keeps its rulings (its list of records has the same name)
