"""``pantheon report``: every chosen game's balance figures, as ``output/<game>/balance-<paper>.pdf`` and JSON.

Validate the chosen games' data (refusing bad data, nothing written), build
each game's study, play all their chunks on one process pool, turn the
merged tallies into figures, set every PDF in memory and only then write them
(atomically, under the output folder's lock): a failure writes nothing.
``--json`` prints the same figures on stdout as one JSON document.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from pipeline.analysis.balance import runner
from pipeline.analysis.balance.document import document
from pipeline.analysis.balance.findings import GameFigures
from pipeline.analysis.balance.study import Results, Setup, Study, study_of
from pipeline.base.errors import ProblemsFound
from pipeline.cards.pdfwrite import output_lock, write_atomic
from pipeline.checks.validate import validate
from pipeline.data.gamespec import Specs
from pipeline.documents.layout import load_layout
from pipeline.documents.render import render

REPORT_KIND = "balance"
FORMAT = "pdf"


@dataclass(frozen=True)
class Options:
    games: Optional[int]  # games per set-up; None: each set-up's default
    seed: int
    paper: str
    processes: int


def report_path(out_dir: Path, game: str, paper: str) -> Path:
    return out_dir / game / f"{REPORT_KIND}-{paper}.{FORMAT}"


def prepare(data_root: Path, specs: Specs, games: Optional[Iterable[str]], paper: Optional[str] = None) -> dict[str, Study]:
    """The chosen games' studies, once their data validates (an unknown game or paper fails first)."""
    chosen = specs.select(data_root, games)
    if paper is not None:
        load_layout(paper)
    checked = validate(data_root, specs, chosen)
    if not checked.ok:
        raise ProblemsFound([str(p) for p in checked.problems], "no report written")
    return {game: study_of(checked.game(game)) for game in chosen}  # the data validate loaded, not read again


def settings(study: Study, setups: list[Setup], options: Options) -> tuple[tuple[str, Any], ...]:
    sizes = sorted({options.games or s.games for s in setups})
    return (
        ("games per set-up", ", ".join(map(str, sizes)) + ("" if options.games else " (the default size)")),
        ("set-ups", len(setups)),
        ("games in all", sum(options.games or s.games for s in setups)),
        ("seed", options.seed),
        ("games per seeded chunk", study.chunk_games),
    )


def figures(studies: dict[str, Study], options: Options) -> dict[str, GameFigures]:
    """Play every study's set-ups (one pool for all) and build each game's figures."""
    setups = {game: study.setups() for game, study in studies.items()}
    results: dict[str, Results] = runner.run(studies, setups, games=options.games, seed=options.seed,
                                             processes=options.processes)
    return {game: GameFigures(game, study.title, settings(study, setups[game], options), study.method,
                              tuple(study.sections(results[game])))
            for game, study in studies.items()}


def render_reports(found: dict[str, GameFigures], paper: str, out_dir: Path,
                   processes: int = 1) -> list[tuple[Path, bytes]]:
    """Every report's PDF bytes and where it goes (set side by side on ``processes``; nothing written yet)."""
    pdfs = runner.pool_map(_pdf, [(report, paper) for report in found.values()], processes)
    return [(report_path(out_dir, game, paper), pdf) for game, pdf in zip(found, pdfs)]


def _pdf(job: tuple[GameFigures, str]) -> bytes:
    report, paper = job
    return render(document(report), paper, FORMAT)


def write(rendered: list[tuple[Path, bytes]], out_dir: Path) -> list[Path]:
    with output_lock(out_dir):
        for path, data in rendered:
            write_atomic(path, data)
    return [path for path, _ in rendered]


def as_json(found: dict[str, GameFigures]) -> str:
    """The figures of every game as one JSON document (keys sorted: the same figures give the same text)."""
    return json.dumps({game: report.as_data() for game, report in found.items()}, indent=2, sort_keys=True,
                      ensure_ascii=False)
