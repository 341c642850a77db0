/* test-s3.c: the pieces of the S3 client (src/net/s3*.c) without a network: s3:// URLs, bucket
 * names, standard endpoints by partition, key encoding over every byte, virtual-hosted and
 * path-style targets, S3's error and ListObjectsV2 XML, error names, and how ddb_s3_new resolves
 * the endpoint and addressing style from the environment and the AWS files. (URLs and signatures
 * are also checked against botocore by s3-botocore-check.py, the client against servers by
 * run-s3-tests.py.) */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "net/s3.h"

static void
test_parse_url (void)
{
  static const struct {
    const char *url, *bucket, *key;
  } good[] = {
    { "s3://bucket", "bucket", "" },
    { "s3://bucket/", "bucket", "" },
    { "s3://bucket/some/prefix", "bucket", "some/prefix" },
    { "s3://bucket/some/prefix/", "bucket", "some/prefix/" },
    { "s3://my.dotted.bucket/AWSDynamoDB/0123/manifest-summary.json", "my.dotted.bucket",
      "AWSDynamoDB/0123/manifest-summary.json" },
    { "s3://Legacy_Bucket-1/k", "Legacy_Bucket-1", "k" },
    { "s3://b/a//b", "b", "a//b" },
    { "s3://b//lead", "b", "/lead" },
    { "s3://b/with space/ü+=~", "b", "with space/ü+=~" },
  };
  static const struct {
    const char *url, *says;
  } bad[] = {
    { "", "must start with s3://" },
    { "bucket/key", "must start with s3://" },
    { "S3://bucket/key", "must start with s3://" },
    { "https://bucket.s3.amazonaws.com/key", "must start with s3://" },
    { "s3:/bucket", "must start with s3://" },
    { "s3://", "names no bucket" },
    { "s3:///key", "names no bucket" },
    { "s3://bad bucket/key", "not a valid bucket name" },
    { "s3://bucket?x/key", "not a valid bucket name" },
    { "s3://bücket/key", "not a valid bucket name" },
    { "s3://arn:aws:s3:us-east-1:123456789012:accesspoint/ap/key", "ARNs are not supported" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *bucket = NULL, *key = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (ddb_s3_parse_url (good[i].url, &bucket, &key, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (bucket, ==, good[i].bucket);
      g_assert_cmpstr (key, ==, good[i].key);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *bucket = NULL, *key = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_false (ddb_s3_parse_url (bad[i].url, &bucket, &key, &error));
      g_assert_error (error, DDB_S3_ERROR, DDB_S3_ERROR_INVALID_URL);
      g_assert_nonnull (strstr (error->message, bad[i].says));
      g_assert_null (bucket);
      g_assert_null (key);
    }
  /* A 255-character name is accepted, 256 is not. */
  {
    g_autofree char *name = g_strnfill (255, 'b');
    g_autofree char *ok_url = g_strconcat ("s3://", name, "/k", NULL);
    g_autofree char *long_url = g_strconcat ("s3://", name, "b/k", NULL);
    g_autofree char *bucket = NULL, *key = NULL;

    g_assert_true (ddb_s3_parse_url (ok_url, &bucket, &key, NULL));
    g_clear_pointer (&bucket, g_free);
    g_clear_pointer (&key, g_free);
    g_assert_false (ddb_s3_parse_url (long_url, &bucket, &key, NULL));
  }
}

static void
test_virtual_hostable (void)
{
  static const struct {
    const char *bucket;
    gboolean plain, dots;
  } cases[] = {
    { "abc", TRUE, TRUE },
    { "export-bucket", TRUE, TRUE },
    { "ab", FALSE, FALSE },
    { "a.b.c", FALSE, TRUE }, /* over http each label may be short */
    { "my.dotted.bucket", FALSE, TRUE },
    { "a..b", FALSE, FALSE },
    { ".abc", FALSE, FALSE },
    { "abc.", FALSE, FALSE },
    { "UpperCase", FALSE, FALSE },
    { "under_score", FALSE, FALSE },
    { "-dash", FALSE, FALSE },
    { "dash-", FALSE, FALSE },
    { "abc.-de", FALSE, FALSE },
    { "192.168.1.1", FALSE, FALSE },
    { "1.2.3.4", FALSE, FALSE },
    { "1.2.3.4.5", FALSE, TRUE },
    { "123", TRUE, TRUE },
    { "xn--abc", TRUE, TRUE },
  };
  g_autofree char *l63 = g_strnfill (63, 'x');
  g_autofree char *l64 = g_strnfill (64, 'x');
  g_autofree char *two63 = g_strconcat (l63, ".", l63, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpint (ddb_s3_bucket_is_virtual_hostable (cases[i].bucket, FALSE), ==,
                       cases[i].plain);
      g_assert_cmpint (ddb_s3_bucket_is_virtual_hostable (cases[i].bucket, TRUE), ==,
                       cases[i].dots);
    }
  g_assert_true (ddb_s3_bucket_is_virtual_hostable (l63, FALSE));
  g_assert_false (ddb_s3_bucket_is_virtual_hostable (l64, FALSE));
  g_assert_false (ddb_s3_bucket_is_virtual_hostable (two63, FALSE));
  g_assert_true (ddb_s3_bucket_is_virtual_hostable (two63, TRUE));
  g_assert_false (ddb_s3_bucket_is_virtual_hostable (NULL, TRUE));
}

static void
test_standard_endpoints (void)
{
  /* botocore 1.43.11's S3 rule set with the CLI v2's regional us-east-1. */
  static const char *const cases[][2] = {
    { "us-east-1", "https://s3.us-east-1.amazonaws.com" },
    { "eu-west-1", "https://s3.eu-west-1.amazonaws.com" },
    { "ap-southeast-5", "https://s3.ap-southeast-5.amazonaws.com" },
    { "cn-north-1", "https://s3.cn-north-1.amazonaws.com.cn" },
    { "cn-northwest-1", "https://s3.cn-northwest-1.amazonaws.com.cn" },
    { "us-gov-west-1", "https://s3.us-gov-west-1.amazonaws.com" },
    { "us-iso-east-1", "https://s3.us-iso-east-1.c2s.ic.gov" },
    { "us-isob-east-1", "https://s3.us-isob-east-1.sc2s.sgov.gov" },
    { "aws-global", "https://s3.amazonaws.com" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *url = ddb_s3_standard_endpoint (cases[i][0]);

      g_assert_cmpstr (url, ==, cases[i][1]);
    }
}

static gboolean
is_unreserved (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '.' || c == '_' || c == '~';
}

static void
test_encode_key (void)
{
  static const char *const cases[][2] = {
    { "a b", "a%20b" },       { "a+b", "a%2Bb" },     { "a=b", "a%3Db" },
    { "a~b", "a~b" },         { "a//b", "a//b" },     { "/lead", "/lead" },
    { "ü", "%C3%BC" },        { "😀", "%F0%9F%98%80" }, { "%20", "%2520" },
    { "a?b#c&d", "a%3Fb%23c%26d" }, { "a/./b/../c", "a/./b/../c" }, { "", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ddb_s3_encode_key (cases[i][0]);

      g_assert_cmpstr (got, ==, cases[i][1]);
    }
  /* Every byte: kept if unreserved or '/', else %XX in upper case; decoding gives it back. */
  for (guint c = 1; c < 256; c++)
    {
      char key[4] = { 'k', (char) c, 'k', '\0' };
      g_autofree char *got = ddb_s3_encode_key (key);
      g_autofree char *q = ddb_s3_encode_query_value (key);
      g_autofree char *back = g_uri_unescape_string (got, NULL);
      char expected[8];

      if (is_unreserved ((guchar) c) || c == '/')
        g_snprintf (expected, sizeof expected, "k%ck", c);
      else
        g_snprintf (expected, sizeof expected, "k%%%02Xk", c);
      g_assert_cmpstr (got, ==, expected);
      g_assert_cmpmem (back, strlen (back), key, 3);
      /* Query values encode '/' too. */
      if (c == '/')
        g_assert_cmpstr (q, ==, "k%2Fk");
      else
        g_assert_cmpstr (q, ==, expected);
    }
}

static void
test_targets (void)
{
  static const struct {
    const char *endpoint;
    gboolean custom;
    DdbS3AddressingStyle style;
    const char *bucket, *key, *query;
    const char *url, *host, *path;
  } cases[] = {
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_AUTO, "exports", "a b/ü",
      NULL, "https://exports.s3.eu-west-1.amazonaws.com/a%20b/%C3%BC",
      "exports.s3.eu-west-1.amazonaws.com", "/a b/ü" },
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_PATH, "exports", "k", NULL,
      "https://s3.eu-west-1.amazonaws.com/exports/k", "s3.eu-west-1.amazonaws.com",
      "/exports/k" },
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_AUTO, "my.dotted", "k",
      NULL, "https://s3.eu-west-1.amazonaws.com/my.dotted/k", "s3.eu-west-1.amazonaws.com",
      "/my.dotted/k" },
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_VIRTUAL, "my.dotted", "k",
      NULL, "https://s3.eu-west-1.amazonaws.com/my.dotted/k", "s3.eu-west-1.amazonaws.com",
      "/my.dotted/k" },
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_AUTO, "exports", NULL,
      "list-type=2&prefix=a%2Fb", "https://exports.s3.eu-west-1.amazonaws.com/?list-type=2&prefix=a%2Fb",
      "exports.s3.eu-west-1.amazonaws.com", "/" },
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_PATH, "exports", NULL,
      "list-type=2", "https://s3.eu-west-1.amazonaws.com/exports?list-type=2",
      "s3.eu-west-1.amazonaws.com", "/exports" },
    { "https://s3.eu-west-1.amazonaws.com", FALSE, DDB_S3_ADDRESSING_AUTO, "exports", "//x",
      NULL, "https://exports.s3.eu-west-1.amazonaws.com///x",
      "exports.s3.eu-west-1.amazonaws.com", "///x" },
    { "http://127.0.0.1:4568", TRUE, DDB_S3_ADDRESSING_AUTO, "exports", "k+=~", NULL,
      "http://127.0.0.1:4568/exports/k%2B%3D~", "127.0.0.1:4568", "/exports/k+=~" },
    { "http://127.0.0.1:4568", TRUE, DDB_S3_ADDRESSING_VIRTUAL, "exports", "k", NULL,
      "http://127.0.0.1:4568/exports/k", "127.0.0.1:4568", "/exports/k" },
    { "http://[::1]:9000", TRUE, DDB_S3_ADDRESSING_VIRTUAL, "a.b.c", "k", NULL,
      "http://[::1]:9000/a.b.c/k", "[::1]:9000", "/a.b.c/k" },
    { "http://localhost:4566", TRUE, DDB_S3_ADDRESSING_AUTO, "exports", "k", NULL,
      "http://localhost:4566/exports/k", "localhost:4566", "/exports/k" },
    { "http://localhost:4566", TRUE, DDB_S3_ADDRESSING_VIRTUAL, "exports", "k", NULL,
      "http://exports.localhost:4566/k", "exports.localhost:4566", "/k" },
    { "http://minio.example:9000", TRUE, DDB_S3_ADDRESSING_VIRTUAL, "a.b.c", "k", NULL,
      "http://a.b.c.minio.example:9000/k", "a.b.c.minio.example:9000", "/k" },
    { "https://minio.example", TRUE, DDB_S3_ADDRESSING_VIRTUAL, "a.b.c", "k", NULL,
      "https://minio.example/a.b.c/k", "minio.example", "/a.b.c/k" },
    { "https://MinIO.example:443/base/p%20q/", TRUE, DDB_S3_ADDRESSING_AUTO, "exports", "k",
      NULL, "https://minio.example/base/p%20q/exports/k", "minio.example",
      "/base/p q/exports/k" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbS3Target t = { 0 };
      g_autoptr (GError) error = NULL;

      g_assert_true (ddb_s3_target_build (cases[i].endpoint, cases[i].custom, cases[i].style,
                                          cases[i].bucket, cases[i].key, cases[i].query, &t,
                                          &error));
      g_assert_no_error (error);
      g_assert_cmpstr (t.url, ==, cases[i].url);
      g_assert_cmpstr (t.host, ==, cases[i].host);
      g_assert_cmpstr (t.path, ==, cases[i].path);
      ddb_s3_target_clear (&t);
    }
  {
    DdbS3Target t = { 0 };
    g_autoptr (GError) error = NULL;

    g_assert_false (ddb_s3_target_build ("ftp://x", TRUE, DDB_S3_ADDRESSING_AUTO, "b", "k",
                                         NULL, &t, &error));
    g_assert_nonnull (error);
  }
}

static void
test_sign_headers (void)
{
  DdbCredentials creds = { "AKIDEXAMPLE", "secret", "token/with+=" };
  DdbS3Target t = { 0 };
  DdbHttpHeader headers[8];
  DdbSignature sig = { 0 };
  guint n = 0;
  g_autoptr (GError) error = NULL;
  static const char *const order[]
      = { "Host", "X-Amz-Security-Token", "X-Amz-Date", "x-amz-content-sha256", "Authorization" };

  g_assert_true (ddb_s3_target_build ("https://s3.us-east-1.amazonaws.com", FALSE,
                                      DDB_S3_ADDRESSING_AUTO, "b-u-c", "a b", NULL, &t, NULL));
  g_assert_true (ddb_s3_sign ("GET", &t, &creds, "us-east-1", 1440938160, NULL, 0, headers, &n,
                              G_N_ELEMENTS (headers), &sig, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (order));
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (headers[i].name, ==, order[i]);
  g_assert_cmpstr (headers[0].value, ==, "b-u-c.s3.us-east-1.amazonaws.com");
  g_assert_cmpstr (headers[2].value, ==, "20150830T123600Z");
  /* GET: the empty payload's hash; the canonical URI encoded once, with no normalization. */
  g_assert_cmpstr (headers[3].value, ==,
                   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  g_assert_true (g_str_has_prefix (sig.canonical_request, "GET\n/a%20b\n\n"));
  g_assert_nonnull (strstr (headers[4].value, "/20150830/us-east-1/s3/aws4_request, "
                                              "SignedHeaders=host;x-amz-content-sha256;"
                                              "x-amz-date;x-amz-security-token, Signature="));
  ddb_signature_clear (&sig);
  /* No room: refused, not overflowed. */
  n = 5;
  g_assert_false (ddb_s3_sign ("GET", &t, &creds, "us-east-1", 0, NULL, 0, headers, &n, 8, &sig,
                               NULL));
  ddb_s3_target_clear (&t);
}

static void
test_error_xml (void)
{
  static const struct {
    const char *xml, *code, *message, *region;
  } good[] = {
    { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code><Message>The "
      "specified key does not exist.</Message><Key>a&amp;b</Key><RequestId>X</RequestId>"
      "</Error>",
      "NoSuchKey", "The specified key does not exist.", NULL },
    { "<Error><Code>AuthorizationHeaderMalformed</Code><Message>the region 'us-east-1' is "
      "wrong; expecting 'eu-west-2'</Message><Region>eu-west-2</Region></Error>",
      "AuthorizationHeaderMalformed", "the region 'us-east-1' is wrong; expecting 'eu-west-2'",
      "eu-west-2" },
    { "<Error><Code>X</Code><Message>&quot;q&quot; &lt;&gt; &#233;</Message></Error>", "X",
      "\"q\" <> é", NULL },
    { "<Error><Message>no code</Message></Error>", NULL, "no code", NULL },
    { "<Error><Details><Code>Nested</Code></Details><Code>Outer</Code></Error>", "Outer", NULL,
      NULL },
  };
  static const char *const bad[] = {
    "", "not xml", "<ListBucketResult/>", "<Error><Code>x</Error>", "<html><body>502</body>",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *code = NULL, *message = NULL, *region = NULL;

      g_assert_true (ddb_s3_parse_error (good[i].xml, strlen (good[i].xml), &code, &message,
                                         &region));
      g_assert_cmpstr (code, ==, good[i].code);
      g_assert_cmpstr (message, ==, good[i].message);
      g_assert_cmpstr (region, ==, good[i].region);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *code = NULL, *message = NULL, *region = NULL;

      g_assert_false (ddb_s3_parse_error (bad[i], strlen (bad[i]), &code, &message, &region));
      g_assert_null (code);
      g_assert_null (message);
      g_assert_null (region);
    }
}

static void
test_list_xml (void)
{
  const char *page1
      = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult "
        "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name><Prefix>p%2F</Prefix>"
        "<KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><EncodingType>url</EncodingType>"
        "<IsTruncated>true</IsTruncated><NextContinuationToken>tok/+=</NextContinuationToken>"
        "<Contents><Key>p/a+b%2Bc%25d</Key><LastModified>2009-10-12T17:50:30.000Z"
        "</LastModified><ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag>"
        "<Size>434234</Size><StorageClass>STANDARD</StorageClass></Contents>"
        "<Contents><Key>p/%E2%82%AC</Key><Size>0</Size><ETag>&quot;e&quot;</ETag></Contents>"
        "<CommonPrefixes><Prefix>p/sub+dir%2F</Prefix></CommonPrefixes></ListBucketResult>";
  const char *page2
      = "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>p/a+b%</Key>"
        "<Size>18446744073709551615</Size></Contents></ListBucketResult>";
  static const char *const bad[] = {
    "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
    "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
    "<ListBucketResult><Contents><Key>k</Key><Size>1x</Size></Contents></ListBucketResult>",
    "<ListBucketResult><Contents><Key>k</Key><Size></Size></Contents></ListBucketResult>",
    "<Error><Code>NoSuchBucket</Code></Error>",
    "<ListBucketResult><Contents>",
    "",
  };
  g_autoptr (DdbS3Listing) listing = ddb_s3_listing_new ();
  g_autofree char *token = NULL;
  DdbS3Object *o;

  g_assert_true (ddb_s3_parse_list_page (page1, strlen (page1), listing, &token, NULL));
  g_assert_cmpstr (token, ==, "tok/+=");
  g_assert_cmpuint (listing->objects->len, ==, 2);
  o = g_ptr_array_index (listing->objects, 0);
  /* url encoding: '+' is a space, %XX a byte (botocore's unquote_plus) */
  g_assert_cmpstr (o->key, ==, "p/a b+c%d");
  g_assert_cmpuint (o->size, ==, 434234);
  g_assert_cmpstr (o->etag, ==, "\"fba9dede5f27731c9771645a39863328\"");
  g_assert_cmpint (o->last_modified, ==, 1255369830);
  o = g_ptr_array_index (listing->objects, 1);
  g_assert_cmpstr (o->key, ==, "p/€");
  g_assert_cmpuint (o->size, ==, 0);
  g_assert_cmpuint (listing->common_prefixes->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (listing->common_prefixes, 0), ==, "p/sub dir/");
  g_clear_pointer (&token, g_free);
  /* Without EncodingType the keys are as they are. */
  g_assert_true (ddb_s3_parse_list_page (page2, strlen (page2), listing, &token, NULL));
  g_assert_null (token);
  g_assert_cmpuint (listing->objects->len, ==, 3);
  o = g_ptr_array_index (listing->objects, 2);
  g_assert_cmpstr (o->key, ==, "p/a+b%");
  g_assert_cmpuint (o->size, ==, G_MAXUINT64);
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_false (ddb_s3_parse_list_page (bad[i], strlen (bad[i]), listing, &token, &error));
      g_assert_error (error, DDB_S3_ERROR, DDB_S3_ERROR_BAD_RESPONSE);
      g_assert_true (g_str_has_prefix (error->message, "BadResponse:"));
      g_assert_null (token);
      /* A page that does not parse adds nothing. */
      g_assert_cmpuint (listing->objects->len, ==, 3);
      g_assert_cmpuint (listing->common_prefixes->len, ==, 1);
    }
}

static void
test_error_names (void)
{
  static const struct {
    const char *name;
    DdbS3ErrorCode code;
  } cases[] = {
    { "NoSuchKey", DDB_S3_ERROR_NO_SUCH_KEY },
    { "NoSuchBucket", DDB_S3_ERROR_NO_SUCH_BUCKET },
    { "AccessDenied", DDB_S3_ERROR_ACCESS_DENIED },
    { "PreconditionFailed", DDB_S3_ERROR_PRECONDITION_FAILED },
    { "InvalidRange", DDB_S3_ERROR_INVALID_RANGE },
    { "SignatureDoesNotMatch", DDB_S3_ERROR_SIGNATURE_MISMATCH },
    { "InvalidAccessKeyId", DDB_S3_ERROR_INVALID_ACCESS_KEY },
    { "ExpiredToken", DDB_S3_ERROR_EXPIRED_TOKEN },
    { "SlowDown", DDB_S3_ERROR_SLOW_DOWN },
    { "InternalError", DDB_S3_ERROR_INTERNAL },
    { "PermanentRedirect", DDB_S3_ERROR_REDIRECT },
    { "InvalidBucketName", DDB_S3_ERROR_INVALID_BUCKET },
    { "BucketAlreadyExists", DDB_S3_ERROR_OTHER },
    { "nosuchkey", DDB_S3_ERROR_OTHER },
    { "", DDB_S3_ERROR_OTHER },
    { NULL, DDB_S3_ERROR_OTHER },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (ddb_s3_error_code_from_name (cases[i].name), ==, cases[i].code);
}

/* ---- ddb_s3_new's resolution from the environment and the files ---- */

typedef struct {
  char *dir;
  char *config;
  GPtrArray *env;
} Files;

static void
files_init (Files *f, const char *config_text)
{
  g_autofree char *creds = NULL;

  f->dir = g_dir_make_tmp ("dynoscope-s3-XXXXXX", NULL);
  f->config = g_build_filename (f->dir, "config", NULL);
  creds = g_build_filename (f->dir, "credentials", NULL);
  g_assert_true (g_file_set_contents (f->config, config_text, -1, NULL));
  g_assert_true (g_file_set_contents (creds, "", -1, NULL));
  f->env = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (f->env, g_strconcat ("AWS_CONFIG_FILE=", f->config, NULL));
  g_ptr_array_add (f->env, g_strconcat ("AWS_SHARED_CREDENTIALS_FILE=", creds, NULL));
  g_ptr_array_add (f->env, g_strconcat ("HOME=", f->dir, NULL));
  g_ptr_array_add (f->env, g_strdup ("AWS_ACCESS_KEY_ID=AKIDEXAMPLE"));
  g_ptr_array_add (f->env, g_strdup ("AWS_SECRET_ACCESS_KEY=secret"));
  /* No region from instance metadata: nothing leaves the machine. */
  g_ptr_array_add (f->env, g_strdup ("AWS_EC2_METADATA_DISABLED=true"));
}

static const char *const *
files_envp (Files *f, const char *const *extra)
{
  for (; extra != NULL && *extra != NULL; extra++)
    g_ptr_array_add (f->env, g_strdup (*extra));
  g_ptr_array_add (f->env, NULL);
  return (const char *const *) f->env->pdata;
}

static void
files_clear (Files *f)
{
  g_autofree char *creds = g_build_filename (f->dir, "credentials", NULL);

  g_unlink (f->config);
  g_unlink (creds);
  g_rmdir (f->dir);
  g_free (f->config);
  g_free (f->dir);
  g_ptr_array_unref (f->env);
}

static const char *const CONFIG
    = "[default]\n"
      "region = eu-west-1\n"
      "\n"
      "[profile pathy]\n"
      "region = cn-north-1\n"
      "s3 =\n"
      "  addressing_style = path\n"
      "\n"
      "[profile virt]\n"
      "region = us-east-1\n"
      "s3 =\n"
      "  addressing_style = virtual\n"
      "\n"
      "[profile wrong]\n"
      "region = us-east-1\n"
      "s3 =\n"
      "  addressing_style = sideways\n"
      "\n"
      "[profile svc]\n"
      "region = us-west-2\n"
      "services = local-s3\n"
      "endpoint_url = http://127.0.0.1:1111\n"
      "\n"
      "[profile ep]\n"
      "region = us-west-2\n"
      "endpoint_url = http://127.0.0.1:2222\n"
      "\n"
      "[profile noregion]\n"
      "output = json\n"
      "\n"
      "[profile badca]\n"
      "region = us-east-1\n"
      "ca_bundle = /nonexistent/ca.pem\n"
      "\n"
      "[services local-s3]\n"
      "s3 =\n"
      "  endpoint_url = http://127.0.0.1:3333\n"
      "dynamodb =\n"
      "  endpoint_url = http://127.0.0.1:4444\n";

static void
test_new_resolution (void)
{
  static const struct {
    const char *profile;
    const char *option_endpoint;
    const char *env[3];
    const char *endpoint; /* NULL: the region's */
    const char *region;
    DdbS3AddressingStyle style;
  } cases[] = {
    { NULL, NULL, { NULL }, NULL, "eu-west-1", DDB_S3_ADDRESSING_AUTO },
    { "pathy", NULL, { NULL }, NULL, "cn-north-1", DDB_S3_ADDRESSING_PATH },
    { "virt", NULL, { NULL }, NULL, "us-east-1", DDB_S3_ADDRESSING_VIRTUAL },
    { "svc", NULL, { NULL }, "http://127.0.0.1:3333", "us-west-2", DDB_S3_ADDRESSING_AUTO },
    { "ep", NULL, { NULL }, "http://127.0.0.1:2222", "us-west-2", DDB_S3_ADDRESSING_AUTO },
    { NULL, NULL, { "AWS_ENDPOINT_URL_S3=http://127.0.0.1:5555",
                    "AWS_ENDPOINT_URL=http://127.0.0.1:6666", NULL },
      "http://127.0.0.1:5555", "eu-west-1", DDB_S3_ADDRESSING_AUTO },
    { "svc", NULL, { "AWS_ENDPOINT_URL=http://127.0.0.1:6666", NULL }, "http://127.0.0.1:6666",
      "us-west-2", DDB_S3_ADDRESSING_AUTO },
    { NULL, NULL, { "AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:7777", NULL }, NULL,
      "eu-west-1", DDB_S3_ADDRESSING_AUTO },
    { "svc", "https://given.example", { "AWS_ENDPOINT_URL_S3=http://127.0.0.1:5555", NULL },
      "https://given.example", "us-west-2", DDB_S3_ADDRESSING_AUTO },
    { "svc", NULL, { "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true",
                     "AWS_ENDPOINT_URL_S3=http://127.0.0.1:5555", NULL },
      NULL, "us-west-2", DDB_S3_ADDRESSING_AUTO },
    { "noregion", NULL, { "AWS_REGION=ap-south-1", NULL }, NULL, "ap-south-1",
      DDB_S3_ADDRESSING_AUTO },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Files f;
      DdbS3Options o = { 0 };
      g_autoptr (DdbS3) s3 = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *cached = NULL;

      files_init (&f, CONFIG);
      o.profile = cases[i].profile;
      o.endpoint_url = cases[i].option_endpoint;
      o.envp = files_envp (&f, cases[i].env);
      s3 = ddb_s3_new (&o, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (ddb_s3_get_endpoint (s3), ==, cases[i].endpoint);
      g_assert_cmpstr (ddb_s3_get_region (s3), ==, cases[i].region);
      g_assert_cmpint (ddb_s3_get_addressing_style (s3), ==, cases[i].style);
      cached = ddb_s3_get_bucket_region_cached (s3, "any-bucket");
      g_assert_cmpstr (cached, ==, cases[i].region);
      g_clear_pointer (&s3, ddb_s3_free);
      /* The option wins over the profile's style. */
      o.addressing_style = DDB_S3_ADDRESSING_PATH;
      s3 = ddb_s3_new (&o, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ddb_s3_get_addressing_style (s3), ==, DDB_S3_ADDRESSING_PATH);
      files_clear (&f);
    }
}

static void
test_new_refusals (void)
{
  static const struct {
    const char *profile;
    const char *option_endpoint;
    const char *env;
    GQuark domain;
    int code;
    const char *says;
  } cases[] = {
    { "noregion", NULL, NULL, 0, DDB_AWS_ERROR_NO_REGION, "region" },
    { "wrong", NULL, NULL, 0, DDB_AWS_ERROR_INVALID_CONFIG, "sideways" },
    { NULL, "not a url", NULL, 0, DDB_AWS_ERROR_INVALID_ENDPOINT, "not a url" },
    { NULL, NULL, "AWS_ENDPOINT_URL_S3=ftp://x", 0, DDB_AWS_ERROR_INVALID_ENDPOINT, "ftp://x" },
    { "badca", NULL, NULL, 1, DDB_HTTP_ERROR_TLS, "/nonexistent/ca.pem" },
    { "missing-profile", NULL, NULL, 0, DDB_AWS_ERROR_PROFILE_NOT_FOUND, "missing-profile" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Files f;
      DdbS3Options o = { 0 };
      g_autoptr (DdbS3) s3 = NULL;
      g_autoptr (GError) error = NULL;
      const char *env[] = { cases[i].env, NULL };

      files_init (&f, CONFIG);
      o.profile = cases[i].profile;
      o.endpoint_url = cases[i].option_endpoint;
      o.envp = files_envp (&f, env);
      s3 = ddb_s3_new (&o, &error);
      g_assert_null (s3);
      GQuark domain = cases[i].domain == 0 ? DDB_AWS_ERROR : DDB_HTTP_ERROR;

      g_assert_error (error, domain, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].says));
      files_clear (&f);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
  g_test_add_func ("/s3/parse-url", test_parse_url);
  g_test_add_func ("/s3/virtual-hostable", test_virtual_hostable);
  g_test_add_func ("/s3/standard-endpoints", test_standard_endpoints);
  g_test_add_func ("/s3/encode-key", test_encode_key);
  g_test_add_func ("/s3/targets", test_targets);
  g_test_add_func ("/s3/sign-headers", test_sign_headers);
  g_test_add_func ("/s3/error-xml", test_error_xml);
  g_test_add_func ("/s3/list-xml", test_list_xml);
  g_test_add_func ("/s3/error-names", test_error_names);
  g_test_add_func ("/s3/new-resolution", test_new_resolution);
  g_test_add_func ("/s3/new-refusals", test_new_refusals);
  return g_test_run ();
}
