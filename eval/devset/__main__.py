"""``python -m adamm.eval.devset`` writes the development history, as ``python -m adamm.devset`` did
(the other commands are the modules': ``python -m adamm.eval.devset.questions``, ``.qa``, ``.score``)."""

from adamm.eval.devset.history import main

raise SystemExit(main())
