"""Layouts of a logged record: dashboard tiles, ``key: value`` lines, label after value, prose,
and a week view holding several records.

Split from the history generator because the layouts are what an extractor is measured on:
the same record reads ``Vrell 14 qz · Brosk: Ashvel``, ``vrell: 14 qz`` on its own line,
``14 qz vrell``, or "Did a trabbing session today, 14 qz of vrell, an Ashvel one.", with the
label lower-case, capitalised or upper-case, and now and then in its second spelling. Every
layout writes each value exactly as its :class:`~.units.Shown` text, which is what the
validator looks for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from adamm.eval.invented.dates import WEEKDAYS, Cue, d_mon, mon_d
from adamm.eval.invented.domain import Domain
from adamm.eval.invented.units import Shown

LAYOUTS = ("tiles", "lines", "after", "prose")
#: Other authors' layouts (``--styles``): a table with a header row over its value rows, and a
#: terse note of values alone where a unit or a known category says what each is.
STYLE_LAYOUTS = ("table", "terse")
ACKS = ("Logged.", "Got it, saved.", "Added to the log.", "Noted.", "Saved, thanks.", "In the log now.")


@dataclass
class Record:
    """One observation: canonical values (the truth) and the forms the round writes them in."""

    seq: int
    day: date
    values: dict[str, Decimal | str]  #: record key -> canonical value
    shown: dict[str, Shown]  #: record key -> as written
    round: str = ""
    session: str = ""
    layout: str = ""
    meta: dict[str, str] = field(default_factory=dict)


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


class _Labels:
    """One record's label spelling: a case style for all labels, the alias for some records."""

    def __init__(self, dom: Domain, rng: random.Random, cases: tuple[str, ...]) -> None:
        self.case = rng.choice(cases)
        self.alias = {f.key for f in dom.nums if f.alias and rng.random() < 0.35}
        self.dom = dom

    def __call__(self, key: str, label: str) -> str:
        alias = next((f.alias for f in self.dom.nums if f.key == key and key in self.alias), None)
        text = alias or label
        if self.case == "upper":
            return text.upper()
        if self.case == "title":
            return text[:1].upper() + text[1:]
        return text


def _items(dom: Domain, rec: Record) -> list[tuple[str, str, str]]:
    """(kind, key, label) of the record's present fields, in the domain's order."""
    out = [("num", f.key, f.label) for f in dom.nums if f.key in rec.shown]
    out += [("cat", c.key, c.label) for c in dom.cats if c.key in rec.shown]
    if dom.entity and dom.entity.key in rec.shown:
        out.append(("entity", dom.entity.key, dom.entity.label))
    return out


def tiles(dom: Domain, rec: Record, rng: random.Random, sep: str = " · ") -> str:
    lab = _Labels(dom, rng, ("title", "upper", "title"))
    parts = []
    for kind, key, label in _items(dom, rec):
        v = rec.shown[key].text
        parts.append(f"{lab(key, label)} {v}" if kind == "num" else f"{lab(key, label)}: {v}")
    return sep.join(parts)


def lines(dom: Domain, rec: Record, rng: random.Random, sep: str = "\n") -> str:
    lab = _Labels(dom, rng, ("lower", "title", "upper"))
    return sep.join(f"{lab(key, label)}: {rec.shown[key].text}" for _, key, label in _items(dom, rec))


def after(dom: Domain, rec: Record, rng: random.Random) -> str:
    lab = _Labels(dom, rng, ("lower", "lower", "title"))
    parts = []
    for kind, key, label in _items(dom, rec):
        v = rec.shown[key].text
        if kind == "num":
            parts.append(f"{v} {lab(key, label)}")
        elif kind == "cat":
            parts.append(f"{lab(key, label)} {v}")
        else:
            parts.append(f"{'with' if dom.entity and dom.entity.role == 'person' else 'at'} {v}")
    return rng.choice((", ", " · ", " / ")).join(parts)


def _all_items(dom: Domain, recs: list[Record]) -> list[tuple[str, str, str]]:
    """(kind, key, label) of the fields any of several records holds, the first record's first."""
    keys = list(_items(dom, recs[0]))
    for r in recs[1:]:
        keys += [x for x in _items(dom, r) if x not in keys]
    return keys


def _cell(rec: Record, key: str) -> str:
    return rec.shown[key].text if key in rec.shown else "—"


def table(dom: Domain, recs: list[Record], rng: random.Random, day: bool = False) -> str:
    """A header row of labels over one row of values per record ("Date | Vrell | Brosk")."""
    lab = _Labels(dom, rng, ("title", "upper"))
    keys = _all_items(dom, recs)
    sep = rng.choice((" | ", " ; "))
    head = sep.join((["Date"] if day else []) + [lab(key, label) for _, key, label in keys])
    rows = [sep.join(([_day_label(r.day, rng)] if day else []) + [_cell(r, key) for _, key, _ in keys]) for r in recs]
    return "\n".join([head, *rows])


def terse(dom: Domain, rec: Record, rng: random.Random) -> str:
    """Values alone where their unit or their category says what they are ("14 qz, 38 km,
    Ashvel"); a bare number keeps its label, the entity its preposition."""
    lab = _Labels(dom, rng, ("lower", "title"))
    parts = []
    for kind, key, label in _items(dom, rec):
        v = rec.shown[key].text
        if kind == "num":
            parts.append(v if dom.num(key).measure.symbol or dom.num(key).measure.kind in ("duration", "money")
                         else f"{lab(key, label)} {v}")
        elif kind == "cat":
            parts.append(v)
        else:
            parts.append(f"{'with' if dom.entity and dom.entity.role == 'person' else 'at'} {v}")
    return ", ".join(parts)


def _clause(dom: Domain, kind: str, key: str, label: str, v: str, rng: random.Random) -> str:
    if kind == "num":
        bare = not dom.num(key).measure.symbol
        forms = ([f"{label} was {v}", f"{v} {label}"] if bare
                 else [f"{v} of {label}", f"{label} was {v}", f"{label} came to {v}", f"{label} at {v}"])
        return rng.choice(forms)
    if kind == "cat":
        return rng.choice((f"{_article(v)} {v} one", f"{label} {v}", f"it was {v} for {label}"))
    return f"with {v}" if dom.entity and dom.entity.role == "person" else f"at {v}"


def prose(dom: Domain, rec: Record, cue: Cue, rng: random.Random) -> str:
    lab = _Labels(dom, rng, ("lower",))
    clauses = [_clause(dom, k, key, lab(key, label), rec.shown[key].text, rng) for k, key, label in _items(dom, rec)]
    rng.shuffle(clauses)
    when = {"today": f" {cue.text}", "none": "", "yesterday": " yesterday", "weekday": f" on {cue.text}",
            "explicit": f" on {cue.text}"}[cue.kind]
    opener = rng.choice((f"Did {_article(dom.kind)} {dom.thing}{when}", f"Had another {dom.thing}{when}",
                         f"Got {_article(dom.kind)} {dom.thing} in{when}"))
    body = ", ".join(clauses[:-1]) + (", and " if len(clauses) > 2 else " and ") + clauses[-1] if len(clauses) > 1 else clauses[0]
    return f"{opener}: {body}."


def lead(dom: Domain, cue: Cue, rng: random.Random) -> str:
    """The words before a typed block, naming the day."""
    if cue.kind == "today":
        return f"{cue.text[:1].upper()}{cue.text[1:]}'s {dom.thing}:"
    if cue.kind == "yesterday":
        return rng.choice((f"Yesterday's {dom.thing}:", "From yesterday:"))
    if cue.kind == "weekday":
        return rng.choice((f"{cue.text}'s {dom.thing}:", f"From {cue.text}:"))
    if cue.kind == "explicit":
        return rng.choice((f"{cue.text}:", f"For {cue.text}:", f"{dom.thing[:1].upper()}{dom.thing[1:]}, {cue.text}:"))
    return rng.choice((f"New {dom.thing}:", "Logging this one:", f"{dom.thing[:1].upper()}{dom.thing[1:]}:"))


def screenshot_words(cue: Cue, rng: random.Random) -> str:
    """What the user types under a screenshot."""
    if cue.kind == "today":
        return rng.choice((f"Screenshot from {cue.text}.", f"Here's {cue.text}'s."))
    if cue.kind == "yesterday":
        return rng.choice(("This one's from yesterday.", "Yesterday's screenshot."))
    if cue.kind == "weekday":
        return rng.choice((f"This one's from {cue.text}.", f"{cue.text}'s card."))
    return rng.choice(("Here's the card.", "Screenshot.", "Another one for the log."))


def single(dom: Domain, rec: Record, cue: Cue, layout: str, image: bool, rng: random.Random) -> tuple[str, str | None]:
    """(user text, caption or None) of a round holding one record."""
    if layout == "prose":
        return prose(dom, rec, cue, rng), None
    if layout == "table":
        text = table(dom, [rec], rng)
        if image:
            return screenshot_words(cue, rng) if cue.kind != "explicit" else "Here's the card.", \
                f"Screenshot of the {dom.app} {dom.noun} table{' for ' + cue.text if cue.kind == 'explicit' else ''}:\n{text}"
        return f"{lead(dom, cue, rng)}\n{text}", None
    if layout == "terse":
        return f"{lead(dom, cue, rng)} {terse(dom, rec, rng)}.", None
    if image:
        body = {"tiles": tiles, "after": after}.get(layout)
        text = body(dom, rec, rng) if body else lines(dom, rec, rng, sep="; ")
        dated = f" for {cue.text}" if cue.kind == "explicit" else ""
        caption = rng.choice((f"Screenshot of the {dom.app} app's {dom.noun} card{dated}: {text}.",
                              f"Phone screenshot, {dom.app} summary{dated} — {text}."))
        return ("Here's the card." if cue.kind == "explicit" else screenshot_words(cue, rng)), caption
    body = {"tiles": tiles, "after": after, "lines": lines}[layout](dom, rec, rng)
    sep = "\n" if layout == "lines" else " "
    return f"{lead(dom, cue, rng)}{sep}{body}", None


def _day_label(d: date, rng: random.Random) -> str:
    return rng.choice((f"{WEEKDAYS[d.weekday()][:3]} {mon_d(d)}", d.isoformat(), d_mon(d), mon_d(d)))


def _day_heads(recs: list[Record], sent: date | None, rng: random.Random) -> list[str]:
    """Column heads naming each record's day: weekday names when the days fall in the six days
    before the round (which they then name without doubt), else dates."""
    if sent is not None and all(0 <= (sent - r.day).days <= 6 for r in recs) and rng.random() < 0.5:
        return [WEEKDAYS[r.day.weekday()][:3] for r in recs]
    form = rng.choice((mon_d, d_mon))
    return [form(r.day) for r in recs]


def day_columns(dom: Domain, recs: list[Record], sent: date | None, rng: random.Random) -> str:
    """A table whose columns are days: a head row of days, then one row per field ("Vrell |
    14 qz | 12 qz"), a dash where a record lacks the field."""
    lab = _Labels(dom, rng, ("title", "upper"))
    keys = _all_items(dom, recs)
    sep = rng.choice((" | ", " ; "))
    corner = rng.choice(("", "Field", "Metric"))
    head = (corner + sep if corner else "") + sep.join(_day_heads(recs, sent, rng))
    rows = [(lab(key, label) + (sep if corner else " ")) + sep.join(_cell(r, key) for r in recs) for _, key, label in keys]
    if not corner:  # "Vrell 14 qz | 12 qz": the label shares the first value's cell, which must hold one
        rows = [row for row, (_, key, _) in zip(rows, keys) if key in recs[0].shown]
        if len(rows) < len(keys):
            return day_columns(dom, recs, sent, rng)
    return "\n".join([head, *rows])


def day_series(dom: Domain, recs: list[Record], sent: date | None, rng: random.Random) -> str:
    """One line per field, each value opening with its day ("Vrell: Mon 14 qz, Tue 12 qz"); a
    record that lacks the field is left out of that line."""
    lab = _Labels(dom, rng, ("title", "lower"))
    heads = _day_heads(recs, sent, rng)
    sep = rng.choice((", ", " · "))
    lines = []
    for _, key, label in sorted(_all_items(dom, recs), key=lambda item: item[0] != "num"):  # measured fields first
        parts = [f"{h} {r.shown[key].text}" for h, r in zip(heads, recs) if key in r.shown]
        lines.append(f"{lab(key, label)}: {sep.join(parts)}")
    return "\n".join(lines)


def week(dom: Domain, recs: list[Record], image: bool, rng: random.Random, styles: bool = False,
         sent: date | None = None) -> tuple[str, str | None]:
    """(user text, caption or None) of a week view: one line per record, each with its date (or,
    with ``styles``, sometimes a table with a date column under one header row, a table whose
    columns are days, or one line per field with a day before each value). ``sent``: the
    round's day, which weekday names count back from."""
    if styles and rng.random() < 0.3:
        text = day_columns(dom, recs, sent, rng) if rng.random() < 0.5 else day_series(dom, recs, sent, rng)
        if image:
            return rng.choice(("The week at a glance.", f"My {dom.app} week.")), f"Screenshot of the {dom.app} week:\n{text}"
        return rng.choice(("This week so far:", f"My {dom.kind} week:")) + "\n" + text, None
    if styles and image and rng.random() < 0.35:
        # one screenshot per record, undated; the user's words name the days in order
        days = [rng.choice((mon_d(r.day), d_mon(r.day), r.day.isoformat())) for r in recs]
        said = ", ".join(days[:-1]) + " and " + days[-1]
        caps = [f"Screenshot of the {dom.app} {dom.noun} card: {tiles(dom, r, rng)}" for r in recs]
        return rng.choice((f"{said}:", f"Catching up - {said}.", f"The cards for {said}, in order.")), caps  # type: ignore[return-value]
    if styles and rng.random() < 0.5:
        text = table(dom, recs, rng, day=True)
        if image:
            return rng.choice(("The week as a table.", f"My {dom.app} export.")), f"Screenshot of the {dom.app} export:\n{text}"
        return rng.choice(("Export from the week:", f"Pasting my {dom.kind} sheet:")) + "\n" + text, None
    rows = [f"{_day_label(r.day, rng)} — {tiles(dom, r, rng, sep=', ')}" for r in recs]
    if image:
        caption = f"Screenshot of the {dom.app} week view, one row per {dom.noun}: " + "; ".join(f"'{x}'" for x in rows) + "."
        return rng.choice(("Catching up: the week view.", f"My {dom.app} week so far.", "The last few, all in one.")), caption
    head = rng.choice((f"Catching up on the last few {dom.nouns}:", f"This week's {dom.kind} log:", "Backlog from the week:"))
    return head + "\n" + "\n".join(rows), None
