#!/bin/sh
# The #include lines under src/ against the layering of DESIGN.md:
#   1. a file of the command line (src/cli/) includes public headers
#      (include/chive/*.h), the command line's own headers beside it and
#      system headers, nothing else under src/.  The files given with
#      --except are let off (CMakeLists.txt's CHV_CLI_INTERNAL: the shell,
#      until it stands on include/chive/session.h); one that no longer
#      needs it, or that does not exist, is reported, so the list only
#      shrinks;
#   2. nothing outside src/cli/ includes a header of src/cli/;
#   3. the modules (the folders under src/: sql/parse, sql/exec,
#      sql/session, connector, format/text, ...) include each other
#      without a cycle.
# A quoted name is looked for as the compiler does: beside the including
# file, then in include/, then in src/; <name> in include/, then src/, else
# it is a system header.  Lines are read as they are (an #include inside
# #if 0 counts).
# usage: check_layers.sh [--except src/cli/FILE]... SOURCE_DIR
set -eu
except=""
while [ $# -gt 1 ] && [ "$1" = "--except" ]; do
  except="$except $2"
  shift 2
done
if [ $# -ne 1 ]; then
  echo "usage: check_layers.sh [--except src/cli/FILE]... SOURCE_DIR" >&2
  exit 2
fi
cd "$1"
if [ ! -d src ]; then
  echo "check_layers: no src/ folder in $1" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find src include -type f 2>/dev/null | LC_ALL=C sort >"$tmp/files"
find src -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort \
  >"$tmp/sources"

awk -v files="$tmp/files" -v sources="$tmp/sources" -v except="$except" '
function problem(msg) { print "check_layers: " msg; nproblems++ }

# p with "." and ".." folded; "" when it climbs out of the source tree.
function norm(p,    n, parts, i, k, out) {
  n = split(p, parts, "/")
  k = 0
  for (i = 1; i <= n; i++) {
    if (parts[i] == "." || parts[i] == "") continue
    if (parts[i] == "..") {
      if (k == 0) return ""
      k--
      continue
    }
    seg[++k] = parts[i]
  }
  out = ""
  for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") seg[i]
  return out
}
function dirname(p) {
  if (p !~ /\//) return "."
  sub(/\/[^\/]*$/, "", p)
  return p
}
# The module of a file under src/: its folder ("sql/session").
function module(p) { return substr(dirname(p), 5) }

# The file name resolves to from file f (quoted: q = 1); sets via to
# "beside", "include", "src" or "" (not found).
function resolve(f, name, q,    c) {
  via = ""
  if (q) {
    c = norm(dirname(f) "/" name)
    if (c in exists) { via = "beside"; return c }
  }
  c = norm("include/" name)
  if (c in exists) { via = "include"; return c }
  c = norm("src/" name)
  if (c in exists) { via = "src"; return c }
  return ""
}

function edge(a, b, where) {
  if ((a, b) in evid) return
  evid[a, b] = where
  adj[a, ++adjn[a]] = b
}

# Depth-first search from u; a grey node met again closes a cycle.
function dfs(u, depth,    i, v, j, k, cyc, ev, nxt) {
  color[u] = 1
  stack[depth] = u
  for (i = 1; i <= adjn[u]; i++) {
    v = adj[u, i]
    if (color[v] == 1) {
      for (j = depth; j > 1 && stack[j] != v; j--) {}
      cyc = ""
      ev = ""
      for (k = j; k <= depth; k++) {
        nxt = k < depth ? stack[k + 1] : v
        cyc = cyc stack[k] " -> "
        ev = ev "\n    " stack[k] " -> " nxt ": " evid[stack[k], nxt]
      }
      problem("an include cycle among modules: " cyc v ev)
    } else if (color[v] == 0) {
      dfs(v, depth + 1)
    }
  }
  color[u] = 2
}

BEGIN {
  while ((getline line < files) > 0) exists[line] = 1
  close(files)
  nex = split(except, exlist, " ")
  for (i = 1; i <= nex; i++) {
    e = exlist[i]
    excepted[e] = 1
    if (e !~ /^src\/cli\//)
      problem("--except " e ": only files of src/cli/ are let off")
    else if (!(e in exists))
      problem("--except " e ": no such file; take it off the list " \
              "(CHV_CLI_INTERNAL in CMakeLists.txt)")
  }
  nfiles = 0
  nincludes = 0
  while ((getline f < sources) > 0) {
    nfiles++
    m = module(f)
    if (!(m in seen)) { seen[m] = 1; nodes[++nnodes] = m }
    cli = f ~ /^src\/cli\//
    ln = 0
    while ((getline line < f) > 0) {
      ln++
      if (line !~ /^[ \t]*#[ \t]*include[ \t]*["<]/) continue
      nincludes++
      s = line
      sub(/^[ \t]*#[ \t]*include[ \t]*/, "", s)
      q = (substr(s, 1, 1) == "\"")
      name = substr(s, 2)
      sub(q ? "\".*" : ">.*", "", name)
      shown = q ? "\"" name "\"" : "<" name ">"
      where = f ":" ln
      t = resolve(f, name, q)
      internal = t ~ /^src\// && !(t ~ /^src\/cli\// && via == "beside")
      if (cli && (f in excepted)) {
        if (internal) needs[f] = 1
      } else if (cli) {
        if (t == "" && q)
          problem(where ": includes " shown ", which is neither beside " \
                  "it nor under include/chive/")
        else if (internal && t ~ /^src\/cli\//)
          problem(where ": includes " shown " through src/, which is not " \
                  "on the command line'"'"'s include path: name it as it " \
                  "lies beside the file")
        else if (internal || (t != "" && t !~ /^(include\/chive|src\/cli)\//))
          problem(where ": includes " shown " (" t "): the command line " \
                  "includes include/chive/ headers, its own and system " \
                  "headers only")
      }
      if (t ~ /^src\/cli\// && !cli)
        problem(where ": includes " shown ", a header of the command " \
                "line: nothing includes src/cli/")
      if (t ~ /^src\// && module(t) != m) {
        if (!(module(t) in seen)) {
          seen[module(t)] = 1
          nodes[++nnodes] = module(t)
        }
        edge(m, module(t), where)
      }
    }
    close(f)
  }
  close(sources)
  for (i = 1; i <= nex; i++) {
    e = exlist[i]
    if ((e in exists) && e ~ /^src\/cli\// && !(e in needs))
      problem("--except " e ": it includes no header under src/ any more; " \
              "take it off the list (CHV_CLI_INTERNAL in CMakeLists.txt)")
  }
  for (i = 1; i <= nnodes; i++)
    if (color[nodes[i]] == 0) dfs(nodes[i], 1)
  if (nproblems) exit 1
  printf "check_layers: ok (%d files, %d #include lines, %d modules", \
         nfiles, nincludes, nnodes
  if (nex) printf "; let off:%s", except
  print ")"
}
'
