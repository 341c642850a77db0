/* cg-go.c: the request as a Go program on the AWS SDK for Go v2: struct literals for every
 * structure, types.AttributeValueMember* for values (numbers as strings, binary as []byte). */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

static char *
key_prefix (const char *key)
{
  GString *t = g_string_new (NULL);

  ddb_quote_string (t, DDB_LANG_GO, key, strlen (key));
  g_string_append (t, ": ");
  return g_string_free (t, FALSE);
}

/* Every list of a Go program written on several lines, a call's arguments as a composite
 * literal's elements, ends with a comma: a line ending in a literal, an identifier, ")" or "}"
 * would end the statement there (Go's automatic semicolons). Every container is made here. */
static CgLit *
go_list (const char *open, const char *close)
{
  return cg_lit_container (open, close, TRUE);
}

static CgLit *item_lit (json_t *j, const char *open);

static CgLit *
value_lit (json_t *av)
{
  const char *type;
  json_t *v;

  json_object_foreach (av, type, v)
    {
      g_autofree char *open = g_strdup_printf ("&types.AttributeValueMember%s{", type);
      CgLit *c;
      CgLit *inner;

      if (json_is_null (v))
        continue;
      c = go_list (open, "}");
      if (strcmp (type, "S") == 0 || strcmp (type, "N") == 0)
        inner = cg_lit_json_string (DDB_LANG_GO, v);
      else if (strcmp (type, "B") == 0)
        inner = cg_lit_bytes (DDB_LANG_GO, v);
      else if (strcmp (type, "BOOL") == 0 || strcmp (type, "NULL") == 0)
        inner = cg_lit_raw (g_strdup (json_is_true (v) ? "true" : "false"));
      else if (strcmp (type, "M") == 0)
        inner = item_lit (v, "map[string]types.AttributeValue{");
      else
        {
          gsize i;
          json_t *e;

          inner = go_list (strcmp (type, "L") == 0    ? "[]types.AttributeValue{"
                           : strcmp (type, "BS") == 0 ? "[][]byte{"
                                                      : "[]string{",
                           "}");
          json_array_foreach (v, i, e)
            cg_lit_add (inner, NULL,
                        strcmp (type, "L") == 0    ? value_lit (e)
                        : strcmp (type, "BS") == 0 ? cg_lit_bytes (DDB_LANG_GO, e)
                                                   : cg_lit_json_string (DDB_LANG_GO, e),
                        NULL);
        }
      cg_lit_add (c, g_strdup ("Value: "), inner, NULL);
      return c;
    }
  g_return_val_if_reached (NULL); /* checked: one type */
}

static CgLit *
item_lit (json_t *j, const char *open)
{
  CgLit *map = go_list (open, "}");
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    cg_lit_add (map, key_prefix (key), value_lit (v), NULL);
  return map;
}

static CgLit *struct_lit (const CgShape *shape, json_t *j, const char *open);

/* The Go type of a structure's literal inside a container of them, where Go lets it be left
 * out ("{" for types.Put{ in []types.Put{...}). */
#define ELIDED "{"

static CgLit *
member_lit (const CgMember *m, json_t *j)
{
  const char *key;
  json_t *v;
  gsize i;
  CgLit *c;
  g_autofree char *open = NULL;

  switch (m->kind)
    {
    case CG_STRING:
      {
        CgLit *call = go_list ("aws.String(", ")");
        cg_lit_add (call, NULL, cg_lit_json_string (DDB_LANG_GO, j), NULL);
        return call;
      }
    case CG_ENUM:
      {
        g_autofree char *conv = g_strdup_printf ("types.%s(", m->type);
        CgLit *call = go_list (conv, ")");
        cg_lit_add (call, NULL, cg_lit_json_string (DDB_LANG_GO, j), NULL);
        return call;
      }
    case CG_INT:
      return cg_lit_rawf ("aws.Int32(%" JSON_INTEGER_FORMAT ")", json_integer_value (j));
    case CG_LONG:
      return cg_lit_rawf ("aws.Int64(%" JSON_INTEGER_FORMAT ")", json_integer_value (j));
    case CG_BOOL:
      return cg_lit_raw (g_strdup (json_is_true (j) ? "aws.Bool(true)" : "aws.Bool(false)"));
    case CG_VALUE:
      return value_lit (j);
    case CG_ITEM:
      return item_lit (j, "map[string]types.AttributeValue{");
    case CG_NAMES:
      c = go_list ("map[string]string{", "}");
      json_object_foreach (j, key, v)
        cg_lit_add (c, key_prefix (key), cg_lit_json_string (DDB_LANG_GO, v), NULL);
      return c;
    case CG_STRINGS:
    case CG_VALUES:
    case CG_ITEMS:
    case CG_STRUCT_LIST:
      open = m->kind == CG_STRINGS  ? g_strdup ("[]string{")
             : m->kind == CG_VALUES ? g_strdup ("[]types.AttributeValue{")
             : m->kind == CG_ITEMS  ? g_strdup ("[]map[string]types.AttributeValue{")
                                    : g_strdup_printf ("[]types.%s{", m->shape->name);
      c = go_list (open, "}");
      json_array_foreach (j, i, v)
        cg_lit_add (c, NULL,
                    m->kind == CG_STRINGS  ? cg_lit_json_string (DDB_LANG_GO, v)
                    : m->kind == CG_VALUES ? value_lit (v)
                    : m->kind == CG_ITEMS  ? item_lit (v, ELIDED)
                                           : struct_lit (m->shape, v, ELIDED),
                    NULL);
      return c;
    case CG_STRUCT:
      open = g_strdup_printf ("&types.%s{", m->shape->name);
      return struct_lit (m->shape, j, open);
    case CG_STRUCT_MAP:
    case CG_LIST_MAP:
      open = g_strdup_printf (m->kind == CG_LIST_MAP ? "map[string][]types.%s{"
                                                     : "map[string]types.%s{",
                              m->shape->name);
      c = go_list (open, "}");
      json_object_foreach (j, key, v)
        {
          CgLit *inner;

          if (m->kind == CG_LIST_MAP)
            {
              gsize n;
              json_t *e;

              inner = go_list (ELIDED, "}");
              json_array_foreach (v, n, e)
                cg_lit_add (inner, NULL, struct_lit (m->shape, e, ELIDED), NULL);
            }
          else
            inner = struct_lit (m->shape, v, ELIDED);
          cg_lit_add (c, key_prefix (key), inner, NULL);
        }
      return c;
    }
  g_return_val_if_reached (NULL);
}

static CgLit *
struct_lit (const CgShape *shape, json_t *j, const char *open)
{
  CgLit *c = go_list (open, "}");
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    cg_lit_add (c, g_strdup_printf ("%s: ", key), member_lit (cg_shape_member (shape, key), v),
                NULL);
  return c;
}

static const char show_helpers[]
    = "\n"
      "// show is the JSON text of an item, binary in base64 as in DynamoDB JSON.\n"
      "func show(item map[string]types.AttributeValue) string {\n"
      "\tm := map[string]any{}\n"
      "\tfor k, v := range item {\n"
      "\t\tm[k] = plain(v)\n"
      "\t}\n"
      "\ttext, err := json.Marshal(m)\n"
      "\tif err != nil {\n"
      "\t\tlog.Fatal(err)\n"
      "\t}\n"
      "\treturn string(text)\n"
      "}\n"
      "\n"
      "func plain(v types.AttributeValue) any {\n"
      "\tswitch v := v.(type) {\n"
      "\tcase *types.AttributeValueMemberS:\n"
      "\t\treturn map[string]any{\"S\": v.Value}\n"
      "\tcase *types.AttributeValueMemberN:\n"
      "\t\treturn map[string]any{\"N\": v.Value}\n"
      "\tcase *types.AttributeValueMemberB:\n"
      "\t\treturn map[string]any{\"B\": v.Value}\n"
      "\tcase *types.AttributeValueMemberBOOL:\n"
      "\t\treturn map[string]any{\"BOOL\": v.Value}\n"
      "\tcase *types.AttributeValueMemberNULL:\n"
      "\t\treturn map[string]any{\"NULL\": v.Value}\n"
      "\tcase *types.AttributeValueMemberM:\n"
      "\t\tm := map[string]any{}\n"
      "\t\tfor k, e := range v.Value {\n"
      "\t\t\tm[k] = plain(e)\n"
      "\t\t}\n"
      "\t\treturn map[string]any{\"M\": m}\n"
      "\tcase *types.AttributeValueMemberL:\n"
      "\t\tl := []any{}\n"
      "\t\tfor _, e := range v.Value {\n"
      "\t\t\tl = append(l, plain(e))\n"
      "\t\t}\n"
      "\t\treturn map[string]any{\"L\": l}\n"
      "\tcase *types.AttributeValueMemberSS:\n"
      "\t\treturn map[string]any{\"SS\": v.Value}\n"
      "\tcase *types.AttributeValueMemberNS:\n"
      "\t\treturn map[string]any{\"NS\": v.Value}\n"
      "\tcase *types.AttributeValueMemberBS:\n"
      "\t\treturn map[string]any{\"BS\": v.Value}\n"
      "\t}\n"
      "\treturn nil\n"
      "}\n";

/* TRUE when CODE refers to package PKG ("types."), outside string literals (a table named
 * "types.x" does not need the import, and Go refuses an unused one). */
static gboolean
uses (const char *code, const char *pkg)
{
  gsize n = strlen (pkg);

  for (const char *p = code; *p != '\0'; p++)
    {
      if (*p == '"')
        {
          for (p++; *p != '\0' && *p != '"'; p++)
            if (*p == '\\' && p[1] != '\0')
              p++;
          if (*p == '\0')
            break;
        }
      else if (strncmp (p, pkg, n) == 0 && (p == code || !g_ascii_isalnum (p[-1])))
        return TRUE;
    }
  return FALSE;
}

static void
add_option (GString *s, const char *function, const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (s, ", config.%s(", function);
  ddb_quote_string (s, DDB_LANG_GO, value, strlen (value));
  g_string_append_c (s, ')');
}

/* The Query once per suffix, one goroutine each, on a copy of the input with its own
 * ExpressionAttributeValues; the items are kept per suffix and printed in suffix order. */
static void
write_fanout (GString *body, const CgJob *job)
{
  const CgFanout *f = job->fanout;
  g_autofree char *format = f->width > 0 ? g_strdup_printf ("%%0%ud", f->width) : g_strdup ("%d");

  g_string_append (body, "\tconst placeholder = ");
  ddb_quote_string (body, DDB_LANG_GO, f->placeholder, strlen (f->placeholder));
  g_string_append (body, "\n\tconst prefix = ");
  ddb_quote_string (body, DDB_LANG_GO, f->prefix, strlen (f->prefix));
  g_string_append_printf (
      body,
      "\n\tvar suffixes []string\n"
      "\tfor n := %u; n <= %u; n++ {\n"
      "\t\tsuffixes = append(suffixes, fmt.Sprintf(\"%s\", n))\n"
      "\t}\n"
      "\t// The shards' Queries in parallel; their items merged in suffix order, each shard's in "
      "the\n"
      "\t// order its Query returns them (by the sort key).\n"
      "\tshards := make([][]map[string]types.AttributeValue, len(suffixes))\n"
      "\terrs := make([]error, len(suffixes))\n"
      "\tvar wg sync.WaitGroup\n"
      "\tfor i, suffix := range suffixes {\n"
      "\t\twg.Add(1)\n"
      "\t\tgo func(i int, suffix string) {\n"
      "\t\t\tdefer wg.Done()\n"
      "\t\t\tshard := *input\n"
      "\t\t\tshard.ExpressionAttributeValues = map[string]types.AttributeValue{}\n"
      "\t\t\tfor k, v := range input.ExpressionAttributeValues {\n"
      "\t\t\t\tshard.ExpressionAttributeValues[k] = v\n"
      "\t\t\t}\n"
      "\t\t\tshard.ExpressionAttributeValues[placeholder] = "
      "&types.AttributeValueMemberS{Value: prefix + suffix}\n"
      "\t\t\t// Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to the "
      "end.\n"
      "\t\t\tfor {\n"
      "\t\t\t\tout, err := client.Query(ctx, &shard)\n"
      "\t\t\t\tif err != nil {\n"
      "\t\t\t\t\terrs[i] = err\n"
      "\t\t\t\t\treturn\n"
      "\t\t\t\t}\n"
      "\t\t\t\tshards[i] = append(shards[i], out.Items...)\n"
      "\t\t\t\tif out.LastEvaluatedKey == nil {\n"
      "\t\t\t\t\treturn\n"
      "\t\t\t\t}\n"
      "\t\t\t\tshard.ExclusiveStartKey = out.LastEvaluatedKey\n"
      "\t\t\t}\n"
      "\t\t}(i, suffix)\n"
      "\t}\n"
      "\twg.Wait()\n"
      "\tfor i, items := range shards {\n"
      "\t\tif errs[i] != nil {\n"
      "\t\t\tlog.Fatal(errs[i])\n"
      "\t\t}\n"
      "\t\tfor _, item := range items {\n"
      "\t\t\tfmt.Println(show(item))\n"
      "\t\t}\n"
      "\t}\n",
      f->first, cg_fanout_last (f), format);
}

char *
cg_write_go (const CgJob *job)
{
  const DdbCodegenTarget *t = job->target;
  g_autofree char *summary = cg_summary (job);
  g_autofree char *open = g_strdup_printf ("&dynamodb.%sInput{", job->operation);
  g_autoptr (CgLit) input = struct_lit (job->shape, job->request, open);
  g_autoptr (GString) body = g_string_new (NULL);
  GString *s = g_string_new (NULL);
  const char *op = job->operation;
  gboolean sleeps = job->flow == CG_READ_BATCH || job->flow == CG_WRITE_BATCH;
  /* The table operations answer with a description, not items: printed as JSON. */
  const char *described = strcmp (op, "UpdateTimeToLive") == 0 ? "TimeToLiveSpecification"
                          : g_str_has_suffix (op, "Table")      ? "TableDescription"
                                                                : NULL;
  gboolean shows = job->flow != CG_WRITE_BATCH && strcmp (op, "TransactWriteItems") != 0
                   && !(job->flow == CG_READ_PAGES && cg_request_counts (job))
                   && described == NULL;

  g_string_append (body, "\tinput := ");
  cg_lit_write (body, input, "\t", 1, 100);
  g_string_append (body, "\n");
  switch (job->flow)
    {
    case CG_READ_ITEM:
      g_string_append_printf (body,
                              "\tout, err := client.%s(ctx, input)\n"
                              "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n"
                              "\tfmt.Println(show(out.Item))\n",
                              op);
      break;
    case CG_READ_PAGES:
      if (job->fanout != NULL)
        {
          write_fanout (body, job);
          break;
        }
      g_string_append_printf (body,
                              "\t// Each call reads at most 1 MB (or Limit items): follow "
                              "LastEvaluatedKey to the end.\n"
                              "\tfor {\n"
                              "\t\tout, err := client.%s(ctx, input)\n"
                              "\t\tif err != nil {\n\t\t\tlog.Fatal(err)\n\t\t}\n",
                              op);
      if (cg_request_counts (job))
        g_string_append (body, "\t\tfmt.Println(out.Count)\n");
      else
        g_string_append (body, "\t\tfor _, item := range out.Items {\n"
                               "\t\t\tfmt.Println(show(item))\n"
                               "\t\t}\n");
      g_string_append (body, "\t\tif out.LastEvaluatedKey == nil {\n\t\t\tbreak\n\t\t}\n"
                             "\t\tinput.ExclusiveStartKey = out.LastEvaluatedKey\n"
                             "\t}\n");
      break;
    case CG_READ_BATCH:
      g_string_append_printf (body,
                              "\t// Keys DynamoDB did not get to come back as UnprocessedKeys: ask "
                              "again, backing off.\n"
                              "\tfor attempt := 1; ; attempt++ {\n"
                              "\t\tout, err := client.%s(ctx, input)\n"
                              "\t\tif err != nil {\n\t\t\tlog.Fatal(err)\n\t\t}\n"
                              "\t\tfor table, items := range out.Responses {\n"
                              "\t\t\tfor _, item := range items {\n"
                              "\t\t\t\tfmt.Println(table, show(item))\n"
                              "\t\t\t}\n"
                              "\t\t}\n"
                              "\t\tif len(out.UnprocessedKeys) == 0 {\n\t\t\tbreak\n\t\t}\n"
                              "\t\ttime.Sleep(min(50*time.Millisecond<<attempt, 5*time.Second))\n"
                              "\t\tinput.RequestItems = out.UnprocessedKeys\n"
                              "\t}\n",
                              op);
      break;
    case CG_WRITE_BATCH:
      g_string_append_printf (body,
                              "\t// Writes DynamoDB did not get to come back as UnprocessedItems: "
                              "send them again, backing off.\n"
                              "\tfor attempt := 1; ; attempt++ {\n"
                              "\t\tout, err := client.%s(ctx, input)\n"
                              "\t\tif err != nil {\n\t\t\tlog.Fatal(err)\n\t\t}\n"
                              "\t\tfmt.Printf(\"%%+v\\n\", out.ConsumedCapacity)\n"
                              "\t\tif len(out.UnprocessedItems) == 0 {\n\t\t\tbreak\n\t\t}\n"
                              "\t\ttime.Sleep(min(50*time.Millisecond<<attempt, 5*time.Second))\n"
                              "\t\tinput.RequestItems = out.UnprocessedItems\n"
                              "\t}\n",
                              op);
      break;
    case CG_READ_TRANSACT:
      g_string_append_printf (body,
                              "\tout, err := client.%s(ctx, input)\n"
                              "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n"
                              "\tfor _, entry := range out.Responses {\n"
                              "\t\tfmt.Println(show(entry.Item))\n"
                              "\t}\n",
                              op);
      break;
    case CG_STATEMENT:
      g_string_append_printf (body,
                              "\t// A SELECT reads at most 1 MB (or Limit items) a call: follow "
                              "NextToken to the end.\n"
                              "\tfor {\n"
                              "\t\tout, err := client.%s(ctx, input)\n"
                              "\t\tif err != nil {\n\t\t\tlog.Fatal(err)\n\t\t}\n"
                              "\t\tfor _, item := range out.Items {\n"
                              "\t\t\tfmt.Println(show(item))\n"
                              "\t\t}\n"
                              "\t\tif out.NextToken == nil {\n\t\t\tbreak\n\t\t}\n"
                              "\t\tinput.NextToken = out.NextToken\n"
                              "\t}\n",
                              op);
      break;
    case CG_WRITE:
      g_string_append_printf (body,
                              "\tout, err := client.%s(ctx, input)\n"
                              "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n",
                              op);
      if (strcmp (op, "TransactWriteItems") == 0)
        g_string_append (body, "\tfmt.Printf(\"%+v\\n\", out.ConsumedCapacity)\n");
      else if (strcmp (op, "BatchExecuteStatement") == 0)
        g_string_append (body, "\t// Each statement succeeds or fails on its own.\n"
                               "\tfor _, entry := range out.Responses {\n"
                               "\t\tif entry.Error != nil {\n"
                               "\t\t\tfmt.Println(entry.Error.Code, aws.ToString(entry.Error.Message))\n"
                               "\t\t} else {\n"
                               "\t\t\tfmt.Println(show(entry.Item))\n"
                               "\t\t}\n"
                               "\t}\n");
      else if (strcmp (op, "ExecuteTransaction") == 0)
        g_string_append (body, "\tfor _, entry := range out.Responses {\n"
                               "\t\tfmt.Println(show(entry.Item))\n"
                               "\t}\n");
      else if (described != NULL)
        g_string_append_printf (body,
                                "\ttext, err := json.MarshalIndent(out.%s, \"\", \"  \")\n"
                                "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n"
                                "\tfmt.Println(string(text))\n",
                                described);
      else
        g_string_append (body, "\tfmt.Println(show(out.Attributes))\n");
      break;
    }

  g_string_append_printf (s, "// %s\n// go get github.com/aws/aws-sdk-go-v2/config "
                             "github.com/aws/aws-sdk-go-v2/service/dynamodb, then: go run .\n"
                             "package main\n\nimport (\n\t\"context\"\n",
                          summary);
  if (shows || described != NULL)
    g_string_append (s, "\t\"encoding/json\"\n");
  g_string_append (s, "\t\"fmt\"\n\t\"log\"\n");
  if (job->fanout != NULL)
    g_string_append (s, "\t\"sync\"\n");
  if (sleeps)
    g_string_append (s, "\t\"time\"\n");
  g_string_append (s, "\n");
  if (uses (body->str, "aws.") || t->endpoint_url != NULL)
    g_string_append (s, "\t\"github.com/aws/aws-sdk-go-v2/aws\"\n");
  g_string_append (s, "\t\"github.com/aws/aws-sdk-go-v2/config\"\n"
                      "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n");
  if (shows || uses (body->str, "types."))
    g_string_append (s, "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n");
  g_string_append (s, ")\n\nfunc main() {\n"
                      "\tctx := context.Background()\n"
                      "\tcfg, err := config.LoadDefaultConfig(ctx");
  add_option (s, "WithSharedConfigProfile", t->profile);
  add_option (s, "WithRegion", t->region);
  g_string_append (s, ")\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n");
  if (t->endpoint_url != NULL)
    {
      g_string_append (s, "\tclient := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {\n"
                          "\t\to.BaseEndpoint = aws.String(");
      ddb_quote_string (s, DDB_LANG_GO, t->endpoint_url, strlen (t->endpoint_url));
      g_string_append (s, ")\n\t})\n");
    }
  else
    g_string_append (s, "\tclient := dynamodb.NewFromConfig(cfg)\n");
  g_string_append_len (s, body->str, body->len);
  g_string_append (s, "}\n");
  if (shows)
    g_string_append (s, show_helpers);
  return g_string_free (s, FALSE);
}
