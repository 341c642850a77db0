/* cg-java.c: the request as a Java program on the AWS SDK for Java v2: builders for every
 * structure, AttributeValue.builder() for values (numbers as strings, binary as SdkBytes). */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

/* A Java string constant holds at most 65,535 bytes (modified UTF-8), and a sum of constants is
 * one constant: longer text is joined at run time from pieces of at most this many characters,
 * 6 bytes each at worst. */
#define JAVA_PIECE_CHARS 8000

static CgLit *
string_lit (const char *s, gsize len)
{
  GString *t = g_string_new (NULL);

  if (g_utf8_strlen (s, len) <= JAVA_PIECE_CHARS)
    ddb_quote_string (t, DDB_LANG_JAVA, s, len);
  else
    {
      const char *p = s, *end = s + len;

      g_string_append (t, "String.join(\"\"");
      while (p < end)
        {
          const char *q = p;

          for (int n = 0; n < JAVA_PIECE_CHARS && q < end; n++)
            q = g_utf8_next_char (q);
          g_string_append (t, ", ");
          ddb_quote_string (t, DDB_LANG_JAVA, p, q - p);
          p = q;
        }
      g_string_append_c (t, ')');
    }
  return cg_lit_raw (g_string_free (t, FALSE));
}

static CgLit *
json_string_lit (json_t *j)
{
  return string_lit (json_string_value (j), json_string_length (j));
}

static CgLit *
bytes_lit (json_t *j)
{
  const char *b64 = json_string_value (j);
  gsize b64_len = json_string_length (j);
  GString *t;

  if (b64_len <= 4 * JAVA_PIECE_CHARS)
    return cg_lit_bytes (DDB_LANG_JAVA, j);
  /* The base64 text itself, in pieces (it is ASCII: a character is a byte). */
  t = g_string_new ("SdkBytes.fromByteArray(Base64.getDecoder().decode(String.join(\"\"");
  for (gsize i = 0; i < b64_len; i += 4 * JAVA_PIECE_CHARS)
    {
      g_string_append (t, ", ");
      ddb_quote_string (t, DDB_LANG_JAVA, b64 + i, MIN (4 * JAVA_PIECE_CHARS, b64_len - i));
    }
  g_string_append (t, ")))");
  return cg_lit_raw (g_string_free (t, FALSE));
}

static char *
entry_prefix (const char *key)
{
  GString *t = g_string_new ("Map.entry(");

  ddb_quote_string (t, DDB_LANG_JAVA, key, strlen (key));
  g_string_append (t, ", ");
  return g_string_free (t, FALSE);
}

static CgLit *item_lit (json_t *j);

static CgLit *
value_lit (json_t *av)
{
  CgLit *chain = cg_lit_chain ("AttributeValue.builder()", ".build()");
  const char *type;
  json_t *v;

  json_object_foreach (av, type, v)
    {
      g_autofree char *method = g_ascii_strdown (type, -1);
      CgLit *arg;

      if (json_is_null (v))
        continue;
      if (strcmp (type, "S") == 0 || strcmp (type, "N") == 0)
        arg = json_string_lit (v);
      else if (strcmp (type, "B") == 0)
        arg = bytes_lit (v);
      else if (strcmp (type, "BOOL") == 0 || strcmp (type, "NULL") == 0)
        arg = cg_lit_raw (g_strdup (json_is_true (v) ? "true" : "false"));
      else if (strcmp (type, "M") == 0)
        arg = item_lit (v);
      else
        {
          gsize i;
          json_t *e;

          arg = cg_lit_container ("List.of(", ")", FALSE);
          json_array_foreach (v, i, e)
            cg_lit_add (arg, NULL,
                        strcmp (type, "L") == 0    ? value_lit (e)
                        : strcmp (type, "BS") == 0 ? bytes_lit (e)
                                                   : json_string_lit (e),
                        NULL);
        }
      /* NULL's builder method is nul(): null is a Java keyword. */
      cg_lit_add (chain, g_strdup_printf (".%s(", strcmp (type, "NULL") == 0 ? "nul" : method),
                  arg, ")");
    }
  return chain;
}

static CgLit *
item_lit (json_t *j)
{
  CgLit *map = cg_lit_container ("Map.ofEntries(", ")", FALSE);
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    cg_lit_add (map, entry_prefix (key), value_lit (v), ")");
  return map;
}

static CgLit *struct_lit (const CgShape *shape, json_t *j);

static CgLit *
member_lit (const CgMember *m, json_t *j)
{
  const char *key;
  json_t *v;
  gsize i;
  CgLit *c;

  switch (m->kind)
    {
    case CG_STRING:
    case CG_ENUM:
      return json_string_lit (j);
    case CG_INT:
      return cg_lit_rawf ("%" JSON_INTEGER_FORMAT, json_integer_value (j));
    case CG_LONG:
      return cg_lit_rawf ("%" JSON_INTEGER_FORMAT "L", json_integer_value (j));
    case CG_BOOL:
      return cg_lit_raw (g_strdup (json_is_true (j) ? "true" : "false"));
    case CG_VALUE:
      return value_lit (j);
    case CG_ITEM:
      return item_lit (j);
    case CG_NAMES:
      c = cg_lit_container ("Map.ofEntries(", ")", FALSE);
      json_object_foreach (j, key, v)
        cg_lit_add (c, entry_prefix (key), json_string_lit (v), ")");
      return c;
    case CG_STRINGS:
    case CG_VALUES:
    case CG_ITEMS:
    case CG_STRUCT_LIST:
      c = cg_lit_container ("List.of(", ")", FALSE);
      json_array_foreach (j, i, v)
        cg_lit_add (c, NULL,
                    m->kind == CG_STRINGS  ? json_string_lit (v)
                    : m->kind == CG_VALUES ? value_lit (v)
                    : m->kind == CG_ITEMS  ? item_lit (v)
                                           : struct_lit (m->shape, v),
                    NULL);
      return c;
    case CG_STRUCT:
      return struct_lit (m->shape, j);
    case CG_STRUCT_MAP:
    case CG_LIST_MAP:
      c = cg_lit_container ("Map.ofEntries(", ")", FALSE);
      json_object_foreach (j, key, v)
        {
          CgMember list = { m->name, CG_STRUCT_LIST, m->shape, NULL };
          cg_lit_add (c, entry_prefix (key),
                      m->kind == CG_LIST_MAP ? member_lit (&list, v) : struct_lit (m->shape, v),
                      ")");
        }
      return c;
    }
  g_return_val_if_reached (NULL);
}

static CgLit *
builder_chain (CgLit *chain, const CgShape *shape, json_t *j)
{
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    {
      g_autofree char *method = cg_lower_camel (key);
      cg_lit_add (chain, g_strdup_printf (".%s(", method),
                  member_lit (cg_shape_member (shape, key), v), ")");
    }
  return chain;
}

static CgLit *
struct_lit (const CgShape *shape, json_t *j)
{
  g_autofree char *head = g_strdup_printf ("%s.builder()", shape->name);

  return builder_chain (cg_lit_chain (head, ".build()"), shape, j);
}

static void
client_builder (GString *s, const DdbCodegenTarget *t)
{
  g_string_append (s, "        try (DynamoDbClient client = DynamoDbClient.builder()");
  if (t->region != NULL)
    {
      g_string_append (s, "\n                .region(Region.of(");
      ddb_quote_string (s, DDB_LANG_JAVA, t->region, strlen (t->region));
      g_string_append (s, "))");
    }
  if (t->profile != NULL)
    {
      g_string_append (s, "\n                .credentialsProvider(ProfileCredentialsProvider.create(");
      ddb_quote_string (s, DDB_LANG_JAVA, t->profile, strlen (t->profile));
      g_string_append (s, "))");
    }
  if (t->endpoint_url != NULL)
    {
      g_string_append (s, "\n                .endpointOverride(URI.create(");
      ddb_quote_string (s, DDB_LANG_JAVA, t->endpoint_url, strlen (t->endpoint_url));
      g_string_append (s, "))");
    }
  g_string_append (s, "\n                .build()) {\n");
}

/* The Query once per suffix on a parallel stream, whose collect keeps the suffix order. */
static void
write_fanout (GString *s, const CgJob *job)
{
  const CgFanout *f = job->fanout;
  g_autofree char *format = f->width > 0 ? g_strdup_printf ("%%0%ud", f->width) : g_strdup ("%d");

  g_string_append (s, "            String placeholder = ");
  ddb_quote_string (s, DDB_LANG_JAVA, f->placeholder, strlen (f->placeholder));
  g_string_append (s, ";\n            String prefix = ");
  ddb_quote_string (s, DDB_LANG_JAVA, f->prefix, strlen (f->prefix));
  g_string_append_printf (
      s,
      ";\n"
      "            List<String> suffixes = LongStream.rangeClosed(%uL, %uL)\n"
      "                    .mapToObj(n -> String.format(\"%s\", n))\n"
      "                    .collect(Collectors.toList());\n"
      "            // The shards' Queries in parallel; their items merged in suffix order, each "
      "shard's in the\n"
      "            // order its Query returns them (by the sort key).\n"
      "            List<List<Map<String, AttributeValue>>> shards = suffixes.parallelStream()\n"
      "                    .map(suffix -> {\n"
      "                        Map<String, AttributeValue> values = "
      "new HashMap<>(request.expressionAttributeValues());\n"
      "                        values.put(placeholder, AttributeValue.fromS(prefix + suffix));\n"
      "                        QueryRequest shard = "
      "request.toBuilder().expressionAttributeValues(values).build();\n"
      "                        List<Map<String, AttributeValue>> items = new ArrayList<>();\n"
      "                        // Each call reads at most 1 MB (or Limit items): follow "
      "LastEvaluatedKey to the end.\n"
      "                        while (true) {\n"
      "                            QueryResponse response = client.query(shard);\n"
      "                            items.addAll(response.items());\n"
      "                            if (!response.hasLastEvaluatedKey()) {\n"
      "                                return items;\n"
      "                            }\n"
      "                            shard = shard.toBuilder()"
      ".exclusiveStartKey(response.lastEvaluatedKey()).build();\n"
      "                        }\n"
      "                    })\n"
      "                    .collect(Collectors.toList());\n"
      "            shards.forEach(items -> items.forEach(System.out::println));\n",
      f->first, cg_fanout_last (f), format);
}

char *
cg_write_java (const CgJob *job)
{
  const DdbCodegenTarget *t = job->target;
  g_autofree char *summary = cg_summary (job);
  g_autofree char *method = cg_lower_camel (job->operation);
  g_autofree char *head = g_strdup_printf ("%sRequest.builder()", job->operation);
  g_autoptr (CgLit) request
      = builder_chain (cg_lit_chain (head, ".build()"), job->shape, job->request);
  GString *s = g_string_new (NULL);
  const char *op = job->operation;

  g_string_append_printf (s,
                          "// %s\n"
                          "// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on "
                          "the class path.\n",
                          summary);
  if (t->endpoint_url != NULL)
    g_string_append (s, "import java.net.URI;\n");
  if (job->fanout != NULL)
    g_string_append (s, "import java.util.ArrayList;\n");
  g_string_append (s, "import java.util.Base64;\n");
  if (job->fanout != NULL)
    g_string_append (s, "import java.util.HashMap;\n");
  g_string_append (s, "import java.util.List;\n"
                      "import java.util.Map;\n");
  if (job->fanout != NULL)
    g_string_append (s, "import java.util.stream.Collectors;\n"
                        "import java.util.stream.LongStream;\n");
  if (t->profile != NULL)
    g_string_append (s, "import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;\n");
  g_string_append (s, "import software.amazon.awssdk.core.SdkBytes;\n");
  if (t->region != NULL)
    g_string_append (s, "import software.amazon.awssdk.regions.Region;\n");
  g_string_append (s, "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\n"
                      "import software.amazon.awssdk.services.dynamodb.model.*;\n\n"
                      "public class DynamoDbRequest {\n"
                      "    public static void main(String[] args) throws InterruptedException {\n");
  client_builder (s, t);
  g_string_append_printf (s, "            %sRequest request = ", op);
  cg_lit_write (s, request, "    ", 3, 100);
  g_string_append (s, ";\n");

  switch (job->flow)
    {
    case CG_READ_ITEM:
      g_string_append_printf (s,
                              "            %sResponse response = client.%s(request);\n"
                              "            System.out.println(response.hasItem() ? "
                              "response.item().toString() : \"null\");\n",
                              op, method);
      break;
    case CG_READ_PAGES:
      if (job->fanout != NULL)
        {
          write_fanout (s, job);
          break;
        }
      g_string_append_printf (s,
                              "            // Each call reads at most 1 MB (or Limit items): follow "
                              "LastEvaluatedKey to the end.\n"
                              "            while (true) {\n"
                              "                %sResponse response = client.%s(request);\n",
                              op, method);
      if (cg_request_counts (job))
        g_string_append (s, "                System.out.println(response.count());\n");
      else
        g_string_append (s, "                response.items().forEach(System.out::println);\n");
      g_string_append (s, "                if (!response.hasLastEvaluatedKey()) {\n"
                          "                    break;\n"
                          "                }\n"
                          "                request = request.toBuilder()"
                          ".exclusiveStartKey(response.lastEvaluatedKey()).build();\n"
                          "            }\n");
      break;
    case CG_READ_BATCH:
      g_string_append_printf (s,
                              "            // Keys DynamoDB did not get to come back as "
                              "UnprocessedKeys: ask again, backing off.\n"
                              "            for (int attempt = 1; ; attempt++) {\n"
                              "                %sResponse response = client.%s(request);\n"
                              "                response.responses().forEach((table, items) -> "
                              "items.forEach(item -> System.out.println(table + \" \" + item)));\n"
                              "                if (response.unprocessedKeys().isEmpty()) {\n"
                              "                    break;\n"
                              "                }\n"
                              "                Thread.sleep(Math.min(50L << attempt, 5000L));\n"
                              "                request = request.toBuilder()"
                              ".requestItems(response.unprocessedKeys()).build();\n"
                              "            }\n",
                              op, method);
      break;
    case CG_WRITE_BATCH:
      g_string_append_printf (s,
                              "            // Writes DynamoDB did not get to come back as "
                              "UnprocessedItems: send them again, backing off.\n"
                              "            for (int attempt = 1; ; attempt++) {\n"
                              "                %sResponse response = client.%s(request);\n"
                              "                System.out.println(response);\n"
                              "                if (response.unprocessedItems().isEmpty()) {\n"
                              "                    break;\n"
                              "                }\n"
                              "                Thread.sleep(Math.min(50L << attempt, 5000L));\n"
                              "                request = request.toBuilder()"
                              ".requestItems(response.unprocessedItems()).build();\n"
                              "            }\n",
                              op, method);
      break;
    case CG_READ_TRANSACT:
      g_string_append_printf (s,
                              "            %sResponse response = client.%s(request);\n"
                              "            response.responses().forEach(entry -> "
                              "System.out.println(entry.hasItem() ? entry.item().toString() : \"null\"));\n",
                              op, method);
      break;
    case CG_STATEMENT:
      g_string_append_printf (s,
                              "            // A SELECT reads at most 1 MB (or Limit items) a call: "
                              "follow NextToken to the end.\n"
                              "            while (true) {\n"
                              "                %sResponse response = client.%s(request);\n"
                              "                System.out.println(response);\n"
                              "                if (response.nextToken() == null) {\n"
                              "                    break;\n"
                              "                }\n"
                              "                request = request.toBuilder()"
                              ".nextToken(response.nextToken()).build();\n"
                              "            }\n",
                              op, method);
      break;
    case CG_WRITE:
      g_string_append_printf (s,
                              "            %sResponse response = client.%s(request);\n"
                              "            System.out.println(response);\n",
                              op, method);
      break;
    }
  g_string_append (s, "        }\n    }\n}\n");
  return g_string_free (s, FALSE);
}
