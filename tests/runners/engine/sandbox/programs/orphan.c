/* Leaves a grandchild behind: fork, the child starts a new session and forks
 * again, the grandchild sleeps for ever (keeping stdout open), the child and
 * the parent exit at once. */
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0) {
            for (;;) pause();
        }
        _exit(0);
    }
    waitpid(child, NULL, 0);
    puts("parent exits, grandchild lives on");
    return 0;
}
