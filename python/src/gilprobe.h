/* gilprobe.h - see gilprobe.c. */
#ifndef FENCI_GILPROBE_H
#define FENCI_GILPROBE_H

/* 1 when some thread holds the GIL, 0 when none does, -1 when this build
 * cannot tell (another CPython version).  Callable without the GIL. */
int fenci_gil_probe(void);

#endif
