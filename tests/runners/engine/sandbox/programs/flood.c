/* Writes to stdout without end, or (with an argument N) N MiB then exits 0.
 * Either way the writer must never block on the sandbox reading slowly. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    char buf[65536];
    memset(buf, 'y', sizeof buf);
    long mib = argc > 1 ? atol(argv[1]) : -1;
    for (long i = 0; mib < 0 || i < mib * 16; i++) {
        if (write(1, buf, sizeof buf) < 0) return 1;
    }
    return 0;
}
