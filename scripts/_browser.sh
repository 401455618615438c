# Sourced by scripts/test: the browser tests (tests/ui) drive the system's Chromium, never a downloaded one.
# When none is installed and apt-get is at hand (as root, or with password-less sudo), install Debian's
# `chromium`; otherwise say so, and the browser tests fail (they never skip).
if [ -z "${LONGCARDS_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ] && ! command -v chromium >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then as_root=(); elif sudo -n true 2>/dev/null; then as_root=(sudo -n); else as_root=(); fi
    if [ "$(id -u)" = 0 ] || [ ${#as_root[@]} -gt 0 ]; then
      echo "scripts/test: installing chromium for the browser tests (apt-get)" >&2
      { "${as_root[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium; } \
        || echo "scripts/test: could not install chromium: the browser tests will fail" >&2
    else
      echo "scripts/test: no chromium and no root to install it: the browser tests will fail" >&2
    fi
  else
    echo "scripts/test: no chromium (set LONGCARDS_CHROMIUM to a Chromium binary): the browser tests will fail" >&2
  fi
fi
