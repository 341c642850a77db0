/* test-ion-direct.c: the direct path of export lines (ddb_ion_direct_export_record) against
 * the generic tree: what it accepts, the generic path accepts with the same record, and it
 * takes the lines an export writes; every construct it leaves to the generic path, with the
 * value or error that path gives. The other Ion tests check the two paths agree on every line
 * they read (their corpus, truncations and mutations). */
#include <string.h>

#include "core/ion.h"

#include "test-ion-util.h"

/* The record the generic path reads from `line`, or FALSE with its error. */
static gboolean
generic_record (const char *line, gsize len, DdbIonRecord *out, GError **error)
{
  g_autoptr (DdbIonReader) reader = ddb_ion_reader_new (line, len);
  g_autoptr (DdbIonValue) extra = NULL;

  ddb_ion_reader_set_first_line (reader, 1);
  if (!ddb_ion_reader_next_record (reader, out, error))
    return FALSE;
  if (out->line == 0)
    return g_set_error_literal (error, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB, "no record"),
           FALSE;
  if (!ddb_ion_reader_next_value (reader, &extra, error) || extra != NULL)
    {
      ddb_ion_record_clear (out);
      if (extra != NULL)
        g_set_error_literal (error, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB, "second value");
      return FALSE;
    }
  return TRUE;
}

static char *
record_text (const DdbIonRecord *rec)
{
  GString *s = g_string_new (NULL);

  ddb_ion_append_record_line (s, rec);
  return g_string_free (s, FALSE);
}

gboolean
assert_paths_agree (const char *line, gsize len)
{
  /* Exact-size copies, so that a read past the end is caught under ASan. */
  char *copy = g_memdup2 (line, len > 0 ? len : 1);
  DdbIonRecord direct, generic;
  g_autoptr (GError) error = NULL;
  gboolean took = ddb_ion_direct_export_record (copy, len, 1, &direct);

  if (!took)
    {
      g_assert_null (direct.item);
      g_assert_null (direct.keys);
      g_assert_null (direct.new_image);
      g_assert_null (direct.old_image);
      g_assert_null (direct.metadata);
    }
  else
    {
      g_autofree char *a = NULL, *b = NULL;

      if (!generic_record (copy, len, &generic, &error))
        g_error ("the direct path accepted what the generic one refuses (%s): %.*s", error->message,
                 (int) len, line);
      a = record_text (&direct);
      b = record_text (&generic);
      if (strcmp (a, b) != 0)
        g_error ("the paths read %.*s differently:\n%s\n%s", (int) len, line, a, b);
      g_assert_cmpuint (direct.line, ==, generic.line);
      ddb_ion_record_clear (&direct);
      ddb_ion_record_clear (&generic);
    }
  g_free (copy);
  return took;
}

/* The item of `line` through ddb_ion_parse_export_line, with the path it must have taken. */
static void
assert_direct (const char *line, gboolean expect_direct)
{
  gboolean took = assert_paths_agree (line, strlen (line));

  if (took != expect_direct)
    g_error ("'%s' %s the direct path", line, took ? "took" : "did not take");
}

void
test_direct_path (void)
{
  /* What AWS's export writes, every type, and the shapes around it. */
  static const char *const direct[] = {
    "$ion_1_0 {Item:{PK:\"a\"}}",
    "{Item:{PK:\"a\"}}",
    "$ion_1_0{Item:{PK:\"a\"}}",
    "  $ion_1_0\t{ Item : { PK : \"a\" , n : -12.5d-3 , m : { } , l : [ ] } }  ",
    "$ion_1_0 {Item:{s:\"\",n:0,z:-0.,d:1.,e:1d+5,E:7D-2,big:" D38 ",neg:-0.000" D38 "}}",
    "$ion_1_0 {Item:{b:{{}},c:{{ aGVsbG8= }},t:true,f:false,x:null}}",
    "$ion_1_0 {Item:{ss:$dynamodb_SS::[\"a\",\"b\"],ns:$dynamodb_NS::[1,2.5,3d1],"
    "bs:$dynamodb_BS :: [{{YQ==}},{{Yg==}}]}}",
    "$ion_1_0 {Item:{'quoted name':1,\"string name\":2,'':3,$x:4,_y:5,'null':6,nulls:7}}",
    "$ion_1_0 {Item:{esc:\"\\\"\\\\\\n\\t\\u00e9\\U0001F600\\x41\\0\",'n\\'q':\"\\/\"}}",
    "$ion_1_0 {Item:{u:\"caf\xc3\xa9 \xf0\x9f\x98\x80\",'\xc3\xa9':\"\x7f\t\v\f\"}}",
    "$ion_1_0 {Item:{l:[1,[2,[3]],{a:[]},],m:{a:{b:{c:null}},},}}",
    "$ion_1_0 {Keys:{PK:\"a\"},Metadata:{WriteTimestampMicros:1680109764000000},"
    "OldImage:{PK:\"a\",v:1},NewImage:{PK:\"a\",v:2}}",
    "$ion_1_0 {Metadata:{WriteTimestampMicros:1},Keys:{PK:\"a\"}}",
    "$ion_1_0 {'Item':{PK:\"a\"}}",
    "$ion_1_0 {Item:{$ion_symbol_table:1,$ion_1_0:2}}",
  };
  /* Left to the generic path, which accepts them. */
  static const char *const generic_ok[] = {
    "$ion_1_0 {Item:{PK:\"a\"}} // a comment",
    "$ion_1_0 /* c */ {Item:{PK:\"a\"}}",
    "$ion_1_0 {Item:{PK:'''long''' '''string'''}}",
    "$ion_1_0 {Item:{n:1_000}}",
    "$ion_1_0 {Item:{s:null.string}}",
    "$ion_1_0 {Item:{n:0x1F}}",
    "$ion_1_0 {Item:{n:0b101}}",
    "$ion_1_0 {Item:{b:{{ aGVs bG8= }}}}",
    "$ion_1_0 {Item:{b:{{aGl=}}}}",
    "$ion_1_0 {Item:{PK:\"a\"}}\r",
    "\n$ion_1_0 {Item:{PK:\"a\"}}",
    "$ion_1_0 $ion_1_0 {Item:{PK:\"a\"}}",
    "$ion_symbol_table::{symbols:[\"PK\"]} {Item:{$10:\"a\"}}",
    "$ion_1_0 {Item:{'''long name''':1}}",
    "$ion_1_0 {Item:{ss:'$dynamodb_SS'::[\"a\"]}}",
    "$ion_1_0 {Item:{ss:$dynamodb_SS::[\"a\",'''b''']}}",
  };
  /* Left to the generic path, which refuses them. */
  static const char *const generic_refused[] = {
    "$ion_1_0 {Item:{f:1.5e3}}",
    "$ion_1_0 {Item:{b:{{aGk}}}}",
    "$ion_1_0 {Item:{f:nan}}",
    "$ion_1_0 {Item:{f:+inf}}",
    "$ion_1_0 {Item:{t:2007-02-23T12:14Z}}",
    "$ion_1_0 {Item:{t:2007T}}",
    "$ion_1_0 {Item:{s:sym}}",
    "$ion_1_0 {Item:{s:'sym'}}",
    "$ion_1_0 {Item:{c:{{\"clob\"}}}}",
    "$ion_1_0 {Item:{x:(1 2)}}",
    "$ion_1_0 {Item:{a:1,a:2}}",
    "$ion_1_0 {Item:{n:007}}",
    "$ion_1_0 {Item:{n:1.}} {Item:{n:2.}}",
    "$ion_1_0 {Item:{PK:\"a\"},Item:{PK:\"b\"}}",
    "$ion_1_0 {Item:{PK:\"a\"},Keys:{PK:\"a\"}}",
    "$ion_1_0 {Keys:{PK:\"a\"},Other:{}}",
    "$ion_1_0 {NewImage:{PK:\"a\"}}",
    "$ion_1_0 {Item:ann::{PK:\"a\"}}",
    "$ion_1_0 {Item:{ss:$dynamodb_SS::[]}}",
    "$ion_1_0 {Item:{ss:$dynamodb_SS::[\"a\",\"a\"]}}",
    "$ion_1_0 {Item:{ns:$dynamodb_NS::[1,1.0]}}",
    "$ion_1_0 {Item:{ns:$dynamodb_NS::[1.5e0]}}",
    "$ion_1_0 {Item:{ss:$dynamodb_SS::$dynamodb_SS::[\"a\"]}}",
    "$ion_1_0 {Item:{ss:$dynamodb_SS::[\"a\",1]}}",
    "$ion_1_0 {Item:{ss:$dynamodb_XS::[\"a\"]}}",
    "$ion_1_0 {Item:{s:\"a\nb\"}}",
    "$ion_1_0 {Item:{s:\"\x01\"}}",
    "$ion_1_0 {Item:{s:\"\xc3\"}}",
    "$ion_1_0 {Item:{s:\"\xed\xa0\x80\"}}",
    "$ion_1_0 {Item:{s:\"\\q\"}}",
    "$ion_1_0 {Item:{n:1e400}}",
    "$ion_1_0 {Item:{n:1d400}}",
    "$ion_1_0 {Item:{n:1234567890123456789012345678901234567890}}",
    "$ion_1_0 {Item:{null:1}}",
    "$ion_1_0 {Item:{true:1}}",
    "$ion_1_0 {Item:{$0:1}}",
    "$ion_1_0 {Item:{a::1}}",
    "$ion_1_0 {Item:{,}}",
    "$ion_1_0 {Item:{l:[,]}}",
    "$ion_1_0 {Item:{PK:\"a\"}",
    "$ion_1_0 {Item:{PK:\"a\"}}}",
    "$ion_1_1 {Item:{PK:\"a\"}}",
    "$ion_1_0 [Item]",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (direct); i++)
    assert_direct (direct[i], TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (generic_ok); i++)
    {
      DdbIonRecord rec;
      g_autoptr (GError) error = NULL;

      assert_direct (generic_ok[i], FALSE);
      if (!ddb_ion_parse_export_record (generic_ok[i], strlen (generic_ok[i]), 1, &rec, &error))
        g_error ("'%s': %s", generic_ok[i], error->message);
      ddb_ion_record_clear (&rec);
    }
  for (guint i = 0; i < G_N_ELEMENTS (generic_refused); i++)
    {
      DdbIonRecord rec;
      g_autoptr (GError) error = NULL;

      assert_direct (generic_refused[i], FALSE);
      if (ddb_ion_parse_export_record (generic_refused[i], strlen (generic_refused[i]), 1, &rec,
                                       &error))
        g_error ("'%s' was accepted", generic_refused[i]);
      g_assert_true (g_str_has_prefix (error->message, "line 1: "));
    }

  /* Nesting: 31 wraps are DynamoDB's limit; 32 go to the generic path, which words the error. */
  for (int wraps = 30; wraps <= 33; wraps++)
    {
      g_autoptr (GString) line = g_string_new ("$ion_1_0 {Item:{a:");
      for (int k = 0; k < wraps; k++)
        g_string_append (line, k % 2 ? "[" : "{m:");
      g_string_append (line, "1");
      for (int k = wraps; k-- > 0;)
        g_string_append (line, k % 2 ? "]" : "}");
      g_string_append (line, "}}");
      assert_direct (line->str, wraps <= 31);
    }

  /* A big map finds its repeated names through the hash, wherever the repeat is. */
  for (guint dup_at = 0; dup_at <= 40; dup_at += 8)
    {
      g_autoptr (GString) line = g_string_new ("$ion_1_0 {Item:{");
      for (guint k = 0; k < 40; k++)
        g_string_append_printf (line, "a%u:%u,", k, k);
      g_string_append_printf (line, "a%u:0}}", dup_at);
      assert_direct (line->str, dup_at == 40);
    }
}
