"""Tests of the browser GUI (makeenv play): server, page, drawings, command line."""
