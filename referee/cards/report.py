"""Results as JSON documents: what `hand verify|dead --json` print and what a ruling answered
with tiles carries (`rule --json`, answers files, the rulings log)."""
from __future__ import annotations

from typing import Any

from .tiles import short
from .verify import block_text


def hand_json(verdict: Any) -> dict[str, Any]:
    hand = verdict.hand
    best = verdict.best
    return {
        "tiles": " ".join(short(t) for t in hand.tiles), "hand": hand.text,
        "exposed": [e.text for e in hand.exposures],
        "valid": bool(verdict.made),
        "lines": [{"id": m.line.id, "section": m.line.section, "value": m.line.value, "concealed": m.line.concealed,
                   "as": " ".join(block_text(t) for t, _ in m.target.blocks), "reading": m.target.binding or None,
                   "jokers": [{"tile": short(t), "count": n} for t, n in m.jokers_as]
                   + [{"tile": short(e.tile), "count": e.jokers, "exposure": e.text} for e in hand.exposures if e.jokers]}
                  for m in verdict.made],
        "best": best.line.id if best else None,
        "value": verdict.value(),
        "jokerless": hand.jokerless,
        "doubled": verdict.doubled(),
        "nearest": [{"id": n.line.id, "value": n.line.value, "concealed": n.line.concealed, "off_by": n.distance,
                     "as": " ".join(block_text(t) for t, _ in n.target.blocks), "reading": n.target.binding or None,
                     "reasons": n.reasons} for n in verdict.nearest],
    }


def dead_json(verdict: Any) -> dict[str, Any]:
    table = verdict.table
    return {
        "exposed": [e.text for e in table.exposures],
        "discards": " ".join(short(t) for t in table.discards),
        "exposed_by_others": " ".join(short(t) for t in table.others),
        "jokers_obtainable": table.jokers,
        "dead": verdict.dead,
        "open": [{"id": o.target.line.id, "value": o.target.line.value,
                  "as": " ".join(block_text(t) for t, _ in o.target.blocks), "reading": o.target.binding or None,
                  "still_needs": o.still, "hot": o.hot, "jokers_needed": o.jokers_needed} for o in verdict.open],
        "nearest": [{"id": k.target.line.id if k.target else None, "value": k.target.line.value if k.target else None,
                     "reasons": k.reasons} for k in verdict.nearest],
    }
