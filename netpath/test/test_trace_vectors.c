/* The shared trace test vectors (test-vectors/traces/manifest.tsv) read by the C trace reader; the
 * TypeScript reader is held to the same manifest by bench/test/linkem-trace-vectors.test.ts. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trace_file.h"
#include "trace_schedule.h"

#define MAX_VECTORS 256

static char listed[MAX_VECTORS][128];
static size_t listed_count;

static void check_row(const char *folder, char *row) {
    char *fields[4] = {0};
    size_t n = 0;
    for (char *field = strtok(row, "\t"); field && n < 4; field = strtok(NULL, "\t")) fields[n++] = field;
    CHECK(n >= 3);
    if (n < 3) return;
    if (listed_count < MAX_VECTORS) snprintf(listed[listed_count++], sizeof listed[0], "%s", fields[0]);
    char path[1024], error[512] = "";
    snprintf(path, sizeof path, "%s/traces/%s", folder, fields[0]);
    uint32_t *ms = NULL;
    size_t count = 0;
    int status = mm_trace_read_file(path, &ms, &count, error, sizeof error);
    if (strcmp(fields[1], "accept") == 0) {
        CHECK(n == 4);
        if (status != 0) fprintf(stderr, "%s: refused: %s\n", fields[0], error);
        CHECK(status == 0);
        if (status == 0 && n == 4) {
            CHECK(count == strtoull(fields[2], NULL, 10));
            CHECK(ms[count - 1] == strtoull(fields[3], NULL, 10));
            /* what the reader accepts, the link accepts */
            mm_trace trace;
            const char *reason = NULL;
            CHECK(mm_trace_init(&trace, ms, count, &reason) == 0);
        }
    } else {
        CHECK(strcmp(fields[1], "reject") == 0);
        CHECK(status == -1 && ms == NULL);
        if (!strstr(error, fields[2])) fprintf(stderr, "%s: error \"%s\" lacks \"%s\"\n", fields[0], error, fields[2]);
        CHECK(strstr(error, fields[2]) != NULL);
        CHECK(strstr(error, path) == error); /* the message starts with the file's name */
    }
    free(ms);
}

/* Every trace in the folder has an expected outcome, so a new vector cannot go unchecked. */
static void check_every_file_listed(const char *folder) {
    char path[1024];
    snprintf(path, sizeof path, "%s/traces", folder);
    DIR *dir = opendir(path);
    CHECK(dir != NULL);
    if (!dir) return;
    size_t files = 0;
    for (struct dirent *entry; (entry = readdir(dir));) {
        size_t length = strlen(entry->d_name);
        if (length < 6 || strcmp(entry->d_name + length - 6, ".trace") != 0) continue;
        files++;
        int found = 0;
        for (size_t i = 0; i < listed_count; i++) found |= strcmp(listed[i], entry->d_name) == 0;
        if (!found) fprintf(stderr, "%s has no row in manifest.tsv\n", entry->d_name);
        CHECK(found);
    }
    closedir(dir);
    CHECK(files == listed_count);
}

static void check_missing_file(void) {
    char error[256] = "";
    uint32_t *ms = NULL;
    size_t count = 0;
    CHECK(mm_trace_read_file("/nonexistent/x.trace", &ms, &count, error, sizeof error) == -1);
    CHECK(strstr(error, "/nonexistent/x.trace: cannot open trace") == error);
}

/* Timestamps that come from memory (the WebAssembly simulator) meet the same rules. */
static void check_in_memory_rules(void) {
    mm_trace trace;
    const char *reason = NULL;
    const uint32_t decreasing[] = {1, 5, 3}, zero_last[] = {0, 0}, too_large[] = {1, MM_TRACE_MAX_MS + 1u};
    CHECK(mm_trace_init(&trace, NULL, 0, &reason) == -1);
    CHECK(mm_trace_init(&trace, decreasing, 3, &reason) == -1 && strstr(reason, "decrease"));
    CHECK(mm_trace_init(&trace, zero_last, 2, &reason) == -1 && strstr(reason, "last timestamp"));
    CHECK(mm_trace_init(&trace, too_large, 2, &reason) == -1 && strstr(reason, "exceeds the maximum"));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_trace_vectors TEST-VECTORS-DIR\n");
        return 2;
    }
    char path[1024], row[1024];
    snprintf(path, sizeof path, "%s/traces/manifest.tsv", argv[1]);
    FILE *manifest = fopen(path, "r");
    CHECK(manifest != NULL);
    size_t rows = 0;
    while (manifest && fgets(row, sizeof row, manifest)) {
        row[strcspn(row, "\n")] = '\0';
        if (row[0] == '#' || row[0] == '\0') continue;
        rows++;
        check_row(argv[1], row);
    }
    if (manifest) fclose(manifest);
    CHECK(rows >= 20);
    check_every_file_listed(argv[1]);
    check_missing_file();
    check_in_memory_rules();
    return check_summary("test_trace_vectors");
}
