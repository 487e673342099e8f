/*
 * A small JSON reader for result sets (our own JSON Lines, fio-shaped documents): the
 * whole text is parsed into a tree of values; lookups by key and index; numbers as
 * doubles (plus the exact unsigned value when it is a whole number).
 */
#ifndef OUTPUT_JSON_READER_H
#define OUTPUT_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

/*
 * One value: 24 bytes, since a result set holds hundreds of them per line and thousands of
 * lines. Only the members of its type are meaningful (they share the union).
 */
struct jv {
	uint8_t type;			/* enum jv_type */
	bool boolean;
	bool packed;			/* a complete object: its keys in the keys array's block */
	uint32_t n;			/* array items or object members */
	union {
		struct {
			double number;
			uint64_t uint;	/* exact when the number is a whole number >= 0 */
		};
		char *string;
		struct {
			struct jv *items;	/* array items or object values */
			char **keys;		/* object keys, parallel to items */
		};
	};
};

/* Where parsing stopped, and why when it is a number: for a message naming the key. */
struct jv_error {
	size_t at;		/* byte offset of the first error */
	char key[64];		/* the member read then ("" at the top), maybe cut short */
};

/*
 * Parse text (len bytes) into *out. Returns 0; -ERANGE for a number that is not finite in
 * a double (1e400, NaN, Infinity: JSON has no such numbers, so they are a hand edit or a
 * foreign writer, not a line cut short); -EINVAL for anything else that is not JSON; or
 * -ENOMEM. err (may be NULL) says where. Free with jv_free().
 */
int jv_parse(const char *text, size_t len, struct jv *out, struct jv_error *err);
void jv_free(struct jv *v);

/* The member key of an object, or NULL (also when v is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);

/* A path of keys separated by '.', array indexes as numbers: "jobs.0.read.iops". */
const struct jv *jv_path(const struct jv *v, const char *path);

/* The number at v, or dflt when v is missing or not a number. */
double jv_num(const struct jv *v, double dflt);

/* The whole number at v (exact to 2^64), or dflt when v is missing or not one. */
uint64_t jv_uint(const struct jv *v, uint64_t dflt);

/* The string at v, or dflt. */
const char *jv_str(const struct jv *v, const char *dflt);

#endif
