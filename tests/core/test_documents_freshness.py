"""A document is rebuilt exactly when something it reads changes, and the skip leaves the same bytes.

Two games' real data in a scratch root (theocracy, heavenly-father), Markdown
for speed where the format does not matter, PDF where bytes and layout passes do.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.app import freshness
from pipeline.app.documents import DocumentsBuilt, update_documents
from pipeline.checks.validcache import NAMESPACE
from pipeline.data.dataset import default_data_root
from pipeline.games import registry

from .data_edits import edit

GAMES = ("theocracy", "heavenly-father")
CROSS_REFERENCE = "One of ten possible gods"  # a heavenly-father rules sentence we make name a theocracy role


def two_games(target: Path) -> Path:
    """A data root holding GAMES' real data and their schemas."""
    source = default_data_root()
    for game in GAMES:
        shutil.copytree(source / game, target / game)
        shutil.copytree(source / "schemas" / game, target / "schemas" / game)
    shutil.copy(source / "schemas" / "common.schema.json", target / "schemas" / "common.schema.json")
    return target


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding what building GAMES' documents keeps besides what is tested here (the documents'
    freshness entries) and the remembered validations: the loaded YAML, schema and card layout results,
    keyed by content, not by folder. A test starts with a copy: its first build is not a cold one."""
    work = tmp_path_factory.mktemp("warm")
    cache = work / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PANTHEON_CACHE", str(cache))
        update(two_games(work / "data"), work / "out")
    shutil.rmtree(cache / freshness.NAMESPACE)
    shutil.rmtree(cache / NAMESPACE)
    return cache


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm: Path) -> Path:
    shutil.copytree(warm, tmp_path / "cache")
    monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / "cache"))
    return two_games(tmp_path / "data")


def update(root: Path, out: Path, fmt: str = "md", games: tuple[str, ...] = GAMES, **extra: object) -> DocumentsBuilt:
    return update_documents(root, list(games), out_dir=out, fmt=fmt, glossary=False, **extra)  # type: ignore[arg-type]


def of(paths: list[Path], game: str) -> set[str]:
    return {p.name for p in paths if p.parent.name == game}


def snapshot(out: Path) -> dict[Path, tuple[int, bytes]]:
    return {p: (p.stat().st_ino, p.read_bytes()) for p in sorted(out.rglob("*.md"))}


def test_second_build_writes_nothing(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = update(root, out)
    assert first.written and not first.up_to_date
    before = snapshot(out)
    second = update(root, out)
    assert second.written == [] and sorted(second.up_to_date) == sorted(first.written)
    assert snapshot(out) == before  # the very same files, untouched


def test_an_edit_rebuilds_the_documents_that_show_it_and_no_other_game(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    update(root, out)
    other = snapshot(out / "heavenly-father")
    edit(root / "theocracy" / "glossary.yaml", "The score.", "The tally of the faithful.")
    done = update(root, out)
    showing = {p.name for p in (out / "theocracy").iterdir() if "tally of the faithful" in p.read_text(encoding="utf-8")}
    assert showing and of(done.written, "theocracy") == showing  # rebuilt: exactly those that now show it
    assert of(done.up_to_date, "theocracy") == {p.name for p in (out / "theocracy").iterdir()} - showing
    assert of(done.written, "heavenly-father") == set()
    assert snapshot(out / "heavenly-father") == other


def test_a_record_named_across_games_is_a_read_of_that_kind_only(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    naming = "As the [[theocracy:roles/first]] player knows, one of ten possible gods"
    edit(root / "heavenly-father" / "rules.yaml", CROSS_REFERENCE, naming)
    update(root, out)
    entry = freshness.Freshness(None, root, {"paper": "a4", "format": "md"}).entry("heavenly-father")  # type: ignore[arg-type]
    assert entry is not None and ("theocracy", "roles") in entry.reads and ("theocracy", "*") not in entry.reads

    edit(root / "theocracy" / "power-cards.yaml", "The smallest spark", "The faintest spark")  # not read by heavenly-father
    assert of(update(root, out).written, "heavenly-father") == set()

    edit(root / "theocracy" / "roles.yaml", "name: First\n", "name: Foremost\n")  # read by heavenly-father
    done = update(root, out)
    assert of(done.written, "heavenly-father")
    assert all("Foremost" in (out / "heavenly-father" / name).read_text(encoding="utf-8") for name in of(done.written, "heavenly-father"))


def test_a_damaged_or_missing_document_is_rebuilt(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = update(root, out)
    damaged, missing = first.written[0], first.written[1]
    good = damaged.read_bytes()
    damaged.write_bytes(good + b"x")
    missing.unlink()
    done = update(root, out)
    assert set(done.written) == {damaged, missing}
    assert damaged.read_bytes() == good


def test_a_layout_change_rebuilds_every_document(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first = update(root, out)
    monkeypatch.setattr(freshness, "look_hash", lambda: "another look")  # as a template, font or code edit does
    assert sorted(update(root, out).written) == sorted(first.written)


def test_pdf_skip_and_rebuild_give_the_same_bytes(root: Path, tmp_path: Path) -> None:
    """A rebuild laid out from last time's contents (one pass) equals a cold one (from predicted headings).
    One game's documents (Theocracy's rulebook has 38 contents entries): the layout passes are the same code
    for every game, and each PDF build lays out every document again."""
    out, cold, game = tmp_path / "out", tmp_path / "cold", ("theocracy",)
    update(root, out, fmt="pdf", games=game)
    edit(root / "theocracy" / "glossary.yaml", "The score.", "The tally of the faithful.")
    warm = update(root, out, fmt="pdf", games=game)
    assert warm.written
    fresh = update(root, cold, fmt="pdf", games=game, force=True)
    assert fresh.up_to_date == [] and any(cold.rglob("rulebook-*.pdf"))
    for path in cold.rglob("*.pdf"):
        assert path.read_bytes() == (out / path.relative_to(cold)).read_bytes(), path.name
    forced = update(root, out, fmt="pdf", games=game, force=True)
    assert sorted(forced.written) == sorted(p for p in out.rglob("*.pdf"))
    for path in cold.rglob("*.pdf"):
        assert path.read_bytes() == (out / path.relative_to(cold)).read_bytes(), path.name


def test_content_key_covers_every_field_and_refuses_unknown_values() -> None:
    from pipeline.documents import structure as m

    a = m.Document("T", "G", "rulebook", (m.Paragraph("one"),))
    assert freshness.content_key(a) == freshness.content_key(m.Document("T", "G", "rulebook", (m.Paragraph("one"),)))
    assert freshness.content_key(a) != freshness.content_key(m.Document("T", "G", "rulebook", (m.Paragraph("one", "small"),)))
    assert freshness.content_key(m.Document("T", "G", "rulebook", (object(),))) is None  # type: ignore[arg-type]


def test_entries_hold_for_any_output_folder(root: Path, tmp_path: Path) -> None:
    """Builds are deterministic: a folder is up to date when its files have the bytes these inputs make."""
    a, b = tmp_path / "a", tmp_path / "b"
    update(root, a)
    assert update(root, b).up_to_date == []  # nothing there yet
    assert update(root, a).written == []  # b's build did not make a stale
    edit(root / "theocracy" / "glossary.yaml", "The score.", "The tally of the faithful.")
    changed = of(update(root, b).written, "theocracy")
    assert changed and of(update(root, a).written, "theocracy") == changed  # a is behind: rebuilt the same way


def test_a_read_the_recorder_cannot_name_counts_as_reading_everything(root: Path) -> None:
    from pipeline.checks.validate import RecordCatalogue

    recorder = freshness.ReadRecorder(RecordCatalogue(root, registry.catalogue()))
    recorder._known  # noqa: B018  (an attribute only the inner catalogue has)
    assert (freshness.EVERY_GAME, freshness.WHOLE_GAME) in recorder.reads


def test_unchanged_files_are_not_even_loaded(root: Path, tmp_path: Path) -> None:
    from pipeline.checks.validate import RecordCatalogue

    out = tmp_path / "out"
    update(root, out)
    edit(root / "theocracy" / "glossary.yaml", "The score.", "The tally of the faithful.")
    catalogue = RecordCatalogue(root, registry.catalogue())
    done = update(root, out, catalogue=catalogue, validated=True)
    assert of(done.written, "theocracy") and of(done.written, "heavenly-father") == set()
    assert set(catalogue.file_digests) == {"theocracy"}  # heavenly-father's files are as they were: not loaded


def test_a_comment_edit_is_up_to_date_and_then_known_by_its_files(root: Path, tmp_path: Path) -> None:
    from pipeline.checks.validate import RecordCatalogue

    out = tmp_path / "out"
    update(root, out)
    path = root / "theocracy" / "glossary.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a note for editors\n", encoding="utf-8")
    assert update(root, out).written == []  # other bytes, the same data: nothing rebuilt
    catalogue = RecordCatalogue(root, registry.catalogue())
    assert update(root, out, catalogue=catalogue, validated=True).written == []
    assert catalogue.file_digests == {}  # the entry took the new bytes: the next build loads nothing


def test_an_edit_made_while_a_build_runs_is_not_taken_for_what_it_read(root: Path, tmp_path: Path) -> None:
    from pipeline.checks.validate import RecordCatalogue

    out = tmp_path / "out"
    update(root, out)
    edit(root / "theocracy" / "glossary.yaml", "The score.", "The tally of the faithful.")
    catalogue = RecordCatalogue(root, registry.catalogue())
    catalogue.game("theocracy")  # the build loads the data ...
    edit(root / "theocracy" / "glossary.yaml", "The tally of the faithful.", "The count of the faithful.")  # ... then
    update(root, out, catalogue=catalogue, validated=True)  # the file changes again before its documents are built
    assert not any("count of the faithful" in p.read_text(encoding="utf-8") for p in (out / "theocracy").iterdir())
    rebuilt = update(root, out).written  # the next build sees the file differs from what the last one read
    assert of(rebuilt, "theocracy") and any("count of the faithful" in p.read_text(encoding="utf-8") for p in rebuilt)


def test_the_glossary_reads_only_what_games_name_things(root: Path, tmp_path: Path) -> None:
    from pipeline.checks.validate import RecordCatalogue

    out = tmp_path / "out"
    with_glossary = {"fmt": "md", "glossary": True}
    update_documents(root, list(GAMES), out_dir=out, **with_glossary)  # type: ignore[arg-type]
    glossary = out / "glossary.md"
    edit(root / "theocracy" / "power-cards.yaml", "The smallest spark", "The faintest spark")  # flavour: no naming
    catalogue = RecordCatalogue(root, registry.catalogue())
    done = update_documents(root, list(GAMES), out_dir=out, catalogue=catalogue, validated=True, **with_glossary)  # type: ignore[arg-type]
    assert glossary in done.up_to_date and glossary not in done.written
    assert "heavenly-father" not in catalogue.file_digests  # neither it nor its view was loaded

    edit(root / "theocracy" / "glossary.yaml", "The score.", "The tally of the faithful.")  # a term's meaning
    done = update_documents(root, list(GAMES), out_dir=out, **with_glossary)  # type: ignore[arg-type]
    assert glossary in done.written
    entry = freshness.Freshness(None, root, {"paper": "a4", "format": "md"}).entry("/glossary")  # type: ignore[arg-type]
    assert entry is not None and ("theocracy", "*names") in entry.reads and ("theocracy", "*") not in entry.reads
