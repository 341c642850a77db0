/* s3-store.h: the DdbSnapshotStore (engine/snapshot.h) that s3-import.c gives the engine: the
 * objects of one bucket, the data files fetched by download threads ahead of the reader. Private
 * to src/exports and its tests.
 *
 * How the data files flow:
 * - plan() remembers the keys in reading order, finds their sizes (one ListObjectsV2 per folder
 *   holding them) and starts `parallel` download threads. Each takes the next file not started
 *   and streams it (GetObject, which resumes a broken body itself) into the file's queue of
 *   chunks; open() hands the reader a GInputStream over that queue, whose read() takes and frees
 *   the chunks.
 * - The bytes fetched and not yet read, over every file, stay under the memory budget: a file
 *   the reader has not opened yet may only fill while the total is under 3/4 of the budget, the
 *   file being read while it is under the whole budget (or while it holds nothing, so that the
 *   reader can always go on), and no new file is started while the total is over 3/4 of it
 *   (unless the reader already waits for it).
 * - A download over the budget waits inside its sink, without reading the socket: the server is
 *   held back by TCP's flow control. libcurl's idle timeout (CURLOPT_LOW_SPEED_*, 1 byte/s) is
 *   only measured while libcurl runs, and the bytes delivered before the pause keep the average
 *   over its window above 1 byte/s when the transfer goes on, so a pause does not time out; a
 *   server that drops a connection held back too long is what the S3 client's resume (Range +
 *   If-Match, up to max_attempts) is for.
 * - A download's error (NoSuchKey, a connection that cannot be resumed, ...) is kept and given
 *   by the reader's read() once the bytes before it are read; the engine names the file.
 * - The import's GCancellable stops every download at once (libcurl is woken, a download
 *   waiting in its sink returns); closing a stream before its end (the key inference samples the
 *   first file) cancels that file's download and frees its bytes. A key opened that is not next
 *   in the plan (the sample, read before plan()) is downloaded by a thread of its own.
 *
 * The downloads go through a DdbS3StoreBackend, so that tests can drive the threading without a
 * network. */
#pragma once

#include <gio/gio.h>

#include "engine/snapshot.h"
#include "net/s3.h"

G_BEGIN_DECLS

typedef struct {
  /* Streams object KEY to SINK (as ddb_s3_get_object does); called from download threads, at
   * once from several. */
  gboolean (*fetch) (const char *key, DdbS3SinkFunc sink, gpointer sink_data,
                     GCancellable *cancellable, GError **error, gpointer data);
  /* Optional: the sizes of the N objects KEYS into SIZES (0 when unknown). */
  void (*sizes) (const char *const *keys, guint n, guint64 *sizes, GCancellable *cancellable,
                 gpointer data);
  gpointer data;
} DdbS3StoreBackend;

typedef struct _DdbS3Store DdbS3Store;

#define DDB_S3_STORE_DEFAULT_PARALLEL 4
#define DDB_S3_STORE_DEFAULT_BUDGET (64u * 1024 * 1024)

/* PARALLEL 0: DDB_S3_STORE_DEFAULT_PARALLEL; BUDGET 0: DDB_S3_STORE_DEFAULT_BUDGET. CANCELLABLE
 * (may be NULL) is the import's: cancelling it stops every download. */
DdbS3Store *ddb_s3_store_new (const DdbS3StoreBackend *backend, guint parallel, guint64 budget,
                              GCancellable *cancellable);
/* The store of BUCKET's objects through S3 (borrowed: it must outlive the store). */
DdbS3Store *ddb_s3_store_new_for_bucket (DdbS3 *s3, const char *bucket, guint parallel,
                                         guint64 budget, GCancellable *cancellable);
/* Cancels what still downloads and waits for the download threads. Every stream opened must
 * have been freed first. */
void ddb_s3_store_free (DdbS3Store *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbS3Store, ddb_s3_store_free)

/* The store as the engine takes it (DdbImportOptions.store); valid while STORE is. */
const DdbSnapshotStore *ddb_s3_store_get (DdbS3Store *store);

/* For tests: the most bytes that were fetched and not yet read at any one time, and the number
 * of downloads started (plan's and others). */
guint64 ddb_s3_store_peak_buffered (DdbS3Store *store);
guint ddb_s3_store_downloads_started (DdbS3Store *store);

G_END_DECLS
