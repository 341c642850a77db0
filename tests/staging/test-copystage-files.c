/* test-copystage-files.c: the items of a file staged into a table (ddb_copy_stage_file): a
 * wide corpus of good and bad lines in jsonl, json and csv, every refused item named by its
 * file and line and nothing staged when any is refused, a syntax error that stops the reading
 * as the last refusal, the good lines staged, committed and arriving exactly, and overwrite. */
#include <glib/gstdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/number.h"
#include "core/plainjson.h"
#include "staging/copystage.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"
#include "../engine/item-corpus.h"
#include "copystage-fixture.h"

static const char *const upper_names[] = { "PK", "SK", NULL };

typedef struct {
  GString *text;
  guint line;        /* lines written so far */
  GArray *bad_lines; /* the lines that must be refused, in order */
  GPtrArray *good;   /* the items that would be staged */
} FileBuilder;

static void
fb_init (FileBuilder *fb)
{
  fb->text = g_string_new (NULL);
  fb->line = 0;
  fb->bad_lines = g_array_new (FALSE, FALSE, sizeof (guint));
  fb->good = cs_items_new ();
}

static void
fb_clear (FileBuilder *fb)
{
  g_string_free (fb->text, TRUE);
  g_array_unref (fb->bad_lines);
  g_ptr_array_unref (fb->good);
}

/* Appends TEXT as one line (or several: counted); BAD: the first is refused. */
static void
fb_line (FileBuilder *fb, const char *text, gboolean bad)
{
  guint first = fb->line + 1;

  g_string_append (fb->text, text);
  g_string_append_c (fb->text, '\n');
  for (const char *p = text; *p != '\0'; p++)
    if (*p == '\n')
      fb->line++;
  fb->line++;
  if (bad)
    g_array_append_val (fb->bad_lines, first);
}

/* Bad lines, each refused for its own reason; %s is a unique partition key value. */
static const char *const bad_jsonl[] = {
  "{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"S\": \"1\"}}",
  "{\"pk\": {\"S\": \"%s\"}}",
  "{\"pk\": {\"N\": \"1\"}, \"sk\": {\"N\": \"1\"}, \"tag\": {\"S\": \"%s\"}}",
  "{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"1\"}, \"email\": {\"N\": \"5\"}}",
  "{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"1\"}, \"rank\": {\"S\": \"high\"}}",
  "{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"1\"}, \"set\": {\"SS\": []}}",
  "{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"not a number\"}}",
  "{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"1\"}",
  "[\"%s\"]",
  "{\"pk\": {\"S\": \"\"}, \"sk\": {\"N\": \"1\"}, \"tag\": {\"S\": \"%s\"}}",
};

static const char *const bad_json[] = {
  "{\"pk\": \"%s\", \"sk\": \"1\"}",
  "{\"pk\": \"%s\"}",
  "{\"pk\": 1, \"sk\": 1, \"tag\": \"%s\"}",
  "{\"pk\": \"%s\", \"sk\": 1, \"email\": 5}",
  "{\"pk\": \"%s\", \"sk\": 1, \"rank\": \"high\"}",
  "{\"pk\": \"%s\", \"sk\": 1, \"x\": ",
  "{\"pk\": \"%s\", \"sk\": 1e999999}",
};

/* CSV under the header "pk,sk (N),email,rank (N),note". */
static const char *const bad_csv[] = {
  "%s,abc,,,", "%s,1,,,,extra", ",1,,,%s", "%s,1,,notnum,", "%s,,,,", "%s,1,\"\",,",
};

static void
add_bad (FileBuilder *fb, const char *const *bad, guint n_bad, guint i)
{
  g_autofree char *key = g_strdup_printf ("bad-%u", i);
  g_auto (GStrv) parts = g_strsplit (bad[i % n_bad], "%s", -1);
  g_autofree char *line = g_strjoinv (key, parts);

  fb_line (fb, line, TRUE);
}

/* A good item that fits the CSV header (pk, sk, note). */
static DdbValue *
csv_item (guint i)
{
  g_autofree char *pk = g_strdup_printf ("good-%u, \"q\"", i);
  g_autofree char *note = g_strdup_printf ("line\nbreak %u", i);
  DdbValue *item = ddb_value_new_m ();

  ddb_value_map_set (item, "pk", ddb_value_new_s (pk, -1));
  ddb_value_map_set (item, "sk", tu_num (i % 2 ? "12345678901234567890123456789012345678" : "7"));
  ddb_value_map_set (item, "note", ddb_value_new_s (note, -1));
  return item;
}

static void
csv_append (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (; *s != '\0'; s++)
    {
      if (*s == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

/* A file of FORMAT: N lines, every third bad in turn, the rest good items of the corpus; a
 * duplicate of the first good item near the end. */
static void
build_file (FileBuilder *fb, DdbSnapshotFormat format, guint n)
{
  g_autoptr (GPtrArray) items = cs_corpus (n, 12 + format);
  const DdbValue *first_good = NULL;
  guint first_good_line = 0;

  fb_init (fb);
  if (format == DDB_SNAPSHOT_CSV)
    fb_line (fb, "pk,sk (N),email,rank (N),note", FALSE);
  for (guint i = 0; i < n; i++)
    {
      const DdbValue *item = g_ptr_array_index (items, i);

      if (i % 3 == 1)
        {
          if (format == DDB_SNAPSHOT_JSONL)
            add_bad (fb, bad_jsonl, G_N_ELEMENTS (bad_jsonl), i);
          else if (format == DDB_SNAPSHOT_JSON)
            add_bad (fb, bad_json, G_N_ELEMENTS (bad_json), i);
          else
            add_bad (fb, bad_csv, G_N_ELEMENTS (bad_csv), i);
          continue;
        }
      if (format == DDB_SNAPSHOT_CSV)
        {
          g_autoptr (DdbValue) row = csv_item (i);
          g_autoptr (GString) line = g_string_new (NULL);
          g_autofree char *sk = NULL;
          GString *num = g_string_new (NULL);

          ddb_number_append (&ddb_value_map_get (row, "sk")->number, num);
          sk = g_string_free (num, FALSE);
          csv_append (line, ddb_value_map_get (row, "pk")->bytes.data);
          g_string_append_printf (line, ",%s,,,", sk);
          csv_append (line, ddb_value_map_get (row, "note")->bytes.data);
          fb_line (fb, line->str, FALSE);
          g_ptr_array_add (fb->good, g_steal_pointer (&row));
        }
      else
        {
          g_autofree char *text = format == DDB_SNAPSHOT_JSONL
                                      ? ddb_json_format_item (item)
                                      : ddb_plain_format_item (item, DDB_PLAIN_TAGGED, NULL);

          fb_line (fb, text, FALSE);
          g_ptr_array_add (fb->good, ddb_value_copy (item));
        }
      if (first_good == NULL)
        {
          first_good = g_ptr_array_index (fb->good, 0);
          first_good_line = fb->line;
        }
    }
  /* The first good item again: refused as a duplicate of its line. */
  {
    g_autofree char *text = NULL;

    if (format == DDB_SNAPSHOT_JSONL)
      text = ddb_json_format_item (first_good);
    else if (format == DDB_SNAPSHOT_JSON)
      text = ddb_plain_format_item (first_good, DDB_PLAIN_TAGGED, NULL);
    else
      {
        g_autoptr (GString) line = g_string_new (NULL);

        csv_append (line, ddb_value_map_get (first_good, "pk")->bytes.data);
        g_string_append (line, ",7.0,,,");
        text = g_strdup (line->str);
      }
    fb_line (fb, text, TRUE);
  }
  g_assert_cmpuint (first_good_line, >, 0);
}

static guint
line_of (const char *message, const char *file)
{
  g_autofree char *prefix = g_strdup_printf ("%s:", file);
  guint64 line = 0;
  char *end = NULL;

  g_assert_true (g_str_has_prefix (message, prefix));
  line = g_ascii_strtoull (message + strlen (prefix), &end, 10);
  g_assert_true (end != NULL && end[0] == ':' && end[1] == ' ');
  return (guint) line;
}

static gboolean
stage_file (DdbStaging *st, DdbBackend *be, const char *path, gboolean overwrite,
            DdbCopyStageReport *report, GError **error)
{
  DdbCopyStageSpec spec = { CONN, "Target", upper_names /* ignored */, overwrite };

  return ddb_copy_stage_file (st, be, &spec, path, DDB_SNAPSHOT_AUTO, NULL, NULL, NULL, report,
                              error);
}

static void
test_files_refused (void)
{
  static const DdbSnapshotFormat formats[]
      = { DDB_SNAPSHOT_JSONL, DDB_SNAPSHOT_JSON, DDB_SNAPSHOT_CSV };
  g_autofree char *dir = etu_tmp_dir ("copystage-XXXXXX");

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (DdbBackend) be = cs_target_backend ();
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      g_autoptr (GPtrArray) changes = NULL;
      g_autofree char *name = g_strdup_printf ("items.%s", ddb_snapshot_format_name (formats[f]));
      g_autofree char *path = g_build_filename (dir, name, NULL);
      DdbCopyStageReport report;
      FileBuilder fb;
      GError *error = NULL;

      build_file (&fb, formats[f], 90);
      g_assert_true (g_file_set_contents (path, fb.text->str, -1, NULL));
      g_assert_true (stage_file (st, be, path, FALSE, &report, &error));
      g_assert_no_error (error);
      if (report.failures->len != fb.bad_lines->len)
        for (guint i = 0; i < report.failures->len; i++)
          g_test_message (
              "%s", ((DdbExprStageFailure *) g_ptr_array_index (report.failures, i))->message);
      g_assert_cmpuint (report.n_failed, ==, fb.bad_lines->len);
      g_assert_cmpuint (report.n_items, ==, fb.good->len + fb.bad_lines->len);
      g_assert_cmpuint (report.n_created, ==, 0);
      for (guint i = 0; i < report.failures->len; i++)
        {
          const DdbExprStageFailure *failure = g_ptr_array_index (report.failures, i);

          g_assert_cmpuint (line_of (failure->message, name), ==,
                            g_array_index (fb.bad_lines, guint, i));
        }
      ddb_copy_stage_report_clear (&report);
      changes = cs_open_changes (st, NULL);
      g_assert_cmpuint (changes->len, ==, 0);

      /* The good lines alone stage, commit and arrive exactly. */
      {
        g_autofree char *good_name
            = g_strdup_printf ("good.%s", ddb_snapshot_format_name (formats[f]));
        g_autofree char *good_path = g_build_filename (dir, good_name, NULL);
        g_autoptr (GPtrArray) got = NULL;

        g_assert_true (ddb_snapshot_write_items (good_path, fb.good, formats[f], NULL, NULL, NULL,
                                                 NULL, &error));
        g_assert_no_error (error);
        g_assert_true (stage_file (st, be, good_path, FALSE, &report, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (report.n_failed, ==, 0);
        g_assert_cmpuint (report.n_created, ==, fb.good->len);
        ddb_copy_stage_report_clear (&report);
        cs_commit (st, be, fb.good->len, 0);
        got = cs_scan_all (be, "Target");
        corpus_assert_same_items (fb.good, got, "pk", "sk");
      }
      fb_clear (&fb);
    }
  etu_remove_tree (dir);
}

/* A syntax error that leaves the rest unreadable is the last refusal, at its line. */
static void
test_files_stop (void)
{
  static const struct {
    const char *name;
    const char *text;
    guint lines[4];
  } cases[] = {
    { "array.json",
      "[\n{\"pk\": \"a\", \"sk\": 1},\n{\"pk\": \"b\", \"sk\": \"x\"},\n{\"pk\": \"c\", \"sk\": "
      "1, \"x\": tru},\n{\"pk\": \"d\", \"sk\": 1}\n{\"pk\": \"e\", \"sk\": 1}\n]\n",
      { 3, 4, 6, 0 } },
    { "quote.csv", "pk,sk (N)\na,1\nb,x\nc,1\nd\"q,1\ne,1\n", { 3, 5, 0 } },
    { "open.csv", "pk,sk (N)\na,1\nb,x\n\"c,1\ne,1\n", { 3, 4, 0 } },
    { "header.csv", "pk,pk\na,1\n", { 1, 0 } },
    { "empty.jsonl", "", { 0 } },
  };
  g_autofree char *dir = etu_tmp_dir ("copystage-XXXXXX");

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (DdbBackend) be = cs_target_backend ();
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      g_autoptr (GPtrArray) changes = NULL;
      g_autofree char *path = g_build_filename (dir, cases[c].name, NULL);
      DdbCopyStageReport report;
      GError *error = NULL;
      guint n = 0;

      g_assert_true (g_file_set_contents (path, cases[c].text, -1, NULL));
      g_assert_true (stage_file (st, be, path, FALSE, &report, &error));
      g_assert_no_error (error);
      while (cases[c].lines[n] != 0)
        n++;
      for (guint i = 0; i < report.failures->len; i++)
        g_test_message ("%s",
                        ((DdbExprStageFailure *) g_ptr_array_index (report.failures, i))->message);
      g_assert_cmpuint (report.n_failed, ==, n);
      for (guint i = 0; i < n; i++)
        g_assert_cmpuint (
            line_of (((DdbExprStageFailure *) g_ptr_array_index (report.failures, i))->message,
                     cases[c].name),
            ==, cases[c].lines[i]);
      ddb_copy_stage_report_clear (&report);
      changes = cs_open_changes (st, NULL);
      g_assert_cmpuint (changes->len, ==, 0);
    }
  /* No such file: an error, no report. */
  {
    g_autoptr (DdbBackend) be = cs_target_backend ();
    g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
    g_autofree char *path = g_build_filename (dir, "missing.jsonl", NULL);
    DdbCopyStageReport report;
    GError *error = NULL;

    g_assert_false (stage_file (st, be, path, FALSE, &report, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_clear_error (&error);
    ddb_copy_stage_report_clear (&report);
  }
  etu_remove_tree (dir);
}

/* Overwrite from a file: the item as read becomes the update's original. */
static void
test_file_overwrite (void)
{
  g_autoptr (DdbBackend) be = cs_target_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = cs_corpus (60, 13);
  g_autofree char *dir = etu_tmp_dir ("copystage-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "over.jsonl", NULL);
  g_autoptr (GPtrArray) got = NULL;
  DdbCopyStageReport report;
  GError *error = NULL;

  for (guint i = 0; i < items->len; i += 2)
    {
      g_autoptr (DdbValue) there = ddb_value_copy (g_ptr_array_index (items, i));

      ddb_value_map_set (there, "old", ddb_value_new_bool (TRUE));
      cs_put_item (be, "Target", there);
    }
  g_assert_true (
      ddb_snapshot_write_items (path, items, DDB_SNAPSHOT_JSONL, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (stage_file (st, be, path, TRUE, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.n_overwritten, ==, items->len / 2);
  g_assert_cmpuint (report.n_created, ==, items->len / 2);
  ddb_copy_stage_report_clear (&report);
  cs_commit (st, be, items->len, 0);
  got = cs_scan_all (be, "Target");
  corpus_assert_same_items (items, got, "pk", "sk");
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/copystage/files-refused", test_files_refused);
  g_test_add_func ("/staging/copystage/files-stop", test_files_stop);
  g_test_add_func ("/staging/copystage/file-overwrite", test_file_overwrite);
  return g_test_run ();
}
