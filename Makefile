# TL-QEMU top-level targets.  See README.md.
#   make check   install what is missing, fetch + patch + build QEMU, run every test
#   make demo    boot Linux with xtl and run a TL program (issue: full-system)
#   make qemu    only build qemu-system-riscv64 and qemu-riscv64
SHELL := /bin/bash
.DEFAULT_GOAL := qemu
.PHONY: qemu deps host check check-scripts check-unit check-reference check-user check-system check-tcg clean distclean

config.mk:
	./configure

deps:
	scripts/install-deps.sh

qemu: config.mk deps
	scripts/build-qemu.sh

host: config.mk deps
	scripts/build-host.sh

check: config.mk deps
	scripts/check.sh

# Single test groups (each assumes 'make qemu' / 'make host' as needed).
check-scripts check-unit check-reference check-user check-system check-tcg: config.mk
	scripts/check.sh $(@:check-%=%)

clean:
	rm -rf build

distclean: clean
	rm -f config.mk
