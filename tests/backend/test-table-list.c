/* test-table-list.c: ddb_backend_list_tables: every page of ListTables in order, each table
 * described, DescribeTable calls really in flight at once against an HTTP endpoint (a fake
 * that holds each call until several have arrived: a client that sends one at a time never
 * gets past it), a refused DescribeTable kept on its entry, a failed page and a cancellation
 * ending the whole. */
#include <microhttpd.h>
#include <string.h>

#include "backend/table-list.h"
#include "core/error.h"

/* The engine: pages of a given Limit, every table described. */

static void
create_table (DdbBackend *backend, const char *name)
{
  g_autoptr (GError) error = NULL;
  json_t *response = NULL;
  json_t *request = json_pack ("{s:s, s:[{s:s, s:s}], s:[{s:s, s:s}], s:s}", "TableName", name,
                               "AttributeDefinitions", "AttributeName", "pk", "AttributeType",
                               "S", "KeySchema", "AttributeName", "pk", "KeyType", "HASH",
                               "BillingMode", "PAY_PER_REQUEST");

  g_assert_true (ddb_backend_call (backend, "CreateTable", request, NULL, &response, &error));
  g_assert_no_error (error);
  json_decref (request);
  json_decref (response);
}

typedef struct {
  GMutex lock;
  guint pages;
  guint names;
  guint described;
  GCancellable *cancel_after_first;
} Counts;

static void
count_names (const char *const *names, gpointer user_data)
{
  Counts *counts = user_data;

  g_mutex_lock (&counts->lock);
  counts->pages++;
  counts->names += g_strv_length ((char **) names);
  g_mutex_unlock (&counts->lock);
}

static void
count_described (const DdbTableListEntry *entry, gpointer user_data)
{
  Counts *counts = user_data;

  g_mutex_lock (&counts->lock);
  counts->described++;
  g_mutex_unlock (&counts->lock);
}

static void
cancel_on_names (const char *const *names, gpointer user_data)
{
  Counts *counts = user_data;

  g_cancellable_cancel (counts->cancel_after_first);
}

static void
test_engine_pages (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (":memory:", &error);
  g_autoptr (GPtrArray) entries = NULL;
  DdbTableListOptions options = { 0 };
  Counts counts = { 0 };
  const guint n = 250;

  g_assert_no_error (error);
  /* Created out of order: ListTables answers in name order. */
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%03u", (i * 7) % n);

      create_table (backend, name);
    }
  g_mutex_init (&counts.lock);
  options.describe = TRUE;
  options.page_limit = 7;
  options.names_func = count_names;
  options.described_func = count_described;
  options.user_data = &counts;
  entries = ddb_backend_list_tables (backend, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, n);
  g_assert_cmpuint (counts.pages, ==, (n + 6) / 7);
  g_assert_cmpuint (counts.names, ==, n);
  g_assert_cmpuint (counts.described, ==, n);
  for (guint i = 0; i < n; i++)
    {
      DdbTableListEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *name = g_strdup_printf ("t%03u", i);

      g_assert_cmpstr (entry->name, ==, name);
      g_assert_no_error (entry->error);
      g_assert_nonnull (entry->table);
      g_assert_cmpstr (json_string_value (json_object_get (entry->table, "TableName")), ==,
                       name);
      g_assert_cmpstr (json_string_value (json_object_get (entry->table, "TableStatus")), ==,
                       "ACTIVE");
    }
  g_mutex_clear (&counts.lock);

  /* Names only: nothing described. */
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = ddb_backend_list_tables (backend, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, n);
  g_assert_null (((DdbTableListEntry *) g_ptr_array_index (entries, 0))->table);
}

/* A fake endpoint: ListTables in pages of PAGE names "t000".."tNNN" (a name starting with
 * "denied" refused with AccessDeniedException); each DescribeTable held until HOLD_UNTIL calls
 * are in flight at once (or the fake is released). */

#define N_TABLES 40
#define PAGE 10
#define HOLD_UNTIL 8

typedef struct {
  struct MHD_Daemon *daemon;
  GMutex lock;
  GCond changed;
  guint in_flight;
  guint max_in_flight;
  guint describes;
  gboolean released;      /* teardown: nobody waits any more */
  gboolean gave_up;       /* a call waited two minutes: the client is not concurrent */
  gboolean hold_forever;  /* each DescribeTable waits for the release */
  guint fail_page;        /* ListTables fails on this page (1-based); 0: never */
  guint pages_served;
} Fake;

typedef struct {
  GString *body;
} Upload;

static char *
table_name (guint i)
{
  return i == 13 ? g_strdup ("denied-13") : g_strdup_printf ("t%03u", i);
}

static enum MHD_Result
reply (struct MHD_Connection *connection, guint status, char *body)
{
  struct MHD_Response *response
      = MHD_create_response_from_buffer (strlen (body), body, MHD_RESPMEM_MUST_FREE);
  enum MHD_Result result;

  MHD_add_response_header (response, "Content-Type", "application/x-amz-json-1.0");
  result = MHD_queue_response (connection, status, response);
  MHD_destroy_response (response);
  return result;
}

static char *
list_tables (Fake *fake, json_t *request, guint *status)
{
  const char *after = json_string_value (json_object_get (request, "ExclusiveStartTableName"));
  guint first = 0;
  json_t *answer = json_object ();
  json_t *names = json_array ();
  char *text;

  g_mutex_lock (&fake->lock);
  fake->pages_served++;
  if (fake->fail_page != 0 && fake->pages_served == fake->fail_page)
    {
      g_mutex_unlock (&fake->lock);
      json_decref (answer);
      json_decref (names);
      *status = 400;
      return g_strdup ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#AccessDeniedException\","
                       "\"message\":\"not allowed to list\"}");
    }
  g_mutex_unlock (&fake->lock);
  if (after != NULL)
    for (guint i = 0; i < N_TABLES; i++)
      {
        g_autofree char *name = table_name (i);

        if (strcmp (name, after) == 0)
          first = i + 1;
      }
  for (guint i = first; i < first + PAGE && i < N_TABLES; i++)
    {
      g_autofree char *name = table_name (i);

      json_array_append_new (names, json_string (name));
    }
  if (first + PAGE < N_TABLES)
    {
      g_autofree char *last = table_name (first + PAGE - 1);

      json_object_set_new (answer, "LastEvaluatedTableName", json_string (last));
    }
  json_object_set_new (answer, "TableNames", names);
  text = json_dumps (answer, 0);
  json_decref (answer);
  *status = 200;
  return text;
}

static char *
describe_table (Fake *fake, json_t *request, guint *status)
{
  const char *name = json_string_value (json_object_get (request, "TableName"));
  gint64 deadline = g_get_monotonic_time () + 120 * G_TIME_SPAN_SECOND;
  char *text;

  g_mutex_lock (&fake->lock);
  fake->in_flight++;
  fake->describes++;
  fake->max_in_flight = MAX (fake->max_in_flight, fake->in_flight);
  g_cond_broadcast (&fake->changed);
  /* Held until enough calls are in flight; the last calls of the list (fewer than HOLD_UNTIL
   * left) go once the others have been seen together. */
  while (!fake->released && !fake->gave_up
         && (fake->hold_forever
             || (fake->max_in_flight < HOLD_UNTIL && fake->describes < N_TABLES)))
    if (!g_cond_wait_until (&fake->changed, &fake->lock, deadline))
      fake->gave_up = TRUE;
  fake->in_flight--;
  g_mutex_unlock (&fake->lock);
  if (name != NULL && g_str_has_prefix (name, "denied"))
    {
      *status = 400;
      return g_strdup_printf ("{\"__type\":\"com.amazon.coral.service#AccessDeniedException\","
                              "\"Message\":\"not allowed to describe %s\"}", name);
    }
  *status = 200;
  text = g_strdup_printf ("{\"Table\":{\"TableName\":\"%s\",\"TableStatus\":\"ACTIVE\","
                          "\"ItemCount\":%u}}", name, (guint) strlen (name));
  return text;
}

static enum MHD_Result
handle (void *cls, struct MHD_Connection *connection, const char *url, const char *method,
        const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
  Fake *fake = cls;
  Upload *upload = *con_cls;
  const char *target;
  json_t *request;
  char *body;
  guint status = 400;

  if (upload == NULL)
    {
      upload = g_new0 (Upload, 1);
      upload->body = g_string_new (NULL);
      *con_cls = upload;
      return MHD_YES;
    }
  if (*upload_data_size > 0)
    {
      g_string_append_len (upload->body, upload_data, (gssize) *upload_data_size);
      *upload_data_size = 0;
      return MHD_YES;
    }
  target = MHD_lookup_connection_value (connection, MHD_HEADER_KIND, "X-Amz-Target");
  request = json_loads (upload->body->str, 0, NULL);
  if (target != NULL && request != NULL && strcmp (target, "DynamoDB_20120810.ListTables") == 0)
    body = list_tables (fake, request, &status);
  else if (target != NULL && request != NULL
           && strcmp (target, "DynamoDB_20120810.DescribeTable") == 0)
    body = describe_table (fake, request, &status);
  else
    body = g_strdup ("{\"__type\":\"UnknownOperationException\"}");
  if (request != NULL)
    json_decref (request);
  return reply (connection, status, body);
}

static void
completed (void *cls, struct MHD_Connection *connection, void **con_cls,
           enum MHD_RequestTerminationCode code)
{
  Upload *upload = *con_cls;

  if (upload != NULL)
    {
      g_string_free (upload->body, TRUE);
      g_free (upload);
      *con_cls = NULL;
    }
}

static DdbBackend *
fake_start (Fake *fake)
{
  const union MHD_DaemonInfo *info;
  g_autofree char *url = NULL;
  g_autoptr (GError) error = NULL;
  const char *envp[] = { "AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=secret",
                         "HOME=/nonexistent", "AWS_CONFIG_FILE=/nonexistent",
                         "AWS_SHARED_CREDENTIALS_FILE=/nonexistent",
                         "AWS_EC2_METADATA_DISABLED=true", NULL };
  DdbClientOptions options = { 0 };
  DdbBackend *backend;

  g_mutex_init (&fake->lock);
  g_cond_init (&fake->changed);
  fake->daemon = MHD_start_daemon (MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD
                                       | MHD_USE_ERROR_LOG,
                                   0, NULL, NULL, handle, fake, MHD_OPTION_NOTIFY_COMPLETED,
                                   completed, NULL, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1,
                                   MHD_OPTION_END);
  g_assert_nonnull (fake->daemon);
  info = MHD_get_daemon_info (fake->daemon, MHD_DAEMON_INFO_BIND_PORT);
  url = g_strdup_printf ("http://127.0.0.1:%u", (guint) info->port);
  options.endpoint_url = url;
  options.region = "us-east-1";
  options.envp = envp;
  options.max_attempts = 1;
  backend = ddb_backend_open_remote (&options, &error);
  g_assert_no_error (error);
  return backend;
}

static void
fake_stop (Fake *fake, DdbBackend *backend)
{
  g_mutex_lock (&fake->lock);
  fake->released = TRUE;
  g_cond_broadcast (&fake->changed);
  g_mutex_unlock (&fake->lock);
  ddb_backend_free (backend);
  MHD_stop_daemon (fake->daemon);
  g_cond_clear (&fake->changed);
  g_mutex_clear (&fake->lock);
}

static void
test_remote_concurrent (void)
{
  Fake fake = { 0 };
  DdbBackend *backend = fake_start (&fake);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  DdbTableListOptions options = { 0 };

  options.describe = TRUE;
  options.concurrency = 16;
  entries = ddb_backend_list_tables (backend, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, N_TABLES);
  g_assert_cmpuint (fake.describes, ==, N_TABLES);
  /* Several DescribeTable calls were in the fake at the same time. */
  g_assert_cmpuint (fake.max_in_flight, >=, HOLD_UNTIL);
  g_assert_cmpuint (fake.max_in_flight, <=, 16);
  for (guint i = 0; i < N_TABLES; i++)
    {
      DdbTableListEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *name = table_name (i);

      g_assert_cmpstr (entry->name, ==, name);
      if (i == 13)
        {
          /* Refused: the entry stays, with the reason. */
          g_assert_null (entry->table);
          g_assert_error (entry->error, DDB_ERROR, DDB_ERROR_INTERNAL);
          g_assert_nonnull (strstr (entry->error->message, "not allowed to describe denied-13"));
        }
      else
        {
          g_assert_no_error (entry->error);
          g_assert_cmpint (json_integer_value (json_object_get (entry->table, "ItemCount")), ==,
                           (json_int_t) strlen (name));
        }
    }
  fake_stop (&fake, backend);
}

static void
test_remote_page_fails (void)
{
  Fake fake = { 0 };
  DdbBackend *backend = fake_start (&fake);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  DdbTableListOptions options = { 0 };

  fake.fail_page = 3;
  fake.hold_forever = TRUE;
  options.describe = TRUE;
  entries = ddb_backend_list_tables (backend, &options, NULL, &error);
  /* The held DescribeTable calls were cancelled: the call returned with the page's error. */
  g_assert_null (entries);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_nonnull (strstr (error->message, "not allowed to list"));
  fake_stop (&fake, backend);
}

static void
test_remote_cancel (void)
{
  Fake fake = { 0 };
  DdbBackend *backend = fake_start (&fake);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  DdbTableListOptions options = { 0 };
  Counts counts = { 0 };

  g_mutex_init (&counts.lock);
  counts.cancel_after_first = cancellable;
  fake.hold_forever = TRUE;
  options.describe = TRUE;
  /* Cancelled once the first page is in, its DescribeTable calls held in the fake: they give
   * up at once. */
  options.names_func = cancel_on_names;
  options.user_data = &counts;
  entries = ddb_backend_list_tables (backend, &options, cancellable, &error);
  g_assert_null (entries);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_mutex_clear (&counts.lock);
  fake_stop (&fake, backend);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table-list/engine-pages", test_engine_pages);
  g_test_add_func ("/table-list/remote-concurrent", test_remote_concurrent);
  g_test_add_func ("/table-list/remote-page-fails", test_remote_page_fails);
  g_test_add_func ("/table-list/remote-cancel", test_remote_cancel);
  return g_test_run ();
}
