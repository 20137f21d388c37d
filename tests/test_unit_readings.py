"""A unit written alike for two quantities ("4 oz", "35m") takes the reading the memory's own
fields support (``nodes/extract.py``'s ``_read_units``): pure, no storage."""

from __future__ import annotations

import numpy as np

from adamm.nodes.extract import _read_units
from adamm.nodes.rules.observe import Draft
from adamm.stores.attributes import AttributeResolver, Known


def _draft(attribute: str, value: float, unit: str | None, dimension: str | None) -> Draft:
    return Draft(attribute=attribute, value_num=value, value_text=None, unit=unit, dimension=dimension,
                 raw=f"{value} {unit}", source="user_text[0:4]")


def _resolver(known: list[Known], sets: list[tuple[frozenset[str], int]]) -> AttributeResolver:
    return AttributeResolver(known, lambda texts: np.zeros((len(texts), 4)), 0.85, sets)


def test_ounces_alone_in_a_log_of_millilitres_are_fluid_ounces() -> None:
    r = _resolver([Known("volume", "mL", "volume", "float")], [(frozenset({"volume"}), 5)])
    (d,) = _read_units(r, [_draft("weight", 4, "oz", "mass")])
    assert (d.attribute, d.unit, d.dimension, d.value_num) == ("volume", "fl oz", "volume", 4)


def test_ounces_stay_a_weight_where_the_memory_weighs_things() -> None:
    r = _resolver([Known("weight", "g", "mass", "float"), Known("volume", "mL", "volume", "float")],
                  [(frozenset({"weight", "crop"}), 6), (frozenset({"volume"}), 1)])
    (d,) = _read_units(r, [_draft("weight", 11, "oz", "mass")])
    assert (d.unit, d.dimension) == ("oz", "mass")


def test_a_bare_m_beside_fields_that_come_with_minutes_is_minutes() -> None:
    known = [Known("thrn", "q", "unit:q", "float"), Known("murl", "dv", "unit:dv", "float"),
             Known("duration", "min", "duration", "float"), Known("distance", "m", "distance", "float")]
    sets = [(frozenset({"thrn", "murl", "duration"}), 9), (frozenset({"thrn", "distance"}), 1)]
    group = [_draft("thrn", 13.6, "q", "unit:q"), _draft("murl", 3.3, "dv", "unit:dv"), _draft("distance", 35, "m", "distance")]
    out = _read_units(_resolver(known, sets), group)
    assert (out[2].attribute, out[2].unit, out[2].dimension) == ("duration", "min", "duration")
    assert out[:2] == group[:2]


def test_metres_beside_fields_that_come_with_distances_stay_metres() -> None:
    known = [Known("pace", "min/km", "pace", "float"), Known("duration", "min", "duration", "float"),
             Known("distance", "km", "distance", "float")]
    sets = [(frozenset({"pace", "distance", "duration"}), 9)]
    group = [_draft("pace", 5.2, "min/km", "pace"), _draft("distance", 400, "m", "distance")]
    assert _read_units(_resolver(known, sets), group)[1].unit == "m"


def test_aligning_two_layouts_does_not_depend_on_the_order_companions_were_seen() -> None:
    """Companions come from iterating sets, whose order is the process's hash seed: the pairing
    of one layout's labels with the other's must not follow it, or a resumed run (another
    process) would merge other fields than the first."""
    from collections import Counter

    from adamm.stores.attributes import _aligned

    dims = {"a1": "mass", "a2": "mass", "b1": "mass", "b2": "mass", "rpe": None}
    together = {("a1", "b2"), ("b2", "a1")}
    theirs = Counter({"b1": 3, "b2": 2, "rpe": 4})
    forward = _aligned(Counter({"a1": 3, "a2": 1, "rpe": 2}), theirs, dims, together)
    backward = _aligned(Counter({"a2": 1, "a1": 3, "rpe": 2}), theirs, dims, together)
    assert forward == backward and set(forward) <= set(theirs)


def test_a_label_known_as_an_alias_in_its_unit_beats_a_name_an_aside_coined_in_another_unit() -> None:
    # "thrn" is recorded in q and also written "threnn"; an aside once coined a ``threnn`` in dovs
    known = [Known("thrn", "q", "unit:q", "float", aliases={"threnn"}), Known("threnn", "dov", "unit:dov", "float")]
    r = _resolver(known, [(frozenset({"thrn"}), 9), (frozenset({"threnn"}), 1)])
    assert r.resolve("threnn", "unit:qelt") == "thrn"  # "Threnn 18.6 qelts": qelts shorten to q
    assert r.resolve("threnn", "unit:dov") == "threnn"  # the aside's own unit keeps its name
    assert r.resolve("threnn", None) == "threnn"  # nothing agrees: the name as written


def test_a_bare_number_under_a_known_or_shortened_name_is_that_field() -> None:
    # a whiteboard column headed "thr" / "mrl" over numbers without their unit
    known = [Known("thrn", "q", "unit:q", "float", aliases={"thr"}), Known("murl", "dv", "unit:dv", "float"),
             Known("sael", None, None, "text")]
    r = _resolver(known, [(frozenset({"thrn", "murl", "sael"}), 9)])
    assert r.resolve("thr", None) == "thrn"  # a known alias, the field's own unit
    assert r.resolve("mrl", None) == "murl"  # letters left out
    assert r.resolve("mrl", "unit:dv") == "murl"
    assert r.resolve("mrl", "mass") is None  # a weight is no murl, however it is spelt
