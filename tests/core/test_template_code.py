"""Card templates compile once per command: like-configured environments given the command's TemplateCode share
the code, not the globals; environments of another command (another TemplateCode) compile their own."""
from __future__ import annotations

import jinja2

from pipeline.cards.templatecode import SharedCodeEnvironment, TemplateCode

SOURCE = "{% if shown %}\n  <t>{{ word }}</t>\n{% endif %}"


def _env(code: TemplateCode, **options: object) -> SharedCodeEnvironment:
    return SharedCodeEnvironment(code=code, loader=jinja2.DictLoader({"face.svg.j2": SOURCE}), autoescape=True,
                                 **options)  # type: ignore[arg-type]


def test_like_environments_share_compiled_code_but_keep_their_globals() -> None:
    code = TemplateCode()
    first, second = _env(code, trim_blocks=True), _env(code, trim_blocks=True)
    first.globals["word"], second.globals["word"] = "sun", "<moon>"
    one, two = first.get_template("face.svg.j2"), second.get_template("face.svg.j2")
    assert one.root_render_func.__code__ is two.root_render_func.__code__  # compiled once
    assert one.render(shown=True) == "  <t>sun</t>\n"
    assert two.render(shown=True) == "  <t>&lt;moon&gt;</t>\n"  # its own globals, escaped as configured


def test_settings_that_shape_the_code_are_not_shared() -> None:
    code = TemplateCode()
    trimmed, kept = _env(code, trim_blocks=True), _env(code)
    trimmed.globals["word"] = kept.globals["word"] = "sun"
    assert trimmed.get_template("face.svg.j2").render(shown=True) == "  <t>sun</t>\n"
    assert kept.get_template("face.svg.j2").render(shown=True) == "\n  <t>sun</t>\n"


def test_another_commands_environments_compile_their_own() -> None:
    ours, theirs = _env(TemplateCode(), trim_blocks=True), _env(TemplateCode(), trim_blocks=True)
    one, two = ours.get_template("face.svg.j2"), theirs.get_template("face.svg.j2")
    assert one.root_render_func.__code__ is not two.root_render_func.__code__  # nothing outlives a command
    assert one.render(shown=True, word="sun") == two.render(shown=True, word="sun")
