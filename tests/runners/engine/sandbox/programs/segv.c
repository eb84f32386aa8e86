/* Dereferences NULL: must be reported as signal 11, not as an exit code. */
#include <stdio.h>
int main(void) {
    puts("about to crash");
    fflush(stdout);
    volatile int *p = 0;
    *p = 1;
    return 0;
}
