"""The advice, over the rules: what is good, where the rules say what is legal and what it pays. The order of the
options (`ranking.py`), the analyses the API answers with (`analyse.py`: every discard of a hand, every answer to a
public card, `fourcolor_claims.py` and `chan_claims.py`), the learned value of a position (`value.py`, a model per
rule-set in `models/`) and the warm-up of the tables the analyses use (`warm.py`)."""
