"""The synthetic analytic development set: a long personal chat with exact ground truth.

A history generator, questions with computed golds, and two harnesses that measure adamm on
them. It lives under ``adamm.eval`` because it exists to evaluate (tests, benchmarks and
``adamm eval --dataset analytic`` read it), not to be part of the memory itself.

* :mod:`~adamm.eval.devset.history` - the history and its ground truth
  (``python -m adamm.eval.devset --seed 0 --days 60 --out dev.jsonl --truth truth.json``),
  built from :mod:`~adamm.eval.devset.model`, :mod:`~adamm.eval.devset.values`,
  :mod:`~adamm.eval.devset.surface` and :mod:`~adamm.eval.devset.chatter`;
* :mod:`~adamm.eval.devset.questions` - questions with exact answers
  (``python -m adamm.eval.devset.questions``), built from ``question_base`` and the
  ``question_*`` families, scored by :mod:`~adamm.eval.devset.grading`;
* :mod:`~adamm.eval.devset.qa` - QA accuracy per category and system
  (``python -m adamm.eval.devset.qa``);
* :mod:`~adamm.eval.devset.score` - the analytic tables against the ground truth
  (``python -m adamm.eval.devset.score``).

Nothing is imported here: ``adamm.eval.datasets`` reads the questions without loading the
harnesses (which load the memory facade), and ``python -m adamm.eval.devset.<module>`` runs a
module that the package has not imported already.
"""
