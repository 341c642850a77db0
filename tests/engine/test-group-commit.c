/* test-group-commit.c: group commit on a database file: many threads writing at once share
 * transactions, yet every acknowledged write is durable (even through kill -9), every call gets
 * its own answer, and a call failing inside a group (a conditional write) takes back only its own
 * writes. */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine-private.h"
#include "engine-test-util.h"

#define THREADS 8
#define ROUNDS 150

/* A put acknowledged by the engine, as sent on the pipe. */
typedef struct {
  guint32 writer, round;
} Ack;

typedef struct {
  DdbEngine *engine;
  guint id;
  int ack_fd;     /* -1, or where (id, round) is written once a put is acknowledged */
  guint rounds;   /* 0: until killed */
  guint failures; /* calls whose answer was not the expected one */
} Writer;

/* A call that must succeed (TRUE) or fail with `code`. */
static gboolean
call_is (DdbEngine *engine, const char *op, json_t *req, gboolean ok, DdbErrorCode code)
{
  json_t *response = NULL;
  GError *error = NULL;
  gboolean got = ddb_engine_call (engine, op, req, &response, &error);
  gboolean as_expected = ok ? got : (!got && g_error_matches (error, DDB_ERROR, code));

  if (response != NULL)
    json_decref (response);
  g_clear_error (&error);
  json_decref (req);
  return as_expected;
}

/* Each round: a new item of its own, a conditional put that must fail (the item exists) and
 * must leave it as it was, and an increment of a counter every writer shares. */
static gpointer
writer_run (gpointer data)
{
  Writer *w = data;

  for (guint round = 0; w->rounds == 0 || round < w->rounds; round++)
    {
      json_t *put = etu_json ("{'TableName': 'Tab', 'Item': {'pk': {'S': 'w%u-%u'}, "
                              "'v': {'N': '%u'}}}",
                              w->id, round, round);
      json_t *clash = etu_json ("{'TableName': 'Tab', 'Item': {'pk': {'S': 'taken-%u'}, "
                                "'v': {'S': 'overwritten'}}, "
                                "'ConditionExpression': 'attribute_not_exists(pk)'}",
                                w->id);
      json_t *add = etu_json ("{'TableName': 'Tab', 'Key': {'pk': {'S': 'counter'}}, "
                              "'UpdateExpression': 'ADD n :one', "
                              "'ExpressionAttributeValues': {':one': {'N': '1'}}}");

      if (!call_is (w->engine, "PutItem", put, TRUE, 0))
        w->failures++;
      else if (w->ack_fd >= 0)
        {
          Ack ack = { w->id, round };

          if (write (w->ack_fd, &ack, sizeof ack) != sizeof ack)
            _exit (5);
        }
      if (!call_is (w->engine, "PutItem", clash, FALSE, DDB_ERROR_CONDITIONAL_CHECK_FAILED))
        w->failures++;
      if (w->rounds > 0 && !call_is (w->engine, "UpdateItem", add, TRUE, 0))
        w->failures++;
      else if (w->rounds == 0)
        json_decref (add);
      if (w->ack_fd >= 0 && w->failures > 0)
        _exit (6);
    }
  return NULL;
}

static DdbEngine *
open_with_table (const char *path)
{
  g_autoptr (GError) error = NULL;
  DdbEngine *engine = ddb_engine_open (path, &error);

  g_assert_no_error (error);
  etu_create_table (engine, "Tab", "pk", "S");
  for (guint i = 0; i < THREADS; i++)
    {
      g_autofree char *item
          = g_strdup_printf ("{'pk': {'S': 'taken-%u'}, 'v': {'S': 'original'}}", i);

      etu_put (engine, "Tab", item);
    }
  return engine;
}

static void
assert_item (DdbEngine *engine, const char *pk, const char *expected_item)
{
  json_t *response = etu_ok (engine, "GetItem",
                             "{'TableName': 'Tab', 'Key': {'pk': {'S': '%s'}}, "
                             "'ConsistentRead': true}",
                             pk);
  g_autofree char *expected = g_strdup_printf ("{'Item': %s}", expected_item);

  etu_assert_json (response, expected);
  json_decref (response);
}

static void
assert_taken_untouched (DdbEngine *engine)
{
  for (guint i = 0; i < THREADS; i++)
    {
      g_autofree char *pk = g_strdup_printf ("taken-%u", i);
      g_autofree char *item = g_strdup_printf ("{'pk': {'S': '%s'}, 'v': {'S': 'original'}}", pk);

      assert_item (engine, pk, item);
    }
}

static void
test_concurrent_writers (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbgroup-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  DdbEngine *engine = open_with_table (path);
  Writer writers[THREADS];
  GThread *threads[THREADS];
  guint64 groups, calls;
  g_autofree char *counter = NULL;

  for (guint i = 0; i < THREADS; i++)
    {
      writers[i] = (Writer){ engine, i, -1, ROUNDS, 0 };
      threads[i] = g_thread_new ("writer", writer_run, &writers[i]);
    }
  for (guint i = 0; i < THREADS; i++)
    {
      g_thread_join (threads[i]);
      g_assert_cmpuint (writers[i].failures, ==, 0);
    }
  g_mutex_lock (&engine->queue_lock);
  groups = engine->groups;
  calls = engine->grouped_calls;
  g_mutex_unlock (&engine->queue_lock);
  /* Every write (CreateTable and the puts of taken-N too) went through the queue, and calls did
   * share transactions. */
  g_test_message ("%" G_GUINT64_FORMAT " writing calls in %" G_GUINT64_FORMAT " groups", calls,
                  groups);
  g_assert_cmpuint (calls, ==, 1 + THREADS * (1 + 3 * ROUNDS));
  g_assert_cmpuint (groups, <, calls);
  ddb_engine_free (engine);

  /* What a new process would see. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DdbEngine) again = ddb_engine_open (path, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < THREADS; i++)
      for (guint round = 0; round < ROUNDS; round++)
        {
          g_autofree char *pk = g_strdup_printf ("w%u-%u", i, round);
          g_autofree char *item
              = g_strdup_printf ("{'pk': {'S': '%s'}, 'v': {'N': '%u'}}", pk, round);

          assert_item (again, pk, item);
        }
    assert_taken_untouched (again);
    counter = g_strdup_printf ("{'pk': {'S': 'counter'}, 'n': {'N': '%u'}}", THREADS * ROUNDS);
    assert_item (again, "counter", counter);
  }
  etu_remove_tree (dir);
}

/* Writers are killed with SIGKILL in full flight: every put that was acknowledged (reported on a
 * pipe after its answer) is there afterwards, with its value. */
static void
test_survives_kill (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbgroupkill-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  g_autoptr (GArray) acks = g_array_new (FALSE, FALSE, sizeof (Ack));
  int fds[2];
  int status = 0;
  pid_t pid;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      DdbEngine *engine = open_with_table (path);
      Writer writers[THREADS];

      close (fds[0]);
      for (guint i = 0; i < THREADS; i++)
        {
          writers[i] = (Writer){ engine, i, fds[1], 0, 0 };
          g_thread_new ("writer", writer_run, &writers[i]);
        }
      for (;;)
        pause ();
    }
  close (fds[1]);
  /* Until enough puts are acknowledged, then kill in the middle of the writing... */
  while (acks->len < 300)
    {
      Ack ack;
      ssize_t n = read (fds[0], &ack, sizeof ack);

      g_assert_cmpint (n, ==, sizeof ack);
      g_array_append_val (acks, ack);
    }
  kill (pid, SIGKILL);
  /* ... and collect the acknowledgements already sent. */
  for (;;)
    {
      Ack ack;
      ssize_t n = read (fds[0], &ack, sizeof ack);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      g_assert_cmpint (n, ==, sizeof ack);
      g_array_append_val (acks, ack);
    }
  close (fds[0]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);

  {
    g_autoptr (GError) error = NULL;
    g_autoptr (DdbEngine) engine = ddb_engine_open (path, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < acks->len; i++)
      {
        const Ack *ack = &g_array_index (acks, Ack, i);
        g_autofree char *pk = g_strdup_printf ("w%u-%u", ack->writer, ack->round);
        g_autofree char *item
            = g_strdup_printf ("{'pk': {'S': '%s'}, 'v': {'N': '%u'}}", pk, ack->round);

        assert_item (engine, pk, item);
      }
    assert_taken_untouched (engine);
  }
  etu_remove_tree (dir);
}

/* One PutItem of `pk` from a thread of its own; `ok` says whether it was acknowledged. */
typedef struct {
  DdbEngine *engine;
  char pk[16];
  gboolean ok;
  GError *error;
} LonePut;

static gpointer
lone_put_run (gpointer data)
{
  LonePut *p = data;
  json_t *req = etu_json ("{'TableName': 'Tab', 'Item': {'pk': {'S': '%s'}}}", p->pk);
  json_t *response = NULL;

  p->ok = ddb_engine_call (p->engine, "PutItem", req, &response, &p->error);
  if (response != NULL)
    json_decref (response);
  json_decref (req);
  return NULL;
}

/* Puts of `prefix`0..THREADS-1, all at once from threads of their own; returns how many were
 * acknowledged, and fails the test if a failed one has no error. */
static guint
puts_at_once (DdbEngine *engine, const char *prefix)
{
  LonePut puts[THREADS];
  GThread *threads[THREADS];
  guint acked = 0;

  for (guint i = 0; i < THREADS; i++)
    {
      puts[i] = (LonePut){ engine, "", FALSE, NULL };
      g_snprintf (puts[i].pk, sizeof puts[i].pk, "%s%u", prefix, i);
      threads[i] = g_thread_new ("put", lone_put_run, &puts[i]);
    }
  for (guint i = 0; i < THREADS; i++)
    {
      g_thread_join (threads[i]);
      if (puts[i].ok)
        acked++;
      else
        {
          g_test_message ("%s: %s", puts[i].pk, puts[i].error->message);
          g_assert_error (puts[i].error, DDB_ERROR, DDB_ERROR_INTERNAL);
        }
      g_clear_error (&puts[i].error);
    }
  return acked;
}

/* The leader's error path: the commit of a group fails (the WAL cannot grow: a file size limit
 * makes its write fail), so every call of the group must get an error and none of their writes
 * may appear, the item count included; after that the engine writes again. */
static void
test_commit_fails (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbgroupfail-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  DdbEngine *engine = open_with_table (path);
  struct rlimit saved, limited;
  struct stat st;
  void (*saved_handler) (int);
  json_t *response;

  g_assert_cmpint (stat (wal, &st), ==, 0);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  saved_handler = signal (SIGXFSZ, SIG_IGN);
  limited = saved;
  limited.rlim_cur = (rlim_t) st.st_size;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limited), ==, 0);

  g_assert_cmpuint (puts_at_once (engine, "lost"), ==, 0);

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, saved_handler);
  g_assert_cmpuint (puts_at_once (engine, "kept"), ==, THREADS);
  ddb_engine_free (engine);

  engine = ddb_engine_open (path, NULL);
  g_assert_nonnull (engine);
  for (guint i = 0; i < THREADS; i++)
    {
      g_autofree char *lost = g_strdup_printf ("lost%u", i);
      g_autofree char *kept = g_strdup_printf ("kept%u", i);
      g_autofree char *item = g_strdup_printf ("{'pk': {'S': '%s'}}", kept);

      response = etu_ok (engine, "GetItem",
                         "{'TableName': 'Tab', 'Key': {'pk': {'S': '%s'}}, "
                         "'ConsistentRead': true}",
                         lost);
      etu_assert_json (response, "{}");
      json_decref (response);
      assert_item (engine, kept, item);
    }
  assert_taken_untouched (engine);
  /* The running count holds the taken-N and kept-N items only. */
  response = etu_ok (engine, "DescribeTable", "{'TableName': 'Tab'}");
  g_assert_cmpint (
      json_integer_value (json_object_get (json_object_get (response, "Table"), "ItemCount")), ==,
      2 * THREADS);
  json_decref (response);
  ddb_engine_free (engine);
  etu_remove_tree (dir);
}

/* Table definitions are cached per connection (the writer and each reader): a change made
 * through another connection (another engine on the file, as another process would be) is seen
 * by the next call of each, and an answer never shares the cache's state. */
static void
test_definitions_shared_file (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbgroupdefs-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  DdbEngine *a = open_with_table (path);
  DdbEngine *b = ddb_engine_open (path, NULL);
  const char *arn_req = "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/Tab'}";
  json_t *response;

  g_assert_nonnull (b);
  /* Twice, so that the reader and the writer of `a` have the definition cached. */
  for (int i = 0; i < 2; i++)
    {
      response = etu_ok (a, "ListTagsOfResource", "%s", arn_req);
      etu_assert_json (response, "{'Tags': []}");
      json_decref (response);
      etu_put (a, "Tab", "{'pk': {'S': 'x'}}");
    }
  response = etu_ok (b, "TagResource",
                     "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/Tab', "
                     "'Tags': [{'Key': 'k', 'Value': 'v'}]}");
  json_decref (response);
  for (int i = 0; i < 2; i++)
    {
      response = etu_ok (a, "ListTagsOfResource", "%s", arn_req);
      etu_assert_json (response, "{'Tags': [{'Key': 'k', 'Value': 'v'}]}");
      json_decref (response);
    }

  /* The table replaced by one of another key schema. */
  response = etu_ok (b, "DeleteTable", "{'TableName': 'Tab'}");
  json_decref (response);
  etu_create_table (b, "Tab", "id", "N");
  json_decref (etu_fails (a, "PutItem", DDB_ERROR_VALIDATION, NULL,
                          "{'TableName': 'Tab', 'Item': {'pk': {'S': 'x'}}}"));
  json_decref (etu_fails (a, "GetItem", DDB_ERROR_VALIDATION, NULL,
                          "{'TableName': 'Tab', 'Key': {'pk': {'S': 'x'}}}"));
  etu_put (a, "Tab", "{'id': {'N': '1'}}");
  response = etu_ok (a, "GetItem", "{'TableName': 'Tab', 'Key': {'id': {'N': '1'}}}");
  etu_assert_json (response, "{'Item': {'id': {'N': '1'}}}");
  json_decref (response);

  ddb_engine_free (b);
  ddb_engine_free (a);
  etu_remove_tree (dir);
}

/* A caller owns its answer and may change it: no answer may share a reader's cached table
 * definition (the definition's description is shared with the reader's calls, not copied). */
static void
test_answers_own_definitions (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbgroupown-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  DdbEngine *engine = open_with_table (path);
  gboolean shared = FALSE;
  json_t *response;

  response = etu_ok (engine, "TagResource",
                     "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/Tab', "
                     "'Tags': [{'Key': 'k', 'Value': 'v'}]}");
  json_decref (response);
  response = etu_ok (engine, "UpdateTimeToLive",
                     "{'TableName': 'Tab', 'TimeToLiveSpecification': "
                     "{'Enabled': true, 'AttributeName': 'ttl'}}");
  json_decref (response);
  /* The first call fills the reader's cache, the next ones are answered from it; each answer is
   * emptied by its caller. */
  for (int i = 0; i < 3; i++)
    {
      json_t *tags, *ttl;

      response = etu_ok (engine, "ListTagsOfResource",
                         "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/Tab'}");
      tags = json_object_get (response, "Tags");
      shared = shared || json_array_size (tags) != 1;
      json_array_clear (tags);
      json_decref (response);
      response = etu_ok (engine, "DescribeTimeToLive", "{'TableName': 'Tab'}");
      ttl = json_object_get (response, "TimeToLiveDescription");
      shared = shared || json_object_size (ttl) != 2;
      json_object_clear (ttl);
      json_decref (response);
    }
  ddb_engine_free (engine);
  etu_remove_tree (dir);
  /* an answer that were the reader's cached definition would have been emptied above */
  g_assert_false (shared);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/group-commit/concurrent-writers", test_concurrent_writers);
  g_test_add_func ("/group-commit/survives-kill", test_survives_kill);
  g_test_add_func ("/group-commit/commit-fails", test_commit_fails);
  g_test_add_func ("/group-commit/definitions-shared-file", test_definitions_shared_file);
  g_test_add_func ("/group-commit/answers-own-definitions", test_answers_own_definitions);
  return g_test_run ();
}
