"""Reference rules engine for Totems + Taboos, shaped after OpenSpiel.

An immutable ``Game`` is built from the validated model (tower table, wheel,
decks, starting packages, hand limit, guides, solo difficulties ... all come
from the data). A ``State`` moves through explicit decisions and chance
events; it never calls back into a player:

- decisions: starting colour, play or skip, which card to play and at whom,
  which block to build (and, solo, from where), which guide to sacrifice
  (at the start of your turn, in the main phase, after your end-of-turn
  draws, in answer to a commandment that affects you, or when another god
  is about to take it: rulebook 6, "at any time"), how to end the turn,
  which colour to draw from, which of your pieces (available or used) an
  effect takes, which cards to discard, whether to answer a commandment
  with a reaction;
- chance: every card drawn (uniform over the cards left in that colour's
  deck), every soul cube rolled (its faces), a random card taken or
  discarded, and the solo die between turns.

Card effects are lists of ops (``effects.py``); each op has exactly one
handler in ``HANDLERS``. A handler turns the op into steps on a stack; a step
either runs on its own or asks for a decision or a chance outcome. Rulings
for what the rulebook leaves open are in data/totems-and-taboos/rules.yaml
(section "Rulings and clarifications"); comments below name them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Mapping, Optional, Sequence, Union

from pipeline.engine import CHANCE, Decision, IllegalAction, InPlaceState, Outcome
from pipeline.engine.types import TERMINAL_DECISION
from pipeline.games.totems_and_taboos import GAME_ID
from pipeline.games.totems_and_taboos import effects as fx
from pipeline.games.totems_and_taboos.model import REACTION, Card, Guide, StartingResources, TotemsModel

SIDE = None  # holder of a guide at the side of the table
PILE = -1  # build source: the shared pile of blocks

# Phases of a turn when no effect is being resolved.
SETUP, START, MAIN, END, OVER = "setup", "start", "main", "end", "over"

# Decision and chance action kinds.
A_COLOUR = "start-colour"  # choose a starting colour
A_PLAY_TURN = "play-turn"  # do not skip
A_SKIP = "skip"  # skip option id
A_PLAY = "play"  # (card id, target seat or None)
A_BUILD = "build"  # (colour, source: PILE or a passive seat)
A_GUIDE = "sacrifice-guide"  # (guide colour, target seat or None)
A_END_MAIN = "end-actions"
A_END = "end"  # end-of-turn option id
A_DRAW_COLOUR = "draw-colour"  # draw from this colour
A_SPLIT = "split"  # how many of the affected pieces are available ones
A_DISCARD = "discard"  # card id
A_STOP = "stop"  # stop discarding (cycle)
A_REACT = "react"  # (reaction card id, None); a guide answers with A_GUIDE
A_PASS = "pass"
A_TAKE_GUIDE = "take-guide"  # guide colour
A_CARD = "card"  # chance: this card is drawn / picked at random
A_FACE = "face"  # chance: a rolled soul cube shows this role
A_DIE = "die"  # chance: the solo die shows this colour

# How a game ended.
TOWER_COMPLETE = "tower-complete"
SOULS_DEPLETED = "souls-depleted"

# What happens to pieces an effect takes.
TO_KILL, TO_PILE = "kill", "pile"

# Who played the effect being resolved: commandments are stopped by protection.
SOURCE_COMMANDMENT, SOURCE_MIRACLE, SOURCE_GUIDE, SOURCE_SKIP = "commandment", "miracle", "guide", "skip"


@dataclass(frozen=True)
class Action:
    kind: str
    args: tuple = ()

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(a) for a in self.args)])


@dataclass(frozen=True)
class BuildCheck:
    can_build: bool
    reason: str


# --------------------------------------------------------------------------- game


@dataclass(frozen=True)
class Game:
    """The fixed rules of one match: the model, the number of seats, solo or not."""

    model: TotemsModel
    players: int
    solo: bool = False
    difficulty: Optional[str] = None

    @classmethod
    def multiplayer(cls, model: TotemsModel, players: int) -> "Game":
        if not model.setup.min_players <= players <= model.setup.max_players:
            raise ValueError(f"{players} players: the game is for {model.setup.min_players}-{model.setup.max_players}")
        return cls(model, players)

    @classmethod
    def solo_game(cls, model: TotemsModel, difficulty: str) -> "Game":
        if model.solo.difficulty(difficulty) is None:
            raise ValueError(f"unknown difficulty {difficulty!r}")
        return cls(model, 1 + len(model.colour_ids), solo=True, difficulty=difficulty)

    @property
    def souls(self) -> int:
        return self.model.components["soul-cubes"]

    @property
    def win_level(self) -> int:
        return self.model.solo.win_level if self.solo else self.model.tower.win_level

    @property
    def humans(self) -> tuple[int, ...]:
        """Seats that take turns (solo: seat 0; the passive religions are seats 1-6 in wheel order)."""
        return (0,) if self.solo else tuple(range(self.players))

    _cards: dict[str, Card] = field(init=False, repr=False, compare=False)
    _packages: dict[str, StartingResources] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cards", {c.id: c for c in self.model.cards})
        packages: dict[str, StartingResources] = {}
        for p in self.model.setup.resources:
            packages.setdefault(p.colour, p)
        object.__setattr__(self, "_packages", packages)

    @property
    def solo_die_faces(self) -> tuple[str, ...]:
        """The faces of the solo die (one colour per face)."""
        return next(d.faces for d in self.model.dice if d.id == self.model.solo.die)

    def package(self, colour: str) -> StartingResources:
        """A colour's starting resources (7.2)."""
        return self._packages[colour]

    def card(self, card_id: str) -> Card:
        return self._cards[card_id]

    def guide(self, colour: str) -> Guide:
        return next(g for g in self.model.guides if g.colour == colour)

    def deck_cards(self, colour: str) -> Counter:
        """The cards of a colour's deck at set-up (solo removes some levels)."""
        removed = set(self.model.solo.removed_levels) if self.solo else set()
        return Counter({c.id: c.copies for c in self.model.cards_of(colour) if c.level not in removed})

    def level_row(self, level: int):
        return self.model.tower.needs(level)

    def new_initial_state(self) -> "State":
        first = State.initial(self)
        setup = {"players": self.players, "solo": self.solo, "difficulty": self.difficulty}
        return first._started(setup, first._collect())

    def state_from_setup(self, setup: Mapping[str, Any]) -> "State":
        """The first state of a serialised game (its ``players``, ``solo`` and ``difficulty`` must be this game's)."""
        mine = {"players": self.players, "solo": self.solo, "difficulty": self.difficulty}
        if dict(setup) != mine:
            raise IllegalAction(f"a game set up as {dict(setup)} cannot be restored in a game set up as {mine}")
        return self.new_initial_state()


# --------------------------------------------------------------------------- tower rules (pure)


def placement_ok(model: TotemsModel, tower: Sequence[str], block: str) -> bool:
    """Same or adjacent colour as the top block; any colour starts an empty tower."""
    return not tower or model.may_stack(tower[-1], block)


def can_build(
    model: TotemsModel,
    tower: Sequence[str],
    shrines: int,
    servants: int,
    block: str,
    *,
    supply: Optional[int] = None,
    win_level: Optional[int] = None,
    servant_discount: int = 0,
    shrine_discount: int = 0,
) -> BuildCheck:
    """Whether ``block`` may be added to ``tower`` with these shrines and available servants, and why."""
    top = win_level if win_level is not None else model.tower.win_level
    name = model.colour_name(block).lower()
    if len(tower) >= top:
        return BuildCheck(False, f"the tower already has {top} levels")
    row = model.tower.needs(len(tower) + 1)
    if row is None:
        return BuildCheck(False, f"the tower table has no level {len(tower) + 1}")
    if supply is not None and supply <= 0:
        return BuildCheck(False, f"no {name} blocks are left")
    if not placement_ok(model, tower, block):
        allowed = sorted({tower[-1], *model.wheel.neighbours(tower[-1])}, key=model.wheel.order.index)
        return BuildCheck(
            False,
            f"a {name} block cannot go on {tower[-1]}: only {', '.join(allowed)} (same or adjacent colour)",
        )
    need_shrines = max(0, row.shrines - shrine_discount)
    need_servants = max(0, row.servants - servant_discount)
    if shrines < need_shrines:
        return BuildCheck(False, f"level {row.numeral} needs {need_shrines} shrines, you have {shrines}")
    if servants < need_servants:
        return BuildCheck(False, f"level {row.numeral} needs {need_servants} available servants, you have {servants}")
    where = f"on {tower[-1]}" if tower else "as the base"
    return BuildCheck(
        True,
        f"level {row.numeral}: {need_shrines} shrines needed (have {shrines}), "
        f"{need_servants} servants used (have {servants}); {name} may go {where}",
    )


# --------------------------------------------------------------------------- religions


@dataclass
class Religion:
    """One god's side of the table. Passive religions (solo) never use their pieces."""

    tower: list[str] = field(default_factory=list)
    clerics: int = 0  # available
    clerics_used: int = 0
    servants: int = 0
    servants_used: int = 0
    shrines: int = 0
    hand: list[str] = field(default_factory=list)
    passive: bool = False
    protected: bool = False

    def copy(self) -> "Religion":
        other = Religion.__new__(Religion)
        other.__dict__.update(self.__dict__)
        other.tower, other.hand = list(self.tower), list(self.hand)
        return other

    def blocks(self, colour: str) -> int:
        return self.tower.count(colour)

    def count(self, role: str) -> int:
        """All pieces of a role, available and used."""
        if role == fx.SHRINE:
            return self.shrines
        return self.available(role) + self.used(role)

    def available(self, role: str) -> int:
        return self.clerics if role == fx.CLERIC else self.servants if role == fx.SERVANT else self.shrines

    def used(self, role: str) -> int:
        return self.clerics_used if role == fx.CLERIC else self.servants_used if role == fx.SERVANT else 0

    def add(self, role: str, available: int, used: int = 0) -> None:
        if role == fx.CLERIC:
            self.clerics += available
            self.clerics_used += used
        elif role == fx.SERVANT:
            self.servants += available
            self.servants_used += used
        else:
            self.shrines += available + used

    def souls(self) -> int:
        return self.clerics + self.clerics_used + self.servants + self.servants_used + self.shrines

    def key(self) -> Hashable:
        return (tuple(self.tower), self.clerics, self.clerics_used, self.servants, self.servants_used,
                self.shrines, tuple(sorted(self.hand)), self.passive, self.protected)


# --------------------------------------------------------------------------- steps

class Step:
    """One pending piece of work. ``prompt`` None means it runs on its own."""

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        return None

    def run(self, s: "State") -> None:
        raise NotImplementedError

    def take(self, s: "State", action: Action) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class OpStep(Step):
    """Resolve one op of an effect (its handler expands it)."""

    op: fx.Op
    actor: int
    colour: str
    target: Optional[int]
    source: str

    def run(self, s: "State") -> None:
        subjects = s.subjects(self)
        HANDLERS[self.op.op](s, self, subjects)

    def count_for(self, s: "State", subject: int) -> int:
        if self.op.per_block:
            return self.op.count * s.religions[subject].blocks(self.colour)
        return self.op.count


@dataclass(frozen=True)
class Gain(Step):
    player: int
    role: str
    count: int

    def run(self, s: "State") -> None:
        n = min(self.count, s.pile)
        s.pile -= n
        s.religions[self.player].add(self.role, n)
        if n:
            s._emit("souls-gained", self.role, seat=self.player, count=n)


@dataclass(frozen=True)
class Roll(Step):
    """Roll one soul cube from the pile; it joins ``player`` in the role it shows."""

    player: int

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        if s.pile <= 0:
            return None
        tally = Counter(_soul_faces(s.game.model))
        return Decision.weighted((Action(A_FACE, (role,)), n) for role, n in tally.items())

    def run(self, s: "State") -> None:
        return  # nothing left to roll

    def take(self, s: "State", action: Action) -> None:
        s.pile -= 1
        s.religions[self.player].add(action.args[0], 1)
        s._emit("soul-rolled", action.args[0], seat=self.player)


def _soul_faces(model: TotemsModel) -> tuple[str, ...]:
    """The roles a rolled soul cube can arrive as: its shrine faces are rolled again (only a dying cleric
    makes a shrine), so each standing face is as likely as the others."""
    return next(d.standing_faces for d in model.dice if d.face_kind == "role")


Steal = tuple[str, int, str]  # ("steal", thief's seat, the role the pieces take)


@dataclass(frozen=True)
class Take(Step):
    """``count`` of ``player``'s pieces of ``role`` go somewhere; the owner picks available or used ones.

    ``then``: TO_KILL (clerics become shrines, servants return to the pile),
    TO_PILE (back to the pile), a role (the pieces change role, keeping their
    state; shrines become available), or ("steal", seat, role). ``reserve``
    available pieces may not be taken (they pay the cost of the same card).
    """

    player: int
    role: str
    count: int
    then: Union[str, Steal]
    reserve: int = 0

    def _bounds(self, s: "State") -> tuple[int, int]:
        r = s.religions[self.player]
        available = max(0, r.available(self.role) - self.reserve)
        used = r.used(self.role)
        n = min(self.count, available + used)
        return max(0, n - used), min(n, available)

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        if self.role == fx.SHRINE:
            return None
        low, high = self._bounds(s)
        if low >= high:
            return None
        return Decision(self.player, tuple(Action(A_SPLIT, (k,)) for k in range(low, high + 1)))

    def run(self, s: "State") -> None:
        if self.role == fx.SHRINE:
            self._apply(s, min(self.count, s.religions[self.player].shrines), 0)
            return
        self._shrines_stand_in(s)
        low, _ = self._bounds(s)
        r = s.religions[self.player]
        total = min(self.count, max(0, r.available(self.role) - self.reserve) + r.used(self.role))
        self._apply(s, low, total - low)

    def take(self, s: "State", action: Action) -> None:
        r = s.religions[self.player]
        total = min(self.count, max(0, r.available(self.role) - self.reserve) + r.used(self.role))
        self._apply(s, action.args[0], total - action.args[0])

    def _shrines_stand_in(self, s: "State") -> None:
        """Ruling (solo): a passive religion's shrines are its souls; those it lacks of a role are killed or taken as shrines."""
        r = s.religions[self.player]
        if not r.passive or not (self.then == TO_KILL or isinstance(self.then, tuple)):
            return
        extra = min(max(0, self.count - r.count(self.role)), r.shrines)
        r.shrines -= extra
        r.add(self.role, extra)

    def _apply(self, s: "State", available: int, used: int) -> None:
        r = s.religions[self.player]
        if self.role == fx.CLERIC:
            r.clerics -= available
            r.clerics_used -= used
        elif self.role == fx.SERVANT:
            r.servants -= available
            r.servants_used -= used
        else:
            r.shrines -= available + used
        n = available + used
        if n:
            s._emit("pieces-taken", self.role, seat=self.player, available=available, used=used, then=self.then)
        if self.then == TO_KILL:
            if self.role == fx.CLERIC:
                r.shrines += n
            else:
                s.pile += n
        elif self.then == TO_PILE:
            s.pile += n
        elif isinstance(self.then, tuple):  # ("steal", seat, role): new pieces arrive available
            _, seat, into = self.then
            s.religions[seat].add(into, n)
        elif self.role == fx.SHRINE:  # ruling: a shrine turned into a piece arrives available
            r.add(self.then, n)
        else:
            r.add(self.then, available, used)


@dataclass(frozen=True)
class DrawChoice(Step):
    """``player`` draws one card; they pick the colour (their tower's, or any)."""

    player: int
    source: str = fx.TOWER

    def colours(self, s: "State") -> tuple[str, ...]:
        r = s.religions[self.player]
        if r.passive or len(r.hand) >= s.game.model.turn.hand_limit:
            return ()
        pool = s.game.model.colour_ids if self.source == fx.ANY else tuple(dict.fromkeys(r.tower))
        return tuple(c for c in pool if s.cards_left(c))

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        options = self.colours(s)
        if len(options) <= 1:
            return None
        return Decision(self.player, tuple(Action(A_DRAW_COLOUR, (c,)) for c in options))

    def run(self, s: "State") -> None:
        options = self.colours(s)
        if options:
            s.push(Draw(self.player, options[0]))

    def take(self, s: "State", action: Action) -> None:
        s.push(Draw(self.player, action.args[0]))


@dataclass(frozen=True)
class Draw(Step):
    """Chance: the top card of ``colour``'s deck (uniform over what is left).

    ``no_miracle``: a starting hand, where a miracle is replaced and shuffled
    back (the same as drawing among the other cards). A miracle
    being replaced is still out of the deck (it is discarded after the
    replacement), so it cannot come back.
    """

    player: int
    colour: str
    no_miracle: bool = False

    def pool(self, s: "State") -> Counter:
        deck = s.decks[self.colour] or s.discards[self.colour]
        game = s.game
        return Counter({
            cid: n for cid, n in deck.items()
            if n > 0 and not (self.no_miracle and game.card(cid).is_miracle)
        })

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        r = s.religions[self.player]
        if r.passive or len(r.hand) >= s.game.model.turn.hand_limit:
            return None
        pool = self.pool(s)
        total = sum(pool.values())
        if not total:
            return None
        return Decision.weighted((Action(A_CARD, (cid,)), n) for cid, n in sorted(pool.items()))

    def run(self, s: "State") -> None:
        return  # hand full or no card left: nothing is drawn

    def take(self, s: "State", action: Action) -> None:
        card_id = action.args[0]
        s.take_from_deck(self.colour, card_id)
        card = s.game.card(card_id)
        s._emit("draw", card_id, seat=self.player, colour=self.colour)
        if card.is_miracle:
            s.push(ResolveMiracle(card_id, self.player), *(
                Draw(self.player, self.colour) for _ in range(s.game.model.turn.miracle_redraw)
            ), DiscardCard(card_id))
        else:
            s.religions[self.player].hand.append(card_id)


@dataclass(frozen=True)
class DiscardCard(Step):
    card_id: str

    def run(self, s: "State") -> None:
        s.to_discard_pile(self.card_id)
        s._emit("card-discarded", self.card_id)


@dataclass(frozen=True)
class ResolveMiracle(Step):
    """A drawn miracle reaches every religion with a block of its colour (protection does not stop it)."""

    card_id: str
    drawer: int

    def run(self, s: "State") -> None:
        card = s.game.card(self.card_id)
        s._emit("miracle", self.card_id, drawer=self.drawer)
        steps: list[Step] = []
        for seat in s.seats_from(self.drawer):
            r = s.religions[seat]
            blocks = r.blocks(card.colour)
            if not blocks:
                continue
            if r.passive:  # solo: a passive religion gains clerics per block instead of the printed effect
                steps.append(Gain(seat, s.game.model.solo.passive_miracle_role, blocks))
                continue
            steps.extend(OpStep(op, seat, card.colour, None, SOURCE_MIRACLE) for op in card.ops)
        s.push(*steps)


@dataclass(frozen=True)
class PickCard(Step):
    """A card leaves ``victim``'s hand: chosen by ``chooser`` (a seat) or at random (CHANCE).

    The card is discarded, or with ``taker`` it joins the taker's hand (if
    the taker's hand is full it stays where it is: ruling).
    """

    victim: int
    chooser: int
    taker: Optional[int] = None

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        hand = s.religions[self.victim].hand
        if not hand or (self.taker is not None and len(s.religions[self.taker].hand) >= s.game.model.turn.hand_limit):
            return None
        tally = Counter(hand)
        if self.chooser == CHANCE:
            return Decision.weighted((Action(A_CARD, (cid,)), n) for cid, n in sorted(tally.items()))
        return Decision(self.chooser, tuple(Action(A_DISCARD, (cid,)) for cid in sorted(tally)))

    def run(self, s: "State") -> None:
        return

    def take(self, s: "State", action: Action) -> None:
        card_id = action.args[0]
        s.religions[self.victim].hand.remove(card_id)
        if self.taker is None:
            s.to_discard_pile(card_id)
            s._emit("card-discarded", card_id, seat=self.victim)
        else:
            s.religions[self.taker].hand.append(card_id)
            s._emit("card-taken", card_id, seat=self.victim, taker=self.taker)


@dataclass(frozen=True)
class Cycle(Step):
    """Discard up to ``left`` more cards one by one, then draw as many as were discarded."""

    player: int
    left: int
    discarded: int = 0

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        hand = s.religions[self.player].hand
        if self.left <= 0 or not hand:
            return None
        return Decision(self.player, (Action(A_STOP),) + tuple(Action(A_DISCARD, (c,)) for c in sorted(set(hand))))

    def run(self, s: "State") -> None:
        s.push(*(DrawChoice(self.player) for _ in range(self.discarded)))

    def take(self, s: "State", action: Action) -> None:
        if action.kind == A_STOP:
            self.run(s)
            return
        card_id = action.args[0]
        s.religions[self.player].hand.remove(card_id)
        s.to_discard_pile(card_id)
        s._emit("card-discarded", card_id, seat=self.player)
        s.push(Cycle(self.player, self.left - 1, self.discarded + 1))


@dataclass(frozen=True)
class BuildStep(Step):
    """A card's build: one block now with fewer servants and shrines; nothing if no block fits."""

    player: int
    servants: int
    shrines: int

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        options = s.build_actions(self.player, self.servants, self.shrines)
        return Decision(self.player, options) if options else None

    def run(self, s: "State") -> None:
        return

    def take(self, s: "State", action: Action) -> None:
        s.do_build(self.player, *action.args, servant_discount=self.servants, shrine_discount=self.shrines)


@dataclass(frozen=True)
class TakeGuideStep(Step):
    player: int

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        options = tuple(Action(A_TAKE_GUIDE, (c,)) for c, holder in s.guides.items() if holder != self.player)
        return Decision(self.player, options) if options else None

    def run(self, s: "State") -> None:
        return

    def take(self, s: "State", action: Action) -> None:
        s.push(*s.guide_move_steps(self.player, action.args[0], "guide-taken"))


@dataclass(frozen=True)
class GuideMoves(Step):
    """``colour``'s guide goes to ``player`` (from the side of the table, or from another god)."""

    player: int
    colour: str
    event: str

    def run(self, s: "State") -> None:
        s.guides[self.colour] = self.player
        s._emit(self.event, self.colour, seat=self.player)


@dataclass(frozen=True)
class StealResponse(Step):
    """``holder`` is about to lose ``colour``'s guide to ``thief``: it may sacrifice the guide first, which then
    goes to the side of the table, from where the thief takes it (rulebook 6)."""

    holder: int
    thief: int
    colour: str

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        if s.guides[self.colour] != self.holder:
            return None
        options = s.guide_actions(self.holder, colours=(self.colour,))
        return Decision(self.holder, (Action(A_PASS),) + options) if options else None

    def run(self, s: "State") -> None:
        return

    def take(self, s: "State", action: Action) -> None:
        if action.kind == A_GUIDE:
            s.sacrifice_guide(self.holder, *action.args)


@dataclass(frozen=True)
class GuideWindow(Step):
    """After the end-of-turn draws, the god whose turn it is may still sacrifice its guides, one at a time."""

    player: int

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        options = s.guide_actions(self.player)
        return Decision(self.player, (Action(A_PASS),) + options) if options else None

    def run(self, s: "State") -> None:
        return

    def take(self, s: "State", action: Action) -> None:
        if action.kind == A_GUIDE:
            s.push(GuideWindow(self.player))  # open again once the guide's ability is resolved
            s.sacrifice_guide(self.player, *action.args)


@dataclass(frozen=True)
class PayCost(Step):
    player: int
    clerics: int
    servants: int

    def run(self, s: "State") -> None:
        r = s.religions[self.player]
        r.clerics -= self.clerics
        r.clerics_used += self.clerics
        r.servants -= self.servants
        r.servants_used += self.servants


@dataclass(frozen=True)
class ReactionWindow(Step):
    """``player``, affected by ``actor``'s commandment, may answer it with a reaction (or pass)."""

    player: int
    actor: int

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        if s.cancelled:
            return None
        options = s.reaction_actions(self.player, self.actor)
        return Decision(self.player, (Action(A_PASS),) + options) if options else None

    def run(self, s: "State") -> None:
        return

    def take(self, s: "State", action: Action) -> None:
        if action.kind == A_PASS:
            s._emit("reaction-passed", self.player)
            return
        if action.kind == A_GUIDE:
            # Any guide may answer; only a guide whose own ability cancels (red's) stops the commandment.
            # The window opens again afterwards: another guide or a reaction card may still answer.
            s.push(ReactionWindow(self.player, self.actor))
            s.sacrifice_guide(self.player, *action.args, reaction=True)
            return
        # Ruling: a reaction cannot itself be answered.
        s.push(*s.card_steps(self.player, s.game.card(action.args[0]), self.actor, react=False))


@dataclass(frozen=True)
class ResolveCard(Step):
    """The effect (and bonus) of a played commandment, unless a reaction cancelled it."""

    player: int
    card_id: str
    target: Optional[int]

    def run(self, s: "State") -> None:
        if s.cancelled:  # ruling: a cancel stops the whole effect and bonus, for every player
            s.cancelled = False
            s._emit("card-cancelled", self.card_id, seat=self.player)
            return
        card = s.game.card(self.card_id)
        ops = list(card.ops)
        bonus = card.bonus
        if bonus and s.religions[self.player].blocks(bonus.colour):
            ops = list(bonus.ops) if bonus.mode == fx.REPLACE else ops + list(bonus.ops)
        s.push(*(OpStep(op, self.player, card.colour, self.target, SOURCE_COMMANDMENT) for op in ops))


@dataclass(frozen=True)
class Summon(Step):
    """The third commandment of a colour on your own turn summons that colour's guide."""

    player: int
    colour: str

    def run(self, s: "State") -> None:
        for guide in s.game.model.guides:
            if guide.summon_colour == self.colour and s.plays[self.colour] == guide.summon_cards:
                s.push(*s.guide_move_steps(self.player, guide.colour, "guide-summoned"))


@dataclass(frozen=True)
class EndTurn(Step):
    """Used clerics and servants are ready again; the next god plays (solo: the die is rolled first)."""

    def run(self, s: "State") -> None:
        r = s.religions[s.current]
        r.clerics += r.clerics_used
        r.servants += r.servants_used
        r.clerics_used = r.servants_used = 0
        s.plays = Counter()
        s._emit("turn-ended", s.current, turn=s.turns)
        s.turns += 1
        if s.game.solo:
            s.push(SoloDie(), BeginTurn(0))
        else:
            s.push(BeginTurn((s.current + 1) % s.game.players))


@dataclass(frozen=True)
class BeginTurn(Step):
    player: int

    def run(self, s: "State") -> None:
        s.current = self.player
        s.religions[self.player].protected = False  # protection lasts until your next turn
        s.phase = START
        s._emit("turn-started", self.player, turn=s.turns)


@dataclass(frozen=True)
class SoloDie(Step):
    """Between solo turns: the rolled passive religion takes its colour's starting resources, or you lose."""

    def prompt(self, s: "State") -> Optional[Decision[Action]]:
        tally = Counter(s.game.solo_die_faces)
        return Decision.weighted((Action(A_DIE, (c,)), n) for c, n in tally.items())

    def take(self, s: "State", action: Action) -> None:
        colour = action.args[0]
        gone = not s.religions[s.passive_seat(colour)].tower
        s._emit("solo-die", colour, gone=gone)
        if gone:
            return  # ruling: a passive religion whose every block you took is gone, and gains nothing
        package = s.package(colour)
        if s.pile < package.souls:  # 8.4: not enough souls to give that passive religion its resources
            s.finish(None, SOULS_DEPLETED)
            return
        s.push(*s.package_steps(s.passive_seat(colour), package))


# --------------------------------------------------------------------------- op handlers (one per op)


def _recruit(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(Gain(p, step.op.role or fx.SERVANT, step.count_for(s, p)) for p in subjects))


def _roll(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(Roll(p) for p in subjects for _ in range(step.count_for(s, p))))


def _transform(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(Take(p, step.op.role or fx.SERVANT, step.count_for(s, p), step.op.into or fx.CLERIC) for p in subjects))


def _kill(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(Take(p, step.op.role or fx.SERVANT, step.count_for(s, p), TO_KILL) for p in subjects))


def _desecrate(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(Take(p, fx.SHRINE, step.count_for(s, p), TO_PILE) for p in subjects))


def _steal(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    then = ("steal", step.actor, step.op.into or fx.SERVANT)
    s.push(*(Take(p, step.op.role or fx.SERVANT, step.count_for(s, p), then) for p in subjects if p != step.actor))


def _exhaust(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    for p in subjects:
        r = s.religions[p]
        if r.passive:  # ruling: a passive religion's pieces are never used, so nothing happens
            continue
        n = min(step.count_for(s, p), r.available(step.op.role or fx.CLERIC))
        r.add(step.op.role or fx.CLERIC, -n, n)
        if n:
            s._emit("pieces-exhausted", step.op.role or fx.CLERIC, seat=p, count=n)


def _ready(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    for p in subjects:
        r = s.religions[p]
        n = min(step.count_for(s, p), r.used(step.op.role or fx.CLERIC))
        r.add(step.op.role or fx.CLERIC, n, -n)
        if n:
            s._emit("pieces-readied", step.op.role or fx.CLERIC, seat=p, count=n)


def _swap_roles(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    for p in subjects:
        r = s.religions[p]
        r.clerics, r.servants = r.servants, r.clerics
        r.clerics_used, r.servants_used = r.servants_used, r.clerics_used
        s._emit("roles-swapped", p)


def _draw(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(DrawChoice(p, step.op.source or fx.TOWER) for p in subjects for _ in range(step.count_for(s, p))))


def _discard(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    steps: list[Step] = []
    for p in subjects:
        chooser = {fx.CHOOSER_YOU: step.actor, fx.RANDOM: CHANCE}.get(step.op.chooser or fx.OWNER, p)
        steps.extend(PickCard(p, chooser) for _ in range(step.count_for(s, p)))
    s.push(*steps)


def _cycle(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(Cycle(p, step.count_for(s, p)) for p in subjects))


def _discard_hand_draw(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    steps: list[Step] = []
    for p in subjects:
        r = s.religions[p]
        if r.passive:
            continue
        s.discard_hand(p)
        steps.extend(DrawChoice(p, step.op.source or fx.TOWER) for _ in range(step.count_for(s, p)))
    s.push(*steps)


def _take_card(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(PickCard(p, CHANCE, step.actor) for p in subjects for _ in range(step.count_for(s, p))))


def _build(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(BuildStep(p, step.op.servants, step.op.shrines) for p in subjects))


def _cancel(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.cancelled = True
    s._emit("cancel", step.actor)


def _protect(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    for p in subjects:
        s.religions[p].protected = True
        s._emit("protected", p)


def _take_guide(s: "State", step: OpStep, subjects: Sequence[int]) -> None:
    s.push(*(TakeGuideStep(p) for p in subjects))


Handler = Callable[["State", OpStep, Sequence[int]], None]
HANDLERS: dict[str, Handler] = {
    fx.RECRUIT: _recruit,
    fx.ROLL: _roll,
    fx.TRANSFORM: _transform,
    fx.KILL: _kill,
    fx.DESECRATE: _desecrate,
    fx.STEAL: _steal,
    fx.EXHAUST: _exhaust,
    fx.READY: _ready,
    fx.SWAP_ROLES: _swap_roles,
    fx.DRAW: _draw,
    fx.DISCARD: _discard,
    fx.CYCLE: _cycle,
    fx.DISCARD_HAND_DRAW: _discard_hand_draw,
    fx.TAKE_CARD: _take_card,
    fx.BUILD: _build,
    fx.CANCEL: _cancel,
    fx.PROTECT: _protect,
    fx.TAKE_GUIDE: _take_guide,
}
fx.REGISTRY.attach_all(HANDLERS)  # the effect registry (effects.py) holds each op's handler with its schema and phrase


# --------------------------------------------------------------------------- state


class State(InPlaceState[Action]):
    """A position of the game; ``apply_action`` returns the next one (this one never changes)."""

    game_id = GAME_ID

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pile = game.souls
        self.supply: dict[str, int] = {c: game.model.tower.blocks_per_colour for c in game.model.colour_ids}
        self.religions: list[Religion] = [Religion() for _ in range(game.players)]
        self.decks: dict[str, Counter] = {c: game.deck_cards(c) for c in game.model.colour_ids}
        self.discards: dict[str, Counter] = {c: Counter() for c in game.model.colour_ids}
        self.guides: dict[str, Optional[int]] = {g.colour: SIDE for g in game.model.guides}
        self.current = 0
        self.phase = SETUP
        self.plays: Counter = Counter()
        self.steps: list[Step] = []
        self.cancelled = False
        self.turns = 0
        self.outcome_: Optional[Outcome] = None
        self.start_colours: list[str] = []
        self._prompt: Optional[Decision[Action]] = None
        self._step_prompted = False
        self._owned: set[tuple[str, str]] = set()  # ("deck"|"discard", colour) piles this state may change in place

    # ------------------------------------------------------------ construction

    @classmethod
    def initial(cls, game: Game) -> "State":
        s = cls(game)
        if game.solo:
            d = game.model.solo.difficulty(game.difficulty or "")
            assert d is not None
            for seat, colour in enumerate(game.model.colour_ids, start=1):
                r = s.religions[seat]
                r.passive = True
                r.tower = [colour] * d.passive_blocks
                r.shrines = d.passive_shrines
                s.supply[colour] -= d.passive_blocks
                s.pile -= d.passive_shrines
        s._advance()
        return s

    def resettled(self) -> "State":
        """A copy of a position edited by hand (tests, puzzles) with its pending steps run again: its decision made afresh."""
        s = self.clone()
        s._advance()
        return s

    def _copy(self) -> "State":
        other = self._fork()
        other.decks = {c: Counter(d) for c, d in self.decks.items()}
        other.discards = {c: Counter(d) for c, d in self.discards.items()}
        return other

    def _fork(self) -> "State":
        """A copy to play the next action on: decks and discard piles are shared until written (copy on write).

        ``_pile`` copies a pile before its first change in place (``_owned``
        then holds it). Both sides forget what they owned, so neither changes
        a pile the other still sees."""
        self._owned = set()
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.supply = dict(self.supply)
        other.religions = [r.copy() for r in self.religions]
        other.decks = dict(self.decks)
        other.discards = dict(self.discards)
        other._owned = set()
        other.guides = dict(self.guides)
        other.plays = Counter(self.plays)
        other.steps = list(self.steps)
        other.start_colours = list(self.start_colours)
        return other

    def _pile(self, kind: str, colour: str) -> Counter:
        """A colour's deck or discard pile, ready to change: copied first while still shared."""
        piles = self.decks if kind == "deck" else self.discards
        if (kind, colour) not in self._owned:
            own: Counter = Counter()
            dict.update(own, piles[colour])
            piles[colour] = own
            self._owned.add((kind, colour))
        return piles[colour]

    def to_discard_pile(self, card_id: str) -> None:
        """A card goes to its colour's discard pile."""
        self._pile("discard", self.game.card(card_id).colour)[card_id] += 1

    def take_from_deck(self, colour: str, card_id: str) -> None:
        """``card_id`` leaves ``colour``'s deck; an empty deck first takes its discard pile, shuffled."""
        if not self.decks[colour]:
            self.decks[colour], self.discards[colour] = self.discards[colour], Counter()
            self._owned.discard(("deck", colour))
            self._owned.add(("discard", colour))
        deck = self._pile("deck", colour)
        deck[card_id] -= 1
        if deck[card_id] <= 0:
            del deck[card_id]

    # ------------------------------------------------------------ interface

    @property
    def num_players(self) -> int:
        """Seats: the players; solo, seat 0 and the six passive religions (which never act)."""
        return self.game.players

    def _decide(self) -> Decision[Action]:
        return self._prompt if self._prompt is not None else TERMINAL_DECISION

    def outcome(self) -> Optional[Outcome]:
        return self.outcome_

    def _play(self, action: Action) -> None:
        if self.steps and self._step_prompted:
            step = self.steps.pop()
            step.take(self, action)
        else:
            self._phase_action(action)
        self._advance()

    def key(self) -> Hashable:
        return (
            self.pile, tuple(sorted(self.supply.items())), tuple(r.key() for r in self.religions),
            tuple((c, tuple(sorted(d.items()))) for c, d in sorted(self.decks.items())),
            tuple((c, tuple(sorted(d.items()))) for c, d in sorted(self.discards.items())),
            tuple(sorted(self.guides.items())), self.current, self.phase,
            tuple(sorted(self.plays.items())), tuple(self.steps), self.cancelled, self.outcome_,
            tuple(self.start_colours),
        )

    def __str__(self) -> str:
        lines = [f"turn {self.turns}, seat {self.current} ({self.phase}), pile {self.pile}"]
        for seat, r in enumerate(self.religions):
            lines.append(
                f"  {seat}: tower {'/'.join(r.tower) or '-'}; clerics {r.clerics}+{r.clerics_used} used, "
                f"servants {r.servants}+{r.servants_used} used, shrines {r.shrines}; hand {len(r.hand)}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------ helpers used by steps

    def push(self, *steps: Step) -> None:
        """Queue steps so that the first given runs first."""
        self.steps.extend(reversed(steps))

    def finish(self, winner: Optional[int], termination: str) -> None:
        """End the game; what was still to happen is dropped, except that a card in play still
        reaches its discard pile (every card stays somewhere)."""
        winners = () if winner is None else (winner,)
        detail = f"{termination}: seat {winner} wins" if winner is not None else f"{termination}: the solo god loses"
        self.outcome_ = Outcome(termination, winners, tuple(len(r.tower) for r in self.religions), detail)
        self._emit("game-over", termination, winner=winner)
        self.phase = OVER
        for step in self.steps:
            if isinstance(step, DiscardCard):
                step.run(self)
        self.steps.clear()

    def seats_from(self, seat: int) -> list[int]:
        n = self.game.players
        return [(seat + i) % n for i in range(n)]

    def passive_seat(self, colour: str) -> int:
        return 1 + self.game.model.colour_ids.index(colour)

    def package(self, colour: str) -> StartingResources:
        return self.game.package(colour)

    def package_steps(self, seat: int, package) -> list[Step]:
        steps: list[Step] = [Gain(seat, fx.CLERIC, package.clerics), Gain(seat, fx.SERVANT, package.servants),
                             Gain(seat, fx.SHRINE, package.shrines)]
        return steps + [Roll(seat) for _ in range(package.rolled_souls)]

    def cards_left(self, colour: str) -> int:
        return sum(self.decks[colour].values()) + sum(self.discards[colour].values())

    def discard_hand(self, seat: int) -> None:
        r = self.religions[seat]
        for card_id in r.hand:
            self.to_discard_pile(card_id)
        self._emit("hand-discarded", seat, cards=tuple(r.hand))
        r.hand.clear()

    def subjects(self, step: OpStep) -> list[int]:
        """Whom an op reaches; protection keeps other players' commandments away."""
        who = step.op.who
        if who == fx.SELF:
            return [step.actor]
        if who == fx.TARGET:
            seats = [step.target] if step.target is not None else []
        elif who == fx.EACH:
            seats = self.seats_from(step.actor)
        elif who == fx.OTHERS:
            seats = self.seats_from(step.actor)[1:]
        else:  # owners: the miracle's op is resolved per owner, as that owner's self
            return [step.actor]
        if step.source == SOURCE_COMMANDMENT:
            seats = [p for p in seats if p == step.actor or not self.religions[p].protected]
        return seats

    # ------------------------------------------------------------ building

    def build_actions(self, seat: int, servant_discount: int = 0, shrine_discount: int = 0) -> tuple[Action, ...]:
        r = self.religions[seat]
        model = self.game.model
        # can_build's tests, the level's needs checked once for every colour (this runs at every decision)
        row = model.tower.needs(len(r.tower) + 1)
        if (len(r.tower) >= self.game.win_level or row is None or r.shrines < max(0, row.shrines - shrine_discount)
                or r.servants < max(0, row.servants - servant_discount)):
            return ()
        options: list[Action] = []
        for colour in model.colour_ids:
            sources = [PILE] if self.supply[colour] > 0 else []
            if self.game.solo:
                passive = self.passive_seat(colour)
                if self.religions[passive].tower:
                    sources.append(passive)
            if sources and placement_ok(model, r.tower, colour):
                options.extend(Action(A_BUILD, (colour, src)) for src in sources)
        return tuple(options)

    def take_passive_block(self, seat: int) -> None:
        """Take the top block of a passive religion (solo), to build with or to start with ('8.2 Your turn').

        Only the block moves: the rulebook moves nothing else, so the religion keeps its shrines.
        """
        self.religions[seat].tower.pop()

    def do_build(self, seat: int, colour: str, source: int, *, servant_discount: int = 0, shrine_discount: int = 0) -> None:
        r = self.religions[seat]
        row = self.game.level_row(len(r.tower) + 1)
        servants = max(0, row.servants - servant_discount)
        r.servants -= servants
        r.servants_used += servants
        if source == PILE:
            self.supply[colour] -= 1
        else:
            self.take_passive_block(source)
            self.push(*(Draw(seat, colour) for _ in range(self.game.model.solo.draw_on_take)))
        r.tower.append(colour)
        self._emit("block-built", colour, seat=seat, level=len(r.tower), source="pile" if source == PILE else source)
        if len(r.tower) >= self.game.win_level:
            self.finish(seat, TOWER_COMPLETE)

    # ------------------------------------------------------------ cards

    def unplayable_reason(self, seat: int, card: Card, *, reaction: bool = False) -> Optional[str]:
        """Why ``seat`` cannot play ``card`` now (None when it can, targets aside)."""
        r = self.religions[seat]
        if card.is_miracle:
            return "a miracle is never played from hand; it happens when drawn"
        if (card.timing == REACTION) != reaction:
            return "a reaction is played only when another player's commandment affects you" if not reaction \
                else "only reactions answer another player's commandment"
        blocks = r.blocks(card.colour)
        if blocks < (card.level or 0):
            return f"level {card.level} needs {card.level} {card.colour} blocks in your tower, you have {blocks}"
        cost = card.cost
        if cost is None:
            return None
        if r.clerics < cost.clerics:
            return f"costs {cost.clerics} available clerics, you have {r.clerics}"
        if r.servants < cost.servants:
            return f"costs {cost.servants} available servants, you have {r.servants}"
        if cost.sacrifice:
            role, n = cost.sacrifice
            reserve = cost.reserved(role)
            if r.count(role) - reserve < n:  # ruling: the sacrificed pieces are not those paying the cost
                return f"needs {n} more {role}s to kill beyond its cost"
        return None

    def targets(self, seat: int) -> list[int]:
        """Whom ``seat`` may aim a target commandment at: other religions that are not protected."""
        return [p for p in self.seats_from(seat)[1:] if not self.religions[p].protected]

    def card_steps(self, seat: int, card: Card, target: Optional[int], *, react: bool) -> list[Step]:
        """Play a commandment: extra cost, cost, reactions, effect, discard (and guide on your own turn)."""
        self.religions[seat].hand.remove(card.id)
        self._emit("card-played", card.id, seat=seat, target=target, reaction=not react)
        steps: list[Step] = []
        cost = card.cost
        if cost and cost.sacrifice:
            role, n = cost.sacrifice
            steps.append(Take(seat, role, n, TO_KILL, cost.reserved(role)))
        if cost:
            steps.append(PayCost(seat, cost.clerics, cost.servants))
        if react:
            steps.extend(ReactionWindow(p, seat) for p in self.affected_by(seat, card, target))
        steps.append(ResolveCard(seat, card.id, target))
        if react:
            self.plays[card.colour] += 1
            steps.append(Summon(seat, card.colour))
        steps.append(DiscardCard(card.id))
        return steps

    def affected_by(self, seat: int, card: Card, target: Optional[int]) -> list[int]:
        """Other religions a commandment would reach, in seat order (these may react)."""
        reached: set[int] = set()
        for op in card.all_ops:
            if op.who == fx.TARGET and target is not None:
                reached.add(target)
            elif op.who in (fx.EACH, fx.OTHERS):
                reached.update(self.seats_from(seat)[1:])
        return [p for p in self.seats_from(seat)[1:] if p in reached and not self.religions[p].protected]

    def reaction_actions(self, seat: int, actor: int) -> tuple[Action, ...]:
        """How ``seat`` may answer ``actor``'s commandment: a reaction card, or a sacrifice of any guide it holds."""
        r = self.religions[seat]
        if r.passive:
            return ()
        options = [
            Action(A_REACT, (cid, None)) for cid in sorted(set(r.hand))
            if self.game.card(cid).timing == REACTION and self.unplayable_reason(seat, self.game.card(cid), reaction=True) is None
        ]
        return tuple(options) + self.guide_actions(seat, answering=actor)

    def guide_actions(self, seat: int, *, answering: Optional[int] = None,
                      colours: Optional[Sequence[str]] = None) -> tuple[Action, ...]:
        """Sacrifices open to ``seat``: each guide it holds (of ``colours``, if given), once per target seat if its
        ability has a target. A guide whose ability answers a commandment (red's) is offered only while
        ``answering`` that commandment's player, and aims at it."""
        options: list[Action] = []
        for colour, holder in sorted(self.guides.items()):
            if holder != seat or (colours is not None and colour not in colours):
                continue
            guide = self.game.guide(colour)
            if guide.timing == REACTION:
                if answering is not None:
                    options.append(Action(A_GUIDE, (colour, answering)))
            elif any(op.who == fx.TARGET for op in guide.ops):
                options.extend(Action(A_GUIDE, (colour, t)) for t in self.seats_from(seat)[1:])
            else:
                options.append(Action(A_GUIDE, (colour, None)))
        return tuple(options)

    def sacrifice_guide(self, seat: int, colour: str, target: Optional[int], *, reaction: bool = False) -> None:
        """``seat`` sacrifices ``colour``'s guide: it goes to the side of the table and its ability resolves."""
        self.guides[colour] = SIDE
        self._emit("guide-sacrificed", colour, seat=seat, target=target, reaction=reaction)
        self.push(*(OpStep(op, seat, colour, target, SOURCE_GUIDE) for op in self.game.guide(colour).ops))

    def guide_move_steps(self, player: int, colour: str, event: str) -> list[Step]:
        """``player`` takes ``colour``'s guide; a god holding it may first sacrifice it in response."""
        holder = self.guides[colour]
        if holder is SIDE or holder == player:
            return [GuideMoves(player, colour, event)]
        return [StealResponse(holder, player, colour), GuideMoves(player, colour, event)]

    # ------------------------------------------------------------ phases

    def _phase_prompt(self) -> Optional[Decision[Action]]:
        if self.phase == SETUP:
            seat = len(self.start_colours)
            colours = [c for c in self.game.model.colour_ids if self._start_supply(c) > 0]
            return Decision(seat, tuple(Action(A_COLOUR, (c,)) for c in colours))
        if self.phase == START:
            return Decision(self.current, (Action(A_PLAY_TURN),) + self._skip_actions() + self.guide_actions(self.current))
        if self.phase == MAIN:
            return Decision(self.current, self._main_actions())
        if self.phase == END:
            return Decision(self.current, self._end_actions())
        return None

    def _start_supply(self, colour: str) -> int:
        if self.game.solo:
            return len(self.religions[self.passive_seat(colour)].tower)
        return self.supply[colour]

    def _skip_actions(self) -> tuple[Action, ...]:
        r = self.religions[self.current]
        options = []
        for option in self.game.model.turn.skip_options:
            if all(self._op_possible(r, op) for op in option.ops):
                options.append(Action(A_SKIP, (option.id,)))
        return tuple(options)

    def _op_possible(self, r: Religion, op: fx.Op) -> bool:
        if op.op in (fx.RECRUIT, fx.ROLL):
            return self.pile >= op.count
        if op.op in (fx.TRANSFORM, fx.KILL):
            return r.count(op.role or fx.SERVANT) >= op.count
        return True

    def _main_actions(self) -> tuple[Action, ...]:
        seat = self.current
        r = self.religions[seat]
        options: list[Action] = []
        for card_id in sorted(set(r.hand)):
            card = self.game.card(card_id)
            if self.unplayable_reason(seat, card) is not None:
                continue
            if card.type == "target":
                options.extend(Action(A_PLAY, (card_id, t)) for t in self.targets(seat))
            else:
                options.append(Action(A_PLAY, (card_id, None)))
        options.extend(self.build_actions(seat))
        options.extend(self.guide_actions(seat))
        options.append(Action(A_END_MAIN))
        return tuple(options)

    def _end_actions(self) -> tuple[Action, ...]:
        hand = self.religions[self.current].hand
        return tuple(Action(A_END, (o.id,)) for o in self.game.model.turn.end_options
                     if not o.requires_empty_hand or not hand)

    def _phase_action(self, action: Action) -> None:
        kind, args = action.kind, action.args
        if kind == A_COLOUR:
            self._emit("start-colour", args[0], seat=len(self.start_colours))
            self._choose_start_colour(args[0])
        elif kind == A_PLAY_TURN:
            self.phase = MAIN
        elif kind == A_SKIP:
            option = next(o for o in self.game.model.turn.skip_options if o.id == args[0])
            self._emit("turn-skipped", self.current, option=args[0])
            self.phase = END  # ruling: a skipped turn still ends as usual
            self.push(*(OpStep(op, self.current, self.religions[self.current].tower[0], None, SOURCE_SKIP)
                        for op in option.ops))
        elif kind == A_PLAY:
            card_id, target = args
            self.push(*self.card_steps(self.current, self.game.card(card_id), target, react=True))
        elif kind == A_BUILD:
            self.do_build(self.current, *args)
        elif kind == A_GUIDE:
            self.sacrifice_guide(self.current, *args)  # at the start of the turn or in the main phase
        elif kind == A_END_MAIN:
            self.phase = END
        elif kind == A_END:
            self._end_turn(args[0])

    def _end_turn(self, option_id: str) -> None:
        option = next(o for o in self.game.model.turn.end_options if o.id == option_id)
        self._emit("turn-end-option", self.current, option=option_id)
        if option.discard_hand:
            self.discard_hand(self.current)
        self.phase = "ending"
        self.push(*(DrawChoice(self.current) for _ in range(option.draw)), GuideWindow(self.current), EndTurn())

    def _choose_start_colour(self, colour: str) -> None:
        self.start_colours.append(colour)
        if len(self.start_colours) < len(self.game.humans):
            return
        steps: list[Step] = []
        for seat, chosen in zip(self.game.humans, self.start_colours):
            r = self.religions[seat]
            package = self.package(chosen)
            if self.game.solo:
                passive = self.religions[self.passive_seat(chosen)]
                self.take_passive_block(self.passive_seat(chosen))
                # Ruling: your starting souls come out of the shrines of the passive religion whose block you took.
                moved = min(package.souls, passive.shrines)
                passive.shrines -= moved
                self.pile += moved
            else:
                self.supply[chosen] -= 1
            r.tower.append(chosen)
            steps.extend(self.package_steps(seat, package))
            steps.extend(Draw(seat, chosen, no_miracle=True) for _ in range(self.game.model.setup.starting_hand))
        order = self.game.model.setup.start_order
        # Ruling: tied colours go to the earlier seat (stand-in for the place-of-worship tie-break).
        first = min(self.game.humans, key=lambda seat: (order.index(self.start_colours[self.game.humans.index(seat)]), seat))
        steps.append(BeginTurn(first))
        self.phase = "dealing"
        self.push(*steps)

    # ------------------------------------------------------------ the loop

    def _advance(self) -> None:
        """Run automatic steps until a decision, a chance event or the end."""
        self._step_prompted = False
        while self.outcome_ is None:
            if self.steps:
                step = self.steps[-1]
                prompt = step.prompt(self)
                if prompt is None:
                    self.steps.pop()
                    step.run(self)
                    continue
                self._prompt = prompt
                self._step_prompted = True
                return
            self._prompt = self._phase_prompt()
            return
        self._prompt = None
