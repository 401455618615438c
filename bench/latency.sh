#!/usr/bin/env bash
# Latency under concurrency (docs/reliability.md#fair-latency): gunicorn with deploy/gunicorn.conf.py as
# `./scripts/serve` runs it (4 processes on 2 cores; workers recycled as configured), CLIENTS keep-alive clients
# (wrk) on POST /v1/hu and POST /v1/discards, for each worker setting in turn, ROUNDS rounds alternating the settings
# so that drift on a shared machine hits them alike. Prints per setting and endpoint the median throughput, the mean
# latency Little's law gives (clients / throughput), wrk's p50 and p99, and p99 / mean (target <= 4).
# Needs wrk (Debian: apt-get install wrk).
# Usage: bench/latency.sh [seconds per run, default 10] [rounds, default 3] [clients, default 16]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
RUN_SECONDS=${1:-10}
ROUNDS=${2:-3}
CLIENTS=${3:-16}
PORT=${BENCH_PORT:-18741}
BASE=http://127.0.0.1:$PORT
command -v wrk >/dev/null || { echo "bench/latency.sh needs wrk (apt-get install wrk)" >&2; exit 2; }
tmp=$(mktemp -d)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$ROOT"
# Settings: a name and the environment gunicorn runs under ("serve" is the default configuration).
SETTINGS=("serve:" "gthread-1:GUNICORN_WORKER_CLASS=gthread GUNICORN_THREADS=1"
          "gthread-4:GUNICORN_WORKER_CLASS=gthread GUNICORN_THREADS=4")
"$PY" - "$tmp" <<'PY'
import json, sys
hu = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS",
      "yS", "gS", "wE", "wE", "gH", "gH", "yA"], "public_card": "wC"}
discards = {"ruleset": "bga-taiwan", "seats": 4, "seat": 2, "visible": ["yA", "yA"], "hand": [
    "rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE", "gH", "gH",
    "yA", "wC"]}
for name, body in (("hu", hu), ("discards", discards)):
    with open(f"{sys.argv[1]}/{name}.lua", "w") as f:
        f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                f"wrk.body = {json.dumps(json.dumps(body))}\n")
PY
start() {  # env assignments...
  env BIND=127.0.0.1:$PORT "$@" "$ROOT/.venv/bin/gunicorn" --config deploy/gunicorn.conf.py "service.app:create_app()" \
    >"$tmp/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 150); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && return; sleep 0.2; done
  echo "gunicorn did not start" >&2; cat "$tmp/server.log" >&2; exit 1
}
for round in $(seq 1 "$ROUNDS"); do
  for setting in "${SETTINGS[@]}"; do
    name=${setting%%:*}
    # shellcheck disable=SC2086
    start ${setting#*:}
    wrk -t2 -c"$CLIENTS" -d2s -s "$tmp/hu.lua" "$BASE/v1/hu" >/dev/null  # warm every process
    for endpoint in hu discards; do
      wrk -t2 -c"$CLIENTS" -d"${RUN_SECONDS}s" --latency -s "$tmp/$endpoint.lua" "$BASE/v1/$endpoint" \
        >"$tmp/wrk.out"
      "$PY" - "$tmp/wrk.out" "$name" "$endpoint" "$CLIENTS" >>"$tmp/runs" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
def ms(v):
    n, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", v).groups()
    return float(n) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p = {q: ms(re.search(rf"^\s+{q}%\s+(\S+)", text, re.M).group(1)) for q in ("50", "99")}
errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
non2xx = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", text)) else 0
print(json.dumps({"setting": sys.argv[2], "endpoint": sys.argv[3], "rps": rps, "p50": p["50"], "p99": p["99"],
                  "clients": int(sys.argv[4]), "errors": errors + non2xx}))
PY
    done
    kill "$server"; wait "$server" 2>/dev/null || true; server=
  done
done
"$PY" - "$tmp/runs" "$RUN_SECONDS" "$ROUNDS" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
clients = runs[0]["clients"]
print(f"{clients} keep-alive clients (wrk), {sys.argv[3]} rounds of {sys.argv[2]} s per setting and endpoint; "
      "medians over rounds; mean = clients / throughput (Little's law)")
print(f"{'setting':<10} {'endpoint':<14} {'req/s':>8} {'mean ms':>8} {'p50 ms':>8} {'p99 ms':>8} {'p99/mean':>9} "
      f"{'errors':>6}")
for setting in dict.fromkeys(r["setting"] for r in runs):
    for endpoint in ("hu", "discards"):
        rs = [r for r in runs if r["setting"] == setting and r["endpoint"] == endpoint]
        rps = statistics.median(r["rps"] for r in rs)
        mean = clients / rps * 1000
        p99 = statistics.median(r["p99"] for r in rs)
        print(f"{setting:<10} /v1/{endpoint:<10} {rps:8.0f} {mean:8.1f} {statistics.median(r['p50'] for r in rs):8.1f} "
              f"{p99:8.1f} {p99 / mean:9.1f} {sum(r['errors'] for r in rs):6d}")
PY
