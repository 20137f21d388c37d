"""Surface forms of a record: dashboard-screenshot captions and sentences in the user's words.

Split from :mod:`adamm.eval.devset.history`: how a value is written (durations as "6 h 36 min",
"6h36m", "396 min" or "6:36", money, percentages, labels and their variants, the caption and
sentence layouts) is the part of the history an extractor is tested on, and it reads best on
its own. The styles are listed in the history module's docstring.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any, Callable

from adamm.eval.devset.model import Domain, Field, default_domains, format_day


def _hours(minutes: int, style: str) -> str:
    h, m = divmod(minutes, 60)
    if style == "minutes":
        return f"{minutes} min"
    if style == "colon":
        return f"{h}:{m:02d}"
    if style == "decimal" and minutes % 3 == 0:
        return f"{minutes / 60:.2f}".rstrip("0").rstrip(".") + " h"
    if style == "compact":
        return f"{h}h{m:02d}m" if h and m else f"{h}h" if h else f"{m}m"
    return f"{h} h {m} min" if h and m else f"{h} h" if h else f"{m} min"


def _minutes(minutes: int, style: str) -> str:
    h, m = divmod(minutes, 60)
    if style == "compact" and h:
        return f"{h}h{m:02d}m" if m else f"{h}h"
    if style in ("spaced", "colon", "decimal") and h:  # h:mm is ambiguous for workouts
        return f"{h} h {m} min" if m else f"{h} h"
    return f"{minutes} min"


def _money(amount: float, rng: random.Random) -> str:
    num = f"{amount:,.2f}" if amount >= 1000 and rng.random() < 0.7 else f"{amount:.2f}"
    return rng.choice((f"${num}", f"USD {num}", f"{num} dollars", f"${num}"))


class Fmt:
    """Formats values of one record; one duration style for the whole record."""

    def __init__(self, rng: random.Random, allow_colon: bool) -> None:
        self.rng = rng
        styles = ["spaced", "compact", "minutes", "decimal"] + (["colon"] if allow_colon else [])
        self.duration = rng.choice(styles)
        self.pct_space = rng.random() < 0.3

    def __call__(self, f: Field, value: Any) -> str:
        if f.kind == "text":
            return str(value)
        if f.unit == "h":
            return _hours(int(round(float(value) * 60)), self.duration)
        if f.unit == "min":
            return _minutes(int(value), self.duration)
        if f.unit == "USD":
            return _money(float(value), self.rng)
        if f.unit == "%":
            return f"{value} %" if self.pct_space else f"{value}%"
        number = f"{value:.1f}" if f.kind == "float" else str(value)
        if f.unit is None:
            return number
        if f.unit == "km" and self.rng.random() < 0.3:
            return f"{number}km"
        return f"{number} {f.unit}"


def _caption_label(rng: random.Random, f: Field) -> str:
    choices = [lab for lab in f.labels if lab[:1].isupper()] or list(f.labels)
    return rng.choice(choices)


_TITLES = {
    "sleep": ("Sleep", "Sleep summary", "Sleep report"),
    "glucose": ("CGM daily summary", "Glucose", "Glucose summary"),
    "expenses": ("Card payment", "Payment", "Transaction"),
    "workouts": ("Run summary", "Workout", "Outdoor run"),
    "games": ("Match result", "League match", "Game summary"),
}


def _items(rng: random.Random, dom: Domain, values: dict[str, Any], fmt: Fmt) -> list[tuple[str, str]]:
    """(label, formatted value) pairs of a caption; a game score may be one "Score 3-1" item."""
    items: list[tuple[str, str]] = []
    merge_score = dom.name == "games" and "score_for" in values and "score_against" in values \
        and rng.random() < 0.5
    for f in dom.fields:
        if f.name not in values:
            continue
        if merge_score and f.name == "score_against":
            continue
        if merge_score and f.name == "score_for":
            dash = rng.choice(("-", "–"))
            items.append(("Score", f"{values['score_for']}{dash}{values['score_against']}"))
            continue
        items.append((_caption_label(rng, f), fmt(f, values[f.name])))
    return items


def _lower(label: str) -> str:
    """``Resting HR`` -> ``resting HR``; acronyms (``HRV``) stay as they are."""
    return label[0].lower() + label[1:] if label[1:2].islower() else label


def render_caption(rng: random.Random, dom: Domain, values: dict[str, Any], day: date, dated: bool) -> tuple[str, str]:
    """(style, caption text) of a dashboard screenshot."""
    fmt = Fmt(rng, allow_colon=True)
    items = _items(rng, dom, values, fmt)
    title = rng.choice(_TITLES.get(dom.name, (dom.name.replace("_", " ").capitalize(),)))
    when = format_day(day, long=rng.random() < 0.3)
    styles = ["caption-dots", "caption-pipes", "caption-lines"] + (["caption-sentence"] if dated else [])
    style = rng.choice(styles)
    if style == "caption-dots":
        body = " · ".join(f"{lab} {val}" for lab, val in items)
        head = f"{title} for {when} · " if dated else ""
        return style, head + body
    if style == "caption-pipes":
        head = f"{title} for {when}" if dated else title
        return style, f"{head} — " + " | ".join(f"{lab}: {val}" for lab, val in items)
    if style == "caption-lines":
        head = f"{title} for {when}" if dated else title
        return style, "\n".join([head] + [f"{lab}: {val}" for lab, val in items])
    body = ", ".join(f"{_lower(lab) if i else lab} {val}" for i, (lab, val) in enumerate(items))
    return style, f"Screenshot of a {title.lower()} screen for {when}: {body}"


def _join(parts: list[str]) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _sleep_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    total = f("total_sleep") if "total_sleep" in v else None
    if when is None:
        lead = rng.choice(("Slept {t} last night", "Last night I slept {t}", "Total sleep last night: {t}"))
    elif when == "yesterday":
        lead = rng.choice(("Forgot to log yesterday's sleep: {t} total", "Yesterday's sleep: total sleep {t}"))
    else:
        lead = rng.choice(("Catching up: on {d} I slept {t}", "Sleep for {d}: total {t}"))
    lead = lead.format(t=total, d=when) if total else f"Sleep for {when or 'today'}:"
    rest = []
    if "deep_sleep" in v:
        rest.append(rng.choice(("deep sleep {}", "{} of deep sleep")).format(f("deep_sleep")))
    if "resting_heart_rate" in v:
        rest.append(rng.choice(("resting HR {}", "resting heart rate {}")).format(f("resting_heart_rate")))
    if "sleep_score" in v:
        rest.append(rng.choice(("score {}", "sleep score {}")).format(f("sleep_score")))
    if "hrv" in v:
        rest.append(f"HRV {f('hrv')}")
    return f"{lead}, {_join(rest)}." if rest else f"{lead}."


def _glucose_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    lead = ("CGM today" if when is None else "Yesterday's CGM" if when == "yesterday" else f"CGM for {when}")
    parts = []
    if "time_in_range" in v:
        parts.append(rng.choice(("{} in range", "time in range {}")).format(f("time_in_range")))
    if "average_glucose" in v:
        parts.append(rng.choice(("average glucose {}", "avg glucose {}")).format(f("average_glucose")))
    if "lows" in v:
        parts.append(rng.choice(("{} lows", "lows: {}")).format(f("lows")))
    return f"{lead}: {_join(parts)}."


def _expense_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    amt, cat, mer = f("amount"), v.get("category"), v.get("merchant")
    at = f" at {mer}" if mer else ""
    to = f" to {mer}" if mer else ""
    catp = f", category {cat}" if cat else ""
    if when is None:
        return rng.choice((
            f"Spent {amt}{at}{catp}.",
            f"Paid {amt}{to}{catp}.",
            f"Expense: {amt}{at}{catp}.",
        ))
    if when == "yesterday":
        return rng.choice((f"Yesterday I spent {amt}{at}{catp}.", f"Forgot one from yesterday: {amt}{at}{catp}."))
    return rng.choice((f"On {when} I paid {amt}{to}{catp}.", f"Missed an expense from {when}: {amt}{at}{catp}."))


def _workout_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    dist, dur = f("distance"), f("duration")
    hr = ""
    if "average_heart_rate" in v:
        hr = rng.choice((", avg HR {}", ", average heart rate {}", "; avg heart rate was {}")).format(
            f("average_heart_rate"))
    if when is None:
        lead = rng.choice((f"Ran {dist} in {dur}", f"Evening run: {dist} in {dur}",
                           f"Did a run today: {dist} in {dur}"))
    elif when == "yesterday":
        lead = rng.choice((f"Yesterday I ran {dist} in {dur}", f"Forgot to log yesterday's run: {dist} in {dur}"))
    else:
        lead = f"On {when} I ran {dist} in {dur}"
    return f"{lead}{hr}."


def _game_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    res, sf, sa, opp = v["result"], v["score_for"], v["score_against"], v["opponent"]
    score = f"{sf}-{sa}"
    if when is None:
        tail = rng.choice((" today", " tonight", ""))
        pre = ""
    elif when == "yesterday":
        tail, pre = "", "Yesterday "
    else:
        tail, pre = "", f"On {when} "
    if res == "won":
        s = rng.choice((f"we won {score} against the {opp}{tail}!", f"we won {score} vs the {opp}{tail}."))
    elif res == "lost":
        s = rng.choice((f"we lost {score} to the {opp}{tail}.", f"we lost {score} against the {opp}{tail}."))
    else:
        s = f"we played the {opp}{tail}, it ended in a {score} draw."
    text = pre + s
    return text[0].upper() + text[1:]


_SENTENCES = {
    "sleep": _sleep_sentence, "glucose": _glucose_sentence, "expenses": _expense_sentence,
    "workouts": _workout_sentence, "games": _game_sentence,
}


def _generic_sentence(dom: Domain, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    lead = dom.name.replace("_", " ").capitalize()
    lead += " today" if when is None else " yesterday" if when == "yesterday" else f" for {when}"
    return f"{lead}: " + ", ".join(f"{fd.labels[0].lower()} {f(fd.name)}" for fd in dom.fields if fd.name in v) + "."


def render_sentence(rng: random.Random, dom: Domain, values: dict[str, Any], when: str | None) -> str:
    fmt = Fmt(rng, allow_colon=False)  # "slept 6:45" carries neither label nor unit
    by_name = {fd.name: fd for fd in dom.fields}

    def f(name: str) -> str:
        return fmt(by_name[name], values[name])

    # the hand-written sentences know the built-in fields; a changed field set gets the generic one
    if _BUILTIN_FIELDS.get(dom.name) == frozenset(by_name):
        return _SENTENCES[dom.name](rng, values, f, when)
    return _generic_sentence(dom, values, f, when)


_BUILTIN_FIELDS = {d.name: frozenset(f.name for f in d.fields) for d in default_domains()}

