# SPDX-License-Identifier: BSL-1.0
# Sourced by the scripts: ensure_packages PKG... installs the Debian packages
# that are missing. As root it installs them; otherwise it prints the command
# and fails. On a machine without dpkg it assumes the tools are present.
ensure_packages() {
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${missing[*]}" >&2
    echo "install them as root with:  $cmd" >&2
    return 1
  fi
  echo "installing missing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
