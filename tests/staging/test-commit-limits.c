/* test-commit-limits.c: the commit where DynamoDB's limits bite, against the embedded engine
 * through the backend, in both commit modes: deletes of items too wide for a whole-item
 * condition (the version guard and the pre-read fallbacks, a change behind our back always a
 * conflict and never deleted), throttling past the retry limit (backed off, reported, left
 * staged, committed later exactly once), and cancellation at any point of a commit leaving the
 * journal consistent. */
#include <string.h>

#include "backend/backend.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/expr.h"
#include "staging/commit.h"
#include "staging/writes.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"

#define CONN "test-connection"
/* More attributes than a condition can compare: 300 operators are 150 "a = :v" terms. */
#define WIDE 200

static const DdbCommitMode modes[] = { DDB_COMMIT_SINGLE, DDB_COMMIT_TRANSACTIONS };

static json_t *
call_ok (DdbBackend *be, const char *op, json_t *req)
{
  GError *error = NULL;
  json_t *resp = NULL;

  ddb_backend_call (be, op, req, NULL, &resp, &error);
  g_assert_no_error (error);
  json_decref (req);
  return resp;
}

static void
create_table (DdbBackend *be, const char *table)
{
  json_decref (
      call_ok (be, "CreateTable",
               etu_json ("{'TableName': '%s', 'BillingMode': 'PAY_PER_REQUEST',"
                         " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'S'}],"
                         " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}]}",
                         table)));
}

static DdbValue *
key_of (const char *id)
{
  g_autofree char *text = g_strdup_printf ("{\"id\": {\"S\": \"%s\"}}", id);

  return ddb_json_parse_item (text, -1, NULL);
}

/* An item with WIDE attributes besides its key, and VER (NULL: none) as its version. */
static DdbValue *
wide_item (const char *id, const char *ver)
{
  GString *text = g_string_new (NULL);
  DdbValue *item;

  g_string_append_printf (text, "{\"id\": {\"S\": \"%s\"}", id);
  for (guint i = 0; i < WIDE; i++)
    g_string_append_printf (text, ", \"attribute_%03u\": {\"S\": \"value %u of %s\"}", i, i, id);
  if (ver != NULL)
    g_string_append_printf (text, ", \"ver\": {\"N\": \"%s\"}", ver);
  g_string_append_c (text, '}');
  item = ddb_json_parse_item (text->str, -1, NULL);
  g_assert_nonnull (item);
  g_string_free (text, TRUE);
  return item;
}

static void
put_item (DdbBackend *be, const char *table, const DdbValue *item)
{
  json_t *req = json_pack ("{ss so}", "TableName", table, "Item", ddb_item_to_json (item));

  json_decref (call_ok (be, "PutItem", req));
}

static DdbValue *
get_item (DdbBackend *be, const char *table, const char *id)
{
  g_autoptr (DdbValue) key = key_of (id);
  json_t *req = json_pack ("{ss so sb}", "TableName", table, "Key", ddb_item_to_json (key),
                           "ConsistentRead", TRUE);
  json_t *resp = call_ok (be, "GetItem", req);
  DdbValue *item = NULL;

  if (json_object_get (resp, "Item") != NULL)
    item = ddb_json_to_item (json_object_get (resp, "Item"), NULL);
  json_decref (resp);
  return item;
}

/* SET NAME = VALUE on the item, behind the staging area's back; BUMP also adds 1 to its version,
 * as writers following the version convention do. */
static void
change_behind (DdbBackend *be, const char *table, const char *id, const char *name,
               const char *value, gboolean bump)
{
  g_autoptr (DdbValue) key = key_of (id);
  json_t *req = json_pack (
      "{ss so ss s{ss} s{s{ss}}}", "TableName", table, "Key", ddb_item_to_json (key),
      "UpdateExpression", bump ? "SET #a = :v ADD ver :one" : "SET #a = :v",
      "ExpressionAttributeNames", "#a", name, "ExpressionAttributeValues", ":v", "S", value);

  if (bump)
    json_object_set_new (json_object_get (req, "ExpressionAttributeValues"), ":one",
                         json_pack ("{ss}", "N", "1"));
  json_decref (call_ok (be, "UpdateItem", req));
}

static gint64
stage_delete (DdbStaging *st, const char *table, const DdbValue *original)
{
  g_autoptr (DdbValue) key = key_of (ddb_value_map_get (original, "id")->bytes.data);
  GError *error = NULL;
  gint64 id = 0;

  g_assert_true (ddb_staging_stage_delete (st, CONN, table, key, original, &id, &error));
  g_assert_no_error (error);
  return id;
}

static DdbChange *
get_change (DdbStaging *st, gint64 id)
{
  GError *error = NULL;
  DdbChange *change = ddb_staging_get (st, id, &error);

  g_assert_no_error (error);
  return change;
}

/* A conflict, left open, with the item as found beside it. */
static void
assert_conflict (DdbStaging *st, gint64 id, const char *name, const char *found)
{
  g_autoptr (DdbChange) c = get_change (st, id);
  const DdbValue *v;

  g_assert_cmpint (c->state, ==, DDB_CHANGE_CONFLICT);
  g_assert_nonnull (c->current);
  v = ddb_value_map_get (c->current, name);
  g_assert_nonnull (v);
  g_assert_cmpstr (v->bytes.data, ==, found);
}

static guint
count_occurrences (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* ---- The write a wide delete is sent as ---------------------------------------------------- */

static void
test_wide_delete_write (void)
{
  g_autoptr (DdbValue) with_ver = wide_item ("W", "7");
  g_autoptr (DdbValue) without_ver = wide_item ("W", NULL);
  g_autoptr (DdbValue) narrow = tu_item ("{'id': {'S': 'N'}, 'a': {'S': 'x'}, 'b': {'N': '1'},"
                                         " 'ver': {'N': '2'}}");
  g_autoptr (DdbValue) key = key_of ("W");
  DdbChange change = { .kind = DDB_CHANGE_DELETE, .table = (char *) "Wide", .key = key };
  DdbWrite write;
  GError *error = NULL;
  const char *condition;
  json_t *names;

  /* Narrow: the whole item is compared, version or not. */
  change.original = narrow;
  g_assert_true (ddb_write_build (&change, "ver", &write, &error));
  g_assert_false (write.needs_precheck);
  condition = json_string_value (json_object_get (write.request, "ConditionExpression"));
  g_assert_cmpuint (count_occurrences (condition, " = "), ==, 4);
  ddb_write_clear (&write);

  /* Wide, with a version: the version alone guards it. */
  change.original = with_ver;
  g_assert_true (ddb_write_build (&change, "ver", &write, &error));
  g_assert_no_error (error);
  g_assert_false (write.needs_precheck);
  g_assert_cmpstr (json_string_value (json_object_get (write.request, "ConditionExpression")), ==,
                   "#n0 = :v0");
  etu_assert_json (json_object_get (write.request, "ExpressionAttributeNames"), "{'#n0': 'ver'}");
  etu_assert_json (json_object_get (write.request, "ExpressionAttributeValues"),
                   "{':v0': {'N': '7'}}");
  ddb_write_clear (&write);

  /* Wide, without one (or none configured): what fits, key first, and a pre-read. */
  for (guint v = 0; v < 2; v++)
    {
      change.original = v == 0 ? without_ver : with_ver;
      g_assert_true (ddb_write_build (&change, v == 0 ? "ver" : NULL, &write, &error));
      g_assert_no_error (error);
      g_assert_true (write.needs_precheck);
      condition = json_string_value (json_object_get (write.request, "ConditionExpression"));
      names = json_object_get (write.request, "ExpressionAttributeNames");
      g_assert_cmpuint (strlen (condition), <=, DDB_EXPR_MAX_BYTES);
      g_assert_cmpuint (count_occurrences (condition, " = ")
                            + count_occurrences (condition, " AND "),
                        <=, DDB_EXPR_MAX_OPERATORS);
      /* as many as fit: 150 comparisons, the key's among them */
      g_assert_cmpuint (count_occurrences (condition, " = "), ==, DDB_EXPR_MAX_OPERATORS / 2);
      g_assert_cmpstr (json_string_value (json_object_get (names, "#n0")), ==, "id");
      g_assert_cmpuint (json_object_size (names), ==, DDB_EXPR_MAX_OPERATORS / 2);
      g_assert_cmpuint (
          json_object_size (json_object_get (write.request, "ExpressionAttributeValues")), ==,
          DDB_EXPR_MAX_OPERATORS / 2);
      ddb_write_clear (&write);
    }
}

/* ---- Wide deletes committed ---------------------------------------------------------------- */

typedef struct {
  DdbBackend *be;
  const char *race_id; /* the item changed just before its delete is sent */
  guint reads;
  guint raced;
} RaceData;

static gboolean
mentions_item (json_t *request, const char *id)
{
  g_autofree char *text = json_dumps (request, JSON_COMPACT);
  g_autofree char *needle = g_strdup_printf ("\"id\":{\"S\":\"%s\"}", id);

  return strstr (text, needle) != NULL;
}

/* Counts the pre-reads; changes RACE_ID between its pre-read and its delete, on an attribute
 * the delete's condition compares. */
static gboolean
racing_call (DdbBackend *be, const char *op, json_t *req, GCancellable *cancellable, json_t **resp,
             GError **error, gpointer data)
{
  RaceData *race = data;

  if (strcmp (op, "GetItem") == 0)
    race->reads++;
  if (race->race_id != NULL && race->raced == 0
      && (strcmp (op, "DeleteItem") == 0 || strcmp (op, "TransactWriteItems") == 0)
      && mentions_item (req, race->race_id))
    {
      race->raced++;
      change_behind (be, "Wide", race->race_id, "attribute_001", "raced", FALSE);
    }
  return ddb_backend_call (be, op, req, cancellable, resp, error);
}

/* Items too wide for a whole-item condition, with a version: deleted under the version guard;
 * one whose writer bumped the version is a conflict and stays. */
static void
test_wide_delete_version (void)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      DdbCommitOptions options
          = { .connection = CONN, .mode = modes[m], .version_attribute = "ver" };
      RaceData race = { be, NULL, 0, 0 };
      DdbCommitReport report;
      GError *error = NULL;
      const char *ids[] = { "W1", "W2", "W3" };
      gint64 change_ids[G_N_ELEMENTS (ids)];
      g_autoptr (DdbValue) w1 = NULL;
      g_autoptr (DdbValue) w2 = NULL;
      g_autoptr (DdbValue) w3 = NULL;

      create_table (be, "Wide");
      for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
        {
          g_autoptr (DdbValue) item = wide_item (ids[i], "3");

          put_item (be, "Wide", item);
          change_ids[i] = stage_delete (st, "Wide", item);
        }
      change_behind (be, "Wide", "W2", "attribute_150", "changed behind our back", TRUE);
      options.call = racing_call;
      options.call_data = &race;
      g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (report.committed, ==, 2);
      g_assert_cmpuint (report.conflicts, ==, 1);
      g_assert_cmpuint (report.failed, ==, 0);
      g_assert_cmpuint (report.conflict_ids->len, ==, 1);
      g_assert_cmpint (g_array_index (report.conflict_ids, gint64, 0), ==, change_ids[1]);
      ddb_commit_report_clear (&report);
      /* the guard is the version: no pre-read */
      g_assert_cmpuint (race.reads, ==, 0);
      g_assert_null ((w1 = get_item (be, "Wide", "W1")));
      g_assert_null ((w3 = get_item (be, "Wide", "W3")));
      w2 = get_item (be, "Wide", "W2");
      g_assert_nonnull (w2);
      g_assert_cmpstr (ddb_value_map_get (w2, "attribute_150")->bytes.data, ==,
                       "changed behind our back");
      assert_conflict (st, change_ids[1], "attribute_150", "changed behind our back");
    }
}

/* Items too wide for a whole-item condition, without a version: the delete compares what fits
 * and the commit pre-reads the whole item. A change anywhere (in or out of the condition, an
 * added attribute, or one landing between the pre-read and the delete) is a conflict, and the
 * item stays. */
static void
test_wide_delete_precheck (void)
{
  for (guint round = 0; round < 2 * G_N_ELEMENTS (modes); round++)
    {
      g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      /* with a version attribute configured that these items lack, and with none */
      DdbCommitOptions options = { .connection = CONN,
                                   .mode = modes[round % 2],
                                   .version_attribute = round < 2 ? "ver" : NULL };
      RaceData race = { be, "W5", 0, 0 };
      DdbCommitReport report;
      GError *error = NULL;
      const char *ids[] = { "W1", "W2", "W3", "W4", "W5" };
      gint64 change_ids[G_N_ELEMENTS (ids)];

      create_table (be, "Wide");
      for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
        {
          g_autoptr (DdbValue) item = wide_item (ids[i], NULL);

          put_item (be, "Wide", item);
          change_ids[i] = stage_delete (st, "Wide", item);
        }
      /* W2: an attribute beyond what the condition compares; W3: an attribute added; W4: one
       * the condition compares; W5: changed between its pre-read and its delete */
      change_behind (be, "Wide", "W2", "attribute_199", "changed behind our back", FALSE);
      change_behind (be, "Wide", "W3", "added", "added behind our back", FALSE);
      change_behind (be, "Wide", "W4", "attribute_000", "changed behind our back", FALSE);
      options.call = racing_call;
      options.call_data = &race;
      g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (race.reads, >=, G_N_ELEMENTS (ids));
      g_assert_cmpuint (race.raced, ==, 1);
      g_assert_cmpuint (report.committed, ==, 1);
      g_assert_cmpuint (report.conflicts, ==, 4);
      g_assert_cmpuint (report.failed, ==, 0);
      ddb_commit_report_clear (&report);
      {
        g_autoptr (DdbValue) gone = get_item (be, "Wide", "W1");

        g_assert_null (gone);
      }
      for (guint i = 1; i < G_N_ELEMENTS (ids); i++)
        {
          g_autoptr (DdbValue) kept = get_item (be, "Wide", ids[i]);

          g_assert_nonnull (kept);
          g_assert_cmpuint (ddb_value_map_size (kept), >=, WIDE + 1);
        }
      assert_conflict (st, change_ids[1], "attribute_199", "changed behind our back");
      assert_conflict (st, change_ids[2], "added", "added behind our back");
      assert_conflict (st, change_ids[3], "attribute_000", "changed behind our back");
      assert_conflict (st, change_ids[4], "attribute_001", "raced");
    }
}

/* ---- Throttling past the retry limit ------------------------------------------------------- */

#define N_POSTS 6

static const char *throttled_message
    = "The level of configured provisioned throughput for the table was exceeded. Consider "
      "increasing your provisioning level with the UpdateTable API.";

typedef struct {
  gboolean throttle; /* every write refused */
  guint writes;      /* write calls made */
  guint cancel_at;   /* cancel when this many writes have been made (0: never) */
  GCancellable *cancellable;
  gint64 first, last; /* monotonic times of the first and the last write */
} ThrottleData;

static gboolean
throttle_call (DdbBackend *be, const char *op, json_t *req, GCancellable *cancellable,
               json_t **resp, GError **error, gpointer data)
{
  ThrottleData *t = data;

  if (strcmp (op, "GetItem") != 0 && t->throttle)
    {
      t->last = g_get_monotonic_time ();
      if (t->writes++ == 0)
        t->first = t->last;
      if (t->cancel_at > 0 && t->writes == t->cancel_at)
        g_cancellable_cancel (t->cancellable);
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_PROVISIONED_THROUGHPUT, throttled_message);
      return FALSE;
    }
  return ddb_backend_call (be, op, req, cancellable, resp, error);
}

/* Posts with a name to rename and a version counting writes; their renames staged. */
static void
stage_renames (DdbBackend *be, DdbStaging *st)
{
  create_table (be, "Posts");
  for (guint i = 0; i < N_POSTS; i++)
    {
      g_autofree char *text
          = g_strdup_printf ("{\"id\": {\"S\": \"POST#%u\"}, \"author\": {\"S\": \"Mara Vance\"}, "
                             "\"ver\": {\"N\": \"0\"}}",
                             i);
      g_autoptr (DdbValue) old_item = ddb_json_parse_item (text, -1, NULL);
      g_autoptr (DdbValue) new_item = ddb_value_copy (old_item);
      g_autoptr (DdbValue) key = key_of (ddb_value_map_get (old_item, "id")->bytes.data);
      GError *error = NULL;

      put_item (be, "Posts", old_item);
      ddb_value_map_set (new_item, "author", tu_str ("Mara V."));
      g_assert_true (
          ddb_staging_stage_update (st, CONN, "Posts", key, old_item, new_item, NULL, &error));
      g_assert_no_error (error);
    }
}

/* Every change open and staged (none in flight, none failed or conflicted), each journaled
 * staged (-> sending -> staged)*, and every post untouched. */
static void
assert_all_staged (DdbBackend *be, DdbStaging *st)
{
  g_autoptr (GPtrArray) open = ddb_staging_list (st, CONN, NULL, FALSE, NULL);

  g_assert_cmpuint (open->len, ==, N_POSTS);
  for (guint i = 0; i < open->len; i++)
    {
      DdbChange *c = g_ptr_array_index (open, i);
      g_auto (GStrv) states = ddb_staging_journal (st, c->id, NULL);
      guint n = g_strv_length (states);

      g_assert_cmpint (c->state, ==, DDB_CHANGE_STAGED);
      g_assert_null (c->message);
      g_assert_cmpuint (n % 2, ==, 1);
      for (guint j = 0; j < n; j++)
        g_assert_cmpstr (states[j], ==, j % 2 == 0 ? "staged" : "sending");
    }
  for (guint i = 0; i < N_POSTS; i++)
    {
      g_autofree char *id = g_strdup_printf ("POST#%u", i);
      g_autoptr (DdbValue) item = get_item (be, "Posts", id);
      g_autofree char *ver = ddb_json_format_value (ddb_value_map_get (item, "ver"));

      g_assert_cmpstr (ddb_value_map_get (item, "author")->bytes.data, ==, "Mara Vance");
      g_assert_cmpstr (ver, ==, "{\"N\":\"0\"}");
    }
}

/* A commit that goes through: every post renamed and written exactly once. */
static void
commit_rest (DdbBackend *be, DdbStaging *st, DdbCommitMode mode, guint expected)
{
  DdbCommitOptions options = { .connection = CONN, .mode = mode, .version_attribute = "ver" };
  DdbCommitReport report;
  GError *error = NULL;

  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, expected);
  g_assert_cmpuint (report.conflicts, ==, 0);
  g_assert_cmpuint (report.failed, ==, 0);
  ddb_commit_report_clear (&report);
  for (guint i = 0; i < N_POSTS; i++)
    {
      g_autofree char *id = g_strdup_printf ("POST#%u", i);
      g_autoptr (DdbValue) item = get_item (be, "Posts", id);
      g_autofree char *ver = ddb_json_format_value (ddb_value_map_get (item, "ver"));

      g_assert_cmpstr (ddb_value_map_get (item, "author")->bytes.data, ==, "Mara V.");
      g_assert_cmpstr (ver, ==, "{\"N\":\"1\"}");
    }
}

static void
test_throttled_past_limit (void)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      ThrottleData t = { .throttle = TRUE };
      DdbCommitOptions options = { .connection = CONN,
                                   .mode = modes[m],
                                   .version_attribute = "ver",
                                   .max_attempts = 4,
                                   .backoff_ms = 20,
                                   .call = throttle_call,
                                   .call_data = &t };
      DdbCommitReport report;
      GError *error = NULL;

      stage_renames (be, st);
      g_assert_false (ddb_staging_commit (st, be, &options, NULL, &report, &error));
      /* DynamoDB's error, as the last attempt got it */
      g_assert_error (error, DDB_ERROR, DDB_ERROR_PROVISIONED_THROUGHPUT);
      g_clear_error (&error);
      /* the same write tried max_attempts times, backing off 10-20, 20-40, 40-80 ms between */
      g_assert_cmpuint (t.writes, ==, 4);
      g_assert_cmpint (t.last - t.first, >=, 70 * G_TIME_SPAN_MILLISECOND);
      /* nothing committed, nothing taken for a conflict or a refusal, nothing lost */
      g_assert_cmpuint (report.committed, ==, 0);
      g_assert_cmpuint (report.conflicts, ==, 0);
      g_assert_cmpuint (report.failed, ==, 0);
      ddb_commit_report_clear (&report);
      assert_all_staged (be, st);

      /* the throttling is over: the next commit sends them all, once */
      commit_rest (be, st, modes[m], N_POSTS);
    }
}

/* Cancelled while backing off from throttling: nothing went out, all stays staged. */
static void
test_cancel_while_throttled (void)
{
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      ThrottleData t = { .throttle = TRUE, .cancel_at = 2, .cancellable = cancellable };
      DdbCommitOptions options = { .connection = CONN,
                                   .mode = modes[m],
                                   .version_attribute = "ver",
                                   .max_attempts = 10,
                                   .backoff_ms = 20,
                                   .call = throttle_call,
                                   .call_data = &t };
      DdbCommitReport report;
      GError *error = NULL;

      stage_renames (be, st);
      g_assert_false (ddb_staging_commit (st, be, &options, cancellable, &report, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);
      g_assert_cmpuint (t.writes, ==, 2);
      g_assert_cmpuint (report.committed + report.conflicts + report.failed, ==, 0);
      ddb_commit_report_clear (&report);
      assert_all_staged (be, st);
      commit_rest (be, st, modes[m], N_POSTS);
    }
}

/* ---- Cancellation in the middle of a commit ------------------------------------------------ */

#define N_MANY 250

typedef struct {
  GCancellable *cancellable;
  guint calls;
  guint cancel_at;     /* the write call during which the commit is cancelled */
  gboolean after_call; /* cancel once the write is applied (its answer lost) or before */
} CancelData;

static gboolean
cancelling_call (DdbBackend *be, const char *op, json_t *req, GCancellable *cancellable,
                 json_t **resp, GError **error, gpointer data)
{
  CancelData *cd = data;
  gboolean ok;

  if (strcmp (op, "GetItem") == 0 || ++cd->calls != cd->cancel_at)
    return ddb_backend_call (be, op, req, cancellable, resp, error);
  if (!cd->after_call)
    {
      /* the cancellation arrives as the request is about to leave: it does not */
      g_cancellable_cancel (cd->cancellable);
      return ddb_backend_call (be, op, req, cancellable, resp, error);
    }
  /* the request reached the table, then the commit was cancelled before the answer came */
  ok = ddb_backend_call (be, op, req, NULL, resp, error);
  g_assert_true (ok);
  g_clear_pointer (resp, json_decref);
  g_cancellable_cancel (cd->cancellable);
  return !g_cancellable_set_error_if_cancelled (cd->cancellable, error);
}

static void
stage_many (DdbBackend *be, DdbStaging *st)
{
  create_table (be, "Many");
  for (guint i = 0; i < N_MANY; i++)
    {
      g_autofree char *text = g_strdup_printf (
          "{\"id\": {\"S\": \"ITEM#%03u\"}, \"n\": {\"S\": \"old\"}, \"ver\": {\"N\": \"0\"}}", i);
      g_autoptr (DdbValue) old_item = ddb_json_parse_item (text, -1, NULL);
      g_autoptr (DdbValue) new_item = ddb_value_copy (old_item);
      g_autoptr (DdbValue) key = key_of (ddb_value_map_get (old_item, "id")->bytes.data);
      GError *error = NULL;

      put_item (be, "Many", old_item);
      ddb_value_map_set (new_item, "n", tu_str ("new"));
      g_assert_true (
          ddb_staging_stage_update (st, CONN, "Many", key, old_item, new_item, NULL, &error));
      g_assert_no_error (error);
    }
}

/* The journal after a stop: a committed change was applied once; a staged one not at all; one
 * in 'sending' may or may not have been; every change's states follow
 * staged -> sending -> (staged -> sending ->)* [committed]. */
static void
check_after_cancel (DdbBackend *be, DdbStaging *st, guint *n_committed, guint *n_sending)
{
  g_autoptr (GPtrArray) all = ddb_staging_list (st, CONN, NULL, TRUE, NULL);

  *n_committed = *n_sending = 0;
  g_assert_cmpuint (all->len, ==, N_MANY);
  for (guint i = 0; i < all->len; i++)
    {
      DdbChange *c = g_ptr_array_index (all, i);
      g_auto (GStrv) states = ddb_staging_journal (st, c->id, NULL);
      guint n = g_strv_length (states);
      g_autoptr (DdbValue) item
          = get_item (be, "Many", ddb_value_map_get (c->key, "id")->bytes.data);
      g_autofree char *ver = ddb_json_format_value (ddb_value_map_get (item, "ver"));

      g_assert_cmpstr (states[0], ==, "staged");
      for (guint j = 1; j < n; j++)
        g_assert_cmpstr (states[j], ==,
                         strcmp (states[j - 1], "sending") != 0 ? "sending"
                         : strcmp (states[j], "committed") == 0 ? "committed"
                                                                : "staged");
      g_assert_cmpstr (states[n - 1], ==, ddb_change_state_name (c->state));
      switch (c->state)
        {
        case DDB_CHANGE_COMMITTED:
          (*n_committed)++;
          g_assert_cmpstr (ver, ==, "{\"N\":\"1\"}");
          break;
        case DDB_CHANGE_STAGED:
          g_assert_cmpstr (ver, ==, "{\"N\":\"0\"}");
          break;
        case DDB_CHANGE_SENDING:
          (*n_sending)++;
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static void
test_cancel_mid_commit (void)
{
  for (guint round = 0; round < 4 * G_N_ELEMENTS (modes); round++)
    {
      DdbCommitMode mode = modes[round % 2];
      g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
      g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      /* transactions: the second batch; single writes: somewhere in the third group or later */
      CancelData cd
          = { cancellable, 0, mode == DDB_COMMIT_TRANSACTIONS ? 2 : 5 + round * 7, round % 4 >= 2 };
      DdbCommitOptions options = { .connection = CONN,
                                   .mode = mode,
                                   .version_attribute = "ver",
                                   .call = cancelling_call,
                                   .call_data = &cd };
      DdbCommitReport report;
      GError *error = NULL;
      guint n_committed, n_sending, resumed;

      stage_many (be, st);
      g_assert_false (ddb_staging_commit (st, be, &options, cancellable, &report, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);
      check_after_cancel (be, st, &n_committed, &n_sending);
      g_assert_cmpuint (report.committed, ==, n_committed);
      g_assert_cmpuint (report.conflicts + report.failed, ==, 0);
      ddb_commit_report_clear (&report);
      g_assert_cmpuint (n_committed, >, 0);
      g_assert_cmpuint (n_committed, <, N_MANY);
      /* the write being sent when the commit was cancelled, and only it, is in doubt */
      g_assert_cmpuint (n_sending, ==, mode == DDB_COMMIT_TRANSACTIONS ? 100 : 1);

      /* the next commit judges those by reading their items, then sends the rest, once */
      options.call = NULL;
      g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
      g_assert_no_error (error);
      resumed = report.resumed;
      g_assert_cmpuint (resumed, ==, n_sending);
      g_assert_cmpuint (report.committed, ==, N_MANY - n_committed);
      g_assert_cmpuint (report.conflicts + report.failed, ==, 0);
      ddb_commit_report_clear (&report);
      check_after_cancel (be, st, &n_committed, &n_sending);
      g_assert_cmpuint (n_committed, ==, N_MANY);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/commit-limits/wide-delete-write", test_wide_delete_write);
  g_test_add_func ("/staging/commit-limits/wide-delete-version", test_wide_delete_version);
  g_test_add_func ("/staging/commit-limits/wide-delete-precheck", test_wide_delete_precheck);
  g_test_add_func ("/staging/commit-limits/throttled-past-limit", test_throttled_past_limit);
  g_test_add_func ("/staging/commit-limits/cancel-while-throttled", test_cancel_while_throttled);
  g_test_add_func ("/staging/commit-limits/cancel-mid-commit", test_cancel_mid_commit);
  return g_test_run ();
}
