# The inside half of harness4j's meter relay (see MeterRelay for the outside half). Run by
# Bubblewrap as `perl -e <this> -- <port> <unix socket> <command...>` inside the sandbox's own
# network namespace. It listens on 127.0.0.1:<port> BEFORE the command starts (so the command's
# first request never meets a closed port, and nobody has to wait for a relay to come up), then
# execs the command in its own process (same pid: exit status and signals are the command's).
# A grandchild, reparented to the sandbox's init and dying with the sandbox, accepts each
# connection and copies it both ways to the Unix socket that leads to the metering proxy. It
# stops accepting when the command and everything that inherited the command's end of a pipe
# are gone, so that the sandbox's init can exit with the command instead of waiting to be killed.
# It ignores TERM: a stop sends TERM to every process of the run but bwrap's, and the command's
# TERM handler may still talk to the meter during its grace; KILL, or the command's end, stops it.
# Perl builtins only (no modules: loading Socket alone costs ~10 ms); Linux's constants:
# AF_UNIX 1, AF_INET 2, SOCK_STREAM 1.
my ($port, $path) = splice(@ARGV, 0, 2);
socket(my $listen, 2, 1, 0) or die "harness4j: the meter relay could not open a socket: $!\n";
bind($listen, pack('S n N x8', 2, $port, 0x7f000001))
    or die "harness4j: the meter relay could not bind 127.0.0.1:$port: $!\n";
listen($listen, 128) or die "harness4j: the meter relay could not listen on 127.0.0.1:$port: $!\n";
pipe(my $alive, my $holder) or die "harness4j: the meter relay could not make a pipe: $!\n";
defined(my $child = fork) or die "harness4j: the meter relay could not fork: $!\n";
if ($child) {
    waitpid($child, 0); # it forks the relay and exits at once: the relay is not the command's child
    close $listen;
    close $alive;
    fcntl($holder, 2, 0); # F_SETFD without FD_CLOEXEC: the command holds the pipe open while it lives
    exec { $ARGV[0] } @ARGV;
    print STDERR "harness4j: could not execute $ARGV[0]: $!\n";
    exit 127;
}
exit 0 if fork;
$SIG{TERM} = 'IGNORE';
close $holder;
open STDIN, '<', '/dev/null';
open STDOUT, '>', '/dev/null';
open STDERR, '>', '/dev/null';
$SIG{CHLD} = 'IGNORE';
$SIG{PIPE} = 'IGNORE';
while (1) {
    my $wait = '';
    vec($wait, fileno($listen), 1) = 1;
    vec($wait, fileno($alive), 1) = 1;
    next if select(my $woken = $wait, undef, undef, undef) <= 0;
    exit 0 if vec($woken, fileno($alive), 1); # end of file: the command is gone
    accept(my $in, $listen) or next;
    my $pump = fork;
    if (!defined $pump || $pump) {
        close $in;
        next;
    }
    close $listen;
    close $alive;
    my $out;
    socket($out, 1, 1, 0) && connect($out, pack('S a*', 1, $path)) or exit 1;
    my %to = (fileno($in) => $out, fileno($out) => $in);
    my %from = (fileno($in) => $in, fileno($out) => $out);
    while (%from) {
        my $want = '';
        vec($want, $_, 1) = 1 for keys %from;
        next if select(my $ready = $want, undef, undef, undef) <= 0;
        for my $fd (keys %from) {
            next unless vec($ready, $fd, 1);
            my $n = sysread($from{$fd}, my $buf, 65536);
            if (!$n) { # end of stream (or an error): pass the half-close on
                shutdown($to{$fd}, 1);
                delete $from{$fd};
                next;
            }
            while (length $buf) {
                my $w = syswrite($to{$fd}, $buf);
                exit 0 unless $w;
                substr($buf, 0, $w, '');
            }
        }
    }
    exit 0;
}
