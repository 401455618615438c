"""The service's Prometheus metrics as the tests read them."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def scrape(client) -> dict[tuple[str, tuple], float]:
    """GET /metrics parsed: (sample name, sorted labels) -> value."""
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.get_data(as_text=True))
            for sample in family.samples}


def value(samples: dict, name: str, **labels: str) -> float:
    """One sample's value, 0 when absent (counters are process-wide, so tests compare before and after)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)
