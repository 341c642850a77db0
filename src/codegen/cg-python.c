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

/* The Query once per suffix on a thread pool (boto3's clients are thread-safe); map() gives
 * back the shards' items in suffix order. */
static void
write_fanout (GString *s, const CgJob *job, const char *method)
{
  const CgFanout *f = job->fanout;

  g_string_append (s, "PLACEHOLDER = ");
  add_quoted (s, f->placeholder);
  g_string_append (s, "\nPREFIX = ");
  add_quoted (s, f->prefix);
  g_string_append_printf (s, "\nSUFFIXES = [str(n).zfill(%u) for n in range(%u, %u + 1)]\n\n\n",
                          f->width, f->first, cg_fanout_last (f));
  g_string_append_printf (
      s,
      "def query_shard(suffix):\n"
      "    \"\"\"The items of one shard, read to the end: each call reads at most 1 MB (or "
      "Limit items),\n"
      "    then the Query goes on from LastEvaluatedKey.\"\"\"\n"
      "    shard = dict(request)\n"
      "    shard[\"ExpressionAttributeValues\"] = dict(request[\"ExpressionAttributeValues\"])\n"
      "    shard[\"ExpressionAttributeValues\"][PLACEHOLDER] = {\"S\": PREFIX + suffix}\n"
      "    items = []\n"
      "    while True:\n"
      "        response = client.%s(**shard)\n"
      "        items.extend(response.get(\"Items\", []))\n"
      "        if \"LastEvaluatedKey\" not in response:\n"
      "            return items\n"
      "        shard[\"ExclusiveStartKey\"] = response[\"LastEvaluatedKey\"]\n"
      "\n\n"
      "# The shards' Queries in parallel; their items merged in suffix order, each shard's in "
      "the\n"
      "# order its Query returns them (by the sort key).\n"
      "with concurrent.futures.ThreadPoolExecutor(max_workers=min(len(SUFFIXES), 16)) as pool:\n"
      "    for items in pool.map(query_shard, SUFFIXES):\n"
      "        for item in items:\n"
      "            print(show(item))\n",
      method);
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
  if (job->fanout != NULL)
    g_string_append (s, "import base64\nimport concurrent.futures\nimport json\n");
  else
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
      if (job->fanout != NULL)
        {
          write_fanout (s, job, method);
          break;
        }
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
