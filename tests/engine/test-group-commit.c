/* test-group-commit.c: group commit on a database file: many threads writing at once share
 * transactions, yet every acknowledged write is durable (even through kill -9), every call gets
 * its own answer, and a call failing inside a group (a conditional write) takes back only its own
 * writes. */
#include <errno.h>
#include <signal.h>
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/group-commit/concurrent-writers", test_concurrent_writers);
  g_test_add_func ("/group-commit/survives-kill", test_survives_kill);
  return g_test_run ();
}
