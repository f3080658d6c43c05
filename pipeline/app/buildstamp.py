"""The whole-build stamp: a `pantheon build` whose inputs, options and outputs are all as the last
successful one left them answers "up to date" without loading data or the renderer.

The stamp's key is every option of the command (one dict, :func:`options_key`:
whatever the ``build`` command is given, now or in a later version, is in it
without a list to keep up to date) and the output folder. Its content is a
digest of every input: each file under the data root and the templates
folder, the pipeline's code, the installed libraries (the names of their
``*.dist-info`` folders, which carry the versions; the fonts ship with
reportlab), and any file an option names (a printer profile); then the
digest of every file the build wrote or found up to date. Any difference,
a missing stamp or a damaged one (entries go through :mod:`pipeline.store`,
sealed and checked) means the ordinary build runs, which decides per card
sheet and per document what to redo, and writes a new stamp at its end.

Stamps live in ``<out>/.build-stamps/`` beside what they describe. Temporary
files a killed run left (in the output folder or the cache) also send the
build the ordinary way, which sweeps them.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

from pipeline import store as cachestore
from pipeline.base import locations

STAMP_DIR = ".build-stamps"
NAMESPACE = "build"
PIPELINE_ROOT = Path(__file__).resolve().parents[1]
# svgtemplates.TEMPLATE_ROOT, found the same light way so the check does not import the renderer
DEFAULT_TEMPLATES = locations.template_root()
OUTPUT_TEMP_PREFIX = ".tmp-"  # pdfwrite.TEMP_PREFIX (a test holds them equal)


def options_key(options: Mapping[str, Any]) -> dict[str, str]:
    """The command's options as text, sorted by name (paths made absolute, enums by value)."""

    def text(value: Any) -> str:
        if isinstance(value, Path):
            return str(value.resolve())
        if isinstance(value, Enum):
            return str(value.value)
        if isinstance(value, (list, tuple)):
            return json.dumps([text(item) for item in value])
        return json.dumps(value) if not isinstance(value, str) else value

    return {name: text(value) for name, value in sorted(options.items())}


def files_under(folder: Path, pattern: str = "*") -> list[Path]:
    """The files below ``folder`` matching ``pattern``, sorted (no bytecode folders; none when it is missing)."""
    return sorted(p for p in folder.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts) if folder.is_dir() else []


def inputs_digest(data_root: Path, template_root: Path, extra_files: Iterable[Path] = ()) -> str:
    """The digest of every input a build reads (see the module docstring)."""
    digest = hashlib.sha256(f"python {sys.version}\0".encode())
    digest.update(cachestore.installed_libraries().encode())
    feed_files(digest, [*files_under(data_root), *files_under(template_root), *files_under(PIPELINE_ROOT, "*.py"), *extra_files])
    return digest.hexdigest()


def feed_files(digest: Any, paths: Iterable[Path]) -> None:
    """Add each file's path and bytes to ``digest`` (a missing file as a mark of its own)."""
    for path in paths:
        digest.update(str(path).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0missing")
        digest.update(b"\0")


def _decode(raw: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    def files(found: Any) -> dict[str, str]:
        return {str(path): str(digest) for path, digest in found.items()}

    return str(raw["inputs"]), files(raw["outputs"]), files(raw["also"])


class BuildStamp:
    """The stamp of one output folder and one set of options."""

    def __init__(self, out_dir: Path, options: Mapping[str, str]) -> None:
        self.out_dir = out_dir
        self.root = out_dir / STAMP_DIR
        self.name = cachestore.key_of([str(out_dir.resolve()), json.dumps(dict(options), sort_keys=True)])

    def up_to_date(self, inputs: str) -> Optional[list[Path]]:
        """The outputs of the last build when its inputs were ``inputs`` and every output is still
        the file it wrote, and no killed run left temporary files (the ordinary build sweeps those); else None."""
        if self._killed_run_left():
            return None
        stored = cachestore.read(NAMESPACE, self.name, _decode, root=self.root)
        if stored is None or stored[0] != inputs or not stored[1]:
            return None
        _, outputs, also = stored
        if any(cachestore.file_digest(Path(path)) != digest for path, digest in [*outputs.items(), *also.items()]):
            return None
        return [Path(path) for path in outputs]

    def _killed_run_left(self) -> bool:
        """Whether the output folder (where ``output_lock`` sweeps) or the cache holds a killed run's temporaries."""
        folder = self.out_dir
        if any(True for _ in [*folder.glob(f"{OUTPUT_TEMP_PREFIX}*"), *folder.glob(f"*/{OUTPUT_TEMP_PREFIX}*")]):
            return True
        return any(name.endswith(cachestore.TEMP_SUFFIX) for _, _, names in os.walk(cachestore.cache_root()) for name in names)

    def record(self, inputs: str, outputs: Iterable[Path], also: Iterable[Path] = ()) -> None:
        """Stamp a finished build: taken from ``inputs`` (digested before they were read), it left ``outputs``
        (``also``: files it keeps beside them, such as their own fingerprints, checked but not listed)."""
        found = {str(path): cachestore.file_digest(path) for path in outputs}
        kept = {str(path): cachestore.file_digest(path) for path in also}
        if all(found.values()) and all(kept.values()):
            cachestore.write(NAMESPACE, self.name, {"inputs": inputs, "outputs": found, "also": kept}, root=self.root)
