#!/usr/bin/env bash
# Headless Chromium for the report and replay viewer test (issue 18,
# harness/tests/report_browser.rs), and a CJK font so that the Xiangqi
# pieces' characters are drawn. Called by .ci/run.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
fc-list :lang=zh 2>/dev/null | grep -q . || need+=(fonts-wqy-zenhei)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
chromium --version
