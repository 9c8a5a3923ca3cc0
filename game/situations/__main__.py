"""``python -m game.situations [-q] FILE.yaml...``: run situation files."""
from game.situations import main

raise SystemExit(main())
