/* Allocates and touches 2 GiB in 64 MiB steps; says how far it got. Exits 42
 * when an allocation fails, 0 ("done") when it got all of it. With an argument
 * N, it holds what it got for N seconds before it exits, so that several hogs
 * hold their memory at the same time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    const unsigned hold = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
    const size_t step = 64u << 20;
    size_t total = 0;
    while (total < (2048u << 20)) {
        char *p = malloc(step);
        if (!p) {
            printf("malloc failed after %zu MiB\n", total >> 20);
            fflush(stdout);
            sleep(hold);
            return 42;
        }
        memset(p, 1, step);
        total += step;
        printf("touched %zu MiB\n", total >> 20);
        fflush(stdout);
    }
    puts("done: 2048 MiB");
    fflush(stdout);
    sleep(hold);
    return 0;
}
