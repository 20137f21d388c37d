"""``python -m adamm.eval.devset`` writes the development history
(the other commands are the modules': ``python -m adamm.eval.devset.questions``, ``.qa``, ``.score``)."""

from adamm.eval.devset.history import main

raise SystemExit(main())
