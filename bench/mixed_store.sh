#!/usr/bin/env bash
# A mixed store made of the real logs in ../shared/corpus (symlinks, read in place): Claude Code sessions
# (cli, spotter, claude-backups, scripts-and-tools), Codex rollouts (localpush, skills), the Gemini CLI and
# Copilot CLI logs of agent-sessions; then `search --harness all` beside `rg` over the same files.
# Usage: bench/mixed_store.sh [PATTERN] (default: migrat)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$(cd "$here/../shared/corpus" && pwd)"
bin="$here/build/csift-mcp"
pattern="${1:-migrat}"
store="$(mktemp -d /tmp/csift-mixed-XXXXXX)"
trap 'rm -rf "$store"' EXIT
n=0
while IFS= read -r f; do
  if head -c 200 "$f" | grep -q '"session_meta"'; then
    id="$(head -1 "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["payload"]["id"])')"
    mkdir -p "$store/codex/sessions/2026/01/01"
    ln -sf "$f" "$store/codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-$id.jsonl"
  elif head -c 1 "$f" | grep -q '{' && ! head -1 "$f" | grep -q '^{$'; then
    mkdir -p "$store/claude/projects/-mixed"
    ln -sf "$f" "$store/claude/projects/-mixed/s$((n++)).jsonl"
  fi
done < <(find "$corpus/cli" "$corpus/spotter" "$corpus/claude-backups" "$corpus/scripts-and-tools" \
           "$corpus/localpush" "$corpus/skills" -name '*.jsonl' -type f | sort)
mkdir -p "$store/gemini/.gemini/tmp/p/chats" "$store/copilot/session-state/s1"
ln -s "$corpus/agent-sessions/Resources/Fixtures/stage0/agents/gemini/jsonl_v040.jsonl" \
  "$store/gemini/.gemini/tmp/p/chats/session-v040.jsonl"
ln -s "$corpus/agent-sessions/Resources/Fixtures/stage0/agents/copilot/small.jsonl" \
  "$store/copilot/session-state/s1/events.jsonl"
files=$(find -L "$store" -name '*.jsonl' -type f | wc -l)
bytes=$(find -L "$store" -name '*.jsonl' -type f -exec cat {} + | wc -c)
find -L "$store" -name '*.jsonl' -type f -exec cat {} + > /dev/null  # warm the page cache
export CODEX_HOME="$store/codex" GEMINI_CLI_HOME="$store/gemini" COPILOT_HOME="$store/copilot"
echo "mixed store: $files files, $bytes bytes; pattern '$pattern'; load $(cut -d' ' -f1-3 /proc/loadavg)"
for run in 1 2 3; do
  /usr/bin/time -f "csift-mcp search --harness all -c: %e s wall, %U+%S s CPU, %M KB" \
    "$bin" --cli search "$pattern" --harness all --claude-home "$store/claude" -c --max-count 0 > /dev/null
  /usr/bin/time -f "rg -L -c over the same files: %e s wall, %U+%S s CPU, %M KB" \
    rg -L -c -j2 "$pattern" "$store" > /dev/null
done
"$bin" --cli search "$pattern" --harness all --claude-home "$store/claude" --max-count 0 --format json |
  python3 -c 'import json,sys,collections; rows=[json.loads(l) for l in sys.stdin]; c=collections.Counter(r["session_id"].split(":")[0] if ":" in r["session_id"] else "claude-code" for r in rows if r.get("kind")=="exchange"); print("exchanges by harness:", dict(c))'
