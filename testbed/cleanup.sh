#!/usr/bin/env bash
# Lists the testbed's network namespaces left on this machine (a run removes its own on exit, also
# on error or Ctrl-C, but not when the script itself is killed with SIGKILL), or, given run ids,
# removes those runs' namespaces and the processes in them. Never touches another run's names.
#
#   testbed/cleanup.sh            list leftover runs
#   testbed/cleanup.sh 1a2b3c     remove run 1a2b3c
set -euo pipefail

runs() { ip netns list | awk '{ print $1 }' | sed -n 's/^cb\([0-9a-f]\{6\}\)-.*/\1/p' | sort -u; }

if (($# == 0)); then
  found=$(runs)
  if [[ -z $found ]]; then
    echo "no testbed namespaces on this machine"
  else
    echo "testbed runs with namespaces left (remove with testbed/cleanup.sh RID...):"
    for rid in $found; do
      echo "  $rid: $(ip netns list | awk '{ print $1 }' | grep "^cb$rid-" | tr '\n' ' ')"
    done
  fi
  exit 0
fi

for rid in "$@"; do
  [[ $rid =~ ^[0-9a-f]{6}$ ]] || { echo "not a run id (six hex digits): $rid" >&2; exit 2; }
  for ns in $(ip netns list | awk '{ print $1 }' | grep "^cb$rid-" || true); do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do
      kill -9 "$pid" 2>/dev/null || true
    done
    ip netns del "$ns" && echo "removed namespace $ns"
  done
done
