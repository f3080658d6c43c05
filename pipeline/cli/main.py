"""The `pantheon` command line: each stage of the pipeline runs on its own from here.

Each game's own command group (``pantheon theocracy bid ...``) is the
``commands`` part of its spec (:mod:`pipeline.games.registry`, which imports every
game's code), made into a command group only when that group is invoked; its
one-line help comes from the spec. A game's group puts the registered specs in its
context (``ctx.obj``) for the game's commands (:mod:`pipeline.games.commands`).
Every run ends in :func:`pipeline.base.exits.run`: bad input never shows a traceback, a UserError
becomes one line on stderr and exit code 1.
"""
from __future__ import annotations

import json
import signal
import time
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, NoReturn, Optional, Sequence

import typer
from typer.core import TyperGroup

from pipeline.base import exits, locations
from pipeline.base.errors import ProblemsFound, UsageProblem
from pipeline.base.options import (
    DataOption,
    GameArgument,
    GamesArgument,
    JsonOption,
    ProcessesOption,
    SeedOption,
    TemplatesOption,
    finite,
)
from pipeline.base.textsafety import one_line
from pipeline.base.version import version_line
from pipeline.base.words import count
from pipeline.cli import sheet as sheet_commands
from pipeline.exports.targets import target_ids

if TYPE_CHECKING:
    from pipeline.app.build import BuildRequest
    from pipeline.checks.validate import RecordCatalogue, ValidationReport
    from pipeline.data.gamespec import GameSpec
    from pipeline.store import Scope

# Each command imports what it alone uses, inside it: `pantheon --version` and `--help` start without the
# pipeline, and a command loads only its own part of it (validate never loads the build, the exports or rich).
EXIT_PROBLEMS = exits.EXIT_PROBLEMS


class GameCommands(TyperGroup):
    """A game's command group, standing in for it until it is used: listed with the spec's summary, the
    game's Typer app made into a click group only when the group is invoked (or asked for its commands)."""

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(name=spec.id, help=spec.summary, short_help=spec.summary, no_args_is_help=True)
        self.spec = spec
        self._loaded: Optional[TyperGroup] = None

    def loaded(self) -> TyperGroup:
        """The game's real command group (its spec's ``commands()``, a typer.Typer), made once."""
        if self._loaded is None:
            if self.spec.commands is None:
                raise self.spec.missing("commands")
            self._loaded = typer.main.get_group(self.spec.commands())
            _plain_help(self._loaded)
        return self._loaded

    def make_context(self, info_name: Optional[str], args: list[str], parent: Optional[Any] = None,
                     **extra: Any) -> Any:
        """The game group's context, holding the registered specs (``obj``) for the game's commands
        (:mod:`pipeline.games.commands`); only a game's commands need them, so the core commands' help and
        runs do not wait for the registry."""
        from pipeline.games import registry

        extra.setdefault("obj", registry.catalogue())
        return self.loaded().make_context(info_name, args, parent=parent, **extra)

    def list_commands(self, ctx: Any) -> list[str]:
        return self.loaded().list_commands(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return self.loaded().get_command(ctx, cmd_name)


def _plain_help(command: Any) -> None:
    """Help as plain text, as the top level's (rich_markup_mode=None), for a game's group and its commands."""
    command.rich_markup_mode = None
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


class PantheonGroup(TyperGroup):
    """The top-level group: the core commands, then one command group per registered game (by id). Every run
    ends in pipeline.base.exits (exit codes 1/2/70/130, one line, no traceback), however it is started: the
    ``pantheon`` program, ``app(...)`` in a process, or typer's test runner."""

    def main(self, args: Optional[Sequence[str]] = None, prog_name: Optional[str] = None,
             complete_var: Optional[str] = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        """Run the command line on ``args`` and exit through pipeline.base.exits (``standalone_mode`` is its)."""
        exits.run(lambda **run: super(PantheonGroup, self).main(
            prog_name=prog_name, complete_var=complete_var, windows_expand_args=windows_expand_args, **extra, **run),
            argv=args)

    def _game_ids(self) -> list[str]:
        from pipeline.games import registry

        return sorted(spec.id for spec in registry.specs() if spec.commands is not None)

    def list_commands(self, ctx: Any) -> list[str]:
        return super().list_commands(ctx) + [game for game in self._game_ids() if game not in self.commands]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in self._game_ids():
            from pipeline.games import registry

            found = GameCommands(registry.spec(cmd_name))
            self.commands[cmd_name] = found
        return found


app = typer.Typer(
    cls=PantheonGroup,
    help="Pantheon Press: validate card data and build print-and-play PDFs.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags shown as flags, no box drawing in pipes and logs
    context_settings={"help_option_names": ["-h", "--help"]},  # every command's contexts inherit it
)


def say(line: str, *, err: bool = False) -> None:
    """Print one line; values in it (a problem's quoted text, a folder name) cannot break it in two."""
    typer.echo(one_line(line), err=err)


def _version(shown: bool) -> None:
    """``--version``: the version line, and nothing else is done."""
    if shown:
        say(version_line())
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Pantheon Press: validate card data and build print-and-play PDFs."""
    from pipeline.base import console

    console.spin_while(ctx, f"{ctx.command_path} {ctx.invoked_subcommand}")  # on a terminal, until the command ends


def run() -> None:
    """The ``pantheon`` program (and ``python -m pipeline``): the command line on the process's arguments."""
    app(prog_name="pantheon")


def _data_root(data: Optional[Path]) -> Path:
    from pipeline.data.dataset import default_data_root

    return data if data is not None else default_data_root()


def select_games(root: Path, games: Optional[Sequence[str]]) -> list[str]:
    from pipeline.games import registry

    return registry.select(root, games)


def run_validation(root: Path, games: Optional[Sequence[str]], loaded: Optional[RecordCatalogue] = None,
                   progress: Optional[Callable[[str], None]] = None, fold: bool = True,
                   scope: Optional[Scope] = None) -> ValidationReport:
    from pipeline.checks.validate import validate as validate_data
    from pipeline.documents.docscheck import document_problems
    from pipeline.games import registry

    return validate_data(root, loaded.specs if loaded is not None else registry.catalogue(), games, loaded,
                         documents=document_problems, progress=progress, fold=fold, scope=scope)


def _refuse_or_raise(problems: Sequence[object], consequence: str, as_json: bool) -> NoReturn:
    """:func:`_refuse`, or with ``as_json`` one JSON error listing every problem (through the one exit)."""
    if as_json:
        raise ProblemsFound([str(problem) for problem in problems], consequence)
    _refuse(problems, consequence)


def _refuse(problems: Sequence[object], consequence: str) -> NoReturn:
    """Print every problem, say what was not done, and exit 1."""
    for problem in problems:
        say(str(problem))
    say(f"{count(len(problems), 'problem')} found: {consequence}", err=True)
    raise typer.Exit(EXIT_PROBLEMS)


@app.command()
def validate(ctx: typer.Context, games: Optional[List[str]] = GamesArgument, data: Optional[Path] = DataOption,
             as_json: bool = JsonOption) -> None:
    """Check data against the schemas and every game's cross-checks; list every problem."""
    from pipeline.base import console

    report = run_validation(_data_root(data), games, progress=None if as_json else console.stepper(ctx))
    if as_json:  # {"ok", "games", "problems", "not_cross_checked"}; exit 1 when a problem is found
        typer.echo(json.dumps({"ok": report.ok, "games": list(report.games), "problems": [
            {"file": p.at.file, "line": p.at.line, "column": p.at.column, "message": p.message} for p in report.problems],
            "not_cross_checked": report.skipped_cross_checks}))
        if not report.ok:
            raise typer.Exit(EXIT_PROBLEMS)
        return
    for problem in report.problems:
        say(str(problem))
    for game in report.skipped_cross_checks:
        say(f"note: {game}: cross-checks not run until the problems above are fixed", err=True)
    if not report.ok:
        say(f"{count(len(report.problems), 'problem')} found", err=True)
        raise typer.Exit(EXIT_PROBLEMS)
    say("ok: data is valid")


@app.command()
def provenance(
    games: Optional[List[str]] = GamesArgument, data: Optional[Path] = DataOption, as_json: bool = JsonOption
) -> None:
    """Count each game's records by source: rulebook, inferred, authored."""
    from pipeline.checks.provenance import SOURCES, provenance_counts
    from pipeline.games import registry

    counts = provenance_counts(_data_root(data), registry.catalogue(), games)
    if as_json:
        typer.echo(json.dumps(counts, indent=2, sort_keys=True))
        return
    columns = (*SOURCES, "total")
    say(f"{'game':<20}" + "".join(f"{c:>10}" for c in columns))
    for game, row in counts.items():
        say(f"{game:<20}" + "".join(f"{row[c]:>10}" for c in columns))


@app.command()
def rulings(
    games: Optional[List[str]] = GamesArgument, data: Optional[Path] = DataOption, as_json: bool = JsonOption,
    as_markdown: bool = typer.Option(False, "--markdown", help="Print docs/rulings.md (every game's rulings)."),
) -> None:
    """List the rulings each engine follows where its rulebook is silent, each with its reason."""
    from pipeline.checks import rulingslist
    from pipeline.games import registry

    root = _data_root(data)
    if as_markdown:
        if games:
            raise UsageProblem("--markdown prints every game's rulings: name no game")
        typer.echo(rulingslist.markdown(root, registry.catalogue()), nl=False)
        return
    found = rulingslist.rulings_by_game(root, registry.catalogue(), games)
    if as_json:  # {game: [{"id", "title", "ruling", "reasoning"}]}
        typer.echo(json.dumps({game: [{"id": r.id, "title": r.title, "ruling": r.text, "reasoning": r.reasoning}
                                      for r in listed] for game, listed in found.items()}, indent=2))
        return
    for game, listed in found.items():
        say(f"{game}: {count(len(listed), 'ruling')}")
        for ruling in listed:
            say(f"  {ruling.id}: {rulingslist.plain(ruling.title)}")
            say(f"    {rulingslist.plain(ruling.text)}")
            say(f"    why: {rulingslist.plain(ruling.reasoning)}")


PROJECT_OUTPUT = locations.output_root()



def _template_root(templates: Optional[Path]) -> Path:
    return templates if templates is not None else locations.template_root()


class PaperChoice(str, Enum):
    a4 = "a4"
    letter = "letter"


class OnlyChoice(str, Enum):
    cards = "cards"
    docs = "docs"


class FormatChoice(str, Enum):
    pdf = "pdf"
    md = "md"


class LayoutChoice(str, Enum):
    butted = "butted"
    gutter = "gutter"
    lines = "lines"
    cutter = "cutter"
    fold = "fold"


class DuplexChoice(str, Enum):
    long = "long"
    short = "short"
    none = "none"


@app.command()
def build(
    games: Optional[List[str]] = GamesArgument,
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", help="Paper size of the sheets."),
    out: Path = typer.Option(PROJECT_OUTPUT, "--out", help="Folder for output/<game>/cards-<paper>.pdf (and -ink.pdf)."),
    data: Optional[Path] = DataOption,
    duplex: DuplexChoice = typer.Option(
        DuplexChoice.long,
        "--duplex",
        help="long/short: backs follow each page, mirrored for that duplex flip; none: fronts only "
        "(two-faced cards print both faces as fronts).",
    ),
    offset_across: Optional[float] = typer.Option(
        None, "--offset-across", parser=finite(), help="Move every back this many mm across the paper (along its short edge; + towards "
        "the right edge of the sheet held portrait, front towards you). Measure it with --calibration."
    ),
    offset_along: Optional[float] = typer.Option(
        None, "--offset-along", parser=finite(),
        help="Move every back this many mm along the paper (along its long edge; + towards the top edge)."
    ),
    printer: Optional[str] = typer.Option(
        None, "--printer", help="Use the offsets stored for this printer (`pantheon printer set`); not with --offset-*."
    ),
    calibration: bool = typer.Option(
        False, "--calibration", help="Start with a registration page, one per orientation the sheets use, for measuring offsets."
    ),
    layout: Optional[LayoutChoice] = typer.Option(
        None, "--layout", help="butted (the default in templates/sheets.yaml): cards share cut lines, 9 poker cards a "
        "sheet; gutter: every card keeps its own bleed (cut with a guillotine between bleeds); lines: butted, with "
        "full-length cut lines; cutter: registration marks for print-then-cut machines (Silhouette, Cricut, Brother); "
        "fold: fronts and backs side by side with a fold line, for printers without duplex."
    ),
    ink_saver: bool = typer.Option(
        False, "--ink-saver", help="Write only the ink-friendly edition, cards-<paper>-ink.pdf (a build writes it beside "
        "the full-colour one anyway): backs and frames without full-bleed floods (outline and emblem), white between cards."
    ),
    force: bool = typer.Option(False, "--force", help="Rebuild even when nothing changed."),
    templates: Optional[Path] = TemplatesOption,
    only: Optional[OnlyChoice] = typer.Option(
        None, "--only", help="cards: card sheets only; docs: rulebooks, reference and cheat sheets, extras, glossary only."
    ),
    stamp: bool = typer.Option(False, "--stamp", help="Print a version line (git describe or --version-label, the "
                               "data's last commit date, a hash of the data) on every card and sheet."),
    version_label: Optional[str] = typer.Option(None, "--version-label", help="The version the stamp prints (implies --stamp)."),
    watermark: Optional[str] = typer.Option(None, "--watermark", help="Text across every face, e.g. PLAYTEST (implies --stamp)."),
    as_json: bool = JsonOption,
) -> None:
    """Validate, then write each game's card sheets and documents (PDF); unchanged ones are skipped."""
    from pipeline.app.build import BuildRequest, CardSettings, Part
    from pipeline.cards.imposition import Duplex

    request = BuildRequest(
        _data_root(data), out, _template_root(templates), tuple(games or ()), paper.value,
        Part(only.value) if only is not None else None,
        cards=CardSettings(Duplex(duplex.value), offset_across, offset_along, printer, calibration,
                           layout.value if layout is not None else None, ink_saver, stamp, version_label, watermark),
        force=force,
    )
    _run_build(request, "nothing built", as_json=as_json)


def _run_build(request: BuildRequest, refused: str, *, as_json: bool = False) -> None:
    """Run a build (app.build), printing each file written or up to date (``as_json``: one JSON object);
    invalid data: every problem, then ``refused`` (what was not done), exit 1."""
    from pipeline.app.build import build as run_build
    from pipeline.base import console
    from pipeline.data.dataset import display_path

    try:
        with console.progress_bar() as bar:
            card_bar = _CardBar(bar)
            outcome = run_build(request, progress=card_bar, steps=card_bar.step, on_wait=lambda: say(
                f"waiting for another build writing to {display_path(request.out)}", err=True))
    except ProblemsFound as exc:
        if as_json:
            raise  # the one exit prints it as JSON, every problem listed
        _refuse(exc.problems, refused)
    for note in outcome.notes:
        say(note, err=True)
    if as_json:
        typer.echo(json.dumps({"outputs": [{"path": str(output.path), "written": output.written,
                                            "detail": output.detail or None} for output in outcome.outputs]}))
        return
    for output in outcome.outputs:
        shown = display_path(output.path)
        say(f"wrote {shown}{' ' + output.detail if output.detail else ''}" if output.written else f"up to date: {shown}")


class _CardBar:
    """A build's cards, or an export's faces, shown on the progress bar (``console.progress_bar``): its total
    is the one the work announces (``begin``), so it ends full."""

    def __init__(self, bar: Any, label: str = "cards") -> None:
        self.bar = bar
        self.label = label
        self.task: Optional[int] = None
        self.status: Optional[int] = None  # the line saying what the build does besides drawing cards

    def step(self, text: str) -> None:
        """Show what the build does now, and how far (validation, documents)."""
        if self.status is None:
            self.status = self.bar.add_task(text, total=None)
        else:
            self.bar.update(self.status, description=text)

    def begin(self, total: int) -> None:
        self.task = self.bar.add_task(self.label, total=total)

    def game(self, game: str) -> None:
        if self.task is not None:
            self.bar.update(self.task, description=game)

    def advance(self, cards: int) -> None:
        if self.task is not None:
            self.bar.advance(self.task, cards)


def _validated_plan(root: Path, game: str, consequence: str, *, as_json: bool = False,
                    scope: Optional[Scope] = None) -> Any:
    """The card plan of one game, after its data validated (else every problem, and exit 1; ``as_json``: as
    one JSON error); ``scope``: the command's store scope."""
    from pipeline.cards import build as render_build

    select_games(root, [game])
    report = run_validation(root, [game], scope=scope)
    if not report.ok:
        _refuse_or_raise(report.problems, consequence, as_json)
    return render_build.plan(root, game, report.games[game])


def _card_ids(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a card of the game already typed, in every form ``preview`` takes: the sheets' id
    (deity-02), the record's id as the YAML writes it (02) and the name (nothing while the data is broken)."""
    game = str(ctx.params.get("game") or "")
    try:
        from pipeline.cards import build as render_build
        from pipeline.data.dataset import default_data_root

        the_plan = render_build.plan(default_data_root(), game, registry_game(game))
    except Exception:  # completion must never fail the shell: no suggestions instead
        return []
    names = (form for card in the_plan.cards
             for form in (card.id, (card.record or "").split("/", 1)[-1], card.name))
    return [name for name in dict.fromkeys(names) if name and name.startswith(incomplete)]


def registry_game(game: str) -> Any:
    """A game's data, loaded (for completion: not validated, never written)."""
    from pipeline.data.dataset import default_data_root, load_game
    from pipeline.games import registry

    return load_game(default_data_root(), registry.spec(game))


@app.command()
def preview(
    game: str = GameArgument,
    card_id: str = typer.Argument(..., help="The card: its id as the YAML writes it (02), as the sheets name it "
                                  "(deity-02), or its name.", autocompletion=_card_ids),
    out: Optional[Path] = typer.Option(None, "--out", help="PNG file (default output/<game>/preview/<card>.png)."),
    data: Optional[Path] = DataOption,
    dpi: int = typer.Option(150, "--dpi", min=30, max=1200, help="Resolution of the PNG."),
    templates: Optional[Path] = TemplatesOption,
    ink_saver: bool = typer.Option(False, "--ink-saver", help="Show the card as `build --ink-saver` prints it."),
    as_json: bool = JsonOption,
) -> None:
    """Write a PNG of one card, front and back side by side (needs pdftoppm from poppler-utils)."""
    from pipeline import store
    from pipeline.cards import build as render_build
    from pipeline.data.dataset import display_path

    template_root = _template_root(templates)
    scope = store.scope(template_root)  # the command's: validation's too when the templates are the project's
    the_plan = _validated_plan(_data_root(data), game, "no preview", as_json=as_json, scope=scope)
    card = render_build.find_card(the_plan, card_id)
    target = out if out is not None else PROJECT_OUTPUT / game / "preview" / f"{card.id}.png"
    face_pdf = render_build.face_preview_pdf(the_plan, card.id, template_root=template_root, ink_saver=ink_saver,
                                             scope=scope)
    from pipeline.cards.preview import pdf_to_png  # only preview turns a PDF into a PNG

    pdf_to_png(face_pdf, target, dpi)
    if as_json:
        typer.echo(json.dumps({"card": card.id, "name": card.name, "path": str(target)}))
        return
    say(f"wrote {display_path(target)}")


@app.command()
def docs(
    game: str = GameArgument,
    fmt: FormatChoice = typer.Option(FormatChoice.pdf, "--format", help="pdf, or md (Markdown, for diffs in review)."),
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", help="Paper size."),
    out: Path = typer.Option(PROJECT_OUTPUT, "--out", help="Folder for <game>/<document>-<paper>.<format>."),
    data: Optional[Path] = DataOption,
    as_json: bool = JsonOption,
) -> None:
    """Write one game's rulebook, reference sheet, cheat sheet and extras from its data."""
    from pipeline.app.build import BuildRequest, Part

    _run_build(BuildRequest(_data_root(data), out, _template_root(None), (game,), paper.value, Part.DOCS, fmt.value,
                            force=True), "no documents written", as_json=as_json)


TARGETS_HELP = f"a file of templates/targets/ ({', '.join(target_ids())}; --templates for another folder's)."


@app.command()
def export(
    game: str = GameArgument,
    target: str = typer.Option(..., "--target", help=f"Export target: {TARGETS_HELP}"),
    out: Path = typer.Option(PROJECT_OUTPUT, "--out", help="Folder for <game>/<target>/."),
    data: Optional[Path] = DataOption,
    templates: Optional[Path] = TemplatesOption,
    as_json: bool = JsonOption,
    base_url: Optional[str] = typer.Option(
        None, "--base-url", help="Tabletop Simulator: where the images will be uploaded (URLs are this + file name)."),
) -> None:
    """Write one game's cards for a print shop or Tabletop Simulator, from the same vector faces."""
    from pipeline import store
    from pipeline.base import console
    from pipeline.data.dataset import display_path
    from pipeline.exports import export as exporter
    from pipeline.exports.targets import target as export_target

    template_root = _template_root(templates)
    spec = export_target(target, template_root)  # an unknown target is refused before any work
    scope = store.scope(template_root)  # the command's: validation's too when the templates are the project's
    the_plan = _validated_plan(_data_root(data), game, "nothing exported", as_json=as_json, scope=scope)
    with console.progress_bar() as bar:
        result = exporter.export(the_plan, spec, out, progress=_CardBar(bar, f"{game} faces"), template_root=template_root,
                                 base_url=base_url, scope=scope)
    if as_json:
        typer.echo(json.dumps({"game": game, "target": target, "folder": str(result.folder), "files": result.files,
                               "faces": result.faces, "left_out": list(result.left_out)}))
        return
    for line in result.left_out:
        say(line)
    say(f"wrote {display_path(result.folder)} ({count(result.files, 'file')} from {count(result.faces, 'face')})")


@app.command()
def preflight(
    games: Optional[List[str]] = GamesArgument,
    target: str = typer.Option("print", "--target", help=f"print (the card sheets), or an export target: {TARGETS_HELP}"),
    data: Optional[Path] = DataOption,
    templates: Optional[Path] = TemplatesOption,
    as_json: bool = JsonOption,
    files: Optional[Path] = typer.Option(
        None, "--files", help="Check the files of this export folder (<out>/<game>/<target>) instead of a fresh export."),
) -> None:
    """Check what a print shop checks: text size, safe area, bleed, fonts, colour, ink, image and grid sizes."""

    from pipeline import store
    from pipeline.cards import build as render_build
    from pipeline.exports import preflight as checks
    from pipeline.exports.targets import target as export_target
    from pipeline.games import registry

    template_root = _template_root(templates)
    spec = None if target == checks.PRINT else export_target(target, template_root)  # refused before any work
    root = _data_root(data)
    chosen = select_games(root, games)
    if files is not None and (len(chosen) != 1 or spec is None):
        raise UsageProblem("--files checks one game's export: name one game and an export --target")
    scope = store.scope(template_root)  # the command's: validation's too when the templates are the project's
    report = run_validation(root, chosen, scope=scope)
    if not report.ok:
        _refuse_or_raise(report.problems, "nothing checked", as_json)
    rules = checks.design_rules(template_root)
    findings: list[str] = []
    left_out: list[str] = []  # what a fresh export leaves out for this target (sizes the shop does not make)
    for game in chosen:
        if not games and registry.spec(game).cards is None:
            continue
        the_plan = render_build.plan(root, game, report.games[game])
        findings += checks.check_faces(the_plan, rules, template_root, scope)
        findings += checks.check_target(the_plan, spec, template_root, files, note=left_out.append, scope=scope)
    if findings:
        _refuse_or_raise(findings, "not ready for print", as_json)
    if as_json:
        typer.echo(json.dumps({"games": chosen, "target": target, "ready": True, "left_out": left_out}))
        return
    for line in left_out:
        say(line)
    say(f"ok: {', '.join(chosen)} ready for {target}")


app.add_typer(sheet_commands.app, name="sheet")

printer_app = typer.Typer(help="Printer profiles: the duplex offsets measured on each printer (see --calibration).")
app.add_typer(printer_app, name="printer")


@printer_app.command("set")
def printer_set(
    name: str = typer.Argument(..., help="Profile name (lower-case letters, digits, hyphens)."),
    offset_across: float = typer.Option(..., "--offset-across", parser=finite(),
                                        help="mm across the paper, as `build --offset-across`."),
    offset_along: float = typer.Option(..., "--offset-along", parser=finite(),
                                       help="mm along the paper, as `build --offset-along`."),
    as_json: bool = JsonOption,
) -> None:
    """Store (or replace) a printer's offsets; `pantheon build --printer NAME` then uses them."""
    from pipeline.cards import printers
    from pipeline.data.dataset import display_path

    path = printers.save_profile(printers.Printer(name, offset_across, offset_along))
    if as_json:
        typer.echo(json.dumps({"file": str(path), "name": name, "offset_across_mm": offset_across,
                               "offset_along_mm": offset_along}))
        return
    say(f"saved printer '{name}' (across {offset_across:+g} mm, along {offset_along:+g} mm) in {display_path(path)}")


@printer_app.command("list")
def printer_list(as_json: bool = JsonOption) -> None:
    """Show the stored printer profiles and where they are kept."""
    from pipeline.cards import printers
    from pipeline.data.dataset import display_path

    path = printers.profiles_path()
    profiles = printers.read_profiles(path)
    if as_json:
        typer.echo(json.dumps({"file": str(path), "printers": [
            {"name": p.name, "offset_across_mm": p.offset_across_mm, "offset_along_mm": p.offset_along_mm}
            for p in profiles.usable.values()], "unusable": list(profiles.unusable.values())}))
        return
    say(f"printer profiles in {display_path(path)}: {len(profiles.usable)}")
    for profile in profiles.usable.values():
        say(f"{profile.name}: across {profile.offset_across_mm:+g} mm, along {profile.offset_along_mm:+g} mm")
    for problem in profiles.unusable.values():
        say(f"error: {problem} (not used; set it again with `pantheon printer set`)", err=True)



@app.command()
def report(
    games: Optional[List[str]] = GamesArgument,
    per_setup: Optional[int] = typer.Option(None, "--games", min=1, help="Games per set-up (default: each set-up's default size)."),
    seed: int = SeedOption,
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", help="Paper size."),
    out: Path = typer.Option(PROJECT_OUTPUT, "--out", help="Folder for <game>/balance-<paper>.pdf."),
    as_json: bool = typer.Option(False, "--json", help="Also print every figure as JSON on stdout."),
    processes: Optional[int] = ProcessesOption,
    data: Optional[Path] = DataOption,
) -> None:
    """Balance report per game: simulated win rates, card and rule figures with 95% intervals, charts, outliers."""
    from pipeline.analysis.balance.commands import report_command
    from pipeline.games import registry

    report_command(_data_root(data), registry.catalogue(), games, per_setup=per_setup, seed=seed, paper=paper.value, out=out,
                   processes=processes, as_json=as_json, say=say)


@app.command()
def simulate(
    game: str = GameArgument,
    games: Optional[int] = typer.Option(None, "--games", min=1, help="Games per set-up (default: the report's size)."),
    seed: int = SeedOption,
    players: Optional[int] = typer.Option(None, "--players", min=1, help="Only set-ups for this many players."),
    policy: Optional[str] = typer.Option(None, "--policy", help="Only set-ups played by this policy (see the game's report)."),
    as_json: bool = JsonOption,
    processes: Optional[int] = ProcessesOption,
    data: Optional[Path] = DataOption,
) -> None:
    """Simulate many games of one game: win rate by seat, endings and length per set-up, with 95% intervals."""
    from pipeline.analysis.balance.commands import simulate_command
    from pipeline.games import registry

    simulate_command(_data_root(data), registry.catalogue(), game, games=games, seed=seed, players=players, policy=policy,
                     processes=processes, as_json=as_json, say=say)



@app.command("diff")
def diff_command(
    args: Optional[List[str]] = typer.Argument(None, help="[REV_A [REV_B]] [GAME ...]: git revisions (default HEAD "
                                               "and the working tree), then games (default: all)."),
    data_a: Optional[Path] = typer.Option(None, "--data-a", help="Compare this data folder (old side) ..."),
    data_b: Optional[Path] = typer.Option(None, "--data-b", help="... with this one (new side), instead of revisions."),
    as_json: bool = JsonOption,
    pdf: Optional[Path] = typer.Option(None, "--pdf", help="Also write a proof PDF: old and new faces side by side, "
                                       "a reprint sheet of the changed cards, a changelog."),
    engines: bool = typer.Option(True, "--engines/--no-engines", help="Ask each changed game's engine figures "
                                 "(Monotheism: each scenario's status and losing first moves) before and after."),
    engine_nodes: Optional[int] = typer.Option(None, "--engine-nodes", min=1, help="Node limit of each engine search."),
    balance: bool = typer.Option(False, "--balance", help="Also play each changed game's balance study on both "
                                 "sides (same seeds) and print its figures before and after, flagging significant moves."),
    balance_games: Optional[int] = typer.Option(None, "--games", min=1, help="Games per set-up for --balance "
                                                "(default 40: quick; raise it for narrower intervals)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of --balance's simulations (default 0)."),
    every: bool = typer.Option(False, "--all", help="With --balance: every figure that moved, not only those "
                               "significant after the correction for the number of figures."),
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", help="Paper of the proof PDF."),
    templates: Optional[Path] = TemplatesOption,
    data: Optional[Path] = typer.Option(None, "--data", help="The working tree's data folder (default the project's "
                                        "data/); revisions are read from its git repository."),
) -> None:
    """What changed between two versions of the data: per card (field, old, new), rules, records, engine figures."""
    from pipeline.analysis.diff import commands as diff_commands
    from pipeline.games import registry

    compared_all = diff_commands.diff_command(
        _data_root(data), registry.catalogue(), list(args or []), data_a=data_a, data_b=data_b, as_json=as_json, pdf=pdf,
        engines=engines, budget=engine_nodes, paper=paper.value, template_root=_template_root(templates), say=say,
        balance=balance, balance_games=balance_games, seed=seed, every=every)
    if not compared_all:  # a side does not validate: the diff and its problems were printed
        raise typer.Exit(EXIT_PROBLEMS)


def _stamped(line: str) -> None:
    """A watch line, led by the local time it was said (a terminal left open shows when each rebuild began)."""
    say(f"[{time.strftime('%H:%M:%S')}] {line}")


@app.command()
def watch(
    games: Optional[List[str]] = GamesArgument,
    data: Optional[Path] = DataOption,
    templates: Optional[Path] = TemplatesOption,
    out: Path = typer.Option(PROJECT_OUTPUT, "--out", help="Folder the builds write to (as `build --out`)."),
    only: Optional[OnlyChoice] = typer.Option(None, "--only", help="cards or docs only (as `build --only`)."),
    interval: float = typer.Option(1.0, "--interval", parser=finite(0.05), help="Seconds between two looks at the files."),
    once: bool = typer.Option(False, "--once", help="Build once and stop (as `build`, for scripts and tests)."),
    max_cycles: Optional[int] = typer.Option(None, "--max-cycles", min=0, help="Stop after this many looks."),
) -> None:
    """Rebuild a game whenever its data or templates change: validate, then the files written or the problems."""
    root = _data_root(data)
    from pipeline.app.watch import Watched
    from pipeline.app.watch import watch as watch_files

    watched = Watched(root, _template_root(templates), select_games(root, games))
    interrupted: list[int] = []  # Ctrl-C seen: a build may turn its KeyboardInterrupt into an exit or an Abort

    def on_interrupt(signum: int, frame: Any) -> None:
        interrupted.append(signum)
        raise KeyboardInterrupt

    def rebuild(game: str) -> None:
        args = ["build", game, "--data", str(root), "--out", str(out), "--templates", str(watched.template_root)]
        try:
            app(args + (["--only", only.value] if only is not None else []))  # ends in commandline: always exits
        except (SystemExit, typer.Exit, typer.Abort):  # the build said why on stderr
            pass
        if interrupted:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        watch_files(watched, rebuild, _stamped, interval=interval, max_cycles=0 if once else max_cycles)
    except KeyboardInterrupt:
        say("stopped watching", err=True)
        raise typer.Exit(exits.EXIT_INTERRUPTED) from None
    finally:
        signal.signal(signal.SIGINT, previous)
