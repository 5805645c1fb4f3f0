# Signals in Perl: alarm interrupting sleep through die in the handler,
# %SIG handlers for a signal sent to the process itself, SIGTERM of a
# forked child, and an exit status of its own.
$| = 1;
my $caught = eval {
    local $SIG{ALRM} = sub { die "alarm\n" };
    alarm 1;
    sleep 10;
    alarm 0;
    1;
} ? "" : $@;
print $caught eq "alarm\n" ? "alarm 1 interrupted sleep 10\n" : "sleep was not interrupted\n";

my $n = 0;
$SIG{USR1} = sub { $n++ };
kill 'USR1', $$ for 1 .. 3;
print "USR1 handler ran $n times\n";

my $pid = fork;
if (!$pid) { sleep 30; exit 0 }
kill 'TERM', $pid;
waitpid($pid, 0);
print "child killed by signal ", $? & 127, "\n";
exit 3;
