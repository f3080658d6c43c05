"""Every game's card sheet embeds every font it uses (none of the standard 14)."""
from __future__ import annotations

import pytest

from tests.core.render_helpers import fonts_not_embedded

GAMES = ["monotheism", "theocracy", "monstrous", "heavenly-father", "totems-and-taboos"]


@pytest.mark.parametrize("game", GAMES)
def test_card_sheet_fonts_are_embedded(card_sheet, game: str) -> None:
    assert fonts_not_embedded(card_sheet(game).reader) == set()
