#!/usr/bin/env bash
# Installs release builds of atominspect and tagedit, their man pages (generated from the
# argument definitions by swift-argument-parser's manual generator) and shell completions for
# bash, zsh and fish.
#
#   Tools/install.sh [--prefix P] [--configuration release|debug]
#
# P defaults to /usr/local. Files go to P/bin, P/share/man/man1,
# P/share/bash-completion/completions, P/share/zsh/site-functions and
# P/share/fish/vendor_completions.d. Nothing outside P is touched.
set -euo pipefail

prefix=/usr/local
configuration=release
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --prefix=*) prefix="${1#*=}"; shift ;;
        --configuration) configuration="${2:?--configuration needs release or debug}"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done
case "$configuration" in release|debug) ;; *) echo "install.sh: --configuration is release or debug" >&2; exit 64 ;; esac
# A relative prefix is relative to where the script was run from.
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
cd "$(dirname "$0")/.."

command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
# Release binaries link the Swift runtime and FoundationEssentials in; on Linux they are static
# executables (the C library too: no dynamic loader at start-up). A tool starts in 2.2-3.7 ms
# instead of 3.7-5.5 (Swift runtime alone linked in) or ~7 (fully dynamic) on the benchmark
# machine, which counts when a script runs it once per file. glibc warns at link time that its
# user and group look-ups (getpwnam...) load the NSS modules of the installed glibc at run time;
# the tools' only such call is expanding a leading `~/` of a path they were given (`rename
# --to=~/Music`, where the shell did not expand it), which falls back to $HOME. Apple's
# toolchains have no static executables: there only the runtime is linked in.
static=()
if [ "$configuration" = release ]; then
    static=(--static-swift-stdlib --scratch-path .build-static)
    [ "$(uname -s)" = Linux ] && static+=(-Xswiftc -static-executable)
fi
swift build -c "$configuration" "${static[@]}" --product atominspect
swift build -c "$configuration" "${static[@]}" --product tagedit
# The manual generator of swift-argument-parser (a dependency already); a debug build will do.
swift build --product generate-manual
bin=$(swift build -c "$configuration" "${static[@]}" --show-bin-path)
generate_manual="$(swift build --show-bin-path)/generate-manual"

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
for tool in atominspect tagedit; do
    install -m 755 "$bin/$tool" "$prefix/bin/$tool"
    "$generate_manual" "$bin/$tool" --output-directory "$prefix/share/man/man1"
    "$bin/$tool" --generate-completion-script bash > "$prefix/share/bash-completion/completions/$tool"
    "$bin/$tool" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_$tool"
    "$bin/$tool" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/$tool.fish"
    echo "installed $prefix/bin/$tool, $prefix/share/man/man1/$tool.1 and its completions"
done
