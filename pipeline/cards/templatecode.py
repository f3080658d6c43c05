"""Card templates compiled once per process, however many jinja2 environments load them.

One build makes several :class:`~pipeline.cards.svgtemplates.Templates`
(the card check in validation, the card sheet, the documents' card figures),
each with its own jinja2 environment. Compiling a card template is the
costly part of its first render (a large face template takes longer to
compile than a dozen faces take to render), and each environment would
compile it again. :class:`SharedCodeEnvironment` keeps the compiled code
objects in memory, keyed by the template's source and every environment
setting that shapes the generated code; the environments keep their own
globals (bound to their own ``Templates``), which the code looks up at run
time. Nothing is written to or read from disk: compiled templates are code.
"""
from __future__ import annotations

from types import CodeType
from typing import Any, Hashable, Optional, Union

import jinja2
from jinja2 import nodes

_COMPILED: dict[Hashable, CodeType] = {}


class SharedCodeEnvironment(jinja2.Environment):
    """A jinja2 environment whose compiled templates are shared with every like-configured one."""

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
        code = _COMPILED.get(key)
        if code is None:
            code = super().compile(source, name, filename, defer_init=defer_init)
            _COMPILED[key] = code
        return code
