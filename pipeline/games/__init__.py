"""One package per game, each with the same shape (model, checks, engine, render)."""
