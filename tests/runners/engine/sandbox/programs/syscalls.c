/* Tries system calls a channel program never needs and prints, for each, "name errno"
 * (0 when it succeeded). Under the local sandbox's seccomp filter each must be EPERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static void try(const char *name, long nr, long a, long b, long c) {
    errno = 0;
    long r = syscall(nr, a, b, c, 0, 0, 0);
    printf("%s %d\n", name, r == -1 ? errno : 0);
}

int main(void) {
    try("ptrace", SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0);
    try("mount", SYS_mount, (long)"none", (long)"/tmp", (long)"tmpfs");
    try("unshare", SYS_unshare, 0x00020000 /* CLONE_NEWNS */, 0, 0);
    try("bpf", SYS_bpf, 0, 0, 0);
    try("perf_event_open", SYS_perf_event_open, 0, 0, 0);
    try("keyctl", SYS_keyctl, 0, 0, 0);
    try("syslog", SYS_syslog, 3, 0, 0);
    try("io_uring_setup", SYS_io_uring_setup, 1, 0, 0);
    try("sethostname", SYS_sethostname, (long)"x", 1, 0);
    try("getpid", SYS_getpid, 0, 0, 0);
    return 0;
}
