"""Training quizzes for floor judges, drawn from the scenarios that answer published questions.

A quiz item is a scenario with a `published:` question and a recorded outcome (whose hands are
dead, what happens to the game, who pays whom how much, or the points): its story is told, the
judge answers each part in the prompts' own forms (seats by number, initial or name), and each
part is marked against the key, which is the scenario's recorded outcome. `check` replays every
item and lists the keys the engine no longer agrees with.

    items.items(rs)            the quiz items of a ruleset (its own scenarios, and its bases' that it
                               still rules the same way)
    draw.draw(items, n, seed)  a session's stories: different situations, repeatable with a seed
    marking.parse_* / mark     a judge's answers read and marked, part by part
    score.Score                the tally per part and per phase, and the situations to read again

Called by the command line (`referee quiz`, `referee test`), the judges' web page and the quiz
handout. Pure: it never imports cli/, web/ or the store (progress is kept by store/quiz.py).
"""
