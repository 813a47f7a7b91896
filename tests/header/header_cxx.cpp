// header_cxx.cpp - scankit.h compiles as C++ (-std=c++11 -pedantic-errors
// -Werror, tests/CMakeLists.txt) and its declarations link with C linkage.
// Exit 0 when the header's version is the library's and the sized structs'
// initialisers work. The experimental section is compiled too.
#define SCANKIT_EXPERIMENTAL 1
#include <scankit.h>

#include <cstdio>
#include <cstring>

int main()
{
    char want[32];
    std::snprintf(want, sizeof want, "%d.%d.%d", SK_VERSION_MAJOR, SK_VERSION_MINOR,
                  SK_VERSION_PATCH);
    if (sk_version_number() != SK_VERSION_NUMBER ||
        std::strcmp(sk_version_string(), want) != 0) {
        std::fprintf(stderr, "header_cxx: header %s, library %s\n", want, sk_version_string());
        return 1;
    }
    sk_status st = SK_E_SIZE;
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    sk_build_stats b = SK_BUILD_STATS_INIT;
    if (d.struct_size != sizeof d || b.struct_size != sizeof b) return 1;
    return std::strcmp(sk_status_name(st), "E_SIZE") == 0 ? 0 : 1;
}
