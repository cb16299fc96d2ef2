"""The card: a year's card as a YAML file, and the two questions a floor judge is called over for.

"Is that Mah Jongg?": `verify` lists every card line a 14-tile hand makes (value, exposed or
concealed, where each joker stands), or the nearest lines and why each fails. "She can't make
anything, she's dead": `dead` decides from the tiles everyone can see whether any line is still
possible for a player's exposures, and lists the lines still open or what kills the nearest.

Called by the CLI (`referee card check|show`, `referee hand verify|dead`, `referee pay --hand`)
and by `rule` when a hand-validity or dead-hand question is answered with tiles (`cards.answer`).
Pure apart from `store` (finding and caching card files). Only the practice card, an invented
one, ships with referee: the League's card is copyrighted, so judges enter their own
(cards/template.yaml shows how).

Modules: tiles (tile kinds and hand notation), groups and line (a card line as read), notation
(reading a card file), limits (what a card may cost), printed (the card's own words), expand (a line's
concrete targets; a cold load only), packed (count vectors in one int), index (the targets as
columns, and bitsets), verify, dead, lint, store (the cache of plain data), answer.
"""
from __future__ import annotations

from .store import load, locate

__all__ = ["load", "locate"]
