/*
 * test_cli_signals_commit.c - programs ended by a signal while they put
 * their outputs into place leave only what README says: strace delivers
 * the signal at the first fsync of a --sync run (everything written,
 * nothing in place) and at the link or rename that puts the first output
 * into place. A caught
 * signal lets the output in hand finish; SIGKILL leaves it whole under a
 * hidden name. (Reading, open outputs and writing: test_cli_signals.c; the
 * harness: tests/skt_cli_signals.c.)
 *
 * Each runs on the test directory's filesystem as it is (O_TMPFILE or not)
 * and with SCANKIT_NO_TMPFILE=1 (named temporary files). The tests are
 * skipped, with the reason, where strace is missing or cannot trace.
 */
#define _GNU_SOURCE

#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "skt_cli.h"
#include "skt_cli_signals.h"

TestSuite(cli_signals, .init = skt_cli_setup, .fini = skt_cli_dirs_close, .timeout = 120);

/* ------------------------------------------------------------------------ */
/* Committing                                                                */
/* ------------------------------------------------------------------------ */

/* The programs of skt_cli_signals.c with --sync: their outputs reach the
 * disk (fsync) before the commit. */
static const skt_sig_command radixsort_sync = {
    "radixsort",
    {"k.bin", "--values", "v.bin", "-o", "out.bin", "--values-out", "vals.bin", "--sync", NULL},
    {"out.bin", "vals.bin"}};
static const skt_sig_command compact_sync = {"compact",
                                             {"k.bin", "--if", "x % 2 == 0", "--values", "v.bin",
                                              "-o", "out.bin", "--values-out", "vals.bin",
                                              "--sync", NULL},
                                             {"out.bin", "vals.bin"}};
static const skt_sig_command scan_sync = {
    "scan", {"k.bin", "-o", "out.bin", "--sync", NULL}, {"out.bin", NULL}};

Test(cli_signals, a_signal_just_before_the_commit_leaves_only_what_sigkill_leaves_of_named_files)
{
    skt_sig_require_strace();
    skt_cli_require_any_device();
    skt_sig_write_inputs();
    static const skt_sig_command *const programs[] = {&radixsort_sync, &compact_sync, &scan_sync};
    skt_sig_reference warm[] = {skt_sig_complete_run(&radixsort_sync),
                                skt_sig_complete_run(&compact_sync),
                                skt_sig_complete_run(&scan_sync)};
    static const int signals[] = {SIGPIPE, SIGINT, SIGTERM, SIGKILL};
    for (skt_sig_temp_kind k = SKT_SIG_TEMP_AS_IS; k <= SKT_SIG_TEMP_NAMED; k++)
        for (size_t s = 0; s < SKT_SIG_COUNT(signals); s++) {
            const skt_sig_command *c = programs[(s + k) % SKT_SIG_COUNT(programs)];
            skt_sig_injection at_first_sync = {"fsync", signals[s], 1};
            skt_sig_leftovers left =
                skt_sig_killed_leftovers(c, signals[s], skt_sig_named_temps(k));
            skt_sig_signal_at(c, k, &at_first_sync, "with every output written", &left);
        }
    for (size_t i = 0; i < SKT_SIG_COUNT(warm); i++)
        skt_sig_reference_free(&warm[i]);
}

static void write_old_outputs(void)
{
    skt_cli_write_file("out.bin", "old!", 4);
    skt_cli_write_file("vals.bin", "old!", 4);
}

/* radixsort with out.bin and vals.bin there, a signal at one of the first
 * output's system calls; `placed`: out.bin is new afterwards, `temps`: one
 * temporary file of out.bin (and of vals.bin, `temps` 2) is left holding
 * the new output. vals.bin is old in every case. */
static void signal_in_the_commit(skt_sig_temp_kind kind, skt_sig_injection in, int placed,
                                 int temps, const skt_sig_reference *ref)
{
    write_old_outputs();
    char *before = skt_cli_listing(".");
    skt_sig_launch l = {&SKT_SIG_RADIXSORT, kind, -1, &in, 0};
    int status = skt_sig_wait_for(skt_sig_start(&l));
    char what[640], temp0[256];
    snprintf(what, sizeof what, "%s, SIG%s at %s call %u, %s", skt_sig_describe(&SKT_SIG_RADIXSORT),
             skt_sig_signal_label(in.signal), in.syscalls, in.when, skt_sig_kind_name(kind));
    skt_sig_expect_ended_by(status, in.signal, what);
    skt_sig_leftovers left = {{NULL, NULL},
                              {temps ? "out.bin" : NULL, temps == 2 ? "vals.bin" : NULL}};
    skt_sig_expect_directory(before, &left, what, temp0, sizeof temp0);
    if (placed)
        skt_sig_expect_content("out.bin", ref->data[0], ref->len[0], what);
    else
        skt_sig_expect_content("out.bin", "old!", 4, what);
    skt_sig_expect_content("vals.bin", "old!", 4, what);
    if (temps)
        skt_sig_expect_content(temp0, ref->data[0], ref->len[0], what);
    skt_sig_remove_temps();
    free(before);
}

/* The same where the outputs do not exist yet: an unnamed file is linked
 * to its name directly; `placed`: out.bin is there afterwards. */
static void signal_at_a_first_link(int sig, int placed, const skt_sig_reference *ref)
{
    unlink("out.bin");
    unlink("vals.bin");
    char *before = skt_cli_listing(".");
    skt_sig_injection in = {"linkat", sig, 1};
    skt_sig_launch l = {&SKT_SIG_RADIXSORT, SKT_SIG_TEMP_AS_IS, -1, &in, 0};
    int status = skt_sig_wait_for(skt_sig_start(&l));
    char what[640];
    snprintf(what, sizeof what, "%s, SIG%s at the link of a new output",
             skt_sig_describe(&SKT_SIG_RADIXSORT), skt_sig_signal_label(sig));
    skt_sig_expect_ended_by(status, sig, what);
    skt_sig_leftovers left = {{placed ? "out.bin" : NULL, NULL}, {NULL, NULL}};
    skt_sig_expect_directory(before, &left, what, NULL, 0);
    if (placed)
        skt_sig_expect_content("out.bin", ref->data[0], ref->len[0], what);
    free(before);
}

/* Between the link of an unnamed file under a hidden name and its rename
 * over the destination (and during a named file's rename), a caught signal
 * waits until the output is in place, then ends the program: the first
 * output is new, the second old, no temporary file. SIGKILL there leaves the
 * hidden name, holding the complete new output (README says so); on the
 * named path it leaves both named files. */
Test(cli_signals, a_signal_in_the_commit_lets_the_output_in_hand_finish_and_sigkill_leaves_it_whole)
{
    skt_sig_require_strace();
    skt_cli_require_any_device();
    skt_sig_write_inputs();
    skt_sig_reference ref = skt_sig_complete_run(&SKT_SIG_RADIXSORT);
    static const char renames[] = "?rename,?renameat,?renameat2";
    signal_in_the_commit(SKT_SIG_TEMP_NAMED, (skt_sig_injection){renames, SIGPIPE, 1}, 1, 0, &ref);
    signal_in_the_commit(SKT_SIG_TEMP_NAMED, (skt_sig_injection){renames, SIGKILL, 1}, 0, 2, &ref);
    if (!skt_sig_unnamed_temps_here()) {
        cr_log_warn("no O_TMPFILE in %s: the unnamed files' commit is not checked", skt_cli_work);
        skt_sig_reference_free(&ref);
        return;
    }
    /* Link 1 to out.bin fails (it exists), link 2 makes the hidden name. */
    signal_in_the_commit(SKT_SIG_TEMP_AS_IS, (skt_sig_injection){"linkat", SIGINT, 1}, 1, 0, &ref);
    signal_in_the_commit(SKT_SIG_TEMP_AS_IS, (skt_sig_injection){"linkat", SIGKILL, 1}, 0, 0, &ref);
    signal_in_the_commit(SKT_SIG_TEMP_AS_IS, (skt_sig_injection){"linkat", SIGTERM, 2}, 1, 0, &ref);
    signal_in_the_commit(SKT_SIG_TEMP_AS_IS, (skt_sig_injection){renames, SIGPIPE, 1}, 1, 0, &ref);
    signal_in_the_commit(SKT_SIG_TEMP_AS_IS, (skt_sig_injection){renames, SIGKILL, 1}, 0, 1, &ref);
    signal_at_a_first_link(SIGHUP, 1, &ref);
    signal_at_a_first_link(SIGKILL, 0, &ref);
    skt_sig_reference_free(&ref);
}
