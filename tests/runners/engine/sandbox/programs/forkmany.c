/* Forks children that pause for ever until fork fails, says how many it made
 * and exits 0, leaving them all behind. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int made = 0;
    for (;;) {
        pid_t pid = fork();
        if (pid == 0) { for (;;) pause(); }
        if (pid < 0) break;
        made++;
    }
    printf("made %d children, then: %s\n", made, strerror(errno));
    return 0;
}
