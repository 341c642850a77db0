/* secret-json.h: a strict JSON reader (RFC 8259) for the answers and files that hold secrets
 * (credential_process output, the SSO token cache, SSO, STS, IMDS and container answers): every
 * buffer it makes is wiped when freed, which a general JSON library's are not. Values of objects
 * (nested to any depth up to 64) are kept by path, "roleCredentials.accessKeyId", and array
 * elements as "a[0]"; strings unescaped, numbers and literals as written. A repeated key: the
 * last one wins, as in Python's json. A key that no path can name ("", or one holding '.' or
 * '[') is listed among its object's members, but its value is only checked, not kept. Also the writer's half: a string quoted and escaped
 * the way Python's json.dumps writes it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  DDB_SECRET_JSON_ABSENT,
  DDB_SECRET_JSON_STRING,
  DDB_SECRET_JSON_NUMBER,
  DDB_SECRET_JSON_TRUE,
  DDB_SECRET_JSON_FALSE,
  DDB_SECRET_JSON_NULL,
  DDB_SECRET_JSON_OBJECT,
  DDB_SECRET_JSON_ARRAY,
} DdbSecretJsonKind;

typedef struct _DdbSecretJson DdbSecretJson;

/* TEXT must be one JSON object (white space around it allowed). NULL if it is not; the
 * text is never quoted back (it holds secrets): *ERROR_OFFSET (may be NULL) gets the byte
 * offset where reading stopped. */
DdbSecretJson *ddb_secret_json_parse (const char *text, gsize len, gsize *error_offset);
void ddb_secret_json_free (DdbSecretJson *json);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSecretJson, ddb_secret_json_free)

DdbSecretJsonKind ddb_secret_json_kind (DdbSecretJson *json, const char *path);
/* A string's text, or a number's literal text; NULL for anything else. */
const char *ddb_secret_json_get (DdbSecretJson *json, const char *path);
/* A string's text only. */
const char *ddb_secret_json_get_string (DdbSecretJson *json, const char *path);
/* A number that is a whole number in range (JSON 3, 3.0 and 3e0 alike). */
gboolean ddb_secret_json_get_int (DdbSecretJson *json, const char *path, gint64 *out);
/* The members of the object at PATH ("" for the top level), in file order, without
 * repeats; NULL if PATH is not an object. Owned by JSON. */
const char *const *ddb_secret_json_members (DdbSecretJson *json, const char *path);

/* Appends S as a JSON string, escaped as Python's json.dumps does (ensure_ascii: non-ASCII as
 * \uXXXX, surrogate pairs past the BMP). */
void ddb_secret_json_append_string (GString *out, const char *s);

/* An ISO 8601 date and time (UTC unless it says otherwise) as seconds since the epoch; only
 * 1970 to 9999. */
gboolean ddb_aws_parse_timestamp (const char *text, gint64 *out);

/* Seconds since the epoch as the AWS CLI writes them into its caches: "2024-05-01T12:00:00Z". */
char *ddb_aws_format_timestamp (gint64 when);

G_END_DECLS
