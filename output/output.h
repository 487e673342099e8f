/*
 * The output module as engine/ and main.c see it: job statistics, the reporters and the
 * disk statistics they render.
 */
#ifndef OUTPUT_OUTPUT_H
#define OUTPUT_OUTPUT_H

#include "output/diskstats.h"
#include "output/num2str.h"
#include "output/report.h"
#include "output/report_formats.h"
#include "output/stats.h"

#endif
