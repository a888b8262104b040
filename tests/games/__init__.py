"""Tests of the built-in games."""
