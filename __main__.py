"""``python -m adamm`` is the ``adamm`` command."""

from adamm.cli import main

raise SystemExit(main())
