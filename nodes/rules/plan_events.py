"""Questions that lean on something said once in conversation, not in the records: a stated value
to compare with ("above the target my doctor set") or an event that bounds the records ("since
my GP raised my dose").

Either needs an EventLocate step first - the value or the day is found where it was said - and
then bounds or filters the analytic step with it.
"""

from __future__ import annotations

import re
from typing import Any

from adamm.nodes.rules.plan_words import mask
from adamm.nodes.rules.spans import find_spans
from adamm.stores.quantities import convert, dimension_of
from adamm.stores.timeexpr import Period

#: "over the cap my coach set", "within my target": a comparison with a value said elsewhere.
FACT_REF = re.compile(
    r"\b(?P<cmp>(?:more|less|higher|lower)\s+(?:\w+\s+)?than|above|below|over|under|within|exceed\w*|beyond|past|"
    r"miss(?:ed|es)?|outside(?:\s+of)?|inside|meet(?:s|ing)?|met|hit(?:s|ting)?|reach(?:ed|es|ing)?|beat(?:s|ing)?)\s+"
    r"(?P<fact>(?:the\s+|my\s+)?(?:[\w'’-]+\s+){0,3}?(?:cap|target|goal|limit|allowance|budget|threshold|maximum|minimum))\b"
    r"(?P<tail>(?:\s+(?:that\s+)?(?:my|the)\s+[\w'’]+\s+(?:set|sets|gave|gives|pays|wants|recommended|suggested))?)", re.I)


_EVENT_BOUND = re.compile(r"\b(?P<rel>since|after|before)\s+(?P<clause>(?:my|the|i|we|our)\b[^,?;]*?\b(?:[a-z]+ed|began|begun|"
                          r"went|got|took|made|set|gave|began|put|left|moved|switched|changed|broke|won|lost|came)\b[^,?;]*)", re.I)


#: "before or after my GP raised my dose": the two sides of the event's day, not one bound.
AROUND = re.compile(r"\bbefore\s+or\s+after\b|\bafter\s+or\s+before\b", re.I)


def event_bound(question: str, periods: list[Period]) -> re.Match[str] | None:
    """"since my GP raised my dose", "before I switched bikes": records bounded by the day of an
    event said once in conversation (not a date the question gives: "since March" is a period)."""
    m = _EVENT_BOUND.search(mask(question, [p.span for p in periods]))
    if m and _SINCE_THE_START.match(m.group("clause").strip()):
        return None  # "since I started (logging)": every record, no event to find
    return m if m and not m.group("clause").strip().isdigit() else None


_SINCE_THE_START = re.compile(r"(?:i|we)\s+(?:first\s+)?(?:started|began|begun)(?:\s+(?:logging|tracking|recording|keeping\s+track|"
                              r"noting|writing\s+(?:it|them)\s+down|this|here|the\s+log)(?:\s+(?:it|them|this|that|my\s+[a-z-]+))?)?\s*[?.!]?$|the\s+(?:start|beginning)\b", re.I)


def stated_fact(question: str) -> re.Match[str] | None:
    """A comparison with a value said elsewhere, not in the question ("above the target my
    doctor set", "over my coach's cap"): the value must be looked up first."""
    m = FACT_REF.search(question)
    if m is None or re.search(r"\d", m.group(0)):
        return None
    return m


def fact_conditions(question: str, texts: list[str], table: dict[str, Any]) -> list[dict[str, Any]]:
    """The comparison with a stated value as filters: the value read from the retrieved words
    (the first quantity whose unit a column of the table has; a blood-pressure pair sets both
    columns of the pair), the operator from the question's words."""
    m = stated_fact(question)
    if m is None:
        return []
    word = m.group("cmp").lower()
    op = "<=" if word.startswith(("within", "meet", "met", "hit", "inside")) else "<" if word.startswith(("less", "lower", "below", "under")) else ">"
    if word.startswith(("meet", "met", "hit", "reach", "beat")) and re.search(r"(?:goal|minimum)$", m.group("fact"), re.I):
        op = ">="  # a goal is reached by a value at least as high; a cap or limit is met by staying under it
    # "within the target" is every value under it; "over the cap" / "missed the target" any value past it
    fact = m.group("fact").lower().split()
    noun, said = fact[-1], {w for w in fact[:-1] if w not in ("the", "my")}
    # the words where the fact was said ("my goal is 7 ds of kronk") before a record's values
    texts = sorted(texts, key=lambda t: re.search(rf"\b{re.escape(noun)}\b", t, re.I) is None)
    for text in texts:
        spans = [sp for sp in find_spans(text) if sp.num is not None]
        pair = [sp for sp in spans if sp.role in ("first", "second")]
        if pair:
            cols = {c["name"]: c for c in table["columns"] if dimension_of(c.get("unit")) == "pressure"}
            named = [n for n in ("systolic", "diastolic") if n in cols]
            if len(named) == 2 and len(pair) >= 2:
                if word.startswith(("within", "meet", "met", "hit", "inside", "miss", "outside")):
                    # "under 135/85": within is below it, a miss is 135 or more; "at most 135/85":
                    # within is up to it, a miss is above
                    strict = re.search(r"\b(?:under|below|less\s+than|lower\s+than)\s*$", text[:pair[0].start], re.I) is not None
                    within = word.startswith(("within", "meet", "met", "hit", "inside"))
                    op = ("<" if strict else "<=") if within else (">=" if strict else ">")
                both = [{"column": named[0], "op": op, "value": pair[0].num}, {"column": named[1], "op": op, "value": pair[1].num}]
                # within a "135/85" target is both under it; past it is either over it
                return both if op.startswith("<") else [{"any": both}]
        # "my kronk goal": the column the fact names, where one does
        columns = [c for c in table["columns"]
                   if said & {w for n in (c["name"], *(c.get("aliases") or [])) for w in n.split("_")}] or table["columns"]
        for sp in spans:
            for c in columns:
                if sp.unit and c.get("unit") and (sp.unit == c["unit"] or dimension_of(c["unit"]) == sp.dimension):
                    value = sp.num
                    if sp.unit != c["unit"]:
                        try:
                            value = convert(sp.num, sp.unit, c["unit"])
                        except (ValueError, KeyError):
                            continue
                    return [{"column": c["name"], "op": op, "value": round(value, 6)}]
    return []
