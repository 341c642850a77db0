/* test-change.c: stream records as the Changes view's rows (no display): the event, the key in
 * the schema's order, a MODIFY's per-attribute diff with exact values (38 digits, sets, binary,
 * nested paths), images of INSERT and REMOVE, TTL deletions, the key filter; and the tail that
 * follows a stream of an embedded database from LATEST or TRIM_HORIZON to its end. */
#define G_LOG_DOMAIN "test-change"

#include <string.h>

#include "app/changes/dy-change-tail.h"
#include "app/changes/dy-change.h"
#include "engine/engine-private.h"
#include "engine/stream-store.h"

static const char *const key_names[] = { "PK", "SK", NULL };

static json_t *
parse (const char *text)
{
  json_error_t error;
  json_t *json = json_loads (text, 0, &error);

  if (json == NULL)
    g_error ("bad test JSON: %s", error.text);
  return json;
}

static DyChange *
change_of (const char *text)
{
  json_t *record = parse (text);
  GError *error = NULL;
  DyChange *change = dy_change_new (record, key_names, &error);

  g_assert_no_error (error);
  g_assert_nonnull (change);
  json_decref (record);
  return change;
}

#define BIG "12345678901234567890123456789012345678"

static void
test_modify_diff (void)
{
  g_autoptr (DyChange) c = change_of (
      "{\"eventName\": \"MODIFY\", \"eventSource\": \"aws:dynamodb\", \"dynamodb\": {"
      " \"ApproximateCreationDateTime\": 1764686107, \"SequenceNumber\": \"000000000000000000042\","
      " \"SizeBytes\": 120, \"StreamViewType\": \"NEW_AND_OLD_IMAGES\","
      " \"Keys\": {\"SK\": {\"N\": \"7\"}, \"PK\": {\"S\": \"WS#1\"}},"
      " \"OldImage\": {\"SK\": {\"N\": \"7\"}, \"PK\": {\"S\": \"WS#1\"}, \"n\": {\"N\": \"1\"},"
      "  \"tags\": {\"SS\": [\"a\", \"b\"]}, \"gone\": {\"B\": \"3q2+7w==\"},"
      "  \"meta\": {\"M\": {\"theme\": {\"S\": \"dark\"}, \"same\": {\"BOOL\": true}}},"
      "  \"same\": {\"S\": \"x\"}},"
      " \"NewImage\": {\"SK\": {\"N\": \"7\"}, \"PK\": {\"S\": \"WS#1\"}, \"n\": {\"N\": \"" BIG "\"},"
      "  \"tags\": {\"SS\": [\"b\", \"c\"]},"
      "  \"meta\": {\"M\": {\"theme\": {\"S\": \"light\"}, \"same\": {\"BOOL\": true}}},"
      "  \"same\": {\"S\": \"x\"}, \"note\": {\"S\": \"new\"}}}}");
  g_autofree char *detail = NULL;
  const DyChangeDiff *d;

  g_assert_cmpint (c->event, ==, DY_CHANGE_MODIFY);
  g_assert_cmpstr (dy_change_event_label (c), ==, "MODIFY");
  /* the schema's order, not the record's */
  g_assert_cmpstr (c->key_text, ==, "PK = WS#1, SK = 7");
  g_assert_cmpstr (c->sequence_number, ==, "000000000000000000042");
  g_assert_cmpint (c->time_s, ==, 1764686107);
  g_assert_cmpint (c->size_bytes, ==, 120);
  g_assert_true (c->both_images);
  g_assert_false (c->ttl);
  g_assert_cmpuint (c->diffs->len, ==, 5);
  d = c->diffs->pdata[0];
  g_assert_cmpint (d->kind, ==, DY_CHANGE_DIFF_CHANGED);
  g_assert_cmpstr (d->path, ==, "n");
  g_assert_cmpstr (d->old_text, ==, "1");
  g_assert_cmpstr (d->new_text, ==, BIG);
  d = c->diffs->pdata[1];
  g_assert_cmpstr (d->path, ==, "tags");
  g_assert_cmpstr (d->old_text, ==, "{\"a\", \"b\"}");
  g_assert_cmpstr (d->new_text, ==, "{\"b\", \"c\"}");
  d = c->diffs->pdata[2];
  g_assert_cmpint (d->kind, ==, DY_CHANGE_DIFF_REMOVED);
  g_assert_cmpstr (d->path, ==, "gone");
  g_assert_cmpstr (d->old_text, ==, "3q2+7w== (4 B)");
  g_assert_null (d->new_text);
  d = c->diffs->pdata[3];
  g_assert_cmpstr (d->path, ==, "meta.theme");
  g_assert_cmpstr (d->old_text, ==, "dark");
  d = c->diffs->pdata[4];
  g_assert_cmpint (d->kind, ==, DY_CHANGE_DIFF_ADDED);
  g_assert_cmpstr (d->path, ==, "note");
  g_assert_cmpstr (d->new_text, ==, "new");
  detail = dy_change_detail_text (c);
  g_assert_cmpstr (detail, ==,
                   "n: 1 → " BIG "\ntags: {\"a\", \"b\"} → {\"b\", \"c\"}\n− gone: 3q2+7w== (4 B)\n"
                   "meta.theme: dark → light\n+ note: new");
}

static void
test_insert_remove_ttl (void)
{
  g_autoptr (DyChange) ins = change_of (
      "{\"eventName\": \"INSERT\", \"dynamodb\": {\"Keys\": {\"PK\": {\"S\": \"a\"}},"
      " \"NewImage\": {\"PK\": {\"S\": \"a\"}, \"v\": {\"NS\": [\"1\", \"" BIG "\"]}},"
      " \"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}}");
  g_autoptr (DyChange) rem = change_of (
      "{\"eventName\": \"REMOVE\", \"userIdentity\": {\"Type\": \"Service\","
      " \"PrincipalId\": \"dynamodb.amazonaws.com\"}, \"dynamodb\": {\"Keys\": {\"PK\": {\"S\": "
      "\"a\"}}, \"OldImage\": {\"PK\": {\"S\": \"a\"}, \"b\": {\"B\": \"AAE=\"}},"
      " \"StreamViewType\": \"OLD_IMAGE\"}}");
  g_autoptr (DyChange) plain = change_of (
      "{\"eventName\": \"REMOVE\", \"userIdentity\": {\"Type\": \"Service\","
      " \"PrincipalId\": \"someone.else\"}, \"dynamodb\": {\"Keys\": {\"PK\": {\"S\": \"b\"}},"
      " \"StreamViewType\": \"KEYS_ONLY\"}}");
  g_autoptr (DyChange) one = change_of (
      "{\"eventName\": \"MODIFY\", \"dynamodb\": {\"Keys\": {\"PK\": {\"S\": \"c\"}},"
      " \"NewImage\": {\"PK\": {\"S\": \"c\"}, \"v\": {\"N\": \"2\"}},"
      " \"StreamViewType\": \"NEW_IMAGE\"}}");
  g_autofree char *d1 = dy_change_detail_text (ins);
  g_autofree char *d2 = dy_change_detail_text (rem);
  g_autofree char *d3 = dy_change_detail_text (plain);
  g_autofree char *d4 = dy_change_detail_text (one);

  g_assert_cmpint (ins->event, ==, DY_CHANGE_INSERT);
  g_assert_cmpstr (d1, ==, "v = {1, " BIG "}");
  g_assert_cmpint (rem->event, ==, DY_CHANGE_REMOVE);
  g_assert_true (rem->ttl);
  g_assert_cmpstr (d2, ==, "b = AAE= (2 B)");
  g_assert_false (plain->ttl);
  g_assert_cmpint (plain->size_bytes, ==, -1);
  g_assert_cmpstr (d3, ==, "The stream keeps keys only (view type KEYS_ONLY)");
  g_assert_false (one->both_images);
  g_assert_cmpuint (one->diffs->len, ==, 0);
  g_assert_true (g_str_has_prefix (d4, "v = 2\n"));
  g_assert_nonnull (strstr (d4, "NEW_IMAGE"));
}

static void
test_filter_and_errors (void)
{
  g_autoptr (DyChange) c = change_of (
      "{\"eventName\": \"INSERT\", \"dynamodb\": {\"Keys\": {\"PK\": {\"S\": \"Order#Åb\"},"
      " \"other\": {\"N\": \"5\"}}}}");
  json_t *bad = parse ("{\"eventName\": \"INSERT\", \"dynamodb\": {\"Keys\": {\"PK\": {\"Q\": 1}}}}");
  json_t *none = parse ("{\"eventName\": \"INSERT\"}");
  GError *error = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = NULL;

  /* a key attribute outside KEY_NAMES comes after those named */
  g_assert_cmpstr (c->key_text, ==, "PK = Order#Åb, other = 5");
  g_assert_true (dy_change_matches (c, NULL));
  g_assert_true (dy_change_matches (c, ""));
  g_assert_true (dy_change_matches (c, "order#åB"));
  g_assert_true (dy_change_matches (c, "other = 5"));
  g_assert_false (dy_change_matches (c, "Order#Åc"));
  when = dy_change_time_text (c, now);
  g_assert_cmpstr (when, ==, "");
  g_assert_null (dy_change_new (bad, key_names, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  g_assert_null (dy_change_new (none, key_names, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  json_decref (bad);
  json_decref (none);
}

/* The tail on an embedded database. */

static json_t *
ok (DdbBackend *b, const char *op, const char *text)
{
  json_t *request = parse (text);
  json_t *response = NULL;
  GError *error = NULL;

  if (!ddb_backend_call (b, op, request, NULL, &response, &error))
    g_error ("%s: %s", op, error->message);
  json_decref (request);
  return response;
}

static void
put (DdbBackend *b, const char *pk, const char *v)
{
  g_autofree char *text = g_strdup_printf (
      "{\"TableName\": \"Tab\", \"Item\": {\"PK\": {\"S\": \"%s\"}, \"v\": {\"N\": \"%s\"}}}", pk, v);

  json_decref (ok (b, "PutItem", text));
}

static char *
create (DdbBackend *b)
{
  json_t *r = ok (b, "CreateTable",
                  "{\"TableName\": \"Tab\", \"BillingMode\": \"PAY_PER_REQUEST\","
                  " \"AttributeDefinitions\": [{\"AttributeName\": \"PK\", \"AttributeType\": \"S\"}],"
                  " \"KeySchema\": [{\"AttributeName\": \"PK\", \"KeyType\": \"HASH\"}],"
                  " \"StreamSpecification\": {\"StreamEnabled\": true,"
                  " \"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}}");
  char *arn = g_strdup (json_string_value (
      json_object_get (json_object_get (r, "TableDescription"), "LatestStreamArn")));

  json_decref (r);
  g_assert_nonnull (arn);
  return arn;
}

/* One round; the records' eventName:PK joined by spaces. */
static char *
poll_once (DyChangeTail *tail, DdbBackend *b, gboolean *more, char **notice)
{
  json_t *records = json_array ();
  GError *error = NULL;
  GString *out = g_string_new (NULL);
  size_t i;
  json_t *r;

  g_assert_true (dy_change_tail_poll (tail, b, records, more, notice, NULL, NULL, &error));
  g_assert_no_error (error);
  json_array_foreach (records, i, r)
    g_string_append_printf (
        out, "%s%s:%s", out->len > 0 ? " " : "",
        json_string_value (json_object_get (r, "eventName")),
        json_string_value (json_object_get (
            json_object_get (json_object_get (json_object_get (r, "dynamodb"), "Keys"), "PK"),
            "S")));
  json_decref (records);
  return g_string_free (out, FALSE);
}

static void
test_tail (void)
{
  GError *error = NULL;
  g_autoptr (DdbBackend) b = ddb_backend_open_database (":memory:", &error);
  g_autofree char *arn = NULL;
  g_autoptr (DyChangeTail) latest = NULL;
  g_autoptr (DyChangeTail) oldest = NULL;
  gboolean more;
  char *notice = NULL;
  char *got;

  g_assert_no_error (error);
  arn = create (b);
  put (b, "before", "1");
  latest = dy_change_tail_new (arn, FALSE);
  oldest = dy_change_tail_new (arn, TRUE);
  /* LATEST starts after what is there; TRIM_HORIZON reads it */
  got = poll_once (latest, b, &more, &notice);
  g_assert_cmpstr (got, ==, "");
  g_assert_false (more);
  g_assert_null (notice);
  g_assert_cmpuint (dy_change_tail_get_n_shards (latest), ==, 1);
  g_free (got);
  put (b, "a", "1");
  put (b, "a", "2");
  json_decref (ok (b, "DeleteItem", "{\"TableName\": \"Tab\", \"Key\": {\"PK\": {\"S\": \"a\"}}}"));
  got = poll_once (latest, b, &more, &notice);
  g_assert_cmpstr (got, ==, "INSERT:a MODIFY:a REMOVE:a");
  g_assert_true (more);
  g_free (got);
  got = poll_once (latest, b, &more, &notice);
  g_assert_cmpstr (got, ==, "");
  g_assert_false (more);
  g_free (got);
  got = poll_once (oldest, b, &more, &notice);
  g_assert_cmpstr (got, ==, "INSERT:before INSERT:a MODIFY:a REMOVE:a");
  g_free (got);

  /* disabling closes the shard: what was written before is read, then the tail ends */
  put (b, "last", "9");
  json_decref (ok (b, "UpdateTable", "{\"TableName\": \"Tab\", \"StreamSpecification\":"
                                     " {\"StreamEnabled\": false}}"));
  got = poll_once (latest, b, &more, &notice);
  g_assert_cmpstr (got, ==, "INSERT:last");
  g_assert_true (dy_change_tail_get_ended (latest));
  g_assert_nonnull (notice);
  g_assert_cmpuint (dy_change_tail_get_n_shards (latest), ==, 0);
  g_clear_pointer (&notice, g_free);
  g_free (got);
  got = poll_once (latest, b, &more, &notice);
  g_assert_cmpstr (got, ==, "");
  g_assert_null (notice);
  g_free (got);
}

static void
test_tail_errors (void)
{
  GError *error = NULL;
  g_autoptr (DdbBackend) b = ddb_backend_open_database (":memory:", &error);
  g_autofree char *arn = NULL;
  g_autofree char *wrong = NULL;
  g_autoptr (DyChangeTail) tail = NULL;
  json_t *records = json_array ();
  char *name = NULL;
  gboolean more;

  g_assert_no_error (error);
  arn = create (b);
  wrong = g_strconcat (arn, "0", NULL);
  tail = dy_change_tail_new (wrong, FALSE);
  g_assert_false (dy_change_tail_poll (tail, b, records, &more, NULL, &name, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  g_assert_cmpstr (name, ==, "ResourceNotFoundException");
  g_assert_true (g_str_has_prefix (error->message, "ResourceNotFoundException: "));
  g_assert_false (dy_change_tail_get_ended (tail));
  g_free (name);
  g_clear_error (&error);
  json_decref (records);
}

/* An iterator that expired (the engine's lasts 15 minutes) is renewed from the last record read;
 * records trimmed before they were read are said, and reading goes on from TRIM_HORIZON. */
static void
test_tail_expired_and_trimmed (void)
{
  GError *error = NULL;
  g_autoptr (DdbBackend) b = ddb_backend_open_database (":memory:", &error);
  g_autofree char *arn = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *old = NULL;
  g_autoptr (DyChangeTail) tail = NULL;
  DdbEngine *e;
  gboolean more;
  char *notice = NULL;
  char *got;

  g_assert_no_error (error);
  arn = create (b);
  tail = dy_change_tail_new (arn, FALSE);
  got = poll_once (tail, b, &more, &notice);
  g_free (got);
  put (b, "a", "1");
  got = poll_once (tail, b, &more, &notice);
  g_assert_cmpstr (got, ==, "INSERT:a");
  g_free (got);
  put (b, "b", "1");
  /* the engine's iterator: ARN, position and when it was made, 16 minutes ago */
  raw = g_strdup_printf ("%s\n0\n%" G_GINT64_FORMAT, arn, g_get_real_time () / 1000 - 16 * 60 * 1000);
  old = g_base64_encode ((const guchar *) raw, strlen (raw));
  dy_change_tail_set_iterator (tail, old);
  got = poll_once (tail, b, &more, &notice);
  /* from after a, not from the expired iterator's position */
  g_assert_cmpstr (got, ==, "INSERT:b");
  g_assert_null (notice);
  g_free (got);

  put (b, "c", "1");
  e = ddb_backend_get_engine (b);
  /* as the sweeper would a day and an hour later: c is gone before it was read */
  g_assert_true (ddb_stream_trim (e->store, g_get_real_time () / 1000 + 25 * 3600 * 1000, &error));
  g_assert_no_error (error);
  got = poll_once (tail, b, &more, &notice);
  g_assert_cmpstr (got, ==, "");
  g_assert_nonnull (notice);
  g_assert_nonnull (strstr (notice, "trimmed"));
  g_clear_pointer (&notice, g_free);
  g_free (got);
  put (b, "d", "1");
  got = poll_once (tail, b, &more, &notice);
  g_assert_cmpstr (got, ==, "INSERT:d");
  g_assert_null (notice);
  g_free (got);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/change/modify-diff", test_modify_diff);
  g_test_add_func ("/change/insert-remove-ttl", test_insert_remove_ttl);
  g_test_add_func ("/change/filter-and-errors", test_filter_and_errors);
  g_test_add_func ("/change/tail", test_tail);
  g_test_add_func ("/change/tail-errors", test_tail_errors);
  g_test_add_func ("/change/tail-expired-and-trimmed", test_tail_expired_and_trimmed);
  return g_test_run ();
}
