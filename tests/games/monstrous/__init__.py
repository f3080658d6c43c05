"""Tests for the Monstrous game package."""
