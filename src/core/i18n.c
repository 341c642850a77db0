/* i18n.c: see i18n.h. */
#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>

#include "core/i18n.h"

const char *
ddb_i18n_localedir (void)
{
  const char *dir = g_getenv ("DYNOSCOPE_LOCALEDIR");

  return dir != NULL && *dir != '\0' ? dir : LOCALEDIR;
}

void
ddb_i18n_init (void)
{
  const char *language = g_getenv ("LANGUAGE");
  const char *messages;

  setlocale (LC_ALL, "");
  messages = setlocale (LC_MESSAGES, NULL);
  /* gettext ignores LANGUAGE under the C locale. */
  if (language != NULL && *language != '\0' && messages != NULL
      && (strcmp (messages, "C") == 0 || strcmp (messages, "POSIX") == 0))
    setlocale (LC_MESSAGES, "C.UTF-8");
  bindtextdomain (GETTEXT_PACKAGE, ddb_i18n_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
