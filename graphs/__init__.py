"""Graph wiring only: ``ingest`` and ``query``, compiled with the ids used in langgraph.json."""
