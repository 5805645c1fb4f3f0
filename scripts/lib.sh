# Shared shell functions for TL-QEMU's build and test scripts.  Sourced, not run.
# shellcheck shell=bash

TL_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TL_QEMU_EXTRA_CONFIG=()

# One clear error line naming the fix, then exit.
die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

log() {
    printf '[tl-qemu] %s\n' "$*" >&2
}

# A tree built once in a `make check` run is not checked again in that run:
# check.sh points TL_BUILT_THIS_RUN at a fresh directory, a build script
# marks its output there (tl_mark_built FILE [INPUT...]: the source version
# and whatever else selects what is built) and later asks (tl_built_this_run
# FILE [INPUT...]) instead of running make's up-to-date walk, which costs
# seconds and happens about ten times per tree; the sources do not change
# while the tests run.  Unset elsewhere: every call builds.
tl_built_stamp() {
    printf '%s/%s' "$TL_BUILT_THIS_RUN" "$(printf '%s\n' "$@" | sha256sum | cut -c1-16)"
}
tl_built_this_run() {
    [ -n "${TL_BUILT_THIS_RUN:-}" ] && [ -f "$(tl_built_stamp "$@")" ] && [ -f "$1" ]
}
tl_mark_built() {
    [ -n "${TL_BUILT_THIS_RUN:-}" ] || return 0
    mkdir -p "$TL_BUILT_THIS_RUN" && : >"$(tl_built_stamp "$@")"
}

# Load config.mk (written by ./configure) into the environment; defaults otherwise.
tl_load_config() {
    if [ -f "$TL_REPO/config.mk" ]; then
        # config.mk lines are KEY=VALUE (make syntax, no spaces around '=').
        while IFS='=' read -r key value; do
            case "$key" in
                ''|'#'*) continue ;;
            esac
            if [ -z "${!key+x}" ]; then
                export "$key=$value"
            fi
        done < "$TL_REPO/config.mk"
    fi
    : "${BUILD_DIR:=$TL_REPO/build}"
    : "${CACHE_DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/tl-qemu}"
    : "${QEMU_SOURCE:=debian}"
    export BUILD_DIR CACHE_DIR QEMU_SOURCE QEMU_SRC_DIR QEMU_TARBALL
}

# ---- one build step at a time ----
# make check runs test groups at once, and two groups may ask for the same
# tree (a kernel, QEMU's build directory, the apt trees of the cache) at the
# same moment.  Every script that builds into $BUILD_DIR or fetches into the
# cache starts with tl_build_lock "$0" "$@": it runs itself again under
# flock(1) on $BUILD_DIR/.build.lock, so such steps run one at a time; what
# it starts sees TL_BUILD_LOCK_HELD and does not take the lock again.
# flock -o: a program the script leaves running does not keep the lock.
# (Without flock(1) on PATH, util-linux's, nothing is serialized.)
tl_build_lock() {
    [ -z "${TL_BUILD_LOCK_HELD:-}" ] && command -v flock >/dev/null 2>&1 || return 0
    local lock="${BUILD_DIR:-$TL_REPO/build}/.build.lock"
    mkdir -p "${lock%/*}"
    export TL_BUILD_LOCK_HELD=1
    flock -n "$lock" true || log "$(basename "$1"): waiting for another build or download in ${lock%/*} to finish"
    exec flock -o "$lock" "$@"
}

# tl_with_build_lock CMD...: runs CMD (a program or a shell function, in this
# shell: its exit or die ends the script as it would without the lock)
# holding the lock of tl_build_lock; returns CMD's status.  CMD and what it
# starts do not inherit the lock's file descriptor.
tl_with_build_lock() {
    if [ -n "${TL_BUILD_LOCK_HELD:-}" ] || ! command -v flock >/dev/null 2>&1; then
        "$@"
        return
    fi
    local lock="${BUILD_DIR:-$TL_REPO/build}/.build.lock" lock_fd rc
    mkdir -p "${lock%/*}"
    exec {lock_fd}>>"$lock"
    flock -n "$lock_fd" || { log "waiting for another build or download in ${lock%/*} to finish"; flock "$lock_fd"; }
    export TL_BUILD_LOCK_HELD=1
    "$@" {lock_fd}>&-
    rc=$?
    unset TL_BUILD_LOCK_HELD
    exec {lock_fd}>&-
    return "$rc"
}

# tl_free_port: a TCP port on 127.0.0.1 that nothing listens on now, the
# kernel's choice (test groups run at once: a fixed or random port may be taken).
tl_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

need_tool() {
    command -v "$1" >/dev/null 2>&1 ||
        die "'$1' is not installed; run 'make deps' (or: apt-get install $2)"
}

# bench_pin_cpu: pins this shell, and so every program it starts from now
# on, to the one host CPU the benchmarks run on, and prints it ("none" when
# unpinned).  A figure and its baseline then run on the same CPU: on virtual
# machines the CPUs can differ in speed (on one, host memcpy took 8 ns per
# KiB on CPU 0 and 5 on CPU 1, run after run), which skews a ratio whose
# two sides ran on different CPUs.  The default is the last CPU the shell
# may use (CPU 0 takes most device interrupts); BENCH_CPU=N picks CPU N,
# BENCH_CPU=none leaves the shell unpinned.
bench_pin_cpu() {
    local cpu=${BENCH_CPU:-} allowed
    [ "$cpu" = none ] && { echo none; return 0; }
    need_tool taskset util-linux
    allowed=$(python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0)))))') ||
        die "cannot read this process's CPU affinity (python3 os.sched_getaffinity)"
    [ -n "$cpu" ] || cpu=${allowed##* }
    [[ " $allowed " == *" $cpu "* ]] ||
        die "BENCH_CPU=$cpu is not a CPU this shell may use ($allowed); set BENCH_CPU to one of them, or to none"
    taskset -pc "$cpu" $$ >/dev/null || die "cannot pin the benchmark shell to CPU $cpu (taskset -pc $cpu $$)"
    echo "$cpu"
}

# need_qemu [FILE...]: dies with one error line naming 'make qemu' unless
# each FILE of the QEMU build (a program: executable; a plugin *.so) exists;
# without FILE, unless $BUILD_DIR/qemu holds a configured QEMU build.
need_qemu() {
    local f
    if [ $# -eq 0 ]; then
        [ -f "$BUILD_DIR/qemu/build.ninja" ] || die "QEMU is not built in $BUILD_DIR/qemu; run 'make qemu'"
        return 0
    fi
    for f in "$@"; do
        case "$f" in
            *.so) [ -f "$f" ] ;;
            *) [ -f "$f" ] && [ -x "$f" ] ;;
        esac || die "$f is missing; run 'make qemu'"
    done
}

# ---- private apt trees ----
# Other Debian suites and architectures are reached through apt trees of our
# own under $CACHE_DIR (never the machine's /etc/apt).  A tree DIR holds one
# state per sources.list text (DIR/state/KEY: sources.list, lists, cache,
# and "verified" when those lists came from an update in which every index
# matched its signed Release file) and DIR/current, the state in use.
# An update goes to a copy of the lists, which replaces them only when every
# index verified: a mirror caught in the middle of a sync never damages lists
# verified before, and those are used (with a note) until it has finished.
# Nothing ever bypasses apt's signature and hash checks.

debian_mirror() { printf '%s' "${DEBIAN_MIRROR:-http://deb.debian.org/debian}"; }

# The keyring the private trees accept Release files signed with (DEBIAN_KEYRING
# for a mirror of one's own that is signed with another key).
debian_keyring() {
    local k=${DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
    [ -f "$k" ] || {
        [ -n "${DEBIAN_KEYRING:-}" ] && die "DEBIAN_KEYRING=$k does not exist"
        die "Debian archive keyring missing; run: apt-get install debian-archive-keyring"
    }
    printf '%s' "$k"
}

# apt_tree_opts DIR [LISTS]: the apt-get options of tree DIR's current state
# (its lists, or the lists directory LISTS).  TL_APT_RETRIES=N sets apt's
# retries of a failed download (Acquire::Retries; apt's own default when unset).
apt_tree_opts() {
    local d=$1 lists=${2:-$1/current/lists}
    [ -z "${TL_APT_RETRIES:-}" ] || printf '%s\n' -o "Acquire::Retries=$TL_APT_RETRIES"
    printf '%s\n' \
        -o "Dir::Etc::SourceList=$d/current/sources.list" \
        -o "Dir::Etc::SourceParts=$d/sources.list.d" \
        -o "Dir::Etc::Preferences=$d/preferences" \
        -o "Dir::Etc::PreferencesParts=$d/preferences.d" \
        -o "Dir::State::Lists=$lists" \
        -o "Dir::State::status=$d/status" \
        -o "Dir::Cache=$d/current/cache" \
        -o "Acquire::Languages=none" \
        -o "Debug::NoLocking=1" \
        -o "APT::Sandbox::User=root"
}

# The state directory of sources.list text $2 in tree $1.
apt_tree_state() {
    printf '%s/state/%s' "$1" "$(printf '%s\n' "$2" | sha256sum | cut -c1-16)"
}

# apt_tree_select DIR STATE: makes STATE (a directory of DIR/state) current.
apt_tree_select() {
    ln -sfn "state/$(basename "$2")" "$1/current"
}

# Trees written before states existed (DIR/sources.list, DIR/lists,
# DIR/updated.stamp) become a state, verified when their update stamp was.
apt_tree_migrate() {
    local d=$1 s
    [ -f "$d/sources.list" ] && [ -d "$d/lists" ] && [ ! -e "$d/current" ] || return 0
    s=$(apt_tree_state "$d" "$(cat "$d/sources.list")")
    mkdir -p "$s"
    mv "$d/sources.list" "$s/sources.list" && mv "$d/lists" "$s/lists"
    if [ -f "$d/updated.stamp" ]; then
        echo "migrated" > "$s/verified" && touch -r "$d/updated.stamp" "$s/verified"
    fi
    rm -rf "$d/updated.stamp" "$d/cache" "$d/suite"
    apt_tree_select "$d" "$s"
}

# apt_tree_update DIR OPTSFN SOURCES: makes the state of SOURCES (sources.list
# text) current and, unless its lists verified within a day, updates them
# (OPTSFN prints the tree's apt-get options; it is given the lists directory).
# Returns 0 when the current state's lists verified (just now or within a
# day), 2 when the mirror served an index that does not match its signed
# Release file (a sync in progress), 1 on any other failure (network, ...).
# On failure the state keeps the lists it verified before, if any.
apt_tree_update() {
    local d=$1 optsfn=$2 sources=$3 s attempt
    apt_tree_migrate "$d"
    s=$(apt_tree_state "$d" "$sources")
    mkdir -p "$s/lists/partial" "$s/cache/archives/partial" "$d/sources.list.d" "$d/preferences.d"
    touch "$d/status"
    printf '%s\n' "$sources" > "$s/sources.list"
    apt_tree_select "$d" "$s"
    [ -z "$(find "$s/verified" -mmin -1440 2>/dev/null)" ] || return 0
    for attempt in 1 2 3; do
        rm -rf "$s/lists.new" && cp -a "$s/lists" "$s/lists.new"
        # apt-get update exits 0 even when an index could not be fetched, so the log is checked.
        # shellcheck disable=SC2046
        if apt-get $("$optsfn" "$s/lists.new") -q update >"$s/update.log" 2>&1 &&
           ! grep -qE '^(Err:|E:|W: Failed to fetch|W: Some index files failed)' "$s/update.log"; then
            rm -rf "$s/lists" && mv "$s/lists.new" "$s/lists"
            rm -f "$s/cache/"*.bin
            date -u '+%Y-%m-%d %H:%M UTC' > "$s/verified"
            return 0
        fi
        rm -rf "$s/lists.new"
        grep -qE 'unexpected size|Hash Sum mismatch|Mirror sync in progress|does not match' "$s/update.log" || return 1
        [ "$attempt" -lt 3 ] && { log "the mirror's index does not match its Release file yet; retrying in $((attempt * ${TL_APT_RETRY_DELAY:-20})) s"; sleep $((attempt * ${TL_APT_RETRY_DELAY:-20})); }
    done
    return 2
}

# apt_tree_fallback DIR WHY: makes the most recently verified state of DIR
# current (its lists are the last ones that matched a signed Release file),
# logging WHY; returns 1 when DIR has none.
apt_tree_fallback() {
    local d=$1 why=$2 v best=
    for v in "$d"/state/*/verified; do
        [ -f "$v" ] || continue
        if [ -z "$best" ] || [ "$v" -nt "$best" ]; then best=$v; fi
    done
    [ -n "$best" ] || return 1
    apt_tree_select "$d" "$(dirname "$best")"
    log "$why; using the package lists verified on $(cat "$best") ($(awk '{print $(NF-1)}' "$(dirname "$best")/sources.list" | head -n 1))"
}

# ---- the tree for Debian's source packages (trixie) and meson (bookworm-backports)

private_apt_dir() { printf '%s/apt' "$CACHE_DIR"; }

private_apt_opts() { apt_tree_opts "$(private_apt_dir)" "$@"; }

private_apt_update() { tl_with_build_lock private_apt_update_now; }
private_apt_update_now() {
    local d mirror keyring r=0
    d=$(private_apt_dir)
    mirror=$(debian_mirror)
    keyring=$(debian_keyring)
    need_tool apt-get apt
    apt_tree_update "$d" private_apt_opts "$(printf '%s\n' \
        "deb-src [signed-by=$keyring] $mirror trixie main" \
        "deb [signed-by=$keyring] $mirror bookworm-backports main")" || r=$?
    [ "$r" -eq 0 ] && return 0
    case $r in
        2) apt_tree_fallback "$d" "$mirror serves a package index that does not match its signed Release file (mirror sync in progress)" && return 0
           die "$mirror serves a Debian trixie sources / bookworm-backports index that does not match its signed Release file (mirror sync in progress; see $d/current/update.log), and no verified copy is cached; retry later or set DEBIAN_MIRROR to another Debian mirror" ;;
        *) apt_tree_fallback "$d" "apt-get update of $mirror failed" && return 0
           die "apt-get update for Debian trixie sources / bookworm-backports failed (see $d/current/update.log), and no verified copy is cached; check network access to $mirror (or set DEBIAN_MIRROR)" ;;
    esac
}

# ---- the tree for Debian's riscv64 (and "all") binary packages: the stock
# Linux kernel, firmware for QEMU's tests, programs nobody here wrote ----

rv_apt_dir() { printf '%s/apt-riscv64' "$CACHE_DIR"; }

rv_apt_opts() {
    printf '%s\n' -o "APT::Architecture=riscv64" -o "APT::Architectures=riscv64"
    apt_tree_opts "$(rv_apt_dir)" "$@"
}

# The Debian suites the riscv64 binary packages come from, in order of
# preference: Debian 13, then Debian testing when the mirror's trixie index
# does not verify against its signed Release file.  RV_SUITES overrides the list.
rv_suites() { printf '%s\n' ${RV_SUITES:-trixie forky}; }

# The suite of the riscv64 tree's current state (after rv_apt_update).
rv_suite() { awk '{print $(NF-1); exit}' "$(rv_apt_dir)/current/sources.list" 2>/dev/null || echo trixie; }

# Makes the riscv64 tree's current state one whose lists verified: the first
# suite of rv_suites that verifies now (or did within a day), else the lists
# verified most recently.  Without any, one error line.
rv_apt_update() { tl_with_build_lock rv_apt_update_now; }
rv_apt_update_now() {
    local d mirror keyring suite r=0 why=
    d=$(rv_apt_dir)
    mirror=$(debian_mirror)
    keyring=$(debian_keyring)
    need_tool apt-get apt
    for suite in $(rv_suites); do
        r=0
        apt_tree_update "$d" rv_apt_opts "deb [arch=riscv64 signed-by=$keyring] $mirror $suite main" || r=$?
        [ "$r" -eq 0 ] && return 0
        if [ "$r" -eq 2 ]; then
            why="$mirror serves a Debian $suite riscv64 index that does not match its signed Release file (mirror sync in progress)"
            log "$why; trying the next suite"
        else
            why="apt-get update of Debian $suite riscv64 from $mirror failed (see $d/current/update.log)"
            break
        fi
    done
    apt_tree_fallback "$d" "$why" && return 0
    if [ "$r" -eq 2 ]; then
        die "no Debian suite of '$(rv_suites | tr '\n' ' ')' has a riscv64 index on $mirror that matches its signed Release file (mirror sync in progress), and no verified copy is cached; retry later or set DEBIAN_MIRROR to another Debian mirror"
    fi
    die "$why, and no verified copy is cached; check network access to $mirror (or set DEBIAN_MIRROR)"
}

# rv_download PACKAGE DIR: the riscv64 (or "all") .deb of PACKAGE's candidate
# version in DIR, downloaded unless DIR already holds a file with the SHA-256
# the verified index gives; prints its path.
rv_download() { tl_with_build_lock rv_download_now "$@"; }
rv_download_now() {
    local pkg=$1 dir=$2 info file sum deb got
    mkdir -p "$dir"
    # shellcheck disable=SC2046
    info=$(apt-cache $(rv_apt_opts) show --no-all-versions "$pkg" 2>/dev/null) ||
        die "the riscv64 package '$pkg' is not in Debian $(rv_suite)"
    file=$(sed -n 's/^Filename: //p' <<<"$info" | head -n 1)
    sum=$(sed -n 's/^SHA256: //p' <<<"$info" | head -n 1)
    [ -n "$file" ] && [ -n "$sum" ] || die "the index entry of '$pkg' has no Filename or SHA256; delete $(rv_apt_dir) and rerun"
    deb="$dir/$(basename "$file")"
    if [ -f "$deb" ] && [ "$(sha256sum < "$deb" | cut -d' ' -f1)" = "$sum" ]; then
        printf '%s\n' "$deb"
        return 0
    fi
    log "downloading $pkg (riscv64, Debian $(rv_suite))"
    rm -rf "$dir/.download" && mkdir -p "$dir/.download"
    # shellcheck disable=SC2046
    (cd "$dir/.download" && apt-get $(rv_apt_opts) -q download "$pkg" >"$dir/download-$pkg.log" 2>&1) ||
        die "could not download the riscv64 package '$pkg' (see $dir/download-$pkg.log); check network access to the Debian mirror, then rerun"
    got=$(ls "$dir"/.download/*.deb 2>/dev/null | head -n 1 || true)
    [ -n "$got" ] && [ "$(sha256sum < "$got" | cut -d' ' -f1)" = "$sum" ] ||
        die "apt-get download '$pkg' gave no .deb with the SHA-256 of the index (see $dir/download-$pkg.log); delete $(rv_apt_dir) and rerun"
    mv "$got" "$deb" && rm -rf "$dir/.download"
    printf '%s\n' "$deb"
}


# The configure options of every QEMU build here (TL-QEMU's, and the unpatched
# one make bench compares it with), one per line, so that both compile alike.
qemu_config_args() {
    local cc=gcc cxx=g++
    if command -v ccache >/dev/null 2>&1; then
        cc="ccache gcc" cxx="ccache g++"
    fi
    printf '%s\n' --python=/usr/bin/python3 "--cc=$cc" "--cxx=$cxx" \
        --target-list=riscv64-softmmu,riscv64-linux-user \
        --disable-docs --disable-install-blobs --disable-download \
        --cross-cc-riscv64=riscv64-linux-gnu-gcc
}

# TL-QEMU's own version (the file VERSION).
tl_version() { tr -d ' \n' < "$TL_REPO/VERSION"; }

# qemu_configure SRC OBJ WHAT [STAMP...]: runs SRC's configure in OBJ with
# qemu_config_args (and the words of the array TL_QEMU_EXTRA_CONFIG), unless OBJ was configured from SRC with the same options
# (and the same STAMP words).  WHAT names the build in messages.
qemu_configure() {
    local src=$1 obj=$2 what=$3 want sp args
    shift 3
    local mesonpath="$CACHE_DIR/meson/root/usr/lib/python3/dist-packages"
    mapfile -t args < <(qemu_config_args)
    args+=("${TL_QEMU_EXTRA_CONFIG[@]}")
    want=$(printf '%s\n' "$src" "$@" "${args[@]}" | sha256sum | cut -d' ' -f1)
    if [ -f "$obj/build.ninja" ] && [ "$(cat "$obj/.tl-configured" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    log "configuring $what in $obj"
    rm -rf "$obj" && mkdir -p "$obj"
    if ! (cd "$obj" && PYTHONPATH="$mesonpath" "$src/configure" "${args[@]}" >configure.log 2>&1); then
        tail -n 15 "$obj/configure.log" >&2
        die "configure of $what failed (full log: $obj/configure.log); run 'make deps' if a library is missing"
    fi
    # Let meson's automatic re-configuration (run by ninja) find the unpacked meson too.
    if [ -d "$mesonpath" ]; then
        for sp in "$obj"/pyvenv/lib/python3*/site-packages; do
            echo "$mesonpath" > "$sp/tl-qemu-meson.pth"
        done
    fi
    echo "$want" > "$obj/.tl-configured"
}

# tl_patched_tree PRISTINE DEST PATCHDIR [LINK=TARGET ...]
# Makes DEST a copy of the source tree PRISTINE with the patches of PATCHDIR
# (*.patch, in name order) applied and each LINK (a path inside DEST) made a
# symbolic link to TARGET.  Unchanged files are hard links into PRISTINE, so
# the copy is cheap and keeps their timestamps (an existing build only
# recompiles what the patches touch); files a patch touches are real copies,
# so PRISTINE is never modified.  Redone only when PRISTINE, a patch or a
# link changes.  One error line names the patch that does not apply.
tl_patched_tree() {
    local pristine=$1 dest=$2 patchdir=$3 stamp p f out files link
    shift 3
    local patches=("$patchdir"/*.patch)
    [ -e "${patches[0]}" ] || die "no patches in $patchdir; the checkout is incomplete"
    stamp=$( { echo "$pristine"; printf '%s\n' "$@"; cat "${patches[@]}"; } | sha256sum | cut -d' ' -f1)
    if [ -f "$dest/.tl-prepared" ] && [ "$(cat "$dest/.tl-prepared")" = "$stamp" ]; then
        return 0
    fi
    need_tool git git
    log "preparing patched tree $dest"
    rm -rf "$dest.new"
    mkdir -p "$(dirname "$dest")"
    cp -al "$pristine" "$dest.new" 2>/dev/null || cp -a "$pristine" "$dest.new" ||
        die "cannot copy $pristine to $dest.new; check free disk space"
    export GIT_CEILING_DIRECTORIES
    GIT_CEILING_DIRECTORIES=$(dirname "$dest")
    for p in "${patches[@]}"; do
        files=$(cd "$dest.new" && git apply --numstat "$p" 2>/dev/null | cut -f3)
        for f in $files; do
            # Break the hard link before git apply rewrites the file.
            if [ -f "$dest.new/$f" ]; then
                cp -p "$dest.new/$f" "$dest.new/$f.tl-copy" && mv -f "$dest.new/$f.tl-copy" "$dest.new/$f"
            fi
        done
        if ! out=$(cd "$dest.new" && git apply --check "$p" 2>&1); then
            files=$(printf '%s\n' "$out" | sed -n 's/^error: \(.*\): patch does not apply$/\1/p;s/^error: patch failed: \([^:]*\):.*/\1/p' | sort -u | tr '\n' ' ')
            rm -rf "$dest.new"
            die "patch $(basename "$p") does not apply to ${files:-$pristine} ($(printf '%s' "$out" | head -n 1)); the source is not the version these patches were made for"
        fi
        (cd "$dest.new" && git apply "$p") || die "git apply of $(basename "$p") failed"
    done
    for link in "$@"; do
        mkdir -p "$(dirname "$dest.new/${link%%=*}")"
        rm -rf "$dest.new/${link%%=*}"
        ln -s "${link#*=}" "$dest.new/${link%%=*}"
    done
    echo "$stamp" > "$dest.new/.tl-prepared"
    rm -rf "$dest"
    mv "$dest.new" "$dest"
}

# ---- progress and step times ----
# TL_STEP_TIMES names a file of "SECONDS<TAB>STEP" lines; the top-level
# commands (make demo, make check, make install ...) create it with
# tl_steps_begin and print it as a table with tl_steps_table, so that one run
# ends with the time each step took whichever scripts ran the steps.

# tl_steps_begin: starts recording step times for this run (the outermost
# caller wins: nested scripts add to its file).
tl_steps_begin() {
    local f
    if [ -z "${TL_STEP_TIMES:-}" ] || [ ! -f "$TL_STEP_TIMES" ]; then
        mkdir -p "$BUILD_DIR"
        # Files of runs that ended without their table (killed, or died).
        for f in "$BUILD_DIR"/.step-times.*; do
            [ -e "$f" ] && ! kill -0 "${f##*.}" 2>/dev/null && rm -f "$f"
        done
        TL_STEP_TIMES="$BUILD_DIR/.step-times.$$"
        : > "$TL_STEP_TIMES"
        TL_STEPS_OWNER=$$
        TL_STEPS_T0=$SECONDS
        export TL_STEP_TIMES
    fi
}

# tl_step_done STEP SECONDS: records one step's time.
tl_step_done() {
    [ -n "${TL_STEP_TIMES:-}" ] && [ -f "$TL_STEP_TIMES" ] || return 0
    printf '%s\t%s\n' "$2" "$1" >> "$TL_STEP_TIMES"
}

tl_duration() {
    local s=$1
    if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# tl_steps_table TITLE: prints the recorded steps and the total (only in the
# script that called tl_steps_begin), then forgets them.
tl_steps_table() {
    [ "${TL_STEPS_OWNER:-}" = "$$" ] && [ -f "$TL_STEP_TIMES" ] || return 0
    local title=$1 secs step total=$((SECONDS - TL_STEPS_T0))
    echo "=== $title: time of each step ==="
    if [ -s "$TL_STEP_TIMES" ]; then
        # A step run several times (each test group makes sure QEMU is built)
        # is one line with its total time and how often it ran.
        awk -F'\t' '!($2 in t) { order[n++] = $2 } { t[$2] += $1; c[$2]++ }
            END { for (i = 0; i < n; i++) print t[order[i]] "\t" order[i] (c[order[i]] > 1 ? " (" c[order[i]] " times)" : "") }' \
            "$TL_STEP_TIMES" | while IFS=$'\t' read -r secs step; do
            printf '  %-58s %8s\n' "$step" "$(tl_duration "$secs")"
        done
    else
        echo "  (nothing was built or run: everything was up to date)"
    fi
    printf '  %-58s %8s\n' "total" "$(tl_duration "$total")"
    rm -f "$TL_STEP_TIMES"
}

# tl_timed STEP CMD...: runs CMD and records its time as STEP.
tl_timed() {
    local step=$1 t0=$SECONDS rc=0
    shift
    "$@" || rc=$?
    tl_step_done "$step" $((SECONDS - t0))
    return "$rc"
}

# tl_keep_stderr FILE CMD...: runs CMD with its standard error shown as it
# comes (the progress of long steps) and kept in FILE for the caller to read
# afterwards; CMD's standard output goes where this function's goes.
# Returns CMD's status.
tl_keep_stderr() {
    local file=$1 rc
    shift
    { "$@" 2>&1 >&3 3>&- | tee "$file" >&2; rc=${PIPESTATUS[0]}; } 3>&1
    return "$rc"
}

# tl_progress_status LOG: one short status from a build log so far: ninja's
# last "[n/m]" as "n/m (p%)", otherwise the number of compiled files
# (lines like "  CC  path" of Kbuild and OpenSBI, "libtool: compile" and
# "gcc -c" of autotools builds).
tl_progress_status() {
    local logf=$1 nm n m
    nm=$(tail -c 8192 "$logf" 2>/dev/null | grep -oE '^\[[0-9]+/[0-9]+\]' | tail -n 1 | tr -d '[]')
    if [ -n "$nm" ]; then
        n=${nm%/*} m=${nm#*/}
        [ "$m" -gt 0 ] || m=1
        printf '%s/%s (%d%%)' "$n" "$m" $((n * 100 / m))
        return
    fi
    n=$(grep -cE '^ +(CC|CXX|AS|CPP)( \[M\])? |libtool: compile|(^|[ /])(gcc|g\+\+|cc)( [^ ]+)* -c ' "$logf" 2>/dev/null || true)
    printf '%s files compiled' "${n:-0}"
}

# tl_progress WHAT LOG CMD...: runs CMD with its output in LOG and shows how
# far it is while it runs: on a terminal one line updated every second,
# otherwise a line every TL_PROGRESS_INTERVAL (10) seconds, each with the
# elapsed time (and, for ninja, an estimate of what remains).  Records WHAT's
# time as a step.  Returns CMD's status.  CMD runs in the foreground (Ctrl-C
# stops it); the monitor ends with it, or when this shell is gone.
tl_progress() {
    local what=$1 logf=$2 t0=$SECONDS rc=0 mon parent=$BASHPID
    shift 2
    : > "$logf"
    rm -f "$logf.stop"
    (
        tty=0
        [ -t 2 ] && tty=1
        trap '[ "$tty" = 0 ] || printf "\r\033[K" >&2; exit 0' TERM
        interval=${TL_PROGRESS_INTERVAL:-10}
        [ "$tty" = 1 ] && interval=1
        last=$SECONDS
        while kill -0 "$parent" 2>/dev/null && [ ! -e "$logf.stop" ]; do
            sleep 1
            [ $((SECONDS - last)) -ge "$interval" ] || continue
            last=$SECONDS
            el=$((SECONDS - t0))
            st=$(tl_progress_status "$logf")
            eta=""
            if [[ "$st" =~ ^([0-9]+)/([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -gt $((BASH_REMATCH[2] / 20)) ] &&
               [ "${BASH_REMATCH[1]}" -gt 0 ]; then
                eta=", about $(tl_duration $((el * (BASH_REMATCH[2] - BASH_REMATCH[1]) / BASH_REMATCH[1]))) left"
            fi
            if [ "$tty" = 1 ]; then
                printf '\r\033[K[tl-qemu] %s: %s, %s%s' "$what" "$st" "$(tl_duration "$el")" "$eta" >&2
            else
                printf '[tl-qemu] %s: %s, %s%s\n' "$what" "$st" "$(tl_duration "$el")" "$eta" >&2
            fi
        done
        [ "$tty" = 0 ] || printf "\r\033[K" >&2
        exit 0
    ) &
    mon=$!
    "$@" >"$logf" 2>&1 || rc=$?
    # The stop file ends the monitor within a second even when the TERM
    # lands before its trap is set (and is lost).
    : > "$logf.stop"
    kill "$mon" 2>/dev/null
    wait "$mon" 2>/dev/null || true
    rm -f "$logf.stop"
    tl_step_done "$what" $((SECONDS - t0))
    [ "$rc" -ne 0 ] || log "$what: done in $(tl_duration $((SECONDS - t0)))"
    return "$rc"
}
