"""Text from rulesets, answers and the command line made harmless before it leaves the program.

Ruleset files, player names, answers and search words are not ours: a stray escape sequence
could repaint the judge's terminal, a right-to-left override could reverse what a ruling says,
a newline inside a name could forge a line of the ruling. `clean` makes one field one line of
visible characters; `dumps` writes JSON in which the same characters are escaped, not lost.
"""
from __future__ import annotations

import json
import re
from typing import Any

# Bidirectional controls reorder what follows them (the "Trojan Source" characters).
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # everything str.splitlines() splits on
_BREAK = re.compile(rf"[{_BREAKS}]+")
# C0 and C1 controls, DEL and the bidi controls; a tab is only whitespace.
_UNSAFE = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}]")
_JSON_UNSAFE = re.compile(rf"[\x7f-\x9f\u2028\u2029{BIDI}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def controls(text: str) -> str:
    """Control and bidi characters shown as `\\x1b` / `\\u202e`; line breaks are kept."""
    return _UNSAFE.sub(_visible, text.replace("\r\n", "\n")) if _unsafe(text) else text


_PLAIN = bytes([0x09, 0x0A, *range(0x20, 0x7F)])  # the ASCII that is always safe: tab, newline, printable


def _unsafe(text: str) -> bool:
    """`_UNSAFE.search(text)`, sooner for a whole page: the regex tests each character in turn
    (7 ms for a 600 kB booklet), while dropping the safe ASCII bytes leaves a few hundred: none
    below 0x80 means no ASCII control, and UTF-8 keeps the other characters whole to search."""
    if len(text) < 4096:
        return _UNSAFE.search(text) is not None
    rest = text.encode("utf-8", "surrogatepass").translate(None, _PLAIN)
    if not rest:
        return False
    if min(rest) < 0x80:
        return True
    return _UNSAFE.search(rest.decode("utf-8", "surrogatepass")) is not None


def clean(value: Any) -> str:
    """One field as one line: line breaks become a space, other controls become visible escapes."""
    text = str(value)
    # Split, not one regex with [ \t]* on both sides: that backtracks over every space of a
    # deeply indented line (a 1,200-question tree) and takes minutes.
    parts = _BREAK.split(text.strip(_BREAKS))
    if len(parts) > 1:
        parts = [parts[0].rstrip(" \t"), *(p.strip(" \t") for p in parts[1:-1]), parts[-1].lstrip(" \t")]
    text = " ".join(parts)
    return controls(text.replace("\t", " "))


def dumps(doc: Any) -> str:
    """JSON text with every control, line-separator and bidi character escaped as \\uXXXX.

    json.dumps already escapes C0 controls; the rest would pass through raw with
    ensure_ascii=False, which we keep so names like Zoë stay readable.
    """
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
