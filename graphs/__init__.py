"""Graph wiring only: ``ingest``, ``query`` and ``forget`` (and the ``flat`` evaluation baseline),
compiled with the ids used in langgraph.json."""
