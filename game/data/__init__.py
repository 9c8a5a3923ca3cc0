"""Loading data files (YAML) into rules objects.  May import yaml, never pygame."""
