"""Pantheon Press: canonical card data, validation and print-and-play production."""
