/* cg-rust.c: the request as a Rust program on aws-sdk-dynamodb: the client's fluent builder, a
 * builder per structure, AttributeValue variants for values (numbers as strings, binary as
 * Blob). */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

typedef struct {
  GHashTable *types; /* the names of aws_sdk_dynamodb::types the program uses */
  gboolean blob;
  gboolean hashmap;
} Uses;

static CgLit *
str_lit (const char *s, gsize len, gboolean owned)
{
  GString *t = g_string_new (NULL);

  ddb_quote_string (t, DDB_LANG_RUST, s, len);
  if (owned)
    g_string_append (t, ".to_string()");
  return cg_lit_raw (g_string_free (t, FALSE));
}

static CgLit *
json_str_lit (json_t *j, gboolean owned)
{
  return str_lit (json_string_value (j), json_string_length (j), owned);
}

static CgLit *
bytes_lit (Uses *u, json_t *j)
{
  u->blob = TRUE;
  return cg_lit_bytes (DDB_LANG_RUST, j);
}

static char *
quoted (const char *key, const char *before, const char *after)
{
  GString *t = g_string_new (before);

  ddb_quote_string (t, DDB_LANG_RUST, key, strlen (key));
  g_string_append (t, after);
  return g_string_free (t, FALSE);
}

static CgLit *item_map (Uses *u, json_t *j);

static CgLit *
value_lit (Uses *u, json_t *av)
{
  static const struct {
    const char *type, *variant;
  } variants[] = {
    { "S", "S" }, { "N", "N" }, { "B", "B" }, { "BOOL", "Bool" }, { "NULL", "Null" },
    { "M", "M" }, { "L", "L" }, { "SS", "Ss" }, { "NS", "Ns" }, { "BS", "Bs" },
  };
  const char *type;
  json_t *v;

  g_hash_table_add (u->types, "AttributeValue");
  json_object_foreach (av, type, v)
    {
      const char *variant = NULL;
      g_autofree char *open = NULL;
      CgLit *c;
      CgLit *inner;

      if (json_is_null (v))
        continue;
      for (gsize i = 0; i < G_N_ELEMENTS (variants); i++)
        if (strcmp (variants[i].type, type) == 0)
          variant = variants[i].variant;
      g_assert (variant != NULL); /* checked */
      open = g_strdup_printf ("AttributeValue::%s(", variant);
      c = cg_lit_container (open, ")", FALSE);
      if (strcmp (type, "S") == 0 || strcmp (type, "N") == 0)
        inner = json_str_lit (v, TRUE);
      else if (strcmp (type, "B") == 0)
        inner = bytes_lit (u, v);
      else if (strcmp (type, "BOOL") == 0 || strcmp (type, "NULL") == 0)
        inner = cg_lit_raw (g_strdup (json_is_true (v) ? "true" : "false"));
      else if (strcmp (type, "M") == 0)
        inner = item_map (u, v);
      else
        {
          gsize i;
          json_t *e;

          inner = cg_lit_container ("vec![", "]", TRUE);
          json_array_foreach (v, i, e)
            cg_lit_add (inner, NULL,
                        strcmp (type, "L") == 0    ? value_lit (u, e)
                        : strcmp (type, "BS") == 0 ? bytes_lit (u, e)
                                                   : json_str_lit (e, TRUE),
                        NULL);
        }
      cg_lit_add (c, NULL, inner, NULL);
      return c;
    }
  g_return_val_if_reached (NULL);
}

/* HashMap::from([(k, v), ...]) of an item (a value of type M, or a list's element). */
static CgLit *
item_map (Uses *u, json_t *j)
{
  const char *key;
  json_t *v;
  CgLit *c;

  u->hashmap = TRUE;
  if (json_object_size (j) == 0)
    return cg_lit_raw (g_strdup ("HashMap::new()"));
  c = cg_lit_container ("HashMap::from([", "])", TRUE);
  json_object_foreach (j, key, v)
    cg_lit_add (c, quoted (key, "(", ".to_string(), "), value_lit (u, v), ")");
  return c;
}

static CgLit *struct_lit (Uses *u, const CgShape *shape, json_t *j);

static CgLit *
vec_of_structs (Uses *u, const CgShape *shape, json_t *j)
{
  CgLit *c = cg_lit_container ("vec![", "]", TRUE);
  gsize i;
  json_t *e;

  json_array_foreach (j, i, e)
    cg_lit_add (c, NULL, struct_lit (u, shape, e), NULL);
  return c;
}

/* The builder calls setting member M to J: one call per entry for maps and lists (the SDK's
 * builders add one entry a call), set_x(Some(HashMap::new())) for an empty item. */
static void
member_calls (Uses *u, CgLit *chain, const CgMember *m, json_t *j)
{
  g_autofree char *method = cg_words (m->name, '_');
  const char *key;
  json_t *v;
  gsize i;

  switch (m->kind)
    {
    case CG_STRING:
      cg_lit_add (chain, g_strdup_printf (".%s(", method), json_str_lit (j, FALSE), ")");
      return;
    case CG_ENUM:
      g_hash_table_add (u->types, (gpointer) m->type);
      cg_lit_add (chain, g_strdup_printf (".%s(%s::from(", method, m->type),
                  json_str_lit (j, FALSE), "))");
      return;
    case CG_INT:
    case CG_LONG:
      cg_lit_add (chain,
                  g_strdup_printf (".%s(%" JSON_INTEGER_FORMAT ")", method, json_integer_value (j)),
                  NULL, NULL);
      return;
    case CG_BOOL:
      cg_lit_add (chain, g_strdup_printf (".%s(%s)", method, json_is_true (j) ? "true" : "false"),
                  NULL, NULL);
      return;
    case CG_VALUE:
      cg_lit_add (chain, g_strdup_printf (".%s(", method), value_lit (u, j), ")");
      return;
    case CG_ITEM:
    case CG_NAMES:
      if (json_object_size (j) == 0)
        {
          u->hashmap = TRUE;
          cg_lit_add (chain, g_strdup_printf (".set_%s(Some(HashMap::new()))", method), NULL,
                      NULL);
          return;
        }
      json_object_foreach (j, key, v)
        {
          g_autofree char *before = g_strdup_printf (".%s(", method);
          cg_lit_add (chain, quoted (key, before, ", "),
                      m->kind == CG_ITEM ? value_lit (u, v) : json_str_lit (v, FALSE), ")");
        }
      return;
    case CG_STRINGS:
    case CG_VALUES:
    case CG_ITEMS:
    case CG_STRUCT_LIST:
      json_array_foreach (j, i, v)
        cg_lit_add (chain, g_strdup_printf (".%s(", method),
                    m->kind == CG_STRINGS  ? json_str_lit (v, FALSE)
                    : m->kind == CG_VALUES ? value_lit (u, v)
                    : m->kind == CG_ITEMS  ? item_map (u, v)
                                           : struct_lit (u, m->shape, v),
                    ")");
      return;
    case CG_STRUCT:
      cg_lit_add (chain, g_strdup_printf (".%s(", method), struct_lit (u, m->shape, j), ")");
      return;
    case CG_STRUCT_MAP:
    case CG_LIST_MAP:
      json_object_foreach (j, key, v)
        {
          g_autofree char *before = g_strdup_printf (".%s(", method);
          cg_lit_add (chain, quoted (key, before, ", "),
                      m->kind == CG_LIST_MAP ? vec_of_structs (u, m->shape, v)
                                             : struct_lit (u, m->shape, v),
                      ")");
        }
      return;
    }
}

static void
builder_calls (Uses *u, CgLit *chain, const CgShape *shape, json_t *j)
{
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    member_calls (u, chain, cg_shape_member (shape, key), v);
}

static CgLit *
struct_lit (Uses *u, const CgShape *shape, json_t *j)
{
  g_autofree char *head = g_strdup_printf ("%s::builder()", shape->name);
  /* Builders of structures with required members check them: build() gives a Result. */
  CgLit *chain = cg_lit_chain (head, shape->required ? ".build()?" : ".build()");

  g_hash_table_add (u->types, (gpointer) shape->name);
  builder_calls (u, chain, shape, j);
  return chain;
}

/* The request's lists whose elements carry items or statements (TransactItems, Statements,
 * TransactStatements) are built by a function of their own, outside the async `main`: rustc
 * takes minutes over a long list written inline there (100 TransactItems: about 170 s to
 * check; in a plain function, about 4 s). */
static gboolean
built_apart (const CgMember *m)
{
  return m->kind == CG_STRUCT_LIST
         && (strcmp (m->name, "TransactItems") == 0 || strcmp (m->name, "Statements") == 0
             || strcmp (m->name, "TransactStatements") == 0);
}

/* The request's builder calls, and into FUNCTIONS the functions of the lists built apart. */
static void
request_calls (Uses *u, CgLit *chain, const CgShape *shape, json_t *j, GString *functions)
{
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    {
      const CgMember *m = cg_shape_member (shape, key);
      g_autofree char *method = NULL;

      if (!built_apart (m))
        {
          member_calls (u, chain, m, v);
          continue;
        }
      method = cg_words (m->name, '_');
      {
        g_autoptr (CgLit) list = vec_of_structs (u, m->shape, v);

        g_string_append_printf (functions,
                                "fn %s() -> Result<Vec<%s>, Box<dyn std::error::Error>> {\n"
                                "    Ok(",
                                method, m->shape->name);
        cg_lit_write (functions, list, "    ", 1, 100);
        g_string_append (functions, ")\n}\n\n");
      }
      cg_lit_add (chain, g_strdup_printf (".set_%s(Some(%s()?))", method, method), NULL, NULL);
    }
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
add_config (GString *s, const char *method, const char *value, const char *wrap_open,
            const char *wrap_close)
{
  if (value == NULL)
    return;
  g_string_append_printf (s, "        .%s(%s", method, wrap_open);
  ddb_quote_string (s, DDB_LANG_RUST, value, strlen (value));
  g_string_append_printf (s, "%s)\n", wrap_close);
}

/* The Query once per suffix, one tokio task each on a clone of the request with the
 * placeholder's value replaced; the tasks are awaited, and their items printed, in suffix
 * order. */
static void
write_fanout (GString *body, const CgJob *job)
{
  const CgFanout *f = job->fanout;
  g_autofree char *format = f->width > 0 ? g_strdup_printf ("{n:0%u}", f->width)
                                         : g_strdup ("{n}");

  g_string_append (body, "    let placeholder = ");
  ddb_quote_string (body, DDB_LANG_RUST, f->placeholder, strlen (f->placeholder));
  g_string_append (body, ";\n    let prefix = ");
  ddb_quote_string (body, DDB_LANG_RUST, f->prefix, strlen (f->prefix));
  g_string_append_printf (
      body,
      ";\n"
      "    // The shards' Queries in parallel; their items merged in suffix order, each shard's in "
      "the\n"
      "    // order its Query returns them (by the sort key).\n"
      "    let mut tasks = Vec::new();\n"
      "    for n in %uu64..=%uu64 {\n"
      "        let shard = request\n"
      "            .clone()\n"
      "            .expression_attribute_values(placeholder, AttributeValue::S(format!(\"{prefix}%s\")));\n"
      "        tasks.push(tokio::spawn(async move {\n"
      "            // Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to "
      "the end.\n"
      "            let mut items = Vec::new();\n"
      "            let mut start_key = None;\n"
      "            loop {\n"
      "                let output = shard\n"
      "                    .clone()\n"
      "                    .set_exclusive_start_key(start_key)\n"
      "                    .send()\n"
      "                    .await\n"
      "                    .map_err(aws_sdk_dynamodb::Error::from)?;\n"
      "                items.extend(output.items().iter().cloned());\n"
      "                start_key = output.last_evaluated_key().cloned();\n"
      "                if start_key.is_none() {\n"
      "                    break;\n"
      "                }\n"
      "            }\n"
      "            Ok::<_, aws_sdk_dynamodb::Error>(items)\n"
      "        }));\n"
      "    }\n"
      "    for task in tasks {\n"
      "        for item in task.await?? {\n"
      "            println!(\"{item:?}\");\n"
      "        }\n"
      "    }\n",
      f->first, cg_fanout_last (f), format);
}

char *
cg_write_rust (const CgJob *job)
{
  const DdbCodegenTarget *t = job->target;
  g_autofree char *summary = cg_summary (job);
  g_autofree char *method = cg_words (job->operation, '_');
  g_autofree char *head = g_strdup_printf ("client.%s()", method);
  Uses u = { g_hash_table_new (g_str_hash, g_str_equal), FALSE, FALSE };
  g_autoptr (CgLit) request = cg_lit_chain (head, "");
  g_autoptr (GString) body = g_string_new (NULL);
  g_autoptr (GString) functions = g_string_new (NULL);
  g_autoptr (GPtrArray) names = NULL;
  GString *s = g_string_new (NULL);
  gboolean sleeps = job->flow == CG_READ_BATCH || job->flow == CG_WRITE_BATCH;

  request_calls (&u, request, job->shape, job->request, functions);
  g_string_append (body, "    let request = ");
  cg_lit_write (body, request, "    ", 1, 100);
  g_string_append (body, ";\n");
  switch (job->flow)
    {
    case CG_READ_ITEM:
      g_string_append (body, "    let output = request.send().await?;\n"
                             "    println!(\"{:?}\", output.item());\n");
      break;
    case CG_READ_PAGES:
      if (job->fanout != NULL)
        {
          g_hash_table_add (u.types, (gpointer) "AttributeValue");
          write_fanout (body, job);
          break;
        }
      g_string_append (body, "    // Each call reads at most 1 MB (or Limit items): follow "
                             "LastEvaluatedKey to the end.\n"
                             "    let mut start_key = request.get_exclusive_start_key().clone();\n"
                             "    loop {\n"
                             "        let output = request\n"
                             "            .clone()\n"
                             "            .set_exclusive_start_key(start_key)\n"
                             "            .send()\n"
                             "            .await?;\n");
      if (cg_request_counts (job))
        g_string_append (body, "        println!(\"{}\", output.count());\n");
      else
        g_string_append (body, "        for item in output.items() {\n"
                               "            println!(\"{item:?}\");\n"
                               "        }\n");
      g_string_append (body, "        start_key = output.last_evaluated_key().cloned();\n"
                             "        if start_key.is_none() {\n"
                             "            break;\n"
                             "        }\n"
                             "    }\n");
      break;
    case CG_READ_BATCH:
      g_string_append (body, "    // Keys DynamoDB did not get to come back as UnprocessedKeys: "
                             "ask again, backing off.\n"
                             "    let mut output = request.clone().send().await?;\n"
                             "    for attempt in 1.. {\n"
                             "        for (table, items) in output.responses().into_iter().flatten() {\n"
                             "            for item in items {\n"
                             "                println!(\"{table} {item:?}\");\n"
                             "            }\n"
                             "        }\n"
                             "        let unprocessed = output.unprocessed_keys().cloned().unwrap_or_default();\n"
                             "        if unprocessed.is_empty() {\n"
                             "            break;\n"
                             "        }\n"
                             "        tokio::time::sleep(Duration::from_millis((50u64 << attempt).min(5000))).await;\n"
                             "        output = request\n"
                             "            .clone()\n"
                             "            .set_request_items(Some(unprocessed))\n"
                             "            .send()\n"
                             "            .await?;\n"
                             "    }\n");
      break;
    case CG_WRITE_BATCH:
      g_string_append (body, "    // Writes DynamoDB did not get to come back as UnprocessedItems: "
                             "send them again, backing off.\n"
                             "    let mut output = request.clone().send().await?;\n"
                             "    for attempt in 1.. {\n"
                             "        println!(\"{output:?}\");\n"
                             "        let unprocessed = output.unprocessed_items().cloned().unwrap_or_default();\n"
                             "        if unprocessed.is_empty() {\n"
                             "            break;\n"
                             "        }\n"
                             "        tokio::time::sleep(Duration::from_millis((50u64 << attempt).min(5000))).await;\n"
                             "        output = request\n"
                             "            .clone()\n"
                             "            .set_request_items(Some(unprocessed))\n"
                             "            .send()\n"
                             "            .await?;\n"
                             "    }\n");
      break;
    case CG_READ_TRANSACT:
      g_string_append (body, "    let output = request.send().await?;\n"
                             "    for entry in output.responses() {\n"
                             "        println!(\"{:?}\", entry.item());\n"
                             "    }\n");
      break;
    case CG_STATEMENT:
      g_string_append (body, "    // A SELECT reads at most 1 MB (or Limit items) a call: follow "
                             "NextToken to the end.\n"
                             "    let mut next_token = request.get_next_token().clone();\n"
                             "    loop {\n"
                             "        let output = request.clone().set_next_token(next_token).send().await?;\n"
                             "        println!(\"{output:?}\");\n"
                             "        next_token = output.next_token().map(str::to_string);\n"
                             "        if next_token.is_none() {\n"
                             "            break;\n"
                             "        }\n"
                             "    }\n");
      break;
    case CG_WRITE:
      g_string_append (body, "    let output = request.send().await?;\n"
                             "    println!(\"{output:?}\");\n");
      break;
    }

  g_string_append_printf (s,
                          "// %s\n"
                          "// Cargo.toml: aws-config, aws-sdk-dynamodb and tokio (features "
                          "\"full\").\n",
                          summary);
  g_string_append_printf (s, "use aws_config::%s;\n",
                          t->region != NULL ? "{BehaviorVersion, Region}" : "BehaviorVersion");
  if (u.blob)
    g_string_append (s, "use aws_sdk_dynamodb::primitives::Blob;\n");
  names = g_ptr_array_new ();
  {
    GHashTableIter iter;
    gpointer name;

    g_hash_table_iter_init (&iter, u.types);
    while (g_hash_table_iter_next (&iter, &name, NULL))
      g_ptr_array_add (names, name);
  }
  g_ptr_array_sort (names, compare_names);
  if (names->len == 1)
    g_string_append_printf (s, "use aws_sdk_dynamodb::types::%s;\n", (char *) names->pdata[0]);
  else if (names->len > 1)
    {
      g_string_append (s, "use aws_sdk_dynamodb::types::{");
      for (guint i = 0; i < names->len; i++)
        g_string_append_printf (s, "%s%s", i > 0 ? ", " : "", (char *) names->pdata[i]);
      g_string_append (s, "};\n");
    }
  g_string_append (s, "use aws_sdk_dynamodb::Client;\n");
  if (u.hashmap)
    g_string_append (s, "use std::collections::HashMap;\n");
  if (sleeps)
    g_string_append (s, "use std::time::Duration;\n");
  g_string_append_c (s, '\n');
  g_string_append_len (s, functions->str, functions->len);
  g_string_append (s, "#[tokio::main]\n"
                      "async fn main() -> Result<(), Box<dyn std::error::Error>> {\n"
                      "    let config = aws_config::defaults(BehaviorVersion::latest())\n");
  add_config (s, "profile_name", t->profile, "", "");
  add_config (s, "region", t->region, "Region::new(", ")");
  add_config (s, "endpoint_url", t->endpoint_url, "", "");
  g_string_append (s, "        .load()\n        .await;\n"
                      "    let client = Client::new(&config);\n");
  g_string_append_len (s, body->str, body->len);
  g_string_append (s, "    Ok(())\n}\n");
  g_hash_table_unref (u.types);
  return g_string_free (s, FALSE);
}
