/* gui-fault.c: the fault server for the GUI tests (see gui-fault.h). */
#define G_LOG_DOMAIN "test-gui"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "gui-fault.h"
#include "net/http.h"

static GPid server = -1;
static char *server_url;
static DdbHttp *http;

static const char server_py[] = "import sys\n"
                                "sys.path.insert(0, sys.argv[1])\n"
                                "from dynoscope_testlib import FaultServer\n"
                                "server = FaultServer().start()\n"
                                "print(server.url, flush=True)\n"
                                "server.thread.join()\n";

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

const char *
gui_fault_start (void)
{
  g_autofree char *lib = g_build_filename (DYNOSCOPE_SOURCE_DIR, "tests", "lib", NULL);
  const char *argv[] = { "python3", "-c", server_py, lib, NULL };
  g_autoptr (GError) error = NULL;
  int out = -1;
  FILE *stream;
  char *line = NULL;
  size_t size = 0;
  ssize_t len;

  g_assert_true (g_spawn_async_with_pipes (
      NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, die_with_parent,
      NULL, &server, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  stream = fdopen (out, "r");
  g_assert_nonnull (stream);
  len = getline (&line, &size, stream);
  g_assert_cmpint (len, >, 0);
  g_strchomp (line);
  g_assert_true (g_str_has_prefix (line, "http://127.0.0.1:"));
  server_url = g_strdup (line);
  free (line);
  fclose (stream);
  http = ddb_http_new (NULL, &error);
  g_assert_no_error (error);
  return server_url;
}

void
gui_fault_stop (void)
{
  g_clear_pointer (&http, ddb_http_free);
  if (server > 0)
    {
      kill (server, SIGTERM);
      waitpid (server, NULL, 0);
      g_spawn_close_pid (server);
      server = -1;
    }
  g_clear_pointer (&server_url, g_free);
}

json_t *
gui_fault_control (const char *method, const char *path, const char *body)
{
  g_autofree char *url = g_strconcat (server_url, path, NULL);
  DdbHttpSend send = { 0 };
  DdbHttpResponse response = { 0 };
  g_autoptr (GError) error = NULL;
  json_error_t json_error;
  const char *data;
  gsize len;
  json_t *answer;

  send.method = method;
  send.url = url;
  send.body = (const guint8 *) body;
  send.body_len = body != NULL ? strlen (body) : 0;
  g_assert_true (ddb_http_send (http, &send, NULL, &response, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (response.status, ==, 200);
  data = g_bytes_get_data (response.body, &len);
  answer = json_loadb (data, len, 0, &json_error);
  ddb_http_response_clear (&response);
  g_assert_nonnull (answer);
  return answer;
}

json_t *
gui_fault_item (const char *pk, const char *status)
{
  return json_pack ("{s{ss}s{ss}}", "pk", "S", pk, "status", "S", status);
}

json_t *
gui_fault_page (const char *pk1, const char *pk2, gboolean more)
{
  json_t *p = json_pack ("{s[oo]sisi}", "Items", gui_fault_item (pk1, "open"),
                         gui_fault_item (pk2, "open"), "Count", 2, "ScannedCount", 2);

  if (more)
    json_object_set_new (p, "LastEvaluatedKey", json_pack ("{s{ss}}", "pk", "S", pk2));
  return p;
}

json_t *
gui_fault_table_answers (const char *table, json_t *scan)
{
  return json_pack (
      "{s{s[s]} s{s{sss[{ssss}]s[{ssss}]sssisi}} s{s{ss}} so"
      " s{s[o]ss}}",
      "ListTables", "TableNames", table, "DescribeTable", "Table", "TableName", table, "KeySchema",
      "AttributeName", "pk", "KeyType", "HASH", "AttributeDefinitions", "AttributeName", "pk",
      "AttributeType", "S", "TableStatus", "ACTIVE", "ItemCount", 6, "TableSizeBytes", 120,
      "DescribeTimeToLive", "TimeToLiveDescription", "TimeToLiveStatus", "DISABLED", "Scan", scan,
      "ExecuteStatement", "Items", gui_fault_item ("p1", "open"), "NextToken", "token-1");
}

void
gui_fault_script (const char *const *failures, json_t *answers)
{
  json_t *steps = json_array ();
  g_autofree char *body = NULL;
  json_t *config;

  for (guint i = 0; failures != NULL && failures[i] != NULL; i++)
    json_array_append_new (steps, json_string (failures[i]));
  config = json_pack ("{soso}", "script", steps, "answers", answers);
  body = json_dumps (config, JSON_COMPACT);
  json_decref (config);
  json_decref (gui_fault_control ("POST", "/__script", body));
}

char **
gui_fault_times (const char *failure, guint n)
{
  char **steps = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    steps[i] = g_strdup (failure);
  return steps;
}

json_t *
gui_fault_stats (void)
{
  return gui_fault_control ("GET", "/__stats", NULL);
}

static gint64
stat_number (const char *name)
{
  json_t *s = gui_fault_stats ();
  json_t *n = json_object_get (s, name);
  gint64 value;

  g_assert_true (json_is_integer (n));
  value = json_integer_value (n);
  json_decref (s);
  return value;
}

gint64
gui_fault_requests (void)
{
  return stat_number ("requests");
}

gint64
gui_fault_open (void)
{
  return stat_number ("open");
}
