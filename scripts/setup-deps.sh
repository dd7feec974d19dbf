#!/usr/bin/env bash
# Installs the Debian 12 packages QAT Doctor needs, only those missing (idempotent, quiet when
# everything is there). Used by both README commands.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev libqt6opengl6-dev qt6-svg-dev qt6-l10n-tools qt6-tools-dev qt6-tools-dev-tools
  libqcustomplot-dev libqcustomplot2.1-qt6
  nlohmann-json3-dev libfast-float-dev libzip-dev libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  libgtest-dev googletest
  clang-format clang-tidy
  xvfb xauth poppler-utils python3 fonts-dejavu-core fonts-wqy-microhei
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
