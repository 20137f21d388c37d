"""Which rounds are worth an extractor model call (issue: ingestion cost with a model).

A model extractor costs one call per round it reads; most conversation rounds - questions,
advice, chit-chat - record nothing. A round can hold an observation when the user's words,
an image's caption or the round's metadata carry a quantity: a digit, a number word, a
fraction or a rating glyph - or when it has an image at all (a screenshot or a receipt may
hold numbers its caption does not say). Everything else is left to the rules extractor,
which costs nothing.
"""

from __future__ import annotations

import re

from adamm.stores.records import Round

__all__ = ["may_hold_observation"]

_QUANTITY = re.compile(
    r"\d|[★☆⭐½¼¾⅓⅔]|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    r"ninety|hundred|thousand|million|half|quarter|dozen|once|twice|single|double|couple)\b",
    re.IGNORECASE,
)


def may_hold_observation(rnd: Round) -> bool:
    """True when the round could record a value (see the module docstring)."""
    if rnd.images or rnd.metadata:
        return True
    return bool(_QUANTITY.search(rnd.user_text or ""))
