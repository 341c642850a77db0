/* cg-cli.c: the request as a bash script for the AWS CLI v2: the request JSON is the CLI's own
 * --cli-input-json (blobs in base64, as on the wire), read into a variable from a
 * here-document whose quoted delimiter keeps the shell from expanding anything in it (`read`,
 * not a command substitution, whose parsing of here-documents older bash versions get wrong).
 * The JSON escapes every control character, so none of its lines can be the delimiter line or
 * hide text. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

static void
add_option (GString *s, const char *option, const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (s, "  %s ", option);
  ddb_quote_string (s, DDB_LANG_CLI, value, strlen (value));
  g_string_append (s, " \\\n");
}

/* The fan-out's ExpressionAttributeValues as bash text in two parts, the JSON before and after
 * the suffix in the placeholder's string: the suffix is digits, which JSON takes as they are. */
static void
add_values_parts (GString *s, const CgJob *job)
{
  const CgFanout *f = job->fanout;
  json_t *values = json_object_get (job->request, "ExpressionAttributeValues");
  g_autoptr (GString) head = g_string_new ("{");
  g_autoptr (GString) tail = g_string_new (NULL);
  GString *part = head;
  const char *key;
  json_t *v;
  gboolean first = TRUE;

  json_object_foreach (values, key, v)
    {
      if (!first)
        g_string_append (part, ", ");
      first = FALSE;
      cg_json_string (part, key, strlen (key));
      g_string_append (part, ": ");
      if (strcmp (key, f->placeholder) == 0)
        {
          g_string_append (part, "{\"S\": ");
          cg_json_string (part, f->prefix, strlen (f->prefix));
          g_string_truncate (part, part->len - 1); /* the closing quote comes after the suffix */
          part = tail;
          g_string_append (part, "\"}");
        }
      else
        {
          gsize from = part->len, to = from;

          /* On one line: the JSON's only line ends are its layout's (strings escape theirs). */
          cg_json_pretty (part, v, "", 0);
          for (gsize i = from; i < part->len; i++)
            if (part->str[i] != '\n')
              part->str[to++] = part->str[i];
          g_string_truncate (part, to);
        }
    }
  g_string_append_c (tail, '}');
  g_string_append (s, "values_before=");
  ddb_quote_string (s, DDB_LANG_CLI, head->str, head->len);
  g_string_append (s, "\nvalues_after=");
  ddb_quote_string (s, DDB_LANG_CLI, tail->str, tail->len);
  g_string_append_c (s, '\n');
}

char *
cg_write_cli (const CgJob *job)
{
  const DdbCodegenTarget *t = job->target;
  g_autofree char *summary = cg_summary (job);
  g_autofree char *command = cg_words (job->operation, '-');
  g_autoptr (GString) json = g_string_new (NULL);
  GString *s = g_string_new (NULL);
  const char *query = NULL;
  json_auto_t *input = NULL;
  json_int_t page_size = 0;

  switch (job->flow)
    {
    case CG_READ_ITEM: query = "Item"; break;
    case CG_READ_PAGES: query = cg_request_counts (job) ? "Count" : "Items"; break;
    case CG_READ_BATCH:
    case CG_READ_TRANSACT: query = "Responses"; break;
    case CG_STATEMENT:
    case CG_WRITE_BATCH:
    case CG_WRITE: break;
    }
  g_string_append_printf (s, "#!/usr/bin/env bash\n# %s\n", summary);
  if (job->flow == CG_READ_PAGES)
    g_string_append (s, "# The AWS CLI follows LastEvaluatedKey itself and prints the items of "
                        "every page.\n");
  if (job->fanout != NULL)
    {
      /* The command line's --expression-attribute-values stands in for the input's. */
      g_string_append (s, "# One Query per suffix, one after another: one JSON array of items "
                          "per suffix, in suffix\n# order, each in the order its Query returns "
                          "them (by the sort key).\n");
      input = json_deep_copy (job->request);
      json_object_del (input, "ExpressionAttributeValues");
    }
  else if (job->flow == CG_WRITE_BATCH)
    g_string_append (s, "# Whatever DynamoDB did not get to comes back as UnprocessedItems: send "
                        "those again.\n");
  else if (job->flow == CG_READ_BATCH)
    g_string_append (s, "# Keys DynamoDB did not get to are not printed here: see "
                        "UnprocessedKeys without --query.\n");
  /* With Limit in its input the CLI stops after that many items; as --page-size it asks for that
   * many a call and still follows LastEvaluatedKey, as the other languages' programs do. */
  if (job->flow == CG_READ_PAGES && json_object_get (job->request, "Limit") != NULL)
    {
      page_size = json_integer_value (json_object_get (job->request, "Limit"));
      if (input == NULL)
        input = json_deep_copy (job->request);
      json_object_del (input, "Limit");
      g_string_append (s, "# Limit is given as --page-size: items a call, not items in all.\n");
    }
  g_string_append (s, "set -euo pipefail\n\nIFS= read -r -d '' request <<'JSON' || true\n");
  cg_json_pretty (json, input != NULL ? input : job->request, "  ", 0);
  g_string_append_len (s, json->str, json->len);
  if (job->flow == CG_STATEMENT)
    {
      /* The CLI does not page ExecuteStatement: the loop passes each NextToken back. A token
       * holding a quote or a backslash would not match the pattern: then it stops loudly. A
       * string in the JSON holds no raw newline, so no item's text can pass for the member. */
      g_string_append (s, "\n"
                          "JSON\n"
                          "\n"
                          "# A SELECT reads at most 1 MB (or Limit items) a call: follow NextToken to the end.\n"
                          "# The response's own members are the ones indented by four spaces.\n"
                          "next=$'\\n    \"NextToken\": \"([^\"\\\\\\\\]*)\"'\n"
                          "token=()\n"
                          "while :; do\n"
                          "  page=$(aws dynamodb execute-statement \\\n");
      add_option (s, "  --endpoint-url", t->endpoint_url);
      add_option (s, "  --profile", t->profile);
      add_option (s, "  --region", t->region);
      g_string_append (s, "    --output json \\\n"
                          "    --no-cli-pager \\\n"
                          "    --cli-input-json \"$request\" ${token[@]+\"${token[@]}\"})\n"
                          "  printf '%s\\n' \"$page\"\n"
                          "  if [[ $page =~ $next ]]; then\n"
                          "    token=(--next-token \"${BASH_REMATCH[1]}\")\n"
                          "  elif [[ $page == *$'\\n    \"NextToken\": '* ]]; then\n"
                          "    echo 'NextToken not understood: stopping here' >&2\n"
                          "    exit 1\n"
                          "  else\n"
                          "    break\n"
                          "  fi\n"
                          "done\n");
      return g_string_free (s, FALSE);
    }
  if (job->fanout != NULL)
    {
      const CgFanout *f = job->fanout;
      g_autofree char *format = f->width > 0 ? g_strdup_printf ("%%0%ud", f->width)
                                             : g_strdup ("%d");

      g_string_append (s, "\nJSON\n\n");
      add_values_parts (s, job);
      g_string_append_printf (s, "\nfor ((n = %u; n <= %u; n++)); do\n"
                                 "  printf -v suffix '%s' \"$n\"\n"
                                 "  aws dynamodb %s \\\n",
                              f->first, cg_fanout_last (f), format, command);
    }
  else
    g_string_append_printf (s, "\nJSON\n\naws dynamodb %s \\\n", command);
  add_option (s, job->fanout != NULL ? "  --endpoint-url" : "--endpoint-url", t->endpoint_url);
  add_option (s, job->fanout != NULL ? "  --profile" : "--profile", t->profile);
  add_option (s, job->fanout != NULL ? "  --region" : "--region", t->region);
  {
    const char *pad = job->fanout != NULL ? "    " : "  ";

    if (query != NULL)
      g_string_append_printf (s, "%s--query %s \\\n", pad, query);
    if (page_size > 0)
      g_string_append_printf (s, "%s--page-size %" JSON_INTEGER_FORMAT " \\\n", pad,
                              page_size);
    g_string_append_printf (s, "%s--output json \\\n%s--no-cli-pager \\\n"
                               "%s--cli-input-json \"$request\"",
                            pad, pad, pad);
  }
  if (job->fanout != NULL)
    g_string_append (s, " \\\n    --expression-attribute-values "
                        "\"$values_before$suffix$values_after\"\ndone\n");
  else
    g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}
