/*
 * test_cache_dir.c - where the on-disk program cache lives: the default
 * directory under $XDG_CACHE_HOME (else $HOME/.cache), skipped where the
 * driver caches programs itself unless asked for; a relative
 * XDG_CACHE_HOME ignored; nothing created for a HOME that does not exist
 * or above SCANKIT_CACHE_DIR's parent; nothing written for "off" or "".
 * (test_cache.c: what the cache keeps, and damaged entries.)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skt_cli.h"
#include "skt_common.h"

TestSuite(cache_dir, .init = skt_setup, .timeout = 300);

/* A checked uint32 add scan, as test_cache.c's program families run it. */
static void run_scan(sk_context *c) { skt_check_small_scan(c, 3001, SK_OP_ADD); }

/* These tests move HOME and XDG_CACHE_HOME, which PoCL's own kernel cache
 * follows too (creating its directories as it likes): pin that one where it
 * was, so that what appears or not is scankit's doing. */
static void pin_pocl_cache(void)
{
    if (getenv("POCL_CACHE_DIR")) return;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *dir = NULL;
    if (xdg && xdg[0] == '/') cr_assert_neq(asprintf(&dir, "%s/pocl/kcache", xdg), -1);
    else if (home && home[0] == '/')
        cr_assert_neq(asprintf(&dir, "%s/.cache/pocl/kcache", home), -1);
    else return;
    setenv("POCL_CACHE_DIR", dir, 1);
    free(dir);
}

Test(cache_dir, default_directory_should_be_under_xdg_cache_home)
{
    pin_pocl_cache();
    char *xdg = skt_cli_make_tmpdir("skt-cache");
    unsetenv("SCANKIT_CACHE_DIR");
    setenv("XDG_CACHE_HOME", xdg, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    run_scan(c);
    sk_context_free(c);
    char *sub = skt_cli_path_in(xdg, "scankit");
    cr_assert_gt(skt_cli_entries_in(sub), 0, "nothing cached in $XDG_CACHE_HOME/scankit");
    struct stat st;
    cr_assert_eq(stat(sub, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700, "$XDG_CACHE_HOME/scankit has mode %o, not 0700",
                 (unsigned)(st.st_mode & 0777));
    free(sub);
    skt_cli_remove_tree(xdg);
    free(xdg);
}

/* Automatic (SK_PARAM_DISK_CACHE 0): the default directory is used unless
 * the driver caches programs itself (PoCL); a directory SCANKIT_CACHE_DIR
 * names is used on every device. */
Test(cache_dir, the_default_directory_should_be_skipped_where_the_driver_caches_programs)
{
    pin_pocl_cache();
    char *xdg = skt_cli_make_tmpdir("skt-cache"), *named = skt_cli_make_tmpdir("skt-cache");
    unsetenv("SCANKIT_CACHE_DIR");
    setenv("XDG_CACHE_HOME", xdg, 1);
    sk_context *c = NULL;
    sk_status st = sk_context_create(&c, NULL, NULL, 0);
    if (st == SK_E_NO_DEVICE) cr_skip_test("no OpenCL device");
    cr_assert_eq(st, SK_OK);
    sk_device_desc d = SK_DEVICE_DESC_INIT;
    cr_assert_eq(sk_context_device(c, &d), SK_OK);
    long automatic = -1;
    cr_assert_eq(sk_context_get_param(c, SK_PARAM_DISK_CACHE, &automatic), SK_OK);
    cr_assert_eq(automatic, 0, "SK_PARAM_DISK_CACHE starts at %ld, not 0", automatic);
    run_scan(c);
    sk_context_free(c);
    char *sub = skt_cli_path_in(xdg, "scankit");
    int pocl = strstr(d.platform_name, "Portable Computing Language") != NULL;
    if (pocl)
        cr_assert_eq(skt_cli_entries_in(sub), 0, "scankit cached programs on %s, whose driver "
                     "caches them itself", d.platform_name);
    else
        cr_assert_gt(skt_cli_entries_in(sub), 0, "nothing cached in $XDG_CACHE_HOME/scankit");
    /* named: on, whatever the device */
    setenv("SCANKIT_CACHE_DIR", named, 1);
    cr_assert_eq(sk_context_create(&c, NULL, NULL, 0), SK_OK);
    run_scan(c);
    sk_context_free(c);
    cr_assert_gt(skt_cli_entries_in(named), 0, "nothing cached in the SCANKIT_CACHE_DIR directory");
    unsetenv("SCANKIT_CACHE_DIR");
    free(sub);
    skt_cli_remove_tree(xdg);
    skt_cli_remove_tree(named);
    free(xdg);
    free(named);
}

Test(cache_dir, a_relative_xdg_cache_home_is_ignored_for_home)
{
    pin_pocl_cache();
    char *home = skt_cli_make_tmpdir("skt-cache");
    char *cwd = skt_cli_make_tmpdir("skt-cache");
    cr_assert_eq(chdir(cwd), 0);
    unsetenv("SCANKIT_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "relative-cache", 1);
    setenv("HOME", home, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    run_scan(c);
    sk_context_free(c);
    cr_assert_eq(skt_cli_entries_in(cwd), 0, "a relative XDG_CACHE_HOME was used");
    char *sub = skt_cli_path_in(home, ".cache/scankit");
    cr_assert_gt(skt_cli_entries_in(sub), 0, "nothing cached in $HOME/.cache/scankit");
    free(sub);
    skt_cli_remove_tree(home);
    skt_cli_remove_tree(cwd);
    free(home);
    free(cwd);
}

Test(cache_dir, a_home_that_does_not_exist_is_never_created)
{
    pin_pocl_cache();
    char *top = skt_cli_make_tmpdir("skt-cache");
    char *home = skt_cli_path_in(top, "no/such/home");
    unsetenv("SCANKIT_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", home, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    run_scan(c);                   /* no cache, right answers */
    sk_build_stats s = SK_BUILD_STATS_INIT;
    cr_assert_eq(sk_context_build_stats(c, &s), SK_OK);
    sk_context_free(c);
    cr_assert_geq(s.compiled, 1);
    /* scankit's part: OpenCL implementations may keep caches of their own
     * under HOME (NVIDIA's ~/.nv; some PoCL builds ~/.cache), which are
     * not scankit's to prevent */
    char *cache = skt_cli_path_in(home, ".cache/scankit");
    cr_assert_not(skt_cli_file_exists(cache), "%s was created for HOME=%s", cache, home);
    free(cache);
    free(home);
    skt_cli_remove_tree(top);
    free(top);
}

Test(cache_dir, scankit_cache_dir_gets_at_most_its_parent_created)
{
    char *top = skt_cli_make_tmpdir("skt-cache");
    char *two = skt_cli_path_in(top, "a/cache");     /* parent missing: created */
    char *three = skt_cli_path_in(top, "x/y/cache"); /* grandparent missing: no cache */
    setenv("SCANKIT_CACHE_DIR", two, 1);
    sk_context *c = skt_ctx_new_disk_cache();
    run_scan(c);
    sk_context_free(c);
    cr_assert_gt(skt_cli_entries_in(two), 0, "nothing cached in %s", two);

    setenv("SCANKIT_CACHE_DIR", three, 1);
    c = skt_ctx_new_disk_cache();
    run_scan(c);
    sk_context_free(c);
    char *x = skt_cli_path_in(top, "x");
    cr_assert_not(skt_cli_file_exists(x), "%s was created", x);
    skt_free_all(x, two, three, NULL);
    skt_cli_remove_tree(top);
    free(top);
}

Test(cache_dir, scankit_cache_dir_off_or_empty_writes_nothing)
{
    pin_pocl_cache();
    const char *values[] = {"off", ""};
    for (int i = 0; i < 2; i++) {
        char *xdg = skt_cli_make_tmpdir("skt-cache");
        setenv("XDG_CACHE_HOME", xdg, 1);
        setenv("SCANKIT_CACHE_DIR", values[i], 1);
        sk_context *c = skt_ctx_new_disk_cache();
        run_scan(c);
        sk_context_free(c);
        char *sub = skt_cli_path_in(xdg, "scankit");
        cr_assert_not(skt_cli_file_exists(sub), "SCANKIT_CACHE_DIR='%s' still cached in %s",
                      values[i], sub);
        free(sub);
        skt_cli_remove_tree(xdg);
        free(xdg);
    }
}
