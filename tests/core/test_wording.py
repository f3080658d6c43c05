"""The one number_word / plural / counted every game's phrase tables use."""
from pipeline.data.wording import counted, number_word, plural


def test_number_words_then_digits() -> None:
    assert [number_word(n) for n in (0, 1, 5, 12, 13, -1)] == ["zero", "one", "five", "twelve", "13", "-1"]


def test_plural_and_counted() -> None:
    assert (plural(1, "card"), plural(0, "card"), plural(2, "card")) == ("card", "cards", "cards")
    assert plural(3, "die", "dice") == "dice"
    assert (counted(1, "soul cube"), counted(4, "throw")) == ("1 soul cube", "4 throws")
