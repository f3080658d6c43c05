"""Converted art kept between builds: svglib runs once per distinct piece of art, not once per build.

Converting SVG art with svglib is the dearest step of a build (a few ms per
piece); the result, a reportlab Drawing, is stored under the project's
git-ignored ``.cache/art/`` keyed by the art's content hash and the versions
of the libraries that made it. Only files this pipeline wrote there are
read back (pickle, like jinja's own bytecode cache uses marshal); a file that
does not load is converted again. Delete ``.cache`` to clear it;
``PANTHEON_CACHE`` points the cache elsewhere (the benchmarks use an empty
one to measure cold builds).
"""
from __future__ import annotations

import hashlib
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import reportlab
import svglib
from reportlab.graphics.shapes import Drawing

from pipeline.core.errors import UserError
from pipeline.core.resultcache import cache_root
from pipeline.core.render.pdfwrite import write_atomic

ART_DIR = "art"
PICKLE_PROTOCOL = 5




@lru_cache(maxsize=None)
def _version_dir(root: Path) -> Path:
    versions = f"{sys.version_info[:2]} reportlab {reportlab.Version} svglib {getattr(svglib, '__version__', '?')}"
    return root / ART_DIR / hashlib.blake2b(versions.encode(), digest_size=6).hexdigest()


class ArtCache:
    """Drawings by art key: in memory for this process, on disk across builds."""

    def __init__(self, root: Optional[Path] = None) -> None:
        self.folder = _version_dir(root or cache_root())
        self._memory: dict[str, Drawing] = {}

    def get(self, key: str, convert: Callable[[], Drawing]) -> Drawing:
        """The drawing of art ``key``, converting (and storing) it only when no earlier build did."""
        drawing = self._memory.get(key) or self._load(key)
        if drawing is None:
            drawing = convert()
            self._store(key, drawing)
        self._memory[key] = drawing
        return drawing

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.pickle"

    def _load(self, key: str) -> Optional[Drawing]:
        try:
            data = self._path(key).read_bytes()
        except OSError:
            return None
        try:
            drawing = pickle.loads(data)
        except Exception:  # a damaged or foreign file: convert again and overwrite it
            return None
        return drawing if isinstance(drawing, Drawing) else None

    def _store(self, key: str, drawing: Drawing) -> None:
        try:
            write_atomic(self._path(key), pickle.dumps(drawing, protocol=PICKLE_PROTOCOL), durable=False)
        except UserError:  # a read-only checkout still builds, only slower
            pass


_shared: dict[Path, ArtCache] = {}


def shared() -> ArtCache:
    """The art cache of the current cache root (one per process)."""
    root = cache_root()
    if root not in _shared:
        _shared[root] = ArtCache(root)
    return _shared[root]
