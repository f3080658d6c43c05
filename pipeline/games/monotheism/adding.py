"""``pantheon monotheism add``: put a scenario file into the data, rated and numbered, or refuse it.

The file is read like any scenario file (schema, known cards, one worshiper
set, ...: every problem names file:line:column), then rated afresh. It is
refused when its deck is already a scenario, its id is taken, or its rating is
incomplete (not winnable, no losing first move, a node limit hit). The record
is appended to ``scenarios.yaml`` (numbered after the last scenario, provenance
``authored``, with its rating), the game is validated again, and the file is
put back as it was if that finds any problem.
"""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml

from pipeline.base.errors import UserError
from pipeline.cards.pdfwrite import write_atomic
from pipeline.checks.validate import validate
from pipeline.data.dataset import DATA_SUFFIX, display_path
from pipeline.data.gamespec import Specs
from pipeline.data.yamlmarks import load_marked
from pipeline.games.monotheism import GAME_ID
from pipeline.games.monotheism.generate import dump, signature
from pipeline.games.monotheism.model import SCENARIOS
from pipeline.games.monotheism.play import Loaded, scenario_from_file
from pipeline.games.monotheism.rating import rate, stored

KEY_ORDER = ("id", "number", "title", "card_count", "deck", "notes", "winning_line", "losing_first_move",
             "rating", "provenance")
LIST_INDENT = "  "  # scenarios.yaml indents its list of scenarios by two spaces


def scenarios_file(data_root: Path) -> Path:
    return data_root / GAME_ID / f"{SCENARIOS}{DATA_SUFFIX}"


def last_scenario(data_root: Path) -> dict[str, Any]:
    return yaml.safe_load(scenarios_file(data_root).read_text(encoding="utf-8"))[SCENARIOS][-1]


def add_scenario(data_root: Path, specs: Specs, loaded: Loaded, file: Path, *, max_nodes: int, processes: int) -> Path:
    """Append the scenario of ``file`` to the data under ``data_root`` (validated again with ``specs``); the path written."""
    scenario = scenario_from_file(file, data_root, loaded)
    where = display_path(file)
    for known in loaded.model.scenarios:
        if signature(known.deck) == signature(scenario.deck):
            raise UserError(f"{where}:1:1: the same deck is already scenario {known.number} ({known.title})")
        if known.id == scenario.id:
            raise UserError(f"{where}:1:1: id '{scenario.id}' is already scenario {known.number}'s; rename it")
    found = rate(loaded.game.scenario_state(scenario, track_history=False), max_nodes=max_nodes,
                 processes=processes)
    if found.band is None:
        raise UserError(f"{where}:1:1: not added: the rating is incomplete ({found.status}, "
                        f"{found.undecided_first_moves} first moves undecided); raise --max-nodes")
    if not found.losing_first_moves:
        raise UserError(f"{where}:1:1: not added: no first move loses, so it is not a puzzle")
    record = dict(load_marked(file).data)
    record["number"] = max((s.number or 0 for s in loaded.model.scenarios), default=0) + 1
    record["winning_line"] = list(found.solution)  # the shortest: validate measures solution_turns from it
    record.setdefault("losing_first_move", list(found.losing_example))
    record["rating"] = stored(found)
    note = record.get("provenance", {}).get("note")
    record["provenance"] = {"source": "authored", **({"note": note} if note else {})}
    ordered = {key: record[key] for key in KEY_ORDER if key in record}
    return _append(data_root, specs, ordered)


def _append(data_root: Path, specs: Specs, record: dict[str, Any]) -> Path:
    target = scenarios_file(data_root)
    before = target.read_text(encoding="utf-8")
    after = before.rstrip("\n") + "\n" + textwrap.indent(dump([record]), LIST_INDENT)
    if yaml.safe_load(after).get(SCENARIOS, [None])[-1] != record:
        raise UserError(f"{display_path(target)}: its scenarios list is not the end of the file; "
                        "add the scenario by hand")
    write_atomic(target, after.encode("utf-8"))
    report = validate(data_root, specs, [GAME_ID])
    if not report.ok:
        write_atomic(target, before.encode("utf-8"))
        problems = "; ".join(str(problem) for problem in report.problems[:3])
        raise UserError(f"not added (validate would fail): {problems}")
    return target
