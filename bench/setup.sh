#!/bin/sh
# Install the peer segmenters for `make bench` if they are missing (quick when present):
# Debian python3-jieba, friso, friso-dict, libfriso-dev; npm @node-rs/jieba and nodejieba
# (from bench/package-lock.json) into bench/node_modules; and build bench/out/friso_driver.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

missing=
for p in python3-jieba friso friso-dict libfriso-dev; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing="$missing $p"
  fi
done
if [ -n "$missing" ]; then
  echo "bench: apt-get install$missing"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q $missing || { $SUDO apt-get update -q && $SUDO apt-get install -y -q $missing; }
fi

if [ ! -f "$here/node_modules/@node-rs/jieba/package.json" ] ||
   [ ! -f "$here/node_modules/@node-rs/jieba/dict.js" ] ||
   [ ! -f "$here/node_modules/nodejieba/build/Release/nodejieba.node" ]; then
  echo "bench: npm ci (@node-rs/jieba, nodejieba built from source)"
  # nodejieba's prebuilt binary lives outside the npm registry: build it against the
  # system node headers instead.  package.json's allowScripts lets its install script run.
  (cd "$here" && npm_config_nodedir=/usr npm_config_yes=true npm ci --no-audit --no-fund)
fi

mkdir -p "$here/out"
if [ ! -x "$here/out/friso_driver" ] || [ "$here/friso_driver.c" -nt "$here/out/friso_driver" ]; then
  echo "bench: building out/friso_driver"
  ${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$here/out/friso_driver" "$here/friso_driver.c" \
    $(pkg-config --cflags --libs friso 2>/dev/null || echo -lfriso)
fi
