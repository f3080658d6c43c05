"""Balance studies: many seeded games through the engine kit, the figures a designer needs, and their report.

Each game says what to study in ``pipeline/games/<package>/balance.py``
(``study(game_data) -> Study``: its set-ups, how one batch of games is played
and tallied, and which figures the tallies make). The core does the rest the
same way for every game:

* :mod:`stats`: rates with Wilson intervals, means with normal intervals, the outlier rule;
* :mod:`tally`: plain nested counters that batches return and that merge by addition;
* :mod:`study`: the contract a game's study keeps, and the standard per-game record;
* :mod:`runner`: seeded chunks of games on a process pool, merged in a fixed order
  (the same figures, byte for byte, whatever the number of processes);
* :mod:`figures`: the figures (tables, bar and line charts, outliers) as data;
* :mod:`document`: figures to a document (PDF via the documents package) and to JSON;
* :mod:`report` and :mod:`simulate`: the ``pantheon report`` and ``pantheon simulate`` commands.
"""
