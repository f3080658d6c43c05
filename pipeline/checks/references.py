"""Prose references resolved to display names: ``[[kind/id]]`` -> the record's current name.

References are read by :mod:`pipeline.data.markup` (an escaped ``\\[[`` is not
one); :mod:`pipeline.checks.validate` checks that every reference resolves, and
this module is the other half, what renderers print. A renamed card is
therefore right in every document at once.
"""
from __future__ import annotations

from typing import Iterator, Optional

from pipeline.base.errors import UserError
from pipeline.checks.names import display_name
from pipeline.checks.validate import RecordCatalogue
from pipeline.data import markup


class References:
    """Resolves references for any game under one data root (records are loaded on demand)."""

    def __init__(self, catalogue: RecordCatalogue) -> None:
        self.catalogue = catalogue

    def name(self, game: str, kind: str, record_id: str) -> str:
        """The display name of ``game/kind/id``; a missing record is a UserError (validate first)."""
        record = self.catalogue.find(game, kind, record_id)
        if record is None:
            raise UserError(f"{game}: reference [[{kind}/{record_id}]] names no record")
        return display_name(record, record_id)

    def resolve(self, text: str, game: str, *, mark: Optional[str] = None) -> str:
        """``text`` with each reference replaced by the name it points at.

        ``mark`` (e.g. ``"**{}**"``) wraps each resolved name, for renderers that
        want referenced records to stand out.
        """

        def replace(reference: markup.Reference) -> str:
            name = self.name(reference.game or game, reference.kind, reference.id)
            return mark.format(name) if mark else name

        try:
            return markup.replace_references(text, replace)
        except markup.MarkupError as exc:  # validate refuses such text
            raise UserError(f"{game}: {exc.message}") from None

    @staticmethod
    def targets(text: str, game: str) -> Iterator[tuple[str, str, str]]:
        """Every ``(game, kind, id)`` that ``text`` refers to, in order."""
        for reference in markup.references(text):
            yield reference.game or game, reference.kind, reference.id
