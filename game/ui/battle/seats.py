"""Who plays a side that is not at this screen: ``--demo`` (the screen plays both
sides), the solo AI (game.ui.battle.demo.DemoPlayer), or a network seat (game.net).
A seat has ``.sides`` and ``.update(dt)``; a network seat also ``.attach(scene)``,
``.forward(action)``, ``.waiting_line`` and ``.save_net()``."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.ui.scenes.battle import BattleScene

__all__ = ["make_seats"]


def make_seats(scene: BattleScene, setup: Any) -> tuple[Any, Any]:
    """(the demo player or None, the other seat or None) for ``setup``."""
    if setup is None:
        return None, None
    seed = getattr(setup, "seed", None)
    if getattr(setup, "demo_frames", None):
        from game.ui.battle.demo import DemoPlayer
        return DemoPlayer(scene, random.Random(seed if seed is not None else 1)), None
    if getattr(setup, "solo", None):
        from game.ui.battle.demo import DemoPlayer
        return None, DemoPlayer(scene, random.Random(seed), sides=(setup.solo,), think=0.45,
                                level=getattr(setup, "ai_level", None) or "veteran")
    remote = getattr(setup, "remote", None)
    if remote is not None:
        remote.attach(scene)
        return None, remote
    return None, None
