/* Tries to reach the network: TCP to 127.0.0.1:PORT (argv[1], where the test
 * listens on the host's loopback) and to a public address (argv[2]).
 * Safety first: if any interface other than loopback is visible, the sandbox
 * has a network and nothing is attempted (exit 99) -- no packet ever leaves.
 * Prints one line per attempt; exits 0 when every attempt failed, 1 otherwise. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int attempt(const char *what, const char *ip, int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) { printf("%s: socket: %s\n", what, strerror(errno)); return 0; }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    inet_pton(AF_INET, ip, &a.sin_addr);
    int r = connect(s, (struct sockaddr *)&a, sizeof a);
    if (r == 0) { printf("%s: CONNECTED to %s:%d\n", what, ip, port); close(s); return 1; }
    printf("%s: %s\n", what, strerror(errno));
    close(s);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    struct ifaddrs *ifs, *i;
    if (getifaddrs(&ifs) == 0) {
        for (i = ifs; i; i = i->ifa_next) {
            if (!(i->ifa_flags & IFF_LOOPBACK)) {
                printf("interface %s is visible: refusing to try\n", i->ifa_name);
                return 99;
            }
        }
        freeifaddrs(ifs);
    }
    int connected = attempt("loopback", "127.0.0.1", atoi(argv[1]));
    connected |= attempt("public", argv[2], 80);
    return connected;
}
