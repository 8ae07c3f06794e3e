// Raw UDP loopback baselines for the UDP link's benchmarks, with the addresses, buffer sizes and DF setting
// of softrnic's UdpLink:
//   udp_raw rate SIZE SECONDS PORT    how many datagrams one thread receives per second with recvmmsg while
//                                     another sends with sendmmsg     -> "datagrams_per_second N"
//   udp_raw pingpong SIZE ITERS PORT  round trips of one datagram between two busy-polling threads
//                                     -> "rtt_median_usec X"
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
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0) { perror("bind"); exit(2); }
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

static int iters;

// Spins on a non-blocking receive; a lost datagram must not hang the benchmark, so give up after 10 s.
static ssize_t spin_recv(int fd, char *buf, struct sockaddr_in *from, socklen_t *len) {
    double deadline = now() + 10;
    for (long spins = 0;; spins++) {
        ssize_t r = recvfrom(fd, buf, size, MSG_DONTWAIT, (struct sockaddr *)from, len);
        if (r >= 0) return r;
        if ((spins & 1023) == 0 && now() > deadline) {
            fprintf(stderr, "udp_raw: no datagram for 10 s (lost on loopback?)\n");
            exit(3);
        }
    }
}

// Echoes every datagram back to its sender, busy-polling as softrnic's link does.
static void *ponger(void *arg) {
    int fd = *(int *)arg;
    char *buf = malloc(size);
    struct sockaddr_in from;
    for (int i = 0; i < iters; i++) {
        socklen_t len = sizeof from;
        ssize_t r = spin_recv(fd, buf, &from, &len);
        if (sendto(fd, buf, r, 0, (struct sockaddr *)&from, len) < 0) { perror("sendto"); exit(3); }
    }
    close(fd);
    return NULL;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int pingpong(int port) {
    int echo = bound("127.0.0.2", port + 1); // bound before the first ping, which would otherwise be lost
    pthread_t t;
    pthread_create(&t, NULL, ponger, &echo);
    int fd = bound("127.0.0.1", port);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port + 1)};
    inet_pton(AF_INET, "127.0.0.2", &to.sin_addr);
    char *buf = calloc(1, size);
    double *rtt = malloc(sizeof(double) * iters);
    for (int i = 0; i < iters; i++) {
        double t0 = now();
        if (sendto(fd, buf, size, 0, (struct sockaddr *)&to, sizeof to) < 0) { perror("sendto"); exit(3); }
        struct sockaddr_in from;
        socklen_t len = sizeof from;
        spin_recv(fd, buf, &from, &len);
        rtt[i] = (now() - t0) * 1e6;
    }
    pthread_join(t, NULL);
    qsort(rtt, iters, sizeof(double), cmp);
    printf("rtt_median_usec %.2f\n", rtt[iters / 2]);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: udp_raw rate SIZE SECONDS PORT | udp_raw pingpong SIZE ITERS PORT\n"); return 2; }
    size = atoi(argv[2]);
    int port = atoi(argv[4]);
    if (size < 1 || size > 65000 || port < 1 || port > 65534 || atof(argv[3]) <= 0) {
        fprintf(stderr, "udp_raw: SIZE must be 1..65000, PORT 1..65534, and SECONDS or ITERS positive\n");
        return 2;
    }
    if (strcmp(argv[1], "pingpong") == 0) {
        iters = atoi(argv[3]);
        return pingpong(port);
    }
    double seconds = atof(argv[3]);
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
