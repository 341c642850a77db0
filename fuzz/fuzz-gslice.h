/* fuzz-gslice.h: LLVMFuzzerInitialize for targets that allocate through GLib. GLib before 2.76
 * hands out GSlice memory from its own magazines, where AddressSanitizer sees neither a
 * use-after-free nor a leak; G_SLICE=always-malloc turns that off, but only when set before
 * GLib starts. So a process started without it starts itself again, once, with it. */
#pragma once

#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  if (getenv ("G_SLICE") == NULL)
    {
      setenv ("G_SLICE", "always-malloc", 1);
      execv ("/proc/self/exe", *argv);
      /* Could not: fuzz on without it. */
    }
  return 0;
}
