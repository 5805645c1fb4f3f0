# Shared shell functions for TL-QEMU's build and test scripts.  Sourced, not run.
# shellcheck shell=bash

TL_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# One clear error line naming the fix, then exit.
die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

log() {
    printf '[tl-qemu] %s\n' "$*" >&2
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

need_tool() {
    command -v "$1" >/dev/null 2>&1 ||
        die "'$1' is not installed; run 'make deps' (or: apt-get install $2)"
}

# apt-get with a private configuration under $CACHE_DIR/apt: other Debian
# suites are reached without touching the machine's /etc/apt.
private_apt_dir() { printf '%s/apt' "$CACHE_DIR"; }

private_apt_opts() {
    local d
    d=$(private_apt_dir)
    printf '%s\n' \
        -o "Dir::Etc::SourceList=$d/sources.list" \
        -o "Dir::Etc::SourceParts=$d/sources.list.d" \
        -o "Dir::State::Lists=$d/lists" \
        -o "Dir::State::status=$d/status" \
        -o "Dir::Cache=$d/cache" \
        -o "Debug::NoLocking=1" \
        -o "APT::Sandbox::User=root"
}

# Sets up the private apt tree and refreshes its package lists at most once a day.
private_apt_update() {
    local d mirror
    d=$(private_apt_dir)
    mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
    mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d"
    touch "$d/status"
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    [ -f "$keyring" ] || die "Debian archive keyring missing; run: apt-get install debian-archive-keyring"
    cat > "$d/sources.list.new" <<SRC
deb-src [signed-by=$keyring] $mirror trixie main
deb [signed-by=$keyring] $mirror bookworm-backports main
SRC
    if ! cmp -s "$d/sources.list.new" "$d/sources.list" 2>/dev/null; then
        mv "$d/sources.list.new" "$d/sources.list"
        rm -f "$d/updated.stamp"
    else
        rm -f "$d/sources.list.new"
    fi
    if [ -n "$(find "$d/updated.stamp" -mmin -1440 2>/dev/null)" ]; then
        return 0
    fi
    log "refreshing private apt lists in $d (trixie sources, bookworm-backports)"
    apt_update_checked private_apt_opts "$d" "$mirror" "Debian trixie sources / bookworm-backports"
}

# apt-get update with the options printed by function $1, log in $2/update.log.
# apt-get update exits 0 even when an index could not be fetched, so the log
# is checked.  An index that does not match the mirror's signed Release file
# (a mirror caught in the middle of a sync) is retried a few times: apt rightly
# refuses to use it.  Returns 0 when every index verified, 2 when the mirror's
# index kept failing verification, 1 on any other failure.
apt_update_try() {
    local optsfn=$1 d=$2 attempt
    for attempt in 1 2 3; do
        # shellcheck disable=SC2046
        if apt-get $("$optsfn") -q update >"$d/update.log" 2>&1 &&
           ! grep -qE '^(Err:|E:|W: Failed to fetch|W: Some index files failed)' "$d/update.log"; then
            touch "$d/updated.stamp"
            return 0
        fi
        grep -qE 'unexpected size|Hash Sum mismatch|Mirror sync in progress' "$d/update.log" || return 1
        [ "$attempt" -lt 3 ] && { log "the mirror's index does not match its Release file yet; retrying in $((attempt * 20)) s"; sleep $((attempt * 20)); }
    done
    return 2
}

# apt_update_try, ending the script with one clear error line on failure.
apt_update_checked() {
    local optsfn=$1 d=$2 mirror=$3 what=$4 r=0
    apt_update_try "$optsfn" "$d" || r=$?
    case $r in
        0) return 0 ;;
        2) die "$mirror serves a $what package index that does not match its signed Release file (mirror sync in progress; see $d/update.log); retry later or set DEBIAN_MIRROR to another Debian mirror" ;;
        *) die "apt-get update for $what failed (see $d/update.log); check network access to $mirror (or set DEBIAN_MIRROR)" ;;
    esac
}

# ---- a second private apt tree, for Debian trixie's riscv64 (and "all")
# binary packages: the stock Linux kernel, firmware for QEMU's tests ----

rv_apt_dir() { printf '%s/apt-riscv64' "$CACHE_DIR"; }

rv_apt_opts() {
    local d
    d=$(rv_apt_dir)
    printf '%s\n' \
        -o "APT::Architecture=riscv64" \
        -o "APT::Architectures=riscv64" \
        -o "Dir::Etc::SourceList=$d/sources.list" \
        -o "Dir::Etc::SourceParts=$d/sources.list.d" \
        -o "Dir::Etc::Preferences=$d/preferences" \
        -o "Dir::Etc::PreferencesParts=$d/preferences.d" \
        -o "Dir::State::Lists=$d/lists" \
        -o "Dir::State::status=$d/status" \
        -o "Dir::Cache=$d/cache" \
        -o "Acquire::Languages=none" \
        -o "Debug::NoLocking=1" \
        -o "APT::Sandbox::User=root"
}

# The Debian suites the riscv64 binary packages come from, in order of
# preference: Debian 13, then Debian testing when the mirror's trixie index
# does not verify against its signed Release file (apt never uses an index
# that does not).  RV_SUITES overrides the list.
rv_suites() { printf '%s\n' ${RV_SUITES:-trixie forky}; }

# The suite the riscv64 apt tree currently uses (after rv_apt_update).
rv_suite() { cat "$(rv_apt_dir)/suite" 2>/dev/null || echo trixie; }

# Sets up the private riscv64 apt tree; refreshes its lists at most once a day.
rv_apt_update() {
    local d mirror suite r keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    d=$(rv_apt_dir)
    mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
    need_tool apt-get apt
    [ -f "$keyring" ] || die "Debian archive keyring missing; run: apt-get install debian-archive-keyring"
    mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" "$d/preferences.d"
    touch "$d/status"
    if [ -f "$d/sources.list" ] && [ -n "$(find "$d/updated.stamp" -mmin -1440 2>/dev/null)" ] &&
       grep -qx "deb \[arch=riscv64 signed-by=$keyring\] $mirror $(rv_suite) main" "$d/sources.list"; then
        return 0
    fi
    for suite in $(rv_suites); do
        printf 'deb [arch=riscv64 signed-by=%s] %s %s main\n' "$keyring" "$mirror" "$suite" > "$d/sources.list"
        rm -f "$d/updated.stamp"
        log "refreshing the private riscv64 apt lists in $d (Debian $suite, riscv64)"
        r=0
        apt_update_try rv_apt_opts "$d" || r=$?
        if [ "$r" -eq 0 ]; then
            echo "$suite" > "$d/suite"
            return 0
        fi
        [ "$r" -eq 2 ] || die "apt-get update for Debian $suite riscv64 failed (see $d/update.log); check network access to $mirror (or set DEBIAN_MIRROR)"
        log "$mirror serves a Debian $suite riscv64 index that does not match its signed Release file (mirror sync in progress); trying the next suite"
    done
    die "no Debian suite of '$(rv_suites | tr '\n' ' ')' has a riscv64 index on $mirror that matches its signed Release file (mirror sync in progress; see $d/update.log); retry later or set DEBIAN_MIRROR to another Debian mirror"
}

# Downloads package $1 into $2 (a directory); prints the .deb path.
rv_download() {
    local pkg=$1 dir=$2 deb
    mkdir -p "$dir"
    log "downloading $pkg (riscv64, Debian $(rv_suite))"
    # shellcheck disable=SC2046
    (cd "$dir" && apt-get $(rv_apt_opts) -q download "$pkg" >"$dir/download-$pkg.log" 2>&1) ||
        die "could not download the riscv64 package '$pkg' (see $dir/download-$pkg.log); check network access to the Debian mirror, then rerun"
    deb=$(ls -t "$dir/${pkg}"_*_riscv64.deb "$dir/${pkg}"_*_all.deb 2>/dev/null | head -n 1 || true)
    [ -n "$deb" ] || die "apt-get download '$pkg' produced no .deb in $dir (see $dir/download-$pkg.log); delete $(rv_apt_dir) and rerun"
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

# qemu_configure SRC OBJ WHAT [STAMP...]: runs SRC's configure in OBJ with
# qemu_config_args, unless OBJ was configured from SRC with the same options
# (and the same STAMP words).  WHAT names the build in messages.
qemu_configure() {
    local src=$1 obj=$2 what=$3 want sp args
    shift 3
    local mesonpath="$CACHE_DIR/meson/root/usr/lib/python3/dist-packages"
    mapfile -t args < <(qemu_config_args)
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
