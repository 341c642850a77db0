// BatchGetItem Codegen and Codegen.Other-2 on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class DynamoDbRequest {
    public static void main(String[] args) throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("dev"))
                .endpointOverride(URI.create("http://127.0.0.1:8000"))
                .build()) {
            BatchGetItemRequest request = BatchGetItemRequest.builder()
                .requestItems(Map.ofEntries(
                    Map.entry("Codegen", KeysAndAttributes.builder()
                        .keys(List.of(
                            Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("p#1").build()),
                                Map.entry("sk", AttributeValue.builder().n("1").build())
                            ),
                            Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                Map.entry("sk", AttributeValue.builder().n("2").build())
                            ),
                            Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("nope").build()),
                                Map.entry("sk", AttributeValue.builder().n("0").build())
                            )
                        ))
                        .consistentRead(true)
                        .build()),
                    Map.entry("Codegen.Other-2", KeysAndAttributes.builder()
                        .keys(List.of(
                            Map.ofEntries(
                                Map.entry("id", AttributeValue.builder()
                                    .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==")))
                                    .build())
                            ),
                            Map.ofEntries(
                                Map.entry("id", AttributeValue.builder()
                                    .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AA==")))
                                    .build())
                            )
                        ))
                        .projectionExpression("id, #v")
                        .expressionAttributeNames(Map.ofEntries(Map.entry("#v", "v")))
                        .build())
                ))
                .build();
            // Keys DynamoDB did not get to come back as UnprocessedKeys: ask again, backing off.
            for (int attempt = 1; ; attempt++) {
                BatchGetItemResponse response = client.batchGetItem(request);
                response.responses().forEach((table, items) -> items.forEach(item -> System.out.println(table + " " + item)));
                if (response.unprocessedKeys().isEmpty()) {
                    break;
                }
                Thread.sleep(Math.min(50L << attempt, 5000L));
                request = request.toBuilder().requestItems(response.unprocessedKeys()).build();
            }
        }
    }
}
