/* s3.h: an Amazon S3 client (no GTK) over the HTTP transport, for reading DynamoDB's exports
 * from a bucket and writing exports to one: GetObject streamed to a callback (with Range and
 * If-Match, and resuming a broken download from the byte reached), HeadObject, PutObject,
 * ListObjectsV2 (every page), HeadBucket's region; signed with SigV4 for "s3" from a profile's
 * credentials, as the AWS CLI v2 resolves them.
 *
 * Endpoint, as the AWS CLI v2 resolves it for S3: DdbS3Options.endpoint_url, else the configured
 * endpoint of service id "S3" (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's services
 * section key s3, the profile's endpoint_url), else https://s3.REGION.SUFFIX in the region's
 * partition (us-east-1 too is regional, as the CLI v2 sets us_east_1_regional_endpoint; the
 * pseudo-region aws-global is https://s3.amazonaws.com).
 *
 * Addressing, as botocore's S3 endpoint rule set decides with the CLI's settings
 * (args.py's AWS::S3::ForcePathStyle, endpoint_provider.py's isVirtualHostableS3Bucket):
 * - an endpoint that is configured or given (any of the above but the region's) is path-style
 *   (http://host:port/BUCKET/KEY) unless the addressing style is "virtual";
 * - addressing style "path" is always path-style;
 * - otherwise the bucket goes into the host (https://BUCKET.s3.REGION.amazonaws.com/KEY) when it
 *   is virtual-hostable: at least 3 characters, no upper case, not an IPv4 address, and a DNS
 *   label (1 to 63 letters, digits and '-', not starting or ending with '-'); over plain http
 *   the bucket may also be several such labels joined by dots; and the endpoint host is not an
 *   IP address (botocore skips that check for dotted buckets over http, making hosts such as
 *   a.b.c.127.0.0.1; here an IP address is always path-style). Anything else (dots over https,
 *   upper case, '_', ...) is path-style.
 * The addressing style is DdbS3Options.addressing_style, else the profile's nested
 * `s3 =\n  addressing_style = path|virtual|auto` setting.
 *
 * Retries, as the SDKs' standard mode does: 5xx, throttling and transient error codes (SlowDown,
 * RequestTimeout, ...), connection errors and timeouts are retried with capped exponential
 * backoff and full jitter, up to max_attempts. A streamed GetObject that breaks after bytes were
 * delivered is resumed with Range from the byte reached and If-Match on the first response's
 * ETag: the callback never sees a byte twice, and an object changed meanwhile is an error.
 *
 * Region redirects, as botocore's S3RegionRedirectorv2: a 301/302/307, a PermanentRedirect, an
 * AuthorizationHeaderMalformed naming a Region, or a HEAD answered 400/301 finds the bucket's
 * region (the x-amz-bucket-region header, else the error's Region, else HeadBucket's header) and
 * sends the request once more, signed for that region (and to its endpoint unless the endpoint
 * is configured); the bucket's region is kept in the DdbS3 for the requests after.
 *
 * Thread-safe: one DdbS3 serves requests from several threads at once. Credentials are never
 * logged and never appear in an error; TLS verification cannot be turned off. */
#pragma once

#include <gio/gio.h>

#include "net/credentials.h"
#include "net/http.h"

G_BEGIN_DECLS

#define DDB_S3_ERROR (ddb_s3_error_quark ())

/* S3's errors by the code of their XML body (or, for bodiless answers to HEAD, by status:
 * 404 NoSuchKey or NoSuchBucket, 403 AccessDenied, 412 PreconditionFailed). Every message
 * starts with the code's name: "NoSuchKey: The specified key does not exist. (s3://b/k)". */
typedef enum {
  DDB_S3_ERROR_OTHER,               /* any code not below; the message names it */
  DDB_S3_ERROR_NO_SUCH_KEY,         /* NoSuchKey */
  DDB_S3_ERROR_NO_SUCH_BUCKET,      /* NoSuchBucket */
  DDB_S3_ERROR_ACCESS_DENIED,       /* AccessDenied */
  DDB_S3_ERROR_PRECONDITION_FAILED, /* PreconditionFailed: If-Match, or the object changed
                                     * while a download resumed */
  DDB_S3_ERROR_INVALID_RANGE,       /* InvalidRange */
  DDB_S3_ERROR_SIGNATURE_MISMATCH,  /* SignatureDoesNotMatch */
  DDB_S3_ERROR_INVALID_ACCESS_KEY,  /* InvalidAccessKeyId */
  DDB_S3_ERROR_EXPIRED_TOKEN,       /* ExpiredToken */
  DDB_S3_ERROR_SLOW_DOWN,           /* SlowDown, after the retries */
  DDB_S3_ERROR_INTERNAL,            /* InternalError, after the retries */
  DDB_S3_ERROR_REDIRECT,            /* PermanentRedirect, TemporaryRedirect: no region found */
  DDB_S3_ERROR_BAD_RESPONSE,        /* a response that does not parse or does not add up */
  DDB_S3_ERROR_INVALID_URL,         /* ddb_s3_parse_url */
  DDB_S3_ERROR_INVALID_BUCKET,      /* not a bucket name S3 accepts */
} DdbS3ErrorCode;

GQuark ddb_s3_error_quark (void);

/* The code of S3 error NAME ("NoSuchKey"); DDB_S3_ERROR_OTHER for a name not above. */
DdbS3ErrorCode ddb_s3_error_code_from_name (const char *name);

typedef enum {
  DDB_S3_ADDRESSING_AUTO,    /* the profile's setting, else botocore's default */
  DDB_S3_ADDRESSING_PATH,    /* always path-style */
  DDB_S3_ADDRESSING_VIRTUAL, /* virtual-hosted where the bucket can be a host name */
} DdbS3AddressingStyle;

#define DDB_S3_DEFAULT_MAX_ATTEMPTS 5 /* botocore's standard retry mode: 3; S3 gets a few more */
#define DDB_S3_DEFAULT_BASE_DELAY_MS 100
#define DDB_S3_DEFAULT_MAX_DELAY_MS 20000
#define DDB_S3_DEFAULT_IDLE_TIMEOUT_MS 60000

typedef struct {
  /* As DdbClientOptions: the session (profile, region, envp; NULL profile: AWS_PROFILE, ...). */
  const char *profile;
  const char *region;
  const char *endpoint_url; /* --endpoint-url: wins over the configured endpoints */
  const char *const *envp;  /* NULL: the process environment */
  /* PEM file of CAs; NULL: AWS_CA_BUNDLE, else the profile's ca_bundle, else the system's. */
  const char *ca_bundle;
  guint connect_timeout_ms; /* 0: 10 s */
  guint timeout_ms;         /* one attempt of a call without a streamed body; 0: 60 s */
  guint idle_timeout_ms;    /* a streamed GetObject: no byte for this long; 0: 60 s */
  guint max_attempts;       /* 0: DDB_S3_DEFAULT_MAX_ATTEMPTS; 1: no retries */
  guint base_delay_ms;      /* 0: DDB_S3_DEFAULT_BASE_DELAY_MS */
  guint max_delay_ms;       /* 0: DDB_S3_DEFAULT_MAX_DELAY_MS */
  DdbS3AddressingStyle addressing_style;
  DdbAwsMfaPrompt mfa_prompt;
  gpointer mfa_prompt_data;
} DdbS3Options;

typedef struct _DdbS3 DdbS3;

/* Resolves the session and the endpoint. Errors: DDB_AWS_ERROR for the configuration (no
 * region, a bad endpoint URL or addressing style), DDB_HTTP_ERROR for a missing CA bundle.
 * Credentials are fetched at the first request. */
DdbS3 *ddb_s3_new (const DdbS3Options *options, GError **error);
void ddb_s3_free (DdbS3 *s3);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbS3, ddb_s3_free)

/* The configured or given endpoint, or NULL when requests go to the region's S3. */
const char *ddb_s3_get_endpoint (DdbS3 *s3);
const char *ddb_s3_get_region (DdbS3 *s3);
/* The addressing style asked for (the option, else the profile's). */
DdbS3AddressingStyle ddb_s3_get_addressing_style (DdbS3 *s3);
/* The region requests for BUCKET are signed for: the one a redirect taught, else the client's.
 * A new string. */
char *ddb_s3_get_bucket_region_cached (DdbS3 *s3, const char *bucket);

/* What a call did, for callers that show it and for tests. */
typedef struct {
  guint attempts;  /* HTTP requests made */
  guint resumes;   /* of those, GetObject requests that resumed a broken body */
  guint redirects; /* region redirects followed */
} DdbS3CallInfo;

/* An object's metadata. */
typedef struct {
  guint64 size;       /* the whole object's size */
  char *etag;         /* as S3 sends it, quotes included */
  char *content_type; /* or NULL */
  gint64 last_modified; /* seconds since the epoch, 0 if unknown */
} DdbS3ObjectInfo;

void ddb_s3_object_info_clear (DdbS3ObjectInfo *info);

/* Receives a GetObject body in order, each byte once. FALSE with ERROR stops the download. */
typedef gboolean (*DdbS3SinkFunc) (const guint8 *data, gsize len, gpointer user_data,
                                   GError **error);

typedef struct {
  guint64 start;        /* the first byte wanted (Range: bytes=START-); 0: from the start */
  const char *if_match; /* the ETag the object must have (If-Match), or NULL */
} DdbS3GetOptions;

/* Streams s3://BUCKET/KEY (from OPTIONS->start; OPTIONS may be NULL) to SINK. INFO (may be
 * NULL) receives the object's metadata (size: the whole object's). Resumes a broken body as
 * described at the top. */
gboolean ddb_s3_get_object (DdbS3 *s3, const char *bucket, const char *key,
                            const DdbS3GetOptions *options, DdbS3SinkFunc sink,
                            gpointer sink_data, GCancellable *cancellable, DdbS3ObjectInfo *info,
                            DdbS3CallInfo *call_info, GError **error);

/* HeadObject. */
gboolean ddb_s3_head_object (DdbS3 *s3, const char *bucket, const char *key,
                             GCancellable *cancellable, DdbS3ObjectInfo *info,
                             DdbS3CallInfo *call_info, GError **error);

/* PutObject of DATA (with Content-MD5, which S3 checks). CONTENT_TYPE NULL:
 * application/octet-stream. *ETAG (may be NULL) receives the new object's ETag. */
gboolean ddb_s3_put_object (DdbS3 *s3, const char *bucket, const char *key, GBytes *data,
                            const char *content_type, GCancellable *cancellable, char **etag,
                            DdbS3CallInfo *call_info, GError **error);

typedef struct {
  char *key;
  guint64 size;
  char *etag;
  gint64 last_modified; /* seconds since the epoch, 0 if unknown */
} DdbS3Object;

typedef struct {
  GPtrArray *objects;         /* DdbS3Object *, in S3's order (by key) */
  GPtrArray *common_prefixes; /* char *, with a delimiter */
} DdbS3Listing;

DdbS3Listing *ddb_s3_listing_new (void);
void ddb_s3_listing_free (DdbS3Listing *listing);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbS3Listing, ddb_s3_listing_free)

/* ListObjectsV2 of BUCKET under PREFIX (NULL or "": all) with DELIMITER (NULL: none), every page
 * (following continuation tokens). Keys come back decoded (encoding-type=url is asked for,
 * and decoded when the answer says it is used). */
DdbS3Listing *ddb_s3_list_objects (DdbS3 *s3, const char *bucket, const char *prefix,
                                   const char *delimiter, GCancellable *cancellable,
                                   DdbS3CallInfo *call_info, GError **error);

/* HeadBucket's x-amz-bucket-region (NULL with an error when the answer has none). */
char *ddb_s3_head_bucket_region (DdbS3 *s3, const char *bucket, GCancellable *cancellable,
                                 GError **error);

/* Splits "s3://BUCKET/KEY..." into BUCKET and KEY ("" for "s3://BUCKET" and "s3://BUCKET/").
 * Errors (DDB_S3_ERROR_INVALID_URL) name what is wrong: not s3://, no bucket, a bucket name S3
 * does not accept (botocore's [a-zA-Z0-9._-]{1,255}), an access point ARN. */
gboolean ddb_s3_parse_url (const char *url, char **bucket, char **key, GError **error);

/* ---- The pieces, for tests ---- */

/* botocore's isVirtualHostableS3Bucket (BUCKET, ALLOW_DOTS): with ALLOW_DOTS, each label of BUCKET
 * is a DNS label. */
gboolean ddb_s3_bucket_is_virtual_hostable (const char *bucket, gboolean allow_dots);

/* https://s3.REGION.SUFFIX (https://s3.amazonaws.com for aws-global). */
char *ddb_s3_standard_endpoint (const char *region);

/* KEY percent-encoded as S3 URLs carry it: every byte but letters, digits, '-', '.', '_', '~'
 * and '/'. */
char *ddb_s3_encode_key (const char *key);

/* Percent-encodes a query component (every byte but letters, digits, '-', '.', '_', '~'). */
char *ddb_s3_encode_query_value (const char *value);

/* Where a request for BUCKET and KEY (NULL: the bucket itself) goes. */
typedef struct {
  char *url;  /* with the encoded path and QUERY */
  char *host; /* the Host header */
  char *path; /* the path not encoded: what SigV4's canonical URI encodes once */
} DdbS3Target;

void ddb_s3_target_clear (DdbS3Target *target);

/* ENDPOINT is the base URL (a path in it is kept before the bucket); CUSTOM tells whether it is
 * a configured one (path-style by default). QUERY is already encoded, or NULL. */
gboolean ddb_s3_target_build (const char *endpoint, gboolean custom, DdbS3AddressingStyle style,
                              const char *bucket, const char *key, const char *query,
                              DdbS3Target *target, GError **error);

/* Signs a request to TARGET for "s3" in REGION at time NOW: adds to HEADERS (an array with room
 * for N_MAX) Host, then the signature's X-Amz-Security-Token, X-Amz-Date,
 * x-amz-content-sha256 (the payload's SHA-256) and Authorization. *N_HEADERS counts the headers
 * in use before and after. SIG keeps the strings the added headers point at. */
gboolean ddb_s3_sign (const char *method, const DdbS3Target *target, const DdbCredentials *creds,
                      const char *region, gint64 now, const guint8 *body, gsize body_len,
                      DdbHttpHeader *headers, guint *n_headers, guint n_max, DdbSignature *sig,
                      GError **error);

/* S3's XML error body: its Code, Message and Region (each NULL when absent). FALSE if it is not
 * XML with an <Error> element. */
gboolean ddb_s3_parse_error (const char *xml, gsize len, char **code, char **message,
                             char **region);

/* One ListObjectsV2 page added to LISTING: *NEXT_TOKEN (NULL when not truncated) and whether
 * keys were url-encoded (then decoded here). */
gboolean ddb_s3_parse_list_page (const char *xml, gsize len, DdbS3Listing *listing,
                                 char **next_token, GError **error);

G_END_DECLS
