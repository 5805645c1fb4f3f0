# TL-QEMU top-level targets.  See README.md.
#   make check   install what is missing, fetch + patch + build QEMU, run every test
#   make demo    boot Linux with xtl and run a verified TL workload in user space
#   make distro  build (once) and boot a Debian 13 riscv64 system on TL-QEMU
#   make bench   performance figures (not part of make check)
#   make qemu    only build qemu-system-riscv64 and qemu-riscv64
#   make binutils  GNU binutils with xtl into build/binutils (docs/toolchain.md)
#   make gdb       GNU gdb with xtl and a riscv64 gdbserver into build/gdb (docs/toolchain.md)
#   make build     everything make install installs (then: sudo make install)
#   make install   build and install into $(DESTDIR)$(PREFIX) (default /opt/tl-qemu)
#   make deb       Debian packages of the installed tree into build/deb
SHELL := /bin/bash
# The test groups: scripts/check.sh holds the list.
CHECK_GROUPS := $(shell scripts/check.sh --list-groups)
unknown_groups := $(filter-out $(CHECK_GROUPS:%=check-%),$(filter check-%,$(MAKECMDGOALS)))
ifneq ($(unknown_groups),)
$(error unknown test group '$(patsubst check-%,%,$(firstword $(unknown_groups)))' (groups: $(CHECK_GROUPS)))
endif
.DEFAULT_GOAL := qemu
.PHONY: qemu binutils gdb deps host demo distro build install deb bench check $(CHECK_GROUPS:%=check-%) clean distclean

config.mk:
	./configure

deps:
	scripts/install-deps.sh

qemu: config.mk deps
	scripts/build-qemu.sh

binutils: config.mk deps
	scripts/build-binutils.sh

gdb: config.mk deps
	scripts/build-gdb.sh

host: config.mk deps
	scripts/build-host.sh

# demo, check, distro and install install the Debian packages they need themselves.
demo: config.mk
	scripts/demo.sh

distro: config.mk
	scripts/distro.sh

build: config.mk
	scripts/install.sh --build-only

PREFIX ?= /opt/tl-qemu
install: config.mk
	scripts/install.sh PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)"

deb: config.mk
	scripts/make-deb.sh

bench: config.mk
	scripts/install-deps.sh
	scripts/bench.sh

check: config.mk
	scripts/check.sh

# Single test groups: make check-GROUP (builds what the group needs).
$(CHECK_GROUPS:%=check-%): config.mk
	scripts/check.sh $(@:check-%=%)

clean:
	rm -rf build

distclean: clean
	rm -f config.mk
