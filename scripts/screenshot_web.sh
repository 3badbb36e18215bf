#!/usr/bin/env bash
# Makes docs/web.png, the README's picture of the web page, again: the test
# tests/it/web_screenshot.rs fills a page the way a person would and takes the picture with the
# same headless Chromium as the page's tests (`apt-get install -y chromium` if it is missing).
# Usage: scripts/screenshot_web.sh [OUT.png]   (default docs/web.png)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/web.png}"
mkdir -p "$(dirname "$out")"
case "$out" in
  /*) target="$out" ;;
  *) target="$PWD/$out" ;;
esac
DONNA_WEB_SCREENSHOT="$target" cargo test --test it -- --exact web_screenshot::the_page_as_the_readme_shows_it
echo "wrote $out ($(stat -c %s "$target") bytes)"
