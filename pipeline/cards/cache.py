"""Content-hash cache: a game whose inputs did not change is not rebuilt.

The fingerprint covers everything a card PDF depends on: the game's data and
schemas, the shared schema, the game's templates, the shared templates and
icons, the sheet definitions, the embedded fonts, the pipeline's own code,
and the build options. After a successful build it is stored beside the PDF
(``.<pdf name>.fingerprint``) with the digest of the PDF's own bytes, so a
PDF that was damaged or replaced since is rebuilt, not trusted. The PDF's
bytes themselves carry no fingerprint: they depend on the data only.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

from pipeline.base.filedigest import content_digest
from pipeline.cards import fonts
from pipeline.cards.pdfwrite import write_atomic
from pipeline.cards.svgtemplates import CARD_DIR, ICON_DIR, TEMPLATE_ROOT
from pipeline.store import file_digest

PIPELINE_ROOT = Path(__file__).resolve().parents[1]
STAMP_SUFFIX = ".fingerprint"


def _files(folder: Path, pattern: str = "*") -> list[Path]:
    return sorted(p for p in folder.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts) if folder.is_dir() else []


def inputs(data_root: Path, game: str, template_root: Path = TEMPLATE_ROOT) -> list[Path]:
    """Every file the card PDF of ``game`` depends on."""
    return [
        *_files(data_root / game),
        *_files(data_root / "schemas" / game),
        *_files(data_root / "schemas", "common.schema.json"),
        *look_inputs(game, template_root),
        *_code_files(),
    ]


@lru_cache(maxsize=None)
def _code_files() -> tuple[Path, ...]:
    """The pipeline's modules, listed once per process (the code this process runs; each game's
    fingerprint names them all, and listing the package is most of what taking a fingerprint costs)."""
    return tuple(_files(PIPELINE_ROOT, "*.py"))


def look_inputs(game: str, template_root: Path = TEMPLATE_ROOT) -> list[Path]:
    """The files that decide how ``game``'s cards look, whatever their data: the game's templates
    and the shared ones, the icons, the sheet definitions, the design rules and the fonts."""
    cards = template_root / CARD_DIR
    return [
        *_files(cards / game),
        *sorted(p for p in cards.glob("*") if p.is_file()),
        *_files(template_root / ICON_DIR),
        *sorted(p for p in template_root.glob("sheets*") if p.is_file()),
        *sorted(p for p in template_root.glob("design-rules*") if p.is_file()),
        *fonts.font_files(),
    ]


def fingerprint(files: Iterable[Path], options: Mapping[str, str]) -> str:
    """A hash of ``options`` and each file's name and content (each file's digest is taken once per
    process while it stays unchanged: a build takes several fingerprints over the same files)."""
    digest = hashlib.sha256(json.dumps(dict(sorted(options.items()))).encode())
    for path in files:
        digest.update(str(path).encode() + b"\0")
        digest.update(content_digest(path))
        digest.update(b"\0")
    return digest.hexdigest()


def stamp_path(pdf: Path) -> Path:
    return pdf.with_name(f".{pdf.name}{STAMP_SUFFIX}")


def _inputs_line(print_hash: str) -> bytes:
    return f"inputs {print_hash}\n".encode()


def _stamp(print_hash: str, pdf_digest: str) -> bytes:
    return _inputs_line(print_hash) + f"output {pdf_digest}\n".encode()


def is_fresh(pdf: Path, print_hash: str) -> bool:
    """True when ``pdf`` was built from exactly these inputs and its bytes are the ones that build wrote."""
    try:
        stamp = stamp_path(pdf).read_bytes()
        digest = file_digest(pdf)  # None when the PDF is missing, unreadable or not a regular file
        return digest is not None and stamp.startswith(_inputs_line(print_hash)) and stamp == _stamp(print_hash, digest)
    except OSError:
        return False


def record(pdf: Path, print_hash: str, data: bytes) -> None:
    """Stamp ``pdf``, just written with ``data``, as built from inputs ``print_hash``.

    Not flushed to disk before its rename: a stamp lost or torn by a crash only makes ``is_fresh`` say no,
    and the sheet is built again (the PDF itself is written durably)."""
    write_atomic(stamp_path(pdf), _stamp(print_hash, hashlib.sha256(data).hexdigest()), durable=False)
