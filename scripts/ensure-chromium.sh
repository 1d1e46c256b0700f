#!/usr/bin/env bash
# The console's browser tests drive Debian's Chromium through playwright-core (never a browser
# downloaded by Playwright). Installs it when missing; needs root or sudo.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "Installing Debian's chromium for the browser tests..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
