/*
 * header_c99.c - scankit.h compiles as strict C99 (-std=c99
 * -pedantic-errors -Werror, tests/CMakeLists.txt) and links: the version
 * the header names is the library's. Exit 0 when they agree.
 */
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
    return 0;
}
