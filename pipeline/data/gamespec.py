"""The game contract: what a game package tells the core about itself, as one :class:`GameSpec`.

Each game package holds a ``spec.py`` whose ``SPEC`` names the game's parts
(model builder, cross-checks, card plan, documents, command group, engine ...)
by direct reference, each typed by a Protocol below, so mypy checks every game
against the contract. A spec is generic in its game's model: ``GameSpec[M]``
builds ``M`` from a ``GameData[M]`` and every part that reads the model sees ``M``.

The registry of specs lives above every layer that uses it
(:mod:`pipeline.games.registry`); the layers below get the specs from their
caller as a :class:`Specs` value, never by importing a game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Generic,
    Iterable,
    Iterator,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    TypeVar,
)

from pipeline.base.errors import UserError
from pipeline.base.words import did_you_mean
from pipeline.data.dataset import GameData, display_path, game_ids

if TYPE_CHECKING:
    import typer

    from pipeline.analysis.balance.study import Study
    from pipeline.cards.plan import PrintCard
    from pipeline.checks.components import Inventory
    from pipeline.checks.rulecontract import Examples, Rulings
    from pipeline.data.effects import EffectLanguage
    from pipeline.data.problems import Problem
    from pipeline.documents.standard import DocContext
    from pipeline.documents.structure import Document as PrintedDocument
    from pipeline.engine.setup import SetUp

M = TypeVar("M")  # a game's model
M_contra = TypeVar("M_contra", contravariant=True)
M_co = TypeVar("M_co", covariant=True)

GAME_ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
_REQUIRED = ("model", "checks", "engine")  # the parts no game is without (beside id, title and summary)
_PARTS = ("model", "checks", "engine", "counts", "cards", "documents", "commands", "balance", "consequences", "effects")


class SpecError(UserError):
    """A game spec that breaks the contract (a part missing or of the wrong kind), or a game without a spec."""


# ------------------------------------------------------------------ the parts, one Protocol each
class ModelBuilder(Protocol[M_co]):
    """``build(game) -> model``: called once per command on data that passed its schemas."""

    def __call__(self, game: GameData[Any], /) -> M_co: ...


class CrossChecks(Protocol):
    """The game's checks module: ``cross_checks(game)`` (``game.model`` is the built model); validate also
    reads the optional declarations ``NAME_TWINS``, ``PROSE_TITLES`` and the constants rulebook facts name."""

    def cross_checks(self, game: GameData[Any], /) -> Iterable["Problem"]: ...


class ComponentCounter(Protocol):
    """``counts(game) -> Inventory``: the one count of the box contents, compared with components.yaml."""

    def __call__(self, game: GameData[Any], /) -> "Inventory": ...


class CardPlan(Protocol):
    """``print_cards(game) -> [PrintCard]``: the cards to print, in order."""

    def __call__(self, game: GameData[Any], /) -> Sequence["PrintCard"]: ...


class DocumentPlan(Protocol):
    """``documents(ctx) -> {kind: Document}``: rulebook, reference ..."""

    def __call__(self, ctx: "DocContext", /) -> Mapping[str, "PrintedDocument"]: ...


class BalanceStudy(Protocol):
    """``study(game) -> Study``: the set-ups, policies and figures of the balance report and ``pantheon simulate``."""

    def __call__(self, game: GameData[Any], /) -> "Study": ...


class CommandGroup(Protocol):
    """``commands() -> typer.Typer``: the game's command group, mounted as ``pantheon <id> ...``; asked for only
    when that group is invoked, so a command of the core never imports the game's command-line code."""

    def __call__(self) -> "typer.Typer": ...


class EngineFactory(Protocol[M_contra]):
    """``set_ups(model) -> [SetUp]``: the game's rules engine, made from the model, once per way to start it
    (player counts, solo difficulties, deals, scenarios): what the conformance suite plays."""

    def __call__(self, model: M_contra, /) -> Sequence["SetUp"]: ...


@dataclass(frozen=True)
class Question:
    """One engine question a data change may answer differently (``pantheon diff``): ``name`` says what
    is asked ("scenario 1"), ``inputs`` holds everything the answer depends on, compared with ``==``
    (equal inputs on both sides, equal answers: it is not asked), ``answer()`` measures the figures by name."""

    name: str
    inputs: Any
    answer: Callable[[], Mapping[str, Any]]


class Consequences(Protocol):
    """``consequences(game, *, budget=None) -> [Question]``: the engine figures ``pantheon diff`` compares
    before and after an edit; ``budget`` caps each search (None: the game's default)."""

    def __call__(self, game: GameData[Any], /, *, budget: Optional[int] = None) -> Sequence[Question]: ...


# ------------------------------------------------------------------ the spec
@dataclass(frozen=True, repr=False)
class GameSpec(Generic[M]):
    """Everything the core needs to know about one game.

    Required: ``id`` (the data folder's name, a slug), ``title`` (printed on
    documents and cards), ``summary`` (one line: the help of the game's command
    group), ``model`` (:class:`ModelBuilder`, ``GameData.model``), ``checks``
    (:class:`CrossChecks`) and ``engine`` (:class:`EngineFactory`).

    Optional, each ``None`` (or empty) when the game has none: ``counts``
    (:class:`ComponentCounter`), ``cards`` (:class:`CardPlan`), ``documents``
    (:class:`DocumentPlan`), ``commands`` (:class:`CommandGroup`, the
    ``typer.Typer`` mounted as ``pantheon <id> ...``), ``balance`` (:class:`BalanceStudy`),
    ``consequences`` (:class:`Consequences`), ``effects`` (the game's card
    effect language, an :class:`~pipeline.data.effects.EffectLanguage`),
    ``rule_sections`` (the section ids its rules.yaml must contain), ``rulings``
    (:class:`~pipeline.checks.rulecontract.Rulings`) and ``examples``
    (:class:`~pipeline.checks.rulecontract.Examples`), checked by validate
    (:mod:`pipeline.checks.rulecontract`).
    """

    id: str
    title: str
    summary: str
    model: ModelBuilder[M]
    checks: CrossChecks
    engine: EngineFactory[M]
    counts: Optional[ComponentCounter] = None
    cards: Optional[CardPlan] = None
    documents: Optional[DocumentPlan] = None
    commands: Optional[CommandGroup] = None
    balance: Optional[BalanceStudy] = None
    consequences: Optional[Consequences] = None
    effects: Optional["EffectLanguage"] = None
    rule_sections: tuple[str, ...] = ()
    rulings: Optional["Rulings"] = None
    examples: tuple["Examples", ...] = ()
    where: str = field(default="", compare=False)  # the file that defines the spec, for messages

    def __post_init__(self) -> None:
        if not re.match(GAME_ID_PATTERN, self.id):
            raise ValueError(f"game id {self.id!r} is not a slug (lower-case words joined by hyphens)")
        for role in _REQUIRED:  # mypy checks the types; this catches a None or a module without its function
            if getattr(self, role) is None:
                raise SpecError(f"{self.id}: the game spec has no {role}{self._in()}")
        if not callable(getattr(self.checks, "cross_checks", None)):
            raise SpecError(f"{self.id}: the game spec's checks ({_name(self.checks)}) have no cross_checks(game){self._in()}")
        for role in ("model", "engine", "counts", "cards", "documents", "commands", "balance", "consequences"):
            part = getattr(self, role)
            if part is not None and not callable(part):
                raise SpecError(f"{self.id}: the game spec's {role} ({_name(part)}) is not a function{self._in()}")

    def missing(self, role: str) -> SpecError:
        """The error for a stage that needs part ``role``, which this game does not have."""
        return SpecError(f"{self.id}: the game has no {role} (its spec names none{self._in()})")

    def part_names(self) -> Iterator[tuple[str, str]]:
        """Every piece of code the spec names, by role, as ``module:qualified name`` (a module by its name),
        the example replays too: stable across processes, for the caches that depend on a game's code."""
        for role in _PARTS:
            value = getattr(self, role)
            if value is not None:
                yield role, _name(value)
        for examples in self.examples:
            yield "examples", _name(examples.replay)

    def __repr__(self) -> str:
        """The spec by its parts' names (never an address: the validation and plan caches key on it)."""
        parts = ", ".join(f"{role}={name}" for role, name in self.part_names())
        rulings = self.rulings
        followed = sorted(rulings.followed) if rulings is not None and rulings.followed is not None else None
        ruled = None if rulings is None else (rulings.kind, rulings.key, rulings.listed_in, followed)
        examples = [(e.kind, e.key, e.label) for e in self.examples]
        return (f"GameSpec({self.id!r}, {self.title!r}, {self.summary!r}, {parts}, rule_sections={self.rule_sections!r}, "
                f"rulings={ruled!r}, examples={examples!r})")

    def _in(self) -> str:
        return f" in {self.where}" if self.where else ""


def _name(part: Any) -> str:
    """``module:qualified name`` of a function or class, the module's name for a module, else the value's
    type (an effect language) with its defining module."""
    if isinstance(part, ModuleType):
        return part.__name__
    qualname = getattr(part, "__qualname__", None)
    if qualname is not None:
        return f"{getattr(part, '__module__', '?')}:{qualname}"
    kind = type(part)
    return f"{kind.__module__}:{kind.__qualname__}"


# ------------------------------------------------------------------ the specs a command knows
class Specs:
    """The game specs a command works with (the registry's, handed down by the caller), by id."""

    def __init__(self, specs: Iterable[GameSpec[Any]]) -> None:
        self._specs: tuple[GameSpec[Any], ...] = tuple(specs)
        ids = [spec.id for spec in self._specs]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"game {', '.join(doubled)} is registered twice")

    def __iter__(self) -> Iterator[GameSpec[Any]]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def ids(self) -> list[str]:
        return [spec.id for spec in self._specs]

    def find(self, game_id: str) -> Optional[GameSpec[Any]]:
        """The spec of ``game_id``, or None."""
        return next((spec for spec in self._specs if spec.id == game_id), None)

    def spec(self, game_id: str) -> GameSpec[Any]:
        """The spec of ``game_id``; a SpecError (one line, exit 1) when no spec is registered for it."""
        found = self.find(game_id)
        if found is None:
            raise SpecError(f"{game_id}: no game spec is registered for this game "
                            "(add its spec to REGISTERED in pipeline/games/registry.py)")
        return found

    def select(self, data_root: Path, games: Optional[Iterable[str]] = None) -> list[str]:
        """The games a command works on: ``games`` in the order given (duplicates dropped), or every data
        folder under ``data_root``. Each must be a data folder with a spec here (else a UserError)."""
        known = game_ids(data_root)
        chosen = list(dict.fromkeys(games)) if games else known
        unknown = [g for g in chosen if g not in known]
        if unknown:
            raise UserError(f"unknown game {', '.join(unknown)} (known: {', '.join(known)}){did_you_mean(unknown[0], known)}")
        for game in chosen:
            if self.find(game) is None:
                raise SpecError(f"{display_path(data_root / game)}: a data folder with no game spec: register the "
                                "game's spec in pipeline/games/registry.py (see 'Adding a game' in docs/architecture.md)")
        return chosen

