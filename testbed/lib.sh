# shellcheck shell=bash
# shellcheck disable=SC2034 # TB_CODE and others are read by the scripts that source this file
# Multi-host testbed for Cohort: each party is its own process in its own Linux network namespace,
# joined by a veth pair to a bridge that lives in a namespace of its own, so the host's network is
# never touched. Links can lose packets (nftables random drop), be rate-limited (tc tbf) and be
# cut (nftables drop between hosts); parties can be killed and restarted.
#
# Every namespace, interface, bridge and nftables table of a run carries the run id TB_RID (six
# hex digits), so two runs on one machine never collide, and teardown removes only its own:
#   namespaces   cb<rid>-br (the bridge), cb<rid>-p<i> (party i)
#   interfaces   cb<rid>br (bridge), cb<rid>b<i> (bridge side of party i's veth), cb<rid>p<i>
#   nft tables   inet cb<rid>loss, inet cb<rid>cut (in the party namespaces)
# Party i has the address 10.77.0.(10+i) and listens on port 7000.
#
# Sourced by scenario.sh and ci.sh; not meant to be run.

TB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TB_JAR=${TB_JAR:-$TB_ROOT/demos/target/cohort.jar}
# Small heaps and the serial collector: up to five JVMs share the machine.
TB_JAVA_OPTS=${TB_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC}
TB_SUBNET=10.77.0
TB_PORT=7000

TB_RID=${TB_RID:-}
TB_HOSTS=0
TB_NAMESPACES=()
TB_PIDS=()   # TB_PIDS[i]: the running process of party i, or empty
TB_DIR=""    # this run's files: keys, parties file, traces, logs
TB_RUN=0     # how many times the parties have been started (run 1, 2, ...)
TB_CODE=0    # the exit code tb_wait saw

tb_log() {
  printf '[testbed %s %s] %s\n' "${TB_RID:-------}" "$(date +%H:%M:%S)" "$*" >&2
}

tb_fail() {
  tb_log "FAILED: $*"
  return 1
}

# ---- prerequisites ----------------------------------------------------------------------------

# Prints one line per missing prerequisite (nothing when all is there). Installs nothing.
tb_missing() {
  local cmd
  if [[ $(id -u) -ne 0 ]]; then
    echo "not root (network namespaces, nftables and tc need root)"
    return 0
  fi
  for cmd in ip tc nft java awk od; do
    command -v "$cmd" >/dev/null 2>&1 || echo "command '$cmd' not found"
  done
  [[ -f $TB_JAR ]] || echo "$TB_JAR not built (./mvnw -pl demos -am package -DskipTests)"
}

# Installs nftables with apt-get when nft is missing and apt-get exists (CI machines start fresh).
tb_install() {
  if ! command -v nft >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [[ $(id -u) -eq 0 ]]; then
    tb_log "nft not found: apt-get install -y nftables"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q nftables >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nftables >/dev/null 2>&1; } \
      || tb_log "apt-get install nftables failed"
  fi
}

# Tries what the testbed needs from the kernel in a throw-away namespace: network namespaces,
# veth, bridge, tc tbf and an nftables random drop. Prints what does not work (nothing if all do).
tb_probe_kernel() {
  local ns="cb${TB_RID}-probe" x0="cb${TB_RID}x0" out
  if ! out=$(ip netns add "$ns" 2>&1); then
    echo "network namespaces do not work here (ip netns add: ${out%%$'\n'*})"
    return 0
  fi
  tb_try "veth pairs" ip -n "$ns" link add "$x0" type veth peer name "cb${TB_RID}x1"
  tb_try "bridges" ip -n "$ns" link add "cb${TB_RID}xb" type bridge
  tb_try "tc tbf" ip netns exec "$ns" tc qdisc add dev "$x0" root tbf rate 1mbit burst 32kbit \
    latency 400ms
  tb_try "nftables random drop" ip netns exec "$ns" nft add table inet t \; \
    add chain inet t c '{ type filter hook output priority 0; }' \; \
    add rule inet t c numgen random mod 100 '<' 5 drop
  ip netns del "$ns" 2>/dev/null || true
}

# Runs a command quietly; when it fails, prints "WHAT does not work: <its first error line>".
tb_try() {
  local what=$1 out
  shift
  out=$("$@" 2>&1) || echo "$what do not work here (${out%%$'\n'*})"
}

# ---- run id, network --------------------------------------------------------------------------

# Picks a run id no namespace on this machine uses yet.
tb_new_rid() {
  local rid
  while :; do
    rid=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
    if ! ip netns list 2>/dev/null | grep -q "^cb${rid}-"; then
      TB_RID=$rid
      return 0
    fi
  done
}

tb_ns() { echo "cb${TB_RID}-p$1"; }
tb_if() { echo "cb${TB_RID}p$1"; }
tb_addr() { echo "${TB_SUBNET}.$((10 + $1))"; }

# Creates the bridge namespace and N party namespaces, each joined to the bridge by a veth pair.
tb_net_up() {
  local n=$1 br="cb${TB_RID}-br" i ns
  TB_HOSTS=$n
  TB_NAMESPACES+=("$br")
  ip netns add "$br"
  ip -n "$br" link set lo up
  ip -n "$br" link add "cb${TB_RID}br" type bridge
  ip -n "$br" link set "cb${TB_RID}br" up
  for ((i = 0; i < n; i++)); do
    ns=$(tb_ns "$i")
    TB_NAMESPACES+=("$ns")
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip -n "$br" link add "cb${TB_RID}b$i" type veth peer name "$(tb_if "$i")" netns "$ns"
    # One TCP segment per packet, as on a real link: without this, TCP hands the veth 64 KiB
    # super-packets, and one random drop (or one token-bucket decision) would hit many segments.
    ip -n "$br" link set dev "cb${TB_RID}b$i" gso_max_segs 1 master "cb${TB_RID}br" up
    ip -n "$ns" link set dev "$(tb_if "$i")" gso_max_segs 1
    ip -n "$ns" addr add "$(tb_addr "$i")/24" dev "$(tb_if "$i")"
    ip -n "$ns" link set "$(tb_if "$i")" up
  done
  tb_log "network up: $n hosts on bridge cb${TB_RID}br, ${TB_SUBNET}.10-$((9 + n))"
}

# Drops PERCENT % (0.01 steps) of the packets party I sends, at random (nftables numgen).
tb_loss() {
  local i=$1 pct=$2 bp
  bp=$(awk -v p="$pct" 'BEGIN { if (p < 0 || p > 100) exit 1; printf "%d", p * 100 + 0.5 }') \
    || { tb_fail "loss $pct: want a percentage in [0, 100]"; return 1; }
  [[ $bp -eq 0 ]] && return 0
  ip netns exec "$(tb_ns "$i")" nft -f - <<EOF
table inet cb${TB_RID}loss {
  chain out {
    type filter hook output priority 0; policy accept;
    oifname "$(tb_if "$i")" numgen random mod 10000 < $bp counter drop
  }
}
EOF
}

# Packets party I's loss rule dropped so far.
tb_dropped() {
  { ip netns exec "$(tb_ns "$1")" nft list table inet "cb${TB_RID}loss" 2>/dev/null || true; } \
    | awk '/counter packets/ { for (k = 1; k < NF; k++) if ($k == "packets") print $(k + 1) }'
}

# Caps party I's link at RATE (a tc rate, e.g. 1mbit) in both directions with a token bucket.
tb_rate() {
  local i=$1 rate=$2
  ip netns exec "$(tb_ns "$i")" tc qdisc replace dev "$(tb_if "$i")" root tbf rate "$rate" \
    burst 32kbit latency 400ms
  ip netns exec "cb${TB_RID}-br" tc qdisc replace dev "cb${TB_RID}b$i" root tbf rate "$rate" \
    burst 32kbit latency 400ms
}

# Cuts all traffic between the hosts of two comma-separated lists (e.g. "1" and "0,2").
tb_partition() {
  local a=$1 b=$2 x y
  local -a as bs
  IFS=, read -r -a as <<<"$a"
  IFS=, read -r -a bs <<<"$b"
  for x in "${as[@]}"; do
    for y in "${bs[@]}"; do
      tb_cut "$x" "$y"
      tb_cut "$y" "$x"
    done
  done
  tb_log "partition: {$a} | {$b}"
}

# Makes host I drop everything to and from host J.
tb_cut() {
  local i=$1 j=$2 ns
  ns=$(tb_ns "$i")
  ip netns exec "$ns" nft list table inet "cb${TB_RID}cut" >/dev/null 2>&1 \
    || ip netns exec "$ns" nft -f - <<EOF
table inet cb${TB_RID}cut {
  chain in { type filter hook input priority -10; policy accept; }
  chain out { type filter hook output priority -10; policy accept; }
}
EOF
  ip netns exec "$ns" nft add rule inet "cb${TB_RID}cut" in ip saddr "$(tb_addr "$j")" drop
  ip netns exec "$ns" nft add rule inet "cb${TB_RID}cut" out ip daddr "$(tb_addr "$j")" drop
}

# Removes every cut.
tb_heal() {
  local i
  for ((i = 0; i < TB_HOSTS; i++)); do
    ip netns exec "$(tb_ns "$i")" nft delete table inet "cb${TB_RID}cut" 2>/dev/null || true
  done
  tb_log "partition healed"
}

# ---- parties ----------------------------------------------------------------------------------

# Writes the keys (cohort keys) and the parties file for TB_HOSTS hosts into TB_DIR.
tb_keys() {
  local i
  # shellcheck disable=SC2086 # TB_JAVA_OPTS is a list of JVM options
  java $TB_JAVA_OPTS -jar "$TB_JAR" keys --parties "$TB_HOSTS" --out "$TB_DIR/keys" \
    >"$TB_DIR/keys.log" 2>&1 || { cat "$TB_DIR/keys.log" >&2; tb_fail "cohort keys"; return 1; }
  {
    echo "# id  host  port  (written by testbed/lib.sh)"
    echo "keys keys"
    for ((i = 0; i < TB_HOSTS; i++)); do
      echo "$i $(tb_addr "$i") $TB_PORT"
    done
  } >"$TB_DIR/parties.txt"
}

# Writes traces for the devices (parties 1..N-1) to TB_DIR/traces.csv and prints the sum of all
# their distances over SESSIONS sessions: the reference the server's result is checked against.
# Each device moves east along the equator by a random whole number of metres (0 to 9000) per
# session, so the haversine distance of each move is that number (up to floating-point error far
# below the half metre of rounding), and the reference needs no code of the demo.
tb_traces() {
  local sessions=$1 seed=$2
  awk -v n="$TB_HOSTS" -v s="$sessions" -v seed="$seed" -v out="$TB_DIR/traces.csv" 'BEGIN {
    srand(seed); r = 6371008.8; pi = atan2(0, -1); total = 0
    print "device,timestamp,latitude,longitude" > out
    for (d = 1; d < n; d++) {
      metres = 0
      for (k = 0; k <= s; k++) {
        if (k > 0) { step = int(rand() * 9001); metres += step; total += step }
        printf "device-%02d,%d,0,%.10f\n", d, 1700000000 + 900 * k, \
          -179 + metres / r * 180 / pi >> out
      }
    }
    printf "%d\n", total
  }'
}

# Starts party I (its next run) in its namespace with the demo's options ARGS; output goes to
# TB_DIR/p<I>.run<k>.out and .err. The server (party 0) keeps its checkpoint in TB_DIR.
tb_start() {
  local i=$1 ns log
  shift
  ns=$(tb_ns "$i")
  log="$TB_DIR/p$i.run$TB_RUN"
  local -a extra=()
  [[ $i -eq 0 ]] && extra=(--checkpoint "$TB_DIR/server.checkpoint")
  # shellcheck disable=SC2086 # TB_JAVA_OPTS is a list of JVM options
  ip netns exec "$ns" java $TB_JAVA_OPTS -jar "$TB_JAR" demo distance-average \
    --party "$i" --parties "$TB_DIR/parties.txt" --traces "$TB_DIR/traces.csv" \
    --json --no-progress "${extra[@]}" "$@" >"$log.out" 2>"$log.err" &
  TB_PIDS[i]=$!
}

# Starts every party (a new run); ARGS are the demo's options.
tb_start_all() {
  local i
  TB_RUN=$((TB_RUN + 1))
  for ((i = 0; i < TB_HOSTS; i++)); do
    tb_start "$i" "$@"
  done
  tb_log "run $TB_RUN: started $TB_HOSTS parties (pids ${TB_PIDS[*]})"
}

tb_alive() {
  local pid=$1 state
  [[ -n $pid && -r /proc/$pid/stat ]] || return 1
  state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) || return 1
  [[ $state != Z ]]
}

# The check state in a SPDZ use record: 0 none, 1 a MAC check in flight, 2 failed.
tb_check_state() {
  od -An -v -t d8 -j $(($(stat -c %s "$1") - 16)) -N 8 "$1" | xargs
}

# Kills party I with SIGKILL. With a directory of SPDZ use records as the second argument, only
# while no party is inside a MAC check's reveal: a party that has sent its check value and never
# learns the result must refuse its material (a cheater may know the MAC key, SECURITY.md). Every
# party is stopped (SIGSTOP), the records read, and the party killed when all are clear, else every
# party resumed (SIGCONT) and tried again a few milliseconds later.
tb_kill() {
  local i=$1 records=${2:-} tries=0 p clear
  tb_alive "${TB_PIDS[i]}" || { tb_fail "P$i is not running, cannot kill it"; return 1; }
  local pid=${TB_PIDS[i]}
  if [[ -n $records ]]; then
    while :; do
      for p in "${TB_PIDS[@]}"; do [[ -n $p ]] && kill -STOP "$p" 2>/dev/null; done
      clear=yes
      for f in "$records"/party-*.spdz.used; do
        [[ $(tb_check_state "$f") == 0 ]] || clear=no
      done
      [[ $clear == yes ]] && break
      for p in "${TB_PIDS[@]}"; do [[ -n $p ]] && kill -CONT "$p" 2>/dev/null; done
      tries=$((tries + 1))
      ((tries < 2000)) || { tb_fail "a party was in a MAC check at each of 2000 tries"; return 1; }
      sleep 0.003
    done
    tb_log "killing P$i while no party is inside a MAC check's reveal ($tries retries)"
  fi
  # Reaped here, with the shell's own "Killed" job notice silenced.
  { kill -9 "$pid" && wait "$pid"; } 2>/dev/null || true
  TB_PIDS[i]=""
  for p in "${TB_PIDS[@]}"; do [[ -n $p ]] && kill -CONT "$p" 2>/dev/null; done
  tb_log "killed P$i (pid $pid) with SIGKILL"
}

# Waits up to SECONDS for party I to exit and sets TB_CODE to its exit code (124: still running,
# 127: not started). Not for $(...): only this shell can collect its children's exit codes.
tb_wait() {
  local i=$1 seconds=$2 pid deadline
  pid=${TB_PIDS[i]:-}
  TB_CODE=127
  [[ -n $pid ]] || return 0
  deadline=$((SECONDS + seconds))
  while tb_alive "$pid"; do
    if ((SECONDS >= deadline)); then
      TB_CODE=124
      return 0
    fi
    sleep 0.2
  done
  TB_CODE=0
  wait "$pid" 2>/dev/null || TB_CODE=$?
  TB_PIDS[i]=""
}

# The server's last finished session, from its checkpoint (0 before the first).
tb_progress() {
  local f="$TB_DIR/server.checkpoint"
  if [[ -f $f ]]; then
    sed -n 's/^lastSession=//p' "$f"
  else
    echo 0
  fi
}

# Waits until the server has finished session K (or the server has exited, or SECONDS passed).
tb_wait_progress() {
  local k=$1 seconds=$2 deadline
  deadline=$((SECONDS + seconds))
  while (($(tb_progress) < k)); do
    tb_alive "${TB_PIDS[0]}" || { tb_fail "the server exited before session $k"; return 1; }
    ((SECONDS < deadline)) || { tb_fail "no session $k after ${seconds}s"; return 1; }
    sleep 0.05
  done
}

# The first line of party I's error output of run K that says what went wrong.
tb_error_line() {
  local f="$TB_DIR/p$1.run$2.err"
  [[ -s $f ]] || { echo "(no error output)"; return 0; }
  grep -m1 -E 'cohort:|Exception|failed|error' "$f" || head -n1 "$f"
}

# Prints the tail of every party's output of the current run, for failure messages.
tb_tails() {
  local i f
  for ((i = 0; i < TB_HOSTS; i++)); do
    for f in "$TB_DIR/p$i.run$TB_RUN.out" "$TB_DIR/p$i.run$TB_RUN.err"; do
      [[ -s $f ]] || continue
      echo "----- ${f#"$TB_DIR"/} (last 15 lines) -----"
      tail -n 15 "$f" | cut -c1-400
    done
  done >&2
}

# A number from the server's JSON report of run K: tb_json_field K running_sum.
tb_json_field() {
  # The number, not the header's text of the same name: the last match is in the parties list.
  { grep -o "\"$2\":-\{0,1\}[0-9][0-9.]*" "$TB_DIR/p0.run$1.out" 2>/dev/null || true; } \
    | tail -n1 | cut -d: -f2
}

# ---- teardown ---------------------------------------------------------------------------------

# Kills this run's parties and deletes this run's namespaces (with their interfaces, bridge,
# qdiscs and nftables tables). Safe to call twice; never touches another run's names.
tb_teardown() {
  local pid ns p
  for pid in "${TB_PIDS[@]}"; do
    if tb_alive "$pid"; then
      { kill -9 "$pid" && wait "$pid"; } 2>/dev/null || true
    fi
  done
  for ns in "${TB_NAMESPACES[@]}"; do
    for p in $(ip netns pids "$ns" 2>/dev/null); do
      kill -9 "$p" 2>/dev/null || true
    done
  done
  for ns in "${TB_NAMESPACES[@]}"; do
    if ip netns list | grep -q "^$ns\( \|$\)"; then
      ip netns del "$ns" 2>/dev/null || tb_log "could not delete namespace $ns"
    fi
  done
  TB_NAMESPACES=()
  TB_PIDS=()
}
