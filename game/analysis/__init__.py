"""Analyses of played games (no pygame): the luck report (issue 17)."""
