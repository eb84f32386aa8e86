/* A fork bomb: every process forks for ever. Prints how many forks the first
 * process managed before the first failure, then keeps forking like the rest. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int first = 1, made = 0;
    for (;;) {
        pid_t pid = fork();
        if (pid == 0) { first = 0; continue; }
        if (pid > 0) { made++; continue; }
        if (first) {
            printf("fork failed after %d: %s\n", made, strerror(errno));
            fflush(stdout);
            first = 0;
        }
        usleep(1000);
    }
}
