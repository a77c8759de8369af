#!/usr/bin/env bash
# The students' route, with the wheel python/build.sh made (no Rust build):
#   python/tests/student_install.sh WHEEL FOLDER
# In FOLDER (emptied first): a fresh venv from /usr/bin/python3, `pip
# install WHEEL` (offline: the wheel has no dependencies), then, from that
# venv and with nothing of the repository on PATH or PYTHONPATH:
#   - `python -c "import arena"` plays a move of Bait;
#   - `arena check --help` and `python -m arena check --help` print the
#     help of the wheel's own `arena`;
#   - `arena check` of a Python submission on arena.agent (a copy of
#     configs/assignments/bait.toml cut to level 0, once) under bwrap gives
#     the verdict `ok` (exit 0): the submission imported this venv's
#     package inside the sandbox;
#   - without bubblewrap (ARENA_BWRAP naming a missing program) `arena
#     check` stops with exit 3 and says why, and with the assignment's copy
#     set to sandbox = "rlimit" it plays (exit 0).
set -euo pipefail
wheel=$(realpath "$1")
dir=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir"
mkdir -p "$dir"
chmod 755 "$dir"   # under root, rlimit agents run as another uid
dir=$(realpath "$dir")
# That uid must be able to reach the folder: where a folder above it is
# private (0700, like a home or a CI workspace), the student works in /tmp.
reachable() {
  local p=$1
  while [ "$p" != / ]; do
    [ $(( 0$(stat -c %a "$p") & 1 )) = 1 ] || return 1
    p=$(dirname "$p")
  done
}
if [ "$(id -u)" = 0 ] && ! reachable "$dir"; then
  dir=$(mktemp -d /tmp/arena-student.XXXXXX)
  chmod 755 "$dir"
  trap 'rm -rf "$dir"' EXIT
  echo "student_install: a folder above $2 is private; the student works in $dir"
fi
cd "$dir"
fail() { echo "student_install: $*" >&2; exit 1; }

/usr/bin/python3 -m venv venv
venv/bin/pip install --quiet --no-index "$wheel"
export PATH="$dir/venv/bin:/usr/local/bin:/usr/bin:/bin"
unset PYTHONPATH ARENA_PYTHON_SITE ARENA_BIN
[ "$(command -v arena)" = "$dir/venv/bin/arena" ] || fail "arena is not the venv's: $(command -v arena)"

python -c "
import arena
s = arena.load('bait', '0')
s.advance(s.legal_actions()[0])
assert s.tick() == 1, s.tick()
print('import arena:', arena.__file__)
"
case $(python -c "import arena; print(arena.__file__)") in
  "$dir"/venv/*) ;;
  *) fail "import arena did not load the venv's package" ;;
esac
arena check --help > help.txt || fail "arena check --help failed"
grep -q "Usage: arena check" help.txt || fail "arena check --help: $(cat help.txt)"
python -m arena check --help | grep -q "Usage: arena check" || fail "python -m arena check --help"
echo "arena check --help: ok"

mkdir my-agent
cat > my-agent/main.py <<'PY'
import arena.agent

def act(state, timer):
    return state.legal_actions(timer.seat)[0]

arena.agent.run(act)
PY
sed -e 's/^levels = .*/levels = [0]/' -e 's/^repetitions = .*/repetitions = 1/' \
  -e '/^\[\[grading.criteria\]\]/,$d' "$repo/configs/assignments/bait.toml" > lab.toml
cat >> lab.toml <<'TOML'
[[grading.criteria]]
name = "level 0 won"
level = 0
points = 10
TOML
grep -q '^sandbox = "bwrap"' lab.toml || fail "lab.toml: the assignment no longer says sandbox = \"bwrap\""
arena check my-agent/ --assignment lab.toml --out check-bwrap > check-bwrap.txt 2>&1 \
  || { cat check-bwrap.txt >&2; fail "arena check under bwrap failed"; }
echo "arena check (bwrap): ok"

code=0
ARENA_BWRAP=/nonexistent/bwrap arena check my-agent/ --assignment lab.toml --out check-nobwrap \
  > nobwrap.txt 2>&1 || code=$?
[ "$code" = 3 ] || { cat nobwrap.txt >&2; fail "arena check without bwrap: exit $code, not 3"; }
grep -q "cannot grade" nobwrap.txt || { cat nobwrap.txt >&2; fail "no reason given without bwrap"; }
sed 's/^sandbox = "bwrap".*/sandbox = "rlimit"/' lab.toml > lab-rlimit.toml
ARENA_BWRAP=/nonexistent/bwrap arena check my-agent/ --assignment lab-rlimit.toml --out check-rlimit \
  > check-rlimit.txt 2>&1 || { cat check-rlimit.txt >&2; fail "arena check with sandbox = rlimit failed"; }
echo "arena check without bwrap: exit 3 with a reason; with sandbox = \"rlimit\": ok"
