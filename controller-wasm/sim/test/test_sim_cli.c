/* The pcc-sim command line: flag parsing, trace files, and the binary's exit codes on bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "path_jitter.h"
#include "sim_args.h"
#include "trace_file.h"

static sim_cli_options options;

static int parse(const char *const *args, char *error, size_t error_bytes) {
    char *argv[32];
    int argc = 0;
    argv[argc++] = "pcc-sim";
    for (const char *const *a = args; *a; a++) argv[argc++] = (char *)*a;
    sim_cli_free(&options);
    return sim_cli_parse(argc, argv, &options, error, error_bytes);
}

static void test_contract_flags(void) {
    char error[256];
    const char *args[] = {"--cc", "vivace,cubic", "--rate-mbps", "100", "--rtt-ms", "30", "--buffer-kb", "75",
                          "--loss", "0.01", "--duration-s", "60", "--start-gap-s", "10", "--seed", "42", "--json",
                          NULL};
    CHECK(parse(args, error, sizeof error) == 0);
    CHECK(options.config.flow_count == 2);
    CHECK(strcmp(options.flows[0].cc, "vivace") == 0 && strcmp(options.flows[1].cc, "cubic") == 0);
    CHECK(options.flows[1].start_us == 10000000);
    CHECK(options.flows[0].base_rtt_us == 30000);
    CHECK(options.config.buffer_bytes == 75000);
    CHECK(options.config.rate_bps == 100e6);
    CHECK(options.config.loss_rate == 0.01);
    CHECK(options.config.duration_us == 60000000);
    CHECK(options.config.seed == 42);
    CHECK(options.json == 1);
    CHECK(options.config.send_jitter_us == PCC_SIM_DEFAULT_SEND_JITTER_US);
    const char *exact_pacing[] = {"--send-jitter-us", "0", NULL};
    CHECK(parse(exact_pacing, error, sizeof error) == 0 && options.config.send_jitter_us == 0);
    CHECK(options.config.jitter_sd_us == 0.0);   /* forward jitter is off unless asked for */
    const char *forward_jitter[] = {"--jitter-sd-us", "200", "--jitter-tau-us", "45000", NULL};
    CHECK(parse(forward_jitter, error, sizeof error) == 0 && options.config.jitter_sd_us == 200.0 &&
          options.config.jitter_tau_us == 45000.0);

    const char *replicated[] = {"--cc=vivace", "--flows=4", "--rtt-schedule", "10:100:5", "--rate-schedule",
                                "10:100:5", "--loss-schedule", "0:0.01:5", "--cc-param", "epsilon=0.02", NULL};
    CHECK(parse(replicated, error, sizeof error) == 0);
    CHECK(options.config.flow_count == 4);
    CHECK(strcmp(options.flows[3].cc, "vivace") == 0);
    CHECK(options.config.rtt_schedule_us.min_value == 10000 && options.config.rtt_schedule_us.max_value == 100000);
    CHECK(options.config.rtt_schedule_us.period_us == 5000000);
    CHECK(options.config.rate_schedule_bps.max_value == 100e6);
    CHECK(options.config.loss_schedule.max_value == 0.01);
    CHECK(strcmp(options.flows[2].cc_params, "epsilon=0.02") == 0);
}

/* The named noise profile and the player's abandonment options reach the configuration. */
static void test_noise_and_abandon_flags(void) {
    char error[256] = "";
    const char *const on[] = {"--rtt-noise", "real-path", "--video-abr", "0.3,2", "--video-abandon-s", "4",
                              "--video-abr-samples", "5", NULL};
    CHECK(parse(on, error, sizeof error) == 0);
    CHECK(options.config.rtt_noise.median_us == SIM_RTT_NOISE_REAL_PATH.median_us);
    CHECK(options.config.rtt_noise.tail_share == SIM_RTT_NOISE_REAL_PATH.tail_share);
    CHECK(options.flows[0].video && options.flows[0].video->abandon_lock_s == 4.0 &&
          options.flows[0].video->abr_samples == 5);
    const char *const off[] = {"--rtt-noise", "real-path", "--rtt-noise", "off", NULL};
    CHECK(parse(off, error, sizeof error) == 0);
    CHECK(options.config.rtt_noise.median_us == 0.0);
}

static void test_bad_flags(void) {
    char error[256];
    const char *const cases[][4] = {
        {"--rate-mbps", "fast", NULL},
        {"--rate-mbps", "-3", NULL},
        {"--rate-mbps", "nan", NULL},
        {"--loss", "1.5", NULL},
        {"--send-jitter-us", "-5", NULL},
        {"--jitter-sd-us", "-1", NULL},
        {"--jitter-tau-us", "0", NULL},
        {"--flows", "2.5", NULL},
        {"--flows", "0", NULL},
        {"--flows", "3", "--cc", "vivace,cubic"},
        {"--rtt-ms", "0", NULL},
        {"--rtt-schedule", "10:100", NULL},
        {"--rtt-schedule", "100:10:5", NULL},
        {"--rtt-schedule", "a:b:c", NULL},
        {"--seed", "-1", NULL},
        {"--duration-s", NULL},
        {"--bogus", "1", NULL},
        {"stray", NULL},
        {"--json=1", NULL},
        {"--trace", "/nonexistent/trace.down", NULL},
        {"--rate-mbps", "10", "--trace", "/dev/null"},
        {"--cc-param", "epsilon", NULL},
        {"--start-gap-s", "30", "--flows", "3"},
        {"--rtt-noise", "loud", NULL},
        {"--video-abandon-s", "4", NULL},                     /* a video option without a video flow */
        {"--video-abr", "1,2", "--video-abandon-s", "-1"},
        {"--video-abr", "1,2", "--video-abr-samples", "17"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        error[0] = '\0';
        int status = parse(cases[i], error, sizeof error);
        CHECK(status == -1);
        CHECK(error[0] != '\0');
        if (status != -1) fprintf(stderr, "case %zu was accepted\n", i);
    }
}

static const char *write_temp(const char *name, const char *text) {
    static char path[256];
    snprintf(path, sizeof path, "/tmp/pcc-sim-test-%d-%s", (int)getpid(), name);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_trace_files(void) {
    char error[256];
    uint32_t *ms = NULL;
    size_t count = 0;
    const char *path = write_temp("good", "1\n1\n3\r\n4\n\n");
    CHECK(path && mm_trace_read_file(path, &ms, &count, error, sizeof error) == 0);
    CHECK(count == 4 && ms && ms[0] == 1 && ms[1] == 1 && ms[2] == 3 && ms[3] == 4);
    free(ms);
    if (path) remove(path);
    const char *bad[] = {"1\n2\nabc\n", "5\n3\n", "0\n0\n", "", "1.5\n", "-1\n2\n", "99999999999999\n", "2 3\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = write_temp("bad", bad[i]);
        error[0] = '\0';
        ms = NULL;
        CHECK(path && mm_trace_read_file(path, &ms, &count, error, sizeof error) == -1);
        CHECK(ms == NULL && error[0] != '\0');
        if (path) remove(path);
    }
}

/* Runs the binary with args; returns its exit code, or -1 if it died from a signal. */
static int run_binary(const char *binary, const char *args) {
    char command[1024];
    snprintf(command, sizeof command, "'%s' %s >/dev/null 2>&1", binary, args);
    int status = system(command);
    if (status == -1 || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

/* Runs the binary with shell-level args (redirections allowed); exit code or -1 on a signal. */
static int system_exit(const char *binary, const char *args) {
    char command[4096];
    snprintf(command, sizeof command, "'%.1000s' %.2000s 2>/dev/null", binary, args);
    int status = system(command);
    if (status == -1 || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

static void test_binary_exit_codes(const char *binary) {
    CHECK(run_binary(binary, "--cc fixed --duration-s 0.5 --json") == 0);
    CHECK(run_binary(binary, "--help") == 0);
    CHECK(run_binary(binary, "--cc no-such-cc --duration-s 1") == 2);
    CHECK(run_binary(binary, "--rate-mbps abc") == 2);
    CHECK(run_binary(binary, "--trace /nonexistent") == 2);
    CHECK(run_binary(binary, "--cc vivace --cc-param nope=1 --duration-s 1") == 2);
    CHECK(run_binary(binary, "--csv /nonexistent-dir/x.csv --duration-s 1") == 2);
    const char *path = write_temp("garbage", "\x01\x02garbage\n");
    char args[512];
    snprintf(args, sizeof args, "--trace '%s' --duration-s 1", path);
    CHECK(run_binary(binary, args) == 2);
    remove(path);
}

static int files_equal(const char *a, const char *b) {
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int equal = fa && fb;
    while (equal) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb) equal = 0;
        if (ca == EOF || cb == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return equal;
}

/* Same flags, same seed: the same JSON and CSV, byte for byte; another seed: different output. */
static void test_binary_is_deterministic(const char *binary) {
    char out[4][128], args[1024];
    for (int i = 0; i < 4; i++) snprintf(out[i], sizeof out[i], "/tmp/pcc-sim-test-%d-det%d", (int)getpid(), i);
    const char *flags = "--cc vivace,cubic,bbr --start-gap-s 1 --loss 0.005 --rtt-schedule 10:60:1 --duration-s 5 --json";
    for (int run = 0; run < 2; run++) {
        snprintf(args, sizeof args, "%s --seed 9 --csv '%.120s.csv' > '%.120s.json'", flags, out[run], out[run]);
        CHECK(system_exit(binary, args) == 0);
    }
    snprintf(args, sizeof args, "%s --seed 10 --csv '%.120s.csv' > '%.120s.json'", flags, out[2], out[2]);
    CHECK(system_exit(binary, args) == 0);
    char a[160], b[160];
    snprintf(a, sizeof a, "%.120s.json", out[0]);
    snprintf(b, sizeof b, "%.120s.json", out[1]);
    CHECK(files_equal(a, b));
    snprintf(b, sizeof b, "%.120s.json", out[2]);
    CHECK(!files_equal(a, b));
    snprintf(a, sizeof a, "%.120s.csv", out[0]);
    snprintf(b, sizeof b, "%.120s.csv", out[1]);
    CHECK(files_equal(a, b));
    for (int i = 0; i < 3; i++) {
        snprintf(a, sizeof a, "%.120s.json", out[i]);
        remove(a);
        snprintf(a, sizeof a, "%.120s.csv", out[i]);
        remove(a);
    }
}

int main(int argc, char **argv) {
    test_contract_flags();
    test_noise_and_abandon_flags();
    test_bad_flags();
    test_trace_files();
    if (argc > 1) {
        test_binary_exit_codes(argv[1]);
        test_binary_is_deterministic(argv[1]);
    }
    else fprintf(stderr, "test_sim_cli: no pcc-sim path given, binary checks skipped\n");
    sim_cli_free(&options);
    return check_summary("test_sim_cli");
}
