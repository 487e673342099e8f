/* Rules that involve more than one option, and defaults that follow other options. */
#ifndef JOBS_VALIDATE_H
#define JOBS_VALIDATE_H

#include <stdbool.h>

struct diag;
struct engine_info;
struct job_desc;
struct job_input;
struct job_list;

/*
 * Fill the defaults that depend on other options (batch sizes, alignment, io_size),
 * cap what the engine cannot do (with a note), and reject contradictions. With
 * in->check_paths, directories must exist; the hints name the engines of in->engines
 * that can do what eng cannot. Returns 0 or -EINVAL with d set.
 */
int job_validate(struct job_desc *j, const struct engine_info *eng,
		 const struct job_input *in, struct diag *d);

/*
 * --readonly: refuse a job that writes (verify_only reads only), trims or deletes its
 * files (unlink), or whose engine (eng, or NULL) changes files whatever rw= says
 * (ENGINE_MODIFIES: filecreate, falloc). Returns 0 or -EINVAL with d naming the job and
 * the option.
 */
int job_check_readonly(const struct job_desc *j, const struct engine_info *eng, struct diag *d);

/*
 * wait_for=NAME: the job to wait for is a section above (in before, the jobs built so
 * far) and the only one of that name, as fio requires; sets j->wait_for_section. Returns
 * 0 or -EINVAL with d naming the job and the option.
 */
int job_check_wait_for(const struct job_list *before, struct job_desc *j, struct diag *d);

#endif
