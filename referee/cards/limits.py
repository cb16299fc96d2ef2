"""What a card may cost: the bounds that keep a stranger's card file from hanging a judge.

A line stands for every way its choices can be made (alternatives, suits, shifts, number
variables, 'any wind' and 'any dragon' picks), and expanding it visits each of those ways once.
That count is worked out from the line alone, before anything is expanded, so a line or a card
that would take too long is refused at once, at its place in the file, instead of after minutes.

The bounds are far above any printed card: the League's card has about 60 lines, the practice
card 70 lines and 2,564 ways in all, its largest line 486.
"""
from __future__ import annotations

from functools import lru_cache
from math import comb, factorial, prod

from .groups import Block
from .line import Line

MAX_CARD_BYTES = 256_000  # a card file; a printed card typed in is about 6 kB
MAX_LINES = 500  # lines in a card
MAX_LINE_WAYS = 5_000  # ways one line may be made, before identical hands are merged
MAX_CARD_WAYS = 20_000  # the same, summed over the card
MAX_GROUPS_CHARS = 400  # characters in one line's groups
MAX_LINE_ERRORS = 8  # errors reported for one line; the rest are counted


_ANY_WIND, _ANY_DRAGON = ("anywind", None, None), ("anydragon", None, None)  # never with a suit: see groups


def picks(block: Block) -> int:
    """The choices one block leaves open: 4 winds, 3 dragons, or none (1)."""
    atoms = block.atoms
    return 4 if _ANY_WIND in atoms else 3 if _ANY_DRAGON in atoms else 1


@lru_cache(maxsize=64)
def suit_maps(letters: int, counts: tuple[int, ...]) -> int:
    """How many ways `letters` suit letters can be bound to the three suits so that they use one
    of `counts` different suits (letters name the suits in the order first met, so a map is a
    partition of the letters into n blocks, times 3 x 2 x ... suits for them)."""
    return sum(_stirling(letters, n) * factorial(3) // factorial(3 - n) for n in counts if 0 < n <= 3) if letters else 1


def _stirling(n: int, k: int) -> int:
    """Ways to split n labelled letters into k non-empty blocks."""
    return sum((-1) ** i * comb(k, i) * (k - i) ** n for i in range(k + 1)) // factorial(k)


def ways(line: Line) -> int:
    """The ways expanding `line` will visit (an upper bound on its hands)."""
    forms = 0
    for form in line.forms:  # loops, not nested generators: this runs for every line read
        made = 1
        for tok in form:
            made *= picks(tok[0]) if len(tok) == 1 else sum(map(picks, tok))
        forms += made
    numbers = prod(len(d) for d in line.vars.values() if isinstance(d[0], int))
    return forms * suit_maps(len(line.letters), line.suit_counts) * len(line.shift) * max(numbers, 1)


def limits_text() -> str:
    """The bounds in one sentence, for `card check`."""
    return (f"a card may hold {MAX_LINES} lines and {MAX_CARD_WAYS:,} ways to make them, one line {MAX_LINE_WAYS:,}; "
            f"its file at most {MAX_CARD_BYTES // 1000} kB")
