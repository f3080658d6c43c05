"""The store's contract (pipeline/store.py), the one cache every cached result goes through.

A result read back is the result computed; anything wrong with an entry (damaged, swapped, the wrong shape,
numbers JSON cannot hold, not a regular file) is a miss, never an error, a hang or a wrong value; a cache
that cannot be written is skipped; writers in several processes never spoil an entry; and any change to
the code (the whole package) or the templates in use reaches a warm cache, as a build with no cache.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest

from pipeline import store
from pipeline.base.shape import ShapeError

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = "contract"
INPUTS = ["one", 1]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(store.CACHE_ENV, str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A read that blocks (a named pipe, a device) fails the test instead of hanging the run."""
    def hung(*_: Any) -> None:
        raise AssertionError("the store blocked")

    before = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


class Computed:
    """A compute function that says how often it ran (the caller's own function: a miss runs it)."""

    def __init__(self, value: Any) -> None:
        self.value, self.runs = value, 0

    def __call__(self) -> Any:
        self.runs += 1
        return self.value


def pair(value: Any) -> list[Any]:
    """A decoder for [text, number] pairs."""
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and type(value[1]) in (int, float)):
        raise ShapeError("expected [text, number]")
    return value


def entry(inputs: list[Any] = INPUTS) -> Path:
    return store.cache_root() / NAMESPACE / f"{store.entry_name(NAMESPACE, inputs, store.scope())}{store.ENTRY_SUFFIX}"


def sealed(path: Path, payload: bytes, key: Optional[bytes] = None) -> bytes:
    """An entry of ``payload`` for ``path``, sealed as the store's format says (its digest covers the format,
    the namespace, the entry's name and the payload, keyed with the cache's secret: by default the one a
    forger who can read it finds beside the entries)."""
    if key is None:
        key = (path.parents[1] / store.KEY_NAME).read_bytes()
    digest = hashlib.blake2b(digest_size=store.DIGEST_SIZE, key=key)
    for part in (store.FORMAT, path.parent.name, path.name[: -len(store.ENTRY_SUFFIX)]):
        digest.update(part.encode() + b"\0")
    digest.update(payload)
    return f"{store.FORMAT} {digest.hexdigest()}\n".encode() + payload


def served(inputs: list[Any] = INPUTS, value: Any = ("computed", 2)) -> tuple[Any, int]:
    """What ``cached`` gives for ``inputs``, and whether it computed it (1) or read it back (0)."""
    compute = Computed(list(value))
    return store.cached(NAMESPACE, inputs, compute, decode=pair, under=store.scope()), compute.runs


def test_a_result_is_computed_once_then_read_back(cache: Path) -> None:
    assert served() == (["computed", 2], 1)
    assert served() == (["computed", 2], 0)
    assert served(["two", 1]) == (["computed", 2], 1)  # other inputs, another entry
    assert store.recall(NAMESPACE, INPUTS, pair, under=store.scope()) == ["computed", 2]


def test_a_result_json_cannot_hold_is_returned_and_not_kept(cache: Path) -> None:
    assert store.cached(NAMESPACE, INPUTS, lambda: float("nan"), decode=float, under=store.scope()) != 0  # NaN: returned
    assert not entry().exists()
    assert not store.keep(NAMESPACE, INPUTS, {"when": object()}, under=store.scope())


@pytest.mark.parametrize("damage", ["truncated", "bit flip in the payload", "bit flip in the seal", "empty",
                                    "payload only"])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(cache: Path, damage: str) -> None:
    served()
    path = entry()
    good = path.read_bytes()
    raw = bytearray(good)
    if damage == "truncated":
        raw = raw[:-4]
    elif damage == "bit flip in the payload":
        raw[-3] ^= 1
    elif damage == "bit flip in the seal":
        raw[len(store.FORMAT) + 4] ^= 1
    elif damage == "empty":
        raw = bytearray()
    else:
        raw = raw[raw.index(b"\n") + 1:]
    path.write_bytes(bytes(raw))
    assert served() == (["computed", 2], 1)
    assert path.read_bytes() == good


def test_entries_swapped_between_keys_are_misses(cache: Path) -> None:
    served(["a"], ("a", 1))
    served(["b"], ("b", 2))
    first, second = entry(["a"]), entry(["b"])
    raw_first, raw_second = first.read_bytes(), second.read_bytes()
    first.write_bytes(raw_second)
    second.write_bytes(raw_first)
    assert served(["a"], ("a", 1)) == (["a", 1], 1)
    assert served(["b"], ("b", 2)) == (["b", 2], 1)


def test_an_entry_of_another_namespace_is_a_miss(cache: Path) -> None:
    served()
    other = store.cache_root() / "other" / entry().name
    other.parent.mkdir()
    shutil.copy(entry(), other)
    assert store.recall("other", INPUTS, pair, under=store.scope()) is None


@pytest.mark.parametrize("payload", [b'{"a": 1}', b'["x"]', b'["x", "2"]', b'["x", true]', b"[1, 2]", b"not json",
                                     b'["x", 2]  trailing', b"\xff\xfe"])
def test_a_well_sealed_entry_of_the_wrong_shape_is_a_miss(cache: Path, payload: bytes) -> None:
    served()
    entry().write_bytes(sealed(entry(), payload))
    assert served() == (["computed", 2], 1)


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e400"])
def test_numbers_json_cannot_hold_are_refused(cache: Path, number: bytes) -> None:
    served()
    entry().write_bytes(sealed(entry(), b'["x", ' + number + b"]"))
    assert served() == (["computed", 2], 1)


def test_a_well_sealed_entry_of_the_right_shape_is_served(cache: Path) -> None:
    """Whoever can read the cache's key (its owner) can forge an entry; it gives data of the right shape only."""
    served()
    entry().write_bytes(sealed(entry(), b'["forged", 3.5]'))
    assert served() == (["forged", 3.5], 0)


def test_an_entry_sealed_without_the_caches_key_is_a_miss(cache: Path) -> None:
    """Another user sharing the cache folder cannot read its key, so what they write is never served."""
    served()
    entry().write_bytes(sealed(entry(), b'["forged", 3.5]', key=b"\0" * store.KEY_SIZE))
    assert served() == (["computed", 2], 1)
    entry().write_bytes(sealed(entry(), b'["forged", 3.5]', key=b""))  # the old, unkeyed seal
    assert served() == (["computed", 2], 1)


@pytest.mark.parametrize("damage", ["readable by others", "a link to a key", "too short", "a folder"])
def test_a_key_that_is_not_private_means_the_cache_is_skipped(cache: Path, tmp_path: Path, damage: str) -> None:
    served()
    key = cache / store.KEY_NAME
    if damage == "readable by others":
        key.chmod(0o644)
    elif damage == "a link to a key":
        elsewhere = tmp_path / "key"
        elsewhere.write_bytes(key.read_bytes())
        elsewhere.chmod(0o600)
        key.unlink()
        key.symlink_to(elsewhere)
    elif damage == "too short":
        key.write_bytes(b"short")
    else:
        key.unlink()
        key.mkdir()
    assert served() == (["computed", 2], 1)  # not read back
    assert served() == (["computed", 2], 1)  # and not kept either


def _replace(path: Path, make: Any) -> None:
    path.unlink()
    make(path)


@pytest.mark.parametrize("kind", ["named pipe", "directory", "link to /dev/zero", "link to a good entry",
                                  "dangling link", "huge file"])
def test_an_entry_that_is_no_regular_file_is_a_miss_without_blocking(cache: Path, tmp_path: Path, kind: str) -> None:
    served()
    path = entry()
    good = path.read_bytes()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(good)
    makers = {
        "named pipe": os.mkfifo,
        "directory": lambda p: p.mkdir(),
        "link to /dev/zero": lambda p: p.symlink_to("/dev/zero"),
        "link to a good entry": lambda p: p.symlink_to(elsewhere),
        "dangling link": lambda p: p.symlink_to(tmp_path / "nothing"),
        "huge file": lambda p: p.write_bytes(good[:good.index(b"\n") + 1] + b" " * (store.MAX_ENTRY_BYTES + 1)),
    }
    _replace(path, makers[kind])
    assert store.recall(NAMESPACE, INPUTS, pair, under=store.scope()) is None
    assert served()[0] == ["computed", 2]
    assert elsewhere.read_bytes() == good  # nothing written through a link


def test_a_namespace_folder_that_is_a_link_is_neither_read_nor_written_through(cache: Path, tmp_path: Path) -> None:
    served()
    target = tmp_path / "target"
    (cache / NAMESPACE).rename(target)
    (cache / NAMESPACE).symlink_to(target)
    assert store.recall(NAMESPACE, INPUTS, pair, under=store.scope()) is None
    before = sorted(p.name for p in target.iterdir())
    assert served(["new"]) == (["computed", 2], 1)
    assert sorted(p.name for p in target.iterdir()) == before


def test_a_cache_that_cannot_be_made_is_skipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(store.CACHE_ENV, str(blocker / "cache"))
    assert served() == (["computed", 2], 1)
    assert served() == (["computed", 2], 1)
    assert not store.keep(NAMESPACE, INPUTS, ["x", 1], under=store.scope())


def _in_own_mount(cache: Path, mount_options: str, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` with the store's cache on a tmpfs of its own (``mount_options``), in a private mount
    namespace (unshare: no effect outside the process); skipped where the system does not allow it."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    cache.mkdir(parents=True, exist_ok=True)
    command = f'mount -t tmpfs -o {mount_options} tmpfs "$1" && exec "$2" -c "$3"'
    env = {**os.environ, store.CACHE_ENV: str(cache)}
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", command, "sh", str(cache), sys.executable, "pass"],
                           capture_output=True, text=True, env=env)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.strip()}")
    return subprocess.run(["unshare", "-rm", "sh", "-c", command, "sh", str(cache), sys.executable, script],
                          capture_output=True, text=True, env=env, cwd=ROOT)


STORE_SCRIPT = textwrap.dedent("""
    from pipeline import store
    under = store.scope()
    runs = []
    def compute():
        runs.append(1)
        return ["computed", len(runs)]
    first = store.cached("contract", ["{key}"], compute, under=under)
    second = store.cached("contract", ["{key}"], compute, under=under)
    print(first, second, store.keep("contract", ["{key}"], ["x" * 100000, 1], under=under))
""")


def test_a_read_only_cache_is_skipped(tmp_path: Path) -> None:
    done = _in_own_mount(tmp_path / "cache", "ro", STORE_SCRIPT.format(key="k"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['computed',", "1]", "['computed',", "2]", "False"]


def test_a_full_disk_is_skipped_and_leaves_no_partial_entry(tmp_path: Path) -> None:
    script = STORE_SCRIPT.format(key="k") + textwrap.dedent("""
        import os
        leftovers = [name for folder, _, names in os.walk(store.cache_root()) for name in names if name != store.KEY_NAME]
        print(sorted(leftovers) == sorted(n for n in leftovers if n.endswith(".json")), len(leftovers))
    """)
    done = _in_own_mount(tmp_path / "cache", "size=12k", script)  # room for the small entry, not the large one
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["['computed',", "1]", "['computed',", "1]", "False"]
    assert lines[1] == "True 1"  # the small entry, whole; no temporary file of the failed write


WRITER = textwrap.dedent("""
    from pipeline import store
    under = store.scope()
    for round in range(40):
        for key in range(8):
            assert store.keep("contract", [f"k{key}"], [f"value {key}", key], under=under)
            assert store.recall("contract", [f"k{key}"], list, under=under) == [f"value {key}", key]
    """)


def test_concurrent_writers_leave_whole_entries(cache: Path) -> None:
    writers = [subprocess.Popen([sys.executable, "-c", WRITER], cwd=ROOT, stderr=subprocess.PIPE, text=True)
               for _ in range(4)]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    for key in range(8):
        assert store.recall(NAMESPACE, [f"k{key}"], pair, under=store.scope()) == [f"value {key}", key]
    assert sorted(p.suffix for p in (cache / NAMESPACE).iterdir()) == [store.ENTRY_SUFFIX] * 8


def _package_copy(tmp_path: Path) -> Path:
    """A checkout of its own: a copy of the package (to edit) beside the project's data and templates."""
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "pipeline", checkout / "pipeline", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", checkout)
    for folder in ("data", "templates"):
        (checkout / folder).symlink_to(ROOT / folder)
    return checkout


def _run(checkout: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, store.CACHE_ENV: str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=checkout, env=env, capture_output=True, text=True)


def test_any_code_change_reaches_a_warm_cache(tmp_path: Path) -> None:
    checkout, cache = _package_copy(tmp_path), tmp_path / "cache"
    imported = "import pipeline, sys; from pipeline import store; assert pipeline.__file__.startswith(sys.argv[1]); "
    keep = imported + "print(store.keep('contract', ['k'], ['computed', 1], under=store.scope()))"
    found = imported + "print(store.recall('contract', ['k'], list, under=store.scope()))"
    assert _run(checkout, cache, "-c", keep, str(checkout)).stdout.split() == ["True"]
    assert _run(checkout, cache, "-c", found, str(checkout)).stdout.split() == ["['computed',", "1]"]
    module = checkout / "pipeline" / "exports" / "__init__.py"  # a module no cached result here uses
    module.write_text(module.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    after = _run(checkout, cache, "-c", found, str(checkout))
    assert after.returncode == 0, after.stderr
    assert after.stdout.split() == ["None"]
    edited_templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", edited_templates)
    assert store.code_digest(edited_templates) == store.code_digest(ROOT / "templates")
    (edited_templates / "sheets.yaml").write_text("# an edit\n" + (ROOT / "templates" / "sheets.yaml").read_text())
    assert store.code_digest(edited_templates) != store.code_digest(ROOT / "templates")


def test_an_edit_to_the_art_conversion_reaches_a_warm_cache(tmp_path: Path) -> None:
    """The stale-art experiment: change how art becomes a form (``artstream``, which writes every shipped art
    layer) in a copy of the package; a warm cache then gives the PDF an empty cache gives, not the old one."""
    checkout, warm, cold = _package_copy(tmp_path), tmp_path / "warm", tmp_path / "cold"
    build = ["-m", "pipeline", "build", "theocracy", "--only", "cards", "--force"]

    def cards(cache: Path, out: str) -> bytes:
        done = _run(checkout, cache, *build, "--out", str(tmp_path / out))
        assert done.returncode == 0, done.stderr
        return (tmp_path / out / "theocracy" / "cards-a4.pdf").read_bytes()

    before = cards(warm, "before")
    writer = checkout / "pipeline" / "cards" / "artstream.py"
    source = writer.read_text(encoding="utf-8")
    line = "    main = mmult(main, translate(0 - vx, -vh - vy))\n"
    assert line in source
    writer.write_text(source.replace(line, line.replace("0 - vx", "0.05 - vx")), encoding="utf-8")
    after_warm = cards(warm, "after-warm")
    assert after_warm != before
    assert after_warm == cards(cold, "after-cold")


def test_what_a_killed_writer_left_is_never_read(cache: Path) -> None:
    """A write killed before its rename leaves its temporary file (named for its process): never an entry."""
    served()
    path = entry()
    left = path.with_name(f".{path.name[: -len(store.ENTRY_SUFFIX)]}.99999999.0000{store.TEMP_SUFFIX}")
    left.write_bytes(path.read_bytes())
    path.unlink()
    assert store.recall(NAMESPACE, INPUTS, pair, under=store.scope()) is None
    assert served() == (["computed", 2], 1)


def test_a_scope_holds_the_templates_as_they_were_when_it_was_taken(cache: Path, tmp_path: Path) -> None:
    """A scope is taken afresh each time (no memo): a template edited within one process (a watch between two
    rebuilds) gives the next scope another key, and an entry kept under the older one is not found under it."""
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    before = store.scope(templates)
    assert store.keep(NAMESPACE, INPUTS, ["kept", 1], under=before)
    (templates / "sheets.yaml").write_text("# an edit\n" + (ROOT / "templates" / "sheets.yaml").read_text())
    after = store.scope(templates)
    assert after.code != before.code and after.templates == before.templates == templates.resolve()
    assert store.recall(NAMESPACE, INPUTS, pair, under=after) is None
    assert store.recall(NAMESPACE, INPUTS, pair, under=before) == ["kept", 1]


def test_a_scope_is_reused_only_for_the_same_templates(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    project = store.scope(ROOT / "templates")
    assert store.scope(ROOT / "templates", reuse=project) is project
    other = store.scope(tmp_path / "templates", reuse=project)
    assert other is not project and other.templates == (tmp_path / "templates").resolve()
    assert other.code == project.code  # the same files: the same code, whatever folder holds them


def kept_entries(count: int, size: int) -> list[Path]:
    """``count`` entries of about ``size`` bytes each, oldest first (their times a minute apart)."""
    paths = []
    for number in range(count):
        inputs = ["bulk", number]
        assert store.keep(NAMESPACE, inputs, ["x" * size, number], under=store.scope())
        path = entry(inputs)
        os.utime(path, ns=(number * 60 * 10**9, number * 60 * 10**9))
        paths.append(path)
    return paths


def test_a_store_over_its_budget_loses_the_entries_used_longest_ago(cache: Path) -> None:
    paths = kept_entries(10, 1000)
    size = paths[0].stat().st_size
    assert store.recall(NAMESPACE, ["bulk", 1], pair, under=store.scope()) == ["x" * 1000, 1]  # used now
    store.tidy(budget=6 * size)
    kept = [path.exists() for path in paths]
    # over budget: the oldest go until a quarter of the budget is free (4 entries of 6), the one just read stays
    assert kept == [False, True, False, False, False, False, False, True, True, True]
    assert (cache / store.KEY_NAME).exists()
    assert store.recall(NAMESPACE, ["bulk", 9], pair, under=store.scope()) == ["x" * 1000, 9]


def test_a_store_within_its_budget_is_left_alone(cache: Path) -> None:
    paths = kept_entries(4, 1000)
    store.tidy(budget=4 * paths[0].stat().st_size)
    assert all(path.exists() for path in paths)


def test_tidying_removes_only_the_stores_own_names_and_follows_no_link(cache: Path, tmp_path: Path) -> None:
    paths = kept_entries(3, 1000)
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / ("a" * 40 + store.ENTRY_SUFFIX)
    victim.write_text("not the store's")
    (cache / "linked").symlink_to(outside, target_is_directory=True)  # a namespace folder that is a link
    (cache / NAMESPACE / ("b" * 40 + store.ENTRY_SUFFIX)).symlink_to(victim)  # an entry that is a link
    foreign = cache / NAMESPACE / "notes.txt"
    foreign.write_text("someone's notes")
    named_alike = cache / NAMESPACE / ("e" * 40 + store.ENTRY_SUFFIX)  # a store's name, not a store's content
    named_alike.write_text('{"mine": true}')
    old = 10**9
    killed = cache / NAMESPACE / f".{'c' * 40}.123.0badcafe{store.TEMP_SUFFIX}"  # a killed writer's, long ago
    killed.write_bytes(paths[0].read_bytes()[:100])
    os.utime(killed, ns=(old, old))
    writing = cache / NAMESPACE / f".{'d' * 40}.124.0badcafe{store.TEMP_SUFFIX}"  # a writer's, now
    writing.write_bytes(paths[0].read_bytes()[:100])
    store.tidy(budget=0)
    assert not any(path.exists() for path in paths) and not killed.exists()
    assert victim.read_text() == "not the store's" and foreign.exists() and writing.exists()
    assert named_alike.exists() and (cache / NAMESPACE / ("b" * 40 + store.ENTRY_SUFFIX)).is_symlink()


def test_a_folder_that_never_held_a_store_is_not_tidied(tmp_path: Path) -> None:
    """PANTHEON_CACHE pointed at some other folder by mistake: without the store's key nothing in it is removed."""
    folder = tmp_path / "documents"
    folder.mkdir()
    look_alike = folder / ("a" * 40 + store.ENTRY_SUFFIX)
    look_alike.write_text(f"{store.FORMAT} a file that only looks like an entry")
    store.tidy(tmp_path, budget=0)
    assert look_alike.exists()


def test_tidying_a_store_that_cannot_be_listed_does_nothing(tmp_path: Path) -> None:
    store.tidy(tmp_path / "missing")  # no folder: nothing to do, nothing raised
    (tmp_path / "file").write_text("")
    store.tidy(tmp_path / "file")


def test_each_scope_holds_the_store_to_its_budget(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = kept_entries(3, 1000)
    monkeypatch.setattr(store, "BUDGET_BYTES", 0)
    store.scope()
    assert not any(path.exists() for path in paths)
