#!/bin/sh
# stubs.sh - the one-line ".so" pages that let `man gpuk_add` find the page
# documenting it (gpuk_elementwise(3)): one for every name a section-3 page
# gives in its NAME section (.Nm) other than the page's own.
#
#   stubs.sh list PAGE.3...                 NAME PAGE lines, nothing written
#   stubs.sh install MAN3DIR PAGE.3...      write MAN3DIR/NAME.3 for each
#   stubs.sh uninstall MAN3DIR PAGE.3...    remove them again
set -eu
what=${1:-}
case $what in
  list) shift ;;
  install|uninstall) dir=$2; shift 2 ;;
  *) echo "usage: stubs.sh list|install|uninstall [MAN3DIR] PAGE.3..." >&2; exit 2 ;;
esac
[ "$what" = install ] && mkdir -p "$dir"
for page in "$@"; do
  base=$(basename "$page")
  # a page that is itself a stub has nothing to offer
  grep -q '^\.Sh NAME' "$page" || continue
  for name in $(awk '/^\.Sh / { sec = $2 } sec == "NAME" && $1 == ".Nm" { print $2 }' "$page"); do
    [ "$name.3" = "$base" ] && continue
    case $what in
      list) echo "$name $base" ;;
      install) echo ".so man3/$base" > "$dir/$name.3" ;;
      uninstall) rm -f "$dir/$name.3" ;;
    esac
  done
done
