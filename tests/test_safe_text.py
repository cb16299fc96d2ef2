"""Hostile text from rulesets, player names, answers and search words reaches the terminal harmless."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.safe import clean, dumps
from test_cli import TESTS, run

# Each would change what the judge sees if printed raw: rich markup (a crash, a live link,
# an emoji), an ANSI/OSC escape, the one-byte CSI, a right-to-left override, a forged line.
HOSTILE = "[/] [link=https://evil.example]x[/link] :100: \x1b[2J \x1b]8;;https://evil.example\x07 \x9b31m \u202eevil\nRuling FAKE-9 pays"
RAW = ["\x1b", "\x9b", "\x07", "\u202e", "\U0001f4af"]  # none of these may reach stdout or stderr


def yaml_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a YAML double-quoted string


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    """An overlay of the tests' house ruleset whose every text field is hostile."""
    folder = tmp_path / "evil"
    (folder / "situations").mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(
        f"id: evil\ntitle: {yaml_str('Evil ' + HOSTILE)}\nversion: {yaml_str('6 ' + HOSTILE)}\nextends: house\n")
    base = (TESTS / "rulesets" / "house" / "situations" / "picked-wrong-end.yaml").read_text()
    text = (base.replace("title: Picked from the wrong end of the wall", f"title: {yaml_str('Picked ' + HOSTILE)}")
            .replace("summary: A player took her tile from the back end of the wall.", f"summary: {yaml_str(HOSTILE)}")
            .replace('says: "The game ends. {picker} pays {winner} four times the hand value."',
                     f"says: {yaml_str('The game ends. {picker} pays. ' + HOSTILE)}")
            .replace("- Nobody else pays.", f"- {yaml_str(HOSTILE)}"))
    assert text.count("FAKE-9") == 4
    (folder / "situations" / "picked-wrong-end.yaml").write_text(text)
    return folder


def evil_run(*args: str, **kw):  # type: ignore[no-untyped-def]
    return run(*args, env={"REFEREE_RULESETS": str(TESTS / "rulesets"), "COLUMNS": "300"}, **kw)


def assert_harmless(text: str) -> None:
    for ch in RAW:
        assert ch not in text, (ch, text)
    assert not any(line.lstrip().startswith("Ruling FAKE") for line in text.splitlines()), text


def test_clean_makes_one_visible_line() -> None:
    assert clean("a\nb\r\nc") == "a b c"
    assert clean("Ru\x1b[31mth") == "Ru\\x1b[31mth"
    assert clean("\u202eevil") == "\\u202eevil"
    assert clean("\x9b1m") == "\\x9b1m"
    assert clean("  indented") == "  indented"
    assert clean("Zoë 東") == "Zoë 東"


def test_dumps_escapes_but_keeps_the_text() -> None:
    doc = {"name": "Zoë \u202e\x1b\x9b\u2028"}
    text = dumps(doc)
    assert "Zoë" in text
    for ch in ["\u202e", "\x1b", "\x9b", "\u2028"]:
        assert ch not in text
    assert json.loads(text) == doc


def test_ruling_from_a_hostile_ruleset(evil: Path) -> None:
    r = evil_run("rule", "picked-wrong-end", "-r", str(evil), "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes",
                 "-s", "picker=West", "-s", "winner=North", "-a", "hand_value=25", "-p", f"West={HOSTILE}", "--no-input")
    assert r.code == 0, r.output
    assert_harmless(r.stdout)
    assert "[/] [link=https://evil.example]x[/link] :100:" in r.stdout  # shown as typed, not obeyed
    assert "\\x1b[2J" in r.stdout and "\\u202eevil" in r.stdout


def test_json_from_a_hostile_ruleset_escapes_and_keeps_the_text(evil: Path) -> None:
    r = evil_run("rule", "picked-wrong-end", "-r", str(evil), "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes",
                 "-s", "picker=West", "-s", "winner=North", "-p", f"West={HOSTILE}", "--no-input", "--json")
    assert r.code == 0, r.output
    assert_harmless(r.stdout)
    doc = r.json()
    assert doc["ruleset"]["version"] == "6 " + HOSTILE
    assert doc["payments"][0]["from"]["name"] == HOSTILE
    assert doc["notes"] == [HOSTILE]


@pytest.mark.parametrize("args", [
    ["list"], ["search", "picked"], ["show", "picked-wrong-end"], ["rulesets"], ["diff", "house", "evil"],
], ids=lambda a: a[0])
def test_browsing_a_hostile_ruleset(evil: Path, args: list[str]) -> None:
    if args[0] in ("list", "search", "show"):
        args = [*args, "-r", str(evil)]
    r = run(*args, env={"REFEREE_RULESETS": f"{TESTS / 'rulesets'}:{evil.parent}", "COLUMNS": "300"})
    assert r.code in (0, 1), r.output
    assert_harmless(r.output)


@pytest.mark.parametrize("args", [
    ["rule", "picked-wrong-end", "-a", f"discard_claimed={HOSTILE}", "--no-input"],  # refused answer echoed
    ["rule", HOSTILE, "--no-input"],  # search words echoed
    ["search", HOSTILE],
    ["rule", "picked-wrong-end", "-s", f"picker={HOSTILE}", "--no-input"],
    ["pay", "--winner", "East", "--how", "self-pick", "--value", "25", "-p", f"East={HOSTILE}"],
    ["pay", "--winner", "East", "--how", "self-pick", "--value", "25", "-p", f"East={HOSTILE}", "--json"],
], ids=["answer", "rule-words", "search-words", "seat", "pay-player", "pay-json"])
def test_hostile_command_line(args: list[str]) -> None:
    ruleset = [] if args[0] == "pay" else ["-r", str(TESTS / "rulesets" / "house")]
    r = run(*args, *ruleset, env={"COLUMNS": "300"})
    assert "Traceback" not in r.output
    assert_harmless(r.output)


def test_hostile_words_typed_at_the_prompt() -> None:
    r = run("rule", "-r", str(TESTS / "rulesets" / "house"), input=f"{HOSTILE}\n", env={"COLUMNS": "300"})
    assert r.code == 2  # input ends after the words
    assert "Nothing matches" in r.stderr
    assert_harmless(r.output)


def test_a_hostile_output_path_is_named_harmlessly(tmp_path: Path) -> None:
    target = tmp_path / "rules [link=x] [bold] :100: \u202e.md"  # a file name cannot hold "/"
    r = run("handout", "-r", str(TESTS / "rulesets" / "house"), "--format", "md", "-o", str(target))
    assert r.code == 0, r.output
    assert target.is_file()
    assert_harmless(r.output)
    assert "[link=x] [bold] :100:" in r.stderr


def test_a_whole_page_is_cleaned_as_a_field_is() -> None:
    """`controls` checks a long page by its bytes, not character by character: the same
    characters must count as unsafe, wherever they sit in a page of mixed scripts."""
    from referee.safe import _UNSAFE, controls

    page = ("<p>Declarer — East’s hand ✓ Zoë 北 </p>\n\t" * 400)
    assert len(page) > 4096 and controls(page) == page
    for code in [*range(0x00, 0x250), 0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069, 0x2028, 0xD800, 0x1F600]:
        ch = chr(code)
        for text in (page[:3000] + ch + page[3000:], ch + page, page + ch):
            want = _UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                               text.replace("\r\n", "\n")) if _UNSAFE.search(text) else text
            assert controls(text) == want, hex(code)
