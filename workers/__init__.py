"""RQ job functions and their plumbing (queues, connection, the job decorator). Nothing connects at import."""
