/* Writes one file in argv[1] until a write fails; prints how far it got. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    signal(SIGXFSZ, SIG_IGN); /* see the error instead of dying of the signal */
    char path[4096], buf[65536];
    memset(buf, 'z', sizeof buf);
    snprintf(path, sizeof path, "%s/big", argc > 1 ? argv[1] : "/tmp");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { printf("open: %s\n", strerror(errno)); return 1; }
    long total = 0;
    for (;;) {
        ssize_t n = write(fd, buf, sizeof buf);
        if (n <= 0) { printf("stopped at %ld MiB: %s\n", total >> 20, strerror(errno)); return 0; }
        total += n;
        if (total >= (1L << 30)) { puts("wrote 1 GiB"); return 0; }
    }
}
