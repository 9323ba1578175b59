#!/usr/bin/env bash
# Side-by-side timings of csift-mcp and ripgrep over one generated store, warm cache, one run each.
# Usage: bench/run.sh [--size-mb N] [--threads N] [--only list|search]
# Prints a Markdown table (wall seconds, ratio to rg, peak RSS) for pasting into bench/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
size_mb=1024
threads=2
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --size-mb) size_mb="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "unknown argument: $1 (valid: --size-mb N, --threads N, --only list|search)" >&2; exit 2 ;;
  esac
done
bin="$root/build/csift-mcp"
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 1; }
command -v rg >/dev/null || { echo "ripgrep (rg) is needed for the comparison: apt-get install ripgrep" >&2; exit 1; }
store="$here/out/store-${size_mb}m"
if [ ! -d "$store/projects" ]; then
  echo "generating a ${size_mb} MiB store in $store ..." >&2
  python3 "$here/gen_corpus.py" --out "$store" --size-mb "$size_mb" >&2
fi
mapfile -t files < <(find "$store/projects" -name '*.jsonl' | sort)
bytes=$(cat "${files[@]}" | wc -c)
cat "${files[@]}" > /dev/null  # warm the page cache
export TBB_NUM_THREADS="$threads" CSIFT_THREADS="$threads"

# run LABEL CMD... : prints "seconds peak_rss_kb" for one run
measure() {
  local out
  out=$( { /usr/bin/time -f '%e %M' "$@" > /dev/null 2>/dev/null; } 2>&1 | tail -1)
  echo "$out"
}
row() {  # name, csift command (array in csift_cmd), rg command (array in rg_cmd)
  local name="$1" c r cs cm rs rm
  c=$(measure "${csift_cmd[@]}"); r=$(measure "${rg_cmd[@]}")
  cs=${c% *}; cm=${c#* }; rs=${r% *}; rm=${r#* }
  awk -v n="$name" -v cs="$cs" -v rs="$rs" -v cm="$cm" -v rm="$rm" \
    'BEGIN { ratio = (rs > 0) ? cs / rs : 0; printf("| %s | %.3f | %.3f | %.2fx | %.0f MB | %.0f MB |\n", n, cs, rs, ratio, cm/1024, rm/1024) }'
}

echo "store: $store — ${#files[@]} files, $((bytes >> 20)) MiB; threads=$threads; $(nproc) cores; $(uname -r)"
echo
echo "| case | csift-mcp s | rg s | ratio | csift peak RSS | rg peak RSS |"
echo "|---|---:|---:|---:|---:|---:|"
if [ -z "$only" ] || [ "$only" = list ]; then
  csift_cmd=("$bin" --cli list --claude-home "$store" --max-count 0 --format json)
  rg_cmd=(rg -c -j "$threads" x "${files[@]}")
  row "list (all sessions) vs rg -c x" 
fi
if [ -z "$only" ] || [ "$only" = search ]; then
  s=("$bin" --cli search --claude-home "$store" -c)
  csift_cmd=("${s[@]}" xylophonezebraquartz); rg_cmd=(rg -c -F -j "$threads" xylophonezebraquartz "${files[@]}")
  row "absent literal (rg -c -F)"
  csift_cmd=("${s[@]}" zanzibarquux); rg_cmd=(rg -c -F -j "$threads" zanzibarquux "${files[@]}")
  row "rare literal (rg -c -F)"
  csift_cmd=("${s[@]}" scanner); rg_cmd=(rg -c -F -j "$threads" scanner "${files[@]}")
  row "common word 'scanner' (rg -c -F)"
  csift_cmd=("${s[@]}" 'zanzibarquux|xylophonezebraquartz'); rg_cmd=(rg -c -j "$threads" 'zanzibarquux|xylophonezebraquartz' "${files[@]}")
  row "alternation (rg -c)"
  csift_cmd=("${s[@]}" -i ZANZIBARQUUX); rg_cmd=(rg -c -i -F -j "$threads" ZANZIBARQUUX "${files[@]}")
  row "case-insensitive literal (rg -c -i -F)"
  csift_cmd=("${s[@]}" "" -t user); rg_cmd=(rg -c -j "$threads" '"role":"user"' "${files[@]}")
  row "-t user pure filter (rg -c role:user)"
fi
