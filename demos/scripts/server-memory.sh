#!/usr/bin/env bash
# The memory of 'cohort server' with many input clients: three servers (-Xmx512m each) on this
# host and 'cohort bench load' as the clients. Reports, per server, the heap after a forced
# collection (the live objects), direct buffers, threads and resident memory:
#   - with 100, 1000 and 10000 clients connected (fresh servers each time, after 3 sessions);
#   - clients ever seen: 10000 clients (ids 0..9999) connected, then gone, then 10000 others
#     (ids 10000..19999) connected, then gone, on the same servers.
#
# Usage: demos/scripts/server-memory.sh [WORKDIR]   (default: target/server-memory)
# Needs demos/target/cohort.jar (./mvnw -pl demos -am package -DskipTests; or COHORT_JAR), curl
# and jcmd; ports 17000-17002 (mesh), 17100-17102 (clients) and 19200-19202 (metrics) on
# 127.0.0.1 must be free. It takes about 20 minutes on 2 cores.
# Generating 20000 client keys takes about a minute. A process may open only 'ulimit -n' files
# and every client needs a socket per server, so the clients are split over load processes of at
# most 5000 clients each.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jar=${COHORT_JAR:-$root/demos/target/cohort.jar}
work=${1:-target/server-memory}
mkdir -p "$work"
cd "$work"
[[ -f $jar ]] || { echo "build $jar first" >&2; exit 1; }

servers=()
loads=()
scrape=""
cleanup() {
  for pid in "${loads[@]}" "${servers[@]}"; do
    kill -9 "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

if [[ ! -f keys/client-19999-key.pem ]]; then
  java -jar "$jar" keys --parties 3 --clients 20000 --out keys >/dev/null
fi
cat >parties.txt <<'EOF'
keys keys
0 127.0.0.1 17000 17100
1 127.0.0.1 17001 17101
2 127.0.0.1 17002 17102
EOF

# start_servers CLOSE_AFTER TAG: sessions close once every one of CLOSE_AFTER clients has sent
start_servers() {
  servers=()
  for p in 0 1 2; do
    java -Xmx512m -jar "$jar" server --party "$p" --parties parties.txt --bits 16 \
      --close-after "$1" --deadline-ms 900000 --metrics-port "1920$p" >"server-$p-$2.log" 2>&1 &
    servers+=("$!")
  done
}

stop_servers() {
  for pid in "${servers[@]}"; do
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  servers=()
}

# load FIRST_ID CLIENTS TAG: connects the clients, runs 3 sessions, holds them connected for 60 s;
# returns once every load process holds
load() {
  local first=$1 n=$2 k=0
  loads=()
  while ((n > 0)); do
    local c=$((n < 5000 ? n : 5000))
    java -Xmx3g -jar "$jar" bench load --parties parties.txt --clients "$c" --first-id "$first" \
      --sessions 3 --hold-ms 60000 >"load-$3-$k.log" 2>&1 &
    loads+=("$!")
    first=$((first + c)) n=$((n - c)) k=$((k + 1))
  done
  for ((i = 0; i < k; i++)); do
    until grep -q "holding" "load-$3-$i.log"; do
      if grep -q "^cohort:" "load-$3-$i.log"; then
        cat "load-$3-$i.log" >&2
        exit 1
      fi
      sleep 1
    done
    grep "connected\|session" "load-$3-$i.log"
  done
}

# unload: waits until the load processes disconnected and ended
unload() {
  for pid in "${loads[@]}"; do
    wait "$pid" || true
  done
  loads=()
  sleep 2
}

# metric NAME: the value of NAME in the last scrape
metric() {
  awk -v name="$1" '$1 == name { print $2 }' <<<"$scrape"
}

# measure LABEL: two forced collections (the TLS engines of closed connections are finalizable and
# go only in the second), then the metrics endpoint and the resident memory
measure() {
  for i in 0 1 2; do
    until curl -sf "localhost:1920$i/health" >/dev/null; do sleep 1; done
    jcmd "${servers[$i]}" GC.run >/dev/null
    sleep 1
    jcmd "${servers[$i]}" GC.run >/dev/null
    sleep 1
    scrape=$(curl -s "localhost:1920$i/metrics")
    printf '%-28s P%d: %5s clients connected, heap %4d MiB (committed %4d MiB), direct %3d MiB,' \
      "$1" "$i" "$(metric cohort_input_connected_clients)" \
      $(($(metric cohort_jvm_heap_used_bytes) / 1048576)) \
      $(($(metric cohort_jvm_heap_committed_bytes) / 1048576)) \
      $(($(metric cohort_jvm_direct_buffers_bytes) / 1048576))
    printf ' %s threads, RSS %d MiB\n' "$(metric cohort_jvm_threads_live)" \
      $(($(awk '/VmRSS/ { print $2 }' "/proc/${servers[$i]}/status") / 1024))
  done
}

for n in 100 1000 10000; do
  start_servers "$n" "n$n"
  measure "idle"
  load 0 "$n" "n$n"
  measure "$n connected"
  unload
  stop_servers
done

start_servers 10000 seen
load 0 10000 seen-first
measure "10000 connected, 10000 seen"
unload
measure "0 connected, 10000 seen"
load 10000 10000 seen-second
measure "10000 connected, 20000 seen"
unload
measure "0 connected, 20000 seen"
stop_servers
