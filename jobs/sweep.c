/* Sweeps: axes of swept option values and the cells of their product. */
#include "jobs/sweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "parser/value.h"
#include "base/grow.h"

int sweep_add(struct sweep *s, const char *spec, struct diag *d)
{
	const char *eq = strchr(spec, '=');
	struct sweep_axis *a;
	int n;

	if (!eq || eq == spec || !eq[1])
		return diag_set(d, -EINVAL, "--sweep '%s': expected KEY=VALUE1,VALUE2,...", spec);
	for (unsigned i = 0; i < s->naxes; i++)
		if (!strncmp(s->axes[i].key, spec, (size_t)(eq - spec)) &&
		    !s->axes[i].key[eq - spec])
			return diag_set(d, -EINVAL, "--sweep '%s': '%.*s' is swept twice", spec,
					(int)(eq - spec), spec);
	if (GROW_FOR(s->axes, s->axes_cap, s->naxes) < 0)
		return diag_set(d, -ENOMEM, "out of memory");
	a = &s->axes[s->naxes];
	a->key = strndup(spec, (size_t)(eq - spec));
	n = value_split(eq + 1, ',', &a->values);
	if (!a->key || n < 0) {
		free(a->key);
		return diag_set(d, -ENOMEM, "out of memory");
	}
	a->nvalues = (unsigned)n;
	s->naxes++;
	for (int i = 0; i < n; i++)
		if (!*a->values[i])
			return diag_set(d, -EINVAL, "--sweep '%s': value %d is empty", spec, i + 1);
	return 0;
}

unsigned long sweep_ncells(const struct sweep *s)
{
	unsigned long n = 1;

	for (unsigned i = 0; i < s->naxes; i++)
		n *= s->axes[i].nvalues;
	return n;
}

void sweep_cell(const struct sweep *s, unsigned long idx, struct job_override *out)
{
	/* Mixed radix, last axis fastest. */
	for (unsigned i = s->naxes; i-- > 0;) {
		const struct sweep_axis *a = &s->axes[i];

		out[i].key = a->key;
		out[i].value = a->values[idx % a->nvalues];
		out[i].origin = "--sweep";
		idx /= a->nvalues;
	}
}

void sweep_free(struct sweep *s)
{
	for (unsigned i = 0; i < s->naxes; i++) {
		free(s->axes[i].key);
		value_split_free(s->axes[i].values, (int)s->axes[i].nvalues);
	}
	free(s->axes);
	s->axes = NULL;
	s->naxes = 0;
}
