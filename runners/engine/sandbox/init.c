/*
 * chanfuzz-init: the first process inside a chanfuzz sandbox.
 *
 * Both sandbox backends start the program under test through this helper
 * (bwrap --as-pid-1 / a container's entrypoint), so that it is PID 1 of the
 * sandbox's PID namespace.  It exists because neither bwrap nor a container
 * engine can say *how* a program ended: both turn "killed by signal N" into
 * exit code 128+N, which a program can also exit with on its own.  The helper
 *
 *   - applies resource limits to the program (inside the namespaces, after
 *     bwrap set them up: RLIMIT_NPROC is counted per user namespace there, so
 *     each run gets its own process budget);
 *   - forks and execs the program, reporting an exec failure distinctly;
 *   - with --sched batch, puts the program under SCHED_BATCH (allowed
 *     unprivileged; inherited by its threads and children): its threads then
 *     preempt one another at the scheduler's tick, never on a wake-up (why a
 *     target asks for it: TargetSpec.batch_scheduling);
 *   - raises the program's oom_score_adj to 1000 (allowed unprivileged), so an
 *     OOM killer -- the container's memory cgroup, or the host's -- takes the
 *     program or its children, never this helper (without it, a fork bomb's
 *     processes are no bigger than the helper, which was sometimes picked and
 *     the run ended with no status line) and never a process of the host;
 *   - forwards SIGQUIT/SIGTERM/SIGINT/SIGHUP/SIGUSR1/SIGUSR2 to the program (a
 *     PID 1 only receives signals it has a handler for, so a "dump" signal sent
 *     from outside must be relayed: Go prints its goroutines on SIGQUIT, the
 *     JVM its threads);
 *   - reaps every orphan (it is PID 1) and, once the program itself has ended,
 *     writes one status line and exits -- which makes the kernel kill whatever
 *     the program left behind in the namespace.
 *
 * Status line (to --status-fd N or --status-file PATH):
 *   "exit N"          the program exited with code N
 *   "signal N"        the program was killed by signal N
 *   "signal N core"   ... and the kernel says it dumped core (RLIMIT_CORE=0
 *                     means no file is written)
 *   "exec-error E M"  the program could not be started: errno E, message M
 * The helper's own exit code mirrors the program's (128+N for a signal, 127
 * when the exec failed), for whoever cannot read the status line.
 *
 * Usage: chanfuzz-init [--status-fd N] [--status-file PATH]
 *                      [--stdout PATH] [--stderr PATH] [--seccomp deny] [--sched batch]
 *                      [--rlimit NAME=SOFT[:HARD]]... -- PROGRAM [ARG]...
 * NAME is one of data, nproc, fsize, cpu, core, nofile, stack, as.
 * --stdout/--stderr reopen the helper's (and so the program's) stdout/stderr
 * on PATH: the docker backend hands in FIFOs it reads directly, cheaper than
 * the engine's attach stream and never buffered on the engine's disk.
 * --seccomp deny: before the program starts, a seccomp filter makes the system
 * calls in `denied` below fail with EPERM for it and everything it starts (the
 * local backend; a container has its engine's profile).  None of them is needed to
 * run a channel program, and each is a way out or an attack surface: tracing
 * other processes, mounts and namespaces, kernel modules and kexec, BPF and
 * perf events, the kernel keyring, io_uring, clocks and host names.  A filter
 * for another architecture than the helper's own kills the caller: no 32-bit or
 * x32 system calls get past it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#define CHANFUZZ_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CHANFUZZ_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The system calls --seccomp deny refuses (those this libc's headers know). */
static const int denied[] = {
#ifdef __NR_ptrace
    __NR_ptrace,
#endif
    __NR_process_vm_readv, __NR_process_vm_writev, __NR_kcmp,
    __NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot, __NR_unshare, __NR_setns,
#ifdef __NR_fsopen
    __NR_fsopen, __NR_fsmount, __NR_move_mount, __NR_open_tree,
#endif
    __NR_swapon, __NR_swapoff, __NR_reboot, __NR_kexec_load,
#ifdef __NR_kexec_file_load
    __NR_kexec_file_load,
#endif
    __NR_init_module, __NR_finit_module, __NR_delete_module,
    __NR_bpf, __NR_perf_event_open, __NR_userfaultfd,
    __NR_keyctl, __NR_add_key, __NR_request_key,
    __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_acct, __NR_quotactl,
    __NR_syslog, __NR_fanotify_init, __NR_vhangup,
    __NR_settimeofday, __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex,
    __NR_sethostname, __NR_setdomainname,
#ifdef __NR_io_uring_setup
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
#ifdef __NR_iopl
    __NR_iopl, __NR_ioperm,
#endif
#ifdef __NR_lookup_dcookie
    __NR_lookup_dcookie,
#endif
};

#define DENIED_COUNT (sizeof denied / sizeof denied[0])

/* Installs the denylist in the calling process (the program, between fork and exec);
 * 0, or an errno. */
static int install_seccomp(void) {
#ifndef CHANFUZZ_AUDIT_ARCH
    return ENOSYS;
#else
    struct sock_filter filter[4 + 2 * DENIED_COUNT + 3];
    size_t n = 0;
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                               offsetof(struct seccomp_data, arch));
    filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CHANFUZZ_AUDIT_ARCH, 1, 0);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                               offsetof(struct seccomp_data, nr));
#ifdef __X32_SYSCALL_BIT
    filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
    for (size_t d = 0; d < DENIED_COUNT; d++) {
        filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)denied[d], 0, 1);
        filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
    }
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {.len = (unsigned short)n, .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return errno;
    return 0;
#endif
}

#define MAX_RLIMITS 16

struct limit_opt {
    int resource;
    struct rlimit value;
};

static volatile sig_atomic_t child_pid = 0;

static const int forwarded[] = {SIGQUIT, SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2};

static void forward(int sig) {
    pid_t pid = child_pid;
    if (pid > 0) {
        int saved = errno;
        kill(pid, sig);
        errno = saved;
    }
}

static void usage(const char *why) {
    fprintf(stderr, "chanfuzz-init: %s\n", why);
    exit(125);
}

static int resource_by_name(const char *name, size_t len) {
    static const struct { const char *name; int resource; } table[] = {
        {"data", RLIMIT_DATA}, {"nproc", RLIMIT_NPROC}, {"fsize", RLIMIT_FSIZE},
        {"cpu", RLIMIT_CPU},   {"core", RLIMIT_CORE},   {"nofile", RLIMIT_NOFILE},
        {"stack", RLIMIT_STACK}, {"as", RLIMIT_AS},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].name) == len && strncmp(table[i].name, name, len) == 0)
            return table[i].resource;
    return -1;
}

static rlim_t parse_value(const char *s) {
    if (strcmp(s, "unlimited") == 0) return RLIM_INFINITY;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || (*end != '\0' && *end != ':')) usage("bad rlimit value");
    return (rlim_t)v;
}

static void parse_rlimit(const char *arg, struct limit_opt *out) {
    const char *eq = strchr(arg, '=');
    if (!eq) usage("--rlimit wants NAME=SOFT[:HARD]");
    out->resource = resource_by_name(arg, (size_t)(eq - arg));
    if (out->resource < 0) usage("unknown rlimit name");
    out->value.rlim_cur = parse_value(eq + 1);
    const char *colon = strchr(eq + 1, ':');
    out->value.rlim_max = colon ? parse_value(colon + 1) : out->value.rlim_cur;
}

static void redirect(const char *path, int target) {
    int fd = open(path, O_WRONLY | O_NOCTTY);
    if (fd < 0) {
        perror("chanfuzz-init: open output");
        exit(125);
    }
    if (fd != target) {
        dup2(fd, target);
        close(fd);
    }
}

static void write_status(int fd, const char *path, const char *line) {
    if (path) {
        int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (f >= 0) {
            ssize_t unused = write(f, line, strlen(line));
            (void)unused;
            close(f);
        }
    }
    if (fd >= 0) {
        ssize_t unused = write(fd, line, strlen(line));
        (void)unused;
    }
}

int main(int argc, char **argv) {
    int status_fd = -1;
    const char *status_file = NULL, *stdout_path = NULL, *stderr_path = NULL;
    struct limit_opt limits[MAX_RLIMITS];
    int nlimits = 0;
    int seccomp = 0;
    int sched_batch = 0;
    int i = 1;

    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) { i++; break; }
        if (i + 1 >= argc) usage("option without a value");
        if (strcmp(argv[i], "--status-fd") == 0) {
            status_fd = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--status-file") == 0) {
            status_file = argv[++i];
        } else if (strcmp(argv[i], "--stdout") == 0) {
            stdout_path = argv[++i];
        } else if (strcmp(argv[i], "--stderr") == 0) {
            stderr_path = argv[++i];
        } else if (strcmp(argv[i], "--seccomp") == 0) {
            if (strcmp(argv[++i], "deny") != 0) usage("--seccomp takes: deny");
            seccomp = 1;
        } else if (strcmp(argv[i], "--sched") == 0) {
            if (strcmp(argv[++i], "batch") != 0) usage("--sched takes: batch");
            sched_batch = 1;
        } else if (strcmp(argv[i], "--rlimit") == 0) {
            if (nlimits == MAX_RLIMITS) usage("too many --rlimit");
            parse_rlimit(argv[++i], &limits[nlimits++]);
        } else {
            usage("unknown option");
        }
    }
    if (i >= argc) usage("no program given");
    if (stdout_path) redirect(stdout_path, STDOUT_FILENO);
    if (stderr_path) redirect(stderr_path, STDERR_FILENO);
    if (status_fd >= 0) fcntl(status_fd, F_SETFD, FD_CLOEXEC);

    /* Block the forwarded signals until the child's pid is known, so that a
     * signal arriving in between is relayed rather than lost. */
    sigset_t fwd, old;
    sigemptyset(&fwd);
    for (size_t s = 0; s < sizeof forwarded / sizeof forwarded[0]; s++)
        sigaddset(&fwd, forwarded[s]);
    sigprocmask(SIG_BLOCK, &fwd, &old);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t s = 0; s < sizeof forwarded / sizeof forwarded[0]; s++)
        sigaction(forwarded[s], &sa, NULL);

    int errpipe[2];
    if (pipe2(errpipe, O_CLOEXEC) != 0) { perror("chanfuzz-init: pipe2"); return 125; }

    pid_t pid = fork();
    if (pid < 0) { perror("chanfuzz-init: fork"); return 125; }
    if (pid == 0) {
        close(errpipe[0]);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        for (size_t s = 0; s < sizeof forwarded / sizeof forwarded[0]; s++)
            sigaction(forwarded[s], &dfl, NULL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        /* Best effort: without /proc the program just keeps the helper's score. */
        int oom = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
        if (oom >= 0) {
            ssize_t unused = write(oom, "1000", 4);
            (void)unused;
            close(oom);
        }
        int err = 0;
        for (int l = 0; l < nlimits && !err; l++)
            if (setrlimit(limits[l].resource, &limits[l].value) != 0) err = errno;
        if (!err && sched_batch) {
            struct sched_param param = {.sched_priority = 0};
            if (sched_setscheduler(0, SCHED_BATCH, &param) != 0) err = errno;
        }
        if (!err && seccomp) err = install_seccomp();
        if (!err) {
            execvp(argv[i], &argv[i]);
            err = errno;
        }
        ssize_t unused = write(errpipe[1], &err, sizeof err);
        (void)unused;
        _exit(127);
    }
    child_pid = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(errpipe[1]);

    int exec_errno = 0;
    ssize_t n;
    do { n = read(errpipe[0], &exec_errno, sizeof exec_errno); } while (n < 0 && errno == EINTR);
    close(errpipe[0]);

    int wstatus = 0;
    for (;;) {
        pid_t w = waitpid(-1, &wstatus, 0);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) { perror("chanfuzz-init: waitpid"); return 125; }
    }
    child_pid = 0;

    char line[256];
    int code;
    if (n == (ssize_t)sizeof exec_errno && exec_errno != 0) {
        snprintf(line, sizeof line, "exec-error %d %s\n", exec_errno, strerror(exec_errno));
        fprintf(stderr, "chanfuzz-init: cannot run %s: %s\n", argv[i], strerror(exec_errno));
        code = 127;
    } else if (WIFSIGNALED(wstatus)) {
        snprintf(line, sizeof line, "signal %d%s\n", WTERMSIG(wstatus),
                 WCOREDUMP(wstatus) ? " core" : "");
        code = 128 + WTERMSIG(wstatus);
    } else {
        snprintf(line, sizeof line, "exit %d\n", WEXITSTATUS(wstatus));
        code = WEXITSTATUS(wstatus);
    }
    write_status(status_fd, status_file, line);
    return code;
}
