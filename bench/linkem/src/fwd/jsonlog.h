/* The forwarder's structured output: JSON strings, and log lines on stderr
   ({"level":..., "component":"linkem-fwd", "msg":...}). */
#ifndef LINKEM_JSONLOG_H
#define LINKEM_JSONLOG_H

#include <stdio.h>

void json_string(FILE *f, const char *s);
/* level: "error", "warn" or "info". */
void log_json(const char *level, const char *msg);

#endif
