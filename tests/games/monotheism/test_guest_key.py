"""The #21 seeded run's cache key covers exactly what the deals and their play read."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pipeline.data.dataset import load_game
from pipeline.games.monotheism import guest_check
from pipeline.games.registry import spec as spec_of

Edit = Callable[[Path, Callable[[Any], Any]], None]


def _key(root: Path) -> str:
    game = load_game(root, spec_of("monotheism"))
    return guest_check.play_key(game, game.model.cards)


def _deity(data: Any, deity: str) -> Any:
    return next(record for record in data["deities"] if record["id"] == deity)


def test_wording_the_play_does_not_read_keeps_the_key(data_copy: Path, edit_yaml: Edit) -> None:
    before = _key(data_copy)
    edit_yaml(data_copy / "monotheism" / "deities.yaml",
              lambda data: _deity(data, "01").update(flavour="A coal, reworded.", name="The Renamed Ember"))
    edit_yaml(data_copy / "monotheism" / "worshipers.yaml",
              lambda data: data["worshipers"][0].update(name="A Renamed Worshiper"))
    edit_yaml(data_copy / "monotheism" / "worshiper-sets.yaml",
              lambda data: data["worshiper_sets"][0]["difficulty"].update(note="Reworded."))
    assert _key(data_copy) == before


def test_a_rule_on_a_card_changes_the_key(data_copy: Path, edit_yaml: Edit) -> None:
    before = _key(data_copy)
    edit_yaml(data_copy / "monotheism" / "deities.yaml",
              lambda data: _deity(data, "01")["upright"].update(numbers=list(reversed(_deity(data, "01")["upright"]["numbers"]))))
    assert _key(data_copy) != before


def test_a_set_s_worshipers_change_the_key(data_copy: Path, edit_yaml: Edit) -> None:
    before = _key(data_copy)
    edit_yaml(data_copy / "monotheism" / "worshiper-sets.yaml",
              lambda data: data["worshiper_sets"][1]["worshipers"].reverse())
    assert _key(data_copy) != before


def test_the_key_is_the_same_whatever_the_hash_seed() -> None:
    import os
    import subprocess
    import sys

    code = ("from pathlib import Path; from pipeline.data.dataset import load_game; from pipeline.games.registry import spec; "
            "from pipeline.games.monotheism import guest_check; g = load_game(Path('data'), spec('monotheism')); "
            "print(guest_check.play_key(g, g.model.cards))")
    root = Path(__file__).resolve().parents[3]
    keys = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(keys) == 1 and keys != {""}
