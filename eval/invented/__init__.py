"""Analytic logging histories in invented vocabulary, in analytic_dev's format.

adamm's offline extractor has to find fields from recurrence, not from knowing a domain; these
histories test exactly that. Field names, units, categories and names are pseudo-words
("vrell 14 qz", "Brosk: Ashvel"), mixed with one real two-unit field (km/mi, min/h, kg/lb) and
sometimes money, rendered in several layouts between distractors, with questions whose gold
answers are computed exactly from the records.

* :mod:`~adamm.eval.invented.generate` - the command (``python -m adamm.eval.invented --out DIR``);
* :mod:`~adamm.eval.invented.words`, :mod:`~adamm.eval.invented.units`,
  :mod:`~adamm.eval.invented.domain` - the vocabulary, the measures and a domain;
* :mod:`~adamm.eval.invented.history`, :mod:`~adamm.eval.invented.render`,
  :mod:`~adamm.eval.invented.chatter`, :mod:`~adamm.eval.invented.dates` - sessions, layouts,
  distractors and facts, day cues;
* :mod:`~adamm.eval.invented.questions` with ``qbase`` and the ``q_*`` families - the QAs;
* :mod:`~adamm.eval.invented.validate` - the checks before writing;
* :mod:`~adamm.eval.invented.score` - the standalone scorer copied into every data set.

Nothing is imported here, so ``python -m adamm.eval.invented.score`` and the copied
``score.py`` run without loading the generator.
"""
