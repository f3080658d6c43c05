"""Tests of the Who's Your Heavenly Father? game package."""
