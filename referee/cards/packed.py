"""Count vectors packed into one int: 5 bits a tile kind, bit 4 of each field a guard, so a whole
vector is compared or subtracted in a couple of integer operations (see index: the box test)."""
from __future__ import annotations

from .tiles import COPIES, KINDS

BITS = 5
GUARD = sum(16 << (BITS * t) for t in range(KINDS))
LOW = sum(1 << (BITS * t) for t in range(KINDS))  # bit 0 of every field
PLANES = tuple(LOW << k for k in range(4))  # bit k of every field
_P0, _P1, _P2, _P3 = PLANES
COPIES_PACKED = sum(n << (BITS * t) for t, n in enumerate(COPIES))
UNIT = tuple(1 << (BITS * t) for t in range(KINDS)) + (0,)  # one tile of a kind; the joker counts apart


def pack(c: list[int] | tuple[int, ...]) -> int:
    x = 0
    for t, n in enumerate(c):  # a plain loop: twice as fast as sum() over a generator here
        if n:
            x += n << (BITS * t)
    return x


def fits_under(a: int, b: int) -> bool:
    """a[t] <= b[t] for every kind."""
    return ((b | GUARD) - a) & GUARD == GUARD


def over(a: int, b: int) -> int:
    """Packed max(0, a[t] - b[t])."""
    d = (a | GUARD) - b
    keep = (d & GUARD) >> 4
    return d & (keep * 15)


def total(x: int) -> int:
    """The sum of a packed vector's fields."""
    # unrolled: a generator over the four planes costs twice as much, and this runs for every
    # target of a cold load and every candidate of a verify
    return ((x & _P0).bit_count() + ((x & _P1).bit_count() << 1) + ((x & _P2).bit_count() << 2)
            + ((x & _P3).bit_count() << 3))


def unpack(x: int) -> list[int]:
    mask = (1 << BITS) - 1
    return [x >> (BITS * t) & mask for t in range(KINDS)]
