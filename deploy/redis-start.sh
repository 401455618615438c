#!/bin/sh
# Starts a Redis data node or a Sentinel of the group that fails over (compose.yaml; k8s/redis.yaml holds a copy).
#
#   redis-start.sh redis redis-server ARGS...   a data node: a replica of the primary the Sentinels name, or the
#                                               primary itself when they name this node
#   redis-start.sh sentinel                     a Sentinel watching that primary (its file kept across restarts)
#
# The primary is asked of the Sentinels first, so a node that comes back after a failover joins the promoted
# replica instead of starting as a second primary. When no Sentinel answers (the group's very first start),
# REDIS_FIRST is the primary. Environment: REDIS_SELF (this node's host name, which the others reach it by),
# REDIS_FIRST, SENTINEL_HOSTS (space-separated; every Sentinel listens on 26379), SENTINEL_MASTER (the name the
# Sentinels monitor the primary under), REDIS_PASSWORD (the data nodes' and the Sentinels' password), and for a
# Sentinel SENTINEL_DIR (a writable directory), and optionally SENTINEL_DOWN_AFTER_MS (5000) and SENTINEL_BIND (the
# address it listens on; all of them when unset).
set -eu

# The primary as a Sentinel other than this node names it, else REDIS_FIRST.
primary() {
  for host in $SENTINEL_HOSTS; do
    [ "$host" = "$REDIS_SELF" ] && continue
    named=$(REDISCLI_AUTH="$REDIS_PASSWORD" timeout 3 redis-cli -h "$host" -p 26379 \
      sentinel get-master-addr-by-name "$SENTINEL_MASTER" 2>/dev/null | head -n 1) || named=""
    case "$named" in
      "" | *" "* | *"("*) ;;  # no answer, or an error: ask the next one
      *) echo "$named"; return ;;
    esac
  done
  echo "$REDIS_FIRST"
}

role=${1:?usage: redis-start.sh redis redis-server ARGS... | redis-start.sh sentinel}
shift
case "$role" in
  redis)
    master=$(primary)
    if [ "$master" = "$REDIS_SELF" ]; then
      exec "$@" --replica-announce-ip "$REDIS_SELF"
    fi
    exec "$@" --replica-announce-ip "$REDIS_SELF" --replicaof "$master" 6379
    ;;
  sentinel)
    conf="$SENTINEL_DIR/sentinel.conf"
    if [ ! -s "$conf" ]; then  # Sentinel rewrites its file as it learns the group: written only the first time
      master=$(primary)
      cat > "$conf.new" <<EOF
port 26379
${SENTINEL_BIND:+bind $SENTINEL_BIND}
dir $SENTINEL_DIR
sentinel resolve-hostnames yes
sentinel announce-hostnames yes
sentinel announce-ip $REDIS_SELF
sentinel monitor $SENTINEL_MASTER $master 6379 2
sentinel down-after-milliseconds $SENTINEL_MASTER ${SENTINEL_DOWN_AFTER_MS:-5000}
sentinel failover-timeout $SENTINEL_MASTER 60000
sentinel parallel-syncs $SENTINEL_MASTER 1
sentinel auth-pass $SENTINEL_MASTER $REDIS_PASSWORD
requirepass $REDIS_PASSWORD
EOF
      mv "$conf.new" "$conf"
    fi
    exec redis-server "$conf" --sentinel
    ;;
  *)
    echo "redis-start.sh: unknown role $role" >&2
    exit 2
    ;;
esac
