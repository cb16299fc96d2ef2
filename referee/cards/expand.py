"""A line's concrete targets: every way its suits, numbers, winds and dragons can be fixed.

Each target is a multiset of groups (tile, size, jokerable) plus the blocks in printed order for
display. Identical targets from different bindings are kept once; a target the 152 tiles cannot
build (more naturals of a tile than exist, or more than 8 jokers needed) is dropped.

The ways are visited alternative by alternative, then suit binding, shift and number binding,
in that order, which is the order targets are numbered in. A cold load of the card is mostly
this loop, so a way does little else than add up its blocks: each block is resolved at the
level of the loop that fixes what it reads (a block of suit letters once a suit binding, a
number group once a shift: `_entry`), a group's tile is arithmetic on the binding and its cell
an index into the row of cells of its size (`_row`, made once a process), and the sums a way
needs (its multiset key and packed bounds, one int: `_sums`) are added level by level. A suit
binding that only renames the letters of an earlier one is passed over (`_unlike`). Nothing is
made ahead for cells no way reads; the groups and words of a way are made only for a target
that is kept.
"""
from __future__ import annotations

import itertools
from typing import Any

from .groups import Block
from .line import Line
from .packed import BITS, COPIES_PACKED, GUARD, LOW
from .tiles import DRAGONS, JOKERS, KINDS, SUIT_DRAGON, SUITS, WHITE, WINDS, suited

Group = tuple[int, int, bool]  # tile, size, may hold jokers
# (groups sorted, blocks in printed order as (tiles, jokerable), binding in words, packed L, packed U)
RawTarget = tuple[tuple[Group, ...], tuple[tuple[tuple[int, ...], bool], ...], str, int, int]

# Every way to give n suit letters suits (n <= 3: the letters are a, b, c), by how many different
# suits it uses, in the order the letters are bound: worked out once, not once per line.
_SUIT_MAPS = {n: {used: [p for p in itertools.product(range(3), repeat=n) if len(set(p)) == used]
                  for used in range(n + 1)} for n in range(4)}


_BINDINGS: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[tuple[int, ...]]]] = {}


def _suit_bindings(line: Line) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Each way to give the line's suit letters (line.letters, in order) suits, fewest
    different suits first (as the counts are tried), letters bound in the order a b c; and the
    same each with a 0 after it, read by a block of no suit at [-1]. The same few in every card."""
    key = (len(line.letters), line.suit_counts)
    hit = _BINDINGS.get(key)
    if hit is None:
        maps = _SUIT_MAPS[key[0]]
        out: list[tuple[int, ...]] = []
        for n in key[1]:
            out += maps.get(n, ())
        hit = _BINDINGS[key] = (out, [sigma + (0,) for sigma in out])
    return hit


def _run(line: Line, k: int) -> range:
    """The numbers of the line's run once its printed digits moved by `k`."""
    digits = [a[1] for tok in line.tokens for b in tok for a in b.atoms if a[0] == "num"]
    return range(min(digits) + k, max(digits) + k + 1) if digits else range(0)


_NO_VARIABLES: list[dict[str, int]] = [{}]  # the one number binding of a line without variables (never changed)


def _var_bindings(line: Line) -> list[dict[str, int]]:
    if not line.vars and not line.constraints:  # most lines: worked out without a loop
        return _NO_VARIABLES
    free = [n for n, d in line.vars.items() if isinstance(d[0], int)]
    deps = [(n, d) for n, d in line.vars.items() if not isinstance(d[0], int)]
    out = []
    equal_ok = {frozenset((a, b)) for a, op, b in line.constraints if op == "=="}
    apart = list(itertools.combinations(free, 2)) if line.distinct_vars else []
    for values in itertools.product(*(line.vars[n] for n in free)):
        nu = dict(zip(free, values))
        if apart and any(nu[a] == nu[b] and frozenset((a, b)) not in equal_ok for a, b in apart):
            continue
        ok = True
        for n, (base, step) in deps:
            v = nu[base] + step
            if not 1 <= v <= 9:
                ok = False
                break
            nu[n] = v
        if ok and all(_holds(nu[a], op, nu[b]) for a, op, b in line.constraints):
            out.append(nu)
    return out


def _holds(x: int, op: str, y: int) -> bool:
    return {"same-parity": x % 2 == y % 2, "<": x < y, "!=": x != y, "==": x == y}[op]


def _choices(block: Block) -> list[int | None]:
    """What one 'any' pick in the block can be: a wind, a dragon, or nothing to pick."""
    kinds = {a[0] for a in block.atoms}
    if "anywind" in kinds:
        return list(WINDS)
    if "anydragon" in kinds:
        return list(DRAGONS)
    return [None]


# _choices of a block of one atom repeated, by the atom's kind: its picks without a set per block
_UNIFORM_CHOICES: dict[str, list[int | None]] = {"anywind": list(WINDS), "anydragon": list(DRAGONS)}


def _describe(sigma: dict[str, int], nu: dict[str, int]) -> str:
    parts = [f"{n} = {SUITS[s]}s" for n, s in sorted(sigma.items())]
    parts += [f"{n} = {v}" for n, v in sorted(nu.items())]
    return ", ".join(parts)


# One block resolved: (tiles, jokerable) as printed, its group (a list of groups for singles), its
# sums (`_sums`), and the wind or dragon picked (None when the block picks none).
Cell = tuple[tuple[tuple[int, ...], bool], "Group | list[Group]", int, "int | None"]

# A way's sums are one int, the sum of its blocks': packed U in the bits below _L_AT, packed L
# from _L_AT, and from _K_AT its multiset key, where each kind of group (tile, size, jokerable)
# has a field of its own, FIELD bits wide, enough for 14 groups of one kind. No field of a way
# carries into the next (a form is 14 tiles, and no tile count reaches 16), so one addition a
# block keeps all three, and equal sums are equal multisets: a target met again is known without
# sorting its groups. The key's fields are handed out for the whole process, a row of KINDS at a
# time: a group resolves to the same cell in every line, made once.
FIELD = 4
_L_AT = BITS * KINDS + BITS
_K_AT = 2 * _L_AT
_PACKED = (1 << (BITS * KINDS)) - 1


def _sums(K: int, L: int, U: int) -> int:
    return K << _K_AT | L << _L_AT | U


_ROWS: dict[tuple[int, bool], list[Cell]] = {}


def _row(size: int, jok: bool) -> list[Cell]:
    """The cell of a group of `size` tiles, jokerable or not, for each tile."""
    row = _ROWS.get((size, jok))
    if row is None:
        first = FIELD * KINDS * len(_ROWS)
        row = _ROWS[(size, jok)] = []
        for t in range(KINDS):
            U = size << (BITS * t)
            row.append((((t,) * size, jok), (t, size, jok), _sums(1 << (first + FIELD * t), 0 if jok else U, U), None))
    return row


def _singles(atoms: tuple[tuple[int, ...], ...], sig: tuple[int, ...], k: int, nv: tuple[int, ...], pick: int,
             made: dict[tuple[tuple[int, ...], int], Cell]) -> Cell:
    """A block of singles shown together (2033a, NEWS) under one binding: each atom's tile is
    the arithmetic of a group's (`_atom`), and the cell is made once a line for its tiles."""
    tiles = tuple([mult * sig[s] + const + moves * k + nv[x] + picked * pick for mult, s, const, moves, x, picked in atoms])
    cell = made.get((tiles, pick))
    if cell is None:
        row = _row(1, False)
        groups, S = [], 0
        for t in tiles:
            _, g, sums, _ = row[t]
            groups.append(g)
            S += sums  # singles: L is U
        cell = made[(tiles, pick)] = (tiles, False), groups, S, pick or None
    return cell


def _atom(atom: tuple[str, Any, Any], letters: list[str], names: list[str]) -> tuple[int, ...]:
    """An atom's tile as arithmetic on a binding: (mult, s, const, moves, x, picked) for
    mult * suit[s] + const + moves * shift + number[x] + picked * pick, where suit[-1] and
    number[-1] are 0 (a binding's lists end with one)."""
    kind, value, suit = atom
    s = letters.index(suit) if suit is not None else -1
    if kind == "num":
        return 9, s, value - 1, 1, -1, 0  # suited(suit, value + shift)
    if kind == "var":
        return 9, s, -1, 0, names.index(value), 0
    if kind == "dragon":
        return 1, s, SUIT_DRAGON[0], 0, -1, 0  # SUIT_DRAGON[suit]
    if kind in ("anywind", "anydragon"):
        return 0, -1, 0, 0, -1, 1
    return 0, -1, WHITE if kind == "soap" else value, 0, -1, 0


# What a block reads, innermost last: the loop level that resolves it.
_SUIT, _SHIFT, _NUMBER, _PICK = 0, 1, 2, 3
_LEVEL = {"num": _SHIFT, "var": _NUMBER, "anywind": _PICK, "anydragon": _PICK}
_SINGLES = 3  # the list of singles resolved at level n is n + _SINGLES; picks are all in the last


def _entry(block: Block, j: int, letters: list[str], names: list[str]) -> tuple[int, tuple[Any, ...]]:
    """How the block at place `j` of a way is resolved, worked out once a line: (the list it goes
    in, its entry there). A group (one atom repeated) is its row of cells and its tile as
    arithmetic on the binding, `mult * suit + const`, plus the shift at level 1 or number
    variable `x` at level 2. Singles are resolved atom by atom. A pick is its choices: fixed cells
    for a group, else None and singles to resolve with each of `choices`."""
    atoms = block.atoms
    kind, value, suit = atoms[0]
    if not block.uniform:
        level = max([_LEVEL.get(a[0], _SUIT) for a in atoms])
        spec = tuple([_atom(a, letters, names) for a in atoms])
        if level == _PICK:
            return 2 * _SINGLES, (j, None, spec, _choices(block), kind)
        return level + _SINGLES, (j, spec)
    size = len(atoms)
    jok = size >= 3 and not block.bang
    row = _row(size, jok)
    level = _LEVEL.get(kind, _SUIT)
    if level == _PICK:
        return 2 * _SINGLES, (j, [row[p][:3] + (p,) for p in _UNIFORM_CHOICES[kind]], block, None, kind)
    mult, s, const, _, x, _ = _atom(atoms[0], letters, names)
    return level, (j, row, mult, s, const, x)


# The ways to rename suit letters (a permutation of their places) with the table that renames them in
# a block's text, by the line's letters: the same few in every card.
_RENAMINGS: dict[tuple[str, ...], list[tuple[tuple[int, ...], dict[int, int]]]] = {}


def _unlike(sigmas: list[tuple[int, ...]], blocks: list[Block], letters: list[str]) -> list[int]:
    """The suit bindings a way of `blocks` can make anything new under: a binding is passed
    over when renaming the suit letters gives it from an earlier one and leaves the blocks the
    same (111a 111b 111c is the same three pungs whichever letter gets which suit), for then each
    of its ways makes the very groups an earlier way made, and met targets are not kept twice.
    Blocks are compared by their text (a block is its text read), renamed in C."""
    key = tuple(letters)
    renamings = _RENAMINGS.get(key)
    if renamings is None:
        renamings = _RENAMINGS[key] = [(p, str.maketrans({letters[i]: letters[p[i]] for i in range(len(p))}))
                                       for p in itertools.permutations(range(len(letters))) if p != tuple(range(len(p)))]
    texts = [b.text for b in blocks]
    joined = "".join(texts)
    if len({joined.count(letter) for letter in letters}) == len(letters):  # a renaming keeps how often each letter is printed
        return list(range(len(sigmas)))
    same = sorted(texts)
    alike = [p for p, table in renamings if sorted([text.translate(table) for text in texts]) == same]
    if not alike:
        return list(range(len(sigmas)))
    out, met = [], set()
    for si, sigma in enumerate(sigmas):
        # sigma renamed by p binds letter i to sigma[p[i]]: the blocks read it as sigma, renamed
        if not any(tuple([sigma[i] for i in p]) in met for p in alike):
            out.append(si)
        met.add(sigma)
    return out


_ROOM = COPIES_PACKED | GUARD  # fits_under(x, COPIES_PACKED) is (_ROOM - x) & GUARD == GUARD
_TOP = BITS * (KINDS - 1)
_NO_VALUES: list[tuple[int, ...]] = [(0,)]
_NO_CHOICE = ((),)  # the picks of a way that picks nothing
_SIGMA_WORDS: dict[tuple[tuple[str, ...], tuple[int, ...]], str] = {}  # the same few in every line


def raw_targets(line: Line) -> list[RawTarget]:
    """Every buildable concrete target of `line`, each multiset of groups once, with its packed
    bounds worked out along the way."""
    nus = _var_bindings(line)
    shift = line.shift
    found: list[RawTarget] = []
    if not nus or not shift:  # the constraints leave no numbers, or no shift fits
        return found
    letters = line.letters
    sigmas, sigs = _suit_bindings(line)
    names = list(nus[0])
    values = [(*nu.values(), 0) for nu in nus] if names else _NO_VALUES  # an atom of no variable reads the 0 at [-1]
    made: dict[tuple[tuple[int, ...], int], Cell] = {}  # the cells of singles
    sigma_words: list[str | None] = [None] * len(sigmas)  # said only for a binding that makes a target
    nu_words: list[str | None] = [None] * len(nus)
    seen: set[int] = set()  # the sums of the ways met
    product = itertools.product
    distinct = []  # the bare D (Z) groups of a way must differ, when the line says so
    if line.dragons == "different":
        distinct.append("anydragon")
    if line.winds == "different":
        distinct.append("anywind")
    shifts = range(len(shift))
    if line.runs:  # the number bindings each shift keeps: those inside the run it moved to
        runs = [_run(line, k) for k in shift]
        numbers: list[Any] = [[ni for ni, nu in enumerate(nus) if all(nu[n] in runs[ki] for n in line.runs)] for ki in shifts]
    else:
        numbers = [range(len(nus))] * len(shift)
    entries = [product(*[[(b, _entry(b, j, letters, names)) for b in tok] for j, tok in enumerate(form)]) for form in line.forms]
    every = range(len(sigmas))
    for alt in itertools.chain.from_iterable(entries):
        lists: list[list[Any]] = [[], [], [], [], [], [], []]
        for _, (at, entry) in alt:
            lists[at].append(entry)
        at_suit, at_shift, at_number, loose_suit, loose_shift, loose_number, picking = lists
        where = [entry[0] for entry in picking]  # in printed order, as the picks are chosen
        # a way's blocks as printed and its groups, place by place, filled level by level
        shown: list[Any] = [None] * len(alt)
        held: list[Any] = [None] * len(alt)
        plain = not (loose_suit or loose_shift or loose_number or any([entry[1] is None for entry in picking]))
        apart = []  # the picks that must differ: two bare D groups never the same dragon, when said so
        if distinct and len(picking) > 1:
            apart = [[i for i, entry in enumerate(picking) if entry[4] == kind] for kind in distinct]
            apart = [group for group in apart if len(group) > 1]
        # the sums a way needs (multiset key, packed L and U) are added level by level, each
        # level adding only the blocks it resolves
        for si in _unlike(sigmas, [b for b, _ in alt], letters) if len(letters) > 1 else every:
            sig = sigs[si]
            S0 = 0
            for j, row, mult, s, const, _ in at_suit:
                c = row[mult * sig[s] + const]
                shown[j] = c[0]
                held[j] = c[1]
                S0 += c[2]
            for j, atoms in loose_suit:
                c = _singles(atoms, sig, 0, _NO_VALUES[0], 0, made)
                shown[j] = c[0]
                held[j] = c[1]
                S0 += c[2]
            for ki in shifts:
                k = shift[ki]
                S1 = S0
                for j, row, mult, s, const, _ in at_shift:
                    c = row[mult * sig[s] + const + k]
                    shown[j] = c[0]
                    held[j] = c[1]
                    S1 += c[2]
                for j, atoms in loose_shift:
                    c = _singles(atoms, sig, k, _NO_VALUES[0], 0, made)
                    shown[j] = c[0]
                    held[j] = c[1]
                    S1 += c[2]
                for ni in numbers[ki]:
                    S2 = S1
                    if at_number or loose_number:
                        nv = values[ni]
                        for j, row, mult, s, const, x in at_number:
                            c = row[mult * sig[s] + const + nv[x]]
                            shown[j] = c[0]
                            held[j] = c[1]
                            S2 += c[2]
                        for j, atoms in loose_number:
                            c = _singles(atoms, sig, k, nv, 0, made)
                            shown[j] = c[0]
                            held[j] = c[1]
                            S2 += c[2]
                    if picking:
                        nv = values[ni]
                        chosen_ways: Any = product(*[entry[1] or [_singles(entry[2], sig, k, nv, p, made) for p in entry[3]]
                                                     for entry in picking])
                    else:
                        chosen_ways = _NO_CHOICE
                    for chosen in chosen_ways:
                        S = S2
                        if chosen:
                            if apart and any(len({chosen[i][3] for i in group}) < len(group) for group in apart):
                                continue
                            for j, c in zip(where, chosen):
                                shown[j] = c[0]
                                held[j] = c[1]
                                S += c[2]
                        if S in seen:
                            continue
                        seen.add(S)
                        U = S & _PACKED
                        L = S >> _L_AT & _PACKED
                        # buildable: no more naturals of a tile than the set holds, at most 8 jokers for the rest
                        if (_ROOM - U) & GUARD != GUARD:  # more places of some tile than it has copies
                            if (_ROOM - L) & GUARD != GUARD:
                                continue
                            d = (U | GUARD) - COPIES_PACKED  # over(U, COPIES_PACKED), inline: once a way
                            # the jokers it needs, total(over), as the top field of a product that
                            # adds up the fields (their sum, at most 14, never carries out of one)
                            if (((d & (((d & GUARD) >> 4) * 15)) * LOW) >> _TOP) & 31 > JOKERS:
                                continue
                        if plain:  # a group in each place
                            groups = sorted(held)
                        else:
                            groups = []
                            for group in held:
                                if group.__class__ is list:
                                    groups += group
                                else:
                                    groups.append(group)
                            groups.sort()
                        words = sigma_words[si]
                        if words is None:
                            key = (tuple(letters), sigmas[si])
                            words = _SIGMA_WORDS.get(key)
                            if words is None:
                                words = _SIGMA_WORDS[key] = _describe(dict(zip(letters, sigmas[si])), {})
                            sigma_words[si] = words
                        if names:  # and the numbers
                            n_words = nu_words[ni]
                            if n_words is None:
                                n_words = nu_words[ni] = _describe({}, nus[ni])
                            words = f"{words}, {n_words}" if words and n_words else words or n_words
                        found.append((tuple(groups), tuple(shown), words, L, U))
    return found
