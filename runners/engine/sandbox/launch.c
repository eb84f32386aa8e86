/*
 * chanfuzz-launch: the first process of a local sandbox's run, outside the sandbox.
 *
 * The engine starts it (as root, as a rule) and it becomes bubblewrap.  Before that it
 *
 *   - with --gate: waits for a line on its stdin, which the engine writes once it has
 *     moved this process into the run's cgroup by pid (cgroup v2), then puts
 *     /dev/null on its stdin;
 *   - with --join FD (any number): writes "0" to each FD, a cgroup v1 `tasks` file the
 *     engine opened as root, which moves this process into the run's groups.  A
 *     single-threaded process moving itself skips the kernel's global threadgroup lock,
 *     whose writer waits out an RCU grace period when the engine moves a run by pid
 *     (11-12 ms a run: cgroups.py).  Then it closes them: the run must never hold a
 *     file opened by root;
 *   - with --user UID:GID: drops its supplementary groups, then sets its real,
 *     effective and saved gid, then uid (the filesystem ids follow), and checks them.
 *     From root to another uid the kernel clears every capability;
 *   - execs PROGRAM with its arguments (an absolute path: there is no PATH search).
 *
 * It replaces util-linux's setpriv and a shell, two programs started for each run
 * (about 2.5 ms a run where exec is slow), and it is static: no dynamic loader either.
 *
 * When a step fails, it writes "chanfuzz-launch: <step>: <error>" to stderr and exits
 * with 125 (the gate or a join), 126 (the user) or 127 (the exec), and nothing of the
 * run has started.  A gate that ends without a line (the engine could not move it)
 * exits 125 quietly.
 *
 * Usage: chanfuzz-launch [--gate] [--join FD]... [--user UID:GID] -- PROGRAM [ARG]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_JOINS 16

static int fail(int code, const char *step, int err) {
    if (err)
        fprintf(stderr, "chanfuzz-launch: %s: %s\n", step, strerror(err));
    else
        fprintf(stderr, "chanfuzz-launch: %s\n", step);
    return code;
}

static int parse_int(const char *text, long *out) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || end == text || *end || value < 0 || value > 0x7fffffff)
        return -1;
    *out = value;
    return 0;
}

static int wait_gate(void) {
    char c;
    for (;;) {
        ssize_t n = read(0, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        if (c == '\n')
            break;
    }
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0)
        return -1;
    close(null);
    return 0;
}

static int drop_to(uid_t uid, gid_t gid) {
    uid_t ruid, euid, suid;
    gid_t rgid, egid, sgid;
    if (setgroups(0, NULL) != 0)
        return -1;
    if (setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0)
        return -1;
    if (getresuid(&ruid, &euid, &suid) != 0 || getresgid(&rgid, &egid, &sgid) != 0)
        return -1;
    if (ruid != uid || euid != uid || suid != uid || rgid != gid || egid != gid ||
        sgid != gid || getgroups(0, NULL) != 0) {
        errno = EPERM;
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    int gate = 0, joins[MAX_JOINS], njoins = 0, drop = 0;
    long uid = 0, gid = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "--gate") == 0) {
            gate = 1;
        } else if (strcmp(argv[i], "--join") == 0 && i + 1 < argc) {
            long fd;
            if (njoins == MAX_JOINS || parse_int(argv[++i], &fd) != 0 || fd > 1 << 20)
                return fail(2, "--join takes a descriptor number, at most 16 times", 0);
            joins[njoins++] = (int)fd;
        } else if (strcmp(argv[i], "--user") == 0 && i + 1 < argc) {
            char ids[64];
            char *colon;
            snprintf(ids, sizeof ids, "%s", argv[++i]);
            colon = strchr(ids, ':');
            if (colon == NULL)
                return fail(2, "--user takes UID:GID", 0);
            *colon = '\0';
            if (parse_int(ids, &uid) != 0 || parse_int(colon + 1, &gid) != 0)
                return fail(2, "--user takes UID:GID", 0);
            drop = 1;
        } else {
            return fail(2, "usage: chanfuzz-launch [--gate] [--join FD]... "
                           "[--user UID:GID] -- PROGRAM [ARG]...", 0);
        }
    }
    if (i >= argc || argv[i][0] != '/')
        return fail(2, "the program must be an absolute path", 0);

    if (gate && wait_gate() != 0)
        return 125;
    for (int j = 0; j < njoins; j++) {
        if (write(joins[j], "0", 1) != 1)
            return fail(125, "cannot join the run's cgroup", errno);
    }
    for (int j = 0; j < njoins; j++)
        close(joins[j]);
    if (drop && drop_to((uid_t)uid, (gid_t)gid) != 0)
        return fail(126, "cannot become the run's user", errno);
    execv(argv[i], argv + i);
    return fail(127, argv[i], errno);
}
