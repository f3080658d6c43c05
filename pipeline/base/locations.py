"""Where the project's folders are, run from a checkout or from an installed wheel.

From a checkout (the folder holding pyproject.toml and data/) everything is
where docs/architecture.md says: data/, templates/, output/, .cache/. `pip install .`
(not editable) copies data/ and templates/ into the package as
``pipeline/bundled/`` (setup.py), so an installed ``pantheon`` works from any
folder: it reads ./data and ./templates when the current directory has them
(a designer's own copy), else the bundled ones, writes to ./output, and keeps
its caches in the user cache directory. ``--data``, ``--templates`` and
``--out`` override each of these per command, $PANTHEON_CACHE the cache.
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

PACKAGE = Path(__file__).resolve().parents[1]
CHECKOUT = PACKAGE.parent
BUNDLED = PACKAGE / "bundled"
APP_NAME = "pantheon-press"
DATA = "data"
TEMPLATES = "templates"
OUTPUT = "output"
CACHE = ".cache"
SCHEMA_DIR = "schemas"  # a data folder holds its schemas (dataset.SCHEMA_DIR)
SHEETS_FILE = "sheets.yaml"  # a templates folder holds its paper sizes (imposition.SHEETS_NAME)


def in_checkout() -> bool:
    """Whether the package runs from the project's own folder (an editable install or the source tree)."""
    return (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / DATA / SCHEMA_DIR).is_dir()


def data_root() -> Path:
    """The data folder used when no ``--data`` is given."""
    if in_checkout():
        return CHECKOUT / DATA
    here = Path.cwd() / DATA
    return here if (here / SCHEMA_DIR).is_dir() else BUNDLED / DATA


def template_root() -> Path:
    """The templates folder used when no ``--templates`` is given."""
    if in_checkout():
        return CHECKOUT / TEMPLATES
    here = Path.cwd() / TEMPLATES
    return here if (here / SHEETS_FILE).is_file() else BUNDLED / TEMPLATES


def output_root() -> Path:
    """The folder written to when no ``--out`` is given."""
    return CHECKOUT / OUTPUT if in_checkout() else Path.cwd() / OUTPUT


def cache_root() -> Path:
    """The project's .cache/ in a checkout that can be written, else the user cache directory."""
    project = CHECKOUT / CACHE
    if in_checkout() and _writable(project):
        return project

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def _writable(folder: Path) -> bool:
    """Whether ``folder`` can be written (or created in its parent)."""
    target = folder if folder.exists() else folder.parent
    return os.access(target, os.W_OK | os.X_OK)
