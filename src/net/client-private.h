/* client-private.h: how the DynamoDB client (client.c) reads an HTTP answer once it came, apart
 * from the transport and the signing, for client.c and its fuzz target (fuzz/fuzz-answer.c). */
#pragma once

#include <jansson.h>

#include "net/http.h"

G_BEGIN_DECLS

typedef enum {
  DDB_CLIENT_ANSWER_DONE,  /* a success or a final error */
  DDB_CLIENT_ANSWER_RETRY, /* a retryable failure: ERROR holds it in case it is the last */
} DdbClientAnswer;

/* Reads RESP, the answer of ENDPOINT (named in messages) to a DynamoDB call; *OK is FALSE unless
 * the call succeeded:
 * - an x-amz-crc32 that does not match the body: RETRY, DDB_HTTP_ERROR_IO (botocore's
 *   still_retry_crc32 policy), *RESPONSE untouched;
 * - a 200: DONE; with a JSON object, or no body at all (TagResource), *OK and *RESPONSE the
 *   object (a new reference), its Items read into *ITEMS when ITEMS is not NULL and
 *   ddb_json_read_page takes the body (*ITEMS untouched otherwise); else DDB_HTTP_ERROR_FAILED (not
 * a JSON object, or a key holding U+0000), *RESPONSE untouched;
 * - any other status: a DynamoDB error (DDB_ERROR, as ddb_client_call describes it: the code of
 *   the name in __type or x-amzn-ErrorType, DDB_ERROR_INTERNAL with "__type" in *RESPONSE for a
 *   name no code names, made UTF-8 if the header's is not), *RESPONSE the error body's other
 *   members, the message message or Message (an empty one counts as none: then "The endpoint
 *   answered HTTP N without a message"); RETRY when the SDKs retry that name at that status
 *   (ddb_client_error_is_retryable), else DONE. */
DdbClientAnswer ddb_client_read_answer (const DdbHttpResponse *resp, const char *endpoint,
                                        json_t **response, GPtrArray **items, gboolean *ok,
                                        GError **error);

G_END_DECLS
