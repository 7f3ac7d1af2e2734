#!/usr/bin/env bash
# The host packages of scripts/packages.txt, resolved for one dpkg architecture (the top of
# packages.txt says how a line is restricted to architectures). scripts/setup.sh uses it; its
# tests ask it about other architectures than this machine's.
#
#   packages.sh list [ARCH]     the package names for dpkg architecture ARCH (default: this
#                               machine's, `dpkg --print-architecture`), one a line, in file
#                               order; `name:ARCH` is printed as `name` (it is native there)
#   packages.sh foreign [ARCH]  the other architectures those names need (`name:arch`), one a
#                               line: what `dpkg --add-architecture` must know first
#   packages.sh missing         this machine's list minus what dpkg has installed, one a line:
#                               `name:arch` counts when installed for that architecture, any
#                               other name when installed for this machine's architecture or
#                               `all`. Then `npm` when `node` is on PATH and `npm` is not
#                               (Debian's nodejs ships without npm; package npm provides it).
#
# Exit 2 on a bad argument, 1 on a malformed packages.txt line (named by its line number).
set -euo pipefail
list_file="${0%/*}/packages.txt"
[[ "$0" == */* ]] || list_file=./packages.txt

# resolve ARCH: the names of packages.txt for ARCH, one a line.
resolve() {
  awk -v arch="$1" -v file="$list_file" '
    { sub(/#.*/, "") }
    NF == 0 { next }
    {
      name = $1
      rest = $0
      sub(/^[ \t]*[^ \t]+[ \t]*/, "", rest)
      sub(/[ \t]+$/, "", rest)
      if (name !~ /^[a-z0-9][a-z0-9+.-]+(:[a-z0-9]+)?$/ ||
          (rest != "" && rest !~ /^\[!?[a-z0-9]+([ \t]+!?[a-z0-9]+)*\]$/)) {
        printf "%s:%d: not `package[:arch] [[!]arch ...]`: %s\n", file, NR, $0 > "/dev/stderr"
        bad = 1
        exit 1
      }
      keep = 1
      if (rest != "") {
        gsub(/[][]/, "", rest)
        n = split(rest, archs, /[ \t]+/)
        negated = substr(archs[1], 1, 1) == "!"
        keep = negated
        for (i = 1; i <= n; i++) {
          a = archs[i]
          if ((substr(a, 1, 1) == "!") != negated) {
            printf "%s:%d: mixes `arch` and `!arch`: %s\n", file, NR, $0 > "/dev/stderr"
            bad = 1
            exit 1
          }
          sub(/^!/, "", a)
          if (a == arch) keep = !negated
        }
      }
      if (!keep) next
      if (name ~ ":" arch "$") sub(/:[a-z0-9]+$/, "", name)
      print name
    }
    END { if (bad) exit 1 }
  ' "$list_file"
}

native() { dpkg --print-architecture; }

cmd="${1:-}"
case "$cmd" in
  list)
    resolve "${2:-$(native)}"
    ;;
  foreign)
    arch="${2:-$(native)}"
    names=$(resolve "$arch")
    awk -F: -v arch="$arch" 'NF == 2 && $2 != arch && !seen[$2]++ { print $2 }' <<<"$names"
    ;;
  missing)
    arch=$(native)
    names=$(resolve "$arch")
    mapfile -t pkgs <<<"$names"
    bare=("${pkgs[@]%%:*}")
    # One dpkg-query for all: "<status abbrev>|<package>|<architecture>" per installed instance
    # (it exits 1 when some names are unknown; those are simply missing).
    installed=$(dpkg-query -W -f='${db:Status-Abbrev}|${Package}|${Architecture}\n' "${bare[@]}" 2>/dev/null || true)
    awk -F'|' -v native="$arch" '
      NR == FNR {
        # The second status letter is the current state: "i" installed ("ii ", "hi ").
        if (substr($1, 2, 1) == "i") ok[$2 "|" $3] = 1
        next
      }
      NF == 0 { next }
      {
        p = $0
        n = split(p, parts, ":")
        if (n == 2) { if (!ok[parts[1] "|" parts[2]]) print p }
        else if (!ok[p "|" native] && !ok[p "|all"]) print p
      }
    ' <(printf '%s\n' "$installed") <(printf '%s\n' "$names")
    if command -v node >/dev/null && ! command -v npm >/dev/null; then
      echo npm
    fi
    ;;
  *)
    echo "usage: packages.sh list [ARCH] | foreign [ARCH] | missing" >&2
    exit 2
    ;;
esac
