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

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import yaml

from pipeline.base.errors import UserError
from pipeline.cards.imposition import load_sheets
from pipeline.cards.pdfwrite import write_atomic
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.data.schemas import SchemaValidator, read_settings

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


@dataclass(frozen=True)
class StoredProfiles:
    """The profiles file as read: the usable profiles, and for each unusable one the line saying why
    (``file:line:column: printer 'NAME': ...``). An unusable profile stays in the file as it is."""

    usable: dict[str, Printer]
    unusable: dict[str, str]
    stored: dict[str, Any]  # every profile as the file holds it


def read_profiles(path: Path | None = None) -> StoredProfiles:
    """Every stored profile (none when the file does not exist yet). A profile that breaks the schema, holds
    a number that is not finite or an offset no layout can take is unusable, named with its line; the
    others stay usable. A file that is not a profiles file at all is an error naming it."""
    path = path or profiles_path()
    if not path.exists():
        return StoredProfiles({}, {}, {})
    doc, schema = read_settings(path, PRINTERS_SCHEMA)
    unusable: dict[str, str] = {}
    for error in SchemaValidator(schema).iter_errors(doc.data):
        where = tuple(error.absolute_path)
        if len(where) < 2 or where[0] != "printers":
            raise UserError(f"{doc.at(*where)}: {error.message}")
        unusable.setdefault(str(where[1]), f"{doc.at(*where)}: printer '{where[1]}': {error.message}")
    stored = dict(doc.data["printers"])
    usable: dict[str, Printer] = {}
    for name, fields in stored.items():
        if name in unusable:
            continue
        printer = Printer(name, **fields)
        problem = offset_problem(printer)
        if problem is None:
            usable[name] = printer
        else:
            unusable[name] = f"{doc.at('printers', name, problem[0])}: printer '{name}': {problem[1]}"
    return StoredProfiles(usable, unusable, stored)


def load_profiles(path: Path | None = None) -> dict[str, Printer]:
    """Every usable stored profile (none when the file does not exist yet)."""
    return read_profiles(path).usable


def offset_problem(printer: Printer) -> tuple[str, str] | None:
    """The field and why ``printer``'s offsets can serve no build (not finite numbers, or past every layout's
    margin), or None."""
    widest = max(layout.margin_mm for layout in load_sheets().layouts.values())
    for flag, value in (("offset_across_mm", printer.offset_across_mm), ("offset_along_mm", printer.offset_along_mm)):
        if not math.isfinite(value):
            return flag, f"{flag} {value} is not a finite number of millimetres"
        if abs(value) > widest:
            return flag, (f"{flag} {value:g} mm is larger than the widest margin of any layout ({widest:g} mm): the "
                          "backs would run off the sheet (measure again with --calibration)")
    return None


def profile(name: str, path: Path | None = None) -> Printer:
    """The profile called ``name``; a missing or unusable one is an error naming the file and the profile."""
    path = path or profiles_path()
    profiles = read_profiles(path)
    if name in profiles.unusable:
        raise UserError(profiles.unusable[name])
    if name not in profiles.usable:
        known = ", ".join(sorted(profiles.usable)) or "none yet"
        raise UserError(
            f"no printer profile '{name}' in {path} (known: {known}; add one with `pantheon printer set {name} ...`)"
        )
    return profiles.usable[name]


def save_profile(printer: Printer, path: Path | None = None) -> Path:
    """Add or replace ``printer``'s profile, rewriting the file atomically (every other profile as stored,
    usable or not); the file's path. Offsets that no build could take are refused before anything is saved."""
    if not NAME_PATTERN.fullmatch(printer.name):
        raise UserError(f"printer name '{printer.name}': use lower-case letters, digits and single hyphens")
    problem = offset_problem(printer)
    if problem is not None:
        raise UserError(f"printer '{printer.name}': {problem[1]}")
    path = path or profiles_path()
    stored = read_profiles(path).stored
    stored[printer.name] = {"offset_across_mm": printer.offset_across_mm, "offset_along_mm": printer.offset_along_mm}
    plain = {"printers": dict(sorted(stored.items()))}
    write_atomic(path, yaml.safe_dump(plain, sort_keys=False).encode("utf-8"))
    return path
