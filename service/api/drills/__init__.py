"""GET /v1/drills: a position to practise on, from a seeded round the advice plays."""
