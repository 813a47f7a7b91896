/*
 * header_c99.c - scankit.h compiles as strict C99 (-std=c99
 * -pedantic-errors -Werror, tests/CMakeLists.txt) and links: the version
 * the header names is the library's, and the initialisers of the sized
 * structs compile warning-free. The experimental section is compiled too.
 * Exit 0 when they agree.
 */
#define SCANKIT_EXPERIMENTAL 1
#include <scankit.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", SK_VERSION_MAJOR, SK_VERSION_MINOR,
             SK_VERSION_PATCH);
    if (sk_version_number() != SK_VERSION_NUMBER || strcmp(sk_version_string(), want) != 0) {
        fprintf(stderr, "header_c99: header %s, library %s\n", want, sk_version_string());
        return 1;
    }
    if (strcmp(sk_status_name(SK_E_SIZE), "E_SIZE") != 0) return 1;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_build_stats b = SK_BUILD_STATS_INIT;
    if (d.struct_size != sizeof d || b.struct_size != sizeof b) return 1;
    return SK_PARAM_WG_SIZE == (sk_param)2 ? 0 : 1;
}
