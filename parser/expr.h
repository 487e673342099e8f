/*
 * fio's arithmetic in option values: "(8*$mb_memory)/2", "bs=(2*4k)", "runtime=(2*1s)".
 * + - * / % ^, unary minus and parentheses over numbers; integers stay integers (7/2 is 3)
 * until a decimal point makes the expression floating point, as in fio's parser.
 */
#ifndef PARSER_EXPR_H
#define PARSER_EXPR_H

#include <stdint.h>

/* How deep parentheses, signs and '^' may nest: "((1))" is 2, "(--1)" 3, "(2^2^2)" 3. */
#define EXPR_DEPTH_MAX	64

enum expr_units {
	EXPR_BARE,	/* numbers only: what fio hands bc after $ncpus and the like */
	EXPR_SIZE,	/* a number may carry a size suffix (4k, 1m) */
	EXPR_TIME,	/* a number may carry a time suffix; a bare one is in microseconds */
};

/*
 * Evaluate the whole of s. Sizes are bytes (with kb_base), times microseconds. Returns 0
 * and sets *out (truncated toward zero), -EINVAL when malformed (or dividing by zero),
 * -ERANGE when the result does not fit, -E2BIG when it nests deeper than EXPR_DEPTH_MAX.
 */
int expr_eval(const char *s, enum expr_units units, unsigned kb_base, int64_t *out);

/*
 * fio's reserved keywords in a value: $pagesize, $mb_memory and $ncpus replaced by this
 * system's page size, megabytes of memory and configured CPUs, and then, when there was one
 * and the value holds + - * or /, the value evaluated (as fio has bc do). Returns the new
 * text in a malloc()ed string, NULL when val has no keyword (or on ENOMEM, with *err set).
 */
char *expr_keywords(const char *val, int *err);

#endif
