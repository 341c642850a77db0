/* fanout-tool.c: prints ddb_codegen_fanout_program's program for test-codegen-fanout.py.
 *
 *   fanout-tool LANG PLACEHOLDER PREFIX FIRST N WIDTH [ENDPOINT [PROFILE REGION]] < QUERY_JSON
 *
 * Exits 0 with the program on standard output; 1 with "ErrorName: message" when it is refused;
 * 2 on a usage error. */
#include <glib.h>
#include <jansson.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "core/error.h"

static gboolean
parse_uint (const char *text, guint *out)
{
  guint64 n;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, &n, NULL))
    return FALSE;
  *out = (guint) n;
  return TRUE;
}

int
main (int argc, char **argv)
{
  DdbLang lang;
  guint first, n, width;
  DdbCodegenTarget target = { NULL, NULL, NULL };
  json_error_t jerror;
  json_auto_t *request = NULL;
  g_autofree char *program = NULL;
  g_autoptr (GError) error = NULL;

  if ((argc != 7 && argc != 8 && argc != 10) || !ddb_lang_from_name (argv[1], &lang)
      || !parse_uint (argv[4], &first) || !parse_uint (argv[5], &n)
      || !parse_uint (argv[6], &width))
    {
      fprintf (stderr, "usage: fanout-tool LANG PLACEHOLDER PREFIX FIRST N WIDTH "
                       "[ENDPOINT [PROFILE REGION]] < QUERY_JSON\n");
      return 2;
    }
  if (argc >= 8)
    target.endpoint_url = argv[7];
  if (argc == 10)
    {
      target.profile = argv[8];
      target.region = argv[9];
    }
  request = json_loadf (stdin, JSON_DECODE_ANY, &jerror);
  if (request == NULL)
    {
      fprintf (stderr, "fanout-tool: %s\n", jerror.text);
      return 2;
    }
  program = ddb_codegen_fanout_program (lang, request, argv[2], argv[3], first, n, width, &target,
                                        &error);
  if (program == NULL)
    {
      fprintf (stderr, "%s: %s\n",
               error->domain == DDB_ERROR ? ddb_error_type_name (error->code) : "Error",
               error->message);
      return 1;
    }
  fputs (program, stdout);
  return 0;
}
