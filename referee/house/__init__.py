"""A home table's own rules: the catalogue of table customs, and the house ruleset folder built from a choice of them.

Each custom is one YAML file in `customs/`: its id, the word a ruling uses for it ("by your
table's pie rule"), a short description, the number it needs (with a default and bounds), the
sentence the table's sheet prints, the source that describes it, the customs it cannot be played
with, and its overlay fragment: scoring keys, facts, situation files (patches or new situations).
`<N>` anywhere in a fragment is the table's number. Its `scenarios:` prove it; tests run them.

    cat = catalogue()                      # id -> Custom, in the order the wizard asks
    chosen = choose(cat, {"pie": 500, "dice-doubles": 2})   # refuses unknown ids, conflicts, bad numbers
    written = write(folder, chosen, title=...)             # the ruleset folder and its answers file

Called by `referee house` (cli/house.py), the table sheet (handouts) and the tests. Pure apart
from reading the catalogue and writing the one folder it is given; never imports cli/ or web/.
"""
from __future__ import annotations

from .catalogue import Custom, catalogue, choose
from .folder import ANSWERS, Answers, read_answers, write

__all__ = ["ANSWERS", "Answers", "Custom", "catalogue", "choose", "read_answers", "write"]
