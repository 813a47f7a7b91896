/* A tour of the scankit API: open a context, scan on the device, reduce,
 * and scan with a custom (non-commutative) monoid. */
#include <scankit.h>
#include <stdio.h>

int main(void)
{
    sk_context *ctx = NULL;
    char why[512];
    sk_status st = sk_context_create(&ctx, NULL, why, sizeof why); /* $SCANKIT_DEVICE, else 1st GPU */
    if (st != SK_OK) {
        fprintf(stderr, "no device: %s: %s\n", sk_status_str(st), why);
        return 1;
    }

    /* Host arrays: copied in, scanned, copied out. */
    unsigned in[8] = {3, 1, 4, 1, 5, 9, 2, 6}, out[8];
    st = sk_scan_exclusive_host(ctx, SK_UINT32, SK_OP_ADD, in, out, 8);
    if (st != SK_OK) goto fail;
    printf("exclusive sum:");
    for (int i = 0; i < 8; i++) printf(" %u", out[i]);   /* 0 3 4 8 9 14 23 25 */
    printf("\n");

    /* Device buffers: the data stays on the device, calls are asynchronous. */
    cl_int rc;
    cl_mem buf = clCreateBuffer(sk_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof in, in, &rc);
    if (rc != CL_SUCCESS) {
        st = SK_E_CL;
        goto fail;
    }
    st = sk_scan_inclusive(ctx, SK_UINT32, SK_OP_MAX, buf, buf, 8);   /* in place */
    unsigned largest = 0;
    if (st == SK_OK) st = sk_reduce(ctx, SK_UINT32, SK_OP_MAX, buf, &largest, 8);
    clReleaseMemObject(buf);
    if (st != SK_OK) goto fail;
    printf("max: %u\n", largest);                                          /* 9 */

    /* A custom monoid: composition of affine maps x -> m*x + c, which is
     * associative but not commutative. */
    sk_monoid affine = {
        .type = "float2", .size = 2 * sizeof(float),
        .identity = "(float2)(1.0f, 0.0f)",
        .combine = "(float2)(a.x * b.x, a.y * b.x + b.y)",
    };
    float maps[6] = {2, 1, 3, 0, 1, 5};   /* (2,1) then (3,0) then (1,5) */
    float composed[6];
    st = sk_scan_inclusive_monoid_host(ctx, &affine, maps, composed, 3);
    if (st != SK_OK) goto fail;
    printf("x -> %gx + %g\n", composed[4], composed[5]);                    /* x -> 6x + 8 */

    sk_context_free(ctx);
    return 0;
fail:
    fprintf(stderr, "scankit: %s: %s\n", sk_status_str(st), sk_context_error_detail(ctx));
    sk_context_free(ctx);
    return 1;
}
