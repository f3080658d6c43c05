"""Which documents need building again: a fingerprint per document from what its last build read.

A game's documents are made by one call of its spec's ``documents`` part,
which reads records through the :class:`~pipeline.checks.references.References`
catalogue: the whole of its own game (``ctx.game``, the model) and single
record kinds of other games (a ``[[other-game/kind/id]]`` reference). A
:class:`ReadRecorder` notes every such read, so the fingerprint covers exactly
what the documents read, and new document content is covered without a list
to keep up to date. The fingerprint also covers what decides how any document
looks: the pipeline's code, every template, the fonts, the libraries' versions,
and the build options (paper, format, kind).

Two checks, cheapest first, all stored per game under the cache
(:mod:`pipeline.store`, namespace ``documents``):

1. *Reads*: the look and the options are what the last build saw, every
   document is still the file it wrote, and each recorded read returns what
   it returned then: the game's documents are not even assembled. A read
   whose data files (a whole game's YAML files, a record kind's file) are
   byte for byte those the last build loaded is vouched for without loading
   them (a build after an edit to one game loads no other game for its
   documents); a read whose files changed is loaded and its data compared
   (hashed as loaded, so a comment-only edit changes nothing).
2. *Content*: the assembled document (a tree of frozen dataclasses) hashes to
   what the last build rendered, and its file is still that build's: it is
   not laid out again (most documents of a game do not show a given card).

A missing, damaged or mismatching entry is a miss: the document is rendered.
Each entry also keeps where the contents entries landed last time, which the
renderer takes as its first guess (see ``PdfRenderer.render``).
"""
from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from pipeline import store as cachestore
from pipeline.app.buildstamp import feed_files, files_under
from pipeline.cards import fonts
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.checks.validate import RecordCatalogue, data_file_digests
from pipeline.data.dataset import DATA_SUFFIX, GameData, data_files

NAMESPACE = "documents"
ENTRY_VERSION = 3
WHOLE_GAME = "*"  # a read of a whole game (its GameData: every document, the model)
EVERY_GAME = "*"  # with WHOLE_GAME: a read of all the data
PIPELINE_ROOT = Path(__file__).resolve().parents[1]
# The libraries whose output ends up in a document (layout, fonts, SVG icons, YAML and schema reading).
LIBRARIES = ("reportlab", "rl_accel", "svglib", "lxml", "cssselect2", "tinycss2", "pillow", "pyyaml", "jsonschema")
TocGuess = list[tuple[int, str, int]]
VIEWS: dict[str, Callable[[GameData], Any]] = {}  # name -> view of a loaded game (register_view)


class ReadRecorder(RecordCatalogue):
    """A view of a catalogue that notes each game and record kind it is asked for.

    Reads go to the catalogue it wraps (the games loaded once for the command);
    a read of a whole game is noted as ``(game, "*")``, a record look-up as ``(game, kind)``.
    """

    def __init__(self, inner: RecordCatalogue) -> None:  # no super().__init__: the inner catalogue holds the data
        self.inner = inner
        self.specs = inner.specs
        self.reads: set[tuple[str, str]] = set()

    def game(self, game: str) -> GameData:
        self.reads.add((game, WHOLE_GAME))
        return self.inner.game(game)

    def find(self, game: str, kind: str, record_id: str) -> Optional[dict[str, Any]]:
        self.reads.add((game, kind))
        return self.inner.find(game, kind, record_id)

    def view(self, game: str, name: str) -> Any:
        """A registered view of a game (see :func:`register_view`), noted as a read of that view only."""
        self.reads.add((game, name))
        return VIEWS[name](self.inner.game(game))

    def __getattr__(self, name: str) -> Any:
        """Any other way into the catalogue counts as reading every game (a safe over-estimate)."""
        self.reads.add((EVERY_GAME, WHOLE_GAME))
        return getattr(self.inner, name)


def register_view(name: str, view: Callable[[GameData], Any]) -> None:
    """Make ``view`` (a function of a loaded game returning JSON-like data) readable as ``name``, which
    starts with WHOLE_GAME: the read covers the game's files, and its data is the view's result. A
    document that reads a game only through a view is up to date while the view is unchanged."""
    if not name.startswith(WHOLE_GAME) or name == WHOLE_GAME:
        raise ValueError(f"a view's name starts with {WHOLE_GAME!r}: {name!r}")
    VIEWS[name] = view


def _hash_json(digest: Any, value: Any) -> None:
    digest.update(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":")).encode())
    digest.update(b"\0")


def look_hash(template_root: Path = TEMPLATE_ROOT) -> str:
    """What decides how any document looks, whatever its data: code, templates, fonts, library versions."""
    digest = hashlib.sha256(cachestore.library_versions(*LIBRARIES).encode())
    feed_files(digest, [*files_under(PIPELINE_ROOT, "*.py"), *files_under(template_root), *fonts.font_files()])
    return digest.hexdigest()


def content_key(value: Any) -> Optional[str]:
    """A digest of a document tree (dataclasses, tuples, lists, dicts, text and numbers), every field
    included; None when it holds anything else (such a document cannot be matched and is always laid out)."""
    digest = hashlib.sha256()
    try:
        _feed(digest, value)
    except _Unkeyable:
        return None
    return digest.hexdigest()


class _Unkeyable(Exception):
    pass


def _feed(digest: Any, value: Any) -> None:
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        digest.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, enum.Enum):
        digest.update(f"{type(value).__qualname__}.{value.name};".encode())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        digest.update(f"{type(value).__module__}.{type(value).__qualname__}(".encode())
        for item in dataclasses.fields(value):
            digest.update(f"{item.name}=".encode())
            _feed(digest, getattr(value, item.name))
        digest.update(b")")
    elif isinstance(value, (tuple, list)):
        digest.update(f"{type(value).__name__}[".encode())
        for item in value:
            _feed(digest, item)
        digest.update(b"]")
    elif isinstance(value, dict):
        digest.update(b"{")
        for key, item in value.items():
            _feed(digest, key)
            _feed(digest, item)
        digest.update(b"}")
    else:
        raise _Unkeyable(type(value).__name__)


@dataclass
class DocEntry:
    """What the last build of one document saw and wrote."""

    content: str  # content_key of the document with the look and options, "" when it had none
    output: str  # sha256 of the file written
    toc: TocGuess = field(default_factory=list)  # where its contents entries landed


@dataclass
class GameEntry:
    """The last build of one game's documents (or of the combined glossary)."""

    reads: list[tuple[str, str]]
    frame: str  # digest of the look, the options and which games exist
    files: dict[str, str]  # per read (see read_key): its data files' digest, as the build loaded them
    data: dict[str, str]  # per read: the digest of the data it returned
    docs: dict[str, DocEntry]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": ENTRY_VERSION,
            "reads": [list(read) for read in self.reads],
            "frame": self.frame,
            "files": dict(self.files),
            "data": dict(self.data),
            "docs": {kind: {"content": d.content, "output": d.output, "toc": [list(t) for t in d.toc]} for kind, d in self.docs.items()},
        }

    @staticmethod
    def from_json(raw: Any) -> "GameEntry":
        if raw["version"] != ENTRY_VERSION:
            raise ValueError("old entry")
        reads = [(str(game), str(kind)) for game, kind in raw["reads"]]
        docs = {
            str(kind): DocEntry(str(d["content"]), str(d["output"]), [(int(a), str(b), int(c)) for a, b, c in d["toc"]])
            for kind, d in raw["docs"].items()
        }
        if not (isinstance(raw["files"], dict) and isinstance(raw["data"], dict)):
            raise ValueError("expected files and data by read")
        files = {str(k): str(v) for k, v in raw["files"].items()}
        data = {str(k): str(v) for k, v in raw["data"].items()}
        return GameEntry(reads, str(raw["frame"]), files, data, docs)


def read_key(game: str, kind: str) -> str:
    return f"{game}/{kind}"


class Freshness:
    """The document entries of one paper and format, for one command.

    ``catalogue``: the games as loaded for the command (reads are hashed as that data, not re-read).
    Entries are not per output folder: builds are deterministic, so an entry says which bytes these
    inputs make, and a document in any folder is up to date when its file has those bytes.
    """

    def __init__(self, catalogue: RecordCatalogue, data_root: Path, options: dict[str, str]) -> None:
        self.catalogue = catalogue
        self.data_root = data_root
        self.options = options
        self._look: Optional[str] = None
        self._on_disk: dict[str, dict[str, str]] = {}  # each game's data files read once per command

    @property
    def look(self) -> str:
        if self._look is None:
            self._look = look_hash()
        return self._look

    def _name(self, owner: str) -> str:
        return cachestore.key_of([owner, json.dumps(self.options, sort_keys=True)])

    def entry(self, owner: str) -> Optional[GameEntry]:
        """The stored entry of ``owner`` (a game id, or the glossary's name), or None."""
        return cachestore.read(NAMESPACE, self._name(owner), GameEntry.from_json)

    def store(self, owner: str, entry: GameEntry) -> None:
        cachestore.write(NAMESPACE, self._name(owner), entry.to_json())

    def frame(self) -> str:
        """The digest of the look, the options and which games exist."""
        digest = hashlib.sha256(self.look.encode())
        _hash_json(digest, self.options)
        _hash_json(digest, self._games())
        return digest.hexdigest()

    def _games(self) -> list[str]:
        return sorted(p.name for p in self.data_root.iterdir() if p.is_dir())

    def _each(self, reads: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """``reads``, a read of all the data spelled out as a read of each game, sorted."""
        wanted = set(reads)
        if (EVERY_GAME, WHOLE_GAME) in wanted:
            wanted |= {(game, WHOLE_GAME) for game in self._games()}
        return sorted(wanted)

    def files(self, game: str, kind: str, *, as_loaded: bool = False) -> str:
        """The digest of the data files behind one read (a whole game: each of its YAML files; a record
        kind: its file): as they are on disk now, or ``as_loaded``, as the catalogue found them just
        before it loaded them (so an edit made while a build runs is never taken for what it read).
        Equal files load as equal data, so an equal digest vouches for the read without loading."""
        loaded: dict[str, dict[str, str]] = getattr(self.catalogue, "file_digests", {}) if as_loaded else {}
        found = loaded.get(game)
        if found is None:
            if game not in self._on_disk:
                self._on_disk[game] = data_file_digests(self.data_root / game)
            found = self._on_disk[game]
        digest = hashlib.sha256()
        whole = kind.startswith(WHOLE_GAME)  # the game, or a view of it
        _hash_json(digest, sorted(found.items()) if whole else found.get(f"{kind}{DATA_SUFFIX}"))
        return digest.hexdigest()

    def data(self, game: str, kind: str) -> str:
        """The digest of what one read returns today (its game loaded, once per command)."""
        digest = hashlib.sha256()
        if kind != WHOLE_GAME and kind.startswith(WHOLE_GAME):  # a view
            if kind not in VIEWS:
                return "unknown view"  # never a stored digest: the documents are made again
            if (self.data_root / game).is_dir():
                _hash_json(digest, VIEWS[kind](self.catalogue.game(game)))
            return digest.hexdigest()
        if (self.data_root / game).is_dir():
            loaded = self.catalogue.game(game)
            kinds = [kind] if kind != WHOLE_GAME else sorted(loaded.docs)
            if kind == WHOLE_GAME:
                _hash_json(digest, [p.name for p in data_files(self.data_root / game)])
            for name in kinds:
                document = loaded.docs.get(name)
                _hash_json(digest, document.data if document is not None else None)
        return digest.hexdigest()

    def record(self, reads: Iterable[tuple[str, str]], docs: dict[str, DocEntry]) -> GameEntry:
        """The entry of a build that made (or kept) ``docs`` from ``reads`` of the catalogue's data."""
        each = self._each(reads)
        files = {read_key(*read): self.files(*read, as_loaded=True) for read in each}
        return GameEntry(sorted(set(reads)), self.frame(), files, {read_key(*read): self.data(*read) for read in each},
                         docs)

    def check(self, entry: GameEntry) -> Optional[GameEntry]:
        """None when a read of ``entry`` returns other data today (or the look or options changed); else
        the entry, with the new file digests of reads whose files changed but not their data (a comment
        edited). Only the games whose files changed are loaded."""
        if entry.frame != self.frame():
            return None
        files = dict(entry.files)
        for game, kind in self._each(entry.reads):
            key = read_key(game, kind)
            now = self.files(game, kind)
            if files.get(key) == now:
                continue
            if key not in entry.data or self.data(game, kind) != entry.data[key]:
                return None
            files[key] = now
        return entry if files == entry.files else replace(entry, files=files)

    def content(self, kind: str, document: Any) -> str:
        """The content key of one assembled document with the look and options ("" when it has none)."""
        key = content_key(document)
        if key is None:
            return ""
        return hashlib.sha256(f"{self.look}\0{json.dumps(self.options, sort_keys=True)}\0{kind}\0{key}".encode()).hexdigest()

    @staticmethod
    def still_written(path: Path, doc: DocEntry) -> bool:
        """Whether ``path`` is still the file the entry's build wrote."""
        return cachestore.file_digest(path) == doc.output
