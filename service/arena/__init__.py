"""The arena: play advice policies against each other on duplicate deals and measure the difference."""
