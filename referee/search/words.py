"""The words of a table dispute, reduced to search terms: the game's slang and word forms.

`terms(text)` turns what a judge types ("she threw in after the false mahj") into the terms the
search index holds (`throwin`, `error`, `mahjong`). Both the situations and the query go through
it, so the two sides always agree (typos are the index's business: see `search`). The tables here hold the game's own vocabulary, not the words
of any one situation: a synonym belongs here only if a player would use it for the same thing
at any table.
"""
from __future__ import annotations

import re
from functools import lru_cache

MAX_CHARS = 2000  # a judge types a sentence; past this nothing typed could change the ranking

_WORD = re.compile(r"[a-z0-9]+")

# Phrases the table says as one thing, matched word by word after the text is split (so the
# cost stays linear): "threw in" is not "threw", "no jokers" is jokerless. In a rule, "a|b" is
# either word, "[a|b]" may be left out, "~" is any one word (may be left out); in the output
# "..." keeps the words matched, "...>" all but the first ("put out three jokers" keeps "three
# jokers", not "put"), "$1" the first of them, and an empty output drops the phrase.
_TILE = "white|soap|green|red|dragon|dragons|flower|flowers|bam|bams|crak|craks|dot|dots|joker|north|south|east|west"
_PHRASE_RULES: list[tuple[str, str]] = [
    ("threw|throw|throws|thrown|throwing|tossed|toss [her|my|their|his|our|the|all] [hand|tiles] in", "throwin"),
    ("laid|lay|lays|laying|put|puts|putting|dumped|dump [out|down] her|my|their|his|our|all tiles|hand|rack", "throwin"),
    ("push|pushed|pushes|pushing ~ ~ out", "serve"),
    ("self picked|pick|picks|drawn|drew|draw|draws|pickd", "selfpick"),
    # "no jokers in the charleston" forbids passing them: not a jokerless hand
    ("no|zero joker|jokers in|during [the] charleston|courtesy|pass|passes|passing", "... pass"),
    ("no|zero|without joker|jokers", "jokerless"),
    ("not any joker|jokers", "jokerless"),
    # "four tiles for a pung" is an exposure of the wrong size, not a count of tiles or a fifth player
    ("two|three|four|five|six|seven tiles|jokers for|in|as a|an|her|his|the|my pung|kong|quint|sextet|pair|exposure", "size pung"),
    # "two of us threw in" counts players at a table of four: not the "two players" of a double claim,
    # and no more is "two players threw in" or "two exposed their hands" after a false Mah Jongg
    ("two|both|three [players|people|ladies|others|of] [us|them] threw|throw|tossed|toss [their|her|our|his|all] [hands|tiles|hand] in", "player throwin"),
    ("two|both|three [players|people|ladies|others|of] [us|them] exposed|showed|laid|put|dumped|turned [down|up|out|over] their|her|our|his|all hands|tiles|hand", "player throwin"),
    ("two|both of us|them", "player"),
    # ... but "three of us are dead" is three of the four
    ("three of us", "three player"),
    # "the real rule" is the League's rule, not a real (natural) tile
    ("real|official|actual rule|rules", "rule"),
    # "her hand is done" is complete, not a stop word
    ("is|was|are|were [already] done", "complete"),
    # "who decides" asks whose ruling it is, not a change of mind
    ("who|which decides|decide|decided", "judge"),
    # the clock, not the wall: "time ran out" is time called, and so is the end of a round
    ("time ran|runs|run|running|is|was out|up", "time call"),
    ("out of time", "time call"),
    ("round|rounds ends|ended|end|over", "time call"),
    # a hand's value as the card prints it: "a jokerless 25 hand"
    ("25|30|35|40|45|50|55|60|65|70|75|80|85 [cent|point] hand|hands", "pay value hand"),
    # "before the deal was done" is during the deal
    ("before|until the|a deal|dealing [was|is|were|had] [been] finished|done|over|complete|completed|ended", "during deal"),
    # exposures that show what hand she plays make it an obvious hand
    ("exposure|exposures|exposed show|shows|showing|showed [her|the|which|what] hand|hands", "... obvious"),
    # a joker never stands in a single or a pair: one there is an error in the hand
    ("joker|jokers in|for|as her|his|a|the|my|their news|pair|pairs|single|singles", "... error"),
    # what the card "needs" is how a hand is printed, not a tile a player is waiting for
    ("card needs|need|needed|requires|require|required|wants|calls", "card"),
    # "14 tiles in her rack" counts her tiles; the rack is only where they are
    ("11|12|13|14|15|16|eleven|twelve|thirteen|fourteen|fifteen|sixteen tiles|tile in|on her|his|my|their|the rack|racks", "count tile"),
    # a tap or click twice is a double click, not two discards in a row
    ("tap|taps|tapped|tapping|click|clicks|clicked|clicking [on] [a|the|it|my|her] [tile] twice", "double click"),
    # tiles that "are showing" or "are discarded" are out of play: gone for whoever needs them
    ("are|were [all|already] showing|visible|discarded|gone", "gone"),
    # "three dot" is a tile, as "3 dot" is: its number says nothing about the case
    ("one|two|three|four|five|six|seven|eight|nine dot|dots|bam|bams|bamboo|bamboos|crak|craks|crack|cracks|character|characters|circle|circles", "tile"),
    # "what was she thinking" is a sigh, not "i think you're dead"
    ("what is|was|were|are she|he|they|you thinking", ""),
    # two claims on one discard told apart: "one for a pung and one for mahj"
    ("one|other [is|was|called|calls|wants|wanted] [it] for mahjong|mahj|maj|mj|mahjongg", "... claimsplit"),
    # "two pungs" counts groups: not "a pung with two jokers", nor the two players of a double claim
    ("two|three|four|both pungs|kongs|pongs", "pung"),
    # "what happens to her tiles": where a hand's tiles go, not what happened
    ("what happens|happened|happen to", "fate"),
    # "a pair of east", "threw an east": the wind tile, not the seat or the dealer
    ("pair|pairs|pung|pungs|kong|kongs|quint|quints|single|singles of east|west|north|south|easts|wests|norths|souths", "$1 wind"),
    ("an east", "wind"),
    # what "i need" is the speaker's own hand, not a tile a player is waiting for that is gone or thrown
    ("i|we need|needed", ""),
    # "can she still discard": what a player may still do, as a dead hand may or may not
    ("may|can|could|does|do|must ~ ~ ~ still discard|discards|pick|picks|call|calls|play|plays|do|draw|draws|claim|claims|get|take|exchange|swap|redeem|be", "... maystill"),
    # "the last tile for mahjong" is the one tile a hand still needs, not the wall's last tile
    ("last|final tile|one for|to mahjong|mahj|maj|mj|mahjongg|win", "winning tile mahjong"),
    # "when the live one runs out": a wall, said as "one"
    ("live one", "live wall"),
    # "is she dead yet": has the hand come to where it can no longer be completed; "i was not dead
    # yet" denies a call of dead, and stays as typed
    ("not|never dead yet", "..."),
    ("dead yet", "dead longer completed"),
    # what a case is not ("rather than a pung", "neither for Mah Jongg") is no word of it
    ("rather than a|an pung|pungs|kong|kongs|exposure [or] [more|larger]", ""),
    ("neither|not for mahjong|mahj|maj|mj|mahjongg", ""),
    # "she won by taking a joker": a Mah Jongg made by a joker exchange
    ("win|wins|won|winning by|with taking|grabbing|getting|exchanging|swapping|trading|redeeming|exchange|swap|exchanges|swaps", "mahjong exchange"),
    # "more exposures" are further groups, not too many tiles
    ("more exposure|exposures|pung|pungs|kong|kongs|quint|quints", "...>"),
    # "then used it to call": what she did next, said as its purpose
    ("used|using it|them|that to", ""),
    ("no one", "nobody"),
    ("not anyone", "nobody"),
    ("no winner", "nobody win"),
    ("back to back", "row"),
    ("in a row", "row"),
    ("one after [the] other", "row"),
    ("right after", "row"),
    ("out of turn", "outofturn"),
    ("not|before her|his|my|their turn", "outofturn"),
    ("mid game", "play"),
    ("halfway|partway|midway [through|into] [the|a] [game]", "play"),
    # "off East's discard" names whose discard it was, not the dealer's special case
    ("off|on east|south|west|north|her|his|my|your|their discard|discards", "discard"),
    # once East has discarded, the game is under way: not the deal's "before East's first discard"
    ("after|since [the] east|dealer|the|her [first|1st] discard|discarded|discards|threw", "play"),
    ("middle of the|a game", "play"),
    ("during [the] game|play", "play"),
    ("how much", "pay"),
    ("how many cents", "pay"),
    ("next|closer|nearer|closest|nearest in turn|line", "nextinturn"),
    # a player "further around" the table from the discarder is later in turn
    ("further|farther around|along", "nextinturn"),
    ("first|second|last right|left|across", "... charleston pass"),
    ("supposed to", "wrong"),
    ("should have", "wrong"),
    ("ought to", "wrong"),
    ("instead of", "wrong"),
    ("put|puts|putting|give|gave|given|gives|take|took|taken|takes|taking|want|wants|wanted|get|got|getting|grab|grabbed|have|switch ~ ~ back", "... takeback"),
    ("does|do|did|would|will|should that|it|this [still] count", "valid"),
    ("wo|would|will|did not let", "refuse"),
    ("wont|wouldnt|didnt let", "refuse"),
    ("said|says|saying no", "refuse"),
    ("one|a|1 [tile] off|away", "error"),
    ("ran|run|runs|running|used|use|using out|up", "runout"),
    ("no more tiles", "runout"),
    ("out of tiles", "runout"),
    ("joker exchange|swap|trade|redemption|exchanges|swaps", "exchange joker"),
    ("put|puts|putting up", "expose"),
    ("own pick|picks|draw|draws|drawn", "selfpick"),  # "mahjong on her own pick"
    ("how long", "late"),
    # exposures that fit no hand on the card: one thing, whichever words say it
    ("fit|fits|fitting|match|matches|matching nothing", "fit nohand"),
    ("nothing fits|matches|works", "fit nohand"),
    ("no [such] hand|hands", "nohand"),
    # an "open" hand is one the card marks X, exposures allowed: not a hand still open to her
    ("open|exposed hand|hands", "expose hand"),
    # a player who "misread the card" holds exposures no hand on it has
    ("misread|misreads|misreading|misunderstood|misunderstands|misunderstanding|misinterpreted [the|her|his|this|their] card", "fit nohand card"),
    ("not any hand|hands", "nohand"),
    # "no fours are left": the tiles she needs are gone
    ("no|none ~ [are|is|were] left|remaining", "gone"),
    ("mahjong was|is|were wrong|invalid|bad|false|incorrect", "mahjong error"),
    ("not agree|agreeing", "disagree"),  # "how long do you have to call": until when a call is in time
    (f"called|calls|named|names the|her|that tile|discard a|an {_TILE}", "name ..."),
    ("but it|that was|is [a] different|another|other tile|one", "name error"),
    ("not supposed to be out|served|pushed [out] [yet]", "serve early"),
    # a tile's number, not a count: "a number pung", "kongs of different numbers"
    ("number|numbers pung|pungs|kong|kongs|quint|quints|sextet|sextets", "tile pung"),
    ("same|different|another|other|odd|even|two number|numbers", "tile"),
    # "odd pungs" are pungs of odd numbers, not a pung with an odd tile in it
    ("odd|even|odds|evens pung|pungs|pong|pongs|kong|kongs", "tile pung"),
    # "she says her hand is fine": the player called dead disputes it
    ("says|said|insists|insisted|claims|claimed ~ ~ ~ fine|alive|ok|okay|good", "deny"),
    # exposures sit on top of the rack; a tile "in" the rack is hidden
    ("on [top] [of] her|his|my|their|the rack|racks", "expose"),
    ("who get|gets|should", "call"),
    ("cent|cents|dollar|dollars|point|points hand|hands", "pay value hand"),
    ("before|while ~ ~ ~ ~ used|ran|run up|out", "early"),
    ("before|while ~ ~ ~ was|is|were|had finished|done|empty|over|gone|exhausted|depleted", "early"),
    # "aren't you dead" is said to a player: a challenge. "is she dead" after a story is the
    # judge asking what the story's error costs, which the story decides, not a challenge
    ("are|were [not] you dead", "ask dead"),
    ("is|was she|he|they|her|his [hand] dead", "isdead"),
    # "she's dead with two pungs up" tells that the hand is dead already: what a dead hand may do
    ("she|he|they [is|was|are|were] [already] dead", "dead hand"),
    ("expose|exposed|showing|showed|face in|on the wall", "flip wall"),
    ("before anyone|anybody|someone|somebody|east discarded|threw|discards|throws", "before first discard"),
    ("extra|fifth|5th|spare player|person|lady|one", "fifth player"),
    ("sitting|sits|sat|sit out", "sit bettor"),
    ("two|three|four|both hands", "$1 player"),
    ("go|goes|went|going|gone out", "mahjong"),
    ("go|goes|went|going|gone mahjong|mahj|maj|mj|mahjongg", "declare mahjong"),
    ("player|one|person|lady before|after her|him|me|you|them", "previous player"),
    ("take|took|takes|taking|grab|grabbed|grabs [up] [the|a|that|her|his|my|this] discard|discards", "... call"),
    ("take|took|taken|taking|takes|grab|grabbed|grabs|grabbing [the|a|her|my|that|their] joker|jokers", "... exchange"),
    ("get|getting|got the|her|his|their|that|somebody|someone|anybody|anyone|everybody joker|jokers", "... exchange"),
    ("swap|swapped|swaps|swapping|trade|traded|trades|trading|exchange|exchanged|exchanges|exchanging [it|that|them|one|this] for|into [the|a|her|my|that|their] joker|jokers", "... exchange"),
    (f"called|calls|call|calling|named it|that [~] {_TILE}", "name ..."),
    (f"said|says|saying|yelled [it|that] [was|is] [a] [~] {_TILE}", "name ..."),
    (f"discarded|discard|discards|threw|thrown|throws|tossed as [a|an] [~] {_TILE}", "name ..."),
    ("turn|turns|turned|turning [face] over|up", "flip"),
    # "she called a flower but it was a white": a second tile name after "but" is what it really was
    (f"but [it|that|she|he|the] [tile|discard] was|is|threw|discarded|tossed|said|says|called|named [it|really|actually] [a|an|the] [~] {_TILE}", "name error ..."),
    # the speaker's (or a named seat's) turn, so the one who acted was not the one in turn
    ("when|while it was|is my|your|south|west|north|east|someone|somebody [else] turn", "outofturn"),
    ("picked|pick|picks|drew|draw|draws|drawn [her|his|my|their|the|a] winning tile|one", "selfpick ..."),
    ("face up", "flip"),
    # a tile that fell on the floor was seen, like one knocked face up; "the floor" alone is the discards
    ("fell|fall|falls|fallen|falling|dropped|drop|drops [off|over|down] on|onto|to the floor|ground", "flip"),
    ("put|puts|putting|laid|lay|lays out|down [a|an|her|two|three|four|five] pung|pungs|kong|kongs|quint|jokers|joker", "expose ...>"),
]

Slot = tuple[frozenset[str] | None, bool]  # (words, or None for any word; may be left out)


def _compile(rule: str) -> list[Slot]:
    out: list[Slot] = []
    for part in rule.split():
        optional = part.startswith("[") or part == "~"
        part = part.strip("[]")
        out.append((None if part == "~" else frozenset(part.split("|")), optional))
    return out


_RULES: dict[str, list[tuple[list[Slot], list[str]]]] = {}
for _rule, _out in _PHRASE_RULES:
    _slots = _compile(_rule)
    for _first in _slots[0][0] or ():
        _RULES.setdefault(_first, []).append((_slots[1:], _out.split()))


def _match(words: list[str], i: int, slots: list[Slot]) -> int:
    """The end of a match of `slots` from words[i], or -1 (rules are short: backtracking is cheap)."""
    if not slots:
        return i
    (allowed, optional), rest = slots[0], slots[1:]
    if i < len(words) and (allowed is None or words[i] in allowed):
        end = _match(words, i + 1, rest)
        if end >= 0:
            return end
    return _match(words, i, rest) if optional else -1


def _phrased(words: list[str]) -> list[tuple[str, str, bool]]:
    """(what was typed, the word it stands for, whether it is said in addition to the typed words)."""
    out: list[tuple[str, str, bool]] = []
    i = 0
    while i < len(words):
        for slots, made in _RULES.get(words[i], ()):
            end = _match(words, i + 1, slots)
            if end >= 0:
                typed = " ".join(words[i:end])
                for m in made:
                    if m in ("...", "...>"):
                        out.extend((w, w, False) for w in words[i + (m == "...>"):end])
                    else:
                        out.append((typed, words[i] if m == "$1" else m, "..." in made or "...>" in made))
                i = end
                break
        else:
            out.append((words[i], words[i], False))
            i += 1
    return out


_MAHJONG = re.compile(r"\bmah[\s-]*jon+g+s?\b")
_NOT = re.compile(r"n't\b")
_CLITIC = re.compile(r"'(?:s|m|re|ll|d|ve)\b")

STOP = frozenset("""
a an the of from to for on in into it its her hers his him he she they them their i me my we us
our you your is was were be been being am are has have had do does did done and or but so if
then than that this these those there here what which who whom how when where why just now
still also very really about at by as with up out off over can could would should will shall
may might must let lets get got one ones someone somebody anyone anybody everyone everybody
some any all each other whole ok okay oh oops well ca wo happen happens happened happening
south west north once gets getting make makes making fine
sort kind something anything thing things like maybe actually basically around
find finds found finding
""".split())

# Irregular and special word forms, before suffixes are stripped. A word may stand for several
# terms ("misnamed" is both a name and a mistake).
_FORMS: dict[str, tuple[str, ...]] = {
    **{w: ("mahjong",) for w in ("mahj", "maj", "mj", "mahjong", "mahjongg", "mahjongs", "mahjonged")},
    **{w: ("discard",) for w in ("threw", "throw", "throws", "thrown", "throwing", "tossed", "toss")},
    **{w: ("pick",) for w in ("drew", "draw", "draws", "drawn", "drawing", "pulled", "pull", "pulls")},
    **{w: ("take",) for w in ("took", "taken", "grabbed", "grab", "grabs", "grabbing")},
    **{w: ("say",) for w in ("said", "says", "saying", "told", "tell", "yelled", "shouted", "announced", "announce", "announces")},
    **{w: ("win",) for w in ("won", "win", "wins", "winning", "winner", "winners")},
    **{w: ("dead",) for w in ("die", "dies", "died", "dying", "death", "dead", "deadly")},
    **{w: ("lay",) for w in ("laid", "lay", "lays", "laying")},
    **{w: ("see",) for w in ("saw", "seen", "see", "sees", "seeing", "looked", "look", "looks", "looking", "peek", "peeked", "peeking")},
    **{w: ("give",) for w in ("gave", "given", "give", "gives")},
    **{w: ("run",) for w in ("ran", "run", "runs", "running")},
    **{w: ("exchange",) for w in ("swap", "swapped", "swaps", "swapping", "trade", "traded", "trades", "trading",
                                  "exchange", "exchanged", "exchanges", "exchanging", "redeem", "redeemed",
                                  "redeems", "redeeming", "redemption")},
    **{w: ("change",) for w in ("switch", "switched", "switches", "switching", "change", "changed", "changes", "changing")},
    **{w: ("expose",) for w in ("exposure", "exposures", "exposed", "expose", "exposes", "exposing")},
    **{w: ("check",) for w in ("check", "checked", "checking", "checks", "verify", "verified", "verifying", "verification")},
    **{w: ("declare",) for w in ("declare", "declared", "declares", "declaring", "declaration", "declarer")},
    **{w: ("error",) for w in ("error", "errors", "false", "falsely", "bogus", "invalid", "mistake", "mistaken",
                               "mistakenly", "erroneous", "incorrect", "incorrectly")},
    **{w: ("name", "error") for w in ("misnamed", "misname", "misnames", "misnaming", "misnamer", "miscalled", "misnomer")},
    **{w: ("serve",) for w in ("served", "serve", "serves", "serving")},
    **{w: ("call",) for w in ("call", "called", "calls", "calling", "caller", "callers", "claim", "claimed", "claims",
                              "claiming", "claimer", "claimant")},
    **{w: ("pay",) for w in ("pay", "paid", "pays", "paying", "payment", "payments", "payout", "owe", "owes", "owed",
                             "owing", "settle", "settled", "cost", "costs", "charge", "charges", "charged", "charging", "cent", "cents", "dollar", "dollars",
                             "money", "quarter", "quarters")},
    **{w: ("count",) for w in ("count", "counted", "counts", "counting", "number", "eleven", "twelve", "thirteen",
                               "fourteen", "fifteen", "sixteen", "11", "12", "13", "14", "15", "16")},
    **{w: ("count", "many") for w in ("many", "extra", "more")},
    **{w: ("count", "few") for w in ("few", "fewer", "short", "missing", "less")},
    **{w: ("rack",) for w in ("rack", "racked", "racks", "racking", "ledge")},
    **{w: ("joker",) for w in ("joker", "jokers", "jkr", "jokr")},
    **{w: ("undo",) for w in ("undo", "undid", "reverse", "reversed", "revert", "unclaim")},
    **{w: ("tile",) for w in ("white", "soap", "green", "red", "dragon", "dragons", "flower", "flowers", "bam",
                              "bams", "bamboo", "bamboos", "crak", "craks", "crack", "cracks", "character",
                              "characters", "dot", "dots", "circle", "circles", "tile", "tiles")},
    **{w: ("not",) for w in ("not", "didnt", "dont", "doesnt", "cant", "cannot", "isnt", "wasnt", "hasnt",
                             "havent", "hadnt", "arent", "werent", "couldnt", "shouldnt", "never")},
    # "a kong of twos": a tile's number, not a count of players or tiles ("two of us", "two jokers")
    **{w: ("tile",) for w in ("ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                              "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "soaps")},
    # a hand's name on the card ("consec", "2468"): the judge is reading the card
    **{w: ("hand", "card") for w in ("consec", "consecutive", "2468", "369", "13579", "evens", "odds", "quints")},
    **{w: ("expose", "see") for w in ("show", "shows", "showed", "shown", "showing")},
    **{w: ("complete",) for w in ("finish", "finished", "finishes", "finishing", "completed", "completes", "completing")},
    **{w: ("own",) for w in ("own", "herself", "himself", "myself", "yourself", "themselves")},
    **{w: ("freeze",) for w in ("freeze", "freezes", "froze", "frozen", "freezing")},
    **{w: ("disagree",) for w in ("disagree", "disagrees", "disagreed", "disagreement")},
    **{w: ("click",) for w in ("click", "clicks", "clicked", "clicking", "tap", "taps", "tapped", "tapping")},
    "hot": ("obvious",),  # a "hot" tile is the one an obvious hand needs
    "replay": ("replay",), "restart": ("replay",), "redo": ("replay",), "redeal": ("replay",),
    "concealed": ("conceal",), "hidden": ("conceal",),
    "penalty": ("pay", "penalty"), "penalties": ("pay", "penalty"),
    **{w: ("pay", "point") for w in ("point", "points")},
    "quit": ("stop",), "quits": ("stop",), "stopped": ("stop",),
    "early": ("early",), "soon": ("early",), "premature": ("early",), "prematurely": ("early",),
    "late": ("late",), "later": ("late",),
    "mixed": ("mix",), "mixing": ("mix",), "mix": ("mix",), "jumbled": ("mix",),
    "dealer": ("east",), "worth": ("value",), "stuck": ("put",), "placed": ("put",), "place": ("put",),
    **{w: ("mind",) for w in ("mind", "decided", "decide", "decides", "deciding", "rethink", "rethought", "reconsidered")},
    **{w: ("not", "match") for w in ("mismatch", "mismatched", "mismatches", "unmatched")},
    **{w: ("pass",) for w in ("send", "sent", "sends", "sending")},
    **{w: ("player",) for w in ("person", "people", "persons", "lady", "ladies", "player", "players")},
    **{w: ("deny",) for w in ("deny", "denies", "denied", "denying", "insist", "insists", "insisted", "disputes",
                              "disputed", "dispute", "contest", "contested", "contests", "protest", "protested")},
    **{w: ("mumble",) for w in ("mumble", "mumbled", "mumbles", "mutter", "muttered", "mutters", "whisper",
                                "whispered", "murmured", "inaudible", "quietly")},
    **{w: ("flip",) for w in ("flip", "flips", "flipped", "flipping", "overturned", "fell", "fallen")},
    **{w: ("obvious",) for w in ("obvious", "obviously", "clearly", "clear", "plainly", "evident", "evidently")},
    # every group is a pung to the search; a quint or a sextet says its size too, which only some hands have
    **{w: ("pung",) for w in ("pung", "pungs", "pong", "kong", "kongs", "kang")},
    **{w: ("pung", "quint") for w in ("quint", "quints")},
    **{w: ("pung", "sextet") for w in ("sextet", "sextets")},
    **{w: ("natural",) for w in ("natural", "naturals", "real")},
    **{w: ("refuse",) for w in ("refuse", "refused", "refuses", "refusing", "wouldnt", "wont")},
    **{w: ("no",) for w in ("no", "without")},
    **{w: ("wrong", "instead") for w in ("instead",)},
}

_KEEP = frozenset(("news", "always", "yes", "bus", "across", "pass"))  # words the cut would spoil


def _cut(word: str) -> str:
    """The word without its inflection: named -> nam, tiles -> til, stopped -> stop, calls -> call."""
    if word in _KEEP:
        return word
    w = word
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes")):
        w = w[:-2]
    elif len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 4 and w.endswith("ed") and not w.endswith("eed"):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w != word and len(w) > 2 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]  # stopped -> stop, but called -> call
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # name and named, tile and tiles, meet here
    return w


# the game terms are cut like any typed word, so "take" typed and "took" meet at one term
_FORMS = {word: tuple(_cut(t) for t in made) for word, made in _FORMS.items()}


# numbers said as words that are only ever a tile's number at the table ("a seven crak"); two to
# six count players, tiles and groups too
_TILE_NUMBERS = frozenset(("seven", "eight", "nine"))


@lru_cache(maxsize=16384)
def _stem(word: str) -> tuple[str, ...]:
    if word in STOP:
        return ()
    forms = _FORMS.get(word)
    if forms is not None:
        return forms
    if word.isdigit() and len(word) == 1 or word in _TILE_NUMBERS:
        return ()  # a lone digit is a tile's number ("3 bam"), never what decides the situation
    if len(word) == 4 and word.startswith(("19", "20")) and word.isdigit():
        return ("year",)  # "2004", "2025": a year group on the card (or the card's year), whichever year
    return (_cut(word),)


def _words(text: str) -> list[tuple[str, str, bool]]:
    text = _MAHJONG.sub(" mahjong ", text[:MAX_CHARS].lower().replace("\u2019", "'"))
    text = _CLITIC.sub("", _NOT.sub(" not", text))  # "didn't" -> "did not", "she's" -> "she"
    return _phrased(_WORD.findall(text))


_LIGHT_STOP = frozenset("a an the of from to for on in it her his she is was and by at".split())
_SAME_GAME = frozenset(("mahj", "maj", "mj", "mahjongg"))
# Table slang for a false call: "bogus mahj" is the alias "false mahj" typed exactly, not a
# story to rank (ranked, the shorter three-handed case outscored the common one).
_SAME_AS_FALSE = frozenset(("bogus", "invalid", "phony", "fake", "erroneous", "incorrect"))


def tokens(text: str) -> tuple[str, ...]:
    """The plain words of `text`, for telling whether a judge typed a title or alias exactly.

    Only spelling is forgiven here ("Mah-Jongg" is "mahj"); every word with a meaning counts.
    """
    text = _MAHJONG.sub("mahjong", text[:MAX_CHARS].lower())
    found = (_FORMS.get(w, (w,))[0] if w in _SAME_GAME else "false" if w in _SAME_AS_FALSE else w
             for w in _WORD.findall(text))
    return tuple(w for w in found if w not in _LIGHT_STOP)


# A typed word that also points at a related term, counted for less (query side only): a win
# is usually a Mah Jongg, taking is usually picking, "across" is usually the Charleston pass.
_RELATED: dict[str, tuple[tuple[str, float], ...]] = {
    "win": (("mahjong", 0.6),),
    "say": (("name", 0.4), ("call", 0.3)),
    "across": (("charleston", 0.5), ("pass", 0.5)),
    "take": (("pick", 0.5),),
    "pung": (("expose", 0.5),),
    "give": (("pass", 0.4),),
    "want": (("call", 0.4),),
    "hand": (("player", 0.3),),
    "conceal": (("rack", 0.3),),
    "lose": (("pay", 0.6),),
    "isdead": (("dead", 0.4),),  # "..., is she dead?": what the story's error costs, which the story decides
}
RELATED = {_cut(word): tuple((_cut(t), w) for t, w in related) for word, related in _RELATED.items()}


def pieces(text: str) -> list[tuple[str, str, str, bool]]:
    """(what was typed, the word it stands for, search term, added) for each term of `text`.

    In order; reads MAX_CHARS characters at most. "threw in" is one piece ("threw in",
    "throwin", "throwin", False); "called it crak" keeps its words and adds "name" (added=True),
    a term that was not said next to its neighbours, so it makes no word pair with them.
    """
    return [(typed, w, t, added) for typed, w, added in _words(text) for t in _stem(w)]


def pairs(text: str) -> list[tuple[str, str]]:
    """(word, search term) for each term of `text`, in order."""
    return [(w, t) for _, w, t, _ in pieces(text)]


def terms(text: str) -> list[str]:
    """The search terms of `text`, in order."""
    return [t for _, t in pairs(text)]


def runs(text: str) -> list[frozenset[str]]:
    """The terms of each word of `text` in order, a stop word as an empty set: words next to each
    other here were next to each other as written ("jokers were redeemed" is no "joker exchange")."""
    return [frozenset(_stem(w)) for _, w, added in _words(text) if not added]
