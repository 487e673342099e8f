/* A small recursive-descent JSON reader (RFC 8259), for result sets. */
#include "output/json_reader.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/grow.h"

/* Nesting deeper than any report writes is refused, so a hostile file cannot exhaust
 * the stack through the reader's recursion. */
#define MAX_DEPTH 64

struct cursor {
	const char *p, *end, *start;
	int depth;
	const char *key;	/* of the member being parsed, for jv_error */
};

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int parse_value(struct cursor *c, struct jv *out);

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char ch = p[i];

		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			v |= (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			v |= (unsigned)(ch - 'A' + 10);
		else
			return -EINVAL;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string after its opening quote; escapes decoded, UTF-16 pairs joined. */
static int parse_string(struct cursor *c, char **out)
{
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (; c->p < c->end && *c->p != '"'; c->p++) {
		unsigned cp;

		if (grow_reserve(&buf, &cap, n + 5, 1) < 0)
			goto err;
		if ((unsigned char)*c->p < 0x20)
			goto err;
		if (*c->p != '\\') {
			buf[n++] = *c->p;
			continue;
		}
		if (++c->p >= c->end)
			goto err;
		switch (*c->p) {
		case '"': case '\\': case '/':
			buf[n++] = *c->p;
			break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (c->end - c->p < 5 || hex4(c->p + 1, &cp))
				goto err;
			c->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && c->end - c->p >= 7 && c->p[1] == '\\' &&
			    c->p[2] == 'u') {
				unsigned lo;

				if (hex4(c->p + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					c->p += 6;
				}
			}
			n += put_utf8(buf + n, cp);
			break;
		default:
			goto err;
		}
	}
	if (c->p >= c->end)
		goto err;
	c->p++;
	buf[n] = '\0';
	*out = cap - n > 16 ? realloc(buf, n + 1) : buf;	/* long strings grew by doubling */
	if (!*out)
		*out = buf;
	return 0;
err:
	free(buf);
	return -EINVAL;
}

/* NaN and Infinity are not JSON, but writers that allow them (Python's) spell them so. */
static bool non_finite_word(const struct cursor *c)
{
	static const char *const words[] = { "NaN", "Infinity", "-Infinity", "-NaN" };

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, words[i], n))
			return true;
	}
	return false;
}

static int parse_number(struct cursor *c, struct jv *out)
{
	const char *s = c->p;
	char *endp, tmp[64];
	size_t len;

	if (non_finite_word(c))
		return -ERANGE;
	while (c->p < c->end && strchr("+-0123456789.eE", *c->p))
		c->p++;
	len = (size_t)(c->p - s);
	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	out->type = JV_NUMBER;
	out->number = strtod(tmp, &endp);
	if (*endp)
		return -EINVAL;
	if (!isfinite(out->number)) {
		c->p = s;
		return -ERANGE;
	}
	if (tmp[0] != '-' && !strpbrk(tmp, ".eE"))
		out->uint = strtoull(tmp, NULL, 10);
	else
		out->uint = out->number >= 0 && out->number < 1.8e19 ? (uint64_t)out->number : 0;
	return 0;
}

static int push(struct jv *v, char *key, size_t *cap)
{
	if (v->n == *cap) {
		size_t icap = *cap, kcap = *cap;

		/* keys grow with items, to the same capacity: *cap counts once both moved */
		if (GROW_FOR(v->items, icap, v->n) < 0)
			return -ENOMEM;
		if (v->type == JV_OBJECT && GROW_FOR(v->keys, kcap, v->n) < 0)
			return -ENOMEM;
		*cap = icap;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	if (v->type == JV_OBJECT)
		v->keys[v->n] = key;
	v->n++;
	return 0;
}

/*
 * An object's keys in one block after the array that points at them: a result line's
 * hundreds of short keys would otherwise cost an allocation each.
 */
static void pack_keys(struct jv *v)
{
	size_t bytes = v->n * sizeof(v->keys[0]), len;
	char **block, *at;

	for (size_t i = 0; i < v->n; i++)
		bytes += strlen(v->keys[i]) + 1;
	block = malloc(bytes);
	if (!block)
		return;	/* kept as they are: one allocation each */
	at = (char *)(block + v->n);
	for (size_t i = 0; i < v->n; i++) {
		len = strlen(v->keys[i]) + 1;
		memcpy(at, v->keys[i], len);
		free(v->keys[i]);
		block[i] = at;
		at += len;
	}
	free(v->keys);
	v->keys = block;
	v->packed = true;
}

/*
 * A container is complete: give back the room its items grew by (they double, from 8,
 * and most objects hold a few members) and pack its keys, so that a result set of
 * thousands of lines holds what it read, not its slack.
 */
static void fit(struct jv *v, size_t cap)
{
	void *p;

	if (!v->n)
		return;
	if (cap != v->n) {
		p = realloc(v->items, v->n * sizeof(v->items[0]));
		if (p)
			v->items = p;
	}
	if (v->type == JV_OBJECT)
		pack_keys(v);
}

/* An array or object after its opening bracket. */
static int parse_container(struct cursor *c, struct jv *out, char close)
{
	size_t cap = 0;
	int ret;

	if (++c->depth > MAX_DEPTH)
		return -EINVAL;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		c->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(c);
		if (close == '}') {
			if (c->p >= c->end || *c->p != '"')
				return -EINVAL;
			c->p++;
			if ((ret = parse_string(c, &key)) < 0)
				return ret;
			skip_ws(c);
			if (c->p >= c->end || *c->p != ':') {
				free(key);
				return -EINVAL;
			}
			c->p++;
		}
		if ((ret = push(out, key, &cap)) < 0) {
			free(key);
			return ret;
		}
		if (key)
			c->key = key;
		if ((ret = parse_value(c, &out->items[out->n - 1])) < 0)
			return ret;
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			/* the key an error names may be this object's last: it moves when packed */
			bool named = close == '}' && c->key == out->keys[out->n - 1];

			c->p++;
			c->depth--;
			fit(out, cap);
			if (named)
				c->key = out->keys[out->n - 1];
			return 0;
		}
		return -EINVAL;
	}
}

static int literal(struct cursor *c, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return -EINVAL;
	c->p += n;
	return 0;
}

static int parse_value(struct cursor *c, struct jv *out)
{
	skip_ws(c);
	if (c->p >= c->end)
		return -EINVAL;
	switch (*c->p) {
	case '{':
		c->p++;
		out->type = JV_OBJECT;
		return parse_container(c, out, '}');
	case '[':
		c->p++;
		out->type = JV_ARRAY;
		return parse_container(c, out, ']');
	case '"':
		c->p++;
		out->type = JV_STRING;
		return parse_string(c, &out->string);
	case 't':
		out->type = JV_BOOL;
		out->boolean = true;
		return literal(c, "true");
	case 'f':
		out->type = JV_BOOL;
		return literal(c, "false");
	case 'n':
		out->type = JV_NULL;
		return literal(c, "null");
	default:
		return parse_number(c, out);
	}
}

int jv_parse(const char *text, size_t len, struct jv *out, struct jv_error *err)
{
	struct cursor c = { text, text + len, text, 0, NULL };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = parse_value(&c, out);
	if (!ret) {
		skip_ws(&c);
		if (c.p != c.end)
			ret = -EINVAL;
	}
	if (ret && err) {
		err->at = (size_t)(c.p - text);
		/* the key lives in the tree, which is about to be freed */
		snprintf(err->key, sizeof(err->key), "%s", c.key ? c.key : "");
	}
	if (ret)
		jv_free(out);
	return ret;
}

void jv_free(struct jv *v)
{
	if (v->type == JV_STRING)
		free(v->string);
	if (v->type == JV_ARRAY || v->type == JV_OBJECT) {
		for (size_t i = 0; i < v->n; i++) {
			jv_free(&v->items[i]);
			if (v->type == JV_OBJECT && !v->packed)
				free(v->keys[i]);
		}
		free(v->items);
		if (v->type == JV_OBJECT)
			free(v->keys);
	}
	memset(v, 0, sizeof(*v));
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const struct jv *jv_path(const struct jv *v, const char *path)
{
	char part[256];

	while (v && *path) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);
		char *endp;
		unsigned long idx;

		if (len >= sizeof(part))
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		idx = strtoul(part, &endp, 10);
		if (v->type == JV_ARRAY && *part && !*endp)
			v = idx < v->n ? &v->items[idx] : NULL;
		else
			v = jv_get(v, part);
		path += len + (dot ? 1 : 0);
	}
	return v;
}

double jv_num(const struct jv *v, double dflt)
{
	return v && v->type == JV_NUMBER ? v->number : dflt;
}

uint64_t jv_uint(const struct jv *v, uint64_t dflt)
{
	return v && v->type == JV_NUMBER ? v->uint : dflt;
}

const char *jv_str(const struct jv *v, const char *dflt)
{
	return v && v->type == JV_STRING ? v->string : dflt;
}
