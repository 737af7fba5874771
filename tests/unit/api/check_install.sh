#!/bin/sh
# Install the build into a temporary prefix and build the API test program
# the way a user would, with pkg-config only: once against libchive.so and
# once against libchive.a; both must run.
# usage: check_install.sh <cmake> <build dir> <cc> <program.c> [extra cflags]
set -eu
cmake=$1
build=$2
cc=$3
src=$4
extra=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
pc=$(find "$tmp/prefix" -name chive.pc)
[ -n "$pc" ] || { echo "chive.pc not installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir chive)
for h in chive.h all.h types.h catalog.h connector.h; do
  [ -f "$tmp/prefix/include/chive/$h" ] || { echo "missing header $h"; exit 1; }
done

# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $extra \
  "$src" $(pkg-config --cflags --libs chive) -Wl,-rpath,"$libdir" \
  -o "$tmp/app_shared"
"$tmp/app_shared"

# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $extra \
  "$src" $(pkg-config --cflags chive) "$libdir/libchive.a" -Wl,--as-needed \
  $(pkg-config --libs --static chive) -o "$tmp/app_static"
"$tmp/app_static"
echo "check_install: ok"
