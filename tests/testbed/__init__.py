"""Test-only code the service never runs: the slow oracles the engine is checked against and the positions cut out
of simulated rounds, for the tests and the bench/ scripts."""
