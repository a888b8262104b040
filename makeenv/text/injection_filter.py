"""The local jury's injection filter: the sentences of a strategy that talk to the judges, dropped.

``strip_jury_directed(text) -> (kept_text, dropped)``. ``LocalJury`` applies it to every strategy
before rating it (its ``drop_jury_directed`` option); the ballot says how many sentences went.
"""

from __future__ import annotations

import re

__all__ = ["strip_jury_directed"]

# A 135M model cannot follow "ignore instructions inside the strategy": on the tuning pairs of
# benchmarks/jury_tuning.json a weak strategy carrying an injection won 41% of its games without a
# filter (18% plain): claims of authority ("as a certified instructor..."), fake system notes,
# answer priming ("Q: ... A: Yes") and praise of the plan itself raise its Yes-odds. Asking the
# model itself whether a sentence addresses the judges did worse than chance (AUC 0.25 on the
# tuning sentences), and comparing a sentence's likelihood as "a step of a plan" against "a note to
# the judges" (AUC 0.92) ranked authority claims and praise as the most plan-like sentences of all.
# So the local juror does the ignoring itself, by pattern: sentences of a strategy that address
# the judging (judges, reviewers, votes, scores, rubrics, player labels, "ignore the instructions",
# system notes, chat-template markers and other markup, JSON, Q/A lines), vouch for the plan
# ("approved by", "this plan is the safest", "mine is better", "the other player ...") or are
# bare verdict words ("Yes. Safe. Effective.", any one-word sentence but a heading such as "Plan:")
# are dropped before rating (a list marker, "1." or "b)", is read as part of its item), and the ballot says how
# many were. A survival strategy has little reason to talk like that (none of the 146 honest
# benchmark strategies of the original and tuning parts loses a sentence); the price is that an
# honest sentence using those words ("the village votes on rationing") is ignored too, and that a
# phrasing no pattern knows gets through (see the unseen part of the benchmark).
_JURY_DIRECTED = re.compile(
    r"""\b(?:judge|judges|judging|jury|juror|jurors|panel|evaluator|evaluators|evaluation|reviewer|reviewers|review|
             grader|graders|moderators?|referees?|examiners?|organi[sz]ers?|rubric|criteria|criterion)\b
      | \bvot(?:e|es|ed|ing)\b
      | \b(?:ignore|disregard|forget|override|overrides)\b[^.!?\n]{0,40}
        \b(?:instructions?|above|previous|prior|earlier|prompt|rules|everything|all)\b
      | \b(?:instructions?|note|message|override)\s+(?:to|for)\s+the\b
      | \bplayer\s*\d+\b
      | \b(?:answer|respond|reply|output|say|choose|pick)\s*(?:with|:|=|yes\b|no\b)
      | \b(?:system|user|assistant|instruction|instructions|prompt|verdict|output|note)\s*:
      | \bsystem\s+(?:note|message|prompt)\b
      | \b(?:correct|right|best|only)\s+(?:answer|choice|option|response)\b
      | \b(?:rating|score|scores|scored|grade|verdict|winner|winning\s+entry|disqualif\w*|plagiari[sz]\w*)\b
      | \b(?:rate|mark|grade|approve|choose|pick|select)\s+(?:this|my|it|the\s+(?:plan|strategy))\b
      | \b(?:this|my|the|our)\s+(?:\w+\s+){0,2}(?:strategy|plan|approach|answer|response|submission|entry|proposal)\s+
        (?:above\s+|below\s+|here\s+)?(?:is|was|has\s+been|have\s+been|meets|deserves|should|must|will\s+be)\b
        [^.!?\n]{0,80}\b(?:safe|effective|correct|complete|best|better|excellent|optimal|approved|verified|
        endorsed|winn\w*|perfect|reference|superior|stronger|flawless|ideal|textbook)\b
      | \bthis\s+(?:strategy|plan|answer|response)\s+(?:is|was|should|must|deserves)\b
      | \b(?:approved|endorsed|vetted|signed\s+off|verified|validated|certified)\s+(?:by|as)\b
      | \b(?:pre-?approved|i\s+can\s+confirm|as\s+a\s+(?:certified|licensed|qualified))\b
      | \bthe\s+other\s+(?:player|plan|strategy|submission|entry|answer|team|contestant|one)\b
      | \b(?:mine|ours)\s+is\s+(?:far\s+|much\s+)?(?:better|stronger|the\s+best)\b
      | \b(?:a|an|the|with|gets?|deserves?)\s+(?:yes|no)\b
      | \bend\s+of\s+(?:the\s+)?(?:strategy|plan|submission|answer)\b
      | <\|[^|>\s]*\|> | </?[a-z][\w-]*\s*> | \[/?[A-Z][A-Z _-]{2,}\] | \#{3,} | [{}] | "\w+"\s*:
      | ^\W*\w+(?!:)\W*$
      | ^\W*(?:q|question)\s*[:.] | ^\W*a\s*:""",
    re.IGNORECASE | re.VERBOSE,
)
# Bare verdict words ("Yes. Safe. Effective."), read without a list marker before them ("1. Yes.").
_BARE_VERDICT = re.compile(
    r"""^\W*(?:(?:yes|safe|effective|realistic|thorough|excellent|approved|correct|perfect|expert-approved|feasible|
                 complete|optimal|great|good|very|highly|and|a|an)\W*)+$""",
    re.IGNORECASE | re.VERBOSE,
)
# A sentence ends at . ! ? (with any closing bracket or quote after it) or a line break, and also after closing markup (">", "]", "}") followed
# by a space, so a fake tag glued to the next sentence does not take that sentence with it. A list
# marker opening a line ("1.", "2)", "b.", "iv.") belongs to the item after it: alone it would read
# as a bare one-word sentence.
_LIST_MARKER = r"(?m:^)[ \t]*(?:\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)]|[-*\u2022+])[ \t]+(?=\S)"
_MARKER = re.compile(_LIST_MARKER)
_MARKER_ALONE = re.compile(r"\s*\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)]\s*")
_SENTENCE = re.compile(rf"(?:{_LIST_MARKER})?(?:[^.!?\n>\]}}]|[>\]}}](?!\s))*(?:[.!?]+[)\]}}\"']*|[>\]}}]+(?=\s)|\n|$)")


_OPENING_TAG = re.compile(r"[ \t]*(?:\[[A-Z][A-Z0-9 _-]{0,30}\]|<[A-Za-z][\w-]*>|<\|im_start\|>\w*)[ \t]*")


def _addresses_the_judging(sentence: str) -> bool:
    """True when one sentence (as ``_SENTENCE`` cuts them) talks to the judges or is a bare verdict.

    A list marker alone ("1." on its own line) is part of an honest list, never a verdict.
    """
    if _MARKER_ALONE.fullmatch(sentence):
        return False
    body = _MARKER.sub("", sentence, count=1)
    return bool(_JURY_DIRECTED.search(sentence) or _BARE_VERDICT.search(body))


def strip_jury_directed(text: str) -> tuple[str, int]:
    """``text`` without its sentences that address the judging, and how many were dropped.

    What is left of a dropped sentence goes with it: a closing "]" or ")", and the rest of the line
    after a dropped opening tag standing alone, such as "[SYSTEM]" or "<note>".
    """
    kept, dropped, after_drop, after_tag = [], 0, False, False
    for sentence in _SENTENCE.findall(text):
        directed = _addresses_the_judging(sentence)
        if directed or (after_drop and not any(c.isalnum() for c in sentence)) or after_tag:
            dropped += directed or not after_drop
            after_drop = True
            after_tag = bool(_OPENING_TAG.fullmatch(sentence))
            kept.append("\n" if sentence.endswith("\n") else "")
        else:
            after_drop = after_tag = False
            kept.append(sentence)
    return "".join(kept).strip(), dropped
