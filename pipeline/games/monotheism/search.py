"""The two searches behind the solver: a depth-first prover and a beam finder.

Monotheism is a one-player game of perfect information for the solver, and a
position seen twice is a stalemate (ruling 9), so "can it be won?" asks whether
a winning end can be reached without repeating a position.

* :class:`DepthFirst` answers it exactly. It never enters a position twice on
  one path, and remembers every position it closed in a transposition table, so
  when it ends without a win every reachable position has been entered: its
  ``no-win`` is a proof. Children are tried most promising first (*ordering*).
* :class:`Beam` looks at positions turn by turn, keeping the most promising
  of each turn (fewest gods, the most life left in the worshipers), and widens
  when it runs dry. Many wins need a few quiet turns of set-up that spend life
  before one turn consumes half the deck; depth-first search and plain
  best-first search both dive past them, a beam keeps them. It proves no-win
  only when it never had to drop a position.

Both drop, without searching them (*dominance*): children that lose at once,
that repeat a sibling, that are *dead* (two or more gods left and no card that
could ever take a card out of the game), or that are known closed; a child
that wins ends the search at once. Moves are whole turns (``positions.py``).

**Proofs shared.** A depth-first search closes some positions *independently*
of its current path (see :class:`DepthFirst`). Such a position is lost for
every search of the same *group* (same game, same forbidden positions). It goes
into the search's ``outbox``; between rounds the solver hands every outbox, in
a fixed order, to the ``shared`` table of every search of the group, so what a
search sees never depends on how the searches were scheduled.

A search runs for a given number of nodes and can be resumed. A node is one
position generated (the start and every child, ended or not).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable, Optional

from pipeline.games.monotheism.engine import State
from pipeline.games.monotheism.positions import Move, Space, result
from pipeline.games.monotheism.table import PositionTable, Print, fingerprint, slots_for

WIN, NO_WIN, LIMIT = "win", "no-win", "limit"
EXHAUSTED = "exhausted"  # a beam at its widest that dropped positions and has none left: it can say no more
LOST = 1 << 30  # a position's standing when it is lost for sure: deeper than any path reaches
DEPENDENT = -1  # the standing of a position closed by this search, lost only given the path it was closed on
# Beam widths 256, 1024, 4096, 16384: the widest already costs millions of nodes a run, and its layers
# (two widths of positions) are most of the solver's memory.
BEAM_FIRST_WIDTH, BEAM_GROWTH, BEAM_MAX_WIDTH = 256, 4, 16_384
# How promising a position looks (lower first): three per god left, minus three per curse the worshipers
# can still survive, minus the highest worshiper's distance from the top, counted up to two cards.
GOD_WEIGHT, LIFE_WEIGHT, WORSHIPER_DEPTH_CAP = 3, 3, 2


@dataclass(frozen=True)
class Techniques:
    """The searches' own techniques (the space's are in ``positions.Features``); each can be turned off."""

    ordering: bool = True      # children most promising first
    dominance: bool = True     # drop dead and repeated children
    collapse: bool = True      # a position with one live child is not stored
    beam: bool = True          # a beam search runs beside the depth-first one
    share: bool = True         # independently lost positions are shared between the searches
    prover: bool = True        # the depth-first prover runs (off where no proof of no-win is in reach)
    # Full games (``FULL_GAME``): how many gods one curse of the worshipers is worth in a position's promise,
    # with the highest worshiper's distance from the top counted as the share of a curse not yet spent
    # (0: the puzzles' promise below, whose ratings' node counts are stored with the scenarios).
    curse_worth: int = 0
    # Diversity: at most ``width // beam_diversity`` positions kept of one layer may hold the same cards with
    # the same curses (they differ only in order), the rest of the width going to other plans (0: no cap).
    beam_diversity: int = 0
    beam_first_width: int = BEAM_FIRST_WIDTH
    # Full games: how many gods more an unveiled god that a god cannot consume counts for (0: as any god).
    guard_worth: int = 0
    # Full games: a position's promise is raised by up to ``beam_noise`` thousandths of a god, drawn from its
    # key and ``beam_salt`` (``jitter``): the same on every machine, different for each salt (0: none).
    beam_noise: int = 0
    beam_salt: int = 0
    # A portfolio: one beam per setting, side by side (empty: one beam with the settings above).
    beams: tuple["BeamSetting", ...] = ()


@dataclass(frozen=True)
class BeamSetting:
    """One beam of a portfolio: its promise (curse and guard worth, noise and salt) and its diversity."""

    curse_worth: int
    guard_worth: int
    diversity: int
    noise: int = 0
    salt: int = 0


# A full game is long: the worshipers' curses, not the moves, run out (each pass of a worshiper through
# the top costs one), and a Haruspex deal lasts about thirty turns in which some 28 gods must go. The
# puzzles' promise trades a curse for one god, and its beam spends the worshiper's life early and dies
# with about half the gods left; valuing a curse at a few gods, with the cycle already spent counted, keeps
# it. No single worth is best: at one beam 256 wide, deals 1-10 are won at worth 1 (2, 6, 8), 2 (2, 6, 8)
# and 4 (2, 8, 9); each worth's beam dies on a different trap, so the beams run side by side and the first
# win answers. The prover is off: with 29 gods it never closes the tree (0 of 20 deals proved lost at
# 300,000 nodes), and its half of the budget goes to the beams. A beam fills up with one plan in many
# orders (the same gods left); capping each group of the same cards and curses at a sixteenth of the width
# won deals 7 and 10 as well at 256 wide (worths 1, 2, 4 together: 2, 6, 7, 8, 9, 10 against 2, 6, 8, 9).
# A narrow first beam (64) wins easy deals in tens of thousands of nodes.
#
# Guarded gods: of the 7 deals of the first 20 left undecided so, 6 died with #09 or #03 among the last
# gods (the beams' closest positions: fewest gods, the worshiper on its last curse). An unveiled god whose
# essence answers "When a god attempts to consume this" (#03, #09, #11T, #13) cannot simply be eaten:
# only the void, a veil, a transformation or a meal while still veiled takes it out. Three beams counting
# such a god as three (``guard_worth`` 2) won deals 3, 11 and 15 at 900,000 nodes, but lost 5, 12 and 16,
# which the plain beams win: each trio wins 13 of the 20. Both trios run side by side (six beams, each
# with the same 300,000 nodes as before, ``deals.DEFAULT_MAX_NODES``), so the union is won: 16 of 20.
# A beam's run depends only on its own nodes (beams share nothing), so the six win what either trio won.
#
# A seventh beam (worth 2, guarded gods as three, at most a quarter of the width to one group) won deal 4;
# with it the seven won 53 of the first 66 deals and none of 18, 19 and 20 (64 other single-beam settings
# failed there too).
#
# Noise: the beam keeps the ``width`` best of a layer, ties broken by the order children were made, so a
# layer is the same few plans seen from the first parents and first moves. Raising each promise by up to
# three gods, drawn from the position's key (``jitter``), lets other plans through; each salt is another
# draw. One such beam (worth 3, salt 2) wins 16 of the first 17 deals and 10 of the 13 the seven left
# undecided in the first 66, mostly within 100,000 nodes at 64 or 256 wide; other salts and worths win
# most of the rest (deal 1: worth 4, salt 4; 25, 30, 47: worth 3, salt 1). Four noisy beams replace the
# seven (300,000 nodes each, ``deals.DEFAULT_MAX_NODES`` 1,200,000); docs/engines-and-puzzles.md has the
# figures.
FULL_NOISE = 3_000  # thousandths of a god: up to three gods
FULL_GAME = Techniques(prover=False, curse_worth=3, guard_worth=2, beam_diversity=16, beam_first_width=64,
                       beams=(BeamSetting(3, 2, 16, FULL_NOISE, 1), BeamSetting(3, 2, 16, FULL_NOISE, 2),
                              BeamSetting(4, 2, 16, FULL_NOISE, 4), BeamSetting(2, 2, 16, FULL_NOISE, 3)))
PROMISE_SCALE = 1_000  # full-game promises are integers: thousandths of a god


# A live child as ``expand`` lists it: (promise, order, its actions, its position, its keys and prints).
ChildEntry = tuple[int, int, Move, State, tuple[tuple[bytes, Print], ...]]


def promise(space: Space, state: State, curse_worth: int = 0, guard_worth: int = 0) -> int:
    """Lower is more promising: few gods, much life left in the worshipers, the highest worshiper far
    from the top (the turns before it must be submerged). With ``curse_worth`` (full games), a curse left
    is worth that many gods and the highest worshiper's distance from the top that share of a curse."""
    deck = state.deck
    gods = list(map(space.god.__getitem__, deck))  # 1 per god, 0 per worshiper (read at C speed)
    depth = gods.index(0) if 0 in gods else 0
    life = sum(map(space.life.__getitem__, deck))
    if curse_worth:
        guarded = guard_worth * sum(map(space.guarded.__getitem__, deck)) if guard_worth else 0
        return (PROMISE_SCALE * (sum(gods) + guarded - curse_worth * life)
                - PROMISE_SCALE * curse_worth * depth // len(deck))
    return GOD_WEIGHT * sum(gods) - LIFE_WEIGHT * life - min(depth, WORSHIPER_DEPTH_CAP)


def jitter(key: bytes, noise: int, salt: int) -> int:
    """A position's noise: 0 to ``noise - 1``, drawn from its key and ``salt`` (BLAKE2b, so the same on every
    machine and process, and unrelated for two salts)."""
    return fingerprint(key + salt.to_bytes(4, "little"))[1] % noise


class _Base:
    """What both searches share: the start, the budget, the forbidden positions, the shared proofs."""

    def __init__(self, space: Space, root: State, *, techniques: Techniques, forbidden: Iterable[bytes],
                 shared: Optional[PositionTable]) -> None:
        self.space = space
        self.techniques = techniques
        self.zero_ok = root.zero_ok
        self.forbidden = frozenset(forbidden)
        self.shared = shared if techniques.share else None
        self.outbox: list[tuple[int, int, int]] = []  # (bucket bits, tag, work) of positions proved lost
        self.nodes = 1
        self.status: Optional[str] = None
        self.line: Move = ()

    def standing(self, key: bytes, print_: Print) -> Optional[int]:
        """None while a position is open; LOST when it is forbidden or proved lost; else (depth-first
        search only) the depth of the path position it repeats, or DEPENDENT."""
        if key in self.forbidden or (self.shared is not None and self.shared.has(print_)):
            return LOST
        return None

    def expand(self, state: State, move: Move) -> Optional[tuple[list[ChildEntry], int]]:
        """The live children of ``state``, and the lowest standing among the children it dropped as closed.

        Returns None (with ``status`` WIN and ``line`` set by ``won``) when a child wins."""
        space, techniques = self.space, self.techniques
        dominance = techniques.dominance
        moves = space.moves(state)
        self.nodes += len(moves)
        children: list[ChildEntry] = []
        low = LOST
        siblings: set[bytes] = set()
        for actions, child in moves:
            if child is True:
                self.won(move + actions)
                return None
            if child is False:
                continue
            start_key = space.child_key(child)
            if start_key in siblings:
                continue
            if dominance:
                siblings.add(start_key)
                if space.dead(space.deck_of(child)):
                    continue
            start_print = fingerprint(start_key)
            standing = self.standing(start_key, start_print)
            if standing is not None:
                low = min(low, standing)
                continue
            position = space.resolve(child, zero_ok=self.zero_ok)
            outcome = result(position)
            if outcome:
                self.won(move + actions)
                return None
            if outcome is False:
                continue
            keys: tuple[tuple[bytes, Print], ...] = ((start_key, start_print),)
            position_key = space.key(position)
            if position_key != start_key:
                position_print = fingerprint(position_key)
                standing = self.standing(position_key, position_print)
                if standing is not None:
                    low = min(low, standing)
                    continue
                keys += ((position_key, position_print),)
            value = promise(space, position, techniques.curse_worth, techniques.guard_worth)
            if techniques.beam_noise:
                value += jitter(keys[-1][0], techniques.beam_noise, techniques.beam_salt)
            children.append((value, len(children), actions, position, keys))
        return children, low

    def won(self, move: Move) -> None:
        raise NotImplementedError


class _Frame:
    """A position being searched depth-first; ``low`` is the shallowest path position its subtree repeated."""

    __slots__ = ("keys", "children", "next", "move", "entered", "forced", "depth", "low")

    def __init__(self, keys: tuple, children: list, move: Move, entered: int, depth: int, low: int) -> None:
        self.keys = keys
        self.children = children
        self.next = 0
        self.move = move
        self.entered = entered
        self.forced = len(children) == 1
        self.depth = depth
        self.low = low


class DepthFirst(_Base):
    """A resumable, complete depth-first search from ``root``.

    A position is known by two keys: the deck its turn started from (how a move's
    child is recognised before its turn is resolved) and the position the turn
    reached (how a position met through two turn starts is recognised).

    A position is closed *independently* of the path (lost for sure) when nothing
    in its subtree repeated a path position above it (Tarjan's low link: its
    subtree is its own strongly connected part of the game). The table's work
    count carries one more bit saying so."""

    def __init__(self, space: Space, root: State, *, max_nodes: int, techniques: Techniques = Techniques(),
                 forbidden: Iterable[bytes] = (), shared: Optional[PositionTable] = None,
                 table_slots: Optional[int] = None) -> None:
        super().__init__(space, root, techniques=techniques, forbidden=forbidden, shared=shared)
        self.table = PositionTable(table_slots or slots_for(max_nodes))
        self.path: dict[bytes, int] = {}
        self.stack: list[_Frame] = []
        outcome = result(root)
        if outcome is not None:
            self.status = WIN if outcome else NO_WIN
            return
        key = space.key(root)
        self._enter(root, ((key, fingerprint(key)),), ())

    def standing(self, key: bytes, print_: Print) -> Optional[int]:
        found = super().standing(key, print_)
        if found is not None:
            return found
        depth = self.path.get(key)
        if depth is not None:
            return depth
        work = self.table.get(print_)
        if work < 0:
            return None
        return LOST if work & 1 else DEPENDENT

    def won(self, move: Move) -> None:
        self.status = WIN
        self.line = tuple(action for frame in self.stack for action in frame.move) + move

    def _enter(self, state: State, keys: tuple, move: Move) -> None:
        expanded = self.expand(state, move)
        if expanded is None:
            return
        children, low = expanded
        if self.techniques.ordering:
            children.sort(key=lambda item: (item[0], item[1]))
        depth = len(self.stack)
        self.stack.append(_Frame(keys, children, move, self.nodes, depth, low))
        for key, _ in keys:
            self.path[key] = depth

    def advance(self, budget: int) -> str:
        """Search ``budget`` more nodes at most: WIN, NO_WIN, or LIMIT (then ``advance`` may be called again)."""
        limit = self.nodes + budget
        stack = self.stack
        while self.status is None:
            if not stack:
                self.status = NO_WIN
                break
            if self.nodes >= limit:
                return LIMIT
            frame = stack[-1]
            if frame.next < len(frame.children):
                _, _, actions, position, keys = frame.children[frame.next]
                frame.next += 1
                standings = [self.standing(key, print_) for key, print_ in keys]
                if all(standing is None for standing in standings):
                    self._enter(position, keys, actions)
                else:
                    frame.low = min(frame.low, *(s for s in standings if s is not None))
                continue
            self._close(stack.pop())
        return self.status

    def _close(self, frame: _Frame) -> None:
        work = self.nodes - frame.entered
        independent = frame.low >= frame.depth
        for key, print_ in frame.keys:
            del self.path[key]
            if not (self.techniques.collapse and frame.forced):
                self.table.put(print_, (work << 1) | independent)
            if independent and self.shared is not None:
                self.outbox.append((print_[0], print_[1], (work << 1) | 1))
        if self.stack:
            parent = self.stack[-1]
            parent.low = min(parent.low, frame.low if not independent else LOST)


class Beam(_Base):
    """A resumable beam search with widening: it finds wins that need several quiet turns of set-up.

    Positions are taken layer by layer (a layer: the positions after the same number
    of turns), and only the ``width`` most promising of a layer go on to the next.
    Comparing positions after equally many turns is fair to a turn that spends life
    to set up a later feast; a best-first search would rather go deeper. When a
    layer dies out, the search starts again with ``growth`` times the width, up to
    ``max_width``. A run that never dropped a position is a full breadth-first search,
    so its end is a proof of no-win."""

    def __init__(self, space: Space, root: State, *, max_nodes: int, techniques: Techniques = Techniques(),
                 forbidden: Iterable[bytes] = (), shared: Optional[PositionTable] = None,
                 table_slots: Optional[int] = None, first_width: int = BEAM_FIRST_WIDTH,
                 growth: int = BEAM_GROWTH, max_width: int = BEAM_MAX_WIDTH) -> None:
        super().__init__(space, root, techniques=techniques, forbidden=forbidden, shared=shared)
        self.root, self.slots = root, table_slots or slots_for(max_nodes)
        self.width, self.growth, self.max_width = first_width, growth, max_width
        outcome = result(root)
        if outcome is not None:
            self.status = WIN if outcome else NO_WIN
            return
        self._restart()

    def _restart(self) -> None:
        self.closed = PositionTable(self.slots)
        self.closed.add(self.space.key(self.root))
        self.parents: list[int] = [-1]
        self.moves: list[Move] = [()]
        self.layer: list[tuple[State, int]] = [(self.root, 0)]
        self.index = 0
        self.following: list[tuple[int, int, State, int, Move]] = []
        self.sequence = 0
        self.dropped = False
        self.current = 0

    def standing(self, key: bytes, print_: Print) -> Optional[int]:
        found = super().standing(key, print_)
        return found if found is not None or not self.closed.has(print_) else DEPENDENT

    def won(self, move: Move) -> None:
        line: list[Move] = [move]
        entry = self.current
        while entry >= 0:
            line.append(self.moves[entry])
            entry = self.parents[entry]
        self.status = WIN
        self.line = tuple(action for step in reversed(line) for action in step)

    def _trim(self) -> None:
        if len(self.following) > self.width:
            self.following = self._best(self.following)
            self.dropped = True

    def _best(self, entries: list[tuple[int, int, State, int, Move]]) -> list[tuple[int, int, State, int, Move]]:
        """The ``width`` most promising entries; with diversity, at most ``width // beam_diversity`` of one
        group (the same cards left, the same curses spent) before the less promising of other groups, and
        only then the rest of the groups' best, so the width is always filled."""
        if not self.techniques.beam_diversity:
            return heapq.nsmallest(self.width, entries)
        cap = max(1, self.width // self.techniques.beam_diversity)
        kept: list[tuple[int, int, State, int, Move]] = []
        spare: list[tuple[int, int, State, int, Move]] = []
        counts: dict[tuple[frozenset[str], int], int] = {}
        plan = self.space.plan
        for entry in sorted(entries):  # (promise, sequence, ...): the sequence is unique, states never compared
            group = plan(entry[2].deck)
            if counts.get(group, 0) < cap:
                counts[group] = counts.get(group, 0) + 1
                kept.append(entry)
                if len(kept) == self.width:
                    return kept
            else:
                spare.append(entry)
        return kept + spare[:self.width - len(kept)]

    def advance(self, budget: int) -> str:
        limit = self.nodes + budget
        while self.status is None:
            if self.nodes >= limit:
                return LIMIT
            if self.index < len(self.layer):
                state, self.current = self.layer[self.index]
                self.index += 1
                expanded = self.expand(state, ())
                if expanded is None:
                    break
                for value, _, actions, position, keys in expanded[0]:
                    for _, print_ in keys:
                        self.closed.put(print_)
                    self.sequence += 1
                    self.following.append((value, self.sequence, position, self.current, actions))
                if len(self.following) > 2 * self.width:
                    self._trim()
                continue
            self._trim()
            if self.following:
                self.following.sort()
                self.layer = []
                for _, _, position, parent, actions in self.following:
                    self.parents.append(parent)
                    self.moves.append(actions)
                    self.layer.append((position, len(self.parents) - 1))
                self.following, self.index = [], 0
            elif not self.dropped:
                self.status = NO_WIN
            elif self.width >= self.max_width:
                self.status = EXHAUSTED
            else:
                self.width *= self.growth
                self._restart()
        return self.status or LIMIT  # the loop ends only once a status is set
