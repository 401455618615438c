"""The HTTP conventions every request passes: API keys (`auth`), rate limits, CORS, compression, request ids,
JSON (`jsonio`), problem+json errors (`errors`) with every error code (`problems`), and the Prometheus metrics."""
