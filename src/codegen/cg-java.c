/* cg-java.c: the request as a Java program on the AWS SDK for Java v2: builders for every
 * structure, AttributeValue.builder() for values (numbers as strings, binary as SdkBytes).
 * The JVM holds at most 64 KB of bytecode a method: a request too large for main() has its
 * largest values (items, transaction items, lists, nested maps) built by private static methods
 * of their own, recursively, each under the limit. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

/* A Java string constant holds at most 65,535 bytes (modified UTF-8), and a sum of constants is
 * one constant: longer text is joined at run time from pieces of at most this many characters,
 * 6 bytes each at worst. */
#define JAVA_PIECE_CHARS 8000

/* Bytecode estimates, generous (javac's code for a builder call, an entry of Map.ofEntries or
 * an element of List.of, with its array store), and the estimate above which a method's value
 * moves into a method of its own: a quarter of the JVM's 65,535 bytes, so that misjudged sizes
 * still fit, and high enough that a request of ordinary size stays one main(). */
#define COST_CONSTANT 4
#define COST_PIECE 10
#define COST_CALL 8
#define COST_ENTRY 16
#define COST_METHOD_LIMIT 16000

/* The program being written: the methods that build parts of the request, in the order they
 * were made (each before the methods that call it). */
typedef struct {
  GString *methods;
  guint n_methods;
} Java;

/* An entry or call of a container or chain, kept until the container's size is known. */
typedef struct {
  char *prefix;
  CgLit *value;
  const char *suffix;
  gsize cost;
  char *type;       /* the value's Java type; NULL: never moved into a method */
  char *name;       /* a method building it is named for this, and numbered */
} Part;

static void
part_clear (gpointer data)
{
  Part *p = data;

  g_free (p->prefix);
  cg_lit_free (p->value);
  g_free (p->type);
  g_free (p->name);
}

static GArray *
parts_new (void)
{
  GArray *parts = g_array_new (FALSE, TRUE, sizeof (Part));

  g_array_set_clear_func (parts, part_clear);
  return parts;
}

static void
parts_add (GArray *parts, char *prefix, CgLit *value, const char *suffix, gsize cost,
           const char *type, const char *name)
{
  Part p = { prefix, value, suffix, cost, g_strdup (type), g_strdup (name) };

  g_array_append_val (parts, p);
}

/* A method returning LIT (taken) of TYPE: appended to the program's methods; its call. */
static CgLit *
java_method (Java *jv, const char *type, const char *name, CgLit *lit)
{
  g_autofree char *call = g_strdup_printf ("%s%u()", name, ++jv->n_methods);

  g_string_append_printf (jv->methods, "\n    private static %s %s {\n        return ", type,
                          call);
  cg_lit_write (jv->methods, lit, "    ", 2, 100);
  g_string_append (jv->methods, ";\n    }\n");
  cg_lit_free (lit);
  return cg_lit_raw (g_steal_pointer (&call));
}

static gint
by_cost_down (gconstpointer a, gconstpointer b, gpointer data)
{
  const Part *parts = data;
  gsize ca = parts[*(const guint *) a].cost, cb = parts[*(const guint *) b].cost;

  return ca < cb ? 1 : ca > cb ? -1 : 0;
}

/* Adds PARTS (emptied) to LIT, whose own code is BASE, and adds the whole estimate to COST: when
 * it passes the limit, the largest parts are built by methods of their own until it does not. */
static CgLit *
parts_finish (Java *jv, CgLit *lit, GArray *parts, gsize base, gsize *cost)
{
  gsize total = base;
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), parts->len);

  for (guint i = 0; i < parts->len; i++)
    {
      total += g_array_index (parts, Part, i).cost;
      g_array_append_val (order, i);
    }
  if (total > COST_METHOD_LIMIT)
    {
      g_array_sort_with_data (order, by_cost_down, parts->data);
      for (guint k = 0; k < order->len && total > COST_METHOD_LIMIT; k++)
        {
          Part *p = &g_array_index (parts, Part, g_array_index (order, guint, k));

          if (p->type == NULL || p->cost <= COST_CALL)
            continue;
          p->value = java_method (jv, p->type, p->name, p->value);
          total -= p->cost - COST_CALL;
          p->cost = COST_CALL;
        }
    }
  for (guint i = 0; i < parts->len; i++)
    {
      Part *p = &g_array_index (parts, Part, i);

      cg_lit_add (lit, g_steal_pointer (&p->prefix), g_steal_pointer (&p->value), p->suffix);
    }
  g_array_unref (parts);
  *cost += total;
  return lit;
}

static CgLit *
string_lit (const char *s, gsize len, gsize *cost)
{
  GString *t = g_string_new (NULL);

  if (g_utf8_strlen (s, len) <= JAVA_PIECE_CHARS)
    {
      ddb_quote_string (t, DDB_LANG_JAVA, s, len);
      *cost += COST_CONSTANT;
    }
  else
    {
      const char *p = s, *end = s + len;

      g_string_append (t, "String.join(\"\"");
      *cost += COST_ENTRY;
      while (p < end)
        {
          const char *q = p;

          for (int n = 0; n < JAVA_PIECE_CHARS && q < end; n++)
            q = g_utf8_next_char (q);
          g_string_append (t, ", ");
          ddb_quote_string (t, DDB_LANG_JAVA, p, q - p);
          *cost += COST_PIECE;
          p = q;
        }
      g_string_append_c (t, ')');
    }
  return cg_lit_raw (g_string_free (t, FALSE));
}

static CgLit *
json_string_lit (json_t *j, gsize *cost)
{
  return string_lit (json_string_value (j), json_string_length (j), cost);
}

static CgLit *
bytes_lit (json_t *j, gsize *cost)
{
  const char *b64 = json_string_value (j);
  gsize b64_len = json_string_length (j);
  GString *t;

  *cost += COST_ENTRY;
  if (b64_len <= 4 * JAVA_PIECE_CHARS)
    return cg_lit_bytes (DDB_LANG_JAVA, j);
  /* The base64 text itself, in pieces (it is ASCII: a character is a byte). */
  t = g_string_new ("SdkBytes.fromByteArray(Base64.getDecoder().decode(String.join(\"\"");
  for (gsize i = 0; i < b64_len; i += 4 * JAVA_PIECE_CHARS)
    {
      g_string_append (t, ", ");
      ddb_quote_string (t, DDB_LANG_JAVA, b64 + i, MIN (4 * JAVA_PIECE_CHARS, b64_len - i));
      *cost += COST_PIECE;
    }
  g_string_append (t, ")))");
  return cg_lit_raw (g_string_free (t, FALSE));
}

/* javac infers the types of Map.ofEntries(Map.entry(..), ...) in a time that grows much faster
 * than its entries: past this many, the map names its types (Map.<String, T>ofEntries). */
#define JAVA_INFERRED_ENTRIES 10

/* A container's opening: Map.ofEntries( or List.of(, with the type arguments TYPES when it has
 * more than JAVA_INFERRED_ENTRIES entries. */
static CgLit *
container_open (const char *class, const char *method, const char *types, gsize n)
{
  g_autofree char *open
      = n > JAVA_INFERRED_ENTRIES ? g_strdup_printf ("%s.<%s>%s(", class, types, method)
                                  : g_strdup_printf ("%s.%s(", class, method);

  return cg_lit_container (open, ")", FALSE);
}

static char *
entry_prefix (const char *key)
{
  GString *t = g_string_new ("Map.entry(");

  ddb_quote_string (t, DDB_LANG_JAVA, key, strlen (key));
  g_string_append (t, ", ");
  return g_string_free (t, FALSE);
}

static CgLit *item_lit (Java *jv, json_t *j, gsize *cost);

static CgLit *
value_lit (Java *jv, json_t *av, gsize *cost)
{
  GArray *calls = parts_new ();
  const char *type;
  json_t *v;

  json_object_foreach (av, type, v)
    {
      g_autofree char *method = g_ascii_strdown (type, -1);
      const char *java_type = NULL;
      const char *name = "list";
      gsize c = COST_CALL;
      CgLit *arg;

      if (json_is_null (v))
        continue;
      if (strcmp (type, "S") == 0 || strcmp (type, "N") == 0)
        arg = json_string_lit (v, &c);
      else if (strcmp (type, "B") == 0)
        arg = bytes_lit (v, &c);
      else if (strcmp (type, "BOOL") == 0 || strcmp (type, "NULL") == 0)
        {
          arg = cg_lit_raw (g_strdup (json_is_true (v) ? "true" : "false"));
          c += COST_CONSTANT;
        }
      else if (strcmp (type, "M") == 0)
        {
          arg = item_lit (jv, v, &c);
          java_type = "Map<String, AttributeValue>";
          name = "map";
        }
      else
        {
          GArray *elements = parts_new ();
          gsize i;
          json_t *e;

          json_array_foreach (v, i, e)
            {
              gsize ec = COST_ENTRY;
              CgLit *lit = strcmp (type, "L") == 0    ? value_lit (jv, e, &ec)
                           : strcmp (type, "BS") == 0 ? bytes_lit (e, &ec)
                                                      : json_string_lit (e, &ec);

              parts_add (elements, NULL, lit, NULL, ec,
                         strcmp (type, "L") == 0 ? "AttributeValue" : NULL, "value");
            }
          arg = parts_finish (jv, cg_lit_container ("List.of(", ")", FALSE), elements,
                              COST_ENTRY, &c);
          java_type = strcmp (type, "L") == 0    ? "List<AttributeValue>"
                      : strcmp (type, "BS") == 0 ? "List<SdkBytes>"
                                                 : "List<String>";
        }
      /* NULL's builder method is nul(): null is a Java keyword. */
      parts_add (calls, g_strdup_printf (".%s(", strcmp (type, "NULL") == 0 ? "nul" : method),
                 arg, ")", c, java_type, name);
    }
  return parts_finish (jv, cg_lit_chain ("AttributeValue.builder()", ".build()"), calls,
                       2 * COST_CALL, cost);
}

static CgLit *
item_lit (Java *jv, json_t *j, gsize *cost)
{
  GArray *entries = parts_new ();
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    {
      gsize c = COST_ENTRY + COST_CONSTANT;
      CgLit *lit = value_lit (jv, v, &c);

      parts_add (entries, entry_prefix (key), lit, ")", c, "AttributeValue", "value");
    }
  return parts_finish (jv,
                       container_open ("Map", "ofEntries", "String, AttributeValue",
                                       json_object_size (j)),
                       entries, COST_ENTRY, cost);
}

static CgLit *struct_lit (Java *jv, const CgShape *shape, json_t *j, gsize *cost);

/* The Java type of member M's value, newly allocated. */
static char *
member_type (const CgMember *m)
{
  switch (m->kind)
    {
    case CG_STRING:
      return g_strdup ("String");
    case CG_VALUE:
      return g_strdup ("AttributeValue");
    case CG_ITEM:
      return g_strdup ("Map<String, AttributeValue>");
    case CG_NAMES:
      return g_strdup ("Map<String, String>");
    case CG_STRINGS:
      return g_strdup ("List<String>");
    case CG_VALUES:
      return g_strdup ("List<AttributeValue>");
    case CG_ITEMS:
      return g_strdup ("List<Map<String, AttributeValue>>");
    case CG_STRUCT:
      return g_strdup (m->shape->name);
    case CG_STRUCT_LIST:
      return g_strdup_printf ("List<%s>", m->shape->name);
    case CG_STRUCT_MAP:
      return g_strdup_printf ("Map<String, %s>", m->shape->name);
    case CG_LIST_MAP:
      return g_strdup_printf ("Map<String, List<%s>>", m->shape->name);
    case CG_ENUM:
    case CG_INT:
    case CG_LONG:
    case CG_BOOL:
      return NULL;
    }
  g_return_val_if_reached (NULL);
}

static CgLit *
member_lit (Java *jv, const CgMember *m, json_t *j, gsize *cost)
{
  g_autofree char *shape_name = m->shape != NULL ? cg_lower_camel (m->shape->name) : NULL;
  g_autofree char *list_type = m->shape != NULL ? g_strdup_printf ("List<%s>", m->shape->name)
                                                : NULL;
  g_autofree char *map_types = m->shape != NULL ? g_strdup_printf ("String, List<%s>",
                                                                    m->shape->name)
                                                : NULL;
  g_autofree char *struct_map_types
      = m->shape != NULL ? g_strdup_printf ("String, %s", m->shape->name) : NULL;
  const char *key;
  json_t *v;
  gsize i;
  GArray *parts;

  switch (m->kind)
    {
    case CG_STRING:
    case CG_ENUM:
      return json_string_lit (j, cost);
    case CG_INT:
      *cost += COST_CONSTANT;
      return cg_lit_rawf ("%" JSON_INTEGER_FORMAT, json_integer_value (j));
    case CG_LONG:
      *cost += COST_CONSTANT;
      return cg_lit_rawf ("%" JSON_INTEGER_FORMAT "L", json_integer_value (j));
    case CG_BOOL:
      *cost += COST_CONSTANT;
      return cg_lit_raw (g_strdup (json_is_true (j) ? "true" : "false"));
    case CG_VALUE:
      return value_lit (jv, j, cost);
    case CG_ITEM:
      return item_lit (jv, j, cost);
    case CG_NAMES:
      parts = parts_new ();
      json_object_foreach (j, key, v)
        {
          gsize c = COST_ENTRY + COST_CONSTANT;
          CgLit *lit = json_string_lit (v, &c);

          parts_add (parts, entry_prefix (key), lit, ")", c, NULL, NULL);
        }
      return parts_finish (jv, container_open ("Map", "ofEntries", "String, String",
                                               json_object_size (j)),
                           parts, COST_ENTRY, cost);
    case CG_STRINGS:
    case CG_VALUES:
    case CG_ITEMS:
    case CG_STRUCT_LIST:
      parts = parts_new ();
      json_array_foreach (j, i, v)
        {
          gsize c = COST_ENTRY;
          CgLit *lit = m->kind == CG_STRINGS  ? json_string_lit (v, &c)
                       : m->kind == CG_VALUES ? value_lit (jv, v, &c)
                       : m->kind == CG_ITEMS  ? item_lit (jv, v, &c)
                                              : struct_lit (jv, m->shape, v, &c);

          parts_add (parts, NULL, lit, NULL, c,
                     m->kind == CG_STRINGS  ? NULL
                     : m->kind == CG_VALUES ? "AttributeValue"
                     : m->kind == CG_ITEMS  ? "Map<String, AttributeValue>"
                                            : m->shape->name,
                     m->kind == CG_VALUES  ? "value"
                     : m->kind == CG_ITEMS ? "item"
                                           : shape_name);
        }
      /* Only a list of items holds calls whose types javac infers (Map.ofEntries). */
      return parts_finish (jv,
                           m->kind == CG_ITEMS
                               ? container_open ("List", "of", "Map<String, AttributeValue>",
                                                 json_array_size (j))
                               : cg_lit_container ("List.of(", ")", FALSE),
                           parts, COST_ENTRY, cost);
    case CG_STRUCT:
      return struct_lit (jv, m->shape, j, cost);
    case CG_STRUCT_MAP:
    case CG_LIST_MAP:
      parts = parts_new ();
      json_object_foreach (j, key, v)
        {
          CgMember list = { m->name, CG_STRUCT_LIST, m->shape, NULL };
          gsize c = COST_ENTRY + COST_CONSTANT;
          CgLit *lit = m->kind == CG_LIST_MAP ? member_lit (jv, &list, v, &c)
                                              : struct_lit (jv, m->shape, v, &c);

          parts_add (parts, entry_prefix (key), lit, ")", c,
                     m->kind == CG_LIST_MAP ? list_type : m->shape->name,
                     m->kind == CG_LIST_MAP ? "list" : shape_name);
        }
      return parts_finish (jv,
                           container_open ("Map", "ofEntries",
                                           m->kind == CG_LIST_MAP ? map_types : struct_map_types,
                                           json_object_size (j)),
                           parts, COST_ENTRY, cost);
    }
  g_return_val_if_reached (NULL);
}

static CgLit *
builder_chain (Java *jv, CgLit *chain, const CgShape *shape, json_t *j, gsize *cost)
{
  GArray *calls = parts_new ();
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    {
      const CgMember *m = cg_shape_member (shape, key);
      g_autofree char *method = cg_lower_camel (key);
      g_autofree char *type = member_type (m);
      gsize c = COST_CALL;
      CgLit *lit = member_lit (jv, m, v, &c);

      parts_add (calls, g_strdup_printf (".%s(", method), lit, ")", c, type, method);
    }
  return parts_finish (jv, chain, calls, 2 * COST_CALL, cost);
}

static CgLit *
struct_lit (Java *jv, const CgShape *shape, json_t *j, gsize *cost)
{
  g_autofree char *head = g_strdup_printf ("%s.builder()", shape->name);

  return builder_chain (jv, cg_lit_chain (head, ".build()"), shape, j, cost);
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
  Java jv = { g_string_new (NULL), 0 };
  gsize cost = 0;
  g_autoptr (CgLit) request
      = builder_chain (&jv, cg_lit_chain (head, ".build()"), job->shape, job->request, &cost);
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
  g_string_append (s, "        }\n    }\n");
  g_string_append_len (s, jv.methods->str, jv.methods->len);
  g_string_append (s, "}\n");
  g_string_free (jv.methods, TRUE);
  return g_string_free (s, FALSE);
}
