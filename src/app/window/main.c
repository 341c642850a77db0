/* main.c: the dynoscope executable. */
#define G_LOG_DOMAIN "dynoscope"

#include <glib/gi18n.h>

#include "app/window/dy-application.h"
#include "core/i18n.h"
#include "core/malloc-init.h"

int
main (int argc, char **argv)
{
  g_autoptr (DyApplication) app = NULL;

  ddb_malloc_init ();
  dy_application_prepare_environment ();
  ddb_i18n_init ();

  app = dy_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
