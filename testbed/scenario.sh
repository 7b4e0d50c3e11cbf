#!/usr/bin/env bash
# Runs one testbed scenario: the distance-average demo with every party in its own network
# namespace (see lib.sh), over TLS with keys from 'cohort keys', optionally with packet loss, a
# rate cap, emulated latency, a party killed and restarted, or a partition that heals. Checks the
# server's running sum against a reference computed here from the traces this script writes, and
# appends one line to a CSV file. Needs root, iproute2 (ip, tc), nftables (nft), java and awk.
#
#   testbed/scenario.sh --hosts 3 --suite bgw --sessions 100 --loss 5 --kill 1@30
#
# Exit code: 0 PASS, XFAIL or XPASS (with --xfail-restart: failed, or passed, after a restart marked
# as known to fail), 1 FAIL, 2 bad options, 3 missing prerequisites.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<'EOF'
Usage: testbed/scenario.sh [options]
  --name NAME          scenario name for the CSV and the run directory (default: from the options)
  --hosts N            parties: P0 the server, P1..PN-1 the devices (default: 3)
  --suite bgw|spdz     protocol suite (default: bgw); spdz reads 'cohort preprocess' files
  --sessions S         sessions (default: 100)
  --parallelism K      sessions per engine run (default: 1)
  --loss PCT           every host drops PCT % of the packets it sends (default: 0)
  --rate RATE          every host's link is capped at RATE both ways by tc tbf, e.g. 1mbit
  --latency-ms MS      the demo's own latency emulation on every link (default: 0)
  --kill I@K           kill -9 party I once the server has finished session K, then restart the
                       parties that exited (the server continues from its --checkpoint)
  --partition A/B@K:T  once the server has finished session K, drop all traffic between the hosts
                       of lists A and B (e.g. 1/0,2) for T seconds, then heal
  --expect-abort RE    the parties are expected to fail: PASS when every party exits non-zero with
                       an error line matching the regular expression RE (e.g. a long partition)
  --transport KIND     netty (default) or socket, passed to the parties
  --xfail-restart WHY  the run after the restart is known to fail (sometimes or always): a failure
                       there is reported as XFAIL, a pass as XPASS (both exit 0; any failure
                       before the restart is a FAIL)
  --timeout SECONDS    longest wait for one run of the parties (default: 300)
  --seed N             seed of the generated traces (default: 1)
  --csv FILE           append the result line here (default: target/testbed/results.csv)
  --out DIR            run directories go here (default: target/testbed)
EOF
}

name="" hosts=3 suite=bgw sessions=100 parallelism=1 loss=0 rate="" latency=0
kill_spec="" partition_spec="" xfail="" expect_abort="" transport=netty timeout=300 seed=1
interrupted=""
csv="$TB_ROOT/target/testbed/results.csv" out="$TB_ROOT/target/testbed"
while (($#)); do
  case $1 in
    --name) name=$2 ;;
    --hosts) hosts=$2 ;;
    --suite) suite=$2 ;;
    --sessions) sessions=$2 ;;
    --parallelism) parallelism=$2 ;;
    --loss) loss=$2 ;;
    --rate) rate=$2 ;;
    --latency-ms) latency=$2 ;;
    --kill) kill_spec=$2 ;;
    --partition) partition_spec=$2 ;;
    --xfail-restart) xfail=$2 ;;
    --expect-abort) expect_abort=$2 ;;
    --transport) transport=$2 ;;
    --timeout) timeout=$2 ;;
    --seed) seed=$2 ;;
    --csv) csv=$2 ;;
    --out) out=$2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift 2 || { echo "option $1 needs a value" >&2; exit 2; }
done

bad() { echo "scenario.sh: $*" >&2; exit 2; }
if ! [[ $hosts =~ ^[0-9]+$ ]] || ((hosts < 2 || hosts > 20)); then
  bad "--hosts must be 2..20"
fi
[[ $suite == spdz || $hosts -ge 3 ]] || bad "bgw needs at least 3 hosts (an honest majority)"
[[ $suite == bgw || $suite == spdz ]] || bad "--suite must be bgw or spdz"
[[ $sessions =~ ^[1-9][0-9]*$ ]] || bad "--sessions must be a positive integer"
[[ $parallelism =~ ^[1-9][0-9]*$ ]] || bad "--parallelism must be a positive integer"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || bad "--timeout must be a positive integer"
kill_party="" kill_after=""
if [[ -n $kill_spec ]]; then
  [[ $kill_spec =~ ^([0-9]+)@([0-9]+)$ ]] || bad "--kill wants I@K, e.g. 1@30"
  kill_party=${BASH_REMATCH[1]} kill_after=${BASH_REMATCH[2]}
  ((kill_party < hosts)) || bad "--kill: no party $kill_party among $hosts hosts"
  ((kill_after < sessions)) || bad "--kill: session $kill_after is not before the last"
fi
cut_a="" cut_b="" cut_after="" cut_seconds=""
if [[ -n $partition_spec ]]; then
  [[ $partition_spec =~ ^([0-9,]+)/([0-9,]+)@([0-9]+):([0-9]+)$ ]] \
    || bad "--partition wants A/B@K:T, e.g. 1/0,2@20:5"
  cut_a=${BASH_REMATCH[1]} cut_b=${BASH_REMATCH[2]}
  cut_after=${BASH_REMATCH[3]} cut_seconds=${BASH_REMATCH[4]}
  ((cut_after < sessions)) || bad "--partition: session $cut_after is not before the last"
fi
[[ -z $kill_spec || -z $partition_spec ]] || bad "--kill and --partition: one at a time"
[[ -z $xfail || -n $kill_spec ]] || bad "--xfail-restart needs --kill"
[[ -z $xfail || -z $expect_abort ]] || bad "--xfail-restart and --expect-abort: one at a time"
[[ $transport == netty || $transport == socket ]] || bad "--transport must be netty or socket"
if [[ -z $name ]]; then
  name="${suite}-${hosts}h-loss${loss}"
  [[ -n $rate ]] && name+="-$rate"
  [[ $latency != 0 ]] && name+="-lat${latency}"
  [[ -n $kill_spec ]] && name+="-kill$kill_party"
  [[ -n $partition_spec ]] && name+="-cut${cut_seconds}s"
  [[ $transport == netty ]] || name+="-$transport"
fi

missing=$(tb_missing)
if [[ -n $missing ]]; then
  echo "scenario.sh: missing prerequisites:" >&2
  while IFS= read -r line; do echo "  - $line"; done <<<"$missing" >&2
  exit 3
fi

tb_new_rid
trap tb_teardown EXIT
trap 'tb_log "interrupted"; exit 130' INT
trap 'tb_log "terminated"; exit 143' TERM
TB_DIR="$out/$name-$TB_RID"
mkdir -p "$TB_DIR" "$(dirname "$csv")"
tb_log "scenario $name: $hosts hosts, $suite, $sessions sessions, loss $loss %, rate ${rate:-none}," \
  "latency $latency ms${kill_spec:+, kill $kill_spec}${partition_spec:+, partition $partition_spec}"
tb_log "files and logs: $TB_DIR"

# ---- set up ----
tb_net_up "$hosts"
for ((i = 0; i < hosts; i++)); do
  tb_loss "$i" "$loss"
  [[ -z $rate ]] || tb_rate "$i" "$rate"
done
tb_keys
expected=$(tb_traces "$sessions" "$seed")
args=(--sessions "$sessions" --parallelism "$parallelism" --suite "$suite" --transport "$transport")
[[ $latency == 0 ]] || args+=(--latency-ms "$latency")
if [[ $suite == spdz ]]; then
  # What DistanceAverageParty.Material says a run uses, for every run this scenario may start,
  # with room for the sessions a killed run had begun: an input mask of the server per session,
  # 96 resume bits plus one 62-bit running sum per batch at the server, 32 bits per session at a
  # device (input bits are per party: the larger of the two).
  runs=1
  [[ -z $kill_spec ]] || runs=2
  batches=$(((sessions + parallelism - 1) / parallelism + runs))
  masks=$((sessions + runs * parallelism))
  server_bits=$((runs * 96 + batches * 62))
  device_bits=$((32 * masks))
  input_bits=$((server_bits > device_bits ? server_bits : device_bits))
  # shellcheck disable=SC2086 # TB_JAVA_OPTS is a list of JVM options
  java $TB_JAVA_OPTS -jar "$TB_JAR" preprocess --parties "$hosts" --inputs "$masks" \
    --input-bits "$input_bits" --out "$TB_DIR/spdz" >"$TB_DIR/preprocess.log" 2>&1 \
    || { cat "$TB_DIR/preprocess.log" >&2; tb_fail "cohort preprocess"; exit 1; }
  args+=(--preprocessing "$TB_DIR/spdz")
fi

# ---- run ----
result="" note="" phase=first others="" restarted_at="" cut_note=""
finish() { # RESULT NOTE
  result=$1
  note=$2
}
now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.1f", a - b }'; }

# Waits for every party of the current run (one deadline for all); sets failed to what went wrong
# ("" when every party exited with 0).
wait_all() {
  local deadline=$((SECONDS + $1)) i left
  failed=""
  for ((i = 0; i < hosts; i++)); do
    left=$((deadline - SECONDS))
    tb_wait "$i" $((left > 0 ? left : 1))
    case $TB_CODE in
      0) ;;
      124) failed+="P$i still running after $1 s; " ;;
      *) failed+="P$i exit $TB_CODE: $(tb_error_line "$i" "$TB_RUN"); " ;;
    esac
  done
}

# Logs what each party's SPDZ use record says it has used (the layout SpdzRestartTest reads: 4
# words, then 3 + 2n counts: triples, random elements, random bits, input masks and input bits of
# each owner; then the dealing's id and the check-in-flight mark). Best effort, for diagnosis only.
spdz_used_counts() {
  local p counts mark
  for ((p = 0; p < hosts; p++)); do
    counts=$(od -An -v -t d8 -j 32 -N $((8 * (3 + 2 * hosts))) \
      "$TB_DIR/spdz/party-$p.spdz.used" 2>/dev/null | xargs || true)
    mark=$(od -An -v -t d8 -j $((8 * (9 + 2 * hosts))) -N 8 \
      "$TB_DIR/spdz/party-$p.spdz.used" 2>/dev/null | xargs || true)
    tb_log "P$p use record after the kill: used [$counts], check in flight: ${mark:-?}"
  done
}

start=$(now)
tb_start_all "${args[@]}"

if [[ -n $kill_spec ]]; then
  if ! tb_wait_progress "$kill_after" "$timeout"; then
    tb_tails
    finish FAIL "did not reach session $kill_after to kill P$kill_party"
  elif ! tb_kill "$kill_party" "$([[ $suite == spdz ]] && echo "$TB_DIR/spdz")"; then
    tb_tails
    finish FAIL "P$kill_party had exited before the kill (at session $(tb_progress))"
  else
    killed_at=$(now)
    killed_after=$(tb_progress) # read after the kill: no session can finish without the killed
    for ((i = 0; i < hosts; i++)); do
      ((i == kill_party)) && continue
      tb_wait "$i" 90
      if [[ $TB_CODE == 124 ]]; then
        others+="P$i still running 90 s after the kill; "
      else
        others+="P$i exit $TB_CODE $(since "$killed_at") s later: $(tb_error_line "$i" "$TB_RUN"); "
      fi
    done
    tb_log "after the kill: $others"
    if [[ $suite == spdz ]]; then
      # For whoever debugs a restart: the use records as the kill left them.
      mkdir -p "$TB_DIR/spdz-used-after-kill"
      cp "$TB_DIR"/spdz/party-*.spdz.used "$TB_DIR/spdz-used-after-kill/"
      spdz_used_counts
      # A survivor can still enter a check's reveal after the kill (the victim's commitment was
      # on its way): it must then refuse its material on the restart, by design.
      for ((i = 0; i < hosts; i++)); do
        [[ $(tb_check_state "$TB_DIR/spdz/party-$i.spdz.used") == 1 ]] && interrupted+="P$i "
      done
      [[ -z $interrupted ]] || tb_log "a MAC check was interrupted at ${interrupted}after the kill"
    fi
    others="P$kill_party killed after session $killed_after; $others"
    if ((killed_after >= sessions)); then
      finish FAIL "the run had finished before the kill: use more sessions; $others"
    elif [[ $others == *"still running"* ]]; then
      tb_tails
      finish FAIL "the other parties did not stop after the kill: $others"
    else
      restarted_at=$(tb_progress)
      phase=restart
      tb_start_all "${args[@]}"
    fi
  fi
fi

if [[ -n $partition_spec ]]; then
  if tb_wait_progress "$cut_after" "$timeout"; then
    tb_partition "$cut_a" "$cut_b"
    cut_from=$(tb_progress)
    tb_alive "${TB_PIDS[0]}" || cut_from="$cut_from (the server had already exited)"
    sleep "$cut_seconds"
    cut_to=$(tb_progress)
    alive_at_heal=yes
    tb_alive "${TB_PIDS[0]}" || alive_at_heal=no
    tb_heal
    healed_at=$(now)
    # How long the parties take to move on once the links are back.
    while (($(tb_progress) <= cut_to)) && tb_alive "${TB_PIDS[0]}" \
      && awk -v t="$(since "$healed_at")" 'BEGIN { exit !(t < 60) }'; do
      sleep 0.05
    done
    if (($(tb_progress) > cut_to)); then
      resumed="next session $(since "$healed_at") s after healing"
    elif [[ $alive_at_heal == no ]]; then
      resumed="the server had exited before the cut healed"
    elif tb_alive "${TB_PIDS[0]}"; then
      resumed="no progress 60 s after healing"
    else
      resumed="the server exited after healing, without another session"
    fi
    cut_note="server at session $cut_from when cut, $cut_to when healed; $resumed"
    tb_log "$cut_note"
    if [[ $cut_from == *exited* || $cut_from == "$sessions" ]]; then
      finish FAIL "the run had finished before the cut: use more sessions; $cut_note"
      cut_note=""
    fi
  else
    tb_tails
    finish FAIL "did not reach session $cut_after to cut the network"
  fi
fi

if [[ -z $result ]]; then
  wait_all "$timeout"
  if [[ -n $expect_abort ]]; then
    # Every party must have stopped with an error that matches.
    unexpected=""
    for ((i = 0; i < hosts; i++)); do
      line=$(tb_error_line "$i" "$TB_RUN")
      [[ $line =~ $expect_abort ]] || unexpected+="P$i: $line; "
    done
    if [[ $failed == *"still running"* || -n $unexpected ]]; then
      tb_tails
      finish FAIL "expected every party to abort with /$expect_abort/: ${unexpected}${failed}"
    else
      finish PASS "every party aborted as expected: $failed"
    fi
  elif [[ -n $failed && -n $interrupted && $failed == *"a MAC check was interrupted"* ]]; then
    finish PASS "refused by design: a MAC check was interrupted at ${interrupted}after the kill (SECURITY.md); $failed"
  elif [[ -n $failed ]]; then
    tb_tails
    finish FAIL "run $TB_RUN: $failed"
  else
    got=$(tb_json_field "$TB_RUN" running_sum)
    last=$(tb_json_field "$TB_RUN" last_session)
    if [[ $last != "$sessions" ]]; then
      tb_tails
      finish FAIL "the server stopped at session ${last:-?}, not $sessions"
    elif [[ $got != "$expected" ]]; then
      tb_tails
      finish FAIL "the server's running sum is ${got:-missing}, the traces sum to $expected"
    else
      finish PASS "running sum $got = the traces' sum over $sessions sessions"
    fi
  fi
fi
end=$(now)

[[ -z $others ]] || note="$others${restarted_at:+all restarted, the server from its checkpoint at session $restarted_at; }$note"
[[ -z $cut_note ]] || note="$cut_note; $note"
if [[ -n $xfail ]]; then
  if [[ $result == FAIL && $phase == restart ]]; then
    result=XFAIL
    note="expected to fail ($xfail): $note"
  elif [[ $result == PASS ]]; then
    # Not an error: the known failure depends on where the kill lands, so it does not happen on
    # every run. Said out loud, never counted as a plain pass.
    result=XPASS
    note="passed although marked as known to fail ($xfail); $note"
  fi
fi

dropped=0
for ((i = 0; i < hosts; i++)); do
  d=$(tb_dropped "$i")
  dropped=$((dropped + ${d:-0}))
done
demo_s=$(tb_json_field "$TB_RUN" seconds_per_session)
[[ -n $expect_abort ]] && demo_s=""
event=none
[[ -z $kill_spec ]] || event="kill -9 P$kill_party after session $kill_after"
[[ -z $partition_spec ]] || event="hosts $cut_a cut from $cut_b for $cut_seconds s after session $cut_after"
[[ $transport == netty ]] || event+=", --transport $transport"
[[ -z $expect_abort ]] || event+=", expected to abort"
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
per=$(awk -v w="$wall" -v s="$sessions" 'BEGIN { printf "%.1f", 1000 * w / s }')
demo_ms=$(awk -v d="$demo_s" 'BEGIN { if (d == "") print ""; else printf "%.1f", 1000 * d }')
[[ -s $csv ]] || echo "date,run_id,scenario,hosts,suite,loss_pct,rate,latency_ms,event,sessions,wall_s,ms_per_session,demo_ms_per_session,packets_dropped,result,note" >"$csv"
printf '%s,%s,%s,%s,%s,%s,%s,%s,"%s",%s,%s,%s,%s,%s,%s,"%s"\n' \
  "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$TB_RID" "$name" "$hosts" "$suite" "$loss" "${rate:-none}" \
  "$latency" "$event" "$sessions" "$wall" "$per" "$demo_ms" "$dropped" "$result" \
  "${note//\"/\'}" >>"$csv"

tb_log "$result $name: $wall s, $per ms per session (${demo_ms:-?} ms in the server's session" \
  "loop), $dropped packets dropped"
echo "RESULT $name: $result - $note"
case $result in
  PASS | XFAIL | XPASS) exit 0 ;;
  *) exit 1 ;;
esac
