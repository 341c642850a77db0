/* main.c: the dynoscope executable. */
#define G_LOG_DOMAIN "dynoscope"

#include <glib/gi18n.h>
#include <locale.h>

#include "app/dy-application.h"

int
main (int argc, char **argv)
{
  g_autoptr (DyApplication) app = NULL;

  dy_application_prepare_environment ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = dy_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
