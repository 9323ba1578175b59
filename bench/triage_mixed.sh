#!/usr/bin/env bash
# The triage tools over a large mixed store of all seven readers, one run each, beside `rg` over the same files.
# The store is built in a temp dir from ../shared/corpus, replicated under fresh session ids until it reaches
# the size asked for: its Claude Code sessions and Codex rollouts (symlinks, read in place: the id is the file
# or folder name), the Gemini CLI log of agent-sessions (copied, its sessionId made unique) and its Copilot CLI
# log (symlinked into a fresh session folder); plus the triage fixtures' Cursor session and the OpenCode 1 and 2
# databases of fixtures/opencode/make_opencode_db.sh. Prints the store and one Markdown row per call.
# Usage: bench/triage_mixed.sh [--size-mb N] (default 300)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$(cd "$here/../shared/corpus" && pwd)"
bin="${CSIFT_BENCH_BIN:-$here/build/csift-mcp}"
size_mb=300
while [ $# -gt 0 ]; do
  case "$1" in
    --size-mb) size_mb="$2"; shift 2 ;;
    *) echo "unknown argument: $1 (valid: --size-mb N)" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 1; }
command -v rg >/dev/null || { echo "ripgrep (rg) is needed for the comparison: apt-get install ripgrep" >&2; exit 1; }
store="$(mktemp -d /tmp/csift-triage-mixed-XXXXXX)"
trap 'rm -rf "$store"' EXIT

python3 - "$corpus" "$store" "$size_mb" <<'EOF'
import json, os, sys, uuid, random
corpus, store, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(7)
fresh = lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4))
claude, codex = [], []
for src in ("cli", "spotter", "claude-backups", "scripts-and-tools", "localpush", "skills"):
    for d, _, fs in os.walk(os.path.join(corpus, src)):
        for f in sorted(fs):
            p = os.path.join(d, f)
            if not f.endswith(".jsonl") or "subagents" in p:
                continue
            with open(p, "rb") as fh:
                head = fh.readline()
            if b'"session_meta"' in head[:400]:
                codex.append(p)
            elif head.startswith(b"{") and head.strip() != b"{":
                claude.append(p)
agents = os.path.join(corpus, "agent-sessions", "Resources", "Fixtures", "stage0", "agents")
gemini = open(os.path.join(agents, "gemini", "jsonl_v040.jsonl"), "rb").read()
copilot = os.path.join(agents, "copilot", "small.jsonl")
once = sum(os.path.getsize(p) for p in claude + codex) + len(gemini) + os.path.getsize(copilot)
replicas = max(1, -(-size_mb * 1024 * 1024 // once))
for k in range(replicas):
    proj = os.path.join(store, "claude", "projects", f"-mixed-r{k}")
    os.makedirs(proj, exist_ok=True)
    for p in claude:
        os.symlink(p, os.path.join(proj, fresh() + ".jsonl"))
    day = os.path.join(store, "codex", "sessions", "2026", "01", f"{k % 28 + 1:02d}")
    os.makedirs(day, exist_ok=True)
    for p in codex:
        os.symlink(p, os.path.join(day, f"rollout-2026-01-01T00-00-00-{fresh()}.jsonl"))
    chats = os.path.join(store, "gemini", ".gemini", "tmp", f"p{k}", "chats")
    os.makedirs(chats)
    with open(os.path.join(chats, f"session-2026-01-01T00-00-r{k}.jsonl"), "wb") as fh:
        fh.write(gemini.replace(b'"gemini_stage0_jsonl"', f'"gemini_stage0_jsonl_r{k}"'.encode(), 1))
    sess = os.path.join(store, "copilot", "session-state", fresh())
    os.makedirs(sess)
    os.symlink(copilot, os.path.join(sess, "events.jsonl"))
print(f"{replicas} replica(s) of {len(claude)} Claude Code sessions, {len(codex)} Codex rollouts, "
      f"1 Gemini CLI and 1 Copilot CLI log", file=sys.stderr)
EOF
mkdir -p "$store/home/.local/share/opencode"
cp -r "$here/fixtures/triage/home/.cursor" "$store/home/.cursor"
bash "$here/fixtures/opencode/make_opencode_db.sh" export "$store/home/.local/share/opencode/opencode.db" \
  "$here/fixtures/triage/opencode-session.json" >/dev/null
bash "$here/fixtures/opencode/make_opencode_db.sh" v2 "$store/home/.local/share/opencode/opencode-two.db" >/dev/null

files=$(find -L "$store" \( -name '*.jsonl' -o -name '*.db' \) -type f | wc -l)
bytes=$(find -L "$store" \( -name '*.jsonl' -o -name '*.db' \) -type f -exec cat {} + | wc -c)
find -L "$store" -type f -exec cat {} + > /dev/null  # warm the page cache
unset CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME COPILOT_HOME OPENCODE_DB XDG_DATA_HOME XDG_CONFIG_HOME
export HOME="$store/home" CLAUDE_CONFIG_DIR="$store/claude" CODEX_HOME="$store/codex" \
  GEMINI_CLI_HOME="$store/gemini" COPILOT_HOME="$store/copilot" CSIFT_CONFIG="$store/none.toml"
echo "mixed store: $files files, $bytes bytes (${size_mb} MiB asked); load $(cut -d' ' -f1-3 /proc/loadavg)"

secs() {  # seconds CMD...: wall time of one run, output discarded
  local t0 t1
  t0=$(date +%s%N)
  "$@" > /dev/null 2>&1 || true
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}
rg_s=$(secs rg -L -c -j2 error "$store")
list_s=$(CSIFT_STATE_DB="$store/list.db" secs "$bin" --cli sessions_list --format json)
digest_s=$(CSIFT_STATE_DB="$store/digest.db" secs "$bin" --cli sessions_digest --unprocessed --format json)
sessions=$(CSIFT_STATE_DB="$store/count.db" "$bin" --cli sessions_list --format json |
  python3 -c 'import json,sys,collections; c=collections.Counter(json.loads(l).get("harness") for l in sys.stdin if "\"kind\":\"session\"" in l.replace(" ","")); print(sum(c.values()), dict(c))')
echo "sessions listed: $sessions"
echo "| call | wall s | ratio to rg |"
echo "|---|---:|---:|"
echo "| \`rg -L -c -j2 error\` over the same files | $rg_s | 1.0 |"
awk -v s="$list_s" -v r="$rg_s" 'BEGIN { printf "| `sessions_list` | %s | %.1f |\n", s, s / r }'
awk -v s="$digest_s" -v r="$rg_s" 'BEGIN { printf "| `sessions_digest --unprocessed` | %s | %.1f |\n", s, s / r }'
