/* commit.c: the journaled commit of staged changes, as single conditional writes or
 * TransactWriteItems batches, with backoff on throttling and resumption after a crash. */
#include "core/ddbjson.h"
#include "core/error.h"
#include "backend/read-only.h"
#include "staging/commit.h"
#include "staging/journal.h"
#include "staging/writes.h"

#define MAX_TRANSACTION_ACTIONS 100
/* DynamoDB's 4 MB is on the items; the serialized actions measured here are larger than the
 * items they carry, so staying under this keeps the real figure under the limit. */
#define MAX_TRANSACTION_BYTES (4 * 1000 * 1000)
#define MAX_BACKOFF_MS 5000
/* Single writes: see send_group. A resume journals its verdicts in groups of this size too. */
#define SINGLE_GROUP_MAX 100
#define SINGLE_SLICE_US (250 * G_TIME_SPAN_MILLISECOND)

typedef struct {
  DdbStaging *staging;
  DdbBackend *backend;
  const DdbCommitOptions *options;
  GCancellable *cancellable;
  DdbCommitReport *report;
  DdbCommitProgress progress;
} Commit;

void
ddb_commit_report_clear (DdbCommitReport *report)
{
  g_clear_pointer (&report->conflict_ids, g_array_unref);
}

static gboolean
call (Commit *c, const char *operation, json_t *request, json_t **response, GError **error)
{
  *response = NULL;
  if (c->options->call != NULL)
    return c->options->call (c->backend, operation, request, c->cancellable, response, error,
                             c->options->call_data);
  return ddb_backend_call (c->backend, operation, request, c->cancellable, response, error);
}

/* Errors that say "not now" and nothing about the write: it was not applied. */
static gboolean
is_throttling (const GError *error, json_t *extra)
{
  static const char *const names[] = {
    "ThrottlingException",
    "RequestLimitExceeded",
    "TransactionInProgressException",
  };
  const char *name;

  if (error->domain != DDB_ERROR)
    return FALSE;
  if (error->code == DDB_ERROR_PROVISIONED_THROUGHPUT)
    return TRUE;
  name = ddb_backend_error_name (error, extra);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
wait_backoff (Commit *c, guint attempt, GError **error)
{
  guint base = c->options->backoff_ms > 0 ? c->options->backoff_ms : 50;
  guint64 ms = MIN ((guint64) base << MIN (attempt, 16u), (guint64) MAX_BACKOFF_MS);
  gint64 deadline;

  /* full jitter on the upper half, so that parallel committers spread out */
  ms = ms / 2 + g_random_int_range (0, (gint32) (ms / 2) + 1);
  deadline = g_get_monotonic_time () + (gint64) ms * 1000;
  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();

      if (g_cancellable_set_error_if_cancelled (c->cancellable, error))
        return FALSE;
      if (left <= 0)
        return TRUE;
      g_usleep (MIN (left, 5000));
    }
}

static guint
max_attempts (Commit *c)
{
  return c->options->max_attempts > 0 ? c->options->max_attempts : 10;
}

/* Throttling that refused the request outright. TransactionInProgressException is left out:
 * it says an earlier request with the same token is still at work, which may yet apply. */
static gboolean
is_refusal (const GError *error, json_t *extra)
{
  /* a read-only connection sends nothing */
  if (g_error_matches (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY))
    return TRUE;
  return is_throttling (error, extra)
         && g_strcmp0 (ddb_backend_error_name (error, extra), "TransactionInProgressException") != 0;
}

/* Sends the request, again after a backoff while it is throttled. On failure *NOT_APPLIED
 * (may be NULL) says whether the request surely did not reach the table: every attempt was
 * refused (throttled past max_attempts, or cancelled while waiting to try again). */
static gboolean
call_retrying (Commit *c, const char *operation, json_t *request, json_t **response,
               gboolean *not_applied, GError **error)
{
  gboolean dummy;

  if (not_applied == NULL)
    not_applied = &dummy;
  *not_applied = FALSE;
  for (guint attempt = 0;; attempt++)
    {
      GError *local = NULL;

      if (call (c, operation, request, response, &local))
        return TRUE;
      *not_applied = is_refusal (local, *response);
      if (!is_throttling (local, *response) || attempt + 1 >= max_attempts (c))
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      g_clear_error (&local);
      g_clear_pointer (response, json_decref);
      if (!wait_backoff (c, attempt, error))
        return FALSE;
    }
}

static void
count (Commit *c, const DdbTransition *t)
{
  switch (t->state)
    {
    case DDB_CHANGE_COMMITTED:
      c->report->committed++;
      c->progress.committed++;
      break;
    case DDB_CHANGE_CONFLICT:
      c->report->conflicts++;
      c->progress.conflicts++;
      g_array_append_val (c->report->conflict_ids, t->id);
      break;
    case DDB_CHANGE_FAILED:
      c->report->failed++;
      c->progress.failed++;
      break;
    case DDB_CHANGE_STAGED:
    case DDB_CHANGE_SENDING:
      break;
    }
}

/* Journals the transitions durably, then counts and reports them: never the other way round. */
static gboolean
record (Commit *c, const DdbTransition *t, guint n, GError **error)
{
  gboolean final = FALSE;

  if (!ddb_journal_record (c->staging, t, n, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      count (c, &t[i]);
      final |= t[i].state >= DDB_CHANGE_COMMITTED;
    }
  if (final && c->options->progress != NULL)
    c->options->progress (&c->progress, c->options->progress_data);
  return TRUE;
}

static gboolean
record1 (Commit *c, gint64 id, DdbChangeState state, gboolean set_current,
         const DdbValue *current, const char *message, GError **error)
{
  DdbTransition t = { id, state, set_current, current, message, NULL };

  return record (c, &t, 1, error);
}

#define CONFLICT_MESSAGE "The item no longer holds the values the change started from"

/* The item now (consistent read); *CURRENT NULL when absent. */
static gboolean
read_item (Commit *c, const DdbChange *change, DdbValue **current, GError **error)
{
  json_t *req = json_pack ("{ss so sb}", "TableName", change->table, "Key",
                           ddb_item_to_json (change->key), "ConsistentRead", TRUE);
  json_t *resp = NULL;
  json_t *item;
  gboolean ok = call_retrying (c, "GetItem", req, &resp, NULL, error);

  *current = NULL;
  json_decref (req);
  if (ok && (item = json_object_get (resp, "Item")) != NULL)
    ok = (*current = ddb_json_to_item (item, error)) != NULL;
  g_clear_pointer (&resp, json_decref);
  return ok;
}

/* Judges the changes in RESUMING by reading their items, and journals the verdicts of each
 * hundred in one transaction (a crash before that leaves them in 'sending', to be judged again).
 * A change found not applied is back to staged and sent with the rest. */
static gboolean
resume (Commit *c, GPtrArray *resuming, GError **error)
{
  g_autofree DdbTransition *t = g_new0 (DdbTransition, SINGLE_GROUP_MAX);
  g_autofree DdbChange **judged = g_new0 (DdbChange *, SINGLE_GROUP_MAX);
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  GError *stop = NULL;
  guint n = 0;
  gboolean ok = TRUE;

  for (guint i = 0; ok && i <= resuming->len; i++)
    {
      DdbChange *change = i < resuming->len ? g_ptr_array_index (resuming, i) : NULL;
      DdbValue *current = NULL;

      if (change != NULL && stop == NULL
          && !g_cancellable_set_error_if_cancelled (c->cancellable, &stop)
          && read_item (c, change, &current, &stop))
        {
          c->report->resumed++;
          t[n] = (DdbTransition) { change->id, DDB_CHANGE_CONFLICT, TRUE, current,
                                   CONFLICT_MESSAGE, NULL };
          switch (ddb_write_judge (change, current, c->options->version_attribute))
            {
            case DDB_WRITE_APPLIED:
              t[n] = (DdbTransition) { change->id, DDB_CHANGE_COMMITTED, FALSE, NULL, NULL, NULL };
              break;
            case DDB_WRITE_NOT_APPLIED:
              t[n] = (DdbTransition) { change->id, DDB_CHANGE_STAGED, FALSE, NULL, NULL, NULL };
              break;
            case DDB_WRITE_CHANGED:
              break;
            }
          judged[n++] = change;
          if (current != NULL)
            g_ptr_array_add (keep, current);
        }
      if (n == SINGLE_GROUP_MAX || (n > 0 && (change == NULL || stop != NULL)))
        {
          ok = record (c, t, n, error);
          for (guint j = 0; ok && j < n; j++)
            if (t[j].state == DDB_CHANGE_STAGED)
              judged[j]->state = DDB_CHANGE_STAGED;
          g_ptr_array_set_size (keep, 0);
          n = 0;
        }
      if (stop != NULL)
        break;
    }
  if (ok && stop != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&stop));
      ok = FALSE;
    }
  g_clear_error (&stop);
  return ok;
}

/* "Name: message" for a change that DynamoDB refused for a reason other than its condition. */
static char *
failure_text (const GError *error, json_t *extra)
{
  return g_strdup_printf ("%s: %s", ddb_backend_error_name (error, extra), error->message);
}

/* A conflict found by the delete pre-check (see DdbWrite.needs_precheck); *CONFLICTED says
 * whether there was one. */
static gboolean
precheck (Commit *c, const DdbChange *change, gboolean *conflicted, GError **error)
{
  g_autoptr (DdbValue) current = NULL;

  *conflicted = FALSE;
  if (!read_item (c, change, &current, error))
    return FALSE;
  if (ddb_write_judge (change, current, c->options->version_attribute) == DDB_WRITE_NOT_APPLIED)
    return TRUE;
  *conflicted = TRUE;
  return record1 (c, change->id, DDB_CHANGE_CONFLICT, TRUE, current, CONFLICT_MESSAGE, error);
}

/* Builds the write; a change that cannot be written is recorded as failed (*WRITTEN FALSE). */
static gboolean
build (Commit *c, const DdbChange *change, DdbWrite *write, gboolean *usable, GError **error)
{
  GError *local = NULL;
  gboolean ok;

  *usable = ddb_write_build (change, c->options->version_attribute, write, &local);
  if (*usable)
    return TRUE;
  ok = record1 (c, change->id, DDB_CHANGE_FAILED, FALSE, NULL, local->message, error);
  g_error_free (local);
  return ok;
}

/* ---- Single writes ------------------------------------------------------------------------ */

/* Single writes go out in groups: the whole group is marked 'sending' in one durable journal
 * transaction, its writes are sent one by one, and their outcomes are journaled in one more.
 * Two fsyncs per group instead of two per change, and no guarantee given up: a change is
 * 'sending' before its write can leave, and whatever a crash leaves in 'sending' is judged by
 * reading its item (see commit.h), whether it was sent or not. A group starts with one change
 * and doubles while its writes fit in a time slice, so progress (reported when outcomes are
 * journaled) and cancellation stay prompt on a slow endpoint; changes a cut-short group did not
 * send go back to 'staged' with the outcomes. */

typedef struct {
  DdbChange *change;
  DdbWrite write;
} Single;

/* Sends one write of the group and fills OUT with its outcome. FALSE (with ERROR) when the
 * commit must stop: OUT's state is then STAGED when the write surely did not go out (to be
 * journaled so), or SENDING when its outcome is unknown (the change stays 'sending' for the
 * next commit to judge). KEEP and TEXTS hold what OUT points to until it is journaled. */
static gboolean
send_single (Commit *c, Single *s, DdbTransition *out, GPtrArray *keep, GPtrArray *texts,
             GError **error)
{
  json_t *resp = NULL;
  GError *local = NULL;
  gboolean not_applied;

  *out = (DdbTransition) { s->change->id, DDB_CHANGE_COMMITTED, FALSE, NULL, NULL, NULL };
  if (s->write.needs_precheck)
    {
      DdbValue *current = NULL;

      if (!read_item (c, s->change, &current, error))
        {
          out->state = DDB_CHANGE_STAGED; /* the delete was not sent */
          return FALSE;
        }
      if (ddb_write_judge (s->change, current, c->options->version_attribute)
          != DDB_WRITE_NOT_APPLIED)
        {
          if (current != NULL)
            g_ptr_array_add (keep, current);
          *out = (DdbTransition) { s->change->id, DDB_CHANGE_CONFLICT, TRUE, current,
                                   CONFLICT_MESSAGE, NULL };
          return TRUE;
        }
      g_clear_pointer (&current, ddb_value_free);
    }
  if (call_retrying (c, s->write.operation, s->write.request, &resp, &not_applied, &local))
    {
      json_decref (resp);
      return TRUE;
    }
  if (g_error_matches (local, DDB_ERROR, DDB_ERROR_CONDITIONAL_CHECK_FAILED))
    {
      json_t *item = resp != NULL ? json_object_get (resp, "Item") : NULL;
      DdbValue *current = item != NULL ? ddb_json_to_item (item, NULL) : NULL;

      if (current != NULL)
        g_ptr_array_add (keep, current);
      *out = (DdbTransition) { s->change->id, DDB_CHANGE_CONFLICT, TRUE, current,
                               CONFLICT_MESSAGE, NULL };
    }
  else if (local->domain == DDB_ERROR && !is_throttling (local, resp))
    {
      char *text = failure_text (local, resp);

      g_ptr_array_add (texts, text);
      *out = (DdbTransition) { s->change->id, DDB_CHANGE_FAILED, FALSE, NULL, text, NULL };
    }
  else
    {
      /* Throttled to the end: not applied, back to staged. Otherwise the write may or may not
       * have gone out: it stays 'sending' for the next commit. */
      out->state = not_applied ? DDB_CHANGE_STAGED : DDB_CHANGE_SENDING;
      g_propagate_error (error, g_steal_pointer (&local));
      g_clear_pointer (&resp, json_decref);
      return FALSE;
    }
  g_clear_error (&local);
  g_clear_pointer (&resp, json_decref);
  return TRUE;
}

/* Builds, marks and sends the group of up to *SIZE changes from the head of PENDING, then
 * journals the outcomes; puts the changes it did not send back in PENDING and adjusts *SIZE to
 * what fits a time slice. */
static gboolean
send_group (Commit *c, GQueue *pending, guint *size, GError **error)
{
  g_autofree Single *group = g_new0 (Single, *size);
  g_autofree DdbTransition *t = g_new0 (DdbTransition, *size);
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  GError *stop = NULL;
  guint n = 0, nt = 0, sent = 0, no = 0;
  gint64 deadline;
  gboolean ok, cut = FALSE;

  /* A change that cannot be written fails in the same journal transaction. */
  while (nt < *size && !g_queue_is_empty (pending))
    {
      DdbChange *change = g_queue_pop_head (pending);
      GError *local = NULL;

      if (ddb_write_build (change, c->options->version_attribute, &group[n].write, &local))
        {
          group[n++].change = change;
          t[nt++] = (DdbTransition) { change->id, DDB_CHANGE_SENDING, FALSE, NULL, NULL, NULL };
        }
      else
        {
          g_ptr_array_add (texts, g_strdup (local->message));
          t[nt++] = (DdbTransition) { change->id, DDB_CHANGE_FAILED, FALSE, NULL,
                                      g_ptr_array_index (texts, texts->len - 1), NULL };
          g_error_free (local);
        }
    }
  ok = record (c, t, nt, error);
  deadline = g_get_monotonic_time () + SINGLE_SLICE_US;
  while (ok && sent < n)
    {
      if (g_cancellable_is_cancelled (c->cancellable)
          || (sent > 0 && g_get_monotonic_time () > deadline))
        {
          cut = TRUE;
          break;
        }
      if (!send_single (c, &group[sent], &t[no], keep, texts, &stop))
        {
          if (t[no].state == DDB_CHANGE_STAGED)
            no++;
          sent++;
          break;
        }
      sent++;
      no++;
    }
  /* the changes not sent go back to staged beside the outcomes */
  for (guint i = sent; ok && i < n; i++)
    t[no++] = (DdbTransition) { group[i].change->id, DDB_CHANGE_STAGED, FALSE, NULL, NULL, NULL };
  if (ok)
    ok = record (c, t, no, error);
  for (guint i = n; ok && i > sent; i--)
    g_queue_push_head (pending, group[i - 1].change);
  for (guint i = 0; i < n; i++)
    ddb_write_clear (&group[i].write);
  if (ok && stop != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&stop));
      ok = FALSE;
    }
  g_clear_error (&stop);
  if (cut)
    *size = MAX (sent, 1u);
  else if (sent == n)
    *size = MIN (*size * 2, (guint) SINGLE_GROUP_MAX);
  return ok;
}

static gboolean
commit_single (Commit *c, GPtrArray *changes, GError **error)
{
  GQueue pending = G_QUEUE_INIT;
  guint size = 1;
  gboolean ok = TRUE;

  for (guint i = 0; i < changes->len; i++)
    g_queue_push_tail (&pending, g_ptr_array_index (changes, i));
  while (ok && !g_queue_is_empty (&pending))
    ok = !g_cancellable_set_error_if_cancelled (c->cancellable, error)
         && send_group (c, &pending, &size, error);
  g_queue_clear (&pending);
  return ok;
}

/* ---- Transactions ------------------------------------------------------------------------ */

typedef struct {
  GPtrArray *members; /* DdbChange, borrowed */
  json_t *actions;
  gsize bytes;
} Batch;

static const char *
reason_code (json_t *reasons, guint i)
{
  const char *code = json_string_value (json_object_get (json_array_get (reasons, i), "Code"));

  return code != NULL ? code : "None";
}

static gboolean
is_retryable_reason (const char *code)
{
  return strcmp (code, "TransactionConflict") == 0 || strcmp (code, "ThrottlingError") == 0
         || strcmp (code, "ProvisionedThroughputExceeded") == 0;
}

/* Takes changes from the head of PENDING into BATCH while the limits allow. */
static gboolean
fill_batch (Commit *c, GQueue *pending, Batch *batch, GError **error)
{
  g_autoptr (GHashTable) items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GQueue deferred = G_QUEUE_INIT;
  gboolean ok = TRUE;

  while (ok && !g_queue_is_empty (pending) && batch->members->len < MAX_TRANSACTION_ACTIONS)
    {
      DdbChange *change = g_queue_peek_head (pending);
      g_autofree char *key = ddb_json_format_item (change->key);
      char *id = g_strdup_printf ("%s\n%s", change->table, key);
      DdbWrite write;
      gboolean usable, conflicted = FALSE;
      json_t *action;
      char *text;
      gsize size;

      if (g_hash_table_contains (items, id))
        {
          /* never two actions on one item: the second waits for the next batch */
          g_free (id);
          g_queue_push_tail (&deferred, g_queue_pop_head (pending));
          continue;
        }
      if (!build (c, change, &write, &usable, error))
        {
          g_free (id);
          ok = FALSE;
          break;
        }
      if (!usable)
        {
          g_free (id);
          g_queue_pop_head (pending);
          continue;
        }
      action = json_pack ("{sO}", write.action, write.request);
      text = json_dumps (action, JSON_COMPACT);
      size = strlen (text);
      free (text);
      if (batch->members->len > 0 && batch->bytes + size > MAX_TRANSACTION_BYTES)
        {
          g_free (id);
          json_decref (action);
          ddb_write_clear (&write);
          break;
        }
      if (write.needs_precheck)
        ok = precheck (c, change, &conflicted, error);
      ddb_write_clear (&write);
      g_queue_pop_head (pending);
      if (!ok || conflicted)
        {
          g_free (id);
          json_decref (action);
          continue;
        }
      g_hash_table_add (items, id);
      json_array_append_new (batch->actions, action);
      g_ptr_array_add (batch->members, change);
      batch->bytes += size;
    }
  while (!g_queue_is_empty (&deferred))
    g_queue_push_head (pending, g_queue_pop_tail (&deferred));
  return ok;
}

/* Journals the batch's outcome after a TransactionCanceledException; puts the changes that were
 * not at fault back in PENDING. *RETRY says whether only transient reasons cancelled it. */
static gboolean
record_cancellation (Commit *c, Batch *batch, json_t *reasons, GQueue *pending, gboolean *retry,
                     GError **error)
{
  guint n = batch->members->len;
  g_autofree DdbTransition *t = g_new0 (DdbTransition, n);
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  gboolean transient = FALSE, decisive = FALSE;
  gboolean ok;

  for (guint i = 0; i < n; i++)
    {
      DdbChange *change = g_ptr_array_index (batch->members, i);
      const char *code = reason_code (reasons, i);

      t[i].id = change->id;
      if (strcmp (code, "None") == 0 || is_retryable_reason (code))
        {
          transient |= strcmp (code, "None") != 0;
          t[i].state = DDB_CHANGE_STAGED;
        }
      else if (strcmp (code, "ConditionalCheckFailed") == 0)
        {
          json_t *item = json_object_get (json_array_get (reasons, i), "Item");
          DdbValue *current = item != NULL ? ddb_json_to_item (item, NULL) : NULL;

          if (current != NULL)
            g_ptr_array_add (keep, current);
          t[i].state = DDB_CHANGE_CONFLICT;
          t[i].set_current = TRUE;
          t[i].current = current;
          t[i].message = CONFLICT_MESSAGE;
          decisive = TRUE;
        }
      else
        {
          const char *message
            = json_string_value (json_object_get (json_array_get (reasons, i), "Message"));
          char *text = g_strdup_printf ("%s: %s", code, message != NULL ? message : "");

          g_ptr_array_add (texts, text);
          t[i].state = DDB_CHANGE_FAILED;
          t[i].message = text;
          decisive = TRUE;
        }
    }
  ok = record (c, t, n, error);
  for (guint i = n; ok && i > 0; i--)
    if (t[i - 1].state == DDB_CHANGE_STAGED)
      g_queue_push_head (pending, g_ptr_array_index (batch->members, i - 1));
  *retry = transient && !decisive;
  return ok;
}

static gboolean
send_batch (Commit *c, Batch *batch, GQueue *pending, guint *transient_failures, GError **error)
{
  guint n = batch->members->len;
  g_autofree DdbTransition *t = g_new0 (DdbTransition, n);
  g_autofree char *token = g_uuid_string_random ();
  json_t *req, *resp = NULL;
  GError *local = NULL;
  gboolean ok, not_applied;

  for (guint i = 0; i < n; i++)
    {
      DdbChange *change = g_ptr_array_index (batch->members, i);

      t[i] = (DdbTransition) { change->id, DDB_CHANGE_SENDING, FALSE, NULL, NULL, token };
    }
  if (!record (c, t, n, error))
    return FALSE;
  /* A fresh token per send: a retry after a cancellation is a different transaction, and the
   * token only dedupes a resend of the very same request within DynamoDB's 10 minutes. */
  req = json_pack ("{sO ss}", "TransactItems", batch->actions, "ClientRequestToken", token);
  ok = call_retrying (c, "TransactWriteItems", req, &resp, &not_applied, &local);
  json_decref (req);
  if (ok)
    {
      for (guint i = 0; i < n; i++)
        t[i] = (DdbTransition) { t[i].id, DDB_CHANGE_COMMITTED, FALSE, NULL, NULL, NULL };
      ok = record (c, t, n, error);
    }
  else if (g_error_matches (local, DDB_ERROR, DDB_ERROR_TRANSACTION_CANCELED)
           && json_array_size (json_object_get (resp, "CancellationReasons")) == n)
    {
      gboolean retry;

      ok = record_cancellation (c, batch, json_object_get (resp, "CancellationReasons"), pending,
                                &retry, error);
      if (ok && retry)
        {
          if (++*transient_failures >= max_attempts (c))
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_TRANSACTION_CANCELED,
                           "The transaction kept being cancelled by conflicting writes or "
                           "throttling; the changes stay staged");
              ok = FALSE;
            }
          else
            ok = wait_backoff (c, *transient_failures - 1, error);
        }
      else if (ok)
        *transient_failures = 0;
    }
  else if (local->domain == DDB_ERROR && !is_throttling (local, resp))
    {
      g_autofree char *text = failure_text (local, resp);

      for (guint i = 0; i < n; i++)
        t[i] = (DdbTransition) { t[i].id, DDB_CHANGE_FAILED, FALSE, NULL, text, NULL };
      ok = record (c, t, n, error);
    }
  else
    {
      /* Throttled to the end: nothing was applied, the batch is back to staged. Otherwise its
       * outcome is unknown: it stays 'sending' for the next commit to judge. */
      for (guint i = 0; not_applied && i < n; i++)
        t[i] = (DdbTransition) { t[i].id, DDB_CHANGE_STAGED, FALSE, NULL, NULL, NULL };
      if (!not_applied || record (c, t, n, error))
        g_propagate_error (error, g_steal_pointer (&local));
      ok = FALSE;
    }
  g_clear_error (&local);
  g_clear_pointer (&resp, json_decref);
  return ok;
}

static gboolean
commit_transactions (Commit *c, GPtrArray *changes, GError **error)
{
  GQueue pending = G_QUEUE_INIT;
  guint transient_failures = 0;
  gboolean ok = TRUE;

  for (guint i = 0; i < changes->len; i++)
    g_queue_push_tail (&pending, g_ptr_array_index (changes, i));
  while (ok && !g_queue_is_empty (&pending))
    {
      Batch batch = { g_ptr_array_new (), json_array (), 0 };

      ok = !g_cancellable_set_error_if_cancelled (c->cancellable, error)
           && fill_batch (c, &pending, &batch, error);
      if (ok && batch.members->len > 0)
        ok = send_batch (c, &batch, &pending, &transient_failures, error);
      g_ptr_array_unref (batch.members);
      json_decref (batch.actions);
    }
  g_queue_clear (&pending);
  return ok;
}

gboolean
ddb_staging_commit (DdbStaging *staging, DdbBackend *backend, const DdbCommitOptions *options,
                    GCancellable *cancellable, DdbCommitReport *report, GError **error)
{
  Commit c = { staging, backend, options, cancellable, report, { 0 } };
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (GPtrArray) to_send = g_ptr_array_new ();
  g_autoptr (GPtrArray) resuming = g_ptr_array_new ();

  g_return_val_if_fail (options->connection != NULL, FALSE);
  memset (report, 0, sizeof *report);
  report->conflict_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* a read-only connection: nothing is sent, every change stays staged */
  if (!ddb_backend_check_writable (backend, "commit", error))
    return FALSE;
  changes = ddb_staging_list (staging, options->connection, options->table, FALSE, error);
  if (changes == NULL)
    return FALSE;
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = g_ptr_array_index (changes, i);

      if (options->change_id != 0 && change->id != options->change_id)
        continue;
      if (change->state == DDB_CHANGE_SENDING || change->state == DDB_CHANGE_STAGED)
        c.progress.total++;
    }
  /* First settle what an interrupted commit left in flight, so nothing is sent twice. */
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = g_ptr_array_index (changes, i);

      if ((options->change_id == 0 || change->id == options->change_id)
          && change->state == DDB_CHANGE_SENDING)
        g_ptr_array_add (resuming, change);
    }
  if (!resume (&c, resuming, error))
    return FALSE;
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = g_ptr_array_index (changes, i);

      if ((options->change_id == 0 || change->id == options->change_id)
          && change->state == DDB_CHANGE_STAGED)
        g_ptr_array_add (to_send, change);
    }
  if (options->mode == DDB_COMMIT_SINGLE)
    return commit_single (&c, to_send, error);
  return commit_transactions (&c, to_send, error);
}
