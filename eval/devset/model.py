"""The development history's data model: record types, their fields, and the ground truth.

Split from :mod:`adamm.eval.devset.history` so that what a record *is* (a domain and its
fields, a :class:`TruthRecord`, a :class:`DevSet`, and how its observed day is named) sits
below everything that generates, renders or asks about records: the value draws, the surface
forms, the history generator and the question generator all read these, and none of them
imports another to get them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from adamm.stores.records import Round

DEFAULT_START = date(2025, 3, 3)

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


@dataclass(frozen=True)
class Field:
    """One attribute of a domain, as the extractor should end up naming it."""

    name: str  #: canonical snake_case name, e.g. "total_sleep"
    unit: str | None  #: canonical unit ("h", "bpm", "%", "USD", "km", "min", ...) or None
    kind: str  #: "float" | "int" | "text"
    labels: tuple[str, ...]  #: the ways the label is written (mild variants only)
    starts_at: int = 0  #: index of the domain's first record (by observed day) logging it
    optional: float = 0.0  #: probability that a record omits this field


@dataclass(frozen=True)
class Domain:
    name: str
    fields: tuple[Field, ...]
    every_days: float  #: cadence: one record every ``every_days`` days

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"domain {self.name!r} has no field {name!r}")


@dataclass
class TruthRecord:
    round_id: str
    domain: str
    day: date  #: observed date (may be before the round's date)
    values: dict[str, float | int | str]  #: canonical field name -> canonical value
    style: str = ""  #: how the record was rendered (see the module docstring)


@dataclass
class DevSet:
    rounds: list[Round]  #: time order, ``order`` 0..n-1
    truth: list[TruthRecord]  #: one per observing round, in round order
    domains: tuple[Domain, ...]
    chatter_round_ids: list[str]
    seed: int = 0
    days: int = 0
    start: date = DEFAULT_START

    def round(self, round_id: str) -> Round:
        for r in self.rounds:
            if r.round_id == round_id:
                return r
        raise KeyError(round_id)

    def domain(self, name: str) -> Domain:
        for d in self.domains:
            if d.name == name:
                return d
        raise KeyError(name)


def default_domains(days: int = 60, hrv_from: float = 0.5) -> tuple[Domain, ...]:
    """The five built-in record types for a history of ``days`` days.

    ``hrv`` joins the sleep records at ``hrv_from`` of the sleep history (the middle, by
    default). With all-time supports, schema evolution needs ``ext-conf = (n - starts_at) / n
    >= θe = 0.8``, so a field starting mid-history never joins its schema; pass
    ``hrv_from <= 0.2`` for a history in which it should.
    """
    sleep_every = 1.0
    return (
        Domain("sleep", (
            Field("total_sleep", "h", "float", ("Total sleep", "total sleep", "Total", "Sleep")),
            Field("deep_sleep", "h", "float", ("Deep sleep", "deep sleep", "Deep")),
            Field("resting_heart_rate", "bpm", "int",
                  ("Resting heart rate", "resting heart rate", "Resting HR", "resting HR")),
            Field("sleep_score", None, "int", ("Sleep score", "sleep score", "Score", "score")),
            Field("hrv", "ms", "int", ("HRV", "hrv", "Heart rate variability"),
                  starts_at=max(1, int(int(days / sleep_every) * hrv_from))),
        ), sleep_every),
        Domain("glucose", (
            Field("time_in_range", "%", "int", ("Time in range", "time in range", "TIR", "In range", "in range")),
            Field("average_glucose", "mg/dL", "int",
                  ("Average glucose", "average glucose", "Avg glucose", "avg glucose", "Avg. glucose")),
            Field("lows", None, "int", ("Lows", "lows", "Low events", "low events")),
        ), 2.0),
        Domain("expenses", (
            Field("amount", "USD", "float", ("Amount", "amount")),
            Field("category", None, "text", ("Category", "category")),
            Field("merchant", None, "text", ("Merchant", "merchant")),
        ), 1.5),
        Domain("workouts", (
            Field("distance", "km", "float", ("Distance", "distance", "Dist.")),
            Field("duration", "min", "int", ("Duration", "duration", "Time", "time")),
            Field("average_heart_rate", "bpm", "int",
                  ("Average heart rate", "average heart rate", "Avg HR", "avg HR", "Average HR", "avg heart rate"),
                  optional=0.15),
        ), 2.5),
        Domain("games", (
            Field("result", None, "text", ("Result", "result")),
            Field("score_for", None, "int", ("Score for", "score for", "Goals for", "Score", "score")),
            Field("score_against", None, "int",
                  ("Score against", "score against", "Goals against", "Score", "score")),
            Field("opponent", None, "text", ("Opponent", "opponent")),
        ), 7.0),
    )


def format_day(d: date, long: bool = False) -> str:
    """``Mar 4`` (or ``March 4``): how records name an observed date."""
    month = MONTHS[d.month - 1]
    return f"{month if long else month[:3]} {d.day}"
