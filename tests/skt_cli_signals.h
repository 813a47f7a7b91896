/*
 * skt_cli_signals.h - the harness of the tests of programs ended by a
 * signal (tests/test_cli_signals*.c): the commands they run, starting a
 * program with its stdout where the test wants it and, under strace, a
 * signal delivered at a given system call, and the checks of how it ended
 * and of what it left in the work directory (tests/skt_cli.h).
 */
#ifndef SKT_CLI_SIGNALS_H
#define SKT_CLI_SIGNALS_H

#include <stddef.h>
#include <sys/types.h>

#define SKT_SIG_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define SKT_SIG_MAX_ARGS 12
#define SKT_SIG_N_KEYS 8192 /* 32 KiB of keys: more than the 4 KiB pipe holds */

/* ---- commands ------------------------------------------------------------ */

/* A program, its arguments, and the outputs it writes to files, in the
 * order it puts them into place. */
typedef struct skt_sig_command {
    const char *tool;
    const char *args[SKT_SIG_MAX_ARGS + 1];
    const char *outputs[2];
} skt_sig_command;

/* radixsort and compact of k.bin with the values v.bin into out.bin and
 * vals.bin; scan of k.bin into out.bin. */
extern const skt_sig_command SKT_SIG_RADIXSORT, SKT_SIG_COMPACT, SKT_SIG_SCAN;
/* Writing to stdout while another output is pending (or finished). */
extern const skt_sig_command SKT_SIG_RADIXSORT_KEYS_TO_STDOUT,
    SKT_SIG_RADIXSORT_VALUES_TO_STDOUT, SKT_SIG_COMPACT_TO_STDOUT, SKT_SIG_SCAN_TO_STDOUT;

/* The number of outputs c writes to files. */
size_t skt_sig_file_outputs(const skt_sig_command *c);
/* `c` reading its first operand (k.bin) from `input`. */
skt_sig_command skt_sig_reading_from(const skt_sig_command *c, const char *input);
/* "tool arg arg ...", as skt_cli_describe. */
const char *skt_sig_describe(const skt_sig_command *c);
/* k.bin and v.bin: SKT_SIG_N_KEYS uint32 keys and values; c.bin: 3 float32
 * coefficients. */
void skt_sig_write_inputs(void);

/* ---- starting a program -------------------------------------------------- */

typedef enum skt_sig_temp_kind {
    SKT_SIG_TEMP_AS_IS, /* what the filesystem offers                        */
    SKT_SIG_TEMP_NAMED  /* SCANKIT_NO_TMPFILE=1: named, as without O_TMPFILE */
} skt_sig_temp_kind;

const char *skt_sig_kind_name(skt_sig_temp_kind k);

/* A signal strace delivers when the program enters a system call. */
typedef struct skt_sig_injection {
    const char *syscalls; /* strace's syscall set, e.g. "fsync" */
    int signal;
    unsigned when;        /* at the when-th call */
} skt_sig_injection;

typedef struct skt_sig_launch {
    const skt_sig_command *cmd;
    skt_sig_temp_kind kind;
    int stdout_fd;                   /* -1: a file beside the work directory      */
    const skt_sig_injection *inject; /* NULL: not traced                          */
    int keep_sigpipe_ignored;        /* the test ignores SIGPIPE: so does the child */
} skt_sig_launch;

/* Starts l->cmd (under strace when l->inject, which needs
 * skt_sig_require_strace first) with the CLI tests' kernel cache. */
pid_t skt_sig_start(const skt_sig_launch *l);
/* waitpid's status of pid. */
int skt_sig_wait_for(pid_t pid);
/* What the program (or strace) wrote on stderr; free() it. */
char *skt_sig_child_stderr(void);
/* Fails the test when `pid` has ended (it should be held in a phase). */
void skt_sig_expect_still_running(pid_t pid, const char *what);
void skt_sig_pause_briefly(void);

/* ---- checks -------------------------------------------------------------- */

/* "PIPE (13)": a static buffer that the next call overwrites. */
const char *skt_sig_signal_label(int sig);
/* Ended by `sig`, with nothing on stderr. */
void skt_sig_expect_ended_by(int status, int sig, const char *what);

/* What a run may leave: the outputs it put into place (added to the
 * listing where new) and, for each output in `temps`, one temporary file. */
typedef struct skt_sig_leftovers {
    const char *placed[2];
    const char *temps[2];
} skt_sig_leftovers;

/* The directory lists `before`, plus what `left` allows, nothing else. The
 * first temporary file's name goes to temp0 (when cap > 0). */
void skt_sig_expect_directory(const char *before, const skt_sig_leftovers *left,
                              const char *what, char *temp0, size_t cap);
/* Removes what a run left of temporary files, so that the next run starts
 * clean. */
void skt_sig_remove_temps(void);
/* What SIGKILL leaves of the outputs of `c` that were open: nothing where
 * the temporary files are unnamed, each one's named file where not. */
skt_sig_leftovers skt_sig_killed_leftovers(const skt_sig_command *c, int sig, int named);
/* 1 when the work directory's filesystem makes unnamed temporary files (and
 * /proc can name them): the programs then do too. */
int skt_sig_unnamed_temps_here(void);
/* 1 when the programs make named temporary files with kind k here. */
int skt_sig_named_temps(skt_sig_temp_kind k);

/* ---- strace and the reference outputs ------------------------------------ */

/* Skips the test, saying why, where strace is missing or cannot trace. */
void skt_sig_require_strace(void);

/* The outputs of a complete run of `c`, kept in memory and removed from
 * the directory (which also puts the kernels into the program cache, so
 * that the traced runs make the same system calls as any later run). */
typedef struct skt_sig_reference {
    unsigned char *data[2];
    size_t len[2];
} skt_sig_reference;

skt_sig_reference skt_sig_complete_run(const skt_sig_command *c);
void skt_sig_reference_free(skt_sig_reference *ref);
/* The file at path holds exactly the len bytes at want. */
void skt_sig_expect_content(const char *path, const void *want, size_t len, const char *what);

/* Runs c under strace with the signal `in` delivers, then checks that it
 * ended by that signal and left what `left` allows (`phase` names the
 * moment in messages); removes the temporary files it left. */
void skt_sig_signal_at(const skt_sig_command *c, skt_sig_temp_kind kind,
                       const skt_sig_injection *in, const char *phase,
                       const skt_sig_leftovers *left);

#endif
