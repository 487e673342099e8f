/*
 * iojob pts: a SNIA Solid State Storage PTS-style suite in one command. It purges the
 * target, preconditions it (sequential 128 KiB writes of twice the capacity used), then
 * runs rounds of each test's matrix of cells through the job runner until the PTS steady-
 * state window holds (output/resultset/pts_window.h) or the rounds run out, appending
 * every cell to a result set, and writes the report of output/resultset/seed_pts.c with
 * its plots. Runs above the engine as a subcommand: it prints for the user and returns
 * the exit status (0 done, 1 a job or an output failed, 2 a usage error or a target the
 * safety checks refuse, 128+N stopped by signal N).
 */
#ifndef PTS_PTS_H
#define PTS_PTS_H

/* iojob pts TARGET --results DIR [options]; argv[0] is "pts". */
int pts_main(int argc, char **argv);

#endif
