"""Which rule explains a line the game showed ("Why?"): a refusal reason, an odds
line or a log line -> the id of a section of :mod:`game.ui.help.rules_text`.

A reason that names an ability in brackets ("... front arc (Fixed Howitzer)")
opens that ability's text; otherwise the first matching phrase below decides
(most specific first).  No match: the contents (None)."""
from __future__ import annotations

import re

from game.ui.help.rules_text import sections

__all__ = ["rule_for", "PHRASES"]

#: (phrase in the lower-cased line, section id), most specific first
PHRASES: tuple = (
    # the later edition's refusals (game.rules.later) name Aircraft, flight, hedges, cliffs
    ("flight phase", "later:flight"), ("one per army per hex", "later:flight"),
    ("over the battle map", "later:flight"), ("antiair", "later:antiair"),
    ("airstrike", "later:airstrike"), ("aircraft", "later:aircraft"),
    ("hedge", "later:hedges"), ("cliff", "later:bluffs"), ("bluffs", "later:bluffs"),
    ("defensive fire", "df-attack"), ("fires defensively", "df-attack"),
    ("holds fire", "df-provoke"), ("provoke", "df-provoke"),
    ("already fired", "df-provoke"),
    ("movement roll", "movement-roll"), ("stream", "movement-roll"),
    ("road", "roads"),
    ("cover", "cover"),
    ("line of sight", "los"), ("can't see", "los"), ("cannot see", "los"), ("out of sight", "los"),
    ("range", "range"), ("too far", "range"),
    ("stack", "stacking"), ("room for", "stacking"), ("no room", "stacking"),
    ("front", "facing"), ("rear", "facing"), ("facing", "facing"), ("turn in place", "facing"),
    ("marsh", "impassable"), ("pond", "impassable"), ("can't enter", "impassable"),
    ("hill", "double-cost"), ("forest", "double-cost"),
    ("speed", "speed"), ("hexes of movement", "speed"), ("too many hexes", "speed"),
    ("disrupted", "effects"), ("damaged", "effects"), ("destroyed", "effects"),
    ("successes", "hits-table"), ("hit", "hits-table"), ("dice", "rolling"),
    ("initiative", "initiative"), ("objective", "goal"),
    ("deploy", "standard"), ("points", "army"),
    ("assault phase", "assault-phase"), ("movement phase", "movement-phase"),
    ("already acted", "assault-phase"), ("already moved", "assault-phase"),
    ("attack", "attack"),
)

_BRACKET = re.compile(r"\(([^()]+)\)\s*[.!]?\s*$")


def _ability_ids() -> dict[str, str]:
    out = {}
    for s in sections():
        if s.id.startswith("ability:"):
            out[s.title.lower().replace(" n", "").strip()] = s.id
            out[s.title.lower()] = s.id
    return out


def rule_for(text: str | None) -> str | None:
    """The section id that explains ``text`` (None: no better place than the contents)."""
    if not text:
        return None
    low = text.lower()
    m = _BRACKET.search(text)
    if m:
        name = re.sub(r"\s+\d+$", "", m.group(1).strip().lower())
        sid = _ability_ids().get(name)
        if sid:
            return sid
    for phrase, sid in PHRASES:
        if phrase in low:
            return sid
    return None
