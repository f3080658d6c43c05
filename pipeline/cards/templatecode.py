"""Card templates compiled once per command, however many jinja2 environments of the command load them.

A build makes several :class:`~pipeline.cards.svgtemplates.Templates` (the
card check's, the ink-saver edition's, one per card sheet), each with its own
jinja2 environment. Compiling a card template is the costly part of its first
render (a large face template takes longer to compile than a dozen faces take
to render), and each environment would compile it again. A command makes one
:class:`TemplateCode` and hands it to each environment it makes
(:class:`SharedCodeEnvironment`): the compiled code objects are kept there,
keyed by the template's source and every environment setting that shapes the
generated code, and go when the command's objects go; the environments keep
their own globals (bound to their own ``Templates``), which the code looks up
at run time. Nothing is written to or read from disk: compiled templates are code.
"""
from __future__ import annotations

from types import CodeType
from typing import Any, Hashable, Optional, Union

import jinja2
from jinja2 import nodes


class TemplateCode:
    """The templates one command compiled, by what their code depends on (see ``SharedCodeEnvironment``)."""

    def __init__(self) -> None:
        self._compiled: dict[Hashable, CodeType] = {}

    def get(self, key: Hashable) -> Optional[CodeType]:
        return self._compiled.get(key)

    def put(self, key: Hashable, code: CodeType) -> None:
        self._compiled[key] = code


class SharedCodeEnvironment(jinja2.Environment):
    """A jinja2 environment whose compiled templates are shared, through ``code``, with every like-configured
    one given the same :class:`TemplateCode`."""

    def __init__(self, *, code: TemplateCode, **options: Any) -> None:
        super().__init__(**options)
        self.code = code

    def _code_key(self) -> Hashable:
        """What the generated code depends on besides the source: syntax, whitespace and escaping
        settings, extensions, and which filters and tests exist (the compiler looks them up)."""
        return (
            type(self), self.block_start_string, self.block_end_string, self.variable_start_string,
            self.variable_end_string, self.comment_start_string, self.comment_end_string,
            self.line_statement_prefix, self.line_comment_prefix, self.trim_blocks, self.lstrip_blocks,
            self.newline_sequence, self.keep_trailing_newline, self.optimized, self.is_async,
            repr(self.autoescape) if callable(self.autoescape) else self.autoescape,
            self.finalize is not None, tuple(sorted(self.extensions)),
            tuple(sorted(self.filters)), tuple(sorted(self.tests)),
        )

    def compile(
        self,
        source: Union[str, nodes.Template],
        name: Optional[str] = None,
        filename: Optional[str] = None,
        raw: bool = False,
        defer_init: bool = False,
    ) -> Any:
        if raw:
            return super().compile(source, name, filename, raw=True, defer_init=defer_init)
        if not isinstance(source, str):  # an already parsed template: nothing to key it by
            return super().compile(source, name, filename, defer_init=defer_init)
        key = (self._code_key(), source, name, filename, defer_init)
        code = self.code.get(key)
        if code is None:
            code = super().compile(source, name, filename, defer_init=defer_init)
            self.code.put(key, code)
        return code
