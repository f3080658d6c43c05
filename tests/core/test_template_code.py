"""Card templates compile once per process: like-configured environments share the code, not the globals."""
from __future__ import annotations

import jinja2

from pipeline.cards.templatecode import SharedCodeEnvironment

SOURCE = "{% if shown %}\n  <t>{{ word }}</t>\n{% endif %}"


def _env(**options: object) -> SharedCodeEnvironment:
    return SharedCodeEnvironment(loader=jinja2.DictLoader({"face.svg.j2": SOURCE}), autoescape=True, **options)  # type: ignore[arg-type]


def test_like_environments_share_compiled_code_but_keep_their_globals() -> None:
    first, second = _env(trim_blocks=True), _env(trim_blocks=True)
    first.globals["word"], second.globals["word"] = "sun", "<moon>"
    one, two = first.get_template("face.svg.j2"), second.get_template("face.svg.j2")
    assert one.root_render_func.__code__ is two.root_render_func.__code__  # compiled once
    assert one.render(shown=True) == "  <t>sun</t>\n"
    assert two.render(shown=True) == "  <t>&lt;moon&gt;</t>\n"  # its own globals, escaped as configured


def test_settings_that_shape_the_code_are_not_shared() -> None:
    trimmed, kept = _env(trim_blocks=True), _env()
    trimmed.globals["word"] = kept.globals["word"] = "sun"
    assert trimmed.get_template("face.svg.j2").render(shown=True) == "  <t>sun</t>\n"
    assert kept.get_template("face.svg.j2").render(shown=True) == "\n  <t>sun</t>\n"
