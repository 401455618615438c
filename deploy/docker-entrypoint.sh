#!/bin/sh
# Entry point of the Long Cards image: runs its arguments (the CMD, or a command given to `docker run`, compose or
# Kubernetes `args`) after preparing what gunicorn's Prometheus multiprocess mode needs.
#
# For gunicorn: PROMETHEUS_MULTIPROC_DIR defaults to /tmp/longcards-metrics, is created, and the metric files left
# in it by an earlier run are removed: a Kubernetes emptyDir outlives a container restart, and files of dead
# processes would otherwise be summed into /metrics. Only files named as prometheus_client names its own
# (`counter_<pid>.db`, `gauge_livesum_<pid>.db`, ...: serve's METRIC_FILE) are removed; any other file is kept.
# Any other command (the workers) runs untouched.
set -eu

case "${1:-}" in
    gunicorn | */gunicorn)
        PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-/tmp/longcards-metrics}"
        export PROMETHEUS_MULTIPROC_DIR
        mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
        find "$PROMETHEUS_MULTIPROC_DIR" -mindepth 1 -maxdepth 1 -regextype posix-extended -type f \
            -regex '.*/(counter|histogram|summary|gauge_[a-z]+)_[0-9]+\.db' -exec rm -f {} +
        ;;
esac

exec "$@"
