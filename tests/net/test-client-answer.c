/* test-client-answer.c: the answers the DynamoDB client reads (ddb_client_read_answer, the
 * part of an attempt after the HTTP exchange): success, DynamoDB errors, retries, as the
 * transport hands them over; no server. */
#include <glib.h>
#include <jansson.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "net/client-private.h"
#include "net/client.h"

/* ---- Answers read (ddb_client_read_answer), no server ---- */

/* An answer as the transport hands it over: STATUS, HEADERS as name, value, ..., NULL (names in
 * lower case), BODY. */
static DdbClientAnswer
read_answer (guint status, const char *const *headers, const char *body, json_t **response,
             gboolean *ok, GError **error)
{
  DdbHttpResponse resp = { 0 };
  DdbClientAnswer r;

  resp.status = status;
  resp.body = g_bytes_new (body, strlen (body));
  resp.headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; headers != NULL && headers[i] != NULL; i += 2)
    g_hash_table_replace (resp.headers, g_strdup (headers[i]), g_strdup (headers[i + 1]));
  *response = NULL;
  r = ddb_client_read_answer (&resp, "http://answer.test", response, NULL, ok, error);
  ddb_http_response_clear (&resp);
  return r;
}

/* A page's answer read with its items apart (ddb_client_read): Items read straight into
 * values, the other members in the response; an answer only jansson reads (a name written with
 * escapes) with its Items in the response as before; a damaged one asked again either way. */
static void
test_answer_page_items (void)
{
  static const char page[] = "{\"Items\":[{\"pk\":{\"S\":\"a\"}},{\"pk\":{\"N\":\"1.50\"}}],"
                             "\"Count\":2,\"LastEvaluatedKey\":{\"pk\":{\"N\":\"1.5\"}}}";
  static const char escaped[] = "{\"\\u0049tems\":[{\"pk\":{\"S\":\"a\"}}],\"Count\":1}";
  const char *const bad_crc[] = { "x-amz-crc32", "1", NULL };
  const char *bodies[] = { page, escaped, page };
  const char *const *headers[] = { NULL, NULL, bad_crc };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      DdbHttpResponse resp = { 0 };
      json_t *response = NULL;
      GPtrArray *items = NULL;
      GError *error = NULL;
      gboolean ok;
      DdbClientAnswer r;

      resp.status = 200;
      resp.body = g_bytes_new (bodies[i], strlen (bodies[i]));
      resp.headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint h = 0; headers[i] != NULL && headers[i][h] != NULL; h += 2)
        g_hash_table_replace (resp.headers, g_strdup (headers[i][h]), g_strdup (headers[i][h + 1]));
      r = ddb_client_read_answer (&resp, "http://answer.test", &response, &items, &ok, &error);
      ddb_http_response_clear (&resp);
      if (i == 2)
        {
          g_assert_cmpint (r, ==, DDB_CLIENT_ANSWER_RETRY);
          g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_IO);
          g_assert_null (items);
          g_assert_null (response);
          g_clear_error (&error);
          continue;
        }
      g_assert_cmpint (r, ==, DDB_CLIENT_ANSWER_DONE);
      g_assert_no_error (error);
      g_assert_true (ok);
      g_assert_cmpint (json_integer_value (json_object_get (response, "Count")), ==,
                       i == 0 ? 2 : 1);
      if (i == 0)
        {
          g_autofree char *second = NULL;

          g_assert_nonnull (items);
          g_assert_cmpuint (items->len, ==, 2);
          second = ddb_json_format_item (items->pdata[1]);
          g_assert_cmpstr (second, ==, "{\"pk\":{\"N\":\"1.5\"}}");
          g_assert_null (json_object_get (response, "Items"));
          g_assert_nonnull (json_object_get (response, "LastEvaluatedKey"));
          g_ptr_array_unref (items);
        }
      else
        {
          g_assert_null (items);
          g_assert_cmpuint (json_array_size (json_object_get (response, "Items")), ==, 1);
        }
      json_decref (response);
    }
}

static void
test_answer_outcomes (void)
{
  const char *const good_crc[] = { "x-amz-crc32", "2745614147", NULL };
  const char *const bad_crc[] = { "x-amz-crc32", "2745614148", NULL };
  json_t *response;
  GError *error = NULL;
  gboolean ok;

  /* A JSON object, with its checksum; no body at all (TagResource). */
  g_assert_cmpint (read_answer (200, good_crc, "{}", &response, &ok, &error), ==,
                   DDB_CLIENT_ANSWER_DONE);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (json_is_object (response) && json_object_size (response) == 0);
  json_decref (response);
  g_assert_cmpint (read_answer (200, NULL, "", &response, &ok, &error), ==, DDB_CLIENT_ANSWER_DONE);
  g_assert_true (ok && json_is_object (response));
  json_decref (response);

  /* A damaged answer is asked again. */
  g_assert_cmpint (read_answer (200, bad_crc, "{}", &response, &ok, &error), ==,
                   DDB_CLIENT_ANSWER_RETRY);
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_IO);
  g_assert_false (ok);
  g_assert_null (response);
  g_clear_error (&error);

  /* The header read as botocore's int() reads it: a sign, '_' between digits; "-0" is 0. */
  {
    const struct {
      const char *crc, *body;
      gboolean same;
    } spellings[] = {
      { "+002745614147", "{}", TRUE },
      { "2_745_614_147", "{}", TRUE },
      { "-0000000", "", TRUE },
      { "0", "", TRUE },
      { "-2745614147", "{}", FALSE },
      { "2745614147_", "{}", FALSE },
      { "_2745614147", "{}", FALSE },
      { "2__745614147", "{}", FALSE },
      { "+-2745614147", "{}", FALSE },
      { "", "", FALSE },
      { "-", "", FALSE },
      { "6040581443", "{}", FALSE }, /* 2^32 + 2745614147 */
      { "0x0", "", FALSE },
      { "1e0", "", FALSE },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (spellings); i++)
      {
        const char *const header[] = { "x-amz-crc32", spellings[i].crc, NULL };

        g_test_message ("x-amz-crc32: %s", spellings[i].crc);
        g_assert_cmpint (read_answer (200, header, spellings[i].body, &response, &ok, &error), ==,
                         spellings[i].same ? DDB_CLIENT_ANSWER_DONE : DDB_CLIENT_ANSWER_RETRY);
        g_assert_true (ok == spellings[i].same);
        g_clear_error (&error);
        g_clear_pointer (&response, json_decref);
      }
  }

  /* A 200 that is not a JSON object. */
  g_assert_cmpint (read_answer (200, NULL, "[]", &response, &ok, &error), ==,
                   DDB_CLIENT_ANSWER_DONE);
  g_assert_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED);
  g_assert_null (response);
  g_clear_error (&error);

  /* Throttled: retried; a validation error: not. */
  g_assert_cmpint (read_answer (400, NULL,
                                "{\"__type\": "
                                "\"com.amazon.coral.availability#ThrottlingException\", "
                                "\"message\": \"Rate exceeded\"}",
                                &response, &ok, &error),
                   ==, DDB_CLIENT_ANSWER_RETRY);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_cmpstr (error->message, ==, "Rate exceeded");
  g_assert_cmpstr (ddb_client_error_name (error, response), ==, "ThrottlingException");
  json_decref (response);
  g_clear_error (&error);
  g_assert_cmpint (read_answer (400, NULL,
                                "{\"__type\": \"com.amazon.coral.validate#ValidationException\", "
                                "\"message\": \"Bad\"}",
                                &response, &ok, &error),
                   ==, DDB_CLIENT_ANSWER_DONE);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  json_decref (response);
  g_clear_error (&error);
}

/* Found by fuzz-answer: an empty message made an error with an empty message, and a name in
 * x-amzn-ErrorType that is not UTF-8 could not be kept in "__type", so that the error was
 * reported as InternalServerError (retried) while the client had decided on its own name (not
 * retried). */
static void
test_answer_odd_errors (void)
{
  const char *const odd_type[] = { "x-amzn-errortype",
                                   "Validation\xff\xfe"
                                   "Exception:http://internal.amazon.com/coral/x/",
                                   NULL };
  json_t *response;
  GError *error = NULL;
  gboolean ok;

  g_assert_cmpint (read_answer (400, NULL,
                                "{\"__type\": \"com.amazon.coral.validate#ValidationException\", "
                                "\"message\": \"\"}",
                                &response, &ok, &error),
                   ==, DDB_CLIENT_ANSWER_DONE);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==, "The endpoint answered HTTP 400 without a message");
  json_decref (response);
  g_clear_error (&error);
  /* U+0000 first: as empty; the other spelling is taken then. */
  g_assert_cmpint (read_answer (400, NULL,
                                "{\"__type\": \"ValidationException\", \"message\": \"\\u0000x\", "
                                "\"Message\": \"Spelled otherwise\"}",
                                &response, &ok, &error),
                   ==, DDB_CLIENT_ANSWER_DONE);
  g_assert_cmpstr (error->message, ==, "Spelled otherwise");
  json_decref (response);
  g_clear_error (&error);

  g_assert_cmpint (read_answer (400, odd_type, "", &response, &ok, &error), ==,
                   DDB_CLIENT_ANSWER_DONE);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_cmpstr (ddb_client_error_name (error, response), ==,
                   "Validation\xef\xbf\xbd\xef\xbf\xbd"
                   "Exception");
  g_assert_false (ddb_client_error_is_retryable (ddb_client_error_name (error, response), 400));
  json_decref (response);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
  g_test_add_func ("/client/answer/outcomes", test_answer_outcomes);
  g_test_add_func ("/client/answer/page-items", test_answer_page_items);
  g_test_add_func ("/client/answer/odd-errors", test_answer_odd_errors);
  return g_test_run ();
}
