"""``python -m tests.core.cache_reads LIST ARGS...``: `pantheon ARGS` in this fresh process, writing to LIST
the cache entries (``namespace/name``) it read and could use, one per line.

A fresh process, so no in-memory memo answers for the disk: every entry the command relies on is listed.
The cache-integrity tests use it to tell which entries of a shared cache the shipped data reads.
"""
import sys
from pathlib import Path
from typing import Any, Optional

from pipeline import store as cachestore
from pipeline.cli.main import run

if __name__ == "__main__":
    listing, found = Path(sys.argv[1]), []
    real_read = cachestore.read

    def read(namespace: str, name: str, decode: Any, *, root: Optional[Path] = None) -> Any:
        value = real_read(namespace, name, decode, root=root)
        if value is not None:
            found.append(f"{namespace}/{name}")
        return value

    cachestore.read = read
    sys.argv = ["pantheon", *sys.argv[2:]]
    try:
        run()
    finally:
        listing.write_text("".join(f"{entry}\n" for entry in found))
