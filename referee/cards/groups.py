"""The `groups` of a card line, read as the card prints it: forms, groups, tiles.

A line is one or more forms ("-or-" on the card: a YAML list, or `||` between them), each 14
tiles in groups separated by spaces. A block of one atom repeated is one group (jokers from 3
tiles up, unless it ends in `!`); a block of different atoms (`2033a`, `NEWS`) is singles shown
together. `a b c` are suits; a line with one suit may leave its letters out (they are all `a`).
Decorations standing alone (`+`, `=`, `x`) are the printed look, not tiles: they are taken out
and the line's look kept for `display`. Every problem of a line is reported, each with a hint at
the usual slip behind it, not only the first.
"""
from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple

from .tiles import EAST, FLOWER, GREEN, NORTH, RED, SOUTH, WEST, short

SUIT_VARS = "abc"
TILE_LETTERS = set("FNEWSDRGZJ")
FIXED = {"R": RED, "G": GREEN, "N": NORTH, "E": EAST, "W": WEST, "S": SOUTH, "F": FLOWER}
DECORATION = re.compile(r"^[+=x×*/÷-]+$")
_DECORATING = "+=x×*/÷-"
_OR = re.compile(r"\s+(?:\|\||-or-|–or–)\s+", re.IGNORECASE)

# An atom: ("num", n, suit) a printed digit; ("var", X, suit); ("tile", t, None) a fixed tile;
# ("dragon", None, suit) a suit's dragon; ("anydragon", None, None); ("anywind", None, None);
# ("soap", None, None).
Atom = tuple[str, Any, "str | None"]
Token = tuple["Block", ...]  # alternatives for one group
Form = list[Token]
Report = Callable[[str, int], None]  # (message, character offset in the groups text)


class Block(NamedTuple):
    """One alternative of a group. A tuple: a card's blocks are made (and read back from the
    cache) each in one C call, `tuple.__new__(Block, fields)`."""

    atoms: tuple[Atom, ...]
    bang: bool
    text: str
    col: int  # character offset in the groups string

    @property
    def uniform(self) -> bool:
        """One atom repeated: one group (else singles shown together)."""
        return self.atoms.count(self.atoms[0]) == len(self.atoms)


def split_forms(text: str) -> list[tuple[str, int]]:
    """(form, offset) for each form of a groups string written with `||` or `-or-`."""
    if "|" not in text and "or" not in text.lower():
        return [(text, 0)]
    out, at = [], 0
    for m in _OR.finditer(text):
        out.append((text[at:m.start()], at))
        at = m.end()
    out.append((text[at:], at))
    return out


class _Read(NamedTuple):
    """What one block's text says, wherever the line writes it: a card repeats `FF` and `11a` a
    dozen times, and each is read once."""

    atoms: tuple[Atom, ...]  # a number without its letter in suit a, a bare D any dragon
    bang: bool
    lettered: bool  # some atom has its suit letter
    missing: Atom | None  # the first number or variable without one


def read_forms(texts: list[tuple[str, Report]], lid: str,
               seen: dict[str, _Read] | None = None) -> tuple[list[Form], list[str]]:
    """The forms of one line, each from (text, report); and the printed look of each form with
    its decorations when it had any (else the empty list). `seen` keeps the blocks read so far
    (for the lines of one card); a block with a problem is read again, so each place reports it."""
    if seen is None:
        seen = {}
    forms: list[Form] = []
    looks: list[list[str]] = []
    decorated = lettered = missing = False
    make = tuple.__new__  # Block(...) without the Python-level __new__ a NamedTuple has
    for text, report in texts:
        form: Form = []
        words = []
        pos = 0
        for part in text.split(" "):
            if part and part[0] in _DECORATING and DECORATION.match(part):
                decorated = True
                words.append(part)
            elif part:
                token = []
                at = pos
                ok = True
                some_lettered = some_missing = False
                for alt in part.split("|"):
                    read = seen.get(alt)
                    if read is None and (block := _block(report, lid, alt, at)) is not None:
                        read = seen[alt] = _settled(block[0], block[1])
                    if read is None:
                        ok = False
                    else:
                        token.append(make(Block, (read.atoms, read.bang, alt, at)))
                        some_lettered = some_lettered or read.lettered
                        some_missing = some_missing or read.missing is not None
                    at += len(alt) + 1
                if ok:
                    lettered = lettered or some_lettered
                    missing = missing or some_missing
                    form.append(tuple(token))
                else:
                    form.append(())  # a broken group: the form is not expanded
                words.append(part)
            pos += len(part) + 1
        forms.append(form)
        looks.append(words)
    if lettered and missing:
        _suit_letters(forms, texts, lid, seen)
    forms = [[] if () in form else form for form in forms]  # a form with a broken group is not expanded
    if not decorated:
        return forms, []
    return forms, [" ".join(re.sub(r"[abc!]", "", w).replace("|", " or ") for w in words) for words in looks]


def _settled(atoms: list[list[Any]], bang: bool) -> _Read:
    """A block's atoms with the suits a line of one suit leaves out: `a` for a number, any dragon
    for a D (a line that gives some letters must give them all: `_suit_letters`)."""
    settled: list[Atom] = []
    lettered = False
    missing: Atom | None = None
    for kind, value, suit in atoms:
        if suit is not None:
            lettered = True
        elif kind == "num" or kind == "var":
            if missing is None:
                missing = (kind, value, None)
            suit = "a"
        elif kind == "dragon":
            kind = "anydragon"
        settled.append((kind, value, suit))
    return _Read(tuple(settled), bang, lettered, missing)


def _suit_letters(forms: list[Form], texts: list[tuple[str, Report]], lid: str, seen: dict[str, _Read]) -> None:
    """A line with some suit letters must give every number its letter (a line with none is one
    suit, `a`): each block that leaves one out is reported, and its group taken out."""
    for (_, report), form in zip(texts, forms):
        for k, token in enumerate(form):
            for block in token:
                if (missing := seen[block.text].missing) is not None:
                    report(f"line {lid}: the number '{_letter(missing)}' in '{block.text}' needs a suit letter "
                           "(a, b or c; only a line of one suit may leave them all out)", block.col)
                    form[k] = ()
                    break


def _block(report: Report, lid: str, text: str, col: int) -> list[Any] | None:
    """One alternative of a group as [atoms, bang, text, col], every problem in it reported."""
    bang = text.endswith("!")
    body = text[:-1] if bang else text
    if not body:
        report(f"line {lid}: an empty group at '{text or '|'}'", col)
        return None
    run_together = _side_by_side(body) if _DIGIT_DRAGON.search(body) else []
    if run_together:  # '111DDD' as printed: said once, not as three hand-suit D's and a tile count
        report(f"line {lid}: '{text}' is {len(run_together)} groups printed side by side; put a space between "
               f"them ({' '.join(run_together)}): a group is one tile repeated, or singles", col)
        return None
    atoms: list[list[Any]] = []
    pending: list[int] = []  # atoms waiting for a suit letter
    ok = True
    for i, ch in enumerate(body):
        if ch in SUIT_VARS:
            if not pending:
                report(f"line {lid}: suit letter '{ch}' in '{text}' follows nothing that takes a suit", col + i)
                ok = False
            for k in pending:
                kind = atoms[k][0]
                if kind in ("num", "var", "dragon"):
                    atoms[k][2] = ch
                elif kind != "soap":  # the soap has no suit, even printed in a suit's colour
                    report(f"line {lid}: '{_letter(atoms[k])}' in '{text}' takes no suit letter", col + i)
                    ok = False
            pending = []
        elif ch.isdigit() and ch != "0" and ch.isascii():
            atoms.append(["num", int(ch), None])
            pending.append(len(atoms) - 1)
        elif ch == "0":
            atoms.append(["soap", None, None])
            pending.append(len(atoms) - 1)
        elif ch in "ABC" and pending and atoms[pending[-1]][0] == "num":
            report(f"line {lid}: '{ch}' in '{text}': suit letters are lower-case ({ch.lower()}), "
                   "the card's colours; capitals are number variables", col + i)
            ok = False
        elif ch == "D" and pending and atoms[pending[-1]][0] == "num":
            report(f"line {lid}: 'D' in '{text}' is a dragon in a card line; suits are a, b, c "
                   "(B, C and D are the suits of a hand, not of the card)", col + i)
            ok = False
        elif ch == "D":
            atoms.append(["dragon", None, None])
            pending.append(len(atoms) - 1)
        elif ch in FIXED:
            atoms.append(["tile", FIXED[ch], None])
            pending.append(len(atoms) - 1)
        elif ch == "Z":
            atoms.append(["anywind", None, None])
            pending.append(len(atoms) - 1)
        elif ch.isupper() and ch.isascii() and ch not in TILE_LETTERS:
            atoms.append(["var", ch, None])
            pending.append(len(atoms) - 1)
        else:
            report(f"line {lid}: '{_shown(ch)}' in '{_shown(text)}' is not a tile of the card notation{_hint(ch)}", col + i)
            ok = False
    return [atoms, bang, text, col] if ok else None


def _hint(ch: str) -> str:
    if ch == "J":
        return " (J is a joker: a card line names tiles, never jokers)"
    if DECORATION.match(ch):
        return " (decorations go in display:, or stand apart as a word of their own: 1111a + 4444b)"
    if ch.islower():
        return " (suits are a, b and c)"
    if ch in "()":
        return " (a printed remark goes in note:)"
    return ""


_DIGIT_DRAGON = re.compile(r"[1-9]D")  # a number beside a dragon: maybe two groups typed without their space
_RUN = re.compile(r"(([0-9A-Z])\2*)([a-c]?)")


def _side_by_side(body: str) -> list[str]:
    """The groups of '111DDD' (a pung and a pung typed as printed, without their space), else []:
    runs of one tile each, two or more of them, every run a pair or more and one a pung or more.
    '2033a' (singles with a pair) and 'FFFF' (one group) are not."""
    runs = [(m.group(0), len(m.group(1))) for m in _RUN.finditer(body)]
    if len(runs) < 2 or "".join(r for r, _ in runs) != body:
        return []
    if all(n >= 2 for _, n in runs) and any(n >= 3 for _, n in runs):
        return [r for r, _ in runs]
    return []


def _shown(text: str) -> str:
    """A character or group as shown in a message: controls visible, never raw."""
    from ..safe import clean

    return clean(text[:40]) + ("…" if len(text) > 40 else "")


def _letter(atom: Atom | list[Any]) -> str:
    kind, value = atom[0], atom[1]
    if kind == "tile":
        return short(value)
    return {"num": str(value), "var": str(value), "soap": "0", "dragon": "D", "anywind": "Z"}.get(kind, "?")


def run_together(block: Block) -> bool:
    """Singles that look like groups typed without their space (111DDD, 2222FF): two runs or
    more of one atom repeated."""
    if block.uniform or len(set(block.atoms)) > len(block.atoms) - 2:  # two runs repeat two atoms at least
        return False
    runs, last, n = 0, None, 0
    for a in block.atoms + ((None, None, None),):
        if a == last:
            n += 1
            continue
        if n >= 2:
            runs += 1
        last, n = a, 1
    return runs >= 2


def sizes(report: Report, lid: str, form: Form, col: int) -> None:
    """Alternatives of one size, and 14 tiles in the form."""
    for tok in form:
        if len(tok) > 1 and len({len(b.atoms) for b in tok}) > 1:
            report(f"line {lid}: the alternatives '{'|'.join(b.text for b in tok)}' differ in size", tok[0].col)
    total = sum([len(tok[0].atoms) for tok in form])
    if total != 14:
        hint = ""
        if any(run_together(b) for tok in form for b in tok):
            hint = " (groups are separated by spaces: 111 DDD, not 111DDD)"
        report(f"line {lid}: the groups hold {total} tiles; a hand is 14{hint}", col)
