"""adamm: long-term multimodal memory for LangGraph agents.

Two views of one interaction history:

* **analytic memory** - attribute/value observations mined into SQL tables (Lookup, Filter,
  Compute, Rank answer "what was my average sleep in March?" exactly);
* **retrieval memory** - a topic -> episode -> event hierarchy with text and image vectors.

Layering, one way only: ``prompts <- stores <- nodes <- graphs``. The graphs themselves are
imported lazily (``adamm.graphs.ingest``, ``adamm.graphs.query``) so importing ``adamm`` stays
cheap.
"""

from adamm.stores.records import ImageRef, Round

__all__ = ["ImageRef", "Round", "__version__"]
__version__ = "0.1.0"
