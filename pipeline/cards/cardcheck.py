"""`pantheon validate`'s card check: every face laid out as the build lays it out, without a PDF.

Whatever a build refuses on data (a text that does not fit its box even at
the minimum size, a character the font lacks, an unknown icon, markup that
cannot be printed, a design rule, a colour shown without its symbol) is
found here first, with the very message the build gives: both go through
``build.checked_faces``, the one place those checks are made.

A face laid out before (by a build, or by this check) is taken from the
game's face records (``faces.FaceRecords``: those records passed when they
were made); after a clean check the records are kept, just as a build keeps
them, so the check after an edit lays out only the faces that changed.
A game whose card inputs are unchanged since its last clean check is not
checked again: a stamp (a hash of the game's data files, the templates that
decide its look, and the pipeline's code) is kept in the results cache.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from pipeline.base import locations
from pipeline.checks.validcache import folder_digest
from pipeline.data import resultcache
from pipeline.data.dataset import GameData
from pipeline.data.problems import Problem

STAMPS = "cardcheck"
# svgtemplates.TEMPLATE_ROOT, found the same light way without importing the renderer: a stamped game
# (the usual validate) never loads reportlab, lxml or jinja2 (a test holds the two equal)
TEMPLATES = locations.template_root()
CODE = Path(__file__).resolve().parents[1]  # the pipeline package


def card_problems(data: GameData, template_root: Optional[Path] = None) -> list[Problem]:
    """Every card of ``data`` (validated, cross-checks passed) that its build would refuse, one problem
    per card, at the data field the failing text shows (else the card's record). A game whose card
    templates are not under ``template_root`` (a game of another template folder) is not laid out."""
    if data.spec.cards is None:
        return []
    root = template_root if template_root is not None else TEMPLATES
    stamp = _stamp(data, root)
    if resultcache.known(STAMPS, stamp):
        return []
    from pipeline.cards.cardlayout import problems

    found = list(problems(data, root))
    if not found:
        resultcache.remember(STAMPS, stamp)
    return found


def _stamp(data: GameData, template_root: Path) -> list[str]:
    """What decides whether the game's cards pass: its data files, every template, icon and sheet
    definition (any game's: a shared template may change), and the code; the fonts are reportlab's, whose
    version the results cache keys hold. Hashed by content and relative name, so a copy of unchanged
    data in another folder is known too."""
    digests = [folder_digest(data.root), folder_digest(template_root, skip=[template_root / "docs"])]
    return [data.game, *digests, resultcache.source_hash(CODE)]
