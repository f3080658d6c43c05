"""The balance core on a toy study: seeded chunks, one process or two, figures, the document and its charts."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.analysis.balance import runner
from pipeline.analysis.balance.document import document
from pipeline.analysis.balance.findings import Bars, GameFigures, Series, thin_note
from pipeline.analysis.balance.report import as_json
from pipeline.analysis.balance.standard import seat_charts
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import Results, Setup, Summary
from pipeline.analysis.balance.tally import count
from pipeline.app.documents import render
from pipeline.data.dataset import default_data_root
from pipeline.documents import structure as m
from pipeline.documents.markdown import render_markdown
from tests.core.balance_toy import CoinStudy
from tests.core.docs_helpers import page_texts

ROOT = default_data_root()


def _run(study: CoinStudy, *, games: int | None, seed: int, processes: int) -> dict:
    setups = {study.game_id: study.setups()}
    return runner.run({study.game_id: study}, setups, games=games, seed=seed, processes=processes)


def test_chunks_and_their_seeds_depend_on_the_run_and_the_chunk_only() -> None:
    study = CoinStudy()
    chunks = runner.chunks_of(study, study.setups(), 20, seed=5)
    assert [c.games for c in chunks if c.key == "2p-fair"] == [7, 7, 6]
    assert len({c.seed for c in chunks}) == len(chunks)
    assert chunks == runner.chunks_of(study, study.setups(), 20, seed=5)
    assert chunks[0].seed != runner.chunks_of(study, study.setups(), 20, seed=6)[0].seed
    assert [c.games for c in runner.chunks_of(study, study.setups(), None, seed=5) if c.key == "2p-fair"] == \
        [7] * 7 + [1]  # each set-up's default size (50)


def test_one_process_and_two_give_the_same_tallies() -> None:
    one = _run(CoinStudy(), games=40, seed=3, processes=1)["coin"]
    two = _run(CoinStudy(), games=40, seed=3, processes=2)["coin"]
    assert one.tallies == two.tallies
    assert count(one.tallies["2p-fair"], "games") == 40


def test_the_tallies_measure_what_was_played() -> None:
    results = _run(CoinStudy(), games=2000, seed=1, processes=1)["coin"]
    biased = Summary.of(next(s for s in results.setups if s.policy == "biased"), results.tallies["2p-biased"])
    low, high = biased.seat_wins[0].interval
    assert low < 0.8 < high and biased.seat_wins[0].hits + biased.seat_wins[1].hits == 2000
    assert 1 <= biased.length.value <= 6


def _figures(seed: int = 2, games: int = 300) -> GameFigures:
    study = CoinStudy()
    results = _run(study, games=games, seed=seed, processes=1)["coin"]
    return GameFigures("coin", study.title, (("seed", seed),), study.method, tuple(study.sections(results)))


def test_the_biased_seat_is_flagged_and_the_fair_one_is_not() -> None:
    flagged = _figures().outliers
    assert {o.member for o in flagged} == {"seat 1, 2 players, biased", "seat 2, 2 players, biased"}


def test_the_document_holds_every_section_table_and_chart() -> None:
    figures = _figures()
    pdf = render(document(figures), "a4", "pdf")
    texts = " ".join(page_texts(pdf))
    for heading in ("How to read this report", "Outliers", "Seats", "Length", "Win rate by seat: 2 players",
                    "Game length in turns", "Wilson score interval"):
        assert heading in texts
    assert "fair share 50%" in texts and "games won" in texts  # the bar chart's reference line and axis title
    assert "share of games" in texts  # the line chart's axis title
    assert len(PdfReader(io.BytesIO(pdf)).outline) >= 4


def test_figures_and_json_are_the_same_for_the_same_seed() -> None:
    assert as_json({"coin": _figures(seed=4)}) == as_json({"coin": _figures(seed=4)})
    assert as_json({"coin": _figures(seed=4)}) != as_json({"coin": _figures(seed=5)})
    data = json.loads(as_json({"coin": _figures(seed=4)}))["coin"]
    seats = next(i for s in data["sections"] for i in s["items"] if i["id"] == "seat-wins")
    first = seats["rows"][0][2]
    assert set(first) == {"hits", "trials", "rate", "low", "high"} and first["low"] <= first["rate"] <= first["high"]


def _chart_doc(categories: int) -> m.Document:
    series = m.ChartSeries("consumed", tuple(i / (2 * categories) for i in range(categories)),
                           tuple(max(0.0, i / (2 * categories) - 0.05) for i in range(categories)),
                           tuple(i / (2 * categories) + 0.05 for i in range(categories)))
    names = tuple(f"card {i}" for i in range(categories))
    return m.Document("Charts", "Test", "balance", (
        m.Heading("Bars"),
        m.BarChart(names, (series,), "share of games", percent=True, horizontal=True, caption="Long chart"),
        m.Heading("Lines"),
        m.LineChart((1.0, 2.0, 3.0), (m.ChartSeries("a", (0.2, 0.5, 0.3)), m.ChartSeries("b", (0.1, 0.6, 0.3))),
                    "rounds", "share of games", percent=True),
    ))


def test_a_horizontal_chart_taller_than_a_page_continues_on_the_next() -> None:
    texts = page_texts(render(_chart_doc(150), "a4", "pdf"))
    pages_with_cards = [i for i, text in enumerate(texts) if "card 1" in text or "card 149" in text]
    assert "card 0" in " ".join(texts) and "card 149" in " ".join(texts)
    assert len(pages_with_cards) >= 2
    assert len(render(_chart_doc(150), "letter", "pdf")) > 0


def test_markdown_prints_a_chart_as_its_numbers() -> None:
    text = render_markdown(_chart_doc(3))
    assert "| card 2 | 33.3% |" in text and "| 2 | 50.0% | 60.0% |" in text


def test_a_chart_label_the_font_cannot_print_is_refused() -> None:
    from pipeline.base.errors import UserError
    doc = m.Document("Charts", "Test", "balance", (m.BarChart(("\u4e00",), (m.ChartSeries("a", (0.5,)),), "x"),))
    with pytest.raises(UserError, match="Charts"):
        render(doc, "a4", "pdf")


def test_figures_survive_a_trip_to_a_worker(tmp_path: Path) -> None:
    import pickle
    figures = _figures()
    assert pickle.loads(pickle.dumps(figures)) == figures


def test_an_axis_of_whole_numbers_ticks_at_whole_steps() -> None:
    from pipeline.documents.charts import nice_scale

    assert nice_scale(1, 21, 10)[2] == 2.5  # a fraction is a fine step for rates...
    low, high, step = nice_scale(1, 21, 10, whole=True)
    assert (low, high, step) == (0.0, 25.0, 5.0)  # ...but rounds and turns tick at whole numbers
    assert nice_scale(0, 3, 10, whole=True)[2] == 1.0  # never a step below one


def test_a_seat_chart_of_several_player_counts_draws_each_fair_share() -> None:
    setups = tuple(Setup(f"{n}p", f"{n} players", n, "random", 1) for n in (2, 3, 4))
    tallies = {s.id: {"games": 10, "wins": {str(seat): 10 // s.players for seat in range(s.players)}} for s in setups}
    chart, = seat_charts(Results(setups, tallies), group=lambda s: "all", series=lambda s: s.label,
                         group_label=lambda key: "every count")
    assert [value for value, _ in chart.references] == [1 / 2, 1 / 3, 1 / 4]
    assert [label for _, label in chart.references] == ["2 players: fair 50%", "3 players: fair 33%",
                                                        "4 players: fair 25%"]


def test_a_chart_whose_intervals_are_wide_says_its_cells_are_thin() -> None:
    thin = Bars("x", "x", ("a", "b"), (Series("s", (Rate(5, 10), Rate(500, 1000))),), "share")
    wide = thin_note(thin)
    assert "1 of 2 bars" in wide and "as few as 10" in wide
    narrow = Bars("x", "x", ("a",), (Series("s", (Rate(500, 1000),)),), "share")
    assert thin_note(narrow) == ""
