"""Command-line values of the plain kinds coerced without pydantic (start-up of every command).

typer (0.2x) coerces each option and argument through a pydantic
``TypeAdapter``, built on first use, so any command with an option imports
pydantic: 50-150 ms of CPU before the command starts, more than the whole of
``pantheon --help``. :func:`install` gives typer a shorter way for the values
whose result is certain: text, whole and decimal numbers written plainly,
paths, enum choices, and lists of these. Everything else, a bad value
included, goes to typer's own coercion, so results, edge cases and error
messages stay typer's (tests/core/test_cli_coercion.py compares the two).
With a typer that lacks the internals used here, nothing is changed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, get_args, get_origin

try:
    from typer import core as _core
    from typer._coercion import RuntimeParam, TypeDescriptor
    from typer._param_types import coerce_cli_choice, coerce_cli_path, routes_to_path
except ImportError:  # pragma: no cover - another typer: it keeps its own coercion
    _core = None  # type: ignore[assignment]

PLAIN_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
PLAIN_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?\Z")
_UNSURE = object()  # "typer decides": a value or a type this module does not vouch for


def plain_value(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """``value`` coerced to ``annotation`` as typer would, or ``_UNSURE``."""
    if getattr(info, "parser", None) is not None or info.min is not None or info.max is not None:
        return _UNSURE
    if get_origin(annotation) is list:
        (inner,) = get_args(annotation) or (_UNSURE,)
        if not isinstance(value, (list, tuple)):
            return _UNSURE
        items = [plain_value(inner, info, item, param, ctx) for item in value]
        return _UNSURE if any(item is _UNSURE for item in items) else items
    if get_origin(annotation) is not None:
        return _UNSURE
    if annotation is str:
        return value if type(value) is str else _UNSURE
    if annotation is int:
        if type(value) is int:
            return value
        return int(value) if type(value) is str and PLAIN_INT.match(value) else _UNSURE
    if annotation is float:
        if type(value) is float:
            return value
        return float(value) if type(value) is str and PLAIN_FLOAT.match(value) else _UNSURE
    try:
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return coerce_cli_choice(value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        if (isinstance(annotation, type) and issubclass(annotation, Path) and info.path_type is None
                and routes_to_path(annotation, info)):
            if type(value) is str and value:
                value = annotation(value)
            if not isinstance(value, annotation):
                return _UNSURE
            return coerce_cli_path(value, info, path_type=annotation, param=param, ctx=ctx)
    except Exception:  # a value typer refuses: its own coercion says so, in its words
        return _UNSURE
    return _UNSURE


if _core is not None:

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """Coercion of a plain value here, of anything else by typer's own runtime parameter."""

        typer_param: Callable[[], Any]

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            done = plain_value(self.annotation, self.parameter_info, value, param, ctx)
            if done is _UNSURE:
                return self.typer_param()._coerce_value(value, param=param, ctx=ctx)
            return done


def install() -> None:
    """Route typer's coercion of plain values through :func:`plain_value` (once per process)."""
    if _core is None or getattr(_core.build_runtime_param, "plain_first", False):
        return
    typer_build = _core.build_runtime_param

    def build_runtime_param(descriptor: TypeDescriptor) -> Any:
        if descriptor.file_annotation is not None or descriptor.parameter_info.parser is not None:
            return typer_build(descriptor)
        return PlainRuntimeParam(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                                 typer_param=lambda: typer_build(descriptor))

    build_runtime_param.plain_first = True  # type: ignore[attr-defined]
    _core.build_runtime_param = build_runtime_param
