"""The offline (``rules``) planner, as the query loop calls it: intents to tools, names by
similarity, dates and conditions by pattern.

It reads a question the way the tools are organized, one module a step:

* the **intent** (:mod:`~adamm.nodes.rules.plan_intent`) decides the tool and operator;
* the **target** (:mod:`~adamm.nodes.rules.plan_targets`, over the table descriptions of
  :mod:`~adamm.nodes.rules.plan_columns`) is the (table, column) whose words, units and sampled
  values best match the question's remaining words (:mod:`~adamm.nodes.rules.plan_words`);
* **filters** (:mod:`~adamm.nodes.rules.plan_filters`) come from the normalized periods,
  comparisons with a quantity and the values and subsets the question names; a value or an
  event said once in conversation (:mod:`~adamm.nodes.rules.plan_events`) is looked up first;
* the **plan** and the verdict on its results (:mod:`~adamm.nodes.rules.plan_steps`), and the
  arguments of each step (:mod:`~adamm.nodes.rules.plan_instantiate`).

When no column matches well the question goes to retrieval: the rules backend does not guess a
table. Each function returns plain data (plan steps, call arguments), and instantiation reads
earlier results, so the progressive loop works the same way as with a model. This module holds
no logic of its own: it names what the query graph (:mod:`adamm.nodes.query`) calls.
"""

from __future__ import annotations

from adamm.nodes.rules.plan_instantiate import instantiate
from adamm.nodes.rules.plan_intent import Intent, detect_intent
from adamm.nodes.rules.plan_steps import make_plan, reflect

__all__ = ["Intent", "detect_intent", "instantiate", "make_plan", "reflect"]
