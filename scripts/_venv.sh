# Shared by scripts/serve and scripts/test: create .venv with Python >= 3.11 and install the project into it.
# Usage: . scripts/_venv.sh "<pip extras>"   e.g. "" (the service) or "[test]" (the service and its test tools)
# The install is remembered in $VENV/.longcards-install: the checksum of pyproject.toml, then each extra installed
# with it, one a line. A command whose extras are all there runs no pip at all, so it needs no network (the test
# extras include all that serve needs: serve after test installs nothing); a changed pyproject.toml installs again.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${VENV:-$ROOT/.venv}
PYTHON=${PYTHON:-}
if [ -z "$PYTHON" ]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PYTHON=$candidate; break; fi
  done
fi
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required")'
stamp="$VENV/.longcards-install"
if [ ! -x "$VENV/bin/python" ]; then
  rm -f "$stamp"  # what it says was installed went with the old interpreter
  "$PYTHON" -m venv "$VENV"
fi
checksum=$(cksum < "$ROOT/pyproject.toml" | cut -d' ' -f1)
installed=()  # the extras installed with this pyproject.toml; none when it is not the one installed
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$checksum" ]; then
  mapfile -t installed < <(tail -n +2 "$stamp")
  fresh=0
else
  fresh=1
fi
spec=${1-}
wanted=()
IFS=, read -r -a wanted <<< "${spec//[^a-z0-9_,-]/}"  # "[test]" -> (test), "" -> ()
missing=()
for extra in "${wanted[@]}"; do
  case " ${installed[*]} " in *" $extra "*) ;; *) missing+=("$extra") ;; esac
done
if [ "$fresh" = 1 ] || [ ${#missing[@]} -gt 0 ]; then
  extras=$(IFS=,; echo "${missing[*]}")
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT${extras:+[$extras]}"
  rm -f "$VENV"/.installed-*  # the stamps of the earlier scheme (one per extras, so serve after test installed again)
  printf '%s\n' "$checksum" "${installed[@]}" "${missing[@]}" > "$stamp.tmp"
  mv "$stamp.tmp" "$stamp"
fi
