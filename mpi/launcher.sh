# launcher.sh - how the MPI tests start jobs, sourced (not run); sets
#   launcher       MPIEXEC (configure's), else mpiexec; it may hold words
#                  after the command
#   have_launcher  yes when that command is found, else no
#   flags          MPIEXEC_FLAGS; when empty and the launcher is Open MPI's,
#                  --oversubscribe (a job may have more ranks than CI's 2
#                  cores) and, run as root (CI containers), --allow-run-as-root
# The caller's positional parameters are left alone.
launcher=${MPIEXEC:-mpiexec}
gk_first_word() { echo "$1"; }
# shellcheck disable=SC2086
launcher_cmd=$(gk_first_word $launcher)
have_launcher=yes
command -v "$launcher_cmd" > /dev/null 2>&1 || have_launcher=no
flags=$MPIEXEC_FLAGS
if [ $have_launcher = yes ] && [ -z "$flags" ] &&
        "$launcher_cmd" --version 2>&1 | grep -qi -e 'open mpi' -e 'openrte' -e 'prrte'; then
    flags=--oversubscribe
    [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
fi
