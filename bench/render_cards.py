"""Card-sheet speed and memory: our pipeline against a plain reportlab script drawing the same cards.

The baseline draws every card directly: rounded frame, title, a 60-word
wrapped paragraph, an icon, crop marks, and the backs mirrored on the
following page. Ours renders the same card from an SVG template (fixed art as
a reused form, text fitted per card). Each measurement runs in a fresh
process, best of three; figures: ms per card, cards per second, peak memory
(max RSS of the process).
Also: all five games' real card sheets (once, and three times over to pass 1000
cards) with warm caches, with every card's text new, and cold; with validation;
and the no-op `make build` time.

First, the figure issue #12 sets its goal on: `pantheon build --only cards
--force` as a whole command (start-up, imports, loading and checking the data
included) against the plain reportlab script as a command of its own drawing
the same number of cards and writing its PDF, in the same run: best of three,
wall and CPU (user + system of the child), per card, with the load average.

Run: `make bench` (or `.venv/bin/python bench/render_cards.py`; `--commands`
for the whole-command figures only).
"""
from __future__ import annotations

import io
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

from pipeline.games.registry import catalogue

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CACHE_ENV = "PANTHEON_CACHE"  # pipeline.cards.artcache.CACHE_ENV (not imported: the parent stays light)
PANTHEON = Path(sys.executable).parent / "pantheon"
CARDS_LINE = re.compile(r"\((\d+) cards, ")
SIZES = (100, 1000)
RUNS = 3
TARGET_RATIO = 1.5
NOOP_TARGET_S = 2.0
WORDS = ("the god beneath this consumes every card nearest itself and then a worshiper is blessed once more "
         "while the veiled deck waits below in silence").split()


def paragraph(card: int) -> str:
    """Card ``card``'s 60-word text, its own on every card (the same words, drawn in a different order),
    so each card's text is laid out afresh as in a real deck: identical text on every card would
    let the pipeline's per-document layout cache do the work once."""
    chooser = random.Random(card)
    return " ".join(chooser.choice(WORDS) for _ in range(60))


MM = 72 / 25.4
CARD_W, CARD_H, BLEED = 63 * MM, 88 * MM, 3 * MM

FRONT = """{% from "_card.svg.j2" import card, frame %}
{% call card(63, 88) %}
{{ frame(63, 88, "#f4ecd8", "#6b4f2a") }}
{{ icon("aspect-sun", 51, 6, 7) }}
<pp:text x="6" y="6" width="44" height="8" size="12" min-size="8" font-weight="bold" bg="#f4ecd8">{{ title }}</pp:text>
<pp:text x="6" y="20" width="51" height="60" size="8.5" min-size="7" bg="#f4ecd8">{{ body }}</pp:text>
{% endcall %}
"""
BACK = """{% from "_card.svg.j2" import card, frame %}
{% call card(63, 88) %}
{{ frame(63, 88, "#2a3b5c", "#d9c38a") }}
<pp:text x="6" y="40" width="51" height="8" size="12" min-size="8" align="center" fill="#ffffff" font-weight="bold" bg="#2a3b5c">PANTHEON</pp:text>
{% endcall %}
"""


def baseline(count: int) -> bytes:
    """Plain reportlab: every card and back drawn directly, 8 per A4 landscape page, backs mirrored."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    from pipeline.cards import fonts

    fonts.register()
    regular, bold = fonts.font_name(fonts.REGULAR), fonts.font_name(fonts.BOLD)
    style = ParagraphStyle("body", fontName=regular, fontSize=8.5, leading=10)
    page_w, page_h = landscape(A4)
    cols, rows = 4, 2
    cell_w, cell_h = CARD_W + 2 * BLEED, CARD_H + 2 * BLEED
    left, bottom = (page_w - cols * cell_w) / 2, (page_h - rows * cell_h) / 2
    slots = [(left + c * cell_w, bottom + (rows - 1 - r) * cell_h) for r in range(rows) for c in range(cols)]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(page_w, page_h), invariant=1, pageCompression=1)

    def marks() -> None:
        canvas.setLineWidth(0.3)
        for x, y in slots:
            for cut in (x + BLEED, x + cell_w - BLEED):
                canvas.line(cut, bottom - 4, cut, bottom - 18)
                canvas.line(cut, page_h - bottom + 4, cut, page_h - bottom + 18)
            for cut in (y + BLEED, y + cell_h - BLEED):
                canvas.line(left - 4, cut, left - 18, cut)
                canvas.line(page_w - left + 4, cut, page_w - left + 18, cut)

    for start in range(0, count, len(slots)):
        chunk = range(start, min(count, start + len(slots)))
        for index, (x, y) in zip(chunk, slots):
            canvas.setFillColor("#f4ecd8")
            canvas.rect(x, y, cell_w, cell_h, stroke=0, fill=1)
            canvas.setStrokeColor("#6b4f2a")
            canvas.roundRect(x + BLEED + 3 * MM, y + BLEED + 3 * MM, CARD_W - 6 * MM, CARD_H - 6 * MM, 3 * MM)
            canvas.setFillColor("#e09a00")
            canvas.circle(x + BLEED + 54.5 * MM, y + BLEED + CARD_H - 9.5 * MM, 3 * MM, stroke=0, fill=1)
            canvas.setFillColor("#000000")
            canvas.setFont(bold, 12)
            canvas.drawString(x + BLEED + 6 * MM, y + BLEED + CARD_H - 12 * MM, f"Card {index}")
            body = Paragraph(paragraph(index), style)
            _, height = body.wrapOn(canvas, 51 * MM, 60 * MM)
            body.drawOn(canvas, x + BLEED + 6 * MM, y + BLEED + CARD_H - 20 * MM - height)
        marks()
        canvas.showPage()
        for _index, (x, y) in zip(chunk, slots):
            mx = page_w - x - cell_w
            canvas.setFillColor("#2a3b5c")
            canvas.rect(mx, y, cell_w, cell_h, stroke=0, fill=1)
            canvas.setStrokeColor("#d9c38a")
            canvas.roundRect(mx + BLEED + 3 * MM, y + BLEED + 3 * MM, CARD_W - 6 * MM, CARD_H - 6 * MM, 3 * MM)
            canvas.setFillColor("#ffffff")
            canvas.setFont(bold, 12)
            canvas.drawCentredString(mx + cell_w / 2, y + cell_h / 2, "PANTHEON")
        marks()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def bench_templates(work: Path) -> Path:
    """The project's templates plus the bench card (set up before the clock starts)."""
    from pipeline.cards.svgtemplates import TEMPLATE_ROOT

    root = work / "templates"
    shutil.copytree(TEMPLATE_ROOT, root)
    (root / "cards" / "bench").mkdir()
    (root / "cards" / "bench" / "front.svg.j2").write_text(FRONT)
    (root / "cards" / "bench" / "back.svg.j2").write_text(BACK)
    return root


def ours(count: int, root: Path) -> bytes:
    from pipeline.cards.build import BuildOptions, Plan, render_pdf
    from pipeline.cards.imposition import Duplex
    from pipeline.cards.plan import Face, PrintCard

    back = Face("bench/back.svg.j2", {})
    cards = [
        PrintCard(f"c{i}", f"Card {i}", Face("bench/front.svg.j2", {"title": f"Card {i}", "body": paragraph(i)}), back)
        for i in range(count)
    ]
    data, _ = render_pdf(Plan("bench", "Bench", cards), BuildOptions(duplex=Duplex.LONG), template_root=root)
    return data


def import_games() -> None:
    """Import every game's renderer (and its model) before the clock starts, like the core's own imports."""
    import pipeline.games.registry  # noqa: F401  (importing the registry imports every game's parts)


def games(passes: int = 1, *, validation: bool = False) -> tuple[int, bytes]:
    """Every game's real card sheet (A4), built in one process ``passes`` times over; returns (cards, last pdf).

    Loading the data is always included (it is part of a build); ``validation``
    also runs `pantheon validate` on the games first, as `pantheon build` does.
    """
    from pipeline.cards.build import BuildOptions, plan, render_pdf
    from pipeline.checks.validate import validate
    from pipeline.data.dataset import default_data_root, load_game
    from pipeline.games.registry import select, spec

    chosen = [g for g in select(default_data_root()) if spec(g).cards is not None]
    if validation and not validate(default_data_root(), catalogue(), chosen).ok:
        raise SystemExit("the data does not validate: run `pantheon validate`")
    total, data = 0, b""
    for _ in range(passes):
        for game in chosen:
            the_plan = plan(default_data_root(), game, load_game(default_data_root(), spec(game)))
            data, _ = render_pdf(the_plan, BuildOptions())
            total += the_plan.card_count
    return total, data


def measure_here(kind: str, count: int) -> dict[str, float]:
    """Run one measurement in this process (called in a child process)."""
    import reportlab.platypus  # noqa: F401

    import pipeline.cards.build  # noqa: F401  (imports are not part of either figure)
    import pipeline.checks.validate  # noqa: F401

    import_games()

    work = ROOT / ".cache" / "bench"  # a fixed place, so the template paths (part of cache keys) are the same every run
    shutil.rmtree(work, ignore_errors=True)
    root = bench_templates(work)
    start = time.perf_counter()
    if kind == "baseline":
        data = baseline(count)
    elif kind == "ours":
        data = ours(count, root)
    elif kind == "games":
        count, data = games(count)
    else:
        count, data = games(count, validation=True)
    seconds = time.perf_counter() - start
    shutil.rmtree(work)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "cards": count, "bytes": len(data), "peak_mb": peak_mb}


WARM, EDITED, COLD = "warm", "edited", "cold"
# What an edit of every card's text (not of the templates) leaves out of date in the cache.
TEXT_BOUND_CACHES = ("faces", "validated")  # what rewording every card makes stale


def measure(kind: str, count: int, *, cache: str = WARM) -> dict[str, float]:
    """The best of RUNS fresh processes (timings on a shared machine are noisy; the minimum is the cost).

    ``cache``: WARM uses the project's cache as earlier builds left it; EDITED a
    copy without what depends on the card data (set faces, verdicts), as after
    rewording every card; COLD an empty one, so no face is set and no art
    converted beforehand (a first build, or one after every template changed).
    """
    runs = []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as scratch:
            env = None
            if cache == COLD:
                env = {**os.environ, CACHE_ENV: scratch}
            elif cache == EDITED:
                copy = Path(scratch) / "cache"
                shutil.copytree(os.environ.get(CACHE_ENV) or ROOT / ".cache", copy)
                for part in TEXT_BOUND_CACHES:
                    shutil.rmtree(copy / part, ignore_errors=True)
                env = {**os.environ, CACHE_ENV: str(copy)}
            out = subprocess.run(
                [sys.executable, __file__, "--one", kind, str(count)], capture_output=True, text=True, check=True, env=env
            )
        runs.append(json.loads(out.stdout))
    return min(runs, key=lambda m: m["seconds"])


def row(label: str, m: dict[str, float], base: dict[str, float] | None = None) -> str:
    """One line of the table; with ``base``, the per-card cost ratio to the baseline at the same card count."""
    per_card = 1000 * m["seconds"] / m["cards"]
    line = f"{label:<40}{m['cards']:>6.0f}{per_card:>10.2f}{m['cards'] / m['seconds']:>10.0f}{m['peak_mb']:>10.1f}"
    if base is not None:
        ratio = per_card / (1000 * base["seconds"] / base["cards"])
        line += f"{ratio:>8.2f}x{'' if ratio <= TARGET_RATIO else '  over target'}"
    return line


def noop_build_seconds() -> float:
    subprocess.run(["make", "-s", "build"], cwd=ROOT, check=True, capture_output=True)
    start = time.perf_counter()
    subprocess.run(["make", "-s", "build"], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def timed_command(command: list[str], env: dict[str, str], before: Optional[Callable[[], None]] = None) -> tuple[float, float, str]:
    """Best of RUNS by wall clock: (wall s, CPU s of the child, its stdout); ``before`` runs untimed ahead of each."""
    best: Optional[tuple[float, float, str]] = None
    for _ in range(RUNS):
        if before is not None:
            before()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
        if best is None or wall < best[0]:
            best = (wall, cpu, done.stdout)
    assert best is not None
    return best


def whole_commands() -> None:
    """`pantheon build --only cards --force` per card against the baseline command per card, same run."""
    load_before = " ".join(f"{v:.2f}" for v in os.getloadavg())
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        warm_cache = work / "cache"
        env = {**os.environ, CACHE_ENV: str(warm_cache)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules compiled once, not in every run
        build = [str(PANTHEON), "build", "--only", "cards", "--force", "--out", str(work / "out")]
        subprocess.run(build, check=True, capture_output=True, env=env)  # the first build, untimed: caches as a user has them
        warm = timed_command(build, env)
        cards = sum(int(n) for n in CARDS_LINE.findall(warm[2]))
        base = timed_command([sys.executable, __file__, "--baseline-command", str(cards), str(work / "baseline.pdf")], env)

        def fresh_cache(keep: bool) -> Callable[[], None]:
            def make() -> None:
                shutil.rmtree(work / "run-cache", ignore_errors=True)
                if keep:
                    shutil.copytree(warm_cache, work / "run-cache")
                    for part in TEXT_BOUND_CACHES:
                        shutil.rmtree(work / "run-cache" / part, ignore_errors=True)
            return make

        run_env = {**env, CACHE_ENV: str(work / "run-cache")}
        edited = timed_command(build, run_env, fresh_cache(keep=True))
        cold = timed_command(build, run_env, fresh_cache(keep=False))

    def line(label: str, wall: float, cpu: float, target: Optional[float]) -> str:
        text = f"{label:<46}{wall:>8.3f}{cpu:>8.3f}{1000 * wall / cards:>9.2f}{1000 * cpu / cards:>9.2f}"
        if target is None:
            return text
        ratio_wall, ratio_cpu = wall / base[0], cpu / base[1]
        def verdict(ratio: float) -> str:
            return "met" if ratio <= target else "NOT met"
        return f"{text}{ratio_wall:>8.2f}x{ratio_cpu:>7.2f}x   <= {target}x: wall {verdict(ratio_wall)}, cpu {verdict(ratio_cpu)}"

    print(f"whole commands, {cards} cards (the five games' real sheets, A4), best of {RUNS}:")
    print(f"{'':<46}{'wall s':>8}{'cpu s':>8}{'wall ms':>9}{'cpu ms':>9}{'wall':>9}{'cpu':>8}   per card")
    print(line(f"  plain reportlab baseline, {cards} cards", base[0], base[1], None))
    print(line("  `build --only cards --force`, warm caches", warm[0], warm[1], TARGET_RATIO))
    print(line("  the same, every text new", edited[0], edited[1], TARGET_RATIO))
    print(line("  the same, cold caches", cold[0], cold[1], TARGET_RATIO))
    print("  (warm: caches as the build before left them; every text new: without the set faces and verdicts,")
    print("   as after rewording every card; cold: an empty cache, a first build; the command validates its games")
    print("   as `--only cards` does; on a busy machine wall time includes waiting for a core: CPU is steadier)")
    print(f"  load average (1, 5, 15 min): {load_before} before, {' '.join(f'{v:.2f}' for v in os.getloadavg())} after")


def baseline_command(count: int, out: Path) -> None:
    """The baseline as a command of its own: draw ``count`` cards, write the PDF."""
    out.write_bytes(baseline(count))


GAME_PASSES = (1, 3)  # the five games once (their real card count), and three times over in one process (past 1000 cards)


def main() -> None:
    whole_commands()
    if "--commands" in sys.argv[1:]:
        return
    print(f"{'':<40}{'cards':>6}{'ms/card':>10}{'cards/s':>10}{'peak MB':>10}{'ratio':>9}   (target <= {TARGET_RATIO}x)")
    print("synthetic card (the baseline's content, from an SVG template):")
    for count in SIZES:
        base = measure("baseline", count)
        print(row("  plain reportlab baseline", base))
        print(row("  pantheon pipeline, warm caches", measure("ours", count), base))
        print(row("  pantheon pipeline, every text new", measure("ours", count, cache=EDITED), base))
    print("the five games' real card sheets (A4, long-edge duplex; loading the data included):")
    for passes in GAME_PASSES:
        warm = measure("games", passes)
        base = measure("baseline", int(warm["cards"]))
        times = "" if passes == 1 else f" x{passes}"
        print(row("  plain reportlab baseline, same count", base))
        print(row(f"  five games{times}, warm caches", warm, base))
        print(row(f"  five games{times}, every text new", measure("games", passes, cache=EDITED), base))
        print(row(f"  five games{times}, cold caches", measure("games", passes, cache=COLD), base))
        if passes == 1:
            print(row("  five games, warm, + validation", measure("validated", passes), base))
    print("  (warm: what earlier builds kept (converted art, set faces, verdicts; templates are compiled anew);")
    print("   every text new: the same without the set faces and verdicts, as after rewording every card;")
    print("   cold: nothing kept, a first build; + validation: `pantheon validate` first, as `pantheon build` runs it)")
    noop = noop_build_seconds()
    print(f"no-op `make build`: {noop:.2f} s (target < {NOOP_TARGET_S} s)")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        print(json.dumps(measure_here(sys.argv[2], int(sys.argv[3]))))
    elif len(sys.argv) == 4 and sys.argv[1] == "--baseline-command":
        baseline_command(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
