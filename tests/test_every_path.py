"""Checks that hold on every path through every shipped ruleset, walked as `referee diff` walks
them, not only on the paths the scenarios take."""
from __future__ import annotations

import pytest

from referee.diff import every_ruling
from referee.rules.loader import available, load_strict


@pytest.mark.parametrize("rid", sorted(available()))
def test_no_ruling_plays_on_with_three_or_four_hands_dead(rid: str) -> None:
    """With three hands dead one player is left, so the game cannot simply go on (a replay, or the
    ending the ruleset's own rule gives); a ruling that says 'play continues' then is wrong."""
    wrong = sorted({(sid, side.ruling, ", ".join(f"{k}={v}" for k, v in answers.items()))
                    for sid, answers, side in every_ruling(load_strict(rid))
                    if side.game == "continues" and len(set(side.dead)) >= 3})
    assert not wrong, "\n".join(" · ".join(w) for w in wrong[:10]) + f"\n({len(wrong)} paths)"
