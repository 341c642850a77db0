// BatchWriteItem Codegen and Codegen.Other-2 on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            BatchWriteItemRequest request = BatchWriteItemRequest.builder()
                .requestItems(Map.ofEntries(
                    Map.entry("Codegen", List.of(
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                .item(Map.ofEntries(
                                    Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                    Map.entry("sk", AttributeValue.builder().n("0").build()),
                                    Map.entry("v", AttributeValue.builder()
                                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                        .build())
                                ))
                                .build())
                            .build(),
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                .item(Map.ofEntries(
                                    Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                    Map.entry("sk", AttributeValue.builder().n("1").build()),
                                    Map.entry("v", AttributeValue.builder()
                                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007fq'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                        .build())
                                ))
                                .build())
                            .build(),
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                .item(Map.ofEntries(
                                    Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                    Map.entry("sk", AttributeValue.builder().n("2").build()),
                                    Map.entry("v", AttributeValue.builder()
                                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007fq'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007fq'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                        .build())
                                ))
                                .build())
                            .build(),
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                .item(Map.ofEntries(
                                    Map.entry("pk", AttributeValue.builder().s("p#3").build()),
                                    Map.entry("sk", AttributeValue.builder().n("3").build()),
                                    Map.entry("v", AttributeValue.builder()
                                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007fq'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007fq'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007fq'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                        .build())
                                ))
                                .build())
                            .build(),
                        WriteRequest.builder()
                            .deleteRequest(DeleteRequest.builder()
                                .key(Map.ofEntries(
                                    Map.entry("pk", AttributeValue.builder().s("p#1").build()),
                                    Map.entry("sk", AttributeValue.builder().n("3").build())
                                ))
                                .build())
                            .build()
                    )),
                    Map.entry("Codegen.Other-2", List.of(
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                .item(Map.ofEntries(
                                    Map.entry("id", AttributeValue.builder()
                                        .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==")))
                                        .build()),
                                    Map.entry("v", AttributeValue.builder()
                                        .m(Map.ofEntries(
                                            Map.entry("k19", AttributeValue.builder()
                                                .l(List.of(
                                                    AttributeValue.builder()
                                                        .m(Map.ofEntries(
                                                            Map.entry("k17", AttributeValue.builder()
                                                                .l(List.of(
                                                                    AttributeValue.builder()
                                                                        .m(Map.ofEntries(
                                                                            Map.entry("k15", AttributeValue.builder()
                                                                                .l(List.of(
                                                                                    AttributeValue.builder()
                                                                                        .m(Map.ofEntries(
                                                                                            Map.entry("k13", AttributeValue.builder()
                                                                                                .l(List.of(
                                                                                                    AttributeValue.builder()
                                                                                                        .m(Map.ofEntries(
                                                                                                            Map.entry("k11", AttributeValue.builder()
                                                                                                                .l(List.of(
                                                                                                                    AttributeValue.builder()
                                                                                                                        .m(Map.ofEntries(
                                                                                                                            Map.entry("k9", AttributeValue.builder()
                                                                                                                                .l(List.of(
                                                                                                                                    AttributeValue.builder()
                                                                                                                                        .m(Map.ofEntries(
                                                                                                                                            Map.entry("k7", AttributeValue.builder()
                                                                                                                                                .l(List.of(
                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                        .m(Map.ofEntries(
                                                                                                                                                            Map.entry("k5", AttributeValue.builder()
                                                                                                                                                                .l(List.of(
                                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                                        .m(Map.ofEntries(
                                                                                                                                                                            Map.entry("k3", AttributeValue.builder()
                                                                                                                                                                                .l(List.of(
                                                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                                                        .m(Map.ofEntries(
                                                                                                                                                                                            Map.entry("k1", AttributeValue.builder()
                                                                                                                                                                                                .l(List.of(
                                                                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                                                                        .s("bottom q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                                                                                                                                                                                        .build(),
                                                                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                                                                        .n("0")
                                                                                                                                                                                                        .build()
                                                                                                                                                                                                ))
                                                                                                                                                                                                .build())
                                                                                                                                                                                        ))
                                                                                                                                                                                        .build(),
                                                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                                                        .n("2")
                                                                                                                                                                                        .build()
                                                                                                                                                                                ))
                                                                                                                                                                                .build())
                                                                                                                                                                        ))
                                                                                                                                                                        .build(),
                                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                                        .n("4")
                                                                                                                                                                        .build()
                                                                                                                                                                ))
                                                                                                                                                                .build())
                                                                                                                                                        ))
                                                                                                                                                        .build(),
                                                                                                                                                    AttributeValue.builder()
                                                                                                                                                        .n("6")
                                                                                                                                                        .build()
                                                                                                                                                ))
                                                                                                                                                .build())
                                                                                                                                        ))
                                                                                                                                        .build(),
                                                                                                                                    AttributeValue.builder()
                                                                                                                                        .n("8")
                                                                                                                                        .build()
                                                                                                                                ))
                                                                                                                                .build())
                                                                                                                        ))
                                                                                                                        .build(),
                                                                                                                    AttributeValue.builder()
                                                                                                                        .n("10")
                                                                                                                        .build()
                                                                                                                ))
                                                                                                                .build())
                                                                                                        ))
                                                                                                        .build(),
                                                                                                    AttributeValue.builder()
                                                                                                        .n("12")
                                                                                                        .build()
                                                                                                ))
                                                                                                .build())
                                                                                        ))
                                                                                        .build(),
                                                                                    AttributeValue.builder()
                                                                                        .n("14")
                                                                                        .build()
                                                                                ))
                                                                                .build())
                                                                        ))
                                                                        .build(),
                                                                    AttributeValue.builder()
                                                                        .n("16")
                                                                        .build()
                                                                ))
                                                                .build())
                                                        ))
                                                        .build(),
                                                    AttributeValue.builder().n("18").build()
                                                ))
                                                .build())
                                        ))
                                        .build())
                                ))
                                .build())
                            .build(),
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                .item(Map.ofEntries(
                                    Map.entry("id", AttributeValue.builder()
                                        .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AA==")))
                                        .build()),
                                    Map.entry("v", AttributeValue.builder().s("").build())
                                ))
                                .build())
                            .build()
                    ))
                ))
                .build();
            // Writes DynamoDB did not get to come back as UnprocessedItems: send them again, backing off.
            for (int attempt = 1; ; attempt++) {
                BatchWriteItemResponse response = client.batchWriteItem(request);
                System.out.println(response);
                if (response.unprocessedItems().isEmpty()) {
                    break;
                }
                Thread.sleep(Math.min(50L << attempt, 5000L));
                request = request.toBuilder().requestItems(response.unprocessedItems()).build();
            }
        }
    }
}
