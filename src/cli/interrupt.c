/* interrupt.c: SIGINT turned into a cancel of the work in progress (see interrupt.h). */
#include "cli/interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static GMutex lock;
static CliInterruptFunc current_func;
static gpointer current_data;

static gpointer
sigint_thread (gpointer data)
{
  sigset_t *set = data;
  int sig;

  while (sigwait (set, &sig) == 0)
    {
      CliInterruptFunc func;
      gpointer func_data;

      g_mutex_lock (&lock);
      func = current_func;
      func_data = current_data;
      g_mutex_unlock (&lock);
      if (func == NULL)
        _exit (130);
      func (func_data);
    }
  return NULL;
}

void
cli_interrupt_calls (CliInterruptFunc func, gpointer data)
{
  static gsize started;

  if (g_once_init_enter (&started))
    {
      static sigset_t set;

      sigemptyset (&set);
      sigaddset (&set, SIGINT);
      pthread_sigmask (SIG_BLOCK, &set, NULL);
      g_thread_unref (g_thread_new ("dynoscope-sigint", sigint_thread, &set));
      g_once_init_leave (&started, 1);
    }
  g_mutex_lock (&lock);
  current_func = func;
  current_data = data;
  g_mutex_unlock (&lock);
}

void
cli_interrupt_cancels (GCancellable *cancellable)
{
  cli_interrupt_calls (cancellable != NULL ? (CliInterruptFunc) g_cancellable_cancel : NULL,
                       cancellable);
}
