"""The HTTP conventions every request passes: API keys (`auth`), rate limits, CORS, compression, request ids,
JSON (`jsonio`), problem+json errors (`errors`) with every error code (`problems`), and the Prometheus metrics.
Nothing here imports the job layer, the API or the runtime: the app factory hands in what crosses (the job
gauges' collector), and the API maps the job layer's refusals to problems."""
