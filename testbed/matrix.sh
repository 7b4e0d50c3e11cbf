#!/usr/bin/env bash
# Runs every testbed scenario (about ten minutes on two cores), appends one CSV line per scenario
# to target/testbed/matrix-<date>.csv (or FILE) and prints the results as a Markdown table.
#
#   sudo testbed/matrix.sh [FILE.csv]
#
# Exit code 0 when every scenario passed (XFAIL and XPASS, for a restart marked as known to fail,
# count as passed: the table shows which), 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
csv=${1:-$here/../target/testbed/matrix-$(date +%Y%m%d-%H%M%S).csv}
mkdir -p "$(dirname "$csv")"

# One scenario per line: the options of scenario.sh.
scenarios=(
  "--hosts 3 --suite bgw --sessions 500"
  "--hosts 3 --suite bgw --sessions 200 --loss 5"
  "--hosts 5 --suite bgw --sessions 500"
  "--hosts 5 --suite bgw --sessions 200 --loss 5"
  "--hosts 3 --suite spdz --sessions 500"
  "--hosts 3 --suite spdz --sessions 200 --loss 5"
  "--hosts 5 --suite spdz --sessions 500"
  "--hosts 5 --suite spdz --sessions 200 --loss 5"
  "--hosts 3 --suite bgw --sessions 200 --rate 1mbit"
  "--hosts 3 --suite spdz --sessions 200 --rate 1mbit"
  "--hosts 3 --suite bgw --sessions 100 --rate 1mbit --latency-ms 20"
  "--hosts 3 --suite spdz --sessions 100 --rate 1mbit --latency-ms 20"
  "--hosts 3 --suite bgw --sessions 300 --kill 1@50"
  "--hosts 3 --suite bgw --sessions 300 --kill 0@50"
  "--hosts 3 --suite bgw --sessions 200 --loss 5 --kill 2@50"
  # SPDZ after a kill -9 (outside a MAC check's reveal: see tb_kill): the parties agree on their
  # positions in the dealer files and continue.
  "--hosts 3 --suite spdz --sessions 300 --kill 1@50"
  "--hosts 3 --suite spdz --sessions 300 --kill 0@50"
  "--hosts 3 --suite spdz --sessions 300 --kill 2@100"
  "--hosts 3 --suite bgw --sessions 300 --partition 1/0,2@50:5"
  "--hosts 3 --suite spdz --sessions 300 --partition 1/0,2@50:5"
  "--hosts 3 --suite bgw --sessions 300 --partition 1/0,2@50:20 --expect-abort went.silent"
  "--hosts 3 --suite bgw --sessions 300 --partition 1/0,2@50:20 --transport socket"
)

failed=0
for s in "${scenarios[@]}"; do
  # shellcheck disable=SC2086 # each entry is a list of options
  "$here/scenario.sh" $s --csv "$csv" || failed=$((failed + 1))
done

echo
echo "| hosts | suite | loss | rate | event | sessions | wall (s) | ms per session | ms per session, server's loop | result |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
# Quoted fields (event, note) may hold commas: split by hand (portable awk, no FPAT).
awk 'function fields(line, f,   n, i, c, q, cur) {
  n = 0; cur = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (c == "\"") q = !q
    else if (c == "," && !q) { f[++n] = cur; cur = "" }
    else cur = cur c
  }
  f[++n] = cur
  return n
}
NR > 1 {
  fields($0, f)
  lat = (f[8] == "0" ? "" : ", " f[8] " ms latency")
  printf "| %s | %s | %s %% | %s%s | %s | %s | %s | %s | %s | %s |\n",
    f[4], f[5], f[6], f[7], lat, f[9], f[10], f[11], f[12], f[13], f[15]
}' "$csv"
echo
echo "results: $csv"
if ((failed > 0)); then
  echo "$failed scenario(s) failed"
  exit 1
fi
