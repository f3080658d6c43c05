"""Inline markup of card and document text: the one tokeniser that cards, documents and validate share.

Text in the data (card powers, rules paragraphs, names) may use:

==================  ===========================================================
``**bold**``        bold
``_italic_``        italic
``:icon-name:``     an icon of ``templates/icons`` (the name starts with a letter)
``[[kind/id]]``     the name of another record (``[[game:kind/id]]`` in another game)
a line break        a line break on cards (documents reflow it as a space)
==================  ===========================================================

and backslash escapes for the literal characters: ``\\*`` ``\\_`` ``\\:``
``\\[`` (so ``\\[[`` prints ``[[``) and ``\\\\``. A backslash before any other
character is itself.

Ordinary text needs no escapes, because a delimiter only counts where it
hugs the text it marks (the rules are CommonMark's flanking rules, made
stricter):

- ``**`` (exactly two stars) and ``_`` (exactly one underscore) are the only
  delimiters; a longer run (``***``, ``__init__``) is literal.
- A delimiter opens when the next character is not a space and the previous
  one is not a letter or digit; it closes when the previous character is not
  a space and the next one is not a letter or digit. So ``5 ** 2 ** 3``,
  ``2**3``, ``snake_case`` and ``x.__class__`` are literal.
- ``:name:`` is an icon only when the name starts with a letter, the first
  colon does not follow a letter and the second is not followed by a letter
  or digit: ``10:30:45`` and ``a:b:c`` are literal.

What cannot be rendered is a ``MarkupError`` with the character where it
happens: a bold or italic that is opened and never closed (or closed and
never opened), emphasis that overlaps instead of nesting (``**a _b** c_``),
and a ``[[`` that does not form a reference. ``validate`` reports them with
the file, line and column of the text; renderers never meet them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Union

BOLD, ITALIC = "bold", "italic"
DELIMITERS = {"**": BOLD, "_": ITALIC}
ESCAPABLE = frozenset("\\*_:[")
ESCAPE = "\\"
REFERENCE_OPEN = "[["
# [[kind/id]] or [[game:kind/id]]; see docs/editing-data.md.
REFERENCE = re.compile(r"\[\[(?:(?P<game>[a-z0-9-]+):)?(?P<kind>[a-z0-9-]+)/(?P<id>[a-z0-9-]+)\]\]")
ICON = re.compile(r":(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)*):")
_SPECIAL = re.compile(r"[\\*_:\[\n]")  # where a text can stop being plain


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Icon:
    name: str
    offset: int  # where ``:name:`` starts in the source text


@dataclass(frozen=True)
class Reference:
    game: Optional[str]
    kind: str
    id: str
    source: str  # as written, ``[[kind/id]]``
    offset: int


@dataclass(frozen=True)
class Break:
    pass


@dataclass(frozen=True)
class Styled:
    style: str  # BOLD or ITALIC
    children: tuple["Inline", ...]


Inline = Union[Text, Icon, Reference, Break, Styled]


class MarkupError(ValueError):
    """Markup that cannot be rendered; ``offset`` is the character of the source text where it happens."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True)
class _Delimiter:
    mark: str
    offset: int
    can_open: bool
    can_close: bool

    @property
    def style(self) -> str:
        return DELIMITERS[self.mark]


_Token = Union[Text, Icon, Reference, Break, _Delimiter]


def is_plain(text: str) -> bool:
    """Whether ``text`` has nothing markup could mean (most texts): it is printed as it is."""
    return _SPECIAL.search(text) is None


def _is_space(char: Optional[str]) -> bool:
    return char is None or char.isspace()


def _is_word(char: Optional[str]) -> bool:
    return char is not None and char.isalnum()


def _tokens(text: str) -> Iterator[_Token]:
    """The source text as literal pieces, icons, references, breaks and candidate delimiters."""
    literal: list[str] = []
    i, end = 0, len(text)

    def flush() -> Iterator[Text]:
        if literal:
            yield Text("".join(literal))
            literal.clear()

    while i < end:
        plain = _SPECIAL.search(text, i)
        stop = plain.start() if plain else end
        if stop > i:
            literal.append(text[i:stop])
        i = stop
        if i >= end:
            break
        char = text[i]
        prev = text[i - 1] if i else None
        if char == ESCAPE:
            if i + 1 < end and text[i + 1] in ESCAPABLE:
                literal.append(text[i + 1])
                i += 2
            else:
                literal.append(char)
                i += 1
        elif char == "\n":
            yield from flush()
            yield Break()
            i += 1
        elif char == "[":
            if not text.startswith(REFERENCE_OPEN, i):
                literal.append(char)
                i += 1
                continue
            found = REFERENCE.match(text, i)
            if found is None:
                shown = text[i : text.find("]]", i) + 2] if "]]" in text[i:] else text[i : i + 20]
                raise MarkupError(
                    f"malformed reference {shown!r}: write [[kind/id]] or [[game:kind/id]] (\\[[ for literal brackets)", i
                )
            yield from flush()
            yield Reference(found["game"], found["kind"], found["id"], found[0], i)
            i = found.end()
        elif char == ":":
            found = ICON.match(text, i)
            after = text[found.end()] if found and found.end() < end else None
            if found and not (prev is not None and prev.isalpha()) and not _is_word(after):
                yield from flush()
                yield Icon(found["name"], i)
                i = found.end()
            else:
                literal.append(char)
                i += 1
        else:  # a run of '*' or '_'
            run_end = i
            while run_end < end and text[run_end] == char:
                run_end += 1
            run = text[i:run_end]
            if run not in DELIMITERS:
                literal.append(run)
            else:
                after = text[run_end] if run_end < end else None
                can_open = not _is_space(after) and not _is_word(prev)
                can_close = not _is_space(prev) and not _is_word(after)
                if can_open or can_close:
                    yield from flush()
                    yield _Delimiter(run, i, can_open, can_close)
                else:
                    literal.append(run)
            i = run_end
    yield from flush()


@dataclass
class _Open:
    delimiter: Optional[_Delimiter]  # None for the root
    children: list[Inline]


def parse(text: str) -> tuple[Inline, ...]:
    """``text`` as a tree of inline pieces; raises MarkupError for markup that cannot be rendered."""
    if is_plain(text):
        return (Text(text),) if text else ()
    stack = [_Open(None, [])]
    for token in _tokens(text):
        if not isinstance(token, _Delimiter):
            stack[-1].children.append(token)
            continue
        is_open = any(frame.delimiter and frame.delimiter.mark == token.mark for frame in stack[1:])
        if token.can_close and is_open:
            top = stack[-1].delimiter
            assert top is not None
            if top.mark != token.mark:
                raise MarkupError(
                    f"{token.style} and {top.style} overlap: close the {top.style} (opened at character {top.offset + 1}) "
                    f"before the {token.style}",
                    token.offset,
                )
            frame = stack.pop()
            stack[-1].children.append(Styled(token.style, tuple(frame.children)))
        elif token.can_open:
            stack.append(_Open(token, []))
        else:
            raise MarkupError(
                f"'{token.mark}' closes nothing (no {token.style} is open): write {_escaped(token.mark)} for a literal '{token.mark}'",
                token.offset,
            )
    if len(stack) > 1:
        first = stack[1].delimiter
        assert first is not None
        raise MarkupError(
            f"{first.style} '{first.mark}' is never closed: close it, or write {_escaped(first.mark)} for a literal '{first.mark}'",
            first.offset,
        )
    return tuple(stack[0].children)


def _escaped(mark: str) -> str:
    return "".join(ESCAPE + char for char in mark)


def escape(text: str) -> str:
    """``text`` written so that markup prints it as it is (every special character escaped)."""
    return "".join(ESCAPE + char if char in ESCAPABLE else char for char in text)


def walk(nodes: tuple[Inline, ...]) -> Iterator[Inline]:
    """Every piece of the tree, parents before their children."""
    for node in nodes:
        yield node
        if isinstance(node, Styled):
            yield from walk(node.children)


def styled_text(nodes: tuple[Inline, ...], bold: bool = False, italic: bool = False) -> Iterator[tuple[bool, bool, str]]:
    """The literal text of the tree with the emphasis it is set in: ``(bold, italic, text)``."""
    for node in nodes:
        if isinstance(node, Text):
            yield bold, italic, node.text
        elif isinstance(node, Styled):
            yield from styled_text(node.children, bold or node.style == BOLD, italic or node.style == ITALIC)


def plain(nodes: tuple[Inline, ...]) -> str:
    """What parsed text reads as without styling: emphasis marks and escapes gone, icons by name, references
    as written (for outlines, running headers and other places that cannot show styling)."""
    return "".join(_plain(nodes))


def _plain(nodes: tuple[Inline, ...]) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, Text):
            yield node.text
        elif isinstance(node, Styled):
            yield from _plain(node.children)
        elif isinstance(node, Icon):
            yield icon_words(node.name)
        elif isinstance(node, Reference):
            yield node.source
        else:
            yield "\n"


def icon_words(name: str) -> str:
    """How an icon reads where it cannot be drawn (documents): its name in words, ``aspect-sun`` -> ``aspect sun``."""
    return name.replace("-", " ")


def replace_references(text: str, name: Callable[[Reference], str]) -> str:
    """``text`` with each reference replaced by ``name(reference)``; escaped ``\\[[`` and everything else kept as written."""
    if REFERENCE_OPEN not in text:
        return text
    out: list[str] = []
    last = 0
    for reference in references(text):
        out.append(text[last : reference.offset])
        out.append(name(reference))
        last = reference.offset + len(reference.source)
    out.append(text[last:])
    return "".join(out)


def references(text: str) -> Iterator[Reference]:
    """Every reference in ``text``, in order (escaped brackets are not references); MarkupError for a
    malformed one."""
    if REFERENCE_OPEN not in text:
        return
    for token in _tokens(text):
        if isinstance(token, Reference):
            yield token
