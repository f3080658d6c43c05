"""Shared helpers for the render tests: a toy template folder, toy plans, and PDF readers."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from pypdf import PdfReader

from pipeline.cards.build import Plan
from pipeline.cards.pdfcheck import fonts_not_embedded  # noqa: F401  (the tests' name for it)
from pipeline.cards.pdfwrite import TEMP_NAME
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT

TOY_TEMPLATES = Path(__file__).resolve().parents[1] / "fixtures" / "render-templates" / "toy"
SIXTY_WORDS = " ".join(["Consume the god beneath this, then :aspect-sun: bless one worshiper"] * 6)


def cli_env(cache: Optional[Path] = None) -> dict[str, str]:
    """The environment of a `pantheon` subprocess: no debug tracebacks, and ``cache`` as its cache."""
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    if cache is not None:
        env["PANTHEON_CACHE"] = str(cache)
    return env


def run_cli(*args: str, cache: Optional[Path] = None, **options: Any) -> subprocess.CompletedProcess[str]:
    """Run `pantheon ARGS` in a fresh process (with its own cache folder when ``cache`` is given)."""
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, env=cli_env(cache), **options
    )


def start_cli(*args: str, cache: Optional[Path] = None, **options: Any) -> subprocess.Popen[str]:
    """Start `pantheon ARGS` without waiting for it (output captured)."""
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(cache),
        **options,
    )


HOLD_LOCK = """
import sys
from pathlib import Path
from pipeline.base import locks
with locks.holding(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


def hold_lock(folder: Path) -> subprocess.Popen[str]:
    """Another process holding the lock of ``folder`` until its stdin closes (``.communicate("")``)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


class PickleBomb:
    """Unpickling this creates ``marker``: the proof that a reader ran stored code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[str, str]]:
        return open, (str(self.marker), "w")


def pdfs(out: Path) -> dict[str, bytes]:
    """Every PDF under an output folder, by its path inside it."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def temporaries(*folders: Path) -> list[Path]:
    """What an interrupted write leaves: temporary files and folders (outputs) and ``*.tmp`` files (caches)."""
    return [p for folder in folders for p in folder.rglob("*") if TEMP_NAME.fullmatch(p.name) or p.name.endswith(".tmp")]


def toy_template_root(tmp_path: Path) -> Path:
    """A copy of the project's templates/ with the toy game's templates added under cards/toy/."""
    root = tmp_path / "templates"
    shutil.copytree(TEMPLATE_ROOT, root)
    shutil.copytree(TOY_TEMPLATES, root / "cards" / "toy")
    return root


def toy_card(index: int, *, body: str = "Gain **two** Faith & <lose> one.", double_sided: bool = False) -> PrintCard:
    name = f"Toy Card {index:02d}"
    return PrintCard(
        f"toy-{index:02d}",
        name,
        Face("toy/front.svg.j2", {"name": name, "body": body}),
        Face("toy/back.svg.j2", {"name": name}),
        double_sided=double_sided,
    )


def toy_plan(count: int, **kwargs: object) -> Plan:
    return Plan("toy", "Toy Game", [toy_card(i, **kwargs) for i in range(count)])  # type: ignore[arg-type]


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def placements(page: object) -> Iterator[tuple[str, float, float, float]]:
    """(form name, x, y, rotation degrees) of each face drawn on a page, from its content stream.

    A face is drawn in a page-level q..Q block: its own form (when used more than once), or its
    art layers followed by its slots; the first form drawn in the block marks where the face went.
    """
    from pypdf.generic import ContentStream

    contents = ContentStream(page.get_contents(), page.pdf)  # type: ignore[attr-defined]
    matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    stack: list[list[float]] = []
    placed = False  # the current page-level q..Q block already yielded its face
    for operands, operator in contents.operations:
        if operator == b"q":
            stack.append(matrix)
            if len(stack) == 1:
                placed = False
        elif operator == b"Q":
            matrix = stack.pop()
        elif operator == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            m = matrix
            matrix = [
                a * m[0] + b * m[2], a * m[1] + b * m[3],
                c * m[0] + d * m[2], c * m[1] + d * m[3],
                e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5],
            ]
        elif operator == b"Do" and len(stack) == 1 and not placed:
            name = str(operands[0]).lstrip("/")
            if ".art_" in name or ".face_" in name:
                placed = True
                yield name, matrix[4], matrix[5], 180.0 if matrix[0] < 0 else 0.0


def qpdf_check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)


def _multiply(a: list[float], m: list[float]) -> list[float]:
    """The PDF matrix ``a`` applied after ``m`` (``a x m`` in PDF's row-vector convention)."""
    return [
        a[0] * m[0] + a[1] * m[2], a[0] * m[1] + a[1] * m[3],
        a[2] * m[0] + a[3] * m[2], a[2] * m[1] + a[3] * m[3],
        a[4] * m[0] + a[5] * m[2] + m[4], a[4] * m[1] + a[5] * m[3] + m[5],
    ]


def segments(page: object) -> list[tuple[float, float, float, float]]:
    """Straight lines stroked in the page's own content (crop marks, registration crosses), in page points."""
    from pypdf.generic import ContentStream

    contents = ContentStream(page.get_contents(), page.pdf)  # type: ignore[attr-defined]
    matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    stack: list[list[float]] = []
    point: Optional[tuple[float, float]] = None
    pending: list[tuple[float, float, float, float]] = []
    found: list[tuple[float, float, float, float]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        return x * matrix[0] + y * matrix[2] + matrix[4], x * matrix[1] + y * matrix[3] + matrix[5]

    for operands, operator in contents.operations:
        if operator == b"q":
            stack.append(matrix)
        elif operator == b"Q":
            matrix = stack.pop()
        elif operator == b"cm":
            matrix = _multiply([float(v) for v in operands], matrix)
        elif operator == b"m":
            point = at(float(operands[0]), float(operands[1]))
        elif operator == b"l" and point is not None:
            end = at(float(operands[0]), float(operands[1]))
            pending.append((*point, *end))
            point = end
        elif operator in (b"S", b"s", b"B", b"b"):
            found.extend(pending)
            pending = []
        elif operator in (b"n", b"f", b"F", b"f*"):  # a path filled or only clipped: not a stroked line
            pending = []
    return found


def clip_rects(page: object) -> list[tuple[float, float, float, float]]:
    """The rectangles a page's own content clips to (``re W n``), in page points, in order."""
    from pypdf.generic import ContentStream

    contents = ContentStream(page.get_contents(), page.pdf)  # type: ignore[attr-defined]
    found: list[tuple[float, float, float, float]] = []
    last: Optional[tuple[float, float, float, float]] = None
    depth = 0
    for operands, operator in contents.operations:
        if operator == b"q":
            depth += 1
        elif operator == b"Q":
            depth -= 1
        elif operator == b"re":
            last = tuple(float(v) for v in operands)  # type: ignore[assignment]
        elif operator in (b"W", b"W*") and last is not None and depth == 1:
            found.append(last)
    return found
