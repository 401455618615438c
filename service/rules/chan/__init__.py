"""Chắn (cardavia-chan): cards, pairing, captures, win and scoring (docs/rules.md#chan)."""
