"""The output folder's manifest: which inputs made which output, the one "is it up to date" record.

``<out>/.pantheon-manifest.json`` holds, for each output file (by its path inside
the folder), the *unit* that wrote it (one game's card sheet, one game's
documents, the glossary), the digest of that unit's inputs (the data files it
read, the options, and :func:`pipeline.store.code_digest`, which covers the
whole package, the templates and the library versions), the games whose data
it read, how many files the unit wrote, and the SHA-256 of the file as written.

A unit is up to date when every one of its files is recorded with the inputs
digest it has now and still holds the recorded bytes. The manifest is read as
untrusted data: a regular file only, opened without following a link, bounded
in size, checked field by field; anything in doubt reads as an empty manifest
(a full build), never as an error. It is written atomically under a temporary
name of its own, and only while the folder's build lock is held.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional

from pipeline.base.safefile import hash_regular_file, read_regular_file
from pipeline.cards.pdfwrite import write_atomic

MANIFEST_NAME = ".pantheon-manifest.json"
FORMAT = "pantheon-manifest/1"
MAX_BYTES = 4 << 20  # far above any real manifest (a few hundred bytes per output)
MAX_OUTPUT_BYTES = 1 << 30  # far above any PDF a build writes
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Entry:
    """What the manifest says about one output file."""

    unit: str  # what wrote it: "cards/<game>", "docs/<game>", "docs/glossary"
    inputs: str  # digest of the unit's inputs when it was written
    reads: tuple[str, ...]  # the games whose data the unit read
    parts: int  # how many files the unit wrote
    output: str  # SHA-256 of the file as written

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "inputs": self.inputs, "reads": list(self.reads), "parts": self.parts,
                "output": self.output}


def output_digest(path: Path) -> Optional[str]:
    """The SHA-256 of output file ``path``, or None when it is missing, a link or not a regular file."""
    digest = hashlib.sha256()
    try:
        hash_regular_file(path, MAX_OUTPUT_BYTES, digest, follow=False)  # a chunk at a time
    except OSError:  # FileRefused included
        return None
    return digest.hexdigest()


def _digest_text(value: Any) -> str:
    if not (isinstance(value, str) and 16 <= len(value) <= 128 and set(value) <= _HEX):
        raise ValueError("not a digest")
    return value


def _entry(raw: Any) -> Entry:
    """One entry, checked field by field (ValueError/TypeError/KeyError for anything else)."""
    if not isinstance(raw, dict) or set(raw) != {"unit", "inputs", "reads", "parts", "output"}:
        raise ValueError("not an entry")
    unit, reads, parts = raw["unit"], raw["reads"], raw["parts"]
    if not isinstance(unit, str) or not isinstance(reads, list) or not all(isinstance(r, str) for r in reads):
        raise ValueError("bad unit or reads")
    if not isinstance(parts, int) or isinstance(parts, bool) or parts < 1:
        raise ValueError("bad parts")
    return Entry(unit, _digest_text(raw["inputs"]), tuple(reads), parts, _digest_text(raw["output"]))


def _safe_name(name: str) -> bool:
    """A path inside the folder as the build names its outputs: relative, no ``..``, no empty part."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and all(p not in ("", ".", "..") for p in parts)


class Manifest:
    """The manifest of one output folder, as read at the start of a build and updated as it writes."""

    def __init__(self, folder: Path, entries: Mapping[str, Entry]) -> None:
        self.folder = folder
        self.entries: dict[str, Entry] = dict(entries)

    @classmethod
    def load(cls, folder: Path) -> "Manifest":
        """The folder's manifest; an empty one when it is missing, a link, not a regular file, too large,
        not JSON, or any entry is not exactly what a build writes."""
        try:
            raw = json.loads(read_regular_file(folder / MANIFEST_NAME, MAX_BYTES, follow=False))
            if not isinstance(raw, dict) or raw.get("format") != FORMAT or not isinstance(raw.get("outputs"), dict):
                raise ValueError("not a manifest")
            entries = {str(name): _entry(value) for name, value in raw["outputs"].items()}
            if not all(_safe_name(name) for name in entries):
                raise ValueError("an output outside the folder")
        except (OSError, ValueError, TypeError, KeyError, RecursionError):
            return cls(folder, {})
        return cls(folder, entries)

    def name_of(self, path: Path) -> str:
        """``path`` (inside the folder) as the manifest names it."""
        return path.relative_to(self.folder).as_posix()

    def unit_fresh(self, unit: str, inputs_of: Callable[[tuple[str, ...]], str]) -> Optional[list[Path]]:
        """The files of ``unit`` when each is recorded, with the inputs digest ``inputs_of(reads)`` gives now,
        as many as the unit wrote, and each still holds the bytes recorded; else None (build it)."""
        mine = {name: entry for name, entry in self.entries.items() if entry.unit == unit}
        if not mine or any(entry.parts != len(mine) for entry in mine.values()):
            return None
        reads = next(iter(mine.values())).reads
        if any(entry.reads != reads for entry in mine.values()):
            return None
        inputs = inputs_of(reads)
        paths = []
        for name, entry in mine.items():  # in the order the unit wrote them
            path = self.folder / name
            if entry.inputs != inputs or output_digest(path) != entry.output:
                return None
            paths.append(path)
        return paths

    def record(self, unit: str, inputs: str, reads: Iterable[str], written: Mapping[Path, str]) -> None:
        """Note that ``unit`` wrote ``written`` (path -> SHA-256 of the bytes written) from ``inputs``
        (reading the games ``reads``), replacing whatever the unit wrote before."""
        self.entries = {name: entry for name, entry in self.entries.items() if entry.unit != unit}
        for path, digest in written.items():
            self.entries[self.name_of(path)] = Entry(unit, inputs, tuple(sorted(set(reads))), len(written), digest)

    def save(self) -> None:
        """Write the manifest atomically (a temporary file of its own, then a rename over the old one).
        Not flushed to disk first: a manifest lost in a crash only means the next build rebuilds."""
        outputs = {name: entry.to_json() for name, entry in self.entries.items()}  # in the order written
        text = json.dumps({"format": FORMAT, "outputs": outputs}, indent=1)
        write_atomic(self.folder / MANIFEST_NAME, text.encode(), durable=False)
