#!/usr/bin/env bash
# Builds the bare-metal TL state guest (guest/) and prints the ELF's path.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
tl_load_config
need_tool riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
src="$TL_REPO/tests/system/guest"
out="$BUILD_DIR/tests/system"
mkdir -p "$out"
elf="$out/tl_state_guest.elf"
if [ ! -f "$elf" ] || [ -n "$(find "$src" "$TL_REPO/include/tl" "$TL_REPO/baremetal" -newer "$elf" -type f)" ]; then
    riscv64-unknown-elf-gcc -O2 -g -march=rv64gc -mabi=lp64d -mcmodel=medany \
        -ffreestanding -nostdlib -Wl,--no-warn-rwx-segments -I"$TL_REPO/include" -I"$TL_REPO" \
        -T "$src/link.ld" "$src/start.S" "$src/tl_state_guest.c" -o "$elf" ||
        die "cannot build $elf"
fi
printf '%s\n' "$elf"
