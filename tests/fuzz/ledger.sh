#!/usr/bin/env bash
# Sums a fuzz campaign's ledger (tests/fuzz/campaign.sh) per target: runs, executions, CPU-time seconds of the
# runs, the last run's cov / ft / corpus, crashes. `ledger.sh [LEDGER] [SINCE]`: LEDGER defaults to
# /work/fuzz/ledger.tsv; SINCE (an ISO time, e.g. 2026-12-05T23:30) counts only the runs that ended after it.
# tests/fuzz/campaign-ledger.tsv is the ledger as copied into the repository at a stop (the machine's own can be
# lost between sessions): its crashes are explained by that stop's note; a libFuzzer timeout caused by the
# campaign being paused (SIGSTOP during a bench trips its wall-clock -timeout) replays clean.
ledger=${1:-${FUZZ_HOME:-/work/fuzz}/ledger.tsv}
since=${2:-}
awk -F'\t' -v since="$since" '
  NR == 1 || (since != "" && $1 < since) { next }
  { if (!($2 in runs)) order[n++] = $2
    runs[$2]++; execs[$2] += $4; secs[$2] += $9; crashes[$2] += $8; cov[$2] = $5; ft[$2] = $6; corp[$2] = $7 }
  END {
    printf "%-16s %5s %12s %8s %8s %6s %6s %7s %7s\n", "target", "runs", "executions", "seconds", "exec/s", "cov", "ft", "corpus", "crashes"
    for (i = 0; i < n; i++) { t = order[i]
      printf "%-16s %5d %12d %8d %8d %6s %6s %7s %7d\n", t, runs[t], execs[t], secs[t], secs[t] ? execs[t] / secs[t] : 0, cov[t], ft[t], corp[t], crashes[t] }
  }' "$ledger" | { read -r head; echo "$head"; sort; }
