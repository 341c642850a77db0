/* cg-python.c: the request as a Python 3 program on boto3's low-level client, whose
 * AttributeValues are DynamoDB JSON with bytes for binary. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

static void
add_quoted (GString *s, const char *text)
{
  ddb_quote_string (s, DDB_LANG_PYTHON, text, strlen (text));
}

char *
cg_write_python (const CgJob *job)
{
  const DdbCodegenTarget *t = job->target;
  g_autofree char *summary = cg_summary (job);
  g_autofree char *method = cg_words (job->operation, '_');
  g_autoptr (CgLit) request = cg_dynamic_request (job, DDB_LANG_PYTHON);
  GString *s = g_string_new (NULL);
  gboolean sleeps = job->flow == CG_READ_BATCH || job->flow == CG_WRITE_BATCH;

  g_string_append_printf (s, "#!/usr/bin/env python3\n# %s\n", summary);
  g_string_append (s, "import base64\nimport json\n");
  if (sleeps)
    g_string_append (s, "import time\n");
  g_string_append (s, "\nimport boto3\n\n");

  g_string_append (s, "session = boto3.Session(");
  if (t->profile != NULL)
    {
      g_string_append (s, "profile_name=");
      add_quoted (s, t->profile);
    }
  if (t->region != NULL)
    {
      g_string_append (s, t->profile != NULL ? ", region_name=" : "region_name=");
      add_quoted (s, t->region);
    }
  g_string_append (s, ")\nclient = session.client(\"dynamodb\"");
  if (t->endpoint_url != NULL)
    {
      g_string_append (s, ", endpoint_url=");
      add_quoted (s, t->endpoint_url);
    }
  g_string_append (s, ")\n\n\n"
                      "def show(value):\n"
                      "    \"\"\"JSON text of what DynamoDB returned, binary in base64 as in DynamoDB "
                      "JSON.\"\"\"\n"
                      "    return json.dumps(value, default=lambda b: "
                      "base64.b64encode(b).decode(\"ascii\"))\n\n\n");
  g_string_append (s, "request = ");
  cg_lit_write (s, request, "    ", 0, 88);
  g_string_append (s, "\n\n");

  switch (job->flow)
    {
    case CG_READ_ITEM:
      g_string_append_printf (s,
                              "response = client.%s(**request)\n"
                              "print(show(response.get(\"Item\")))\n",
                              method);
      break;
    case CG_READ_PAGES:
      g_string_append_printf (s,
                              "# Each call reads at most 1 MB (or Limit items): follow "
                              "LastEvaluatedKey to the end.\n"
                              "while True:\n"
                              "    response = client.%s(**request)\n",
                              method);
      if (cg_request_counts (job))
        g_string_append (s, "    print(response[\"Count\"])\n");
      else
        g_string_append (s, "    for item in response.get(\"Items\", []):\n"
                            "        print(show(item))\n");
      g_string_append (s, "    if \"LastEvaluatedKey\" not in response:\n"
                          "        break\n"
                          "    request[\"ExclusiveStartKey\"] = response[\"LastEvaluatedKey\"]\n");
      break;
    case CG_READ_BATCH:
      g_string_append_printf (s,
                              "# Keys DynamoDB did not get to come back as UnprocessedKeys: ask "
                              "again, backing off.\n"
                              "attempt = 0\n"
                              "while True:\n"
                              "    response = client.%s(**request)\n"
                              "    for table, items in response.get(\"Responses\", {}).items():\n"
                              "        for item in items:\n"
                              "            print(table, show(item))\n"
                              "    if not response.get(\"UnprocessedKeys\"):\n"
                              "        break\n"
                              "    attempt += 1\n"
                              "    time.sleep(min(0.05 * 2**attempt, 5))\n"
                              "    request[\"RequestItems\"] = response[\"UnprocessedKeys\"]\n",
                              method);
      break;
    case CG_WRITE_BATCH:
      g_string_append_printf (s,
                              "# Writes DynamoDB did not get to come back as UnprocessedItems: "
                              "send them again, backing off.\n"
                              "attempt = 0\n"
                              "while True:\n"
                              "    response = client.%s(**request)\n"
                              "    response.pop(\"ResponseMetadata\", None)\n"
                              "    print(show(response))\n"
                              "    if not response.get(\"UnprocessedItems\"):\n"
                              "        break\n"
                              "    attempt += 1\n"
                              "    time.sleep(min(0.05 * 2**attempt, 5))\n"
                              "    request[\"RequestItems\"] = response[\"UnprocessedItems\"]\n",
                              method);
      break;
    case CG_READ_TRANSACT:
      g_string_append_printf (s,
                              "response = client.%s(**request)\n"
                              "for entry in response[\"Responses\"]:\n"
                              "    print(show(entry.get(\"Item\")))\n",
                              method);
      break;
    case CG_STATEMENT:
      g_string_append_printf (s,
                              "# A SELECT reads at most 1 MB (or Limit items) a call: follow "
                              "NextToken to the end.\n"
                              "while True:\n"
                              "    response = client.%s(**request)\n"
                              "    response.pop(\"ResponseMetadata\", None)\n"
                              "    print(show(response))\n"
                              "    if \"NextToken\" not in response:\n"
                              "        break\n"
                              "    request[\"NextToken\"] = response[\"NextToken\"]\n",
                              method);
      break;
    case CG_WRITE:
      g_string_append_printf (s,
                              "response = client.%s(**request)\n"
                              "response.pop(\"ResponseMetadata\", None)\n"
                              "print(show(response))\n",
                              method);
      break;
    }
  return g_string_free (s, FALSE);
}
