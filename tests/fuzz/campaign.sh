#!/usr/bin/env bash
# The long fuzz campaign (SPEC.md §14): every target of a CSIFT_FUZZ build in turn, one process at a time and
# at the lowest priority (it takes only idle CPU), each run growing a corpus kept OUTSIDE the repository and
# the build, so executions add up across runs, rebuilds and sessions. Each run appends one row to a ledger
# (the evidence for "10 million executions per target with no crash"): when it ended, target, the commit the
# binary was built from, executions, cov, ft, corpus size, crashes, seconds.
#   campaign.sh BUILD_DIR [UNTIL]   UNTIL: a time `date -d` reads (e.g. 01:10); default: until killed.
# Environment: FUZZ_HOME (default /work/fuzz: corpus/<target>, ledger.tsv, logs/, artifacts/<target>/, bin/),
# CAMPAIGN_SLICE seconds per run (default 300), CAMPAIGN_TARGETS (names without fuzz_; default all),
# FUZZ_NICE (default 19). The binaries are copied to FUZZ_HOME/bin/<commit>/ first, so a rebuild of BUILD_DIR
# does not change what a running campaign executes. A crashing target's input is kept in
# FUZZ_HOME/artifacts/<target>/ and the campaign goes on with the next target; `ledger.sh` sums the ledger.
# Stop it by killing its process group (it runs the fuzzers in its own group: kill -- -PID).
set -uo pipefail
build=$(cd "$1" && pwd)
until_epoch=0
if [ $# -ge 2 ]; then
  until_epoch=$(date -u -d "$2" +%s)
  # A clock time already past today is tomorrow's.
  [ "$until_epoch" -le "$(date -u +%s)" ] && until_epoch=$((until_epoch + 86400))
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
here=$src/tests/fuzz
home=${FUZZ_HOME:-/work/fuzz}
slice=${CAMPAIGN_SLICE:-300}
mkdir -p "$home/logs" "$home/corpus" "$home/artifacts" "$home/bin"
# nice alone does not make a campaign take only idle CPU: with the kernel's autogroups on, each session (one
# started with setsid, or from another terminal) shares the CPU with the others as a whole, whatever its
# processes' nice values, so a campaign left in its own session took two thirds of the cores from a bench
# (a fresh server's first call: 0.93 s wall for 0.6 s of CPU on 2 threads; 0.40 s once its group was niced).
# The group's own nice value does apply across sessions.
[ -w /proc/self/autogroup ] && echo "${FUZZ_NICE:-19}" >/proc/self/autogroup 2>/dev/null

commit=$(git -C "$src" rev-parse --short=9 HEAD)
git -C "$src" diff --quiet HEAD -- core server tools tests/fuzz || commit="$commit+dirty"
bin=$home/bin/$commit
mkdir -p "$bin"
for exe in csift_fuzz csift_fuzz_jsonrpc; do
  [ -x "$build/tests/fuzz/$exe" ] && cp -f "$build/tests/fuzz/$exe" "$bin/$exe.new" && mv -f "$bin/$exe.new" "$bin/$exe"
done
targets=${CAMPAIGN_TARGETS:-$(cd "$build/tests/fuzz" && ls fuzz_* | grep -v '\.' | sed 's/^fuzz_//' | sort)}
for t in $targets; do
  exe=csift_fuzz
  [ "$t" = jsonrpc ] && exe=csift_fuzz_jsonrpc
  ln -sf "$exe" "$bin/fuzz_$t"
done

# Seeds from fixtures/ and ../shared/corpus (tests/fuzz/seeds.py), rebuilt at each start; each run reads them
# with the committed regression inputs, and writes what it finds new into the persistent corpus only.
# Each campaign builds its own copy: two started together (one a core) each removed the other's seeds as it
# rebuilt them, and a run whose seed directory had vanished exited at once (a row of 0 executions counted as
# a crash).
seeds=$home/seeds.$$
trap 'rm -rf "$seeds"' EXIT
rm -rf "$seeds"
python3 "$here/seeds.py" "$seeds" "$src" >"$home/logs/seeds.$$.txt"
cat "$here/json.dict" "$here/transcript.dict" >"$home/transcript.dict"
transcript_dict=$home/transcript.dict
. "$here/target_options.sh"

[ -f "$home/ledger.tsv" ] || printf 'ended\ttarget\tcommit\texecutions\tcov\tft\tcorpus\tcrashes\tseconds\n' >"$home/ledger.tsv"
echo "campaign $$ from $bin: $(echo $targets | wc -w) targets, $slice s each, until ${2:-killed}"
while :; do
  for t in $targets; do
    now=$(date -u +%s)
    left=$slice
    if [ "$until_epoch" -gt 0 ]; then
      [ "$now" -ge "$until_epoch" ] && exit 0
      [ $((until_epoch - now)) -lt "$left" ] && left=$((until_epoch - now))
    fi
    mkdir -p "$home/corpus/$t" "$home/artifacts/$t" "$seeds/$t"
    dict=$(dict_of "$t")
    log=$home/logs/$t-$(date -u +%Y%m%dT%H%M%S).log
    start=$(date +%s)
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      nice -n "${FUZZ_NICE:-19}" "$bin/fuzz_$t" -max_total_time="$left" -print_final_stats=1 -timeout=20 \
      -rss_limit_mb=2560 -artifact_prefix="$home/artifacts/$t/" ${dict:+-dict="$dict"} $(opts_of "$t") \
      "$home/corpus/$t" "$seeds/$t" $([ -d "$here/regressions/$t" ] && echo "$here/regressions/$t") \
      >"$log" 2>&1
    rc=$?
    seconds=$(($(date +%s) - start))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
    # A crash ends the run before the final stats: its last status line counts the executions.
    [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -1)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
    corp=$(ls "$home/corpus/$t" | wc -l)
    crashes=0
    [ "$rc" = 0 ] || crashes=1
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$commit" "${execs:-0}" "${cov:--}" \
      "${ft:--}" "$corp" "$crashes" "$seconds" >>"$home/ledger.tsv"
    if [ "$crashes" != 0 ]; then
      echo "fuzz_$t exited $rc: $log" >&2
      grep -m3 -E 'ERROR: |FUZZ INVARIANT|runtime error|deadly signal|Test unit written' "$log" >&2
    fi
  done
done
