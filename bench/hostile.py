"""Card files a stranger could share: shapes that once hung `card check` and `hand verify`
(issue 26), and others in the same spirit. Used by bench/cards.py (time and memory of each, in a
fresh process) and by tests/test_cards_hostile.py (each refused or accepted, no traceback).

Each entry is (name, text of the card file, what is expected: "ok" or "refused").
"""
from __future__ import annotations

HEAD = "card: hostile\ntitle: Hostile\nvalues: {min: 25, max: 75}\nsections:\n  - name: One\n    lines:\n"


def _card(*lines: str) -> str:
    return HEAD + "".join(f"      - {line}\n" for line in lines)


def _many(n: int, line: str) -> str:
    return HEAD + "".join(f"      - {line.replace('#', str(i))}\n" for i in range(n))


def shapes() -> list[tuple[str, str, str]]:
    singles = " ".join(["1a|2a|3a|4a|5a|6a|7a|8a|9a"] * 14)
    pairs = " ".join(["|".join(f"{n}{n}a" for n in range(1, 10))] * 6) + " FF"
    nine_vars = "".join("HIKLMOPQT") + "a 22222a"
    return [
        ("fourteen single-tile alternative groups", _card(f'{{id: L1, groups: "{singles}", suits: any, value: 25}}'), "refused"),
        ("six groups of nine pair alternatives", _card(f'{{id: L1, groups: "{pairs}", suits: any, value: 25}}'), "refused"),
        ("nine free number variables", _card(
            f'{{id: L1, groups: "{nine_vars}", vars: {{H: any, I: any, K: any, L: any, M: any, O: any, P: any, Q: any, '
            'T: any}, value: 25}'), "refused"),
        ("a line of a hundred forms", _card('{id: L1, groups: "' + " || ".join(["FF 2033a 3333b 3333c"] * 100) + '", value: 25}'),
         "refused"),
        ("10,000 lines", _many(10_000, '{id: L#, groups: "FF 2033a 3333b 3333c", value: 25}'), "refused"),
        ("10,000 any-consecutive lines", _many(10_000, '{id: L#, groups: "11a 222a 3333a 444a 55a", shift: any, value: 25}'),
         "refused"),
        ("501 short lines", _many(501, '{id: L#, groups: "FF 2033a 3333b 3333c", value: 25}'), "refused"),
        ("a card just within the bound on ways", _many(158, '{id: L#, groups: "111a 222b 333c DDDD N", shift: any, value: 25}'),
         "ok"),
        ("a card just past the bound on ways", _many(159, '{id: L#, groups: "111a 222b 333c DDDD N", shift: any, value: 25}'),
         "refused"),
        ("500 lines with every error", _many(500, '{id: L#, groups: "1111A+4444B 5555x J 111DDD (x)", value: 0}'), "refused"),
        ("a 200 kB note", _card('{id: L1, groups: "FF 2033a 3333b 3333c", value: 25, note: "' + "n" * 200_000 + '"}'), "ok"),
        ("a 2,000-character groups", _card('{id: L1, groups: "' + "1a " * 700 + '", value: 25}'), "refused"),
        ("an alias bomb", "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefg", "bcdefgh"))
         + "card: *h\n", "refused"),
        ("nesting 5,000 deep", "card: " + "[" * 5000 + "]" * 5000 + "\n", "refused"),
        ("control and bidi characters in every text field", HEAD.replace("title: Hostile", 'title: "T\\e]0;x\\a"').replace(
            "name: One", 'name: "S\\u202e"') + '      - {id: "L\\e[2J", groups: "FF 2033a 3333b 3333c", value: 25, '
         'note: "\\e]8;;http://x\\e\\\\y\\x9b31m", display: "\\u2066d"}\n', "ok"),
        ("digits from another script", _card('{id: L1, groups: "FF ٢٠٣٣a 3333b 3333c", value: 25}'), "refused"),
        ("not a mapping", "- just\n- a list\n", "refused"),
        ("empty", "", "refused"),
        ("a NUL byte", _card('{id: L1, groups: "FF 2033a 3333b 3333c", value: 25, note: "a\\0b"}'), "ok"),
        ("lines that are not a list", HEAD.replace("    lines:\n", "    lines: 7\n"), "refused"),
        ("a value of a thousand digits", _card('{id: L1, groups: "FF 2033a 3333b 3333c", value: ' + "9" * 1000 + "}"), "refused"),
    ]
