"""The 152 tiles, their names, and the notation a judge types for a hand or an exposure.

Tile kinds are small ints so a hand is a count vector: 0-26 the suits (Bams, Craks, Dots, 1-9
each), 27-29 the dragons (Green, Red, White, which is also the soap), 30-33 the winds N E W S,
34 the flower (8 interchangeable copies), 35 the joker. Each dragon belongs to a suit: Bams
Green, Craks Red, Dots White.

Hand notation: `FF 2033B 33JJD 0 NEWS R`. Digits wait for the next suit letter (B, C, D) in
their word; `0` is the soap (White), `R`/`G` the Red/Green dragons, `N E W S` the winds, `F` a
flower, `J` a joker. Spaces only make it readable. Lower case is accepted.
"""
from __future__ import annotations

import re

from dataclasses import dataclass

from ..errors import UsageError

SUITS = ("Bam", "Crak", "Dot")
SUIT_LETTERS = "BCD"
GREEN, RED, WHITE = 27, 28, 29
NORTH, EAST, WEST, SOUTH = 30, 31, 32, 33
FLOWER, JOKER = 34, 35
KINDS = 35  # natural kinds; the joker is counted apart
WINDS = (NORTH, EAST, WEST, SOUTH)
DRAGONS = (GREEN, RED, WHITE)
SUIT_DRAGON = (GREEN, RED, WHITE)  # the dragon of suit 0, 1, 2
COPIES = tuple([4] * 34 + [8])
JOKERS = 8
HAND_SIZE = 14

_WORD = {GREEN: "Green Dragon", RED: "Red Dragon", NORTH: "North", EAST: "East",
         WEST: "West", SOUTH: "South", FLOWER: "Flower", JOKER: "Joker"}
_SHORT = {GREEN: "G", RED: "R", WHITE: "0", NORTH: "N", EAST: "E", WEST: "W", SOUTH: "S", FLOWER: "F", JOKER: "J"}
_LETTERS = {"0": WHITE, "R": RED, "G": GREEN, "N": NORTH, "E": EAST, "W": WEST, "S": SOUTH, "F": FLOWER, "J": JOKER}


def suited(suit: int, number: int) -> int:
    return suit * 9 + number - 1


def name(t: int, count: int = 1) -> str:
    """A tile in words, plural when `count` is not 1: '5 Dot', '3 Craks', 'Red Dragon'."""
    plural = "s" if count != 1 else ""
    if t < 27:
        return f"{t % 9 + 1} {SUITS[t // 9]}{plural}"
    if t == WHITE:
        return f"White Dragon{plural} (soap)"
    return _WORD[t] + plural


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count(n: int, t: int) -> str:
    """'one 5 Dot', 'two Red Dragons'."""
    return f"{_NUMBERS[n] if 0 <= n < len(_NUMBERS) else n} {name(t, n)}"


def short(t: int) -> str:
    """A tile in hand notation: '5D', 'R', '0'."""
    return f"{t % 9 + 1}{SUIT_LETTERS[t // 9]}" if t < 27 else _SHORT[t]


def group_text(t: int, size: int, jokers: int = 0) -> str:
    """A group as typed: '555C', '55JJC', 'NNNN', 'FF'."""
    if t < 27:
        digit = str(t % 9 + 1)
        return digit * (size - jokers) + "J" * jokers + SUIT_LETTERS[t // 9]
    return _SHORT[t] * (size - jokers) + "J" * jokers


@dataclass(frozen=True)
class Exposure:
    """A group laid on the table before Mah Jongg: `size` tiles of `tile`, `jokers` of them jokers."""

    tile: int
    size: int
    jokers: int
    text: str

    @property
    def naturals(self) -> int:
        return self.size - self.jokers


ECHO = 80  # characters of a hand an error message repeats: enough to find the slip, never a screenful


def echo(text: str) -> str:
    """What the judge typed, as an error repeats it: cut at ECHO characters."""
    return text if len(text) <= ECHO else text[:ECHO - 1] + "…"


def parse_tiles(text: str, what: str = "hand") -> list[int]:
    """The tiles of `text` in order (jokers as JOKER); a UsageError names the word and the character."""
    tiles: list[int] = []
    for start, word in _words(text):
        pending: list[int] = []  # (column of) digits waiting for their suit letter
        digits: list[int] = []
        for i, ch in enumerate(word):
            up = ch.upper()
            col = start + i + 1
            if "1" <= ch <= "9":
                pending.append(len(tiles))
                digits.append(int(ch))
                tiles.append(-1)
            elif up in SUIT_LETTERS and pending:
                suit = SUIT_LETTERS.index(up)
                for at, n in zip(pending, digits):
                    tiles[at] = suited(suit, n)
                pending, digits = [], []
            elif up in _LETTERS and not (up == "D" and pending):
                tiles.append(_LETTERS[up])
            elif up in SUIT_LETTERS and re.fullmatch(r"([1-9])\1+[BCD]?([A-Z])\2+[BCD]?", word.upper()):
                raise UsageError(f"{what} '{echo(text)}': '{echo(word)}' runs two groups together; put a space between "
                                 "them, and write a dragon as R, G or 0 (e.g. 111D RRR)")
            elif up in SUIT_LETTERS:
                raise UsageError(f"{what} '{echo(text)}': '{ch}' at character {col} is a suit letter with no number before it "
                                 "(dragons are R, G and 0)")
            else:
                raise UsageError(f"{what} '{echo(text)}': '{ch}' at character {col} is not a tile "
                                 "(numbers 1-9 with a suit B, C or D; 0 soap; R G dragons; N E W S; F flower; J joker)")
        if pending:
            raise UsageError(f"{what} '{echo(text)}': '{echo(word)}' ends without a suit letter for its numbers (B, C or D)")
    return tiles


def _words(text: str) -> list[tuple[int, str]]:
    out, i = [], 0
    for part in text.split(" "):
        if part:
            out.append((i, part))
        i += len(part) + 1
    return out


def counts(tiles: list[int]) -> tuple[list[int], int]:
    """Natural counts per kind, and the number of jokers."""
    c = [0] * KINDS
    jokers = 0
    for t in tiles:
        if t == JOKER:
            jokers += 1
        else:
            c[t] += 1
    return c, jokers


def parse_exposure(text: str) -> Exposure:
    """`555C`, `55J5C`, `NNJN`, `FFFF`: one group of 3-6 of a tile, jokers allowed, at least one natural."""
    tiles = parse_tiles(text.strip(), "exposure")
    naturals = {t for t in tiles if t != JOKER}
    jokers = len(tiles) - sum(1 for t in tiles if t != JOKER)
    if not naturals:
        raise UsageError(f"exposure '{echo(text)}': an exposure holds at least one natural tile (the discard called for it)")
    if len(naturals) > 1:
        raise UsageError(f"exposure '{echo(text)}': an exposure is one tile repeated (a pung, kong, quint or sextet), "
                         f"not {', '.join(short(t) for t in sorted(naturals))}")
    if not 3 <= len(tiles) <= 6:
        raise UsageError(f"exposure '{echo(text)}': an exposure has 3 to 6 tiles, not {len(tiles)} "
                         "(singles and pairs are never exposed before Mah Jongg)")
    tile = naturals.pop()
    return Exposure(tile, len(tiles), jokers, text.strip().upper())


def check_supply(c: list[int], jokers: int, what: str) -> None:
    """More of a tile than the set holds is a typing slip: say which."""
    for t, n in enumerate(c):
        if n > COPIES[t]:
            hint = "" if jokers or n < 5 else "; five or more of a kind need jokers"
            raise UsageError(f"{what}: {n} x {short(t)}, but a set has only {COPIES[t]}{hint}")
    if jokers > JOKERS:
        raise UsageError(f"{what}: {jokers} jokers, but a set has only {JOKERS}")


def block_text(tiles: tuple[int, ...]) -> str:
    """A resolved block as a judge would type it: '2033B', 'NEWS', 'FF', '2B02C6D'."""
    suits = {x // 9 for x in tiles if x < 27}
    if len(suits) == 1 and all(x < 27 or x == WHITE for x in tiles):
        return "".join(str(x % 9 + 1) if x < 27 else "0" for x in tiles) + SUIT_LETTERS[suits.pop()]
    return "".join(short(x) for x in tiles)
