/* test-sigv4-private.h: what the SigV4 test program's files share (test-sigv4.c, the verifier's
 * tests in test-sigv4-verify.c, the presigned requests' in test-sigv4-presign.c): the suite's key
 * and time, a DynamoDB request to sign and verify, the assertions on the verifier's answers
 * (defined in test-sigv4.c), and the functions that register each file's tests. Shared names
 * start with tsv_. */
#pragma once

#include <glib.h>

#include "core/error.h"
#include "net/sigv4.h"

G_BEGIN_DECLS

#define AKID "AKIDEXAMPLE"
#define SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define OTHER_AKID "AKIDOTHER"
#define OTHER_SECRET "0therSecretKeyForTestsOnly0000000000000000"
#define T0 G_GINT64_CONSTANT (1440938160) /* 2015-08-30T12:36:00Z */
#define BODY \
  "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Know\"}," \
  "\"SongTitle\":{\"S\":\"Call Me Today\"}}}"

/* A DynamoDB request as botocore builds it; Content-Length and User-Agent are not signed by
 * botocore (it adds Content-Length after signing). */
typedef struct {
  GArray *headers; /* DdbHttpHeader, strings owned by strings */
  GPtrArray *strings;
  const char *body;
  const char *query; /* NULL, or owned by strings */
} TestRequest;

TestRequest *tsv_test_request_new (const char *body);
void tsv_test_request_add (TestRequest *t, const char *name, const char *value);
/* Replaces the value of the first header of that name (any case), else adds the header. */
void tsv_test_request_set (TestRequest *t, const char *name, const char *value);
void tsv_test_request_remove (TestRequest *t, const char *name);
const char *tsv_test_request_get (TestRequest *t, const char *name);
void tsv_test_request_free (TestRequest *t);
/* T as the signer and the verifier take it: POST / with its query, headers and body. */
DdbHttpRequest tsv_as_http (TestRequest *t);

/* A GetItem of BODY to localhost:8000, unsigned. */
TestRequest *tsv_dynamodb_request (void);
/* Signs t in place (adds the signer's headers) with the given key, region and service. */
void tsv_sign_request (TestRequest *t, const char *akid, const char *secret, const char *token,
                       const char *region, const char *service, gint64 when, gboolean sign_body);
/* tsv_dynamodb_request signed by AKID at T0 for us-east-1 and dynamodb. */
TestRequest *tsv_signed_request (void);
/* S with every FROM replaced by TO; FROM must be there. */
char *tsv_replace (const char *s, const char *from, const char *to);

/* us-east-1, dynamodb, a skew of 900 s, and a lookup that knows AKID and OTHER_AKID. */
DdbSigv4VerifyParams tsv_verify_params (gint64 now);
void tsv_assert_verified (TestRequest *t, gint64 now, const char *expect_akid);
/* Asserts a refusal with its code and its whole message (or only its beginning when prefix). */
void tsv_assert_refused (TestRequest *t, gint64 now, DdbErrorCode code, const char *message,
                         gboolean prefix);

#define MISMATCH \
  "The request signature we calculated does not match the signature you provided. Check your " \
  "AWS Secret Access Key and signing method. Consult the service documentation for details."

/* Registers /sigv4/verify/... (test-sigv4-verify.c) and /sigv4/presign/...
 * (test-sigv4-presign.c). */
void tsv_add_verify_tests (void);
void tsv_add_presign_tests (void);

G_END_DECLS
