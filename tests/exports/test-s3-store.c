/* test-s3-store.c: the threading of the S3 snapshot store (src/exports/s3-store.c) over a fake
 * backend that delivers each object's bytes in random pieces with random pauses: many small
 * files read in plan order with 1 and 8 download threads and a budget tiny, small and large,
 * every byte compared and the bytes held ahead checked against the budget; files passed over,
 * a stream closed early and opened again, a key opened before the plan; a download error given
 * at the reader's read() after the bytes before it; cancellation at random points ending every
 * download promptly. Run under ASan/UBSan and TSan-free by design: every shared field is under
 * the store's lock. */
#include <string.h>

#include "exports/s3-store.h"

#define MAX_PIECE 40000

/* Object "obj/<index>/<size>[/fail]": SIZE bytes from a generator seeded by INDEX; "fail"
 * objects break after half of their bytes with a NoSuchKey-like error. */
static void
object_bytes (guint index, guint8 *out, gsize size)
{
  guint32 x = 2166136261u ^ (index * 16777619u);

  for (gsize i = 0; i < size; i++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      out[i] = (guint8) x;
    }
}

static gboolean
parse_key (const char *key, guint *index, gsize *size, gboolean *fail)
{
  g_auto (GStrv) parts = g_strsplit (key, "/", -1);

  if (g_strv_length (parts) < 3 || strcmp (parts[0], "obj") != 0)
    return FALSE;
  *index = (guint) g_ascii_strtoull (parts[1], NULL, 10);
  *size = (gsize) g_ascii_strtoull (parts[2], NULL, 10);
  *fail = parts[3] != NULL && strcmp (parts[3], "fail") == 0;
  return TRUE;
}

typedef struct {
  gint fetches; /* atomic */
  gint active;  /* atomic: fetches running now */
  gint max_active;
} Fake;

static gboolean
fake_fetch (const char *key, DdbS3SinkFunc sink, gpointer sink_data, GCancellable *cancellable,
            GError **error, gpointer data)
{
  Fake *fake = data;
  guint index;
  gsize size, pos = 0;
  gboolean fail, ok = TRUE;
  g_autofree guint8 *bytes = NULL;
  GRand *rand;
  gint now;

  if (!parse_key (key, &index, &size, &fail))
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_NO_SUCH_KEY,
                   "NoSuchKey: The specified key does not exist. (s3://fake/%s)", key);
      return FALSE;
    }
  g_atomic_int_inc (&fake->fetches);
  now = g_atomic_int_add (&fake->active, 1) + 1;
  for (gint m = g_atomic_int_get (&fake->max_active); now > m
       && !g_atomic_int_compare_and_exchange (&fake->max_active, m, now);
       m = g_atomic_int_get (&fake->max_active))
    ;
  bytes = g_malloc (MAX (size, 1));
  object_bytes (index, bytes, size);
  rand = g_rand_new_with_seed (index * 7 + 1);
  while (pos < size)
    {
      gsize piece = (gsize) g_rand_int_range (rand, 1, MAX_PIECE);
      gsize n = MIN (size - pos, piece);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      if (fail && pos + n > size / 2)
        {
          g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_NO_SUCH_KEY,
                       "NoSuchKey: The specified key does not exist. (s3://fake/%s)", key);
          ok = FALSE;
          break;
        }
      if (g_rand_int_range (rand, 0, 8) == 0)
        g_usleep (g_rand_int_range (rand, 0, 300));
      if (!sink (bytes + pos, n, sink_data, error))
        {
          ok = FALSE;
          break;
        }
      pos += n;
    }
  g_rand_free (rand);
  g_atomic_int_add (&fake->active, -1);
  return ok;
}

static DdbS3Store *
fake_store (Fake *fake, guint parallel, guint64 budget, GCancellable *cancellable)
{
  DdbS3StoreBackend backend = { fake_fetch, NULL, fake };

  memset (fake, 0, sizeof *fake);
  return ddb_s3_store_new (&backend, parallel, budget, cancellable);
}

static GPtrArray *
make_keys (guint n, guint max_size, guint seed)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (keys, g_strdup_printf ("obj/%u/%u", i, g_rand_int_range (rand, 0, max_size)));
  g_rand_free (rand);
  return keys;
}

/* Reads STREAM to its end in reads of random sizes: its bytes, or NULL with the error. */
static GByteArray *
read_all (GInputStream *stream, GRand *rand, GCancellable *cancellable, GError **error)
{
  GByteArray *out = g_byte_array_new ();
  guint8 buf[70000];

  for (;;)
    {
      gsize want = (gsize) g_rand_int_range (rand, 1, (gint32) sizeof buf);
      gssize n = g_input_stream_read (stream, buf, want, cancellable, error);

      if (n < 0)
        {
          g_byte_array_unref (out);
          return NULL;
        }
      if (n == 0)
        return out;
      g_byte_array_append (out, buf, (guint) n);
    }
}

static void
assert_object (const char *key, GByteArray *got)
{
  guint index;
  gsize size;
  gboolean fail;
  g_autofree guint8 *want = NULL;

  g_assert_true (parse_key (key, &index, &size, &fail));
  want = g_malloc (MAX (size, 1));
  object_bytes (index, want, size);
  g_assert_cmpuint (got->len, ==, size);
  g_assert_true (memcmp (got->data, want, size) == 0);
}

/* ---- Reading every file in plan order ---- */

static void
check_plan_order (guint parallel, guint64 budget)
{
  Fake fake;
  g_autoptr (GPtrArray) keys = make_keys (300, 120000, parallel * 1000 + (guint) budget);
  DdbS3Store *store = fake_store (&fake, parallel, budget, NULL);
  const DdbSnapshotStore *iface = ddb_s3_store_get (store);
  GRand *rand = g_rand_new_with_seed (parallel + (guint32) budget);
  guint64 bound;

  g_assert_cmpuint (iface->plan ((const char *const *) keys->pdata, keys->len, iface->data), ==,
                    0);
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GInputStream) stream
          = iface->open (g_ptr_array_index (keys, i), iface->data, NULL, &error);
      g_autoptr (GByteArray) got = NULL;

      g_assert_no_error (error);
      got = read_all (stream, rand, NULL, &error);
      g_assert_no_error (error);
      assert_object (g_ptr_array_index (keys, i), got);
      g_assert_true (g_input_stream_close (stream, NULL, NULL));
    }
  /* Under the budget, but for what one sink call of each running download adds (the file being
   * read may always take one piece). */
  bound = (budget > 0 ? budget : DDB_S3_STORE_DEFAULT_BUDGET) + (guint64) (parallel + 1) * MAX_PIECE;
  g_assert_cmpuint (ddb_s3_store_peak_buffered (store), <=, bound);
  g_assert_cmpint (g_atomic_int_get (&fake.fetches), ==, (gint) keys->len);
  g_assert_cmpint (g_atomic_int_get (&fake.max_active), <=, (gint) parallel);
  if (parallel > 1 && budget >= 1024 * 1024)
    /* With room, the downloads did run side by side. */
    g_assert_cmpint (g_atomic_int_get (&fake.max_active), >, 1);
  ddb_s3_store_free (store);
  g_rand_free (rand);
}

static void
test_plan_order (void)
{
  static const guint64 budgets[] = { 1, 256 * 1024, 64 * 1024 * 1024 };
  static const guint parallels[] = { 1, 8 };

  for (guint p = 0; p < G_N_ELEMENTS (parallels); p++)
    for (guint b = 0; b < G_N_ELEMENTS (budgets); b++)
      check_plan_order (parallels[p], budgets[b]);
}

/* ---- Opened out of order, closed early, opened again ---- */

static void
test_sample_then_plan (void)
{
  Fake fake;
  g_autoptr (GPtrArray) keys = make_keys (40, 300000, 7);
  DdbS3Store *store = fake_store (&fake, 4, 512 * 1024, NULL);
  const DdbSnapshotStore *iface = ddb_s3_store_get (store);
  GRand *rand = g_rand_new_with_seed (3);

  /* The key inference: the first file sampled before the plan, closed early. */
  for (guint round = 0; round < 3; round++)
    {
      g_autoptr (GInputStream) stream
          = iface->open (g_ptr_array_index (keys, 0), iface->data, NULL, NULL);
      guint8 buf[1000];

      g_assert_nonnull (stream);
      g_assert_cmpint (g_input_stream_read (stream, buf, sizeof buf, NULL, NULL), >, 0);
      g_assert_true (g_input_stream_close (stream, NULL, NULL));
    }
  iface->plan ((const char *const *) keys->pdata, keys->len, iface->data);
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GInputStream) stream = NULL;
      g_autoptr (GByteArray) got = NULL;

      if (i % 7 == 3)
        continue; /* passed over: its bytes are dropped, the next file still comes */
      stream = iface->open (g_ptr_array_index (keys, i), iface->data, NULL, &error);
      g_assert_no_error (error);
      if (i % 5 == 1)
        {
          /* Closed early (unreffed without a close too), then opened again out of the plan. */
          guint8 buf[10];

          g_input_stream_read (stream, buf, sizeof buf, NULL, NULL);
          g_clear_object (&stream);
          stream = iface->open (g_ptr_array_index (keys, i), iface->data, NULL, &error);
          g_assert_no_error (error);
        }
      got = read_all (stream, rand, NULL, &error);
      g_assert_no_error (error);
      assert_object (g_ptr_array_index (keys, i), got);
    }
  g_assert_cmpuint (ddb_s3_store_peak_buffered (store), <=, 512 * 1024 + 5 * MAX_PIECE);
  ddb_s3_store_free (store);
  g_rand_free (rand);
}

/* ---- Errors ---- */

static void
test_error_at_read (void)
{
  Fake fake;
  const char *keys[] = { "obj/1/50000", "obj/2/400000/fail", "obj/3/1000", "missing" };
  DdbS3Store *store = fake_store (&fake, 8, 1024 * 1024, NULL);
  const DdbSnapshotStore *iface = ddb_s3_store_get (store);
  GRand *rand = g_rand_new_with_seed (5);

  iface->plan (keys, G_N_ELEMENTS (keys), iface->data);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GInputStream) stream = iface->open (keys[i], iface->data, NULL, &error);
      g_autoptr (GByteArray) got = NULL;
      gsize before = 0;

      /* open() never fails on a download: the error comes at read(), after the bytes before
       * it (for the "fail" object, exactly the pieces under half its size). */
      g_assert_no_error (error);
      if (i == 1 || i == 3)
        {
          guint8 buf[4096];
          gssize n;

          while ((n = g_input_stream_read (stream, buf, sizeof buf, NULL, &error)) > 0)
            before += (gsize) n;
          g_assert_cmpint (n, ==, -1);
          g_assert_error (error, DDB_S3_ERROR, DDB_S3_ERROR_NO_SUCH_KEY);
          g_assert_true (g_str_has_prefix (error->message, "NoSuchKey: "));
          g_assert_nonnull (strstr (error->message, keys[i]));
          g_assert_cmpuint (before, <=, i == 1 ? 200000 : 0);
          if (i == 1)
            g_assert_cmpuint (before, >, 0);
          /* And again: the error stays. */
          g_clear_error (&error);
          g_assert_cmpint (g_input_stream_read (stream, buf, sizeof buf, NULL, &error), ==, -1);
          g_assert_error (error, DDB_S3_ERROR, DDB_S3_ERROR_NO_SUCH_KEY);
          continue;
        }
      got = read_all (stream, rand, NULL, &error);
      g_assert_no_error (error);
      assert_object (keys[i], got);
    }
  ddb_s3_store_free (store);
  g_rand_free (rand);
}

/* The whole object through get(), and its error. */
static void
test_get (void)
{
  Fake fake;
  DdbS3Store *store = fake_store (&fake, 2, 0, NULL);
  const DdbSnapshotStore *iface = ddb_s3_store_get (store);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = iface->get ("obj/9/123457", iface->data, NULL, &error);
  g_autoptr (GByteArray) got = g_byte_array_new ();

  g_assert_no_error (error);
  g_byte_array_append (got, g_bytes_get_data (bytes, NULL), (guint) g_bytes_get_size (bytes));
  assert_object ("obj/9/123457", got);
  g_assert_null (iface->get ("nope", iface->data, NULL, &error));
  g_assert_error (error, DDB_S3_ERROR, DDB_S3_ERROR_NO_SUCH_KEY);
  ddb_s3_store_free (store);
}

/* ---- Cancellation ---- */

typedef struct {
  GCancellable *cancellable;
  guint delay_us;
} Canceller;

static gpointer
cancel_later (gpointer data)
{
  Canceller *c = data;

  g_usleep (c->delay_us);
  g_cancellable_cancel (c->cancellable);
  return NULL;
}

static void
test_cancel_at_random_points (void)
{
  GRand *rand = g_rand_new_with_seed (11);

  for (guint round = 0; round < 40; round++)
    {
      Fake fake;
      guint parallel = g_rand_int_range (rand, 1, 9);
      guint64 budget = g_rand_boolean (rand) ? 64 * 1024 : 32 * 1024 * 1024;
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (GPtrArray) keys = make_keys (200, 200000, round);
      DdbS3Store *store = fake_store (&fake, parallel, budget, cancellable);
      const DdbSnapshotStore *iface = ddb_s3_store_get (store);
      Canceller c = { cancellable, g_rand_int_range (rand, 0, 30000) };
      GThread *thread;
      gboolean stopped = FALSE;
      gint64 t0;

      iface->plan ((const char *const *) keys->pdata, keys->len, iface->data);
      thread = g_thread_new ("cancel", cancel_later, &c);
      for (guint i = 0; i < keys->len && !stopped; i++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (GInputStream) stream
              = iface->open (g_ptr_array_index (keys, i), iface->data, cancellable, &error);
          g_autoptr (GByteArray) got = NULL;

          if (stream == NULL)
            {
              g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
              stopped = TRUE;
              break;
            }
          got = read_all (stream, rand, cancellable, &error);
          if (got == NULL)
            {
              g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
              stopped = TRUE;
            }
          else
            assert_object (g_ptr_array_index (keys, i), got);
          if (round % 2 == 0)
            g_input_stream_close (stream, NULL, NULL);
        }
      g_thread_join (thread);
      t0 = g_get_monotonic_time ();
      ddb_s3_store_free (store);
      /* Every download stopped at once (nothing waits for a full file or a timeout). */
      g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
      g_assert_cmpint (g_atomic_int_get (&fake.active), ==, 0);
    }
  g_rand_free (rand);
}

/* A store freed while downloads run ahead and nothing reads them. */
static void
test_free_while_downloading (void)
{
  for (guint round = 0; round < 20; round++)
    {
      Fake fake;
      g_autoptr (GPtrArray) keys = make_keys (50, 400000, round + 100);
      DdbS3Store *store = fake_store (&fake, 8, round % 2 ? 100 : 8 * 1024 * 1024, NULL);
      const DdbSnapshotStore *iface = ddb_s3_store_get (store);

      iface->plan ((const char *const *) keys->pdata, keys->len, iface->data);
      if (round % 3 == 0)
        {
          g_autoptr (GInputStream) stream
              = iface->open (g_ptr_array_index (keys, 0), iface->data, NULL, NULL);
          guint8 buf[100];

          g_input_stream_read (stream, buf, sizeof buf, NULL, NULL);
        }
      g_usleep (round * 500);
      ddb_s3_store_free (store);
      g_assert_cmpint (g_atomic_int_get (&fake.active), ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/s3-store/plan-order", test_plan_order);
  g_test_add_func ("/s3-store/sample-then-plan", test_sample_then_plan);
  g_test_add_func ("/s3-store/error-at-read", test_error_at_read);
  g_test_add_func ("/s3-store/get", test_get);
  g_test_add_func ("/s3-store/cancel-at-random-points", test_cancel_at_random_points);
  g_test_add_func ("/s3-store/free-while-downloading", test_free_while_downloading);
  return g_test_run ();
}
