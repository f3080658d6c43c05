"""The schema map editors read, so a data file is checked as it is typed.

Data files carry no ``# yaml-language-server: $schema=`` header (it would
shift every line that error messages and tests point at); instead the project
ships ``.vscode/settings.json`` with ``yaml.schemas`` mapping each schema file
to the data file it describes. Other editors take the same pairs (docs/editing-data.md,
"Editor support"). Regenerate after adding a record kind:
``python -m pipeline.data.editorschemas``; a test fails while the file is stale.
"""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.data.dataset import DATA_SUFFIX, SCHEMA_DIR, SCHEMA_SUFFIX

SETTINGS = Path(".vscode") / "settings.json"
DATA_FOLDER = "data"  # as the editor opens the project: paths relative to its top folder


def schema_pairs(data_root: Path) -> list[tuple[str, str]]:
    """(schema file, data file) for every game schema, as paths relative to the project folder."""
    pairs = []
    for schema in sorted((data_root / SCHEMA_DIR).glob(f"*/*{SCHEMA_SUFFIX}")):
        game, kind = schema.parent.name, schema.name[: -len(SCHEMA_SUFFIX)]
        pairs.append((f"{DATA_FOLDER}/{SCHEMA_DIR}/{game}/{schema.name}", f"{DATA_FOLDER}/{game}/{kind}{DATA_SUFFIX}"))
    return pairs


def settings_text(data_root: Path) -> str:
    """The whole of ``.vscode/settings.json`` (the YAML extension's ``yaml.schemas``)."""
    mapping = {f"./{schema}": data for schema, data in schema_pairs(data_root)}
    return json.dumps({"yaml.schemas": mapping}, indent=2) + "\n"


if __name__ == "__main__":
    from pipeline.data.dataset import default_data_root

    project = default_data_root().parent
    (project / SETTINGS).parent.mkdir(exist_ok=True)
    (project / SETTINGS).write_text(settings_text(default_data_root()), encoding="utf-8")
    print(f"wrote {SETTINGS}")
