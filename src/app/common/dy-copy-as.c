/* dy-copy-as.c: "Copy as" menus and the programs behind them. */
#define G_LOG_DOMAIN "dynoscope-copy-as"

#include <glib/gi18n.h>

#include "app/common/dy-copy-as.h"

/* Where `dynoscope-cli --db PATH serve` listens unless told otherwise. */
#define SERVE_DEFAULT_URL "http://127.0.0.1:8000"

void
dy_copy_as_target (DyConnection *connection, DdbCodegenTarget *target)
{
  target->endpoint_url = NULL;
  target->profile = NULL;
  target->region = NULL;
  if (connection == NULL)
    return;
  target->region = dy_connection_get_region (connection);
  switch (dy_connection_get_kind (connection))
    {
    case DY_CONNECTION_DATABASE:
      target->endpoint_url = SERVE_DEFAULT_URL;
      break;
    case DY_CONNECTION_PROFILE:
      target->profile = dy_connection_get_profile (connection);
      break;
    case DY_CONNECTION_ENDPOINT:
      target->endpoint_url = dy_connection_get_url (connection);
      break;
    }
}

GMenuModel *
dy_copy_as_menu_new (const char *action)
{
  GMenu *menu = g_menu_new ();

  for (int lang = 0; lang < DDB_N_LANGS; lang++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (ddb_lang_title (lang), NULL);

      g_menu_item_set_action_and_target (item, action, "s", ddb_lang_name (lang));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

/* The language named LANG_NAME and what a program for CONNECTION targets. */
static gboolean
lang_and_target (DyConnection *connection, const char *lang_name, DdbLang *lang,
                 DdbCodegenTarget *target, GError **error)
{
  if (!ddb_lang_from_name (lang_name, lang))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("Unknown language “%s”"),
                   lang_name);
      return FALSE;
    }
  dy_copy_as_target (connection, target);
  return TRUE;
}

char *
dy_copy_as_program (DyConnection *connection, const char *lang_name, const char *operation,
                    json_t *request, GError **error)
{
  DdbCodegenTarget target;
  DdbLang lang;

  if (!lang_and_target (connection, lang_name, &lang, &target, error))
    return NULL;
  return ddb_codegen_program (lang, operation, request, &target, error);
}

char *
dy_copy_as_fanout_program (DyConnection *connection, const char *lang_name,
                           const DdbKeysReport *report, const DdbKeysShardAdvice *advice,
                           GError **error)
{
  json_auto_t *request = ddb_keys_fanout_request (report, advice);
  DdbCodegenTarget target;
  DdbLang lang;

  if (!lang_and_target (connection, lang_name, &lang, &target, error))
    return NULL;
  return ddb_codegen_fanout_program (lang, request, DDB_KEYS_FANOUT_PLACEHOLDER, advice->prefix,
                                     advice->first, advice->suffixes, advice->width, &target,
                                     error);
}
