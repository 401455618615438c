# Shared by scripts/serve and scripts/test: the service and its tests talk over the loopback interface (the API on
# 127.0.0.1, the test webhook receivers). In a fresh private network namespace (`unshare -n`) loopback starts
# down; bring it up there when we may, and say so. On an ordinary machine loopback is up and this does nothing.
loopback_up() {
  "${VENV:-}/bin/python" - <<'PY' 2>/dev/null
import socket, sys
with socket.socket() as server, socket.socket() as client:
    server.bind(("127.0.0.1", 0)); server.listen(1)
    try:
        client.settimeout(1); client.connect(server.getsockname())
    except OSError:
        sys.exit(1)
PY
}
if ! loopback_up; then
  if command -v ip >/dev/null 2>&1 && ip link set lo up 2>/dev/null && loopback_up; then
    echo "loopback was down (a private network namespace?): brought it up" >&2
  else
    echo "warning: the loopback interface is down; tests that serve HTTP on 127.0.0.1 will fail" >&2
  fi
fi
