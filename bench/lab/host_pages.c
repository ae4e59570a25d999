// Lab: what touching fresh host memory costs on this machine (first-touch page faults), against
// touching memory the process already has. Build and run: gcc -O2 -o /tmp/host_pages bench/lab/host_pages.c && /tmp/host_pages
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void) {
    const size_t sizes[] = {1 << 20, 4 << 20, 16 << 20, 64 << 20};
    for (int i = 0; i < 4; ++i) {
        size_t n = sizes[i];
        for (int round = 0; round < 3; ++round) {
            double t0 = now_ms();
            char* p = malloc(n);
            memset(p, round + 1, n);  // first touch
            double t1 = now_ms();
            memset(p, round + 2, n);  // pages already mapped
            double t2 = now_ms();
            volatile char sink = p[n / 2];
            (void)sink;
            free(p);
            printf("%3zu MB round %d: fresh %.2f ms (%.2f ms/MB), touched again %.2f ms\n", n >> 20, round, t1 - t0, (t1 - t0) / (n >> 20), t2 - t1);
        }
    }
    return 0;
}
