"""Plain option values coerced without pydantic give what typer's own coercion gives, errors included."""
from __future__ import annotations

import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Any, List

import pytest
from typer import _coercion
from typer._click.exceptions import BadParameter
from typer.models import OptionInfo

from pipeline.cli import clicoerce
from tests.core.cli_helpers import PROJECT


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def _outcome(runtime: Any, value: Any) -> tuple[str, Any, Any]:
    try:
        done = runtime._coerce_value(value, param=None, ctx=None)
    except BadParameter as exc:
        return ("refused", exc.message, None)
    return ("ok", repr(done), type(done))  # repr: nan equals itself


def _both(annotation: Any, value: Any, info: OptionInfo) -> tuple[tuple[str, Any, Any], tuple[str, Any, Any]]:
    descriptor = _coercion.resolve_type_descriptor(annotation, info)
    typer_way = _coercion.build_runtime_param(descriptor)  # typer's own, as it is without install()
    ours = clicoerce.PlainRuntimeParam(parameter_info=info, annotation=annotation,
                                       typer_param=lambda: _coercion.build_runtime_param(descriptor))
    return _outcome(ours, value), _outcome(typer_way, value)


CASES = [
    (str, "abc"), (str, ""), (str, "a b\tc"),
    (int, "12"), (int, "-3"), (int, "0"), (int, 5), (int, "007"), (int, "1.0"), (int, "+5"), (int, " 4"),
    (int, "x"), (int, "1_000"), (int, ""),
    (float, "1.5"), (float, "-0.25"), (float, "3"), (float, 2.5), (float, "1e3"), (float, "nan"), (float, "inf"),
    (float, " 2 "), (float, "1_0"), (float, "abc"), (float, ".5"), (float, 3),
    (Paper, "a4"), (Paper, "letter"), (Paper, Paper.letter), (Paper, "A4"), (Paper, "a5"), (Paper, ""),
    (Path, "out"), (Path, "a/b/../c"), (Path, Path("x")), (Path, ""), (Path, "."),
    (List[str], ("a", "b")), (List[str], ["x"]), (List[str], ()), (List[str], "a"),
    (List[int], ("1", "2")), (List[int], ("1", "z")),
]


@pytest.mark.parametrize("annotation, value", CASES)
def test_plain_coercion_matches_typer(annotation: Any, value: Any) -> None:
    ours, typers = _both(annotation, value, OptionInfo())
    assert ours == typers


def test_path_rules_still_apply(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    ours, typers = _both(Path, str(missing), OptionInfo(exists=True))
    assert ours == typers and ours[0] == "refused" and "does not exist" in ours[1]
    ours, typers = _both(Path, str(tmp_path), OptionInfo(exists=True, file_okay=True, dir_okay=False))
    assert ours == typers and ours[0] == "refused"
    ours, typers = _both(int, "3", OptionInfo(min=5))  # bounds are typer's to check
    assert ours == typers and ours[0] == "refused"


def test_a_command_with_options_does_not_import_pydantic(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from pipeline.cli.entry import run\n"
        f"sys.argv = ['pantheon', 'build', '--data', {str(tmp_path / 'none')!r}, '--paper', 'letter',"
        " '--offset-across', '1.5', '--only', 'cards', 'monotheism']\n"
        "try:\n    run()\nexcept SystemExit as exc:\n    print('exit', exc.code)\n"
        "print('pydantic' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT)
    assert done.stdout.split() == ["exit", "1", "False"], done.stdout + done.stderr
    assert "data folder not found" in done.stderr
