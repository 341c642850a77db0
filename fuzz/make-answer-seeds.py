#!/usr/bin/env python3
"""Writes fuzz/corpus/answer/: seeds for fuzz-answer, raw HTTP/1.1 answers of DynamoDB (see the
top of fuzz/fuzz-answer.c; an x-amz-crc32 of "@" stands for the body's CRC32).

The answers are DynamoDB's as others wrote them down: the error bodies of the fault server the
client's tests run against (tests/lib/dynoscope_testlib.py: its __type names and messages are
AWS's), the errors the API reference and serve --auth document (UnrecognizedClientException,
ExpiredTokenException, MissingAuthenticationTokenException, InvalidSignatureException, an
UnknownOperationException without a message), the header names AWS's JSON protocol answers
with (x-amzn-RequestId, x-amz-crc32, x-amzn-ErrorType with its ":http://internal.amazon.com/
coral/..." suffix), answers of the API reference's examples (ListTables, GetItem, a
ConditionalCheckFailedException holding the item, TransactionCanceledException's reasons),
and what the client's tests answer: no body (TagResource), a 503 in HTML, a damaged checksum,
U+0000 in a value and in a name.

    fuzz/make-answer-seeds.py [OUT_DIR]
"""
import json
import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus", "answer")

REQUEST_ID = "OMMQ4KBNV1MDJQQ6ES9JTCG1E7VV4KQNSO5AEMVJF66Q9ASUAAJG"
CT = "application/x-amz-json-1.0"
REASONS = {200: "OK", 400: "Bad Request", 413: "Request Entity Too Large", 500:
           "Internal Server Error", 503: "Service Unavailable"}


def answer(status, body, headers=None, crc=True, ctype=CT):
    raw = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
    lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Whatever')}",
             "Server: Server", "Date: Sun, 30 Aug 2015 12:36:00 GMT",
             f"Content-Type: {ctype}", f"Content-Length: {len(raw)}", "Connection: keep-alive",
             f"x-amzn-RequestId: {REQUEST_ID}"]
    if crc is True:
        lines.append(f"x-amz-crc32: {zlib.crc32(raw)}")
    elif crc is not False:
        lines.append(f"x-amz-crc32: {crc}")
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode(errors="surrogateescape") + raw


def error(type_, message, status=400, key="message", **extra):
    body = {"__type": type_}
    if message is not None:
        body[key] = message
    body.update(extra)
    return answer(status, body)


SEEDS = {
    "listtables": answer(200, {"LastEvaluatedTableName": "Thread",
                               "TableNames": ["Forum", "Reply", "Thread"]}),
    "getitem": answer(200, {"ConsumedCapacity": {"CapacityUnits": 1, "TableName": "Thread"},
                            "Item": {"Tags": {"SS": ["Update", "Multiple Items", "HelpMe"]},
                                     "LastPostDateTime": {"S": "201303190436"},
                                     "Message": {"S": "I want to update multiple items..."},
                                     "Views": {"N": "0.000000000000000000000000000000000001"}}}),
    "getitem-empty": answer(200, {}),
    "tagresource-no-body": answer(200, b"", crc=False),
    "crc-marker": answer(200, {"TableNames": []}, crc="@"),
    "crc-damaged": answer(200, {"TableNames": []}, crc=zlib.crc32(b'{"TableNames":[]}') + 1),
    "crc-plus-leading-zeros": answer(200, {"TableNames": []},
                                     crc="+00" + str(zlib.crc32(b'{"TableNames":[]}'))),
    # int() in botocore's CRC32 check: "-0" is 0 (the CRC32 of no body), '_' joins digits.
    "crc-minus-zero": answer(200, b"", crc="-0000000"),
    "crc-underscores": answer(200, {"TableNames": []},
                              crc="_".join(str(zlib.crc32(b'{"TableNames":[]}')))),
    "nul-in-value": answer(200, b'{"Item":{"k":{"S":"a\\u0000b"},"e":{"S":"\\u0000"}}}'),
    "nul-in-name": answer(200, b'{"Item":{"w\\u0000z":{"S":"1"}}}'),
    "not-an-object": answer(200, b'["TableNames"]'),
    "internal-500": error("com.amazonaws.dynamodb.v20120810#InternalServerError",
                          "Internal server error", status=500),
    "throttling": error("com.amazon.coral.availability#ThrottlingException", "Rate exceeded"),
    "pte": error("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                 "The level of configured provisioned throughput for the table was exceeded. "
                 "Consider increasing your provisioning level with the UpdateTable API."),
    "rle": error("com.amazonaws.dynamodb.v20120810#RequestLimitExceeded",
                 "Throughput exceeds the current throughput limit for your account."),
    "validation": error("com.amazon.coral.validate#ValidationException",
                        "1 validation error detected: Value null at 'tableName' failed to "
                        "satisfy constraint: Member must not be null"),
    "access-denied": error("com.amazon.coral.service#AccessDeniedException",
                           "User: arn:aws:iam::123456789012:user/x is not authorized to "
                           "perform: dynamodb:ListTables"),
    "not-found": error("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                       "Requested resource not found"),
    "unrecognized-client": error("com.amazon.coral.service#UnrecognizedClientException",
                                 "The security token included in the request is invalid."),
    "expired-token": error("com.amazon.coral.service#ExpiredTokenException",
                           "The security token included in the request is expired"),
    "missing-token": error("com.amazon.coral.service#MissingAuthenticationTokenException",
                           "Request is missing Authentication Token", status=403),
    "invalid-signature": error("com.amazon.coral.service#InvalidSignatureException",
                               "Signature expired: 20150830T123600Z is now earlier than "
                               "20150830T123601Z (20150830T125101Z - 15 min.)"),
    "unknown-operation": error("com.amazon.coral.service#UnknownOperationException", None),
    "serialization": error("com.amazon.coral.service#SerializationException", None,
                           Message="Start of structure or map found where not expected."),
    "conditional-item": error("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                              "The conditional request failed",
                              Item={"Id": {"N": "1"}, "Price": {"N": "500"}}),
    "transaction-canceled": error(
        "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
        "Transaction cancelled, please refer cancellation reasons for specific reasons "
        "[None, ConditionalCheckFailed]", key="Message",
        CancellationReasons=[{"Code": "None"}, {"Code": "ConditionalCheckFailed",
                                               "Message": "The conditional request failed"}]),
    "html-503": answer(503, b"<html><body>Service Unavailable</body></html>", crc=False,
                       ctype="text/html"),
    "errortype-header-only": answer(
        400, b"", crc=False, headers={"x-amzn-ErrorType": "ValidationException:http://internal."
                                      "amazon.com/coral/com.amazon.coral.validate/"}),
    "errortype-header-and-body": answer(
        400, {"message": "The security token included in the request is invalid."},
        headers={"x-amzn-ErrorType": "UnrecognizedClientException:http://internal.amazon.com/"
                                     "coral/com.amazon.coral.service/"}),
    # What fuzz-answer found: an empty message, and a name that is not UTF-8.
    "empty-message": error("com.amazon.coral.validate#ValidationException", ""),
    "errortype-not-utf8": answer(
        400, b"", crc=False, headers={"x-amzn-ErrorType": "Validation\udcff\udcfeException:http://"
                                      "internal.amazon.com/coral/com.amazon.coral.validate/"}),
    "too-large-413": answer(413, b"", crc=False, ctype="text/plain"),
    "continue-then-error": b"HTTP/1.1 100 Continue\r\nx-amz-crc32: 1\r\n" + error(
        "com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException",
        "Item collection size limit exceeded"),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
