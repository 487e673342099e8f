/*
 * The exit codes of iojob and its subcommands, defined here once (--help lists them): 0
 * every job ran (or the command did what it was asked), EXIT_JOB_FAILED a job or the
 * command failed, EXIT_USAGE a usage, job-file or target error, EXIT_SIGNAL + N stopped by
 * signal N (the shell's convention: 130 for SIGINT). A low-level header: it includes
 * nothing and says nothing of the layers above.
 */
#ifndef BASE_EXIT_CODE_H
#define BASE_EXIT_CODE_H

#define EXIT_JOB_FAILED	1
#define EXIT_USAGE	2
#define EXIT_SIGNAL	128

/*
 * What a step of the command line (iojob's, or a subcommand's) returns to go on to the
 * next instead of an exit code: none of them (0 to 255), and no negative errno.
 */
#define EXIT_GO_ON	256

#endif
