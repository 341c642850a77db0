// TransactGetItems Codegen and Codegen.Other-2 on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            TransactGetItemsRequest request = TransactGetItemsRequest.builder()
                .transactItems(List.of(
                    TransactGetItem.builder()
                        .get(Get.builder()
                            .tableName("Codegen")
                            .key(Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("t#1").build()),
                                Map.entry("sk", AttributeValue.builder().n("1").build())
                            ))
                            .build())
                        .build(),
                    TransactGetItem.builder()
                        .get(Get.builder()
                            .tableName("Codegen.Other-2")
                            .key(Map.ofEntries(
                                Map.entry("id", AttributeValue.builder()
                                    .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==")))
                                    .build())
                            ))
                            .projectionExpression("#v")
                            .expressionAttributeNames(Map.ofEntries(Map.entry("#v", "v")))
                            .build())
                        .build(),
                    TransactGetItem.builder()
                        .get(Get.builder()
                            .tableName("Codegen")
                            .key(Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("gone").build()),
                                Map.entry("sk", AttributeValue.builder().n("1").build())
                            ))
                            .build())
                        .build()
                ))
                .build();
            TransactGetItemsResponse response = client.transactGetItems(request);
            response.responses().forEach(entry -> System.out.println(entry.hasItem() ? entry.item().toString() : "null"));
        }
    }
}
