"""Checks a scenario must pass before anything is written (as analytic_dev's generate.py does).

A gold answer is only as good as the rendering behind it, so the checks re-read the rendered
text rather than trusting the generator: every value of every record is in its round exactly
as written and reads back to the stored canonical value (miles to km, "1 h 12 min" to 72),
the observed day is recoverable from the round, and the scorer judges every gold sentence
right and an empty prediction wrong.
"""

from __future__ import annotations

import re
from typing import Any

from adamm.eval.invented import score
from adamm.eval.invented.dates import recoverable
from adamm.eval.invented.history import Scenario
from adamm.eval.invented.units import read_back


class InvalidScenario(AssertionError):
    pass


def _check(ok: bool, *what: Any) -> None:
    if not ok:
        raise InvalidScenario(" | ".join(str(w) for w in what))


def _present(text: str, form: str) -> bool:
    return re.search(r"(?<![\w.,])" + re.escape(form) + r"(?![\w])", text) is not None


def round_texts(scn: Scenario) -> dict[str, str]:
    """Round id -> what the user wrote and what the screenshots show."""
    return {r["round"]: " || ".join([r["user"], *r["image_caption"]]) for s in scn.sessions for r in s["dialogues"]}


def validate(scn: Scenario, qas: list[dict[str, Any]]) -> None:
    dom, texts = scn.domain, round_texts(scn)
    _check(8 <= len(scn.sessions) <= 12, scn.name, "sessions", len(scn.sessions))
    for s in scn.sessions:
        _check(6 <= len(s["dialogues"]) <= 10, scn.name, s["session_id"], "rounds", len(s["dialogues"]))
        for r in s["dialogues"]:
            _check(len(r["image_id"]) == len(r["input_image"]) == len(r["image_caption"]), r["round"], "images")
    _check(25 <= len(scn.records) <= 45, scn.name, "records", len(scn.records))
    days = sorted(r.day for r in scn.records)
    _check((days[-1] - days[0]).days >= 59 and len({(d.year, d.month) for d in days}) >= 3, scn.name, "span")
    for rec in scn.records:
        text = texts.get(rec.round)
        _check(text is not None, scn.name, "no round", rec.round)
        _check(recoverable(rec.day, scn.session_day(rec.round), text), scn.name, rec.round, "day", rec.day, text)
        for key, value in rec.values.items():
            shown = rec.shown[key]
            _check(_present(text, shown.text), scn.name, rec.round, key, shown.text, text)
            if isinstance(value, str):
                _check(shown.text == value, rec.round, key)
            else:
                _check(read_back(dom.num(key).measure, shown.text) == value, rec.round, key, shown.text, value)
    for fact in scn.facts:
        _check(fact.round in texts, scn.name, "fact round", fact.round)
        if fact.atype == "string":
            _check(str(fact.value) in texts[fact.round], fact.round, fact.value)
    keys = [f.key for f in dom.nums] + [c.key for c in dom.cats] + ([dom.entity.key] if dom.entity else [])
    seen = set()
    for q in qas:
        text = q["question"]
        _check(text not in seen, scn.name, "duplicate", text)
        seen.add(text)
        _check("_" not in text and not any(k in text for k in keys if "_" in k), scn.name, "snake_case", text)
        _check(bool(q["clue"]) and all(c in texts for c in q["clue"]), scn.name, "clue", text)
        if q["answer_type"] == "list":
            _check(bool(q["answer_value"]) and q["answer_value"] == sorted(set(q["answer_value"])), text)
        if q.get("candidates") and q["answer_type"] == "string":
            _check(q["answer_value"] in q["candidates"], text)
        if q.get("candidates") and q["answer_type"] == "list":
            _check(all(v in q["candidates"] for v in q["answer_value"]), text)
        _check(score.judge(q, q["answer"])[0], scn.name, "gold answer not judged right", text, q["answer"])
        _check(not score.judge(q, "")[0], scn.name, "empty prediction judged right", text)
