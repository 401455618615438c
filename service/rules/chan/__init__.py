"""Chắn (cardavia-chan): cards, pairing, captures, win and scoring (RULES.md section 2)."""
