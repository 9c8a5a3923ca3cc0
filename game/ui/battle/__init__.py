"""The battle screen's parts: map view, input modes (the phase state machine),
panels, animation and the demo player.  The scene is game.ui.scenes.battle."""
