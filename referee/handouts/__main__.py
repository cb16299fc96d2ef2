"""`python -m referee.handouts [html|md]`: build every shipped ruleset's booklet and print the
time each took (rulesets loaded first, so this times the handout code). For the benchmark."""
from __future__ import annotations

import sys
import time

from ..rules.loader import available, load_strict
from . import build


def main(fmt: str = "html") -> float:
    rulesets = [load_strict(rid) for rid in available()]
    cpu = time.process_time()
    total = 0.0
    for rs in rulesets:
        start = time.perf_counter()
        build(rs, fmt)
        took = time.perf_counter() - start
        total += took
        print(f"{rs.id:<22} {took * 1000:7.1f} ms")
    cpu = time.process_time() - cpu  # wall time misleads on a shared machine; CPU time does less
    print(f"{'all booklets':<22} {total * 1000:7.1f} ms wall, {cpu * 1000:.1f} ms CPU (target: under 1000 ms)")
    return total


if __name__ == "__main__":
    main(*sys.argv[1:2])
