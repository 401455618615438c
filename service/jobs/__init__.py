"""The job platform as the service sees it: queue and job names with their specs and the Redis connection
(`queues`), where a webhook may go (`callbacks`), the API's one submission path (`submit`), each caller's job list
(`listing`) and the embedded Redis of `python -m service serve` (`localredis`). Nothing here imports `workers`: jobs
are enqueued by the dotted name of their function, and the workers import this package."""
