"""The pure rules engine: cards, melds, decomposition, claims and settlement per rule-set."""
