/* Exits with code 3: the code must come through unchanged. */
#include <stdio.h>
int main(void) {
    puts("exiting with 3");
    return 3;
}
