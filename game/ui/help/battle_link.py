"""What F1 opens in the battle (issue 17): the rules help at the rule behind the
refusal on show (its "Why?"), else the selected unit's ability texts, else the
contents.  Kept out of the battle screen's files so its hook stays one line."""
from __future__ import annotations

from typing import Any

from game.ui.help.links import rule_for
from game.ui.help.rules_text import section

__all__ = ["rules_scene", "unit_ability_ids"]


def unit_ability_ids(card: Any) -> list[str]:
    """The help sections of a card's abilities (those the help knows)."""
    out = []
    for ab in getattr(card, "abilities", ()) or ():
        sid = "ability:" + ab.id
        if section(sid) is not None and sid not in out:
            out.append(sid)
    return out


def rules_scene(scene: Any, topic: str | None = None) -> Any:
    from game.ui.help.scene import RulesHelpScene
    app = scene.app
    if topic is None:
        notice = getattr(scene.hud, "notice", None)
        if notice is not None:
            topic = rule_for(notice[0])
    if topic is not None:
        return RulesHelpScene(app, back=scene, topic=topic)
    uid = getattr(scene, "selected", None)
    unit = scene.state.units.get(uid) if uid else None
    if unit is not None:
        ids = unit_ability_ids(unit.card)
        if ids:
            return RulesHelpScene(app, back=scene, topic=ids[0], only=ids,
                                  title=f"{unit.name}: abilities")
    return RulesHelpScene(app, back=scene)
