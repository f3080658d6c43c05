"""Printer profiles: the duplex offsets measured on each printer, kept in a small settings file.

The file is the user's, not the project's: ``printers.yaml`` in the user's
configuration folder as ``platformdirs`` names it for the platform
(``~/.config/pantheon-press/`` on Linux, honouring ``XDG_CONFIG_HOME``;
``~/Library/Application Support/pantheon-press/`` on macOS;
``%LOCALAPPDATA%\\pantheon-press\\`` on Windows). It is checked against
``templates/printers.schema.json`` when read, like every settings file::

    printers:
      office-laser:
        offset_across_mm: 0.5
        offset_along_mm: -1.0
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import platformdirs
import yaml

from pipeline.base.errors import UserError
from pipeline.cards.pdfwrite import write_atomic
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.data.schemas import load_checked_yaml

APP_NAME = "pantheon-press"
PRINTERS_NAME = "printers.yaml"
PRINTERS_SCHEMA = TEMPLATE_ROOT / "printers.schema.json"
NAME_PATTERN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")  # the schema's propertyNames pattern


@dataclass(frozen=True)
class Printer:
    """One printer's offsets, in paper terms (see ``imposition.paper_axes``)."""

    name: str
    offset_across_mm: float
    offset_along_mm: float


def profiles_path() -> Path:
    """Where the printer profiles live on this machine."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / PRINTERS_NAME


def load_profiles(path: Path | None = None) -> dict[str, Printer]:
    """Every stored profile (none when the file does not exist yet)."""
    path = path or profiles_path()
    if not path.exists():
        return {}
    data = load_checked_yaml(path, PRINTERS_SCHEMA)
    return {name: Printer(name, **fields) for name, fields in data["printers"].items()}


def profile(name: str, path: Path | None = None) -> Printer:
    """The profile called ``name``; a missing one is an error naming the file and the known names."""
    path = path or profiles_path()
    profiles = load_profiles(path)
    if name not in profiles:
        known = ", ".join(sorted(profiles)) or "none yet"
        raise UserError(
            f"no printer profile '{name}' in {path} (known: {known}; add one with `pantheon printer set {name} ...`)"
        )
    return profiles[name]


def save_profile(printer: Printer, path: Path | None = None) -> Path:
    """Add or replace ``printer``'s profile, rewriting the file atomically; the file's path."""
    if not NAME_PATTERN.fullmatch(printer.name):
        raise UserError(f"printer name '{printer.name}': use lower-case letters, digits and single hyphens")
    path = path or profiles_path()
    profiles = load_profiles(path)
    profiles[printer.name] = printer
    plain = {
        "printers": {
            name: {"offset_across_mm": p.offset_across_mm, "offset_along_mm": p.offset_along_mm}
            for name, p in sorted(profiles.items())
        }
    }

    write_atomic(path, yaml.safe_dump(plain, sort_keys=False).encode("utf-8"))
    return path
