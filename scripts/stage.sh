# shellcheck shell=bash
# Sourced by the scripts: `stage NAME COMMAND...` runs COMMAND and prints how long it took.
stage() {
  local name="$1"
  shift
  local start=$SECONDS
  echo "==> $name"
  "$@"
  local took=$((SECONDS - start))
  echo "==> $name: $((took / 60))m$((took % 60))s"
}
