"""``python -m adamm.eval.invented --out DIR [--seed N] [--scenarios K]`` writes an invented data set."""

from adamm.eval.invented.generate import main

raise SystemExit(main())
