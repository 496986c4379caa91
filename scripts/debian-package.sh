# Sourced by the scripts that install a Debian package the tests need (browser-install.sh,
# redis-install.sh). `debian_package BIN PACKAGE [apt-get install options]`: when BIN is there, says
# its version and ends the script (a no-op); otherwise installs PACKAGE once with apt-get (through
# sudo unless root: SUDO holds that prefix for what the script does next) and says BIN's version.
debian_package() {
  local bin=$1 package=$2
  shift 2
  if [ -x "$bin" ]; then
    echo "$package: $("$bin" --version 2>/dev/null || echo present)"
    exit 0
  fi
  echo "==> installing Debian's $package (first run only)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" "$package" >/dev/null
  "$bin" --version
}
