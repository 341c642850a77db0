// TransactWriteItems Codegen and Codegen.Other-2 on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            TransactWriteItemsRequest request = TransactWriteItemsRequest.builder()
                .transactItems(List.of(
                    TransactWriteItem.builder()
                        .put(Put.builder()
                            .tableName("Codegen")
                            .item(Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("t#1").build()),
                                Map.entry("sk", AttributeValue.builder().n("1").build()),
                                Map.entry("v", AttributeValue.builder()
                                    .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                    .build())
                            ))
                            .conditionExpression("attribute_not_exists(pk)")
                            .build())
                        .build(),
                    TransactWriteItem.builder()
                        .update(Update.builder()
                            .tableName("Codegen")
                            .key(Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                Map.entry("sk", AttributeValue.builder().n("0").build())
                            ))
                            .updateExpression("SET #l = list_append(if_not_exists(#l, :e), :x)")
                            .expressionAttributeNames(Map.ofEntries(Map.entry("#l", "list")))
                            .expressionAttributeValues(Map.ofEntries(
                                Map.entry(":e", AttributeValue.builder().l(List.of()).build()),
                                Map.entry(":x", AttributeValue.builder()
                                    .l(List.of(
                                        AttributeValue.builder()
                                            .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                            .build(),
                                        AttributeValue.builder()
                                            .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("/wA=")))
                                            .build()
                                    ))
                                    .build())
                            ))
                            .build())
                        .build(),
                    TransactWriteItem.builder()
                        .conditionCheck(ConditionCheck.builder()
                            .tableName("Codegen.Other-2")
                            .key(Map.ofEntries(
                                Map.entry("id", AttributeValue.builder()
                                    .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AA==")))
                                    .build())
                            ))
                            .conditionExpression("v = :e")
                            .expressionAttributeValues(Map.ofEntries(
                                Map.entry(":e", AttributeValue.builder().s("").build())
                            ))
                            .build())
                        .build(),
                    TransactWriteItem.builder()
                        .delete(Delete.builder()
                            .tableName("Codegen")
                            .key(Map.ofEntries(
                                Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                Map.entry("sk", AttributeValue.builder().n("3").build())
                            ))
                            .build())
                        .build()
                ))
                .returnConsumedCapacity("TOTAL")
                .build();
            TransactWriteItemsResponse response = client.transactWriteItems(request);
            System.out.println(response);
        }
    }
}
