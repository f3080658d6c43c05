"""Deterministic, atomic PDF files, and the lock that lets builds share an output folder.

reportlab's invariant mode fixes the creation date and document id, so the
same data and options give the same bytes; reportlab would still take the
date from ``SOURCE_DATE_EPOCH`` when it is set, so every document is begun
without it (:func:`fixed_date`): the environment never reaches the bytes. The file is written next to its
destination under a temporary name and renamed over it only when complete:
a build that fails leaves the previous good PDF untouched.

Every write into an output folder happens while holding that folder's lock
(``output_lock``: the folder itself is locked, no lock file is left in it), so
two builds into one folder take turns. A temporary file or folder has a name
only Pantheon Press makes (:data:`TEMP_NAME`: the prefix, the destination's
name and 16 hex digits), is created exclusively without following a link, and
lives in the folder being written. Holding the lock, no other Pantheon Press
process is writing into the folder, so what a killed run left under such a
name is swept when the lock is taken: regular files and real folders owned by
this user, never a link, never anything under another name.
"""
from __future__ import annotations

import io
import os
import re
import secrets
import shutil
import stat
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping, Optional

from reportlab.pdfgen.canvas import Canvas

from pipeline.base import locks
from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.data.dataset import display_path

PRODUCER = "Pantheon Press"
TEMP_PREFIX = ".pantheon-tmp-"
TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r".+\.[0-9a-f]{16}", re.DOTALL)


def temp_name(destination: str) -> str:
    """A fresh temporary name for writing ``destination`` (a name in the same folder); matches TEMP_NAME."""
    return f"{TEMP_PREFIX}{destination}.{secrets.token_hex(8)}"


@dataclass(frozen=True)
class Metadata:
    """What the PDF says about itself: title, game, and the options it was built with."""

    title: str
    game: str
    options: Mapping[str, str]

    @property
    def keywords(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in sorted(self.options.items()))


SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"


@contextmanager
def fixed_date() -> Iterator[None]:
    """For the duration, reportlab begins documents with invariant mode's fixed date (2000-01-01): the
    ``SOURCE_DATE_EPOCH`` it reads when a document is begun is set aside, and put back after."""
    saved = os.environ.pop(SOURCE_DATE_EPOCH, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[SOURCE_DATE_EPOCH] = saved


def new_canvas(buffer: io.BytesIO, meta: Metadata) -> Canvas:
    """A canvas in invariant mode, with compressed pages and the document's metadata set.

    Its initial font is the embedded family's (reportlab's default, Helvetica, is one of the 14
    standard fonts a PDF names without embedding, which pre-press checks refuse)."""
    fonts.register()
    with fixed_date():
        canvas = Canvas(buffer, invariant=1, pageCompression=1, initialFontName=fonts.font_name())
    canvas.setTitle(meta.title)
    canvas.setAuthor(PRODUCER)
    canvas.setCreator(f"{PRODUCER} pantheon build")
    canvas.setSubject(f"game: {meta.game}")
    canvas.setKeywords(meta.keywords)
    return canvas


def ensure_dir(folder: Path) -> None:
    """Create ``folder`` (and parents) or fail with a plain message."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create output folder {display_path(folder)}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write to output folder {display_path(folder)}: permission denied")


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

    The temporary file is created exclusively and without following a link; the rename replaces whatever
    is at ``path`` (a link there is replaced, never written through). ``durable`` flushes the file to disk
    before the rename (outputs); a manifest, which is checked when read back, skips that.
    """
    ensure_dir(path.parent)
    temp = path.with_name(temp_name(path.name))
    try:
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise UserError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.chmod(temp, 0o644)  # the file's mode does not depend on the umask: outputs are the same anywhere
        os.replace(temp, path)
    except OSError as exc:
        with suppress(FileNotFoundError):
            os.unlink(temp)  # this write's own temporary file, never another's
        raise UserError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from None
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def sweep_temporaries(folder: Path) -> list[str]:
    """Delete what a killed run left in ``folder`` and in its real subfolders: entries named as
    :func:`temp_name` names them that are regular files or real folders owned by this user. Links, other
    names and other users' entries are left alone; nothing is entered through a link. Call it holding
    the folder's lock. The names removed."""
    removed: list[str] = []
    for where in [folder, *_real_subfolders(folder)]:
        for entry in _entries(where):
            if not TEMP_NAME.fullmatch(entry.name):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
                if info.st_uid != os.getuid():
                    continue
                if stat.S_ISREG(info.st_mode):
                    os.unlink(entry.path)
                elif stat.S_ISDIR(info.st_mode):
                    shutil.rmtree(entry.path)  # removes links inside, never what they point to
                else:
                    continue
            except OSError:
                continue  # gone meanwhile, or not ours to remove: left as it is
            removed.append(entry.path)
    return removed


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError:
        return []


def _real_subfolders(folder: Path) -> list[Path]:
    return [Path(entry.path) for entry in _entries(folder)
            if entry.is_dir(follow_symlinks=False) and not TEMP_NAME.fullmatch(entry.name)]


def own_folder(out: Path, folder: Path) -> None:
    """Refuse to write through a link the run did not make: ``folder``, a folder inside ``out`` (the
    folder the user named, link or not), is a real folder or is created as one."""
    if folder == out:
        return
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return  # write_atomic creates it
    except OSError as exc:
        raise UserError(f"cannot use {display_path(folder)}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise UserError(f"{display_path(folder)} in the output folder {display_path(out)} is not a folder "
                        "(a link or a file): not writing through it")


@contextmanager
def output_lock(out_dir: Path, *, on_wait: Optional[Callable[[], None]] = None) -> Iterator[None]:
    """Hold the lock of output folder ``out_dir`` (created if missing) for the duration, after sweeping
    what a killed run left in it (:func:`sweep_temporaries`).

    Decide what is up to date and write the folder's files while holding it:
    another build into the same folder waits (``on_wait`` is called if it has
    to wait), so an output and its manifest entry always come from one build.
    The folder itself is locked: no lock file is made in it.
    """
    ensure_dir(out_dir)
    with ExitStack() as held:
        try:
            held.enter_context(locks.holding(out_dir, on_wait=on_wait))
        except locks.NotAcquired as exc:
            raise UserError(f"cannot lock output folder {display_path(out_dir)}: {exc}") from None
        sweep_temporaries(out_dir)
        yield
