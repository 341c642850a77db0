/* test-ion.c: the Amazon Ion text reader, its mapping to DynamoDB values and export records,
 * and the writer: AWS's documented export lines, files and incremental records, ints and
 * decimals to N, nesting, what has no DynamoDB meaning, the writer's shapes; the helpers the
 * other files share (test-ion-util.h) and the test registration. Every literal form of the
 * grammar is in test-ion-grammar.c; the generated corpus, truncation and mutation loops in
 * test-ion-corpus.c; the direct path of export lines in test-ion-direct.c. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/ion.h"

#include "test-ion-util.h"
#include "test-util.h"

/* The AWS Developer Guide's Ion example item ("DynamoDB table export output format"), as
 * printed there on several lines, and the same item in the guide's DynamoDB JSON example. */
const char aws_ion_example[] = "$ion_1_0 {\n"
                               "    Item:{\n"
                               "        Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],\n"
                               "        Dimensions:\"8.5 x 11.0 x 1.5\",\n"
                               "        ISBN:\"333-3333333333\",\n"
                               "        Id:103.,\n"
                               "        InPublication:false,\n"
                               "        PageCount:6d2,\n"
                               "        Price:2d3,\n"
                               "        ProductCategory:\"Book\",\n"
                               "        Title:\"Book 103 Title\"\n"
                               "    }\n"
                               "}\n";
static const char aws_json_example[]
    = "{'Authors':{'SS':['Author1','Author2']},'Dimensions':{'S':'8.5 x 11.0 x 1.5'},"
      "'ISBN':{'S':'333-3333333333'},'Id':{'N':'103'},'InPublication':{'BOOL':false},"
      "'PageCount':{'N':'600'},'Price':{'N':'2000'},'ProductCategory':{'S':'Book'},"
      "'Title':{'S':'Book 103 Title'}}";
/* The same item on one line, as the export writes it. */
const char aws_ion_line[]
    = "$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],Dimensions:\"8.5 x 11.0 x "
      "1.5\",ISBN:\"333-3333333333\",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,"
      "ProductCategory:\"Book\",Title:\"Book 103 Title\"}}";

/* Helpers */

/* Reads `text` as one value. */
DdbIonValue *
ion_one (const char *text)
{
  g_autoptr (DdbIonReader) r = ddb_ion_reader_new (text, strlen (text));
  g_autoptr (GError) error = NULL;
  DdbIonValue *v = NULL, *extra = NULL;

  if (!ddb_ion_reader_next_value (r, &v, &error))
    g_error ("'%s': %s", text, error->message);
  g_assert_nonnull (v);
  g_assert_true (ddb_ion_reader_next_value (r, &extra, &error));
  g_assert_null (extra);
  return v;
}

void
assert_ion_text (const char *text, DdbIonType type, const char *expected, gsize expected_len)
{
  g_autoptr (DdbIonValue) v = ion_one (text);

  if (v->type != type || v->is_null)
    g_error ("'%s': type %d, expected %d", text, v->type, type);
  if (expected == NULL)
    {
      g_assert_null (v->text.data);
      return;
    }
  if (v->text.len != expected_len || memcmp (v->text.data, expected, expected_len) != 0)
    g_error ("'%s' read as '%.*s', expected '%s'", text, (int) v->text.len, v->text.data, expected);
}

/* Every value of the stream in `text`, or the error. */
gboolean
read_all (const char *text, gsize len, GError **error)
{
  char *copy = g_memdup2 (text, len > 0 ? len : 1);
  DdbIonReader *r = ddb_ion_reader_new (copy, len);
  gboolean ok;

  for (;;)
    {
      DdbIonValue *v = NULL;
      ok = ddb_ion_reader_next_value (r, &v, error);
      if (!ok || v == NULL)
        break;
      ddb_ion_value_free (v);
    }
  ddb_ion_reader_free (r);
  g_free (copy);
  return ok;
}

/* Asserts that reading the stream fails with `code` and a message that starts with `prefix`
 * (which names the line). */
void
assert_ion_error (const char *text, DdbIonErrorCode code, const char *prefix)
{
  g_autoptr (GError) error = NULL;

  if (read_all (text, strlen (text), &error))
    g_error ("'%s' was accepted", text);
  if (!g_error_matches (error, DDB_ION_ERROR, code) || !g_str_has_prefix (error->message, prefix))
    g_error ("'%s': got '%s' (code %d), expected code %d and '%s...'", text, error->message,
             error->code, code, prefix);
}

DdbValue *
line_item (const char *line)
{
  g_autoptr (GError) error = NULL;
  DdbValue *item = ddb_ion_parse_export_line (line, strlen (line), &error);

  assert_paths_agree (line, strlen (line));
  if (item == NULL)
    g_error ("'%s': %s", line, error->message);
  return item;
}

static void
assert_line_error (const char *line, DdbIonErrorCode code, const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbValue) item = ddb_ion_parse_export_line (line, strlen (line), &error);

  assert_paths_agree (line, strlen (line));
  if (item != NULL)
    g_error ("'%s' was accepted", line);
  if (!g_error_matches (error, DDB_ION_ERROR, code) || strcmp (error->message, message) != 0)
    g_error ("'%s': got '%s' (code %d), expected code %d and '%s'", line, error->message,
             error->code, code, message);
}

char *
export_line (const DdbValue *item)
{
  GString *s = g_string_new (NULL);
  ddb_ion_append_export_line (s, item);
  return g_string_free (s, FALSE);
}

/* item -> Ion line -> item must give the item back, and the text again the same text. */
void
assert_round_trip (const DdbValue *item)
{
  g_autofree char *line = export_line (item);
  g_autoptr (DdbValue) back = line_item (line);
  g_autofree char *again = export_line (back);

  /* What the writer writes, the direct path reads. */
  if (!assert_paths_agree (line, strlen (line)))
    g_error ("the direct path did not take %s", line);
  if (!ddb_value_equal (item, back))
    {
      g_autofree char *a = ddb_json_format_item (item);
      g_autofree char *b = ddb_json_format_item (back);
      g_error ("round trip changed the item:\n%s\n%s\nvia %s", a, b, line);
    }
  g_assert_cmpstr (line, ==, again);
}

/* AWS's examples */

static void
test_aws_examples (void)
{
  g_autoptr (DdbValue) expected = tu_item (aws_json_example);
  g_autoptr (DdbValue) from_doc = line_item (aws_ion_example);
  g_autoptr (DdbValue) from_line = line_item (aws_ion_line);
  g_autofree char *written = export_line (expected);

  g_assert_true (ddb_value_equal (from_doc, expected));
  g_assert_true (ddb_value_equal (from_line, expected));
  /* Written back exactly as the export writes it, in the item's attribute order. */
  g_assert_cmpstr (written, ==, aws_ion_line);
  /* Attribute order is kept. */
  g_assert_cmpstr (ddb_value_map_nth (from_doc, 0)->name, ==, "Authors");
  g_assert_cmpstr (ddb_value_map_nth (from_doc, 8)->name, ==, "Title");
}

/* A file of several lines read record by record, with line numbers. */
static void
test_export_file (void)
{
  g_autoptr (GString) file = g_string_new (NULL);
  g_autoptr (DdbIonReader) r = NULL;
  g_autoptr (GError) error = NULL;
  DdbIonRecord rec;
  guint count = 0;

  for (int i = 0; i < 5; i++)
    {
      g_string_append (file, aws_ion_line);
      g_string_append_c (file, '\n');
    }
  g_string_append (file, "$ion_1_0 {Item:{Id:1.,Bad:1e0}}\n");
  r = ddb_ion_reader_new (file->str, file->len);
  for (;;)
    {
      if (!ddb_ion_reader_next_record (r, &rec, &error))
        break;
      g_assert_nonnull (rec.item);
      g_assert_cmpuint (rec.line, ==, count + 1);
      ddb_ion_record_clear (&rec);
      count++;
    }
  g_assert_cmpuint (count, ==, 5);
  g_assert_error (error, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB);
  g_assert_cmpstr (error->message, ==,
                   "line 6: an Ion float has no DynamoDB type (a number is an Ion decimal or "
                   "int, to stay exact); attribute path: Bad");

  /* The same with the reader told the first line's number. */
  {
    g_autoptr (DdbIonReader) r2 = ddb_ion_reader_new ("\n\n{Item:{a:x}}", 14);
    g_autoptr (GError) e2 = NULL;
    ddb_ion_reader_set_first_line (r2, 41);
    g_assert_false (ddb_ion_reader_next_record (r2, &rec, &e2));
    g_assert_cmpstr (e2->message, ==,
                     "line 43: an Ion symbol has no DynamoDB type; attribute path: a");
  }
}

static void
test_incremental_records (void)
{
  const char *insert
      = "$ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000000},Keys:{PK:\"CUST#100\"},"
        "NewImage:{PK:\"CUST#100\",n:1.}}";
  const char *update
      = "$ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000001.},Keys:{PK:\"A\"},"
        "OldImage:{PK:\"A\",n:1.},NewImage:{PK:\"A\",n:2.}}";
  const char *del = "$ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000002.},Keys:{PK:\"A\"}}";
  const char *lines[] = { insert, update, del };
  DdbIonRecord rec;
  g_autoptr (GError) error = NULL;

  g_assert_true (ddb_ion_parse_export_record (insert, strlen (insert), 7, &rec, &error));
  g_assert_no_error (error);
  g_assert_null (rec.item);
  g_assert_null (rec.old_image);
  g_assert_cmpuint (rec.line, ==, 7);
  tu_assert_item (rec.keys, "{'PK':{'S':'CUST#100'}}");
  tu_assert_item (rec.new_image, "{'PK':{'S':'CUST#100'},'n':{'N':'1'}}");
  tu_assert_item (rec.metadata, "{'WriteTimestampMicros':{'N':'1680109764000000'}}");
  ddb_ion_record_clear (&rec);

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr (GString) back = g_string_new (NULL);
      DdbIonRecord again;

      g_assert_true (ddb_ion_parse_export_record (lines[i], strlen (lines[i]), 1, &rec, &error));
      g_assert_nonnull (rec.keys);
      g_assert_nonnull (rec.metadata);
      ddb_ion_append_record_line (back, &rec);
      g_assert_true (ddb_ion_parse_export_record (back->str, back->len, 1, &again, &error));
      g_assert_true (ddb_value_equal (rec.keys, again.keys));
      g_assert_true (ddb_value_equal (rec.metadata, again.metadata));
      g_assert_true ((rec.new_image == NULL) == (again.new_image == NULL));
      g_assert_true ((rec.old_image == NULL) == (again.old_image == NULL));
      if (rec.new_image != NULL)
        g_assert_true (ddb_value_equal (rec.new_image, again.new_image));
      if (rec.old_image != NULL)
        g_assert_true (ddb_value_equal (rec.old_image, again.old_image));
      ddb_ion_record_clear (&rec);
      ddb_ion_record_clear (&again);
    }
  g_assert_true (ddb_ion_parse_export_record (update, strlen (update), 1, &rec, &error));
  tu_assert_item (rec.old_image, "{'PK':{'S':'A'},'n':{'N':'1'}}");
  tu_assert_item (rec.new_image, "{'PK':{'S':'A'},'n':{'N':'2'}}");
  ddb_ion_record_clear (&rec);

  /* Shapes that are not records. */
  {
    static const char *const bad[] = {
      "{Item:{a:1},Keys:{a:1}}",
      "{Keys:{a:1},Item:{a:1}}",
      "{NewImage:{a:1}}",
      "{Item:{a:1},Metadata:{}}",
      "{Foo:{}}",
      "{}",
      "[1]",
      "x::{Item:{}}",
      "{Item:{},Item:{}}",
      "{Keys:{a:1},Keys:{a:1}}",
      "{Item:[]}",
      "{Item:null.struct}",
      "{Item:x::{}}",
      "{$0:{}}",
      "null",
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr (GError) e = NULL;
        g_assert_false (ddb_ion_parse_export_record (bad[i], strlen (bad[i]), 3, &rec, &e));
        if (!g_error_matches (e, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB)
            || !g_str_has_prefix (e->message, "line 3: "))
          g_error ("'%s': %s", bad[i], e->message);
        g_assert_null (rec.item);
        g_assert_null (rec.keys);
      }
  }
  /* A full export line must hold an Item. */
  assert_line_error (del, DDB_ION_ERROR_NOT_DYNAMODB,
                     "line 1: an incremental export record where a full export's Item was "
                     "expected");
  assert_line_error ("$ion_1_0", DDB_ION_ERROR_NOT_DYNAMODB, "line 1: a line without a record");
  assert_line_error ("", DDB_ION_ERROR_NOT_DYNAMODB, "line 1: a line without a record");
  assert_line_error ("{Item:{a:1}} {Item:{a:1}}", DDB_ION_ERROR_NOT_DYNAMODB,
                     "line 1: a second value after the record");
}

/* Ion ints and decimals to N: exact, DynamoDB's range and messages. */
static void
test_numbers_to_ddb (void)
{
  static const struct {
    const char *ion, *n;
  } ok[] = {
    { "103.", "103" },
    { "6d2", "600" },
    { "2d3", "2000" },
    { "-0.", "0" },
    { "-0", "0" },
    { "0d99", "0" },
    { "1.50", "1.5" },
    { "0x10", "16" },
    { "1d-130", "1E-130" },
    { "-1d-130", "-1E-130" },
    { "9.9999999999999999999999999999999999999d125",
      "9.9999999999999999999999999999999999999E+125" },
    { D38 ".", D38 },
    { "0." D38, "0." D38 },
    { "-" D38 "d-167", "-" D38 "E-167" },
    { "1_000.000_1", "1000.0001" },
  };
  static const struct {
    const char *ion, *message;
  } bad[] = {
    { "1d126", "line 1: Number overflow. Attempting to store a number with magnitude larger than "
               "supported range; attribute path: a" },
    { "1d-131", "line 1: Number underflow. Attempting to store a number with magnitude smaller "
                "than supported range; attribute path: a" },
    { D38 "9", "line 1: Attempting to store more than 38 significant digits in a Number; "
               "attribute path: a" },
    { "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
      "line 1: Attempting to store more than 38 significant digits in a Number; attribute "
      "path: a" },
    { "1d99999999999", "line 1: The parameter cannot be converted to a numeric value: "
                       "1e99999999999; attribute path: a" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autofree char *line = g_strdup_printf ("{Item:{a:%s}}", ok[i].ion);
      g_autofree char *json = g_strdup_printf ("{'a':{'N':'%s'}}", ok[i].n);
      g_autoptr (DdbValue) item = line_item (line);
      tu_assert_item (item, json);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *line = g_strdup_printf ("{Item:{a:%s}}", bad[i].ion);
      assert_line_error (line, DDB_ION_ERROR_INVALID, bad[i].message);
    }
}

/* Nesting: the reader's cap and DynamoDB's 32 levels. */
static void
test_depth (void)
{
  GString *s = g_string_new (NULL);

  /* DDB_ION_MAX_DEPTH levels are read; one more is refused. */
  for (int extra = 0; extra < 2; extra++)
    {
      int depth = DDB_ION_MAX_DEPTH + extra;

      g_string_truncate (s, 0);
      for (int i = 0; i < depth; i++)
        g_string_append (s, i % 3 == 0 ? "[" : i % 3 == 1 ? "(" : "{a:");
      g_string_append_c (s, '1');
      for (int i = depth - 1; i >= 0; i--)
        g_string_append_c (s, "])}"[i % 3]);
      if (extra == 0)
        {
          g_autoptr (GError) error = NULL;
          g_assert_true (read_all (s->str, s->len, &error));
        }
      else
        assert_ion_error (s->str, DDB_ION_ERROR_UNSUPPORTED,
                          "line 1: values nested deeper than 100 levels");
    }
  /* A million open brackets: refused at the cap, no recursion past it. */
  {
    g_autofree char *deep = g_strnfill (1000000, '[');
    assert_ion_error (deep, DDB_ION_ERROR_UNSUPPORTED, "line 1: values nested deeper than 100");
  }
  /* DynamoDB: an attribute wraps a scalar in at most 31 maps or lists. */
  for (int wraps = 30; wraps <= 33; wraps++)
    {
      g_autoptr (GString) line = g_string_new ("{Item:{a:");
      g_autoptr (GError) error = NULL;
      g_autoptr (DdbValue) item = NULL;

      for (int i = 0; i < wraps; i++)
        g_string_append (line, i % 2 ? "[" : "{m:");
      g_string_append (line, "1");
      for (int i = wraps - 1; i >= 0; i--)
        g_string_append (line, i % 2 ? "]" : "}");
      g_string_append (line, "}}");
      item = ddb_ion_parse_export_line (line->str, line->len, &error);
      if (wraps <= 31)
        {
          g_assert_no_error (error);
          g_assert_true (ddb_item_validate (item, NULL));
          assert_round_trip (item);
        }
      else
        {
          g_assert_null (item);
          g_assert_error (error, DDB_ION_ERROR, DDB_ION_ERROR_INVALID);
          g_assert_true (g_str_has_prefix (error->message, "line 1: " DDB_NESTING_MESSAGE));
        }
    }
  g_string_free (s, TRUE);
}

/* What has no DynamoDB meaning, and the set rules. */
static void
test_mapping_refusals (void)
{
  static const struct {
    const char *value;
    DdbIonErrorCode code;
    const char *message;
  } bad[] = {
    { "1e0", DDB_ION_ERROR_NOT_DYNAMODB,
      "an Ion float has no DynamoDB type (a number is an Ion decimal or int, to stay exact)" },
    { "nan", DDB_ION_ERROR_NOT_DYNAMODB,
      "an Ion float has no DynamoDB type (a number is an Ion decimal or int, to stay exact)" },
    { "sym", DDB_ION_ERROR_NOT_DYNAMODB, "an Ion symbol has no DynamoDB type" },
    { "2007-02-23T", DDB_ION_ERROR_NOT_DYNAMODB, "an Ion timestamp has no DynamoDB type" },
    { "{{\"c\"}}", DDB_ION_ERROR_NOT_DYNAMODB, "an Ion clob has no DynamoDB type" },
    { "(a b)", DDB_ION_ERROR_NOT_DYNAMODB, "an Ion s-expression has no DynamoDB type" },
    { "x::1", DDB_ION_ERROR_NOT_DYNAMODB, "the annotation 'x' has no DynamoDB meaning" },
    { "$dynamodb_SS::$dynamodb_SS::[\"a\"]", DDB_ION_ERROR_NOT_DYNAMODB,
      "a set may carry only its $dynamodb_ annotation" },
    { "$dynamodb_SS::\"a\"", DDB_ION_ERROR_NOT_DYNAMODB,
      "$dynamodb_SS annotates a list, not a string" },
    { "$dynamodb_NS::null.list", DDB_ION_ERROR_NOT_DYNAMODB,
      "$dynamodb_NS annotates a list, not a null list" },
    { "$dynamodb_SS::[]", DDB_ION_ERROR_INVALID,
      "One or more parameter values were invalid: An string set  may not be empty" },
    { "$dynamodb_NS::[]", DDB_ION_ERROR_INVALID,
      "One or more parameter values were invalid: An number set  may not be empty" },
    { "$dynamodb_BS::[]", DDB_ION_ERROR_INVALID,
      "One or more parameter values were invalid: Binary sets should not be empty" },
    { "$dynamodb_SS::[\"a\",\"a\"]", DDB_ION_ERROR_INVALID,
      "One or more parameter values were invalid: Input collection [a, a] contains "
      "duplicates." },
    { "$dynamodb_NS::[1,1.0,10d-1]", DDB_ION_ERROR_INVALID,
      "Input collection contains duplicates" },
    { "$dynamodb_BS::[{{Yg==}},{{Yg==}}]", DDB_ION_ERROR_INVALID,
      "One or more parameter values were invalid: Input collection [Yg==, Yg==]of type BS "
      "contains duplicates." },
  };
  static const struct {
    const char *value, *message;
  } bad_elems[] = {
    { "$dynamodb_SS::[\"a\",1]", "a SS element must be a string, not a int; attribute path: a[1]" },
    { "$dynamodb_SS::[null]",
      "a SS element must be a string, not a null null; attribute path: a[0]" },
    { "$dynamodb_SS::[null.string]",
      "a SS element must be a string, not a null string; attribute path: a[0]" },
    { "$dynamodb_NS::[\"1\"]",
      "a NS element must be an int or decimal, not a string; attribute path: a[0]" },
    { "$dynamodb_NS::[1e0]",
      "a NS element must be an int or decimal, not a float; attribute path: a[0]" },
    { "$dynamodb_BS::[\"YQ==\"]",
      "a BS element must be a blob, not a string; attribute path: a[0]" },
    { "$dynamodb_SS::[x::\"a\"]",
      "a SS element must be a string, not an annotated string; attribute path: a[0]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *line = g_strdup_printf ("{Item:{a:%s}}", bad[i].value);
      g_autofree char *message = g_strdup_printf ("line 1: %s; attribute path: a", bad[i].message);
      assert_line_error (line, bad[i].code, message);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_elems); i++)
    {
      g_autofree char *line = g_strdup_printf ("{Item:{a:%s}}", bad_elems[i].value);
      g_autofree char *message = g_strdup_printf ("line 1: %s", bad_elems[i].message);
      assert_line_error (line, DDB_ION_ERROR_NOT_DYNAMODB, message);
    }
  /* Paths through maps and lists, and names needing quotes in the path. */
  assert_line_error ("{Item:{m:{'x.y':[1,{z:1e0}]}}}", DDB_ION_ERROR_NOT_DYNAMODB,
                     "line 1: an Ion float has no DynamoDB type (a number is an Ion decimal or "
                     "int, to stay exact); attribute path: m.\"x.y\"[1].z");
  assert_line_error ("{Item:{a:1,b:{c:1,c:2}}}", DDB_ION_ERROR_INVALID,
                     "line 1: an attribute name appears twice; attribute path: b.c");
  assert_line_error ("{Item:{a:1,\n a:2}}", DDB_ION_ERROR_INVALID,
                     "line 2: an attribute name appears twice; attribute path: a");
  /* Repeated names in big structs too, wherever they are. */
  for (int dup = -1; dup < 100; dup += 33)
    {
      g_autoptr (GString) line = g_string_new ("{Item:{");
      g_autoptr (GError) error = NULL;
      g_autoptr (DdbValue) item = NULL;

      for (int i = 0; i < 100; i++)
        g_string_append_printf (line, "a%d:%d,", i, i);
      if (dup >= 0)
        g_string_append_printf (line, "'a%d':1", dup);
      g_string_append (line, "}}");
      item = ddb_ion_parse_export_line (line->str, line->len, &error);
      if (dup < 0)
        {
          g_assert_no_error (error);
          g_assert_cmpuint (ddb_value_map_size (item), ==, 100);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (
              "line 1: an attribute name appears twice; attribute path: a%d", dup);
          g_assert_null (item);
          g_assert_cmpstr (error->message, ==, message);
        }
    }
  assert_line_error ("{Item:{$0:1}}", DDB_ION_ERROR_NOT_DYNAMODB,
                     "line 1: a field name without text ($0) cannot be an attribute name");
  /* Sets that are fine: numbers compared by value, ints and decimals mixed. */
  {
    g_autoptr (DdbValue) item
        = line_item ("{Item:{s:$dynamodb_SS::[\"a\",\"A\",\"\"],n:$dynamodb_NS::[1,1.5,0x10,-0.,"
                     "1d-130],b:$dynamodb_BS::[{{}},{{AA==}}],l:[null,null.int,true,\"x\",{{}}]}}");
    tu_assert_item (item, "{'s':{'SS':['a','A','']},'n':{'NS':['1','1.5','16','0','1E-130']},"
                          "'b':{'BS':['','AA==']},'l':{'L':[{'NULL':true},{'NULL':true},"
                          "{'BOOL':true},{'S':'x'},{'B':''}]}}");
  }
  /* ddb_ion_to_ddb on a single value. */
  {
    g_autoptr (DdbIonValue) v = ion_one ("[1, \"a\"]");
    g_autoptr (DdbValue) d = ddb_ion_to_ddb (v, NULL);
    g_autoptr (DdbValue) expected
        = ddb_json_parse_value ("{\"L\":[{\"N\":\"1\"},{\"S\":\"a\"}]}", -1, NULL);
    g_assert_true (ddb_value_equal (d, expected));
  }
}

/* The writer's shapes */

static void
test_writer_numbers (void)
{
  static const struct {
    const char *n, *ion;
  } cases[] = {
    { "103", "103." },
    { "600", "6d2" },
    { "2000", "2d3" },
    { "0", "0." },
    { "-0", "0." },
    { "1", "1." },
    { "-1", "-1." },
    { "1.5", "1.5" },
    { "-123.456", "-123.456" },
    { "0.001", "0.001" },
    { "0.000001", "0.000001" },
    { "0.0000001", "1d-7" },
    { "0.00000012", "12d-8" },
    { "1.2E-10", "12d-11" },
    { "123000", "123d3" },
    { "1E125", "1d125" },
    { "1E-130", "1d-130" },
    { "-9.9999999999999999999999999999999999999E+125",
      "-99999999999999999999999999999999999999d88" },
    { D38, D38 "." },
    { "0." D38, "0." D38 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{'a':{'N':'%s'}}", cases[i].n);
      g_autoptr (DdbValue) item = tu_item (json);
      g_autofree char *text = ddb_ion_format_item (item);
      g_autofree char *expected = g_strdup_printf ("{a:%s}", cases[i].ion);
      g_assert_cmpstr (text, ==, expected);
      assert_round_trip (item);
    }
}

static void
test_writer_shapes (void)
{
  static const struct {
    const char *json, *ion;
  } cases[] = {
    { "{'s':{'S':'a\\\"b\\\\c'}}", "{s:\"a\\\"b\\\\c\"}" },
    { "{'s':{'S':'\\u0000\\u0007\\b\\t\\n\\u000b\\f\\r\\u0001\\u001f\\u007f'}}",
      "{s:\"\\0\\a\\b\\t\\n\\v\\f\\r\\x01\\x1f\x7f\"}" },
    { "{'s':{'S':'é€😀'}}", "{s:\"é€😀\"}" },
    { "{'s':{'S':''}}", "{s:\"\"}" },
    { "{'b':{'B':'aGVsbG8='}}", "{b:{{aGVsbG8=}}}" },
    { "{'b':{'B':''}}", "{b:{{}}}" },
    { "{'t':{'BOOL':true},'f':{'BOOL':false},'n':{'NULL':true}}", "{t:true,f:false,n:null}" },
    { "{'l':{'L':[]},'m':{'M':{}}}", "{l:[],m:{}}" },
    { "{'ss':{'SS':['a','b']},'ns':{'NS':['1','2.5']},'bs':{'BS':['AA==','AQ==']}}",
      "{ss:$dynamodb_SS::[\"a\",\"b\"],ns:$dynamodb_NS::[1.,2.5],"
      "bs:$dynamodb_BS::[{{AA==}},{{AQ==}}]}" },
    { "{'m':{'M':{'k':{'S':'v'},'l':{'L':[{'S':'a'},{'N':'1'}]}}}}", "{m:{k:\"v\",l:[\"a\",1.]}}" },
    /* Names: bare identifiers, quoted otherwise. */
    { "{'a_1$':{'NULL':true},'_':{'NULL':true},'$x':{'NULL':true}}", "{a_1$:null,_:null,$x:null}" },
    { "{'null':{'NULL':true},'true':{'NULL':true},'false':{'NULL':true},'nan':{'NULL':true}}",
      "{'null':null,'true':null,'false':null,'nan':null}" },
    { "{'$1':{'NULL':true},'$':{'NULL':true},'$1a':{'NULL':true}}", "{'$1':null,$:null,$1a:null}" },
    { "{'a-b':{'NULL':true},'1a':{'NULL':true},'a b':{'NULL':true},'it\\u0027s':{'NULL':true}}",
      "{'a-b':null,'1a':null,'a b':null,'it\\'s':null}" },
    { "{'é':{'NULL':true},'a\\\\b':{'NULL':true},'a\\nb':{'NULL':true}}",
      "{'é':null,'a\\\\b':null,'a\\nb':null}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbValue) item = tu_item (cases[i].json);
      g_autofree char *text = ddb_ion_format_item (item);
      g_assert_cmpstr (text, ==, cases[i].ion);
      assert_round_trip (item);
    }
  /* Not UTF-8 (built by hand): written as U+FFFD. */
  {
    g_autoptr (DdbValue) item = ddb_value_new_m ();
    g_autofree char *text = NULL;
    ddb_value_map_set (item, "a", ddb_value_new_s ("x\xffy", 3));
    text = ddb_ion_format_item (item);
    g_assert_cmpstr (text, ==, "{a:\"x\xef\xbf\xbdy\"}");
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ion/aws-examples", test_aws_examples);
  g_test_add_func ("/ion/export-file", test_export_file);
  g_test_add_func ("/ion/incremental", test_incremental_records);
  g_test_add_func ("/ion/grammar/nulls-bools", test_nulls_and_bools);
  g_test_add_func ("/ion/grammar/numbers", test_numbers);
  g_test_add_func ("/ion/grammar/timestamps", test_timestamps);
  g_test_add_func ("/ion/grammar/symbols", test_symbols);
  g_test_add_func ("/ion/grammar/strings", test_strings);
  g_test_add_func ("/ion/grammar/lobs", test_lobs);
  g_test_add_func ("/ion/grammar/containers", test_containers);
  g_test_add_func ("/ion/depth", test_depth);
  g_test_add_func ("/ion/ddb/numbers", test_numbers_to_ddb);
  g_test_add_func ("/ion/ddb/refusals", test_mapping_refusals);
  g_test_add_func ("/ion/writer/numbers", test_writer_numbers);
  g_test_add_func ("/ion/writer/shapes", test_writer_shapes);
  g_test_add_func ("/ion/corpus-round-trip", test_corpus_round_trip);
  g_test_add_func ("/ion/truncations", test_truncations);
  g_test_add_func ("/ion/mutations", test_mutations);
  g_test_add_func ("/ion/direct-path", test_direct_path);

  return g_test_run ();
}