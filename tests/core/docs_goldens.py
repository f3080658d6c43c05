"""The golden Markdown documents (tests/fixtures/docs-golden/): regenerate, then review the diff.

``test_markdown_equals_golden_files`` renders the docs fixture data
(tests/fixtures/docs-data/) to Markdown and compares it with these files, so
a change in how documents are written shows up as a failing test. After a
change you meant, regenerate them and read the diff before committing:

    .venv/bin/python -m tests.core.docs_goldens      (or: make doc-goldens)
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pipeline.app.build import build_documents

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DOCS_DATA = FIXTURES / "docs-data"
GOLDEN_ROOT = FIXTURES / "docs-golden"
GOLDEN_GAMES = ("theocracy",)


def render_markdown(game: str, out_dir: Path) -> list[Path]:
    """The game's documents from the fixture data as Markdown (no glossary), as the golden test renders them."""
    return build_documents(DOCS_DATA, [game], paper="a4", out_dir=out_dir, fmt="md", glossary=False)


def regenerate() -> None:
    for game in GOLDEN_GAMES:
        target = GOLDEN_ROOT / game
        with tempfile.TemporaryDirectory() as scratch:
            written = render_markdown(game, Path(scratch))
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            for path in written:
                shutil.copyfile(path, target / path.name)
        print(f"wrote {len(written)} golden file(s) to {target}; review `git diff {target}`")


if __name__ == "__main__":
    regenerate()
