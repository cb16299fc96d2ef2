"""A situation's decision tree drawn as SVG by our own layered layout (no Graphviz needed).

Questions are rounded boxes, rulings square boxes (a heavy border where a hand is dead), a
goto a dashed rounded box naming the situation play continues in; every edge carries its
answer (answers leading to the same place share one edge), placed where it touches no box and
no other answer. Layers follow the longest path from the start, an edge that skips layers bends through
invisible waypoints so it never cuts across a box, and each layer is ordered by its parents'
positions. Pure and deterministic: the same tree always gives the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from ..rules import model as m
from ..rules.loader import Ruleset
from ..rules.memo import keep

FONT = 11  # px; the SVG scales to the column, so these are proportions
CHAR = 6.1  # average glyph width at FONT in a sans-serif face
LINE = 14
PAD = 8
GAP_X = 18
GAP_Y = 42
FAN = 4  # from this many answers out of one question, the gap below it starts taller
LABEL_H = 14.0  # an answer's white rectangle, a line of it
LABEL_WRAP = 24  # characters: answers sharing an edge go on further lines past this
LABEL_ABOVE = 16.0  # its centre's first try: this far above the end of a segment (clear of the arrow)
LABEL_STEP = 4.0  # then up the edge in steps of this
LABEL_MARGIN = 2.0  # clear space kept around an answer: glyphs differ from the CHAR estimate
MAX_GROW = 12  # a gap grows at most this many times for its answers
STRICT_ROUNDS = 2  # of which the first ones also keep every other edge's line in sight
WRAP = {"ask": 26, "ruling": 22, "goto": 22}
PAGE = 660.0  # px a printed column holds at about full size; wider trees are re-wrapped narrower
NARROWER = (1.0, 0.8, 0.65)


@dataclass
class Box:
    key: str
    kind: str  # ask, ruling, goto, waypoint
    lines: list[str]
    dead: bool = False
    layer: int = 0
    x: float = 0.0  # centre
    y: float = 0.0  # top
    w: float = 0.0
    h: float = 0.0
    parents: list[str] = field(default_factory=list)


@dataclass
class Edge:
    src: str
    dst: str
    label: str
    via: list[str] = field(default_factory=list)  # waypoints, top to bottom


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap (textwrap's generality costs a third of the drawing time)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > width:  # a word longer than the box: break it
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines or [""]


def _ruling_lines(r: m.Ruling, scale: float) -> list[str]:
    lines = [r.id]
    dead = ", ".join(role.replace("_", " ") for role in r.dead)
    lines += _wrap("dead: " + dead, int(WRAP["ruling"] * scale)) if r.dead else ["no dead hand"]
    lines.append(f"game {r.game}")
    return lines


def _boxes(rs: Ruleset, sid: str, scale: float) -> tuple[dict[str, Box], list[Edge], str]:
    sit = rs.situation(sid)
    boxes: dict[str, Box] = {}
    edges: list[Edge] = []

    def visit(nid: str) -> str:
        if nid in boxes:
            return nid
        node = sit.nodes.get(nid)
        if node is None:
            boxes[nid] = Box(nid, "goto", _wrap(f"missing node {nid}", int(WRAP["goto"] * scale)))
            return nid
        if isinstance(node, m.RulingNode):
            r = node.ruling
            boxes[nid] = Box(nid, "ruling", _ruling_lines(r, scale), dead=bool(r.dead))
        elif isinstance(node, m.GotoNode):
            boxes[nid] = Box(nid, "goto", _goto_lines(rs, node.goto, scale))
        else:
            fact = rs.fact(node.ask, sid)
            boxes[nid] = Box(nid, "ask", _wrap(fact.ask if fact else node.ask, int(WRAP["ask"] * scale)))
            out: dict[str, Edge] = {}  # this question's edges, by where they lead
            for value, target in node.branches():
                if isinstance(target, m.Goto):
                    dst = f"{nid}->{target.goto}@{target.at or ''}"
                    if dst not in boxes:
                        boxes[dst] = Box(dst, "goto", _goto_lines(rs, target.goto, scale))
                else:
                    dst = visit(target)
                # answers that lead to the same place share one edge: two arrows would lie on one line
                same = out.get(dst)
                if same is None:
                    edges.append(out.setdefault(dst, Edge(nid, dst, value)))
                else:
                    same.label += " / " + value
        return nid

    start = visit(sit.start)
    return boxes, edges, start


def _goto_lines(rs: Ruleset, target: str, scale: float) -> list[str]:
    return _wrap(f"continue as: {_title(rs, target)}", int(WRAP["goto"] * scale))


def _layer(boxes: dict[str, Box], edges: list[Edge], start: str) -> list[list[str]]:
    """Longest-path layers (the graph is acyclic; the lint reports cycles)."""
    out_edges: dict[str, list[Edge]] = {}
    for e in edges:
        out_edges.setdefault(e.src, []).append(e)
    depth = {start: 0}
    changed = True
    rounds = 0
    while changed and rounds <= len(boxes):
        changed = False
        rounds += 1
        for e in edges:
            if e.src in depth and depth.get(e.dst, -1) < depth[e.src] + 1:
                depth[e.dst] = depth[e.src] + 1
                changed = True
    for key in boxes:
        depth.setdefault(key, 0)
    # waypoints for edges that skip layers
    for i, e in enumerate(edges):
        for d in range(depth[e.src] + 1, depth[e.dst]):
            key = f"~{i}:{d}"
            boxes[key] = Box(key, "waypoint", [], parents=[e.via[-1] if e.via else e.src])
            depth[key] = d
            e.via.append(key)
        boxes[e.dst].parents.append(e.via[-1] if e.via else e.src)
    layers: list[list[str]] = [[] for _ in range(max(depth.values()) + 1)]
    # discovery order (depth-first along the answers' order) keeps yes left of no
    seen: dict[str, None] = {}  # in the order found (a list's `in` made wide charts quadratic)

    def dfs(key: str) -> None:
        if key in seen:
            return
        seen[key] = None
        for e in out_edges.get(key, []):
            for w in e.via:
                dfs(w)
            dfs(e.dst)

    dfs(start)
    for key in boxes:
        seen.setdefault(key)
    for key in seen:
        boxes[key].layer = depth[key]
        layers[depth[key]].append(key)
    return layers


def _size(b: Box) -> None:
    if b.kind == "waypoint":
        b.w, b.h = 6.0, 0.0
        return
    longest = max(len(line) for line in b.lines)
    b.w = max(70.0, longest * CHAR + 2 * PAD)
    b.h = len(b.lines) * LINE + 2 * PAD - 2


def _fanout(edges: list[Edge]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in edges:
        out[e.src] = out.get(e.src, 0) + 1
    return out


def _place_y(boxes: dict[str, Box], layers: list[list[str]], fanout: dict[str, int], extra: dict[int, float]) -> float:
    """Each box's top, layer by layer (`extra` more space below the layers it names); the chart's height."""
    y = PAD + 2.0
    for i, layer in enumerate(layers):
        height = max((boxes[k].h for k in layer), default=0.0)
        for k in layer:
            boxes[k].y = y + (height - boxes[k].h) / 2 if boxes[k].kind == "waypoint" else y
        y += height + GAP_Y + (18 if any(fanout.get(k, 0) >= FAN for k in layer) else 0) + extra.get(i, 0.0)
    return y - GAP_Y + PAD


def _place_x(boxes: dict[str, Box], layers: list[list[str]]) -> float:
    """Each box's centre: children under the mean of their parents, pushed apart left to right,
    layer by layer; the chart's width. Boxes sized by `_size`; heights play no part."""
    for i, layer in enumerate(layers):
        if i:
            want = {k: sum(boxes[p].x for p in boxes[k].parents) / len(boxes[k].parents) if boxes[k].parents else 0.0
                    for k in layer}
            layer.sort(key=lambda k: want[k])  # stable: discovery order breaks ties
        else:
            want = {k: 0.0 for k in layer}
        right = None
        for k in layer:
            b = boxes[k]
            b.x = want[k] if right is None else max(want[k], right + GAP_X + b.w / 2)
            right = b.x + b.w / 2
        # centre the layer on where its boxes wanted to be, so a wide layer does not drift right
        if layer:
            shift = (sum(want[k] for k in layer) - sum(boxes[k].x for k in layer)) / len(layer)
            for k in layer:
                boxes[k].x += shift
    left = min(b.x - b.w / 2 for b in boxes.values())
    right = max(b.x + b.w / 2 for b in boxes.values())
    for b in boxes.values():
        b.x += PAD - left
    return right - left + 2 * PAD


@dataclass(frozen=True)
class Label:
    """An edge's answer as drawn: the white rectangle behind the text, in the chart's units."""

    lines: tuple[str, ...]
    x: float  # left
    y: float  # top
    w: float
    h: float

    def meets(self, x: float, y: float, w: float, h: float, margin: float = LABEL_MARGIN) -> bool:
        return (self.x < x + w + margin and x < self.x + self.w + margin
                and self.y < y + h + margin and y < self.y + self.h + margin)


@dataclass
class Chart:
    """A laid-out tree: what `svg` draws and what the tests measure."""

    boxes: dict[str, Box]
    edges: list[Edge]
    layers: list[list[str]]
    labels: list[Label]
    width: float
    height: float


def _route(boxes: dict[str, Box], e: Edge) -> list[tuple[float, float]]:
    src, dst = boxes[e.src], boxes[e.dst]
    return [(src.x, src.y + src.h), *((boxes[w].x, boxes[w].y) for w in e.via), (dst.x, dst.y)]


def _crosses(lab: Label, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Does the segment a-b pass through the label's rectangle? (Liang-Barsky clipping.)"""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - lab.x), (dx, lab.x + lab.w - x0), (-dy, y0 - lab.y), (dy, lab.y + lab.h - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


# How far outside a line's bounding box a rectangle must lie to be passed over untested: far more
# than a float's rounding on a chart's coordinates, so only the exact test ever says "crosses".
_NEAR = 1e-6


def _label_lines(label: str) -> tuple[str, ...]:
    """An edge's answers, on as many lines as keep each within LABEL_WRAP characters (an answer
    is never split)."""
    lines: list[str] = []
    for answer in label.split(" / "):
        if lines and len(lines[-1]) + 3 + len(answer) <= LABEL_WRAP:
            lines[-1] += " / " + answer
        else:
            if lines:
                lines[-1] += " /"
            lines.append(answer)
    return tuple(lines)


def _labels(boxes: dict[str, Box], edges: list[Edge], strict: bool) -> tuple[list[Label], set[int]]:
    """Each answer on its own edge where it touches no box and no other answer (and, when
    `strict`, hides no other edge's line under its white rectangle).

    Fanned-out edges are furthest apart just above the answers' boxes, so each label tries
    there first, then steps up its first segment towards the question, then along the rest of
    its route. An edge with no free place names the layer whose gap is too short for its
    answers, and the caller lays the chart out again with that gap taller.
    """
    routes = [_route(boxes, e) for e in edges]
    # A few thousand candidate places are tried for the shipped charts, each against every box,
    # answer and line: so each obstacle is kept as the very sums `Label.meets` would work out
    # (left, right + margin, top, bottom + margin), and a line far from a candidate is passed
    # over before the exact clip test (`_crosses`, which alone decides).
    taken = [(x, x + b.w + LABEL_MARGIN, b.y, b.y + b.h + LABEL_MARGIN)
             for b in boxes.values() if b.kind != "waypoint" for x in (b.x - b.w / 2,)]
    lines = [(i, min(x0, x1) - _NEAR, max(x0, x1) + _NEAR, min(y0, y1) - _NEAR, max(y0, y1) + _NEAR, p, q)
             for i, r in enumerate(routes) for p, q in zip(r, r[1:]) for (x0, y0), (x1, y1) in ((p, q),)]
    placed: list[Label] = []
    crowded: set[int] = set()

    def free(x: float, y: float, w: float, h: float, own: int) -> bool:
        right, bottom = x + w + LABEL_MARGIN, y + h + LABEL_MARGIN
        for left, right_m, top, bottom_m in taken:
            if x < right_m and left < right and y < bottom_m and top < bottom:
                return False
        if not strict:
            return True
        cand = None
        for i, x0, x1, y0, y1, p, q in lines:
            if i != own and x0 <= x + w and x <= x1 and y0 <= y + h and y <= y1:
                cand = cand or Label((), x, y, w, h)
                if _crosses(cand, p, q):
                    return False
        return True

    for i, e in enumerate(edges):
        text = _label_lines(e.label)
        w, h = max(len(line) for line in text) * CHAR + 6, LABEL_H * len(text)
        points = routes[i]
        spot = None
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            ly = y1 - LABEL_ABOVE - (h - LABEL_H) / 2
            while spot is None and ly - h / 2 >= y0 + 2:
                t = (ly - y0) / (y1 - y0) if y1 > y0 else 1.0
                cx, cy = x0 + (x1 - x0) * t - w / 2, ly - h / 2
                if free(cx, cy, w, h, i):
                    spot = Label(text, cx, cy, w, h)
                ly -= LABEL_STEP
            if spot is not None:
                break
        if spot is None:  # drawn where it was wanted, and the gap below its question grows
            crowded.add(boxes[e.src].layer)
            (x0, y0), (x1, y1) = points[0], points[1]
            spot = Label(text, (x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2, w, h)
        placed.append(spot)
        taken.append((spot.x, spot.x + spot.w + LABEL_MARGIN, spot.y, spot.y + spot.h + LABEL_MARGIN))
    return placed, crowded


def layout(rs: Ruleset, sid: str) -> Chart:
    """Boxes, routes and answer labels of one situation's tree, narrowed to fit a page where it can."""
    for scale in NARROWER:  # a wide tree shrinks on paper: narrower boxes keep its text readable
        boxes, edges, start = _boxes(rs, sid, scale)
        layers = _layer(boxes, edges, start)
        for b in boxes.values():  # once: a box's size is its text's, however often it is placed
            _size(b)
        # The width is the boxes' alone (answers only ever make gaps taller): a tree too wide at
        # this scale is narrowed before any of its answers is placed.
        width = _place_x(boxes, layers)
        if width > PAGE and scale != NARROWER[-1]:
            continue
        fanout = _fanout(edges)
        extra: dict[int, float] = {}
        for round_ in range(MAX_GROW):
            height = _place_y(boxes, layers, fanout, extra)
            # a few taller gaps may free every line; a wide fan never is, and its answers may cover lines
            labels, crowded = _labels(boxes, edges, strict=round_ < STRICT_ROUNDS)
            if not crowded:
                break
            for layer in crowded:
                extra[layer] = extra.get(layer, 0.0) + LABEL_H
        break
    return Chart(boxes, edges, layers, labels, width, height)


# A chart's numbers repeat (a layer's top, a column's centre, the widths of one-line boxes): each
# is formatted once. Rounding a float to a decimal place is slow in Python.
_FORMATTED: dict[float, str] = {}


def _fmt(v: float) -> str:
    done = _FORMATTED.get(v)
    if done is None:
        done = keep(_FORMATTED, v, f"{round(v, 1):g}", 65536)
    return done


# The same tree under several rulesets is laid out once: kept under all it is drawn from (`_plan`),
# so situations that differ only in words the chart does not show share a chart.
_DRAWN: dict[tuple[object, ...], tuple[str, float]] = {}


def _plan(rs: Ruleset, sit: m.Situation) -> tuple[object, ...]:
    """All `_boxes`, `layout` and `_draw` read of a situation and its ruleset: its id, title and
    start, and each node as the chart shows it (a ruling's id, dead roles and game, a question's
    words and answers, a goto's title). Working this out is a tenth of the cost of the boxes."""
    nodes: list[object] = []
    for nid, node in sit.nodes.items():  # told apart as `_boxes` tells them
        if isinstance(node, m.RulingNode):
            r = node.ruling
            nodes.append((nid, "ruling", r.id, tuple(r.dead), r.game))
        elif isinstance(node, m.GotoNode):
            nodes.append((nid, "goto", _title(rs, node.goto)))
        else:
            fact = rs.fact(node.ask, sit.id)
            nodes.append((nid, "ask", fact.ask if fact else node.ask, tuple(
                (value, (target.goto, target.at, _title(rs, target.goto)) if isinstance(target, m.Goto) else target)
                for value, target in node.branches())))
    return (sit.id, sit.title, sit.start, tuple(nodes))


def _title(rs: Ruleset, target: str) -> str:
    return rs.situations[target].title if target in rs.situations else target


def _drawn(rs: Ruleset, sid: str) -> tuple[str, float]:
    """The chart's <svg> and the centre of the box it starts from (the top layer's only box)."""
    key = _plan(rs, rs.situation(sid))
    drawn = _DRAWN.get(key)
    if drawn is None:
        chart = layout(rs, sid)
        drawn = keep(_DRAWN, key, (_draw(rs, sid, chart), chart.boxes[chart.layers[0][0]].x), 2000)
    return drawn


def svg(rs: Ruleset, sid: str) -> str:
    """The flowchart of one situation as a standalone <svg> element."""
    return _drawn(rs, sid)[0]


def figure(rs: Ruleset, sid: str) -> str:
    """The booklet's <figure> of one situation's chart.

    On a screen a chart wider than a phone scrolls inside its figure; left to itself it would
    open at its left edge, with the question the tree starts from (drawn at the top centre of
    its answers) off to the right. The empty marker at that question's x is the figure's
    initial scroll target (style.css: scroll-initial-target), so it opens with the first
    question in view, no script needed; a browser without that property opens at the left edge.
    """
    drawn, start_x = _drawn(rs, sid)
    return (f'<figure class="chart" style="--start-x: {_fmt(start_x)}px">{drawn}'
            '<span class="chart-start" aria-hidden="true"></span></figure>')


_BOX_ATTRS = {  # by kind and dead (only a ruling's box is ever dead)
    ("ask", False): 'rx="10" fill="#f4f4f4" stroke="#333" stroke-width="1.2"',
    ("ruling", False): 'fill="#fff" stroke="#000" stroke-width="1.2"',
    ("ruling", True): 'fill="#fff" stroke="#000" stroke-width="3.5"',
    ("goto", False): 'rx="10" fill="#fff" stroke="#333" stroke-width="1.2" stroke-dasharray="5 3"',
}


def _draw(rs: Ruleset, sid: str, chart: Chart) -> str:
    boxes, width, height = chart.boxes, chart.width, chart.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="flowchart" viewBox="0 0 {_fmt(width)} {_fmt(height)}" '
        f'width="{_fmt(width)}" height="{_fmt(height)}" role="img" aria-label="Decision tree: {escape(rs.situation(sid).title)}" '
        f'font-family="Helvetica, Arial, sans-serif" font-size="{FONT}" style="--natural-width: {_fmt(width)}px">',
        # one marker per chart, named for its situation: ids are unique in a booklet of many charts
        f'<defs><marker id="arrow-{escape(sid)}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>',
    ]
    arrow = escape(sid)
    for e in chart.edges:
        d = "M" + " L".join(f"{_fmt(x)},{_fmt(y)}" for x, y in _route(boxes, e))
        out.append(f'<path d="{d}" fill="none" stroke="#333" stroke-width="1.2" marker-end="url(#arrow-{arrow})"/>')
    for key in sum(chart.layers, []):
        b = boxes[key]
        if b.kind == "waypoint":
            continue
        attrs = _BOX_ATTRS[b.kind, b.dead]
        cls = b.kind + (" dead" if b.dead else "")
        out.append(f'<g class="{cls}"><rect x="{_fmt(b.x - b.w / 2)}" y="{_fmt(b.y)}" width="{_fmt(b.w)}" height="{_fmt(b.h)}" {attrs}/>')
        for i, line in enumerate(b.lines):
            weight = ' font-weight="bold"' if b.kind == "ruling" and i == 0 else ""
            out.append(f'<text x="{_fmt(b.x)}" y="{_fmt(b.y + PAD + 9 + i * LINE)}" text-anchor="middle"{weight}>{escape(line)}</text>')
        out.append("</g>")
    for lab in chart.labels:
        out.append(f'<g class="answer"><rect x="{_fmt(lab.x)}" y="{_fmt(lab.y)}" width="{_fmt(lab.w)}" height="{_fmt(lab.h)}" fill="#fff"/>'
                   + "".join(f'<text x="{_fmt(lab.x + lab.w / 2)}" y="{_fmt(lab.y + 11 + i * LABEL_H)}" text-anchor="middle" '
                             f'font-style="italic">{escape(line)}</text>' for i, line in enumerate(lab.lines)) + "</g>")
    out.append("</svg>")
    return "\n".join(out)
