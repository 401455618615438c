"""RQ job functions and the worker that runs them. The queues, job names and specs, and the connection live on the
service's side (service/jobs/queues.py): the workers import the service, never the reverse. Nothing connects at
import."""
