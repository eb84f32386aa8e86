/* Well-behaved: a line on each stream, exit 0. */
#include <stdio.h>
int main(void) {
    printf("hello from stdout\n");
    fprintf(stderr, "hello from stderr\n");
    return 0;
}
