"""Documents built from data: rulebooks, reference sheets, cheat sheets, printable extras, glossaries.

``model`` is a small document model (headings, paragraphs, lists, tables,
symbol legends, vector diagrams); ``pdf`` sets it with reportlab platypus
(table of contents, running headers, page numbers; A4 or Letter) and
``markdown`` writes it as Markdown for review diffs. ``standard`` turns the
shared data shapes (rules, glossary, components) into blocks; each game's
``pipeline/games/<package>/docs.py`` says what goes in its documents;
``build`` writes them all.
"""
