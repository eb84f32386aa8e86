/* Sleeps forever: only the timeout ends it. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    puts("sleeping");
    fflush(stdout);
    for (;;) pause();
}
