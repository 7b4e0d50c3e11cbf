#!/usr/bin/env bash
# The multi-host stage of CI (.ci/run runs it after ./mvnw verify): a few short testbed scenarios,
# each party in its own network namespace, over TLS. Needs root and a kernel with network
# namespaces, veth, bridges and nftables; installs nftables with apt-get when nft is missing.
# Without them it prints "multi-host stage skipped: <reason>" and exits 0; set
# COHORT_SKIP_MULTIHOST=1 to skip it on purpose.
#
# Exit code 0 when the scenarios passed or the stage was skipped, 1 when a scenario failed (the
# failing scenario prints the tails of its parties' logs; every log is under target/testbed/).
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"

# The scripts themselves first, where shellcheck is installed (the stage does not install it).
if command -v shellcheck >/dev/null 2>&1; then
  shellcheck -x "$here"/*.sh || { echo "multi-host stage FAILED: shellcheck" >&2; exit 1; }
fi

skip() {
  echo "multi-host stage skipped: $*"
  exit 0
}

[[ -z ${COHORT_SKIP_MULTIHOST:-} ]] || skip "COHORT_SKIP_MULTIHOST is set"
[[ $(id -u) -eq 0 ]] || skip "not root (network namespaces, nftables and tc need root)"
command -v ip >/dev/null 2>&1 || skip "command 'ip' (iproute2) not found"
tb_install
missing=$(tb_missing)
# A missing jar is a broken build, not a missing feature of this machine.
if [[ $missing == *"not built"* ]]; then
  echo "multi-host stage FAILED: $TB_JAR is missing; the stage runs after ./mvnw verify" >&2
  exit 1
fi
[[ -z $missing ]] || skip "$(echo "$missing" | paste -sd ';' - | sed 's/;/; /g')"
tb_new_rid
kernel=$(tb_probe_kernel)
[[ -z $kernel ]] || skip "$(echo "$kernel" | paste -sd ';' - | sed 's/;/; /g')"

csv="$TB_ROOT/target/testbed/ci-$(date +%Y%m%d-%H%M%S).csv"
started=$SECONDS
# Generous timeouts: a run of these takes seconds, but CI machines can be slow and loaded.
scenarios=(
  "--name ci-bgw-3h-loss5-kill1 --hosts 3 --suite bgw --sessions 150 --loss 5 --kill 1@20"
  "--name ci-spdz-3h-kill2 --hosts 3 --suite spdz --sessions 120 --kill 2@20"
  "--name ci-bgw-3h-cut5s --hosts 3 --suite bgw --sessions 400 --partition 2/0,1@10:5"
)
failed=()
echo "multi-host stage: ${#scenarios[@]} scenarios, results in $csv"
for s in "${scenarios[@]}"; do
  # shellcheck disable=SC2086 # each entry is a list of options
  if ! "$here/scenario.sh" $s --timeout 240 --csv "$csv"; then
    failed+=("$(awk '{ print $2 }' <<<"$s")")
  fi
done
elapsed=$((SECONDS - started))
if ((${#failed[@]} > 0)); then
  echo "multi-host stage FAILED after ${elapsed} s: ${failed[*]} (logs under $TB_ROOT/target/testbed/)" >&2
  exit 1
fi
echo "multi-host stage passed: ${#scenarios[@]} scenarios in ${elapsed} s"
