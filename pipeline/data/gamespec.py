"""The game contract: what a game package tells the core about itself, as one :class:`GameSpec`.

Each game package holds a ``spec.py`` whose ``SPEC`` names the game's parts
(model builder, cross-checks, card plan, documents, command group,
engine) by import path, as :class:`Part` values.
Nothing is imported until a stage asks for that part, so building every spec
costs next to nothing and ``pantheon --help`` stays fast; a part the spec
claims but the package lacks (a renamed module, a missing function) is a
:class:`SpecError` naming the game and the path, never a silent skip.

The registry of specs is :mod:`pipeline.games.registry`; how the stages use them
is described there.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Generic,
    Iterator,
    Mapping,
    Optional,
    Sequence,
    TypeVar,
)

from pipeline.base.errors import UserError

if TYPE_CHECKING:
    from pipeline.analysis.balance.study import Study
    from pipeline.cards.plan import PrintCard
    from pipeline.checks.components import Inventory
    from pipeline.checks.rulecontract import Examples, Rulings
    from pipeline.data.dataset import GameData
    from pipeline.data.effects import EffectLanguage
    from pipeline.documents.standard import DocContext
    from pipeline.documents.structure import Document as PrintedDocument
    from pipeline.engine import Restorable

T = TypeVar("T")

# ``package.module`` or ``package.module:attribute`` (the attribute may be dotted: ``Game.from_model``).
_TARGET = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*)?$")
GAME_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# What each part is, once loaded (see GameSpec for the call each stage makes).
ModelBuilder = Callable[["GameData"], Any]
CardPlan = Callable[["GameData"], Sequence["PrintCard"]]
DocumentPlan = Callable[["DocContext"], Mapping[str, "PrintedDocument"]]
ComponentCounter = Callable[["GameData"], "Inventory"]
EngineFactory = Callable[..., "Restorable"]
BalanceStudy = Callable[["GameData"], "Study"]


@dataclass(frozen=True)
class Question:
    """One engine question a data change may answer differently (``pantheon diff``): ``name`` says what
    is asked ("scenario 1"), ``inputs`` holds everything the answer depends on, compared with ``==``
    (equal inputs on both sides, equal answers: it is not asked), ``answer()`` measures the figures by name."""

    name: str
    inputs: Any
    answer: Callable[[], Mapping[str, Any]]


# ``consequences(game, *, budget=None) -> [Question]``; ``budget`` caps each search (None: the game's default).
Consequences = Callable[..., Sequence[Question]]


ROLES = ("model", "checks", "counts", "cards", "documents", "commands", "balance", "engine", "consequences",
         "effects")


class SpecError(UserError):
    """A game spec names a part its package does not have (or a malformed one)."""


@dataclass(frozen=True)
class Part(Generic[T]):
    """One part of a game, named by import path and imported on first use.

    ``Part("pipeline.games.theocracy.model:build")`` is the function ``build``
    of that module; ``Part("pipeline.games.theocracy.checks")`` is the module
    itself. ``load()`` imports it every time it is asked (Python keeps the
    module), so a test that replaces the attribute is seen.
    """

    target: str

    def __post_init__(self) -> None:
        if not _TARGET.match(self.target):
            raise ValueError(f"a part is 'package.module' or 'package.module:attribute', not {self.target!r}")

    @property
    def module_name(self) -> str:
        return self.target.partition(":")[0]

    @property
    def attribute(self) -> str:
        return self.target.partition(":")[2]

    def load(self, game: str = "", role: str = "part") -> T:
        """The object named; a SpecError (naming ``game`` and the part's ``role``) when it is not there."""
        module = self._module(game, role)
        found: Any = module
        for name in self.attribute.split(".") if self.attribute else ():
            if not hasattr(found, name):
                raise SpecError(f"{_who(game)}the game spec names {role} {self.target}, but {self.module_name} "
                                f"has no {self.attribute!r}")
            found = getattr(found, name)
        return found

    def _module(self, game: str, role: str) -> ModuleType:
        try:
            return importlib.import_module(self.module_name)
        except ModuleNotFoundError as exc:
            # Only the module itself (or a package on its path) missing is the spec's fault; a module
            # the part imports that is missing is a bug inside the part, and stays an ImportError.
            if exc.name and self.module_name.startswith(exc.name) and self.module_name[len(exc.name):][:1] in ("", "."):
                raise SpecError(f"{_who(game)}the game spec names {role} {self.target}, but there is no module "
                                f"{self.module_name}") from None
            raise


def _who(game: str) -> str:
    return f"{game}: " if game else ""


@dataclass(frozen=True)
class GameSpec:
    """Everything the core needs to know about one game; every part is named lazily (see :class:`Part`).

    Required: ``id`` (the data folder's name, a slug), ``title`` (printed on
    documents and cards), ``summary`` (one line: the help of the game's command
    group), and ``model``: ``build(game) -> model``, called once per command on
    data that passed its schemas (``GameData.model``).

    Optional, each ``None`` when the game has none:

    * ``checks``: the game's checks module: ``cross_checks(game) -> Iterator[Problem]``
      (``game.model`` is the built model) and the declarations the core reads
      (``NAME_TWINS``, ``PROSE_TITLES``, the
      constants rulebook facts name in ``checked_by``).
    * ``counts``: ``counts(game) -> Inventory``: the one count of the box
      contents (:mod:`pipeline.checks.components`), compared with components.yaml
      by validate and printed in the documents' component tables.
    * ``cards``: ``print_cards(game) -> [PrintCard]``: the card plan.
    * ``documents``: ``documents(ctx) -> {kind: Document}``: rulebook, reference ...
    * ``commands``: a ``typer.Typer`` mounted as ``pantheon <id> ...`` and
      imported only when that group is invoked.
    * ``balance``: ``study(game) -> Study``: the set-ups, policies and figures
      of the game's balance report and ``pantheon simulate``
      (:mod:`pipeline.analysis.balance`).
    * ``engine``: ``factory(model, **options) -> Restorable`` (the kit's
      :class:`pipeline.engine.Restorable`), making the game's rules engine
      (a slot for the engine kit; no stage asks for it yet).
    * ``consequences``: ``consequences(game, *, budget=None) -> [Question]``:
      the engine figures ``pantheon diff`` compares before and after an edit.
    * ``rule_sections``: the section ids its rules.yaml must contain; ``rulings``
      (:class:`~pipeline.checks.rulecontract.Rulings`): where its rulings are and
      who must agree with them; ``examples``
      (:class:`~pipeline.checks.rulecontract.Examples`): its example playthroughs
      and the function replaying them through its engine. Validate checks all
      three (:mod:`pipeline.checks.rulecontract`).
    * ``effects``: the game's card effect language, an
      :class:`~pipeline.data.effects.EffectLanguage` (its registry of ops and
      the schema file they are checked against); validate reports an op
      without handler or phrase and every drift of the schema, naming the op.
    """

    id: str
    title: str
    summary: str
    model: Part[ModelBuilder]
    checks: Optional[Part[ModuleType]] = None
    counts: Optional[Part[ComponentCounter]] = None
    cards: Optional[Part[CardPlan]] = None
    documents: Optional[Part[DocumentPlan]] = None
    commands: Optional[Part[Any]] = None
    balance: Optional[Part[BalanceStudy]] = None
    engine: Optional[Part[EngineFactory]] = None
    consequences: Optional[Part[Consequences]] = None
    effects: Optional[Part["EffectLanguage"]] = None
    rule_sections: tuple[str, ...] = ()
    rulings: Optional["Rulings"] = None
    examples: tuple["Examples", ...] = ()
    where: str = field(default="", compare=False)  # the file that defines the spec, for messages

    def __post_init__(self) -> None:
        if not GAME_ID.match(self.id):
            raise ValueError(f"game id {self.id!r} is not a slug (lower-case words joined by hyphens)")

    # ------------------------------------------------------------------ loading parts
    def part(self, role: str) -> Any:
        """The loaded part ``role`` (a field name); SpecError when the spec names none or it is missing."""
        named = getattr(self, role)
        if named is None:
            raise SpecError(f"{self.id}: the game has no {role} (its spec names none{self._in()})")
        return named.load(self.id, role)

    def has(self, role: str) -> bool:
        """Whether the spec names a part ``role`` (without importing it)."""
        return getattr(self, role) is not None

    def checks_module(self) -> Optional[ModuleType]:
        """The checks module, holding ``cross_checks`` (None when the game has no checks)."""
        if self.checks is None:
            return None
        module = self.checks.load(self.id, "checks")
        if not callable(getattr(module, "cross_checks", None)):
            raise SpecError(f"{self.id}: the game spec names checks {self.checks.target}, which has no cross_checks(game)")
        return module

    def parts(self) -> Iterator[tuple[str, Part[Any]]]:
        """Every part the spec names, by role (those inside ``rulings`` and ``examples`` too)."""
        for role in ROLES:
            named = getattr(self, role)
            if named is not None:
                yield role, named
        if self.rulings is not None and self.rulings.followed is not None:
            yield "rulings", self.rulings.followed
        for examples in self.examples:
            yield "examples", examples.replay

    def _in(self) -> str:
        return f" in {self.where}" if self.where else ""
