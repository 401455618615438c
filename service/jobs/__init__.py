"""The job platform as the service sees it: queue and job names with their specs and the Redis connection
(`queues`), the one submission path (`submit`), who holds a job and its cancel (`lifecycle`), results page by page
(`pages`), each caller's job list (`listing`), where a webhook may go (`callbacks`), the wait for a replica
(`replication`), the job gauges of /metrics (`metrics`) and the refusals (`errors`). No Flask and nothing of
`service.http`, `service.api` or `service.runtime`: the API passes in what it knows of a request and maps the
refusals to problems (service/api/jobs/). Nothing here imports `workers` either: jobs are enqueued by the dotted name
of their function, and the workers import this package."""
