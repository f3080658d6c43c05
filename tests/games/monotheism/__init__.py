"""Tests of the Monotheism game package."""
