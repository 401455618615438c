"""Discard analysis by simulation: a position the player must discard from, fast playouts of the rest of the round
for each candidate discard, and the Monte Carlo driver that compares them with confidence intervals."""
