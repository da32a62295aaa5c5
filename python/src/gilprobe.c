/*
 * gilprobe.c - whether some thread holds the GIL, read without taking it.
 *
 * Why: a thread that comes back from segmenting a line while another
 * thread holds the GIL sleeps on a condition variable in CPython, and is
 * woken by a futex call when the GIL is dropped.  On the virtual machines
 * we measure on, that sleep and wake-up cost about as long as segmenting a
 * line, so two Python threads cutting line by line gained only 1.2x over
 * one.  The other thread's hold is short (building one list of words), so
 * the binding waits a few microseconds for it to end before it asks for
 * the GIL (see gil_wait in _fenci.c), as an adaptive mutex spins before it
 * sleeps.
 *
 * CPython has no public call for this: the flag is internal.  It is read
 * only on the version whose layout this file was compiled against (3.11,
 * Debian 12's), through CPython's own internal header; anywhere else the
 * probe answers "unknown" and the binding does not wait.  The probe only
 * shortens a wait: what it answers never changes a result.  This is the
 * one file of the package that sees CPython's internals.
 */
#define Py_BUILD_CORE 1
#include <Python.h>

#include "gilprobe.h"

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && defined(__has_include)
#if __has_include("internal/pycore_runtime.h")
#include "internal/pycore_runtime.h"
#define FENCI_GIL_PROBE 1
#endif
#endif

int fenci_gil_probe(void) {
#ifdef FENCI_GIL_PROBE
  /* 3.11: one GIL per process, in the runtime state */
  return _Py_atomic_load_relaxed(&_PyRuntime.ceval.gil.locked) != 0;
#else
  return -1;
#endif
}
