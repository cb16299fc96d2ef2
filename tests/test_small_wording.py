"""Small things a judge reads that said the wrong thing: a node label, a role asked in the wrong
tense, and 'did you mean' hints that pointed at the wrong ruleset or another situation's fact."""
from __future__ import annotations


import pytest
from typer.testing import CliRunner

from referee.rules import model as m
from referee.cli import app
from referee.rules.loader import available, load_strict

from clirun import Run
from test_interactive import finish, pexpect, typing_in  # noqa: F401  (pexpect: skip without it)


def referee(*args: str) -> Run:
    return Run(CliRunner().invoke(app, list(args)))


@pytest.mark.parametrize("rid", sorted(available()))
def test_a_leaf_labelled_dead_kills_someone(rid: str) -> None:
    """`referee show` prints each leaf's node id; one called 'dead' must not be a no-penalty ruling."""
    rs = load_strict(rid)
    wrong = [(sid, n.ruling.id) for sid, sit in rs.situations.items() for nid, n in sit.nodes.items()
             if isinstance(n, m.RulingNode) and nid == "dead" and not n.ruling.dead]
    assert not wrong, wrong


def test_show_exposure_after_wall_pick_labels_the_no_penalty_leaf_as_what_happened() -> None:
    r = referee("show", "exposure-after-wall-pick")
    assert r.code == 0
    leaf = r.stdout[r.stdout.index("EAP-1"):]
    assert "[node dead]" not in leaf and "[node exposed_off_wall]" in leaf, leaf


def test_the_exchanger_is_asked_for_in_the_past_once_the_swap_was_made() -> None:
    with typing_in("rule", "joker-owner-refuses", "-a", "jor_offer=mismatch", "-a", "jor_completed=yes") as child:
        child.expect("Which seat owns the exposure\\?")
        child.sendline("East")
        child.expect("Which seat offered the exchange, or made the swap\\?")
        asked = child.before + child.after
        child.sendline("South")
        child.expect("JOR-3")
        child.expect("South's hand is dead")
        child.sendcontrol("d")
        finish(child)
    assert "wants the joker" not in asked


@pytest.mark.parametrize("typed, meant", [("mahjcon", "tournament-mahjcon"), ("house", "house-example"),
                                          ("tourney_mahjcon", "tournament-mahjcon"), ("crak", "tournament-crak")])
def test_a_ruleset_named_by_its_short_word_is_suggested(typed: str, meant: str) -> None:
    r = referee("rule", "-r", typed, "wall-game", "--no-input")
    assert r.code == 2
    assert r.stderr.strip() == f"referee: unknown ruleset '{typed}'; did you mean '{meant}'?"


def test_an_id_near_no_ruleset_lists_the_known_ones() -> None:
    r = referee("rule", "-r", "zzzz", "wall-game", "--no-input")
    assert r.code == 2 and "known: " in r.stderr and "did you mean" not in r.stderr


def test_a_misspelt_fact_is_matched_only_against_the_situations_own_facts() -> None:
    r = referee("rule", "misnamed-discard", "-a", "committed=yes", "--no-input")
    assert r.code == 2
    assert "did you mean 'caller_committed'?" in r.stderr, r.stderr


def test_a_misspelt_fact_may_be_one_of_a_situation_it_goes_on_into() -> None:
    # misnamed-discard goes on into mahjong-in-error, whose answers it accepts
    r = referee("rule", "misnamed-discard", "-a", "others_act=two", "--no-input")
    assert r.code == 2
    assert "did you mean 'others_acted'?" in r.stderr, r.stderr


def test_a_misspelt_fact_with_nothing_close_in_the_situation_points_at_show() -> None:
    r = referee("rule", "misnamed-discard", "-a", "zebra_stripes=yes", "--no-input")
    assert r.code == 2
    assert "did you mean" not in r.stderr and "referee show misnamed-discard" in r.stderr, r.stderr
