# Signals in BusyBox's ash: traps, kill of the shell itself, of background
# children and of subshells, wait's exit statuses, and the timeout applet.
trap 'echo "trap: USR1"' USR1
trap 'echo "trap: EXIT"' EXIT
kill -USR1 $$
echo "after kill -USR1 \$\$"

# kill_background SIGNAL: a background sleep killed by SIGNAL, and wait's
# status.  ash reports the job's death on stderr ("Terminated") only when it
# reaps the job before wait does, a race under any QEMU: that report is
# dropped.
kill_background() {
    {
        sleep 30 &
        child=$!
        kill -"$1" "$child"
        wait "$child"
        status=$?
    } 2>/dev/null
    echo "background sleep killed by $1: wait status $status"
}
kill_background TERM
kill_background KILL

( trap 'echo "subshell: TERM trapped"; exit 7' TERM
  kill -TERM "$(sh -c 'echo $PPID')"
  sleep 30 ) 2>&1
echo "subshell ended with status $?"

sh -c 'kill -INT $$; echo "not reached"'
echo "sh -c killed by INT: status $?"

sh -c 'trap "echo child: HUP ignored" HUP; kill -HUP $$; exit 3'
echo "sh -c with a HUP trap: status $?"

timeout 1 sleep 30
echo "timeout 1 sleep 30: status $?"
timeout -s KILL 1 sleep 30
echo "timeout -s KILL 1 sleep 30: status $?"
timeout 5 true
echo "timeout 5 true: status $?"

i=0
trap 'i=$((i + 1))' USR2
for n in 1 2 3 4 5; do kill -USR2 $$; done
echo "USR2 trap ran $i times"
exit 5
