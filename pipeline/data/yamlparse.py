"""The YAML parser behind :mod:`pipeline.data.yamlmarks` (see its docstring for what is refused, and why),
and the types of what it returns: data with the position of every value and key."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Protocol, Union

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from pipeline.base.textsafety import FORBIDDEN_IN_TEXT, code_point, forbidden_char

PathKey = tuple[Union[str, int], ...]
# Where a value or key starts, its 1-based line and column in one number (``line << COLUMN_BITS | column``):
# a file's marks are one per value and key (tens of thousands), and an int is a third the size of a pair,
# which the garbage collector also tracks until its first pass. See :func:`mark` and :func:`position`.
Mark = int
COLUMN_BITS = 32  # (a 2 MB file has no line of 4 billion characters)
COLUMN_MASK = (1 << COLUMN_BITS) - 1
# The deepest data file (monotheism/deities.yaml) nests 12 collections; twice that is plenty, and
# small enough that nothing downstream (schema checks, walks over the data) can run out of stack.
MAX_NESTING = 24


class YamlLoadError(Exception):
    """The file could not be turned into data; carries a 1-based position."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def mark(line: int, column: int) -> Mark:
    """The mark of 1-based ``line`` and ``column``."""
    return line << COLUMN_BITS | column


def position(mark: Mark) -> tuple[int, int]:
    """The 1-based line and column of ``mark``."""
    return mark >> COLUMN_BITS, mark & COLUMN_MASK


@dataclass
class MarkedData:
    """Loaded data plus where each value (and each mapping key) starts."""

    data: Any
    value_marks: dict[PathKey, Mark] = field(default_factory=dict)
    key_marks: dict[PathKey, Mark] = field(default_factory=dict)
    lines: tuple[str, ...] = ()  # the source text's lines: where a fragment inside a multi-line text is


# libyaml's parser is several times faster; the pure-Python one is the fallback.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

STR_TAG = "tag:yaml.org,2002:str"
MERGE_TAG = "tag:yaml.org,2002:merge"
INT_TAG = "tag:yaml.org,2002:int"
# Whole numbers are counts and scores: 64 bits is beyond any of them, and a larger one could not even be
# printed in a message (Python refuses to write out integers of more than 4,300 digits).
INT_RANGE = (-(2**63), 2**63 - 1)
MAX_NUMBER_TEXT = 100  # characters of an integer literal (with sign, prefix and '_' separators)
YAML_TAG_PREFIX = "tag:yaml.org,2002:"


class _ParserMark(Protocol):
    """A position as the parser gives it (0-based): the pure-Python and the libyaml marks both have these."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


def _placed(event: Event, mark: Optional[_ParserMark]) -> _ParserMark:
    """``mark``, one of ``event``'s; the parser gives every event both, so a missing one is a parser fault."""
    if mark is None:
        raise YamlLoadError(f"malformed YAML: the parser gave a {type(event).__name__} no position")
    return mark


def _mark_of(event: Event) -> tuple[int, int]:
    """Where ``event`` starts: its 1-based line and column (what an error names)."""
    start = _placed(event, event.start_mark)
    return start.line + 1, start.column + 1


# Characters YAML 1.1 (and so PyYAML) takes as line breaks but an editor shows on the line they stand in: left
# to the parser, every position after one is off by a line and the error names something else.
UNICODE_LINE_BREAKS = {"\x85": "NEXT LINE (NEL)", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"}
_UNICODE_LINE_BREAK = re.compile(f"[{''.join(UNICODE_LINE_BREAKS)}]")


def loads_marked(text: str, *, strict_text: bool = True) -> MarkedData:
    """Parse YAML text; see load_marked. A Unicode line break (NEL, U+2028, U+2029) anywhere is refused
    first, at the line and column an editor shows it (quoted or not: quoted, YAML folds a NEL into a space)."""
    controls = FORBIDDEN_IN_TEXT.search(text)  # (a Unicode line break is one of them: searched for from the first)
    found = _UNICODE_LINE_BREAK.search(text, controls.start()) if controls is not None else None
    if found is not None:
        char = found.group()
        raise YamlLoadError(
            f"{code_point(char)} {UNICODE_LINE_BREAKS[char]} (character {found.start() + 1} of the file) is a line "
            "break to YAML but not to your editor: remove it, or use an ordinary line break",
            *_position(text, found.start()),
        )
    lines = text.split("\n")
    loader = _Loader(text)
    try:
        # A file without controls breaks lines at "\n" only: the lines a trailing comment is looked for in are
        # these; with a control that splitlines() takes for a break (FF, VT, ...), as before, its lines.
        checked = (text.splitlines() if controls is not None else lines) if strict_text else None
        marked = _Builder(loader, checked, controls=controls is not None).build()
        marked.lines = tuple(lines)
        return marked
    except yaml.MarkedYAMLError as exc:
        what, mark = in_designers_words(exc, text)
        where = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlLoadError(f"malformed YAML: {what}", *where) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow anywhere (DEL, raw C0/C1 controls)
        raise YamlLoadError(
            f"malformed YAML: character {code_point(chr(exc.character)) if isinstance(exc.character, int) else repr(exc.character)} "
            f"is not allowed ({exc.reason})",
            *_position(text, exc.position),
        ) from None
    except yaml.YAMLError as exc:
        raise YamlLoadError(f"malformed YAML: {exc}") from None
    finally:
        loader.dispose()


OPENERS = {"flow sequence": ("[", "]"), "flow mapping": ("{", "}"), "quoted scalar": ("quote", "the same quote")}


def in_designers_words(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, Optional[yaml.Mark]]:
    """What a parser error means to someone editing the file, and where to look: an unclosed bracket or quote
    at the place it was opened, a tab used for indenting, a colon inside unquoted text; else the parser's words."""
    problem, context = exc.problem or "", exc.context or ""
    mark = exc.problem_mark or exc.context_mark
    for kind, (opener, closer) in OPENERS.items():
        if context == f"while parsing a {kind}" or context == f"while scanning a {kind}":
            opened = exc.context_mark
            if opened is not None:
                shown = f"quote {text[opened.index]}" if opener == "quote" and opened.index < len(text) else f"'{opener}'"
                end = f"{closer} (or a ',' between items)" if opener != "quote" else closer
                return (f"the {shown} opened here is never closed: end it with {end}; "
                        f"the parser gave up at line {mark.line + 1 if mark else '?'}"), opened
    if context == "while parsing a flow node":  # the file ended inside a [ ] or { }: the parser points at its end
        opened_at = _unclosed_flow(text)
        if opened_at is not None:
            opener, opened = opened_at
            closer = "]" if opener == "[" else "}"
            return (f"the '{opener}' opened here is never closed: end it with {closer} (or a ',' between items); "
                    f"the parser gave up at line {mark.line + 1 if mark else '?'}"), opened
    runaway = _runaway_quote(text, mark)
    if runaway is not None:
        quote, opened, closed_line = runaway
        return (f"the quote {quote} opened here is not closed on its line: it runs on to line {closed_line} and "
                f"takes the keys between into the text; end it with {quote} (the parser gave up at line "
                f"{mark.line + 1 if mark else '?'})"), opened
    if "tab" in problem or "'\\t'" in problem or _indented_with_tab(text, mark):
        return "a tab is used for indentation: indent with spaces (YAML does not allow tabs there)", mark
    if problem == "mapping values are not allowed in this context" or problem == "mapping values are not allowed here":
        return ("a colon followed by a space inside unquoted text: put the text in quotes "
                "(text: \"Gain 2: then rest\")"), mark
    return problem or context or "syntax error", mark


_KEY_LINE = re.compile(r"\n[ ]*(?:- )?[A-Za-z_][\w-]*:(?: |\n|$)")


def _runaway_quote(text: str, mark: Optional[yaml.Mark]) -> Optional[tuple[str, yaml.Mark, int]]:
    """A quoted text, before where the parser stopped, that runs over several lines and swallows what reads
    as a key on a line of its own: a quote left open mid-file (the parser then fails lines later, elsewhere).
    Its quote, where it opened and the line it ends on; None when there is none."""
    if mark is None:
        return None
    found: Optional[tuple[str, yaml.Mark, int]] = None
    for token in _tokens(text):
        if token.start_mark.index > mark.index:
            break
        if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') \
                and token.start_mark.line != token.end_mark.line \
                and _KEY_LINE.search(text, token.start_mark.index, token.end_mark.index):
            found = (token.style, token.start_mark, token.end_mark.line + 1)
    return found


def _unclosed_flow(text: str) -> Optional[tuple[str, yaml.Mark]]:
    """The innermost '[' or '{' still open where the scanner stops (its character and place), from YAML's own
    tokens, so brackets inside quotes, comments or plain text (a [[ref]]) are not mistaken for one."""
    opened: list[tuple[str, yaml.Mark]] = []
    for token in _tokens(text):
        if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)):
            opened.append(("[" if isinstance(token, yaml.FlowSequenceStartToken) else "{", token.start_mark))
        elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)) and opened:
            opened.pop()
    return opened[-1] if opened else None


def _tokens(text: str) -> Iterator[yaml.Token]:
    """YAML's own tokens of ``text`` up to where its scanner stops: on a broken file, what came before the
    break is what tells the designer where the mistake began."""
    try:
        yield from yaml.scan(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return


def _indented_with_tab(text: str, mark: Optional[yaml.Mark]) -> bool:
    """Whether the line the parser stopped at starts with a tab among its indentation."""
    if mark is None:
        return False
    line_start = text.rfind("\n", 0, mark.index) + 1
    line = text[line_start:text.find("\n", line_start) % (len(text) + 1)]
    return "\t" in line[:len(line) - len(line.lstrip(" \t"))]


def _position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of character ``index`` of ``text``."""
    before = text[:index]
    line_start = before.rfind("\n") + 1
    return before.count("\n") + 1, index - line_start + 1


def _tag_as_written(tag: str) -> str:
    return "!!" + tag[len(YAML_TAG_PREFIX) :] if tag.startswith(YAML_TAG_PREFIX) else tag


def _refuse_node_extras(event: NodeEvent) -> None:
    """Refuse the alias, anchor or explicit tag ``event`` has (called only for an event with one of them)."""
    if isinstance(event, AliasEvent):
        raise YamlLoadError(f"aliases ('*{event.anchor}') are not allowed: write the value out", *_mark_of(event))
    if event.anchor is not None:
        raise YamlLoadError(f"anchors ('&{event.anchor}') are not allowed: write the value out", *_mark_of(event))
    tag = getattr(event, "tag", None)
    if tag is not None:
        raise YamlLoadError(
            f"tags ('{_tag_as_written(tag)}') are not allowed: write a plain value (quote it to make it text)",
            *_mark_of(event),
        )


def _too_large(event: ScalarEvent) -> YamlLoadError:
    return YamlLoadError(
        f"number too large: a whole number must lie between {INT_RANGE[0]} and {INT_RANGE[1]}", *_mark_of(event)
    )


class _Open:
    """A mapping or list being filled: its value and its path; for a mapping, the key read and awaiting its
    value (None: a key is awaited) and that value's path (the key's too: one tuple for both marks)."""

    __slots__ = ("value", "path", "is_mapping", "key", "key_path")

    def __init__(self, value: Union[dict[str, Any], list[Any]], path: PathKey) -> None:
        self.value: Any = value  # (a dict when is_mapping, else a list)
        self.path = path
        self.is_mapping = isinstance(value, dict)
        self.key: Optional[str] = None
        self.key_path: PathKey = ()


class _Builder:
    """Turns libyaml's events into plain data, recording marks and refusing what the conventions forbid.

    One pass, with an explicit stack of open collections: nothing recurses, and
    nothing is expanded, so the cost is bounded by the size of the text. What
    can be asked of the whole file is asked once, before the events: which lines
    hold a ``#`` (``refuse_trailing_comment`` looks only at scalars ending on
    one) and whether the file holds any forbidden character at all (if not, only
    a double-quoted value, whose escapes may write one, is searched for one).
    """

    def __init__(self, loader: Any, lines: Optional[list[str]], *, controls: bool) -> None:
        self._loader = loader
        self._lines = lines
        self._hashed = frozenset(number for number, line in enumerate(lines) if "#" in line) if lines else frozenset()
        self._controls = controls
        self._marked = MarkedData(data=None)

    def build(self) -> MarkedData:
        next_event = self._loader.get_event
        value_marks = self._marked.value_marks
        stack: list[_Open] = []
        top: Optional[_Open] = None  # the innermost open collection
        documents = 0
        while True:
            event = next_event()
            kind = type(event)
            if kind is MappingEndEvent or kind is SequenceEndEvent:
                stack.pop()
                top = stack[-1] if stack else None
            elif kind is ScalarEvent or kind is MappingStartEvent or kind is SequenceStartEvent or kind is AliasEvent:
                if kind is AliasEvent or event.anchor is not None or event.tag is not None:
                    _refuse_node_extras(event)
                if kind is not ScalarEvent and len(stack) >= MAX_NESTING:
                    raise YamlLoadError(f"nesting deeper than {MAX_NESTING} levels is not allowed", *_mark_of(event))
                if top is not None and top.is_mapping and top.key is None:
                    self._key(event, top)
                    continue
                path = () if top is None else top.key_path if top.is_mapping else top.path + (len(top.value),)
                start = event.start_mark
                value_marks[path] = (start.line + 1) << COLUMN_BITS | (start.column + 1)  # (mark(), inlined)
                value = self._scalar(event) if kind is ScalarEvent else {} if kind is MappingStartEvent else []
                if top is None:
                    self._marked.data = value
                elif top.is_mapping:
                    top.value[top.key] = value
                    top.key = None
                else:
                    top.value.append(value)
                if kind is not ScalarEvent:
                    top = _Open(value, path)
                    stack.append(top)
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise YamlLoadError("a file holds one document: remove the second '---'", *_mark_of(event))
            elif kind is StreamEndEvent or event is None:
                break
        if documents == 0:
            raise YamlLoadError("file is empty: expected a mapping of records")
        return self._marked

    def _key(self, event: NodeEvent, mapping: _Open) -> None:
        """Read the key ``mapping`` awaits (refusing what cannot be one) and note where it is written."""
        if not isinstance(event, ScalarEvent):
            raise YamlLoadError("a mapping key must be a plain word", *_mark_of(event))
        tag = self._tag(event)
        if tag == MERGE_TAG:
            raise YamlLoadError("merge keys ('<<') are not allowed: write the keys out", *_mark_of(event))
        key = self._plain_text(event) if tag == STR_TAG else self._constructed(event, tag)
        if not isinstance(key, str):
            raise YamlLoadError(f"key {key!r} must be text: quote it (\"{event.value}\")", *_mark_of(event))
        self._refuse_invisible(key, event, key=True)
        assert isinstance(mapping.value, dict)
        key_path = mapping.path + (key,)
        key_marks = self._marked.key_marks
        if key in mapping.value:
            raise YamlLoadError(f"duplicate key '{key}' (first at line {position(key_marks[key_path])[0]})", *_mark_of(event))
        key_marks[key_path] = mark(*_mark_of(event))
        mapping.key, mapping.key_path = key, key_path

    def _scalar(self, event: ScalarEvent) -> Any:
        """The value of a scalar that is not a key: text as written, anything else as the safe constructor makes it."""
        tag = self._tag(event)
        if tag != STR_TAG:
            return self._constructed(event, tag)
        text = self._plain_text(event)
        if self._controls or event.style == '"':  # else no character of the file, so of the text, is forbidden
            self._refuse_invisible(text, event, key=False)
        return text

    def _tag(self, event: ScalarEvent) -> str:
        """The tag the safe resolver gives an untagged scalar (str, int, bool, null, ...): a quoted or block
        scalar is text without asking (``implicit[0]`` is whether it is written plain)."""
        return str(self._loader.resolve(ScalarNode, event.value, event.implicit)) if event.implicit[0] else STR_TAG

    def _plain_text(self, event: ScalarEvent) -> str:
        """A scalar whose tag is text (refused when it is written plain and a comment follows it on its line)."""
        if event.implicit[0] and self._hashed:
            end = _placed(event, event.end_mark)
            if end.line in self._hashed:
                self.refuse_trailing_comment(end)
        return event.value

    def _constructed(self, event: ScalarEvent, tag: str) -> Any:
        """A scalar that is not text (a number, a boolean, null, a date), as the safe constructor makes it."""
        if tag == INT_TAG and len(event.value) > MAX_NUMBER_TEXT:
            raise _too_large(event)  # not even converted: 0x followed by megabytes of digits would be
        # The stub types a node's marks as the pure-Python Mark only; nodes just keep them, and libyaml's work as well.
        node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)  # type: ignore[arg-type]
        try:
            value = self._loader.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:  # a date that is no date
            problem = getattr(exc, "problem", None) or str(exc)
            raise YamlLoadError(f"bad value: {problem}", *_mark_of(event)) from None
        if tag == INT_TAG and not INT_RANGE[0] <= value <= INT_RANGE[1]:
            raise _too_large(event)
        return value

    @staticmethod
    def _refuse_invisible(text: str, event: ScalarEvent, *, key: bool) -> None:
        found = forbidden_char(text, key=key)
        if found is not None:
            index, char = found
            rule = "a key is one line of visible text" if key else "text may hold tabs and line breaks, no other controls"
            raise YamlLoadError(
                f"control character {code_point(char)} in {'a key' if key else 'a value'} (character {index + 1}): "
                f"remove it; {rule}",
                *_mark_of(event),
            )

    def refuse_trailing_comment(self, end: _ParserMark) -> None:
        """A ``#`` after a plain value starts a comment and silently cuts the text short.

        In card text that is nearly always a mistake ("numbered #01 to #29"
        would load as "numbered"), so an unquoted value followed by a comment
        is refused: quote the value, or put the comment on a line of its own.
        (``end``: where a plain scalar whose tag is text ends, on one of the checked lines that holds a ``#``.)
        """
        assert self._lines is not None  # (only lines that were checked hold a '#' here)
        rest = self._lines[end.line][end.column :]
        if rest.lstrip().startswith("#") and rest[:1].isspace():
            raise YamlLoadError(
                "'#' after an unquoted value starts a comment and cuts the text short: "
                "quote the value, or move the comment to its own line",
                end.line + 1,
                end.column + 1 + len(rest) - len(rest.lstrip()),
            )
