/*
 * main.c - uses an installed scankit: an exclusive scan of 8 uint32.
 * Exit 0 when the result is right, 1 when not, 77 when there is no
 * OpenCL device (nothing to run on).
 */
#include <scankit.h>

#include <stdio.h>

#define N 8

static int scan_and_check(sk_context *ctx)
{
    const uint32_t in[N] = {3, 1, 4, 1, 5, 9, 2, 6};
    const uint32_t want[N] = {0, 3, 4, 8, 9, 14, 23, 25};
    uint32_t out[N] = {0};
    sk_status st = sk_scan_exclusive_host(ctx, SK_UINT32, SK_OP_ADD, in, out, N);
    if (st != SK_OK) {
        fprintf(stderr, "consumer: scan failed: %s (%s)\n", sk_status_str(st),
                sk_context_error_detail(ctx));
        return 1;
    }
    for (int i = 0; i < N; i++) {
        if (out[i] != want[i]) {
            fprintf(stderr, "consumer: out[%d] = %u, want %u\n", i, out[i], want[i]);
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    if (sk_version_number() != SK_VERSION_NUMBER) {
        fprintf(stderr, "consumer: header %d, library %u\n", SK_VERSION_NUMBER,
                sk_version_number());
        return 1;
    }
    sk_context *ctx = NULL;
    char why[512];
    sk_status st = sk_context_create(&ctx, NULL, why, sizeof why);
    if (st == SK_E_NO_DEVICE) {
        fprintf(stderr, "consumer: no OpenCL device: %s\n", why);
        return 77;
    }
    if (st != SK_OK) {
        fprintf(stderr, "consumer: no context: %s: %s\n", sk_status_str(st), why);
        return 1;
    }
    int rc = scan_and_check(ctx);
    sk_context_free(ctx);
    if (rc == 0) printf("consumer: scankit %s, exclusive scan of %d uint32 ok\n",
                        sk_version_string(), N);
    return rc;
}
