/* Tries to create a file in each directory given; prints "ok DIR" or
 * "denied DIR: reason" per directory. Always exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    char path[4096];
    for (int i = 1; i < argc; i++) {
        snprintf(path, sizeof path, "%s/chanfuzz-escape", argv[i]);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0 && write(fd, "x", 1) == 1) {
            printf("ok %s\n", argv[i]);
        } else {
            printf("denied %s: %s\n", argv[i], strerror(errno));
        }
        if (fd >= 0) close(fd);
    }
    return 0;
}
