/*
 * A tiny JSON emitter laid out as fio lays out its JSON: one member per line, two spaces
 * of indent per level, `"key" : value`, floats with "%f". Private to output/.
 */
#ifndef OUTPUT_JSON_WRITER_H
#define OUTPUT_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_out {
	FILE *f;
	unsigned depth;
	bool first;		/* nothing written yet inside the innermost object or array */
	bool compact;		/* all on one line (JSON Lines) */
};

/* Start and end the document: "{" ... "\n}\n". */
void json_begin(struct json_out *j, FILE *f);
void json_end(struct json_out *j);

/* As json_begin(), but the whole document on one line, without a final newline. */
void json_begin_compact(struct json_out *j, FILE *f);

/* Open an object ('{') or array ('['); key is NULL inside an array. */
void json_open(struct json_out *j, const char *key, char bracket);
void json_close(struct json_out *j, char bracket);

void json_uint(struct json_out *j, const char *key, uint64_t v);
void json_int(struct json_out *j, const char *key, long long v);
void json_float(struct json_out *j, const char *key, double v);
void json_str(struct json_out *j, const char *key, const char *s);

/* A string as a quoted, escaped JSON value, for one-line documents written by hand. */
void json_string_to(FILE *f, const char *s);

#endif
