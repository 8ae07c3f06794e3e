// Raw UDP loopback baseline for the UDP link's benchmark: how many datagrams of a given size one receiving
// thread takes per second with recvmmsg while one sending thread pushes them with sendmmsg. Same addresses,
// buffer sizes and DF setting as softrnic's UdpLink.
//   udp_raw SIZE SECONDS PORT   ->   prints "datagrams_per_second N"
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 32
#define BUFFER (4 << 20)

static atomic_int stop;
static int size;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int bound(const char *ip, int port) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int v = BUFFER, pmtu = IP_PMTUDISC_DO;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof v);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof v);
    setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof pmtu);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) { perror("bind"); exit(2); }
    return fd;
}

static void *sender(void *arg) {
    int port = *(int *)arg;
    int fd = bound("127.0.0.1", port);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.2", &to.sin_addr);
    char *buf = calloc(1, size);
    struct iovec iov[BATCH];
    struct mmsghdr m[BATCH];
    memset(m, 0, sizeof m);
    for (int i = 0; i < BATCH; i++) {
        iov[i].iov_base = buf;
        iov[i].iov_len = size;
        m[i].msg_hdr.msg_iov = &iov[i];
        m[i].msg_hdr.msg_iovlen = 1;
        m[i].msg_hdr.msg_name = &to;
        m[i].msg_hdr.msg_namelen = sizeof to;
    }
    while (!atomic_load(&stop)) sendmmsg(fd, m, BATCH, 0);
    close(fd);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: udp_raw SIZE SECONDS PORT\n"); return 2; }
    size = atoi(argv[1]);
    double seconds = atof(argv[2]);
    int port = atoi(argv[3]);
    int fd = bound("127.0.0.2", port);
    struct timeval tv = {.tv_sec = 0, .tv_usec = 100000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    pthread_t t;
    pthread_create(&t, NULL, sender, &port);
    char *bufs = malloc((size_t)BATCH * size);
    struct iovec iov[BATCH];
    struct mmsghdr m[BATCH];
    memset(m, 0, sizeof m);
    for (int i = 0; i < BATCH; i++) {
        iov[i].iov_base = bufs + (size_t)i * size;
        iov[i].iov_len = size;
        m[i].msg_hdr.msg_iov = &iov[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    long got = 0;
    double warm = now() + seconds / 4, t0 = 0, end = warm + seconds;
    for (;;) {
        double n = now();
        if (t0 == 0 && n >= warm) { t0 = n; got = 0; }
        if (n >= end) break;
        int r = recvmmsg(fd, m, BATCH, 0, NULL);
        if (r > 0) got += r;
    }
    double elapsed = now() - t0;
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
    printf("datagrams_per_second %.0f\n", got / elapsed);
    return 0;
}
