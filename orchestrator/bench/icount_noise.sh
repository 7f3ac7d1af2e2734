#!/usr/bin/env bash
# Benchmark of the deterministic mode (docs/matrix.md "Deterministic mode"): N fresh boots of
# one cell in real time and N in icount mode, interleaved A B B A ..., through `rlab run`; prints
# each boot's score, guest pass length, host wall time and host load, then the boot-to-boot
# relative stddev of the score in each mode. Figures go to docs/benchmarks.md.
#
#   orchestrator/bench/icount_noise.sh RLAB_BIN OUT_DIR [N=6] [VCPUS=1] [DURATION_S=30] [SHIFT=2]
#
# OUT_DIR receives the two matrices, the store (rlab.db) and boots.csv. The kernel is the
# default matrix's "6.12" (64K pages), so a cached build is reused. FROM=<i> [ONLY=<mode>]
# continues an interrupted benchmark in the same OUT_DIR at pair i (appending to boots.csv).
# MODES="icount" (or "realtime") runs only that mode's boots.
set -euo pipefail
rlab=${1:?usage: $0 RLAB_BIN OUT_DIR [N] [VCPUS] [DURATION_S] [SHIFT]}
out=${2:?usage: $0 RLAB_BIN OUT_DIR [N] [VCPUS] [DURATION_S] [SHIFT]}
n=${3:-6}
vcpus=${4:-1}
duration=${5:-30}
shift_n=${6:-2}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
db=$out/rlab.db

matrix() {  # $1: file, $2: extra guest keys
  cat >"$1" <<YAML
kernels:
  "6.12":
    source: {debian: "6.12", suite: trixie}
    page_size: 64k
axes:
  kernel: ["6.12"]
  filesystem: [{fs: xfs}]
  vcpus: [$vcpus]
  workload: [{type: shell1, copies: vcpus, passes: 1, duration_s: $duration}]
guest: {memory_mib: 1024, accel: tcg, disk_gib: 2$2}
results: $db
YAML
}
matrix "$out/realtime.yaml" ""
matrix "$out/icount.yaml" ", clock: icount, icount_shift: $shift_n"
# The matrices live in OUT_DIR; the kernel's cache key does not depend on where.
from=${FROM:-1}
((from > 1)) || echo "mode,boot,run,score_lpm,loops,pass_guest_s,wall_s,loadavg_before,loadavg_after" >"$out/boots.csv"

one() {  # $1: mode, $2: index
  local load0 load1 t0 t1 run
  load0=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  "$rlab" run "$out/$1.yaml" --db "$db" >"$out/$1-$2.log" 2>&1 || {
    echo "rlab run failed ($1 boot $2): see $out/$1-$2.log" >&2
    return 1
  }
  t1=$(date +%s.%N)
  load1=$(cut -d' ' -f1 /proc/loadavg)
  run=$(sqlite3 "$db" "SELECT max(id) FROM runs")
  sqlite3 -csv "$db" "SELECT r.score, p.loops, p.duration_s FROM results r JOIN boots b ON b.id = r.boot_id
      JOIN cells c ON c.id = b.cell_id JOIN passes p ON p.boot_id = b.id WHERE c.run_id = $run" |
    while IFS=, read -r score loops dur; do
      printf '%s,%s,%s,%s,%s,%s,%.1f,%s,%s\n' "$1" "$2" "$run" "$score" "$loops" "$dur" \
        "$(echo "$t1 - $t0" | bc)" "$load0" "$load1" | tee -a "$out/boots.csv"
    done
}

for ((i = from; i <= n; i++)); do
  if ((i % 2)); then order="realtime icount"; else order="icount realtime"; fi
  for mode in $order; do
    [[ " ${MODES:-realtime icount} " == *" $mode "* ]] || continue
    if ((i == from)) && [[ -n ${ONLY:-} && $mode != "$ONLY" ]]; then continue; fi
    one "$mode" "$i"
  done
done

awk -F, 'NR > 1 { s[$1] += $4; q[$1] += $4 * $4; c[$1]++; w[$1] += $7; l[$1] += $8 }
  END {
    for (m in c) {
      mean = s[m] / c[m]
      sd = c[m] > 1 ? sqrt((q[m] - c[m] * mean * mean) / (c[m] - 1)) : 0
      printf "%-8s boots %d  mean %.2f lpm  stddev %.3f  relative stddev %.2f %%  mean wall %.0f s  mean load %.2f\n",
             m, c[m], mean, sd, 100 * sd / mean, w[m] / c[m], l[m] / c[m]
    }
  }' "$out/boots.csv"
