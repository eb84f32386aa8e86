/* Allocates and touches 2 GiB in 64 MiB steps; says how far it got. Exits 42
 * when an allocation fails, 0 ("done") when it got all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    const size_t step = 64u << 20;
    size_t total = 0;
    while (total < (2048u << 20)) {
        char *p = malloc(step);
        if (!p) {
            printf("malloc failed after %zu MiB\n", total >> 20);
            return 42;
        }
        memset(p, 1, step);
        total += step;
        printf("touched %zu MiB\n", total >> 20);
        fflush(stdout);
    }
    puts("done: 2048 MiB");
    return 0;
}
