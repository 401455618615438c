"""POST /v1/simulations: seeded simulated rounds as game logs."""
