#include "jsonlog.h"

void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

void log_json(const char *level, const char *msg) {
    fprintf(stderr, "{\"level\":\"%s\",\"component\":\"linkem-fwd\",\"msg\":", level);
    json_string(stderr, msg);
    fprintf(stderr, "}\n");
    fflush(stderr);
}
