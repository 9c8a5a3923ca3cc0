"""Input modes of the battle screen: the phase state machine.

One mode per step a player can be in.  The *base* mode follows the game state
(:func:`mode_for`: choosing first/second, picking an end, deploying,
moving/attacking, answering a defensive-fire prompt, placing a dismounted
Soldier, a Vehicle's facing, game over); short-lived modes are stacked on top of
it by the screen (choosing a facing, confirming, choosing between options,
watching the casualty phase, the whole card, the in-battle menu).

A mode only turns clicks and keys into actions or rules queries: it never
decides a rule (it reads ``game.legal_actions()`` and the rules' queries and
sends actions through its context, game.ui.battle.context.BattleContext) and it
never draws (its painter in game.ui.battle.overlays draws what it highlights).

A new base mode (e.g. the later edition's flights) registers itself with
:func:`register_base_mode`: ``mode_for`` asks the registered tests first.
"""
from __future__ import annotations

from typing import Callable

from game.rules.state import DefensiveFirePrompt, DismountPlacement, OrderChoice, Phase
from game.ui.battle.context import BattleContext
from game.ui.battle.modes.base import Mode, side_name
from game.ui.battle.modes.casualty import CasualtyMode
from game.ui.battle.modes.deploy import DeployMode
from game.ui.battle.modes.fire import DefensiveFireMode, DismountMode
from game.ui.battle.modes.play import PlayMode
from game.ui.battle.modes.setup import EndMode, GameOverMode, ObjectiveMode, OrderMode
from game.ui.battle.modes.stacked import (KEY_HELP, BattleMenuMode, CardMode, ChoiceMode,
                                          ConfirmMode, FacingChoiceMode, FacingMode)

__all__ = ["Mode", "OrderMode", "EndMode", "ObjectiveMode", "DeployMode", "PlayMode",
           "DefensiveFireMode", "DismountMode", "GameOverMode", "FacingMode", "ConfirmMode",
           "ChoiceMode", "CasualtyMode", "BattleMenuMode", "CardMode", "FacingChoiceMode",
           "KEY_HELP", "mode_for", "register_base_mode", "side_name"]

# (test of the state, the mode to build): asked before the first edition's own
_EXTRA_BASE: list[tuple[Callable[[BattleContext], bool], Callable[[BattleContext], Mode]]] = []


def register_base_mode(applies: Callable[[BattleContext], bool],
                       make: Callable[[BattleContext], Mode]) -> None:
    """A base mode for states the first edition's modes don't know (asked first)."""
    _EXTRA_BASE.append((applies, make))


def mode_for(ctx: BattleContext) -> Mode:
    """The base mode for the game state."""
    for applies, make in _EXTRA_BASE:
        if applies(ctx):
            return make(ctx)
    st = ctx.game.state
    p = st.pending
    if st.phase == Phase.GAME_OVER:
        return GameOverMode(ctx)
    if isinstance(p, OrderChoice):
        return OrderMode(ctx)
    if isinstance(p, DefensiveFirePrompt):
        return DefensiveFireMode(ctx)
    if isinstance(p, DismountPlacement):
        return DismountMode(ctx)
    if type(p).__name__ == "FacingChoice":
        return FacingChoiceMode(ctx)
    if st.phase == Phase.SETUP_END:
        return EndMode(ctx)
    if st.phase == Phase.SETUP_OBJECTIVE:
        return ObjectiveMode(ctx)
    if st.phase.is_deploy:
        return DeployMode(ctx)
    if st.phase.is_movement or st.phase.is_assault:
        return PlayMode(ctx)
    return Mode(ctx)
