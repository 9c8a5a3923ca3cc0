"""What F1 opens in the battle (issue 17): the rules help at the rule behind the
refusal on show (its "Why?"), else the rule behind the odds of the hovered enemy
(cover, facing, rolling and the hits table), else the selected unit's ability
texts, else the contents.  Kept out of the battle screen's files so its hook stays one line."""
from __future__ import annotations

from typing import Any

from game.ui.help.links import rule_for
from game.ui.help.rules_text import section

__all__ = ["rules_scene", "unit_ability_ids", "odds_topic"]


def unit_ability_ids(card: Any) -> list[str]:
    """The help sections of a card's abilities (those the help knows)."""
    out = []
    for ab in getattr(card, "abilities", ()) or ():
        sid = "ability:" + ab.id
        if section(sid) is not None and sid not in out:
            out.append(sid)
    return out


def odds_topic(scene: Any, unit: Any) -> str | None:
    """The rule behind the odds line shown for the hovered enemy: cover when the target
    gets a cover roll, facing when a Vehicle is hit in its rear, else rolling and hits."""
    from game.rules.errors import IllegalAction
    h = getattr(scene, "hover_hex", None)
    if h is None:
        return None
    enemy = next((u for u in scene.state.units.values()
                  if u.on_map and u.hex == h and u.side != unit.side), None)
    if enemy is None:
        return None
    try:
        o = scene.game.odds(unit.uid, enemy.uid)
    except IllegalAction as exc:
        return rule_for(str(exc)) or "attack"
    if o.cover_need is not None:
        return "cover"
    if o.front is False:
        return "facing"
    return "rolling"


def later_topic(state: Any) -> str | None:
    """The later edition's section for the step on screen (flight, Antiair, airstrike)."""
    from game.rules.state import AntiairPrompt
    if isinstance(state.pending, AntiairPrompt):
        return "later:antiair"
    if state.phase.is_flight:
        return "later:flight"
    if state.phase.is_airstrike:
        return "later:airstrike"
    return None


def rules_scene(scene: Any, topic: str | None = None) -> Any:
    from game.ui.help.scene import RulesHelpScene
    app = scene.app
    if topic is None:
        notice = getattr(scene.hud, "notice", None)
        if notice is not None:
            topic = rule_for(notice[0])
    uid = getattr(scene, "selected", None)
    unit = scene.state.units.get(uid) if uid else None
    edition = getattr(scene.state, "edition", "first")     # the later edition's own chapters
    if topic is None and edition == "later":
        topic = later_topic(scene.state)                   # flight, Antiair, airstrike
    if topic is None and unit is not None:
        topic = odds_topic(scene, unit)
    if topic is not None:
        return RulesHelpScene(app, back=scene, topic=topic, edition=edition)
    if unit is not None:
        ids = unit_ability_ids(unit.card)
        if ids:
            return RulesHelpScene(app, back=scene, topic=ids[0], only=ids,
                                  title=f"{unit.name}: abilities", edition=edition)
    return RulesHelpScene(app, back=scene, edition=edition)
