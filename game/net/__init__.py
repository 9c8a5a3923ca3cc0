"""Two players on two computers (issue 16): no pygame here.

- ``messages``: the message schema and its checks (size, schema, types).
- ``dice``: fair dice through the rules' dice object (commit-reveal chains for
  live direct play; the relay's committed seed for relay play).
- ``session``: the lockstep core (armies, building and replaying a battle,
  network saves).
- ``relay``: ``python -m game.net.relay --port N``, the server that holds battles.
- ``client``: one seat of a relay battle (headless; AI or UI players).
- ``direct``: host / join a battle on a LAN without the relay.
- ``discovery``: finding hosted battles on the LAN (zeroconf).
"""
