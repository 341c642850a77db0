/* snapshot-lines.c: the line reader every import format goes through: a file (or pipe), or a
 * store's object (counted and MD5-summed as it is read), read in chunks, gunzipped (every
 * member) when it starts with gzip's magic bytes, cut into lines (LF or CRLF, a leading UTF-8
 * BOM dropped), counting lines for messages. */
#include <string.h>

#include "engine/snapshot-private.h"

/* ---- A store object's bytes, counted and MD5-summed as they are read ---- */

#define SNAP_TYPE_DIGEST_STREAM (snap_digest_stream_get_type ())
G_DECLARE_FINAL_TYPE (SnapDigestStream, snap_digest_stream, SNAP, DIGEST_STREAM,
                      GFilterInputStream)

struct _SnapDigestStream {
  GFilterInputStream parent;
  GChecksum *md5;
  guint64 count;
};

G_DEFINE_TYPE (SnapDigestStream, snap_digest_stream, G_TYPE_FILTER_INPUT_STREAM)

static gssize
digest_read (GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable,
             GError **error)
{
  SnapDigestStream *self = SNAP_DIGEST_STREAM (stream);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  gssize n = g_input_stream_read (base, buffer, count, cancellable, error);

  if (n > 0)
    {
      g_checksum_update (self->md5, buffer, n);
      self->count += (guint64) n;
    }
  return n;
}

static void
digest_finalize (GObject *object)
{
  g_checksum_free (SNAP_DIGEST_STREAM (object)->md5);
  G_OBJECT_CLASS (snap_digest_stream_parent_class)->finalize (object);
}

static void
snap_digest_stream_class_init (SnapDigestStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = digest_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = digest_read;
}

static void
snap_digest_stream_init (SnapDigestStream *self)
{
  self->md5 = g_checksum_new (G_CHECKSUM_MD5);
}

/* ---- gzip: every member of a file, as gzip -d reads it ---- */

/* GZlibDecompressor stops at the end of the first member of a gzip file, and the stream over it
 * then ends: the members after it (`cat a.gz b.gz`, pigz, bgzip) would be dropped without a
 * word. This reads one member after the other, as gzip -d does: what follows a member is
 * another one when it starts with gzip's magic bytes (a damaged one is the decompressor's
 * error), and is otherwise ignored as gzip -d ignores trailing garbage (zeros padding a
 * block; an S3 export's data file is checked by its MD5). */

#define SNAP_TYPE_GUNZIP (snap_gunzip_get_type ())
G_DECLARE_FINAL_TYPE (SnapGunzip, snap_gunzip, SNAP, GUNZIP, GObject)

struct _SnapGunzip {
  GObject parent;
  GConverter *member; /* the decompressor of the member being read */
  gboolean between;   /* a member ended, the next one has not started */
  gboolean trailing;  /* what follows the last member, ignored */
};

static void snap_gunzip_converter_init (GConverterIface *iface);

G_DEFINE_TYPE_WITH_CODE (SnapGunzip, snap_gunzip, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER, snap_gunzip_converter_init))

static GConverterResult
gunzip_convert (GConverter *converter, const void *inbuf, gsize inbuf_size, void *outbuf,
                gsize outbuf_size, GConverterFlags flags, gsize *bytes_read, gsize *bytes_written,
                GError **error)
{
  SnapGunzip *self = SNAP_GUNZIP (converter);
  const guint8 *in = inbuf;
  GConverterResult r;

  if (self->between && !self->trailing)
    {
      if (inbuf_size < 2 && !(flags & G_CONVERTER_INPUT_AT_END))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "Need more input");
          return G_CONVERTER_ERROR;
        }
      self->trailing = inbuf_size < 2 || in[0] != 0x1f || in[1] != 0x8b;
    }
  if (self->trailing)
    {
      /* Read to the end and dropped; a converter without input asks for more. */
      *bytes_read = inbuf_size;
      *bytes_written = 0;
      if (flags & G_CONVERTER_INPUT_AT_END)
        return G_CONVERTER_FINISHED;
      if (inbuf_size > 0)
        return G_CONVERTER_CONVERTED;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "Need more input");
      return G_CONVERTER_ERROR;
    }
  r = g_converter_convert (self->member, inbuf, inbuf_size, outbuf, outbuf_size, flags, bytes_read,
                           bytes_written, error);
  if (r == G_CONVERTER_ERROR)
    return r;
  if (*bytes_read > 0)
    self->between = FALSE;
  if (r != G_CONVERTER_FINISHED
      || (*bytes_read == inbuf_size && (flags & G_CONVERTER_INPUT_AT_END)))
    return r;
  /* The member ended; another may follow. */
  g_converter_reset (self->member);
  self->between = TRUE;
  return G_CONVERTER_CONVERTED;
}

static void
gunzip_reset (GConverter *converter)
{
  SnapGunzip *self = SNAP_GUNZIP (converter);

  g_converter_reset (self->member);
  self->between = FALSE;
  self->trailing = FALSE;
}

static void
snap_gunzip_converter_init (GConverterIface *iface)
{
  iface->convert = gunzip_convert;
  iface->reset = gunzip_reset;
}

static void
gunzip_finalize (GObject *object)
{
  g_object_unref (SNAP_GUNZIP (object)->member);
  G_OBJECT_CLASS (snap_gunzip_parent_class)->finalize (object);
}

static void
snap_gunzip_class_init (SnapGunzipClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gunzip_finalize;
}

static void
snap_gunzip_init (SnapGunzip *self)
{
  self->member = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
}

/* ---- Reading lines ---- */

gboolean
snap_io_error_prefixed (GError **error, GError *inner, const char *display)
{
  g_prefix_error (&inner, "%s: ", display);
  g_propagate_error (error, inner);
  return FALSE;
}

/* Sets up LR to read lr->file (gunzipping it when it starts with gzip's magic bytes). */
static gboolean
line_reader_start (LineReader *lr, const char *display, GCancellable *cancellable, GError **error)
{
  GInputStream *buffered;
  const guint8 *magic;
  gsize got = 0;
  GError *inner = NULL;

  lr->cancellable = cancellable;
  /* gzip by content, not by name: DynamoDB names its data files .json.gz, people rename. Peeked
   * through a buffer rather than read and sought back, so that pipes (/dev/stdin) work. */
  buffered = g_buffered_input_stream_new (lr->file);
  while ((got = g_buffered_input_stream_get_available (G_BUFFERED_INPUT_STREAM (buffered))) < 2)
    {
      gssize n = g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (buffered), 2 - got,
                                               cancellable, &inner);
      if (n < 0)
        {
          g_object_unref (buffered);
          g_clear_object (&lr->file);
          g_clear_object (&lr->digest);
          return snap_io_error_prefixed (error, inner, display);
        }
      if (n == 0)
        break;
    }
  magic = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &got);
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr (SnapGunzip) z = g_object_new (SNAP_TYPE_GUNZIP, NULL);
      lr->in = g_converter_input_stream_new (buffered, G_CONVERTER (z));
      g_object_unref (buffered);
    }
  else
    lr->in = buffered;
  lr->cap = READ_CHUNK;
  lr->buf = g_malloc (lr->cap);
  lr->first = TRUE;
  return TRUE;
}

gboolean
snap_line_reader_open (LineReader *lr, const char *path, const char *display,
                       GCancellable *cancellable, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFileInputStream *fin;
  GError *inner = NULL;

  memset (lr, 0, sizeof *lr);
  fin = g_file_read (file, cancellable, &inner);
  if (fin == NULL)
    return snap_io_error_prefixed (error, inner, display);
  lr->file = G_INPUT_STREAM (fin);
  lr->seekable = g_seekable_can_seek (G_SEEKABLE (fin));
  return line_reader_start (lr, display, cancellable, error);
}

gboolean
snap_line_reader_open_stream (LineReader *lr, GInputStream *stream, const char *display,
                              GCancellable *cancellable, GError **error)
{
  memset (lr, 0, sizeof *lr);
  lr->file = g_object_new (SNAP_TYPE_DIGEST_STREAM, "base-stream", stream, NULL);
  lr->digest = g_object_ref (lr->file);
  g_object_unref (stream);
  return line_reader_start (lr, display, cancellable, error);
}

gboolean
snap_line_reader_drain (LineReader *lr, guint8 digest[16], const char *display, GError **error)
{
  SnapDigestStream *d = SNAP_DIGEST_STREAM (lr->digest);
  gsize dlen = 16;

  for (;;)
    {
      GError *inner = NULL;
      gssize n = g_input_stream_read (lr->digest, lr->buf, lr->cap, lr->cancellable, &inner);

      if (n < 0)
        return snap_io_error_prefixed (error, inner, display);
      if (n == 0)
        break;
    }
  g_checksum_get_digest (d->md5, digest, &dlen);
  return TRUE;
}

void
snap_line_reader_close (LineReader *lr)
{
  g_clear_object (&lr->in);
  g_clear_object (&lr->digest);
  g_clear_object (&lr->file);
  g_clear_pointer (&lr->buf, g_free);
}

guint64
snap_line_reader_position (LineReader *lr)
{
  if (lr->digest != NULL)
    return SNAP_DIGEST_STREAM (lr->digest)->count;
  if (lr->file == NULL || !lr->seekable)
    return 0;
  return (guint64) g_seekable_tell (G_SEEKABLE (lr->file));
}

/* The next line without its line end (LF or CRLF), valid until the next call; FALSE at the end
 * (no error) or on error. */
gboolean
snap_line_reader_next (LineReader *lr, const char **line, gsize *len, const char *display,
                       GError **error)
{
  for (;;)
    {
      char *nl = lr->scanned < lr->end ? memchr (lr->buf + lr->scanned, '\n', lr->end - lr->scanned)
                                       : NULL;
      gsize stop;
      gssize n;
      GError *inner = NULL;

      if (nl != NULL || (lr->eof && lr->start < lr->end))
        {
          char *s = lr->buf + lr->start;

          stop = nl != NULL ? (gsize) (nl - lr->buf) : lr->end;
          *line = s;
          *len = stop - lr->start;
          if (*len > 0 && s[*len - 1] == '\r')
            (*len)--;
          if (lr->first)
            {
              lr->first = FALSE;
              if (*len >= 3 && memcmp (s, "\xEF\xBB\xBF", 3) == 0)
                {
                  *line += 3;
                  *len -= 3;
                }
            }
          lr->start = lr->scanned = nl != NULL ? stop + 1 : lr->end;
          lr->line++;
          return TRUE;
        }
      if (lr->eof)
        return FALSE;

      lr->scanned = lr->end;
      if (lr->start > 0)
        {
          memmove (lr->buf, lr->buf + lr->start, lr->end - lr->start);
          lr->end -= lr->start;
          lr->scanned -= lr->start;
          lr->start = 0;
        }
      if (lr->end == lr->cap)
        {
          lr->cap *= 2;
          lr->buf = g_realloc (lr->buf, lr->cap);
        }
      n = g_input_stream_read (lr->in, lr->buf + lr->end, lr->cap - lr->end, lr->cancellable,
                               &inner);
      if (n < 0)
        return snap_io_error_prefixed (error, inner, display);
      if (n == 0)
        lr->eof = TRUE;
      lr->end += (gsize) n;
    }
}

/* The rest of the stream from where the reader is (used for a plain JSON array). */
gboolean
snap_line_reader_read_rest (LineReader *lr, GByteArray *out, const char *display, GError **error)
{
  g_byte_array_append (out, (const guint8 *) lr->buf + lr->start, (guint) (lr->end - lr->start));
  lr->start = lr->scanned = lr->end;
  while (!lr->eof)
    {
      GError *inner = NULL;
      gssize n = g_input_stream_read (lr->in, lr->buf, lr->cap, lr->cancellable, &inner);

      if (n < 0)
        return snap_io_error_prefixed (error, inner, display);
      if (n == 0)
        lr->eof = TRUE;
      g_byte_array_append (out, (const guint8 *) lr->buf, (guint) n);
    }
  lr->start = lr->end = lr->scanned = 0;
  return TRUE;
}

gboolean
snap_is_blank (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
      return FALSE;
  return TRUE;
}

gboolean
snap_file_exists (const char *path)
{
  /* Not only regular files: /dev/stdin and named pipes are sources too. */
  return g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}
