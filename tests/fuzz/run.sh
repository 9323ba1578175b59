#!/usr/bin/env bash
# Runs the libFuzzer targets of a CSIFT_FUZZ build (tests/fuzz/CMakeLists.txt) and prints, per target,
# executions, exec/s, coverage (cov: edges, ft: features), corpus size and crashes.
#   run.sh BUILD_DIR smoke  a short run of each (FUZZ_SMOKE_SECONDS, default 3): every seed and every committed
#                           regression input (tests/fuzz/regressions/<target>/) is replayed first; nothing is
#                           kept. What `make test` runs.
#   run.sh BUILD_DIR long   FUZZ_SECONDS each (default 60), or exactly FUZZ_RUNS executions each when set (the
#                           10-million runs: FUZZ_RUNS=10000000), growing a corpus kept in
#                           BUILD_DIR/fuzz/corpus/<target>. What `make fuzz` runs.
# FUZZ_TARGETS (names without fuzz_, space-separated) picks targets; FUZZ_JOBS targets run at once (default:
# the cores); FUZZ_NICE sets their niceness; FUZZ_MAX_LEN caps an input's length (libFuzzer's -max_len; by
# default the longest seed, 16 KiB). A crash's input is kept in BUILD_DIR/fuzz/artifacts/<target>/;
# the script exits non-zero when any target crashed.
set -euo pipefail
build=$(cd "$1" && pwd)
mode=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
here=$src/tests/fuzz
work=$build/fuzz
mkdir -p "$work/logs" "$work/artifacts" "$work/corpus"

# Seed corpora, rebuilt at every run from fixtures/ and ../shared/corpus (never kept in the repository).
rm -rf "$work/seeds"
python3 "$here/seeds.py" "$work/seeds" "$src" >"$work/logs/seeds.txt"
cat "$here/json.dict" "$here/transcript.dict" >"$work/transcript.dict"

targets=${FUZZ_TARGETS:-$(cd "$build/tests/fuzz" && ls fuzz_* | grep -v '\.' | sed 's/^fuzz_//' | sort)}
jobs=${FUZZ_JOBS:-$(nproc)}
seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-0}
[ "$mode" = smoke ] && { seconds=${FUZZ_SMOKE_SECONDS:-3}; runs=0; }

transcript_dict=$work/transcript.dict
. "$here/target_options.sh"

run_one() {
  local t=$1 corpus dict limit
  mkdir -p "$work/artifacts/$t" "$work/seeds/$t"
  if [ "$mode" = smoke ]; then
    corpus=$(mktemp -d "${TMPDIR:-/tmp}/csift-fuzz-$t.XXXXXX")
  else
    corpus=$work/corpus/$t
    mkdir -p "$corpus"
  fi
  dict=$(dict_of "$t")
  if [ "$runs" -gt 0 ]; then limit="-runs=$runs"; else limit="-max_total_time=$seconds"; fi
  # The smoke is part of make test: a fixed seed, so it mutates the same way on every run.
  [ "$mode" = smoke ] && limit="$limit -seed=1"
  local rc=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice -n "${FUZZ_NICE:-0}" "$build/tests/fuzz/fuzz_$t" $limit -print_final_stats=1 -timeout=20 \
    -rss_limit_mb=2560 -artifact_prefix="$work/artifacts/$t/" ${dict:+-dict="$dict"} $(opts_of "$t") \
    ${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} \
    "$corpus" "$work/seeds/$t" $( [ -d "$here/regressions/$t" ] && echo "$here/regressions/$t") \
    >"$work/logs/$t.log" 2>&1 || rc=$?
  echo "$rc" >"$work/logs/$t.rc"
  [ "$mode" = smoke ] && rm -rf "$corpus"
  return 0
}
export -f run_one dict_of opts_of
export work here build mode seconds runs transcript_dict

start=$(date +%s)
printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one {}'
elapsed=$(( $(date +%s) - start ))

failed=0
printf '%-16s %12s %8s %7s %7s %7s %8s\n' target executions exec/s cov ft corpus crashes
for t in $targets; do
  log=$work/logs/$t.log
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -1 || true)
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
  corp=$(echo "$last" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*' || true)
  rc=$(cat "$work/logs/$t.rc")
  crashes=0
  if [ "$rc" != 0 ]; then
    crashes=1
    failed=1
  fi
  printf '%-16s %12s %8s %7s %7s %7s %8s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "${corp:--}" "$crashes"
  if [ "$rc" != 0 ]; then
    echo "  fuzz_$t exited $rc; log: $log; input kept in $work/artifacts/$t/" >&2
    grep -m3 -E 'ERROR: |FUZZ INVARIANT|runtime error|deadly signal|Test unit written' "$log" | sed 's/^/  /' >&2 || true
  fi
done
echo "($mode run, $elapsed s wall, $jobs at once)"
exit $failed
