/* cg-js.c: the request as a Node.js program (CommonJS, so that `node file.js` runs it anywhere)
 * on the AWS SDK v3's @aws-sdk/client-dynamodb, whose AttributeValues are DynamoDB JSON with
 * Uint8Array for binary. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

static void
add_option (GString *s, gboolean *first, const char *name, const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (s, "%s%s: ", *first ? " " : ", ", name);
  ddb_quote_string (s, DDB_LANG_JS, value, strlen (value));
  *first = FALSE;
}

static void
add_quoted (GString *s, const char *text)
{
  ddb_quote_string (s, DDB_LANG_JS, text, strlen (text));
}

/* The Query once per suffix, all at once through Promise.all, which gives back the shards'
 * items in suffix order. */
static void
write_fanout (GString *s, const CgJob *job, const char *command)
{
  const CgFanout *f = job->fanout;

  g_string_append (s, "  const placeholder = ");
  add_quoted (s, f->placeholder);
  g_string_append (s, ";\n  const prefix = ");
  add_quoted (s, f->prefix);
  g_string_append_printf (s, ";\n  const suffixes = [];\n"
                             "  for (let n = %u; n <= %u; n++) suffixes.push(String(n).padStart(%u, "
                             "\"0\"));\n",
                          f->first, cg_fanout_last (f), f->width);
  g_string_append_printf (
      s,
      "  // The items of one shard, read to the end: each call reads at most 1 MB (or Limit "
      "items),\n"
      "  // then the Query goes on from LastEvaluatedKey.\n"
      "  async function queryShard(suffix) {\n"
      "    const shard = {\n"
      "      ...input,\n"
      "      ExpressionAttributeValues: {\n"
      "        ...input.ExpressionAttributeValues,\n"
      "        [placeholder]: { S: prefix + suffix },\n"
      "      },\n"
      "    };\n"
      "    const items = [];\n"
      "    for (;;) {\n"
      "      const output = await client.send(new %s(shard));\n"
      "      items.push(...(output.Items ?? []));\n"
      "      if (output.LastEvaluatedKey === undefined) return items;\n"
      "      shard.ExclusiveStartKey = output.LastEvaluatedKey;\n"
      "    }\n"
      "  }\n"
      "  // The shards' Queries in parallel; their items merged in suffix order, each shard's in "
      "the\n"
      "  // order its Query returns them (by the sort key).\n"
      "  const shards = await Promise.all(suffixes.map(queryShard));\n"
      "  for (const item of shards.flat()) console.log(show(item));\n",
      command);
}

char *
cg_write_js (const CgJob *job)
{
  const DdbCodegenTarget *t = job->target;
  g_autofree char *summary = cg_summary (job);
  g_autofree char *command = g_strdup_printf ("%sCommand", job->operation);
  g_autoptr (CgLit) request = cg_dynamic_request (job, DDB_LANG_JS);
  GString *s = g_string_new (NULL);
  gboolean first = TRUE;
  gboolean sleeps = job->flow == CG_READ_BATCH || job->flow == CG_WRITE_BATCH;

  g_string_append_printf (s,
                          "// %s\n"
                          "// npm install @aws-sdk/client-dynamodb, then: node this-file.js\n"
                          "const { DynamoDBClient, %s } = require(\"@aws-sdk/client-dynamodb\");\n\n",
                          summary, command);
  g_string_append (s, "const client = new DynamoDBClient({");
  add_option (s, &first, "region", t->region);
  add_option (s, &first, "endpoint", t->endpoint_url);
  add_option (s, &first, "profile", t->profile);
  g_string_append (s, first ? "});\n\n" : " });\n\n");
  g_string_append (s, "// JSON text of what DynamoDB returned, binary in base64 as in DynamoDB JSON.\n"
                      "function show(value) {\n"
                      "  return JSON.stringify(value, function (key, v) {\n"
                      "    const raw = this[key];\n"
                      "    return raw instanceof Uint8Array ? Buffer.from(raw).toString(\"base64\") "
                      ": v;\n"
                      "  });\n"
                      "}\n\n");
  if (sleeps)
    g_string_append (s, "const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));\n\n");
  g_string_append (s, "async function main() {\n  const input = ");
  cg_lit_write (s, request, "  ", 1, 100);
  g_string_append (s, ";\n");

  switch (job->flow)
    {
    case CG_READ_ITEM:
      g_string_append_printf (s,
                              "  const output = await client.send(new %s(input));\n"
                              "  console.log(show(output.Item ?? null));\n",
                              command);
      break;
    case CG_READ_PAGES:
      if (job->fanout != NULL)
        {
          write_fanout (s, job, command);
          break;
        }
      g_string_append_printf (s,
                              "  // Each call reads at most 1 MB (or Limit items): follow "
                              "LastEvaluatedKey to the end.\n"
                              "  for (;;) {\n"
                              "    const output = await client.send(new %s(input));\n",
                              command);
      if (cg_request_counts (job))
        g_string_append (s, "    console.log(output.Count);\n");
      else
        g_string_append (s, "    for (const item of output.Items ?? []) console.log(show(item));\n");
      g_string_append (s, "    if (output.LastEvaluatedKey === undefined) break;\n"
                          "    input.ExclusiveStartKey = output.LastEvaluatedKey;\n"
                          "  }\n");
      break;
    case CG_READ_BATCH:
      g_string_append_printf (s,
                              "  // Keys DynamoDB did not get to come back as UnprocessedKeys: ask "
                              "again, backing off.\n"
                              "  for (let attempt = 1; ; attempt++) {\n"
                              "    const output = await client.send(new %s(input));\n"
                              "    for (const [table, items] of Object.entries(output.Responses ?? "
                              "{})) {\n"
                              "      for (const item of items) console.log(table, show(item));\n"
                              "    }\n"
                              "    if (Object.keys(output.UnprocessedKeys ?? {}).length === 0) "
                              "break;\n"
                              "    await sleep(Math.min(50 * 2 ** attempt, 5000));\n"
                              "    input.RequestItems = output.UnprocessedKeys;\n"
                              "  }\n",
                              command);
      break;
    case CG_WRITE_BATCH:
      g_string_append_printf (s,
                              "  // Writes DynamoDB did not get to come back as UnprocessedItems: "
                              "send them again, backing off.\n"
                              "  for (let attempt = 1; ; attempt++) {\n"
                              "    const { $metadata, ...output } = await client.send(new "
                              "%s(input));\n"
                              "    console.log(show(output));\n"
                              "    if (Object.keys(output.UnprocessedItems ?? {}).length === 0) "
                              "break;\n"
                              "    await sleep(Math.min(50 * 2 ** attempt, 5000));\n"
                              "    input.RequestItems = output.UnprocessedItems;\n"
                              "  }\n",
                              command);
      break;
    case CG_READ_TRANSACT:
      g_string_append_printf (s,
                              "  const output = await client.send(new %s(input));\n"
                              "  for (const entry of output.Responses ?? []) "
                              "console.log(show(entry.Item ?? null));\n",
                              command);
      break;
    case CG_STATEMENT:
      g_string_append_printf (s,
                              "  // A SELECT reads at most 1 MB (or Limit items) a call: follow "
                              "NextToken to the end.\n"
                              "  for (;;) {\n"
                              "    const { $metadata, ...output } = await client.send(new "
                              "%s(input));\n"
                              "    console.log(show(output));\n"
                              "    if (output.NextToken === undefined) break;\n"
                              "    input.NextToken = output.NextToken;\n"
                              "  }\n",
                              command);
      break;
    case CG_WRITE:
      g_string_append_printf (s,
                              "  const { $metadata, ...output } = await client.send(new "
                              "%s(input));\n"
                              "  console.log(show(output));\n",
                              command);
      break;
    }
  g_string_append (s, "}\n\n"
                      "main().catch((error) => {\n"
                      "  console.error(`${error.name}: ${error.message}`);\n"
                      "  process.exitCode = 1;\n"
                      "});\n");
  return g_string_free (s, FALSE);
}
